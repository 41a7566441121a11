from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("leagues")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("league_guests", "league_club:guests")
        pages.offer("my_data", "leagues:my_data")
        pages.offer("player_data", "league_club:player_data")
        pages.offer("player_erase", "league_club:player_erase")
        # the signal receivers; the ``league:<id>`` rating scope (``ratings.scopes``)
        from leagues import ratings, receivers  # noqa: F401, PLC0415

        ratings.register()
