from django.apps import AppConfig

from core import pages


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = "Data in and out"

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("club_data", "transfer:data")
