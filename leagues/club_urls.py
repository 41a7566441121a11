"""A club's league page (its manager's), under ``clubs/<slug>/``."""

from django.urls import path

from leagues import views

app_name = "league_club"
urlpatterns = [
    path("leagues/", views.club_leagues, name="leagues"),
    path("tournaments/<int:tournament_id>/league-guests/", views.guests, name="guests"),
]
