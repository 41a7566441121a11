from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from tournaments import followups  # registers, imports no model


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("leagues")

    def ready(self):
        # the follow-up of a closing tournament; the ``league:<id>`` rating scope
        from leagues import ratings, receivers  # noqa: PLC0415

        followups.on_tournament_closed(receivers.tournament_closed)
        ratings.register()
