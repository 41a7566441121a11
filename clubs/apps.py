from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self):
        # its rows in a club's backup (core.backup_rows)
        from clubs import backup_rows  # noqa: PLC0415 (its models: loaded by now)

        backup_rows.register_rows()
