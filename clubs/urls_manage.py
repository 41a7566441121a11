"""The managers' pages of a club (namespace ``manage``) and "My account" (``profile``)."""

from django.urls import include, path

from clubs import views_manage as views

member = "members/<int:membership_id>/"

manage_patterns = [
    path("", views.overview, name="overview"),
    path("members/", views.members, name="members"),
    path(member, views.member_update, name="member"),
    path(member + "remove/", views.member_remove, name="member_remove"),
    path(member + "invite/", views.member_invite, name="member_invite"),
    path("seasons/", views.seasons, name="seasons"),
    path("seasons/<int:season_id>/", views.season_edit, name="season"),
]

urlpatterns = [
    path("clubs/<slug:slug>/manage/", include((manage_patterns, "manage"))),
    path("accounts/profile/", views.profile, name="profile"),
]
