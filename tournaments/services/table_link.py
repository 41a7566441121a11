"""What a table does through its private link: its deals entered, corrected and deleted
on its sheet (through the ledger's services), the one phone holding it; the link
revoked."""

from django.db import transaction
from django.utils import timezone

from clubs import audit
from core.db import retry_on_conflict, savepoint_needed
from scoresheet import services as sheets
from scoresheet.models import Hand
from tournaments import tokens
from tournaments.duplicate import deals as duplicate_deals
from tournaments.models import (
    Round,
    RoundTable,
    deals_for_table,
)
from tournaments.services.common import (
    TournamentError,
    _actor,
    _lock_table,
    _refuse_closed,
    _require,
    _table_audit,
    table_label,
)


def wanted_deals(table: RoundTable) -> int:
    """The deals the table must have played to hand its sheet in (timed: one)."""
    return deals_for_table(table.round.tournament, len(table.seats)) or 1


def _table_open_for_entries(table: RoundTable) -> None:
    tournament = table.round.tournament
    _refuse_closed(tournament)
    if table.round.state == Round.State.CLOSED:
        raise TournamentError("round_closed")
    if table.round.state != Round.State.STARTED or table.sheet_id is None:
        raise TournamentError("round_not_started")


def writable(table: RoundTable) -> None:
    """Refuse (``TournamentError``) unless the table may enter and correct its deals now."""
    _table_open_for_entries(table)
    if table.state != RoundTable.State.OPEN:
        raise TournamentError("table_submitted")


@retry_on_conflict
def record_table_hand(table: RoundTable, data: dict, *, actor=None, seating=None) -> Hand:
    """The table enters a deal on its sheet (its private link): the table is locked and
    checked open for entries (``writable``), then the ledger records the hand
    (``scoresheet.services.record_hand``: scored once, under the sheet's lock), all in
    one transaction. ``seating``: the sheet's seating as the hand form read it.

    A refusal of the ledger is a ``TournamentError`` with its code, message and field."""
    _require(actor, table)
    with transaction.atomic(savepoint=savepoint_needed()):
        table = _lock_table(table)
        writable(table)
        tournament = table.round.tournament
        wanted = deals_for_table(tournament, len(table.seats))
        played = Hand.objects.live().filter(sheet_id=table.sheet_id).count()
        if wanted and played >= wanted and not tournament.is_duplicate:  # a set says its own
            raise TournamentError("deals_complete", n=wanted)
        data = _duplicate_hand(table, data)
        try:
            return sheets.record_hand(table.sheet, data, actor=_actor(actor), table=seating)
        except sheets.LedgerError as error:
            raise TournamentError(error.code, error.message, error.field) from None


@retry_on_conflict
def edit_table_hand(table: RoundTable, hand: Hand, data: dict, *, actor=None, seating=None) -> Hand:
    """The table corrects one of its deals (its private link) while its sheet is open
    for entries: checked under the table's lock, then ``scoresheet.services.correct_hand``.
    The organiser's correction, whatever the table's state, is ``correct_table_hand``."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        writable(table)
        _check_hand_of(table, hand)
        data = _duplicate_hand(table, data, hand.number)
        try:
            return sheets.correct_hand(hand, data, actor=_actor(actor), table=seating)
        except sheets.LedgerError as error:
            raise TournamentError(error.code, error.message, error.field) from None


@retry_on_conflict
def delete_table_hand(table: RoundTable, hand: Hand, *, actor=None) -> Hand:
    """The table deletes one of its deals (its private link) while its sheet is open for
    entries: checked under the table's lock, then ``scoresheet.services.delete_hand``."""
    _require(actor, table)
    if table.set_number is not None:
        # a hand entered again would take the sheet's next number, not the deal's place
        raise TournamentError("duplicate_no_delete")
    with transaction.atomic():
        table = _lock_table(table)
        writable(table)
        _check_hand_of(table, hand)
        try:
            return sheets.delete_hand(hand, actor=_actor(actor))
        except sheets.LedgerError as error:
            raise TournamentError(error.code, error.message, error.field) from None


def _duplicate_hand(table: RoundTable, data: dict, hand_number=None) -> dict:
    """A duplicate event's table: only the deals of its set, the dealer fixed by the
    deal (``tournaments.duplicate.deals``); any other table's data as it is."""
    if not table.round.tournament.is_duplicate:
        return data
    code, data = duplicate_deals.prepare_hand(table, data, hand_number)
    if code:
        raise TournamentError(code)
    return data


def _check_hand_of(table: RoundTable, hand: Hand) -> None:
    if hand.sheet_id != table.sheet_id or table.sheet_id is None:
        raise TournamentError("unknown_hand")


def revoke_link(table: RoundTable, *, actor=None) -> RoundTable:
    """A new private link for the table: the old one (and its printed QR code) stops working."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _refuse_closed(table.round.tournament)
        tokens.issue(table)
        table.save(update_fields=["token_salt", "token_hash"])
        _table_audit(table, actor, audit.Action.LINK_REVOKED)
    return table


def holds(table: RoundTable, device: str) -> bool:
    """Whether this device (``tokens.device_of``) may enter the table's deals: the phone
    that claimed it, or any while nobody has."""
    return not table.device or (bool(device) and table.device == device)


def claim_table(table: RoundTable, *, device: str, actor=None) -> bool:
    """The first phone that opens a table's link while it enters its deals holds the
    table; the same phone again is only heard of (``device_seen_at``). Returns whether
    ``device`` holds the table. A table not entering deals (not started, handed in) is
    claimed by nobody: the second entry comes from another phone."""
    _require(actor, table)
    if not device:
        return holds(table, device)
    with transaction.atomic(savepoint=savepoint_needed()):
        table = _lock_table(table)
        if table.state != RoundTable.State.OPEN or table.round.state != Round.State.STARTED:
            return holds(table, device)
        now = timezone.now()
        if not table.device:
            RoundTable.objects.filter(pk=table.pk).update(
                device=device, device_seen_at=now, device_waiting=0
            )
            audit.record(
                table.round.tournament.club,
                actor,
                audit.Action.TABLE_CLAIMED,
                table,
                label=table_label(table.round.number, table.number),
            )
            return True
        if table.device == device:
            RoundTable.objects.filter(pk=table.pk).update(device_seen_at=now)
            return True
        return False


def take_over_table(table: RoundTable, *, device: str, code: str, actor=None) -> RoundTable:
    """Another phone takes the table over with the organiser's code of its round
    (``tokens.takeover_code``): the phone that held it can no longer enter its deals."""
    _require(actor, table)
    with transaction.atomic(savepoint=savepoint_needed()):
        table = _lock_table(table)
        writable(table)
        if not device:
            raise TournamentError("table_held")
        if not tokens.code_matches(table.round, code):
            raise TournamentError("takeover_code", field="code")
        before = bool(table.device)
        RoundTable.objects.filter(pk=table.pk).update(
            device=device, device_seen_at=timezone.now(), device_waiting=0
        )
        audit.record(
            table.round.tournament.club,
            actor,
            audit.Action.TABLE_TAKEN_OVER,
            table,
            label=table_label(table.round.number, table.number),
            before={"held": before},
            after={"held": True},
        )
        table.refresh_from_db()
        return table


def report_device(table: RoundTable, *, device: str, waiting: int, actor=None) -> bool:
    """The phone holding the table says it is online and how many deals it still holds
    unsent (its queue); the organiser's round page shows both. Another phone's report
    changes nothing. Returns whether it was taken."""
    _require(actor, table)
    waiting = max(0, min(int(waiting), 999))
    updated = (
        RoundTable.objects.filter(pk=table.pk, device=device)
        .exclude(device="")
        .update(device_seen_at=timezone.now(), device_waiting=waiting)
    )
    return bool(updated)
