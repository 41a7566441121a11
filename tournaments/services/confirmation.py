"""A table's sheet handed in, checked by a second entry, confirmed, sent back or
corrected by the organiser, and the two entries' differences."""

from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs import audit
from scoresheet import services as sheets
from scoresheet.models import Hand, ScoreRow, SheetTotal
from tournaments import followups, signals
from tournaments.models import (
    Entry,
    RoundTable,
    TableResult,
)
from tournaments.services.common import (
    TournamentError,
    _actor,
    _lock_table,
    _refuse_closed,
    _require,
    _table_audit,
    _text,
)
from tournaments.services.table_link import (
    _check_hand_of,
    _duplicate_hand,
    _table_open_for_entries,
    wanted_deals,
    writable,
)


def snapshot(table: RoundTable) -> tuple[dict, list]:
    """The table's sheet now: ``({entry number: score}, [[score per seat] per deal])``,
    scores as exact strings (two queries)."""
    entries = dict(
        Entry.objects.filter(
            tournament_id=table.round.tournament_id, number__in=table.seats
        ).values_list("player_id", "number")
    )
    totals = {str(n): "0" for n in table.seats}
    for player_id, score in SheetTotal.objects.filter(sheet_id=table.sheet_id).values_list(
        "player_id", "score"
    ):
        if player_id in entries:
            totals[str(entries[player_id])] = _text(score)
    deals: dict[int, list] = {}
    rows = ScoreRow.objects.filter(sheet_id=table.sheet_id, hand__is_deleted=False).values_list(
        "hand__number", "position", "score"
    )
    for number, position, score in rows:
        deals.setdefault(number, ["0"] * len(table.seats))[position] = _text(score)
    return totals, [deals[n] for n in sorted(deals)]


def _check_complete(table: RoundTable, totals: dict, deals: list) -> None:
    """A sheet may be handed in or confirmed: its deals played, its bilan zero, every seat
    named."""
    wanted = wanted_deals(table)
    if len(deals) < wanted:
        raise TournamentError(
            "table_unfinished", table=table.number, played=len(deals), wanted=wanted
        )
    if sum(Decimal(v) for v in totals.values()) != 0:
        raise TournamentError("bilan_not_zero")
    seated = table.sheet.seats.count() if table.sheet_id else 0
    if seated != len(table.seats) or any(n is None for n in table.seats):
        raise TournamentError("seat_unnamed")


def submit_table(table: RoundTable, *, by_name="", actor=None) -> TableResult:
    """The table hands its sheet in: checked complete, recorded, the sheet closed."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        writable(table)
        totals, deals = snapshot(table)
        _check_complete(table, totals, deals)
        result = TableResult.objects.create(
            round_table=table,
            kind=TableResult.Kind.SUBMITTED,
            by=_actor(actor),
            by_name=(by_name or "").strip()[:60],
            totals=totals,
            deals=deals,
        )
        table.state = RoundTable.State.SUBMITTED
        table.save(update_fields=["state"])
        sheets.close_sheet(table.sheet, actor=actor)
    return result


def parse_scores(values, count) -> list[Decimal]:
    """``count`` scores as typed ("-12", "+4,5"): Decimals, or ``bad_score``."""
    out = []
    for value in values:
        text = str(value or "").strip().replace(",", ".").replace("+", "").replace(" ", "")
        text = text.replace("\u2212", "-")  # the minus sign the pages show
        try:
            number = Decimal(text)
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or abs(number) >= 100000:
            raise TournamentError("bad_score", wording="bad_score.type_score_as_number")
        if number * 2 != (number * 2).to_integral_value():
            raise TournamentError("bad_score", wording="bad_score.score_whole_or_half")
        out.append(number)
    if len(out) != count:
        raise TournamentError("bad_score")
    return out


def last_result(table: RoundTable, kind) -> TableResult | None:
    return table.results.filter(kind=kind).order_by("-at", "-pk").first()


def refuse_unbalanced(table: RoundTable, *, totals=None, deals=None) -> None:
    """Before a second entry goes anywhere (``check_table``): the totals typed (or each
    deal's scores) must add up to zero, else ``TournamentError("check_not_zero")``
    naming the player whose score looks wrong, the one that differs from the sheet
    the table handed in. Writes nothing; a table not waiting for its second entry is
    left to ``check_table`` to refuse."""
    if table.state != RoundTable.State.SUBMITTED:
        return
    seats = len(table.seats)
    names = dict(
        Entry.objects.filter(
            tournament_id=table.round.tournament_id, number__in=table.seats
        ).values_list("number", "player__name")
    )
    submitted = last_result(table, TableResult.Kind.SUBMITTED)
    if deals is not None:
        rows = [parse_scores(row, seats) for row in deals]
        handed = [[Decimal(v) for v in row] for row in (submitted.deals or [])] if submitted else []
        for i, row in enumerate(rows):
            if sum(row) != 0:
                first = handed[i] if i < len(handed) else None
                _refuse_sum(table, names, row, first, deal=i + 1)
        return
    typed = parse_scores(totals or (), seats)
    if sum(typed) != 0:
        first = None
        if submitted:
            first = [Decimal(submitted.totals.get(str(n), 0)) for n in table.seats]
        _refuse_sum(table, names, typed, first)


def _refuse_sum(table, names, typed, first, deal=None):
    total = sum(typed)
    suspects = []
    if first is not None:
        suspects = [names.get(n, str(n)) for n, a, b in zip(table.seats, typed, first) if a != b]
    values = {"sum": f"{'+' if total > 0 else ''}{_text(total)}", "deal": deal}
    if len(suspects) == 1:
        values["name"] = suspects[0]
        message = (
            _("Deal %(deal)d adds up to %(sum)s, not zero: check %(name)s's score.")
            if deal
            else _("The totals add up to %(sum)s, not zero: check %(name)s's total.")
        )
    elif suspects:
        values["names"] = ", ".join(suspects)
        message = (
            _("Deal %(deal)d adds up to %(sum)s, not zero: check the scores of %(names)s.")
            if deal
            else _("The totals add up to %(sum)s, not zero: check the totals of %(names)s.")
        )
    else:
        message = (
            _("Deal %(deal)d adds up to %(sum)s, not zero: check it.")
            if deal
            else _("The totals add up to %(sum)s, not zero: check them.")
        )
    raise TournamentError("check_not_zero", message % values)


def check_table(
    table: RoundTable, *, totals=None, deals=None, by_name="", actor=None
) -> TableResult:
    """A second, independent entry of the table's result from the paper sheet: the
    round's total per seat (``totals``, in seat order) or, when the tournament asks
    for it, every deal's scores (``deals``: a list per deal, in seat order).

    The same as the submitted sheet: the sheet is confirmed (one confirmed result
    per table, whatever races). Different: the table is in dispute until the
    organiser resolves it.
    """
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _table_open_for_entries(table)
        if table.state == RoundTable.State.CONFIRMED:
            raise TournamentError("already_confirmed")
        if table.state == RoundTable.State.DISPUTED:
            raise TournamentError("disputed")
        if table.state != RoundTable.State.SUBMITTED:
            raise TournamentError("not_submitted")
        submitted = last_result(table, TableResult.Kind.SUBMITTED)
        by_name = (by_name or "").strip()[:60]
        if by_name and submitted.by_name and by_name.casefold() == submitted.by_name.casefold():
            raise TournamentError("same_person", field="by_name")
        seats = len(table.seats)
        if deals is not None:
            rows = [parse_scores(row, seats) for row in deals]
            sums = [sum(column, Decimal(0)) for column in zip(*rows)] if rows else [0] * seats
            entered_deals = [[_text(v) for v in row] for row in rows]
        else:
            sums = parse_scores(totals or (), seats)
            entered_deals = None
        entered = {str(n): _text(v) for n, v in zip(table.seats, sums)}
        matches = entered == {k: _text(v) for k, v in submitted.totals.items()}
        if entered_deals is not None:
            matches = matches and entered_deals == [
                [_text(v) for v in row] for row in submitted.deals or []
            ]
        try:
            with transaction.atomic():
                result = TableResult.objects.create(
                    round_table=table,
                    kind=TableResult.Kind.CHECK,
                    by=_actor(actor),
                    by_name=by_name,
                    totals=entered,
                    deals=entered_deals,
                    matches=matches,
                    confirmed=matches,
                )
        except IntegrityError:  # the constraint: another confirmation got there first
            raise TournamentError("already_confirmed") from None
        table.state = RoundTable.State.CONFIRMED if matches else RoundTable.State.DISPUTED
        table.save(update_fields=["state"])
        result.notices = _confirmed(table) if matches else []
    return result


def _confirmed(table) -> list:
    """What a confirmation does next: the apps' follow-ups, called here in the
    transaction (their notices, refusals included, for whoever confirmed), then the
    signal for extensions once it commits."""
    notices = followups.table_confirmed(table)
    transaction.on_commit(lambda: signals.table_confirmed.send(RoundTable, table=table))
    return notices


def _confirm(table, kind, actor) -> TableResult:
    totals, deals = snapshot(table)
    _check_complete(table, totals, deals)
    TableResult.objects.filter(round_table=table, confirmed=True).update(confirmed=False)
    try:
        with transaction.atomic():
            result = TableResult.objects.create(
                round_table=table,
                kind=kind,
                by=_actor(actor),
                totals=totals,
                deals=deals,
                confirmed=True,
            )
    except IntegrityError:
        raise TournamentError("already_confirmed") from None
    table.state = RoundTable.State.CONFIRMED
    table.save(update_fields=["state"])
    sheets.close_sheet(table.sheet, actor=actor)
    result.notices = _confirmed(table)
    return result


def confirm_table(table: RoundTable, *, actor=None) -> TableResult:
    """The organiser confirms the sheet as it stands, after checking the paper sheet
    (a table handed in, in dispute, or never handed in)."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _refuse_closed(table.round.tournament)
        if table.sheet_id is None:
            raise TournamentError("round_not_started")
        if table.state == RoundTable.State.CONFIRMED:
            raise TournamentError("already_confirmed")
        result = _confirm(table, TableResult.Kind.ORGANISER, actor)
        _table_audit(table, actor, audit.Action.TABLE_CONFIRMED, result.totals)
        return result


def reopen_table(table: RoundTable, *, actor=None) -> TableResult:
    """The organiser sends a handed-in (or disputed) sheet back to the table, which may
    correct its deals and hand it in again."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _table_open_for_entries(table)
        if table.state == RoundTable.State.CONFIRMED:
            raise TournamentError(
                "already_confirmed", wording="already_confirmed.confirmed_sheet_changes_only"
            )
        if table.state == RoundTable.State.OPEN:
            raise TournamentError("not_submitted")
        result = TableResult.objects.create(
            round_table=table, kind=TableResult.Kind.REOPENED, by=_actor(actor)
        )
        table.state = RoundTable.State.OPEN
        table.save(update_fields=["state"])
        sheets.reopen_sheet(table.sheet, actor=actor)
        _table_audit(table, actor, audit.Action.TABLE_REOPENED)
    return result


def correct_table_hand(
    table: RoundTable, hand: Hand, data: dict, *, actor=None, seating=None
) -> Hand:
    """The organiser corrects a deal of a table's sheet, whatever its state (handed in,
    in dispute, confirmed, its round closed), until the tournament closes. The hand's
    history records it (``HandRevision``, by the organiser); a confirmed sheet's
    confirmed version is replaced by the corrected one."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _refuse_closed(table.round.tournament)
        _check_hand_of(table, hand)
        data = _duplicate_hand(table, data, hand.number)
        closed = table.sheet.closed_at is not None
        if closed:
            sheets.reopen_sheet(table.sheet, actor=actor)
        try:
            hand = sheets.correct_hand(hand, data, actor=actor, table=seating)
        except sheets.LedgerError as error:
            raise TournamentError(error.code, error.message, error.field) from None
        if table.state == RoundTable.State.CONFIRMED:
            _confirm(table, TableResult.Kind.CORRECTED, actor)
        elif closed:
            sheets.close_sheet(table.sheet, actor=actor)
    return hand


def differences(table: RoundTable) -> dict | None:
    """The last submission against the last second entry: per seat and, when both
    have them, per deal. None without both."""
    submitted = last_result(table, TableResult.Kind.SUBMITTED)
    checked = last_result(table, TableResult.Kind.CHECK)
    if submitted is None or checked is None or checked.at < submitted.at:
        return None
    seats = []
    for number in table.seats:
        a = submitted.totals.get(str(number))
        b = checked.totals.get(str(number))
        seats.append({"number": number, "submitted": a, "checked": b, "differs": a != b})
    deals = []
    if checked.deals is not None:
        first, second = submitted.deals or [], checked.deals
        for i in range(max(len(first), len(second))):
            a = first[i] if i < len(first) else None
            b = second[i] if i < len(second) else None
            cells = []
            for k in range(len(table.seats)):
                x = a[k] if a else None
                y = b[k] if b else None
                cells.append({"submitted": x, "checked": y, "differs": x != y})
            deals.append({"number": i + 1, "cells": cells, "differs": a != b})
    return {"submitted": submitted, "checked": checked, "seats": seats, "deals": deals}
