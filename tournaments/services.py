"""Every write to a tournament: verb functions, one transaction each, one error type.

Each raises ``TournamentError`` (a ``ServiceError`` with a machine-readable
``code``) and writes nothing when it refuses. The draw itself is
``tournaments.draw`` (pure Python); the table sheets are opened through
``scoresheet.services.create_sheet``, so hands are entered, corrected and
deleted on them as on any club sheet.

The life of a round: *planned* (no tables) → *drawn* (tables; the organiser may
swap two players or draw again) → *started* (each table has its sheet; the
seats are fixed) → *closed* (every table has played its deals). Rounds are
drawn and started in order. A late registration joins the first round not yet
started, a withdrawal leaves after the last round started; either clears the
draw of the rounds not started that it changes (they must be drawn again).
"""

import random
import re

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.models import Player, Season
from core.errors import ServiceError
from scoresheet import services as sheets
from scoresheet.models import Hand
from scoresheet.scoring import ScoringError
from scoresheet.scoring.jsonformat import parse_rules
from tournaments import draw
from tournaments.models import Entry, Round, RoundTable, Tournament

MAX_ROUNDS = 12
MAX_DEALS = 30
#: The schedule search's bound: a page's request, not a batch job. Beyond a few hundred
#: iterations the schedules of 17 or 18 players over 3 to 6 rounds no longer improve.
SCHEDULE_ITERATIONS = 500


class TournamentError(ServiceError):
    """A write to a tournament refused (``code``, ``message``, ``field``)."""


# ---------------------------------------------------------------- the tournament


def deals_for_table(tournament: Tournament, seats: int) -> int | None:
    """The deals a table of ``seats`` plays in a round; None for a timed round.

    Tables of 4 play ``deals_per_round``; a table of 3 or 5 plays it rounded up to
    a multiple of its seats, so that everybody deals as often (4 deals: 5 at a
    table of five, 6 at a table of three).
    """
    deals = tournament.deals_per_round
    if not deals:
        return None
    if seats == 4:
        return deals
    return -(-deals // seats) * seats


def _check_settings(name, rules, rounds, deals_per_round, minutes_per_round, five_tables):
    name = (name or "").strip()
    if not name:
        raise TournamentError("name_required", _("A tournament needs a name."), "name")
    try:
        ruleset = parse_rules(rules)
    except ScoringError as error:
        raise TournamentError.from_scoring(error) from None
    if ruleset.preset == "two_players":
        raise TournamentError(
            "rules_two_players", _("A tournament seats 3 to 5 players a table."), "preset"
        )
    if not rounds or not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError(
            "rounds_range",
            _("A tournament has 1 to %(n)d rounds.") % {"n": MAX_ROUNDS},
            "rounds",
        )
    if bool(deals_per_round) == bool(minutes_per_round):
        raise TournamentError(
            "round_length",
            _("Give either a number of deals or a time per round."),
            "deals_per_round",
        )
    if deals_per_round and not 1 <= deals_per_round <= MAX_DEALS:
        raise TournamentError(
            "deals_range",
            _("A round has 1 to %(n)d deals.") % {"n": MAX_DEALS},
            "deals_per_round",
        )
    if five_tables not in Tournament.FiveTables.values:
        raise TournamentError("five_tables", _("Choose how tables of five play."), "five_tables")
    return name, ruleset.as_dict()


def _season_name(club, name, date, exclude=None):
    """A season name of its own for the tournament: "Name (date)", numbered if taken."""
    base = f"{name} ({date.isoformat()})"[:72]
    taken = set(
        Season.objects.filter(club=club, name__startswith=base)
        .exclude(pk=exclude)
        .values_list("name", flat=True)
    )
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base} {n}"
    return candidate


def create_tournament(
    club,
    *,
    name,
    date,
    rules,
    rounds,
    deals_per_round=None,
    minutes_per_round=None,
    five_tables=Tournament.FiveTables.FIVE,
    by=None,
    seed=None,
) -> Tournament:
    """A tournament, its own season (kind tournament) and its rounds, not drawn yet."""
    name, rules = _check_settings(
        name, rules, rounds, deals_per_round, minutes_per_round, five_tables
    )
    with transaction.atomic():
        season = Season.objects.create(
            club=club,
            kind=Season.Kind.TOURNAMENT,
            name=_season_name(club, name, date),
            start_date=date,
            end_date=date,
            rules=rules,
        )
        tournament = Tournament.objects.create(
            club=club,
            season=season,
            name=name,
            date=date,
            rules=rules,
            rounds=rounds,
            deals_per_round=deals_per_round or None,
            minutes_per_round=minutes_per_round or None,
            five_tables=five_tables,
            draw_seed=random.randrange(1, 2**31) if seed is None else seed,
            created_by=by,
        )
        Round.objects.bulk_create(
            Round(tournament=tournament, number=n) for n in range(1, rounds + 1)
        )
    return tournament


def update_tournament(
    tournament: Tournament,
    *,
    name,
    date,
    rules,
    rounds,
    deals_per_round=None,
    minutes_per_round=None,
    five_tables=Tournament.FiveTables.FIVE,
    by=None,
) -> Tournament:
    """Change the settings of a tournament not started yet (rounds added or dropped)."""
    name, rules = _check_settings(
        name, rules, rounds, deals_per_round, minutes_per_round, five_tables
    )
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.state != Tournament.State.SETUP:
            raise TournamentError(
                "tournament_started", _("A tournament under way can no longer be edited.")
            )
        tournament.name = name
        tournament.date = date
        tournament.rules = rules
        tournament.deals_per_round = deals_per_round or None
        tournament.minutes_per_round = minutes_per_round or None
        tournament.five_tables = five_tables
        old_rounds, tournament.rounds = tournament.rounds, rounds
        tournament.save()
        season = tournament.season
        season.name = _season_name(tournament.club, name, date, exclude=season.pk)
        season.start_date = season.end_date = date
        season.rules = rules
        season.save()
        if rounds < old_rounds:
            tournament.round_set.filter(number__gt=rounds).delete()
        elif rounds > old_rounds:
            Round.objects.bulk_create(
                Round(tournament=tournament, number=n) for n in range(old_rounds + 1, rounds + 1)
            )
    return tournament


def _lock(tournament: Tournament) -> Tournament:
    """Serialise the writes of one tournament (numbers, draws, rounds)."""
    return (
        Tournament.objects.select_for_update()
        .select_related("club", "season")
        .get(pk=tournament.pk)
    )


def _rounds(tournament) -> list[Round]:
    return list(tournament.round_set.order_by("number"))


def _first_open(rounds) -> Round | None:
    return next((r for r in rounds if r.is_open), None)


# ---------------------------------------------------------------- entries


def _next_number(tournament) -> int:
    return (tournament.entries.aggregate(n=Max("number"))["n"] or 0) + 1


def _joining_round(tournament) -> int:
    rounds = _rounds(tournament)
    first = _first_open(rounds)
    if first is None:
        raise TournamentError(
            "no_round_left", _("Every round has started: nobody can join any more.")
        )
    return first.number


def register_member(tournament: Tournament, player: Player, *, by=None) -> Entry:
    """Enter a player of the club, under the next number."""
    return register(tournament, [("member", player)], by=by)[0]


def register_guest(tournament: Tournament, name, *, club="", licence="", by=None) -> Entry:
    """Enter a guest from elsewhere; they become a player of the organising club."""
    return register(tournament, [("guest", (name, club, licence))], by=by)[0]


def register(tournament: Tournament, items, *, by=None) -> list[Entry]:
    """Enter several players at once: ``("member", player)`` or ``("guest", (name, club,
    licence))`` items, numbered in order; all or nothing."""
    with transaction.atomic():
        tournament = _lock(tournament)
        joining = _joining_round(tournament)
        number = _next_number(tournament)
        entered = set(tournament.entries.values_list("player_id", flat=True))
        entries = []
        for kind, value in items:
            if kind == "member":
                player = value
                if player.club_id != tournament.club_id:
                    raise TournamentError(
                        "player_not_in_club", _("Every player must be of this club."), "players"
                    )
                entry = Entry(player=player, name=player.name)
            else:
                name, club, licence = (str(v or "").strip() for v in value)
                player = _guest_player(tournament, name, club, entered)
                entry = Entry(
                    player=player, name=name, is_guest=True, guest_club=club, licence=licence
                )
            if player.pk in entered:
                raise TournamentError(
                    "already_entered",
                    _("%(name)s is already entered.") % {"name": entry.name},
                    "players",
                )
            entered.add(player.pk)
            entry.tournament = tournament
            entry.number = number
            entry.joined_before_round = joining
            number += 1
            entries.append(entry)
        Entry.objects.bulk_create(entries)
        _clear_stale_draws(tournament)
    return entries


def _guest_player(tournament, name, club, entered) -> Player:
    """The club's player for a guest: "Name (Their club)", created if new.

    A guest named with their club who already came (a player of that name with no
    login) is the same player again; any other clash of names is numbered.
    """
    if not name:
        raise TournamentError("name_required", _("A guest needs a name."), "name")
    if len(name) > 60 or len(club) > 60:
        raise TournamentError("name_too_long", _("This name is too long."), "name")
    base = f"{name} ({club})" if club else name
    existing = Player.objects.filter(club_id=tournament.club_id, name=base).first()
    if existing is None:
        return Player.objects.create(club_id=tournament.club_id, name=base)
    if club and existing.user_id is None and existing.pk not in entered:
        return existing
    n = 2
    while Player.objects.filter(club_id=tournament.club_id, name=f"{base} {n}").exists():
        n += 1
    return Player.objects.create(club_id=tournament.club_id, name=f"{base} {n}")


LINE_SPLIT = re.compile(r"\s*[;\t]\s*")


def parse_bulk(club, text) -> list[tuple]:
    """Pasted lines, one player each: ``Name`` or ``Name; Club; Licence`` (``;`` or tab).

    A line that is only the name of one of the club's players enters that player;
    any other line is a guest. Blank lines are skipped.
    """
    players = {p.name.casefold(): p for p in Player.objects.filter(club=club)}
    items = []
    for line in text.splitlines():
        parts = [p.strip() for p in LINE_SPLIT.split(line.strip())]
        if not parts or not parts[0]:
            continue
        name, club_name, licence = (parts + ["", ""])[:3]
        member = players.get(name.casefold())
        if member is not None and not club_name and not licence:
            items.append(("member", member))
        else:
            items.append(("guest", (name, club_name, licence)))
    return items


def register_bulk(tournament: Tournament, text, *, by=None) -> list[Entry]:
    """Enter every player of a pasted list (``parse_bulk``), all or nothing."""
    items = parse_bulk(tournament.club, text)
    if not items:
        raise TournamentError("nobody", _("Paste one name a line."), "names")
    return register(tournament, items, by=by)


def withdraw(entry: Entry, *, by=None) -> Entry | None:
    """The player leaves after the last round started; before any, the entry goes.

    Returns the entry, or None when it was deleted (nothing played yet).
    """
    with transaction.atomic():
        tournament = _lock(entry.tournament)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
        rounds = _rounds(tournament)
        started = [r.number for r in rounds if not r.is_open]
        last = max(started, default=0)
        if entry.withdrawn_after_round is not None:
            raise TournamentError("already_withdrawn", _("This player has already withdrawn."))
        if last == len(rounds):
            raise TournamentError(
                "no_round_left", _("Every round has started: there is nothing to withdraw from.")
            )
        if last < entry.joined_before_round:
            entry.delete()  # never seated at a started round
            entry = None
        else:
            entry.withdrawn_after_round = last
            entry.save(update_fields=["withdrawn_after_round"])
        _clear_stale_draws(tournament)
    return entry


def _clear_stale_draws(tournament) -> list[int]:
    """Forget the draw of the rounds not started whose tables no longer seat the players
    present (someone joined or withdrew). Returns their numbers."""
    entries = list(tournament.entries.all())
    cleared = []
    for rnd in tournament.round_set.filter(state=Round.State.DRAWN).order_by("number"):
        present = {e.number for e in entries if e.plays_in(rnd.number)}
        seated = {n for table in rnd.tables.all() for n in table.seats}
        if present != seated:
            rnd.tables.all().delete()
            rnd.state = Round.State.PLANNED
            rnd.save(update_fields=["state"])
            cleared.append(rnd.number)
    return cleared


def stale_rounds(tournament) -> list[int]:
    """Rounds not started whose draw is missing (for the set-up page)."""
    return [r.number for r in tournament.round_set.filter(state=Round.State.PLANNED)]


# ---------------------------------------------------------------- the draw


def history(tournament, before: int) -> list[list[list[int]]]:
    """The tables (entry numbers in seat order) of the rounds before round ``before``."""
    tables = RoundTable.objects.filter(
        round__tournament=tournament, round__number__lt=before
    ).order_by("round__number", "number")
    rounds: dict[int, list] = {}
    for round_number, seats in tables.values_list("round__number", "seats"):
        rounds.setdefault(round_number, []).append(seats)
    return [rounds[n] for n in sorted(rounds)]


def _present(tournament, number) -> list[int]:
    return [e.number for e in tournament.entries.all() if e.plays_in(number)]


def _save_tables(rnd: Round, tables) -> None:
    rnd.tables.all().delete()
    RoundTable.objects.bulk_create(
        RoundTable(round=rnd, number=i, seats=list(seats)) for i, seats in enumerate(tables, 1)
    )
    rnd.state = Round.State.DRAWN
    rnd.save(update_fields=["state"])


def _locked_round(rnd: Round):
    tournament = _lock(rnd.tournament)
    rounds = _rounds(tournament)
    rnd = next(r for r in rounds if r.pk == rnd.pk)
    return tournament, rounds, rnd


def draw_round(rnd: Round, *, by=None) -> Round:
    """Draw (or draw again) a round not started: the players present now, knowing the
    tables of the rounds before, which must all be drawn."""
    with transaction.atomic():
        tournament, rounds, rnd = _locked_round(rnd)
        if not rnd.is_open:
            raise TournamentError("round_started", _("This round has started: its seats stay."))
        if any(r.state == Round.State.PLANNED for r in rounds if r.number < rnd.number):
            raise TournamentError("earlier_round", _("Draw the rounds before this one first."))
        present = _present(tournament, rnd.number)
        try:
            tables = draw.draw_round(
                present,
                history(tournament, rnd.number),
                seed=f"{tournament.draw_seed}:{rnd.number}:{_draw_count(rnd)}",
            )
        except draw.DrawError:
            raise TournamentError(
                "too_few_players", _("A draw needs at least 3 players.")
            ) from None
        _save_tables(rnd, tables)
        _clear_stale_later(tournament, rnd.number)
    return rnd


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


def draw_schedule(tournament: Tournament, *, by=None) -> list[int]:
    """Draw every round not started, in advance, for the players present now.

    Before any round is drawn, the whole schedule comes from
    ``tournaments.draw.draw_schedule`` (few repeated meetings over all rounds);
    otherwise the remaining rounds are drawn one after another after the played
    ones. Returns the numbers of the rounds drawn.
    """
    with transaction.atomic():
        tournament = _lock(tournament)
        rounds = _rounds(tournament)
        todo = [r for r in rounds if r.is_open]
        if not todo:
            raise TournamentError("no_round_left", _("Every round has started."))
        first = todo[0].number
        present = _present(tournament, first)
        if len(present) < 3:
            raise TournamentError("too_few_players", _("A draw needs at least 3 players."))
        seed = f"{tournament.draw_seed}:schedule"
        if first == 1:
            schedule = draw.draw_schedule(
                len(present), len(todo), seed=seed, iterations=SCHEDULE_ITERATIONS
            )
            numbers = dict(enumerate(present, 1))
            for rnd, tables in zip(todo, schedule):
                _save_tables(rnd, [[numbers[i] for i in table] for table in tables])
        else:
            past = history(tournament, first)
            for rnd in todo:
                tables = draw.draw_round(present, past, seed=f"{seed}:{rnd.number}")
                _save_tables(rnd, tables)
                past.append(tables)
    return [r.number for r in todo]


def swap_players(rnd: Round, a: int, b: int, *, by=None) -> Round:
    """Exchange two players (entry numbers), seat for seat, in a drawn round not started."""
    with transaction.atomic():
        tournament, _rounds_, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAWN:
            raise TournamentError(
                "round_not_drawn", _("Only a drawn round not started can change its seats.")
            )
        if a == b:
            raise TournamentError("same_player", _("Choose two different players."), "b")
        tables = list(rnd.tables.order_by("number"))
        try:
            swapped = draw.swap([t.seats for t in tables], a, b)
        except draw.DrawError:
            raise TournamentError(
                "not_seated", _("Both players must be seated in this round."), "a"
            ) from None
        for table, seats in zip(tables, swapped):
            if table.seats != seats:
                table.seats = seats
                table.save(update_fields=["seats"])
        _clear_stale_later(tournament, rnd.number)
    return rnd


# ---------------------------------------------------------------- playing


def start_round(rnd: Round, *, by=None) -> Round:
    """Open each table's sheet (players in seat order, the tournament's rules): the
    tables may enter their deals. The rounds before must be closed."""
    with transaction.atomic():
        tournament, rounds, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAWN:
            code = "round_started" if not rnd.is_open else "round_not_drawn"
            raise TournamentError(code, _("Only a drawn round can start."))
        if any(r.state != Round.State.CLOSED for r in rounds if r.number < rnd.number):
            raise TournamentError("earlier_round", _("Close the rounds before this one first."))
        entries = {e.number: e for e in tournament.entries.select_related("player")}
        for table in rnd.tables.order_by("number"):
            try:
                sheet = sheets.create_sheet(
                    season=tournament.season,
                    players=[entries[n].player for n in table.seats],
                    date=tournament.date,
                    table=table_label(rnd.number, table.number),
                    rules=tournament.rules,
                    user=by,
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
    return rnd


def table_label(round_number, table_number) -> str:
    """The sheet's table label: "R2 T7" (round 2, table 7)."""
    return f"R{round_number} T{table_number}"


def close_round(rnd: Round, *, by=None) -> Round:
    """Mark a started round played: every table has its deals (timed: at least one)."""
    with transaction.atomic():
        tournament, rounds, rnd = _locked_round(rnd)
        if rnd.state != Round.State.STARTED:
            raise TournamentError("round_not_started", _("Only a round under way can close."))
        for table in rnd.tables.order_by("number"):
            played = Hand.objects.live().filter(sheet_id=table.sheet_id).count()
            wanted = deals_for_table(tournament, len(table.seats)) or 1
            if played < wanted:
                raise TournamentError(
                    "table_unfinished",
                    _("Table %(table)d has played %(played)d of its %(wanted)d deals.")
                    % {"table": table.number, "played": played, "wanted": wanted},
                )
        rnd.state = Round.State.CLOSED
        rnd.save(update_fields=["state"])
        if all(r.state == Round.State.CLOSED for r in rounds):
            tournament.state = Tournament.State.FINISHED
            tournament.save(update_fields=["state"])
    return rnd
