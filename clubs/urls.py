"""The managers' pages of a club (namespace ``manage``), relative to the club's URL,
and "My account" (``account_patterns``: ``profile``, outside any club)."""

from django.urls import path

from clubs import account_views, invitation_views, views

app_name = "manage"

manage = "manage/"
member = manage + "members/<int:membership_id>/"

urlpatterns = [
    path(manage, views.overview, name="overview"),
    path(manage + "members/", views.members, name="members"),
    path(member, views.member_update, name="member"),
    path(member + "remove/", views.member_remove, name="member_remove"),
    path(
        manage + "members/invitations/<int:invitation_id>/",
        views.invitation,
        name="invitation",
    ),
    path(manage + "welcome/", views.welcome, name="welcome"),
    path(manage + "seasons/", views.seasons, name="seasons"),
    path(manage + "seasons/<int:season_id>/", views.season_edit, name="season"),
]

account_patterns = [
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/profile/email/", account_views.email_change, name="email_change"),
    path("accounts/profile/tokens/", account_views.token_create, name="token_create"),
    path(
        "accounts/profile/tokens/<int:token_id>/revoke/",
        account_views.token_revoke,
        name="token_revoke",
    ),
    path("accounts/email/<str:token>/", account_views.email_confirm, name="email_confirm"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/signup-resend/", account_views.signup_resend, name="signup_resend"),
    path("accounts/signup/<str:token>/", account_views.signup_confirm, name="signup_confirm"),
    path("new-club/", account_views.club_create, name="club_create"),
    path("invitations/<str:token>/", invitation_views.invitation, name="invitation"),
]
