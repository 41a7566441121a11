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
    path("manage/data/jobs/", views.job_start, name="job_start"),
    path("manage/data/jobs/<uuid:job_id>/", views.job, name="job"),
    path("manage/data/jobs/<uuid:job_id>/status/", views.job_status, name="job_status"),
    path("manage/data/jobs/<uuid:job_id>/file/", views.job_file, name="job_file"),
    path("manage/data/jobs/<uuid:job_id>/again/", views.job_again, name="job_again"),
    path("manage/data/jobs/<uuid:job_id>/preview/", views.upload_preview, name="upload_preview"),
]

#: A site administrator's restore of a club, outside any club (``config.urls``).
site_urlpatterns = [
    path("restore/", views.restore, name="restore"),
    path("restore/<uuid:job_id>/", views.restore_job, name="restore_job"),
    path("restore/<uuid:job_id>/status/", views.restore_status, name="restore_status"),
]
