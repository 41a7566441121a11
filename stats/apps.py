from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    """Players' and seasons' statistics (read side, no model): queries, tables, pages."""

    name = "stats"
    verbose_name = _("Statistics")
