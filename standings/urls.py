"""The club's standings (namespace ``standings``), relative to the club's URL."""

from django.urls import path

from standings import views

app_name = "standings"

urlpatterns = [
    path("standings/", views.club_standings, name="club"),
    path("seasons/<int:season_id>/standings/", views.season_standings, name="season"),
]
