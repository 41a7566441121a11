from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class StandingsConfig(AppConfig):
    """A club's standings (read side, no model): queries, filters, table, pages."""

    name = "standings"
    verbose_name = _("Standings")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("club_standings", "standings:club")
        pages.offer("season_standings", "standings:season")
