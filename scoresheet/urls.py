from django.urls import path

from scoresheet.views import hands, sheets

app_name = "scoresheet"

sheet = "clubs/<slug:slug>/sheets/<int:sheet_id>/"
hand = sheet + "hands/<int:number>/"

urlpatterns = [
    path("clubs/<slug:slug>/sheets/", sheets.sheet_list, name="sheets"),
    path("clubs/<slug:slug>/sheets/new/", sheets.sheet_create, name="sheet_create"),
    path(sheet, sheets.sheet_detail, name="sheet"),
    path(sheet + "export.json", sheets.sheet_export, name="sheet_export"),
    path(sheet + "hands/new/", hands.hand_create, name="hand_create"),
    path(sheet + "hands/preview/", hands.hand_preview, name="hand_preview"),
    path(hand, hands.hand_detail, name="hand"),
    path(hand + "edit/", hands.hand_edit, name="hand_edit"),
    path(hand + "delete/", hands.hand_delete, name="hand_delete"),
    path(hand + "restore/", hands.hand_restore, name="hand_restore"),
]
