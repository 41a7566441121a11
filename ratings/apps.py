from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        # the ledger's writes tell the ratings what changed (``scoresheet.signals``)
        from ratings import keeping  # noqa: F401
