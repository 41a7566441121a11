from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages
from tournaments import followups  # registers, imports no model


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
        pages.offer("club_leagues", "league_club:leagues")
        # the follow-up of a closing tournament; the ``league:<id>`` rating scope
        from leagues import panels, rating_scope, receivers  # noqa: PLC0415

        pages.add_panel("club_notices", "league_invitations", panels.league_invitations)

        followups.on_tournament_closed(receivers.tournament_closed)
        rating_scope.register()
