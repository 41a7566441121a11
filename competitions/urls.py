"""The team competitions' pages, under a league: ``leagues/<league>/competitions/``."""

from django.urls import path

from competitions import pages, views

app_name = "competitions"
BASE = "leagues/<slug:league>/competitions/"
ONE = BASE + "<int:competition_id>/"
urlpatterns = [
    path(BASE, views.competition_list, name="list"),
    path(BASE + "new/", views.create, name="create"),
    path(ONE, views.detail, name="detail"),
    path(ONE + "manage/", views.manage, name="manage"),
    path(ONE + "bareme/", views.bareme, name="bareme"),
    path(ONE + "teams/<int:team_id>/", views.team, name="team"),
    path(ONE + "matches/<int:match_id>/", views.match, name="match"),
    path(ONE + "matches/<int:match_id>/results/", views.results, name="results"),
    path(ONE + "matches/<int:match_id>/line-up/<int:team_id>/", views.line_up, name="line_up"),
    # the match day's screen for the room, the exports (competitions.pages)
    path(ONE + "screen/", pages.screen, name="screen"),
    path(ONE + "screen/live/", pages.screen_live, name="screen_live"),
    path(ONE + "export/", pages.export, name="export"),
    path(ONE + "matches/<int:match_id>/start/", views.start, name="start"),
    path(
        ONE + "matches/<int:match_id>/captain/<int:team_id>/revoke/",
        views.captain_revoke,
        name="captain_revoke",
    ),
    path(
        ONE + "matches/<int:match_id>/claims/<int:claim_id>/",
        views.claim_decide,
        name="claim_decide",
    ),
]
