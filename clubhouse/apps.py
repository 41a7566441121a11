from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core import pages


class ClubhouseConfig(AppConfig):
    name = "clubhouse"
    verbose_name = _("Club pages")

    def ready(self):
        # the pages the apps below may link to (core.pages)
        pages.offer("club_home", "clubs:detail")
        pages.offer("club_history", "clubhouse:history")
        pages.offer("player_edit", "clubhouse:player_edit")
