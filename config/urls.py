from django.contrib import admin
from django.urls import include, path

from api.views import api
from clubhouse.urls import club_page
from clubs.urls import account_patterns
from transfer.urls import site_urlpatterns as transfer_site_patterns

from . import accounts, guide, pwa, views

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
    path("", include("leagues.club_urls")),  # the club's leagues (its manager's)
]

urlpatterns = [
    path("", views.home, name="home"),
    # the user guide, built into static/guide/ (config.guide): its first page in the page's language
    path("guide/", guide.guide, name="guide"),
    # the installable web app (config.pwa): the worker's scope is the whole site
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    # browsers ask for /favicon.ico whatever base.html links: the icon, not a 404 page
    # (whose logout form would hand a browser without a CSRF cookie a new one, racing
    # the page it loaded with, whose form then fails its check)
    path("favicon.ico", views.favicon, name="favicon"),
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
    # the JSON API (api.views): /api/v1/…, /api/openapi.json, /api/docs
    path("api/", api.urls),
    # a site administrator's restore of a club's backup (transfer.views)
    path("site/", include(transfer_site_patterns)),
    path("clubs/<slug:slug>/", include(club_patterns)),
    # leagues, their rankings and events; a person's page; My account's licence
    path("", include("leagues.urls")),
    # a league's team competitions: championships in divisions, cups, team matches
    path("", include("competitions.urls")),
    # a tournament table's private link (no account): tournaments.table_views
    path("table/", include("tournaments.table_urls")),
    # a team captain's private link to a match (no account): competitions.captain_views
    path("captain/", include("competitions.captain_urls")),
]
