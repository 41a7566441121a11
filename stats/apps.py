from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class StatsConfig(AppConfig):
    """Players' and seasons' statistics (read side, no model): queries, tables, pages."""

    name = "stats"
    verbose_name = _("Statistics")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("player_statistics", "stats:player")
        pages.offer("player_season_statistics", "stats:player_season")
        pages.offer("season_statistics", "stats:season")
