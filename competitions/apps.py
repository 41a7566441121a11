from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages
from tournaments import followups  # registers, imports no model


class CompetitionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "competitions"
    verbose_name = _("team competitions")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("league_competitions", "competitions:list")
        # a team match's table confirmed records the match (``tournaments.followups``)
        from competitions import services  # noqa: PLC0415

        followups.on_table_confirmed(services.table_confirmed)
