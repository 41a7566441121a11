"""The rounds: drawn one by one or all in advance (``tournaments.draw``, pure), seated as
given (a team match), two players swapped, started (each table's sheet opened) and
closed."""

from django.db import transaction
from django.utils.translation import gettext as _

from clubs import audit
from scoresheet import services as sheets
from scoresheet.models import Hand
from tournaments import draw, tokens
from tournaments.models import (
    Round,
    RoundTable,
    TableTotal,
    Tournament,
    deals_for_table,
)
from tournaments.services.common import (
    TournamentError,
    _lock,
    _refuse_duplicate,
    _require,
    _rounds,
    table_label,
)

#: The schedule search's length (``tournaments.draw.draw_schedule``): a few seconds for
#: 30 players, under 10 s for 100, which an organiser waits once for a fairer draw.
SCHEDULE_EFFORT = draw.SCHEDULE_EFFORT


def history(tournament, before: int) -> list[list[list[int]]]:
    """The tables (entry numbers in seat order) of the rounds before round ``before``."""
    tables = RoundTable.objects.filter(
        round__tournament=tournament, round__number__lt=before
    ).order_by("round__number", "number")
    rounds: dict[int, list] = {}
    for round_number, seats in tables.values_list("round__number", "seats"):
        rounds.setdefault(round_number, []).append(seats)
    return [rounds[n] for n in sorted(rounds)]


def teammates(tournament) -> list[tuple[int, int]]:
    """The pairs of entry numbers who are in the same team (never at the same table)."""
    teams: dict[int, list[int]] = {}
    for number, team_id in tournament.entries.exclude(team=None).values_list("number", "team_id"):
        teams.setdefault(team_id, []).append(number)
    return [(a, b) for members in teams.values() for a in members for b in members if a < b]


def _present(tournament, number) -> list[int]:
    return [e.number for e in tournament.entries.all() if e.plays_in(number)]


def _save_tables(rnd: Round, tables) -> None:
    """The round's tables, each with a new private link (``tournaments.tokens``)."""
    rnd.tables.all().delete()
    rows = []
    for i, seats in enumerate(tables, 1):
        row = RoundTable(round=rnd, number=i, seats=list(seats))
        tokens.issue(row)
        rows.append(row)
    RoundTable.objects.bulk_create(rows)
    rnd.state = Round.State.DRAWN
    rnd.save(update_fields=["state"])


def seat_round(rnd: Round, tables, *, actor=None) -> Round:
    """A round not started seated as given, not drawn: ``tables`` lists each table's
    entry numbers in seat order (a team match's fixed seating,
    ``competitions.services.start_match``); each table gets its private link."""
    _require(actor, rnd)
    with transaction.atomic():
        tournament, _rounds_, rnd = _locked_round(rnd)
        if not rnd.is_open:
            raise TournamentError("round_started")
        known = set(tournament.entries.values_list("number", flat=True))
        seated = [n for seats in tables for n in seats]
        if len(set(seated)) != len(seated) or not set(seated) <= known:
            raise TournamentError("seats_invalid")
        _save_tables(rnd, [list(seats) for seats in tables])
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ROUND_DRAWN,
            tournament,
            after={"rounds": [rnd.number], "tables": [list(seats) for seats in tables]},
        )
    return rnd


def _locked_round(rnd: Round):
    tournament = _lock(rnd.tournament)
    rounds = _rounds(tournament)
    rnd = next(r for r in rounds if r.pk == rnd.pk)
    return tournament, rounds, rnd


def draw_round(rnd: Round, *, actor=None) -> Round:
    """Draw (or draw again) a round not started: the players present now, knowing the
    tables of the rounds before, which must all be drawn."""
    _require(actor, rnd)
    with transaction.atomic():
        tournament, rounds, rnd = _locked_round(rnd)
        _refuse_duplicate(tournament)
        if not rnd.is_open:
            raise TournamentError("round_started")
        if any(r.state == Round.State.PLANNED for r in rounds if r.number < rnd.number):
            raise TournamentError("earlier_round")
        present = _present(tournament, rnd.number)
        past = history(tournament, rnd.number)
        apart = teammates(tournament)
        tables = None
        if rnd.state == Round.State.PLANNED and not apart:
            tables = _round_of_schedule(tournament, present, past, rnd.number)
        try:
            tables = tables or draw.draw_round(
                present,
                past,
                seed=f"{tournament.draw_seed}:{rnd.number}:{_draw_count(rnd)}",
                forbidden=apart,
                even_spread=tournament.even_spread,
            )
        except draw.DrawError:
            raise TournamentError("too_few_players") from None
        _save_tables(rnd, tables)
        _clear_stale_later(tournament, rnd.number)
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ROUND_DRAWN,
            tournament,
            after={"rounds": [rnd.number], "tables": tables},
        )
    return rnd


def _schedule(tournament, present, rounds) -> list:
    """Every round in advance (``tournaments.draw.draw_schedule``), in entry numbers: fair
    by the end, or the fewest repeated meetings; the same for the same players."""
    schedule = draw.draw_schedule(
        len(present),
        rounds,
        seed=f"{tournament.draw_seed}:schedule",
        effort=SCHEDULE_EFFORT,
        spread=1 if tournament.even_spread else None,
    )
    numbers = dict(enumerate(present, 1))
    return [[[numbers[i] for i in table] for table in tables] for tables in schedule]


def _round_of_schedule(tournament, present, past, number):
    """Round ``number`` of the schedule in advance, when the rounds before are that
    schedule's and the same players play every round; otherwise None (the round is
    then drawn on its own, knowing the rounds before)."""
    if tournament.draw_rule == Tournament.DrawRule.ROUND or len(present) < 3:
        return None
    entries = list(tournament.entries.all())
    for n in range(1, tournament.rounds + 1):
        if [e.number for e in entries if e.plays_in(n)] != present:
            return None
    schedule = _schedule(tournament, present, tournament.rounds)

    def same(a, b):
        return sorted(map(sorted, a)) == sorted(map(sorted, b))

    if len(past) != number - 1 or not all(map(same, past, schedule)):
        return None
    return schedule[number - 1]


def _draw_count(rnd) -> int:
    """A draw drawn again differs: the seed takes the round's first table as salt."""
    first = rnd.tables.order_by("number").values_list("seats", flat=True).first()
    return sum(first) if first else 0


def _clear_stale_later(tournament, number) -> None:
    """A round drawn again changes the history of the later drawn rounds: clear them."""
    for later in tournament.round_set.filter(number__gt=number, state=Round.State.DRAWN):
        later.tables.all().delete()
        later.state = Round.State.PLANNED
        later.save(update_fields=["state"])


def draw_schedule(tournament: Tournament, *, actor=None) -> list[int]:
    """Draw every round not started, in advance, for the players present now.

    Before any round is drawn, the whole schedule comes from
    ``tournaments.draw.draw_schedule`` (few repeated meetings over all rounds);
    otherwise the remaining rounds are drawn one after another after the played
    ones. Returns the numbers of the rounds drawn.
    """
    _require(actor, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        _refuse_duplicate(tournament)
        rounds = _rounds(tournament)
        todo = [r for r in rounds if r.is_open]
        if not todo:
            raise TournamentError("no_round_left", wording="no_round_left.withdraw")
        first = todo[0].number
        present = _present(tournament, first)
        if len(present) < 3:
            raise TournamentError("too_few_players")
        seed = f"{tournament.draw_seed}:schedule"
        apart = teammates(tournament)
        if first == 1 and not apart and tournament.draw_rule != Tournament.DrawRule.ROUND:
            schedule = _schedule(tournament, present, len(todo))
            for rnd, tables in zip(todo, schedule):
                _save_tables(rnd, tables)
        else:
            past = history(tournament, first)
            for rnd in todo:
                tables = draw.draw_round(
                    present,
                    past,
                    seed=f"{seed}:{rnd.number}",
                    forbidden=apart,
                    even_spread=tournament.even_spread,
                )
                _save_tables(rnd, tables)
                past.append(tables)
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ROUND_DRAWN,
            tournament,
            after={"rounds": [r.number for r in todo]},
        )
    return [r.number for r in todo]


def swap_players(rnd: Round, a: int, b: int, *, actor=None) -> Round:
    """Exchange two players (entry numbers), seat for seat, in a drawn round not started."""
    _require(actor, rnd)
    with transaction.atomic():
        tournament, _rounds_, rnd = _locked_round(rnd)
        _refuse_duplicate(tournament)
        if rnd.state != Round.State.DRAWN:
            raise TournamentError("round_not_drawn")
        if a == b:
            raise TournamentError("same_player", field="b")
        tables = list(rnd.tables.order_by("number"))
        try:
            swapped = draw.swap([t.seats for t in tables], a, b)
        except draw.DrawError:
            raise TournamentError("not_seated", field="a") from None
        for table, seats in zip(tables, swapped):
            if table.seats != seats:
                table.seats = seats
                table.save(update_fields=["seats"])
        _clear_stale_later(tournament, rnd.number)
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.PLAYERS_SWAPPED,
            tournament,
            after={"round": rnd.number, "swapped": [a, b]},
        )
    return rnd


def start_round(rnd: Round, *, actor=None) -> Round:
    """Open each table's sheet (players in seat order, the tournament's rules): the
    tables may enter their deals. The rounds before must be closed."""
    _require(actor, rnd)
    with transaction.atomic():
        tournament, rounds, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAWN:
            code = "round_started" if not rnd.is_open else "round_not_drawn"
            raise TournamentError(code, _("Only a drawn round can start."))
        if any(r.state != Round.State.CLOSED for r in rounds if r.number < rnd.number):
            raise TournamentError("earlier_round", wording="earlier_round.close_rounds_before_one")
        entries = {e.number: e for e in tournament.entries.select_related("player")}
        for table in rnd.tables.order_by("number"):
            try:
                sheet = sheets.create_sheet(
                    season=tournament.season,
                    players=[entries[n].player for n in table.seats],
                    date=tournament.date,
                    table=table_label(rnd.number, table.number),
                    rules=tournament.rules,
                    actor=actor,
                )
            except sheets.LedgerError as error:
                raise TournamentError(error.code, error.message) from None
            table.sheet = sheet
            table.save(update_fields=["sheet"])
        rnd.state = Round.State.STARTED
        rnd.save(update_fields=["state"])
        if tournament.state == Tournament.State.SETUP:
            tournament.state = Tournament.State.RUNNING
            tournament.save(update_fields=["state"])
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ROUND_STARTED,
            tournament,
            after={"round": rnd.number},
        )
    return rnd


def close_round(rnd: Round, *, actor=None) -> Round:
    """Mark a started round played: every table has its deals (timed: at least one)."""
    _require(actor, rnd)
    with transaction.atomic():
        tournament, rounds, rnd = _locked_round(rnd)
        if rnd.state != Round.State.STARTED:
            raise TournamentError(
                "round_not_started", wording="round_not_started.only_round_under_way"
            )
        by_organiser = set(
            TableTotal.objects.filter(round_table__round=rnd).values_list(
                "round_table_id", flat=True
            )
        )
        for table in rnd.tables.order_by("number"):
            if table.pk in by_organiser:
                continue  # its result is the totals the organiser entered
            played = Hand.objects.live().filter(sheet_id=table.sheet_id).count()
            wanted = deals_for_table(tournament, len(table.seats)) or 1
            if played < wanted:
                raise TournamentError(
                    "table_unfinished", table=table.number, played=played, wanted=wanted
                )
        for table in rnd.tables.exclude(sheet=None).select_related("sheet"):
            sheets.close_sheet(table.sheet, actor=actor)  # the tables' links take no more deals
        rnd.state = Round.State.CLOSED
        rnd.save(update_fields=["state"])
        if all(r.state == Round.State.CLOSED for r in rounds):
            tournament.state = Tournament.State.FINISHED
            tournament.save(update_fields=["state"])
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ROUND_CLOSED,
            tournament,
            after={"round": rnd.number},
        )
    return rnd
