from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class ScoresheetConfig(AppConfig):
    name = "scoresheet"
    verbose_name = _("Score sheets")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("sheet_create", "scoresheet:sheet_create")
