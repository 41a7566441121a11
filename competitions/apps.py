from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class CompetitionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "competitions"
    verbose_name = _("team competitions")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("league_competitions", "competitions:list")
        from competitions import receivers  # noqa: F401, PLC0415 (connects the signal receivers)
