from django.contrib import admin
from django.urls import include, path

from clubs.urls import account_patterns
from scoresheet.urls import club_page

from . import views

#: Every page of a club, under ``clubs/<slug>/``; each app's URLs are relative to the club.
club_patterns = [
    path("", include(club_page)),  # clubs:detail
    path("", include("standings.urls")),
    path("", include("stats.urls")),
    path("", include("clubs.urls")),  # manage:…
    path("", include("scoresheet.urls")),
]

urlpatterns = [
    path("", views.home, name="home"),
    # login, logout (POST), password_change, password_reset… (templates/registration/)
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include(account_patterns)),  # profile: "My account"
    # set_language: the language switcher in base.html posts here
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("clubs/<slug:slug>/", include(club_patterns)),
]
