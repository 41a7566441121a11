"""The organiser's own scores: a table's totals typed in when it could not use its link
(and cancelled), a player's penalty or adjustment in a round."""

from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from clubs import audit
from scoresheet import services as sheets
from scoresheet.models import Hand
from tournaments.models import (
    Adjustment,
    Entry,
    Round,
    RoundTable,
    TableResult,
    TableTotal,
)
from tournaments.services.common import (
    TournamentError,
    _actor,
    _lock,
    _lock_table,
    _refuse_closed,
    _require,
    _table_audit,
    _text,
)
from tournaments.services.confirmation import parse_scores


def _slip(typed: Decimal, needed: Decimal) -> bool:
    """Whether ``needed`` is ``typed`` with its sign or one digit mistyped."""
    if needed == -typed:
        return True
    a, b = _text(abs(typed)), _text(abs(needed))
    same_shape = (typed < 0) == (needed < 0) and len(a) == len(b)
    return same_shape and sum(x != y for x, y in zip(a, b)) == 1


def refuse_unbalanced_totals(table: RoundTable, values) -> list[Decimal]:
    """The organiser's totals for ``table`` (one per seat, in seat order) as numbers,
    refused with ``check_not_zero`` when they do not add up to zero; the message names
    the player whose total a slip of one digit or of the sign explains (-49 typed for
    -69), when only one does. Writes nothing."""
    typed = parse_scores(values, len(table.seats))
    total = sum(typed)
    if total == 0:
        return typed
    names = dict(
        Entry.objects.filter(
            tournament_id=table.round.tournament_id, number__in=table.seats
        ).values_list("number", "player__name")
    )
    suspects = [
        names.get(n, str(n)) for n, value in zip(table.seats, typed) if _slip(value, value - total)
    ]
    values = {"sum": f"{'+' if total > 0 else ''}{_text(total)}"}
    if len(suspects) == 1:
        values["name"] = suspects[0]
        message = _("The totals add up to %(sum)s, not zero: check %(name)s's total.")
    elif suspects:
        values["names"] = ", ".join(suspects)
        message = _("The totals add up to %(sum)s, not zero: check the totals of %(names)s.")
    else:
        message = _("The totals add up to %(sum)s, not zero: check them.")
    raise TournamentError("check_not_zero", message % values)


def enter_table_totals(table: RoundTable, values, *, actor=None) -> TableResult:
    """The organiser enters a table's result alone, totals only, when the table could
    not use its link (no phone, no network): one total per seated player, in seat
    order, adding up to zero. Entering again corrects them; each entry is kept in the
    table's results (the history) and audited. The table counts as confirmed and the
    ranking adds the totals like a sheet's. Refused once the table has deals entered."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _refuse_closed(table.round.tournament)
        if table.sheet_id is None:
            raise TournamentError("round_not_started")
        if Hand.objects.live().filter(sheet_id=table.sheet_id).exists():
            raise TournamentError("table_has_deals")
        typed = refuse_unbalanced_totals(table, values)
        entries = dict(
            Entry.objects.filter(
                tournament_id=table.round.tournament_id, number__in=table.seats
            ).values_list("number", "pk")
        )
        totals = {str(n): _text(value) for n, value in zip(table.seats, typed)}
        TableResult.objects.filter(round_table=table, confirmed=True).update(confirmed=False)
        result = TableResult.objects.create(
            round_table=table,
            kind=TableResult.Kind.TOTALS,
            by=_actor(actor),
            totals=totals,
            confirmed=True,
        )
        TableTotal.objects.filter(round_table=table).delete()
        TableTotal.objects.bulk_create(
            TableTotal(round_table=table, entry_id=entries[n], score=value)
            for n, value in zip(table.seats, typed)
        )
        table.state = RoundTable.State.CONFIRMED
        table.save(update_fields=["state"])
        sheets.close_sheet(table.sheet, actor=actor)  # its link takes no deals
        _table_audit(table, actor, audit.Action.TABLE_CONFIRMED, totals)
        return result


def cancel_table_totals(table: RoundTable, *, actor=None) -> TableResult:
    """Undo the organiser's totals of a table: they leave the ranking, the table is
    open again for its link or new totals; the cancellation joins the history."""
    _require(actor, table)
    with transaction.atomic():
        table = _lock_table(table)
        _refuse_closed(table.round.tournament)
        deleted, _rows = TableTotal.objects.filter(round_table=table).delete()
        if not deleted:
            raise TournamentError("no_totals")
        TableResult.objects.filter(round_table=table, confirmed=True).update(confirmed=False)
        result = TableResult.objects.create(
            round_table=table, kind=TableResult.Kind.CANCELLED, by=_actor(actor)
        )
        table.state = RoundTable.State.OPEN
        table.save(update_fields=["state"])
        if table.round.state == Round.State.STARTED:
            sheets.reopen_sheet(table.sheet, actor=actor)
        _table_audit(table, actor, audit.Action.TABLE_REOPENED)
        return result


def adjust_score(entry: Entry, round_number, points, reason, *, actor=None) -> Adjustment:
    """The arbitre's penalty (negative points) or adjustment to one player in one round
    under way or closed, with its reason; the ranking adds it to that round's score."""
    _require(actor, entry)
    with transaction.atomic():
        tournament = _lock(entry.tournament)
        _refuse_closed(tournament)
        entry = Entry.objects.get(pk=entry.pk, tournament=tournament)
        rnd = tournament.round_set.filter(number=round_number).first()
        if rnd is None or rnd.state not in (Round.State.STARTED, Round.State.CLOSED):
            raise TournamentError("round_not_played", field="round")
        if not entry.plays_in(rnd.number):
            raise TournamentError("not_playing", field="round")
        (value,) = parse_scores([points], 1)
        if value == 0:
            raise TournamentError("no_points", field="points")
        reason = (reason or "").strip()
        if not reason:
            raise TournamentError("reason_required", field="reason")
        adjustment = Adjustment.objects.create(
            entry=entry,
            round_number=rnd.number,
            points=value,
            reason=reason[:200],
            by=_actor(actor),
        )
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.SCORE_ADJUSTED,
            tournament,
            after={
                "entry": str(entry),
                "round": rnd.number,
                "points": str(value),
                "reason": reason[:200],
            },
        )
        return adjustment
