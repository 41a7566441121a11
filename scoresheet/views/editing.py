"""Changing a sheet: its details and seating, its note and its hands' notes (scorers),
closing it (scorers) and reopening it (managers), deleting and restoring it (managers),
the deleted sheets (managers), and the paper-sheet check (scorers)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Season
from clubs.permissions import can, club_view
from scoresheet import editing, paper
from scoresheet.forms.editing import NoteForm, PaperForm, SheetEditForm
from scoresheet.models import Hand, Sheet
from scoresheet.services import LedgerError


def _sheet(request, sheet_id, *, deleted=False):
    """The club's sheet (a deleted one only when ``deleted``); 404 otherwise."""
    sheet = get_object_or_404(
        Sheet.objects.select_related("season", "club"), club=request.club, pk=sheet_id
    )
    if sheet.deleted_at is not None and not deleted:
        raise Http404
    return sheet


def _back(sheet):
    return redirect("scoresheet:sheet", sheet.club.slug, sheet.pk)


@club_view("score")
def sheet_edit(request, slug, sheet_id):
    """Date, table, season and (before the first hand) seating; and the note."""
    sheet = _sheet(request, sheet_id)
    club = request.club
    is_tournament = sheet.season.kind == Season.Kind.TOURNAMENT
    seating = not Hand.objects.filter(sheet=sheet).exists()
    form = SheetEditForm(request.POST or None, sheet=sheet, seating=seating)
    note = NoteForm(initial={"note": sheet.note})
    if request.method == "POST" and not is_tournament:
        if request.POST.get("action") == "note":
            form = SheetEditForm(sheet=sheet, seating=seating)
            note = NoteForm(request.POST)
            if note.is_valid():
                try:
                    editing.set_sheet_note(sheet, note.cleaned_data["note"], actor=request.user)
                except LedgerError as error:
                    note.add_error("note", error.message)
                else:
                    messages.success(request, _("Note saved."))
                    return _back(sheet)
        elif form.is_valid():
            data = form.cleaned_data
            try:
                editing.update_sheet(
                    sheet,
                    date=data["date"],
                    table=data["table"],
                    season=data["season"],
                    players=data.get("players") if seating else None,
                    actor=request.user,
                )
            except LedgerError as error:
                field = error.field if error.field in form.fields else None
                form.add_error(field, error.message)
            else:
                messages.success(request, _("Sheet changed."))
                return _back(sheet)
    return render(
        request,
        "scoresheet/sheet_edit.html",
        {
            "club": club,
            "sheet": sheet,
            "form": form,
            "note_form": note,
            "is_tournament": is_tournament,
            "may_manage": can(request.user, club, "manage"),
        },
    )


def _action(request, sheet, action, done):
    """Run ``action`` on the sheet; its message; whether it was done."""
    try:
        action(sheet, actor=request.user)
    except LedgerError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True


@club_view("score")
@require_POST
def sheet_close(request, slug, sheet_id):
    sheet = _sheet(request, sheet_id)
    _action(
        request, sheet, editing.close, _("Sheet closed: no more hands until a manager reopens it.")
    )
    return _back(sheet)


@club_view("manage")
@require_POST
def sheet_reopen(request, slug, sheet_id):
    sheet = _sheet(request, sheet_id)
    _action(request, sheet, editing.reopen, _("Sheet reopened."))
    return _back(sheet)


@club_view("manage")
@require_POST
def sheet_delete(request, slug, sheet_id):
    sheet = _sheet(request, sheet_id, deleted=True)
    done = _("Sheet deleted: it counts for nobody until it is restored.")
    if _action(request, sheet, editing.delete_sheet, done):
        return redirect("scoresheet:sheets_deleted", request.club.slug)
    return (
        _back(sheet)
        if sheet.deleted_at is None
        else redirect("scoresheet:sheets_deleted", request.club.slug)
    )


@club_view("manage")
@require_POST
def sheet_restore(request, slug, sheet_id):
    sheet = _sheet(request, sheet_id, deleted=True)
    if _action(request, sheet, editing.restore_sheet, _("Sheet restored.")):
        return _back(sheet)
    return redirect("scoresheet:sheets_deleted", request.club.slug)


@club_view("manage")
def sheets_deleted(request, slug):
    """The club's deleted sheets, to restore."""
    sheets = (
        Sheet.objects.filter(club=request.club, deleted_at__isnull=False)
        .with_counts()
        .order_by("-deleted_at")
    )
    return render(
        request,
        "scoresheet/sheets_deleted.html",
        {"club": request.club, "sheets": sheets},
    )


@club_view("score")
@require_POST
def hand_note(request, slug, sheet_id, number):
    sheet = _sheet(request, sheet_id)
    hand = get_object_or_404(Hand, sheet=sheet, number=number)
    form = NoteForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["note"][0])
    else:
        try:
            editing.set_hand_note(hand, form.cleaned_data["note"], actor=request.user)
        except LedgerError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Note saved."))
    return redirect("scoresheet:hand", request.club.slug, sheet.pk, hand.number)


@club_view("score")
def sheet_check(request, slug, sheet_id):
    """The paper-sheet check: the paper's running totals beside the ledger's."""
    sheet = _sheet(request, sheet_id)
    table, lines = paper.sheet_lines(sheet)
    names = list(table.names)
    form = PaperForm(request.POST or None, lines=lines, names=names)
    finding = None
    checked = False
    if request.method == "POST" and form.is_valid():
        finding = paper.compare(lines)
        checked = any(line.paper is not None for line in lines)
    rows = [
        {
            "line": line,
            "boxes": [form[PaperForm.key(line.hand.number, i)] for i in range(len(names))],
        }
        for line in lines
    ]
    return render(
        request,
        "scoresheet/sheet_check.html",
        {
            "club": request.club,
            "sheet": sheet,
            "names": names,
            "form": form,
            "rows": rows,
            "finding": finding,
            "finding_rows": [
                (names[i], finding.paper_change[i], finding.ledger_change[i], finding.expected[i])
                for i in (finding.seats if finding else [])
            ],
            "checked": checked,
        },
    )
