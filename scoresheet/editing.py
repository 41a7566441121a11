"""Changing a sheet after it is opened: its date, table, season and seating, its note,
a hand's note, closing and reopening it, deleting and restoring it.

One transaction each, with the sheet locked; each raises ``LedgerError`` and
writes nothing when it refuses, and leaves an audit entry (``clubs.audit``).
``actor`` is authorised as every service does it (``clubs.permissions.require``):
a scorer for the details, notes and closing, a manager for reopening, deleting
and restoring.
The ledger's rows carry the sheet's date and season, so changing them rewrites
the sheet's rows and its totals in both seasons (``refresh_sheet_totals``). A
deleted sheet keeps its hands and history but has no score rows and no totals
(out of every total, like a deleted hand); restoring it scores its live hands
again under its frozen rules.

A tournament's sheets belong to the tournament: they are refused here
(``tournament_sheet``).

Codes: ``forbidden``, ``tournament_sheet``, ``sheet_deleted``, ``sheet_not_deleted``,
``season_other_club``, ``seating_has_hands``, ``seat_count``, ``duplicate_player``,
``player_not_in_club``, ``note_too_long``, ``table_too_long``, ``date_required``.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Season
from clubs.permissions import require
from core.db import retry_on_conflict
from scoresheet import signals
from scoresheet.handmap import Table, engine_hand_of, score_rows
from scoresheet.models import Hand, ScoreRow, Seat, Sheet
from scoresheet.services import LedgerError, close_sheet, reopen_sheet
from scoresheet.totals import refresh_sheet_totals
from tarot import ScoringError, score_hand

NOTE_MAX = Sheet._meta.get_field("note").max_length
TABLE_MAX = Sheet._meta.get_field("table").max_length


def _lock(sheet: Sheet, actor, level="score", *, deleted: bool | None = False) -> Sheet:
    """The sheet locked; refused to an actor without ``level`` in its club
    (``forbidden``, ``clubs.permissions.require``), for a tournament's sheet and
    (unless ``deleted`` is None) for a sheet (not) deleted."""
    sheet = Sheet.objects.select_for_update().select_related("season").get(pk=sheet.pk)
    require(actor, sheet.club_id, level, LedgerError)
    if sheet.season.kind == Season.Kind.TOURNAMENT:
        raise LedgerError(
            "tournament_sheet", _("This sheet belongs to a tournament: change it there.")
        )
    if deleted is not None and (sheet.deleted_at is not None) != deleted:
        if sheet.deleted_at is not None:
            raise LedgerError("sheet_deleted", _("This sheet is deleted: restore it first."))
        raise LedgerError("sheet_not_deleted", _("This sheet is not deleted."))
    return sheet


def _state(sheet: Sheet, names=None) -> dict:
    state = {
        "date": sheet.date.isoformat(),
        "table": sheet.table,
        "season": sheet.season.name,
    }
    if names is not None:
        state["players"] = list(names)
    return state


# ---------------------------------------------------------------- details


@retry_on_conflict
def update_sheet(sheet: Sheet, *, date, table: str, season: Season, players=None, actor=None):
    """Change the sheet's date, table and season (its totals follow), and its seating
    (``players`` in dealing order; only while the sheet has no hand at all)."""
    if date is None:
        raise LedgerError("date_required", _("A sheet needs a date."), "date")
    table = " ".join((table or "").split())
    if len(table) > TABLE_MAX:
        raise LedgerError(
            "table_too_long", _("At most %(n)d characters.") % {"n": TABLE_MAX}, "table"
        )
    if season.club_id != sheet.club_id or season.kind != Season.Kind.SEASON:
        raise LedgerError("season_other_club", _("Choose one of the club's seasons."), "season")
    with transaction.atomic():
        sheet = _lock(sheet, actor)
        names = list(Table.of(sheet).names)
        before = _state(sheet, names)
        if players is not None:
            players = list(players)
            if [p.name for p in players] != names:
                _reseat(sheet, players)
                names = [p.name for p in players]
        moved = (sheet.date, sheet.season_id) != (date, season.pk)
        sheet.date, sheet.table, sheet.season = date, table, season
        sheet.save(update_fields=["date", "table", "season"])
        if moved:
            ScoreRow.objects.filter(sheet=sheet).update(date=date, season=season)
            refresh_sheet_totals(sheet)
            signals.changed(sheet.club_id)  # its hands move in the order, and in seasons
        after = _state(sheet, names)
        if after != before:
            audit.record(
                sheet.club_id, actor, audit.Action.SHEET_UPDATED, sheet, before=before, after=after
            )
    return sheet


def _reseat(sheet: Sheet, players) -> None:
    if Hand.objects.filter(sheet=sheet).exists():
        raise LedgerError(
            "seating_has_hands",
            _("The seating can only change before the first hand is entered."),
            "players",
        )
    if not 2 <= len(players) <= 6:
        raise LedgerError("seat_count", _("A table seats 2 to 6 players."), "players")
    if len({p.pk for p in players}) != len(players):
        raise LedgerError("duplicate_player", _("A player is seated twice."), "players")
    if any(p.club_id != sheet.club_id for p in players):
        raise LedgerError("player_not_in_club", _("Every player must be of this club."), "players")
    Seat.objects.filter(sheet=sheet).delete()
    Seat.objects.bulk_create(
        Seat(sheet=sheet, player=player, position=i) for i, player in enumerate(players)
    )
    sheet.seat_count = len(players)
    sheet.save(update_fields=["seat_count"])


# ---------------------------------------------------------------- notes


def _note(text) -> str:
    note = (text or "").strip().replace("\r\n", "\n")
    if len(note) > NOTE_MAX:
        raise LedgerError("note_too_long", _("At most %(n)d characters.") % {"n": NOTE_MAX}, "note")
    return note


def set_sheet_note(sheet: Sheet, text: str, *, actor=None) -> Sheet:
    """The sheet's note (a closed or deleted sheet takes one too)."""
    note = _note(text)
    with transaction.atomic():
        sheet = _lock(sheet, actor, deleted=None)
        if sheet.note != note:
            before = {"note": sheet.note}
            sheet.note = note
            sheet.save(update_fields=["note"])
            audit.record(
                sheet.club_id,
                actor,
                audit.Action.NOTE_CHANGED,
                sheet,
                before=before,
                after={"note": note},
            )
    return sheet


def set_hand_note(hand: Hand, text: str, *, actor=None) -> Hand:
    """A hand's note: what happened at the table (its scores do not change)."""
    note = _note(text)
    with transaction.atomic():
        sheet = Sheet.objects.select_for_update().get(pk=hand.sheet_id)
        require(actor, sheet.club_id, "score", LedgerError)
        hand = Hand.objects.select_for_update().get(pk=hand.pk)
        if hand.note != note:
            before = {"note": hand.note}
            hand.note = note
            hand.save(update_fields=["note"])
            audit.record(
                sheet.club_id,
                actor,
                audit.Action.NOTE_CHANGED,
                hand,
                label=str(hand),
                before=before,
                after={"note": note},
            )
    return hand


# ---------------------------------------------------------------- closing


def close(sheet: Sheet, *, actor=None) -> Sheet:
    """Close the sheet (``scoresheet.services.close_sheet``), with an audit entry."""
    with transaction.atomic():
        locked = _lock(sheet, actor)
        was_open = locked.closed_at is None
        sheet = close_sheet(locked, actor=actor)
        if was_open:
            audit.record(sheet.club_id, actor, audit.Action.SHEET_CLOSED, sheet)
    return sheet


def reopen(sheet: Sheet, *, actor=None) -> Sheet:
    """Reopen the sheet (``scoresheet.services.reopen_sheet``), with an audit entry."""
    with transaction.atomic():
        locked = _lock(sheet, actor, "manage")
        was_closed = locked.closed_at is not None
        sheet = reopen_sheet(locked, actor=actor)
        if was_closed:
            audit.record(sheet.club_id, actor, audit.Action.SHEET_REOPENED, sheet)
    return sheet


# ---------------------------------------------------------------- deleting


@retry_on_conflict
def delete_sheet(sheet: Sheet, *, actor=None) -> Sheet:
    """Take the whole sheet off the ledger: its score rows and totals go; its hands,
    their history and its seats stay, and it can be restored."""
    with transaction.atomic():
        sheet = _lock(sheet, actor, "manage")
        ScoreRow.objects.filter(sheet=sheet).delete()
        refresh_sheet_totals(sheet)
        sheet.deleted_at = timezone.now()
        sheet.save(update_fields=["deleted_at"])
        signals.changed(sheet.club_id, [sheet])
        audit.record(sheet.club_id, actor, audit.Action.SHEET_DELETED, sheet, before=_state(sheet))
    return sheet


@retry_on_conflict
def restore_sheet(sheet: Sheet, *, actor=None) -> Sheet:
    """Put a deleted sheet back on the ledger: its live hands scored again in order."""
    with transaction.atomic():
        sheet = _lock(sheet, actor, "manage", deleted=True)
        table = Table.of(sheet)
        ruleset = sheet.ruleset
        rows, pools = [], ()
        for hand in sheet.hands.live().order_by("number"):
            try:
                result = score_hand(ruleset, engine_hand_of(hand, table), pools)
            except ScoringError as error:
                raise LedgerError.from_scoring(error) from None
            if result.pools is not None:
                pools = result.pools
            rows.extend(score_rows(hand, sheet, table, result))
        ScoreRow.objects.bulk_create(rows)
        refresh_sheet_totals(sheet)
        sheet.deleted_at = None
        sheet.save(update_fields=["deleted_at"])
        signals.changed(sheet.club_id, [sheet])
        audit.record(sheet.club_id, actor, audit.Action.SHEET_RESTORED, sheet, after=_state(sheet))
    return sheet
