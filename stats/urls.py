"""Statistics pages (namespace ``stats``), relative to the club's URL: a player's, all
seasons or one; a club's season."""

from django.urls import path

from stats import views

app_name = "stats"

player = "players/<int:player_id>/"

urlpatterns = [
    path(player, views.player_statistics, name="player"),
    path(player + "seasons/<int:season_id>/", views.player_statistics, name="player_season"),
    path("seasons/<int:season_id>/statistics/", views.season_statistics, name="season"),
]
