"""A tournament table's private link (namespace ``table``): ``/table/<token>/…``."""

from django.urls import path

from tournaments import table_views as views

app_name = "table"

link = "<str:token>/"

urlpatterns = [
    path(link, views.table_sheet, name="sheet"),
    path(link + "deals/new/", views.table_hand_create, name="hand_create"),
    path(link + "deals/preview/", views.table_hand_preview, name="hand_preview"),
    path(link + "deals/<int:number>/", views.table_hand_edit, name="hand_edit"),
    path(link + "deals/<int:number>/delete/", views.table_hand_delete, name="hand_delete"),
    path(link + "submit/", views.table_submit, name="submit"),
    path(link + "check/", views.table_check, name="check"),
    # one phone per table: take over with the organiser's code; the holder's report
    path(link + "take-over/", views.table_take_over, name="take_over"),
    path(link + "heartbeat/", views.table_heartbeat, name="heartbeat"),
]
