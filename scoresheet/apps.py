from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class ScoresheetConfig(AppConfig):
    name = "scoresheet"
    verbose_name = _("Score sheets")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("sheet_create", "scoresheet:sheet_create")
        # its rows in a club's backup (core.backup_rows)
        from scoresheet import backup_rows  # noqa: PLC0415 (its models: loaded by now)

        backup_rows.register_rows()
