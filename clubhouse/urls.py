"""The club's own pages (namespace ``clubhouse``), relative to the club's URL, and its
home page (``club_page``: namespace ``clubs``, at the club's URL itself)."""

from django.urls import path

from clubhouse.views import club, history, players

app_name = "clubhouse"

urlpatterns = [
    path("manage/history/", history.club_history, name="history"),
    path("players/", players.player_list, name="players"),
    path("players/<int:player_id>/edit/", players.player_edit, name="player_edit"),
    path("players/<int:player_id>/merge/", players.player_merge, name="player_merge"),
    path("players/<int:player_id>/unmerge/", players.player_unmerge, name="player_unmerge"),
]

#: ``clubs:detail``: ``include(club_page)`` under the club's URL.
club_page = ([path("", club.club_detail, name="detail")], "clubs")
