"""A club's sheets and hands (namespace ``scoresheet``), relative to the club's URL."""

from django.urls import path

from scoresheet.views import editing, hands, sheets

app_name = "scoresheet"

sheet = "sheets/<int:sheet_id>/"
hand = sheet + "hands/<int:number>/"

urlpatterns = [
    path("sheets/", sheets.sheet_list, name="sheets"),
    path("sheets/new/", sheets.sheet_create, name="sheet_create"),
    path(sheet, sheets.sheet_detail, name="sheet"),
    path(sheet + "export.json", sheets.sheet_export, name="sheet_export"),
    path(sheet + "print/", sheets.sheet_print, name="sheet_print"),
    path(sheet + "blank/", sheets.sheet_print, {"blank": True}, name="sheet_blank"),
    path(sheet + "hands/new/", hands.hand_create, name="hand_create"),
    path(sheet + "hands/preview/", hands.hand_preview, name="hand_preview"),
    path(hand, hands.hand_detail, name="hand"),
    path(hand + "edit/", hands.hand_edit, name="hand_edit"),
    path(hand + "delete/", hands.hand_delete, name="hand_delete"),
    path(hand + "restore/", hands.hand_restore, name="hand_restore"),
    # changing, closing, deleting a sheet; notes; the paper-sheet check
    path("sheets/deleted/", editing.sheets_deleted, name="sheets_deleted"),
    path(sheet + "edit/", editing.sheet_edit, name="sheet_edit"),
    path(sheet + "close/", editing.sheet_close, name="sheet_close"),
    path(sheet + "reopen/", editing.sheet_reopen, name="sheet_reopen"),
    path(sheet + "delete/", editing.sheet_delete, name="sheet_delete"),
    path(sheet + "restore/", editing.sheet_restore, name="sheet_restore"),
    path(sheet + "check/", editing.sheet_check, name="sheet_check"),
    path(hand + "note/", editing.hand_note, name="hand_note"),
]
