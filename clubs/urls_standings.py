from django.urls import path

from clubs import views_standings as views

app_name = "standings"

urlpatterns = [
    path("clubs/<slug:slug>/standings/", views.club_standings, name="club"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/standings/",
        views.season_standings,
        name="season",
    ),
]
