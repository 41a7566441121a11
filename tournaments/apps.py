from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("tournaments")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("club_tournaments", "tournaments:list")
