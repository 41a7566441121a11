"""The league pages, under ``leagues/<league>/``; a person's page; My account's links."""

from django.urls import path

from leagues import held_views, rights_views, views

app_name = "leagues"
urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/new/", views.league_create, name="create"),
    path("leagues/<slug:league>/", views.home, name="home"),
    path("leagues/<slug:league>/seasons/<int:season_id>/", views.season_ranking, name="ranking"),
    path(
        "leagues/<slug:league>/seasons/<int:season_id>/export.json",
        views.season_json,
        name="season_json",
    ),
    path(
        "leagues/<slug:league>/seasons/<int:season_id>/results.csv",
        views.season_csv,
        name="season_csv",
    ),
    path("leagues/<slug:league>/events/<int:event_id>/", views.event, name="event"),
    path("leagues/<slug:league>/ratings/", views.ratings_page, name="ratings"),
    path("leagues/<slug:league>/manage/", views.manage, name="manage"),
    path(
        "leagues/<slug:league>/manage/seasons/<int:season_id>/",
        views.season_edit,
        name="season_edit",
    ),
    path("leagues/<slug:league>/manage/link/", views.link, name="link"),
    path("leagues/<slug:league>/manage/licences/", views.licence_import, name="licences"),
    path(
        "leagues/<slug:league>/manage/licences/held/",
        held_views.held_licences,
        name="held_licences",
    ),
    path("leagues/<slug:league>/manage/history/", views.history, name="history"),
    path(
        "leagues/<slug:league>/manage/events/<int:event_id>/", views.event_edit, name="event_edit"
    ),
    path("persons/<int:person_id>/", views.person, name="person"),
    path("accounts/profile/licence/", views.mine, name="mine"),
    path("accounts/profile/data/", rights_views.my_data, name="my_data"),
]
