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
        # its rows in a club's backup (core.backup_rows)
        from tournaments import backup_rows  # noqa: PLC0415 (its models: loaded by now)

        backup_rows.register_rows()
