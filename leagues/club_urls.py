"""A club's league page (its manager's), under ``clubs/<slug>/``."""

from django.urls import path

from leagues import rights_views, views

app_name = "league_club"
urlpatterns = [
    path("leagues/", views.club_leagues, name="leagues"),
    path("tournaments/<int:tournament_id>/league-guests/", views.guests, name="guests"),
    path("players/<int:player_id>/data/", rights_views.player_data, name="player_data"),
    path("players/<int:player_id>/erase/", rights_views.player_erase, name="player_erase"),
]
