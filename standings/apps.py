from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingsConfig(AppConfig):
    """A club's standings (read side, no model): queries, filters, table, pages."""

    name = "standings"
    verbose_name = _("Standings")
