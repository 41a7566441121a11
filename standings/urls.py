"""The club's standings (namespace ``standings``), relative to the club's URL."""

from django.urls import path

from standings import ratings_page, views

app_name = "standings"

urlpatterns = [
    path("standings/", views.club_standings, name="club"),
    path("seasons/<int:season_id>/standings/", views.season_standings, name="season"),
    path("ratings/", ratings_page.club_ratings, name="ratings"),
    path("seasons/<int:season_id>/ratings/", ratings_page.season_ratings, name="season_ratings"),
]
