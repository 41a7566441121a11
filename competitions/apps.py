from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "competitions"
    verbose_name = _("team competitions")

    def ready(self):
        from competitions import services  # noqa: PLC0415 (the apps are loaded now)
        from tournaments import signals  # noqa: PLC0415

        def confirmed(sender, table, **kwargs):
            services.table_confirmed(table)

        signals.table_confirmed.connect(confirmed, dispatch_uid="competitions.table_confirmed")
