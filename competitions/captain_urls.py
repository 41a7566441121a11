"""A team captain's private link to a match (namespace ``captain``): ``/captain/<token>/``."""

from django.urls import path

from competitions import captain_views as views

app_name = "captain"

link = "<str:token>/"

urlpatterns = [
    path(link, views.page, name="page"),
    path(link + "confirm/", views.confirm, name="confirm"),
    path(link + "claim/", views.claim, name="claim"),
]
