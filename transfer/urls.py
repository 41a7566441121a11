"""Data in and out of a club (namespace ``transfer``), relative to the club's URL."""

from django.urls import path

from transfer import views

app_name = "transfer"

urlpatterns = [
    path("manage/data/", views.data, name="data"),
    path("manage/data/import/", views.import_sheets, name="import"),
    path("manage/data/backup.json", views.backup, name="backup"),
    path("seasons/<int:season_id>/export.jsonl", views.season_jsonl, name="season_jsonl"),
    path("seasons/<int:season_id>/export.xlsx", views.season_xlsx, name="season_xlsx"),
    path("seasons/<int:season_id>/export.csv", views.season_csv, name="season_csv"),
]
