"""Statistics pages (namespace ``stats``): a player's, all seasons or one; a club's season."""

from django.urls import path

from clubs import views_stats as views

app_name = "stats"

player = "clubs/<slug:slug>/players/<int:player_id>/"

urlpatterns = [
    path(player, views.player_statistics, name="player"),
    path(player + "seasons/<int:season_id>/", views.player_statistics, name="player_season"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/statistics/",
        views.season_statistics,
        name="season",
    ),
]
