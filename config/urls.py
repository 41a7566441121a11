from django.contrib import admin
from django.urls import include, path

from clubhouse.urls import club_page
from clubs.urls import account_patterns

from . import accounts, pwa, views

#: Every page of a club, under ``clubs/<slug>/``; each app's URLs are relative to the club.
club_patterns = [
    path("", include(club_page)),  # clubs:detail
    path("", include("standings.urls")),
    path("", include("stats.urls")),
    path("", include("clubs.urls")),  # manage:…
    path("", include("tournaments.urls")),
    path("", include("transfer.urls")),
    path("", include("scoresheet.urls")),
    path("", include("clubhouse.urls")),  # players, history
]

urlpatterns = [
    path("", views.home, name="home"),
    # the installable web app (config.pwa): the worker's scope is the whole site
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    # login, logout (POST), password_change, password_reset… (templates/registration/);
    # the four that take a password, an email or a token are throttled (config.accounts)
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path(
        "accounts/password_change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include(account_patterns)),  # profile: "My account"
    # set_language: the language switcher in base.html posts here
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("clubs/<slug:slug>/", include(club_patterns)),
    # a tournament table's private link (no account): tournaments.table_views
    path("table/", include("tournaments.table_urls")),
]
