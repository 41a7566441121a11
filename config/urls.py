from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    # login, logout (POST), password_change, password_reset… (templates/registration/)
    path("accounts/", include("django.contrib.auth.urls")),
    # set_language: the language switcher in base.html posts here
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("clubs.urls_standings")),
    path("", include("clubs.urls")),
    path("", include("clubs.urls_stats")),
    path("", include("clubs.urls_manage")),
    path("", include("scoresheet.urls")),
]
