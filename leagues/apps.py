from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("leagues")

    def ready(self):
        # the signal receivers; the ``league:<id>`` rating scope (``ratings.scopes``)
        from leagues import ratings, receivers  # noqa: F401, PLC0415

        ratings.register()
