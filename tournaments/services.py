"""Every write to a tournament: verb functions, one transaction each, one error type.

Each raises ``TournamentError`` (a ``ServiceError`` with a machine-readable
``code``) and writes nothing when it refuses. ``actor`` is the user acting,
authorised the one way (``clubs.permissions.require``): a manager of the club
(``forbidden`` otherwise); ``None`` for a table's private link (its view checked
the token) and for code without a user. The draw itself is
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
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit, refusals
from clubs.models import Club, Person, Player, Season
from clubs.permissions import require
from clubs.visibility import named_to_everyone
from core.db import retry_on_conflict, savepoint_needed
from core.errors import ServiceError
from scoresheet import services as sheets
from scoresheet.models import Hand, ScoreRow, SheetTotal
from tarot import ScoringError
from tarot.duplicate import json_score
from tarot.jsonformat import parse_rules
from tournaments import draw, followups, guests, signals, tokens
from tournaments.duplicate import deals as duplicate_deals
from tournaments.duplicate import movement
from tournaments.models import (  # noqa: F401 (deals_for_table: the services' API)
    Adjustment,
    Entry,
    Round,
    RoundTable,
    TableResult,
    TableTotal,
    Team,
    Tournament,
    deals_for_table,
)

TEAM_SIZES = (2, 4)
#: The players a tournament seats at a table: its rules must play each of these.
TABLE_SIZES = (3, 4, 5)
MAX_ROUNDS = 12
MAX_DEALS = 30
#: The schedule search's length (``tournaments.draw.draw_schedule``): a few seconds for
#: 30 players, under 10 s for 100, which an organiser waits once for a fairer draw.
SCHEDULE_EFFORT = draw.SCHEDULE_EFFORT


#: The refusals of this module, by code (``core.errors``); a code worded several ways has
#: its other wordings under ``code.variant`` (raised with ``wording=``). ``forbidden`` is
#: worded by ``clubs.permissions``; the ledger's and the engine's refusals come through
#: with their own messages.
error_messages = {
    "name_required": _lazy("A tournament needs a name."),
    "already_linked": _lazy("This entry is already linked, or its licence changed."),
    "rules_two_players": _lazy("A tournament seats 3 to 5 players a table."),
    "rounds_range": _lazy("A tournament has 1 to %(n)d rounds."),
    "round_length": _lazy("Give either a number of deals or a time per round."),
    "deals_range": _lazy("A round has 1 to %(n)d deals."),
    "five_tables": _lazy("Choose how tables of five play."),
    "team_size": _lazy("A team has 2 or 4 players."),
    "confirm_by": _lazy("Choose how a table's sheet is confirmed."),
    "draw_rule": _lazy("Choose what the draw puts first."),
    "no_round_left": _lazy("Every round has started: nobody can join any more."),
    "name_required.guest_needs_name": _lazy("A guest needs a name."),
    "name_too_long": _lazy("This name is too long."),
    "nobody": _lazy("Paste one name a line."),
    "tournament_closed": _lazy(
        "The tournament is closed: its final ranking is frozen and nothing can change."
    ),
    "table_unfinished": _lazy("Table %(table)d has played %(played)d of its %(wanted)d deals."),
    "bilan_not_zero": _lazy("The scores of this sheet do not add up to zero: check it."),
    "seat_unnamed": _lazy("Every seat of the table must be named."),
    "round_closed": _lazy("This round is closed: it takes no more entries."),
    "round_not_started": _lazy("This round has not started yet."),
    "table_submitted": _lazy("This table's sheet is handed in: ask the organiser to change it."),
    "unknown_hand": _lazy("This deal is not of this table."),
    "bad_score": _lazy("Type a score for every seat."),
    "tournament_started": _lazy("A tournament under way can no longer be edited."),
    "teams_registered": _lazy("Teams are registered: their size can no longer change."),
    "already_withdrawn": _lazy("This player has already withdrawn."),
    "check_not_zero": _lazy("The scores do not add up to zero: check them."),
    "reason_required": _lazy("Say why: the article of the arbitration code, or the club's rule."),
    "no_points": _lazy("An adjustment is a number of points, not 0."),
    "not_playing": _lazy("This player does not play in that round."),
    "round_not_played": _lazy("Only a round under way or closed takes an adjustment."),
    "no_round_left.withdraw_nothing": _lazy(
        "Every round has started: there is nothing to withdraw from."
    ),
    "round_started": _lazy("This round has started: its seats stay."),
    "earlier_round": _lazy("Draw the rounds before this one first."),
    "no_round_left.withdraw": _lazy("Every round has started."),
    "too_few_players": _lazy("A draw needs at least 3 players."),
    "seats_invalid": _lazy("Each seat is a different entry of the tournament."),
    "round_not_drawn": _lazy("Only a drawn round not started can change its seats."),
    "same_player": _lazy("Choose two different players."),
    "earlier_round.close_rounds_before_one": _lazy("Close the rounds before this one first."),
    "round_not_started.only_round_under_way": _lazy("Only a round under way can close."),
    "not_a_team_event": _lazy("This tournament has no teams."),
    "name_required.team_needs_name": _lazy("A team needs a name."),
    "team_size.count": _lazy("A team of this tournament has %(n)d players."),
    "team_exists": _lazy("A team of this name is already entered."),
    "bad_score.type_score_as_number": _lazy("Type every score as a number, e.g. -42 or 21.5."),
    "bad_score.score_whole_or_half": _lazy("A score is a whole or a half point."),
    "already_confirmed": _lazy("This table's sheet is confirmed."),
    "disputed": _lazy("The two entries differ: the organiser is checking this table."),
    "not_submitted": _lazy("The table has not handed its sheet in yet."),
    "same_person": _lazy("The second entry must be made by somebody else than the first."),
    "already_confirmed.confirmed_sheet_changes_only": _lazy(
        "A confirmed sheet changes only through the organiser's correction."
    ),
    "rounds_open": _lazy("Close every round first."),
    "tables_unconfirmed": _lazy("Confirm every sheet first: %(tables)s."),
    "already_entered": _lazy("%(name)s is already entered."),
    "too_many_players": _lazy("A tournament takes at most %(n)s players."),
    "deals_complete": _lazy("Every deal of the round is entered (%(n)s): hand the sheet in."),
    "not_seated": _lazy("Both players must be seated in this round."),
    "player_not_in_club": _lazy("Every player must be of this club."),
    # a duplicate event (tournaments.duplicate.services has the rest of its refusals)
    "set_complete": _lazy("This table has entered every deal of its set."),
    "no_set": _lazy("This table has no set in this round."),
    "duplicate_no_delete": _lazy(
        "A duplicate table's deal is corrected, not deleted: its place in the étui "
        "says which deal it is."
    ),
    "duplicate_started": _lazy(
        "A duplicate event's players are fixed once a round has started: the arbitre "
        "gives arbitral scores instead."
    ),
    "duplicate_movement": _lazy(
        "A duplicate event is seated by its movement: draw the movement instead."
    ),
    "table_has_deals": _lazy(
        "This table has entered deals: confirm or correct its sheet instead of typing totals."
    ),
    "no_totals": _lazy("This table has no totals entered by the organiser to cancel."),
    "table_held": _lazy(
        "Another phone enters this table's deals. To enter them here, take the table "
        "over with the organiser's code."
    ),
    "takeover_code": _lazy("This is not the organiser's code: ask the organiser."),
}


class TournamentError(ServiceError):
    """A write to a tournament refused (``code``, ``message``, ``field``)."""

    error_messages = error_messages
    #: a tournament's rules the engine refuses, in the page's language
    scoring_wording = staticmethod(refusals.message_of)


# ---------------------------------------------------------------- the tournament


def _settings(
    name,
    rules,
    rounds,
    deals_per_round,
    minutes_per_round,
    five_tables,
    team_size,
    confirm_by,
    draw_rule=Tournament.DrawRule.END,
) -> dict:
    """A tournament's settings checked, as its fields: the name stripped, the rules in
    their short form, a blank round length or team size as None."""
    name = (name or "").strip()
    if not name:
        raise TournamentError("name_required", field="name")
    try:
        ruleset = parse_rules(rules)
    except ScoringError as error:
        raise TournamentError.from_scoring(error) from None
    if not set(TABLE_SIZES) <= set(ruleset.ruleset.player_counts):
        raise TournamentError("rules_two_players", field="preset")
    if not rounds or not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError("rounds_range", field="rounds", n=MAX_ROUNDS)
    if bool(deals_per_round) == bool(minutes_per_round):
        raise TournamentError("round_length", field="deals_per_round")
    if deals_per_round and not 1 <= deals_per_round <= MAX_DEALS:
        raise TournamentError("deals_range", field="deals_per_round", n=MAX_DEALS)
    if five_tables not in Tournament.FiveTables.values:
        raise TournamentError("five_tables", field="five_tables")
    team_size = team_size or None
    if team_size not in (None, *TEAM_SIZES):
        raise TournamentError("team_size", field="team_size")
    if confirm_by not in Tournament.ConfirmBy.values:
        raise TournamentError("confirm_by", field="confirm_by")
    if draw_rule not in Tournament.DrawRule.values:
        raise TournamentError("draw_rule", field="draw_rule")
    return {
        "name": name,
        "rules": ruleset.as_dict(),
        "rounds": rounds,
        "deals_per_round": deals_per_round or None,
        "minutes_per_round": minutes_per_round or None,
        "five_tables": five_tables,
        "team_size": team_size,
        "confirm_by": confirm_by,
        "draw_rule": draw_rule,
    }


def _season_name(club, name, date, exclude=None):
    """A season name of its own for the tournament: "Name (date)", numbered if taken.
    The club's row is locked first: two tournaments named at once take turns, and the
    second reads the first's name (never a clash on the season's unique name)."""
    _lock_club(club)
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


def _lock_club(club) -> None:
    """Serialise the club's tournament creations (each picks a free season name)."""
    Club.objects.select_for_update().filter(pk=club.pk).values_list("pk", flat=True).first()


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
    team_size=None,
    confirm_by=Tournament.ConfirmBy.TOTALS,
    draw_rule=Tournament.DrawRule.END,
    actor=None,
    seed=None,
    team_match=False,
) -> Tournament:
    """A tournament, its own season (kind tournament) and its rounds, not drawn yet
    (``team_match``: a team match's two tables, opened by ``competitions``)."""
    _require(actor, club)
    settings = _settings(
        name,
        rules,
        rounds,
        deals_per_round,
        minutes_per_round,
        five_tables,
        team_size,
        confirm_by,
        draw_rule,
    )
    with transaction.atomic():
        season = Season.objects.create(
            club=club,
            kind=Season.Kind.TOURNAMENT,
            name=_season_name(club, settings["name"], date),
            start_date=date,
            end_date=date,
            rules=settings["rules"],
        )
        tournament = Tournament.objects.create(
            club=club,
            season=season,
            team_match=team_match,
            date=date,
            **settings,
            draw_seed=random.randrange(1, 2**31) if seed is None else seed,
            created_by=actor,
        )
        Round.objects.bulk_create(
            Round(tournament=tournament, number=n) for n in range(1, rounds + 1)
        )
        audit.record(club, actor, audit.Action.TOURNAMENT_CREATED, tournament)
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
    team_size=None,
    confirm_by=Tournament.ConfirmBy.TOTALS,
    draw_rule=Tournament.DrawRule.END,
    actor=None,
) -> Tournament:
    """Change the settings of a tournament not started yet (rounds added or dropped)."""
    _require(actor, tournament)
    settings = _settings(
        name,
        rules,
        rounds,
        deals_per_round,
        minutes_per_round,
        five_tables,
        team_size,
        confirm_by,
        draw_rule,
    )
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.state != Tournament.State.SETUP:
            raise TournamentError("tournament_started")
        if settings["team_size"] != tournament.team_size and tournament.teams.exists():
            raise TournamentError("teams_registered", field="team_size")
        old_rounds = tournament.rounds
        before = {field: _audited(getattr(tournament, field)) for field in settings}
        before["date"] = tournament.date.isoformat()
        for field, value in settings.items():
            setattr(tournament, field, value)
        tournament.date = date
        tournament.save()
        season = tournament.season
        season.name = _season_name(tournament.club, tournament.name, date, exclude=season.pk)
        season.start_date = season.end_date = date
        season.rules = tournament.rules
        season.save()
        if rounds < old_rounds:
            tournament.round_set.filter(number__gt=rounds).delete()
        elif rounds > old_rounds:
            Round.objects.bulk_create(
                Round(tournament=tournament, number=n) for n in range(old_rounds + 1, rounds + 1)
            )
        after = {field: _audited(getattr(tournament, field)) for field in settings}
        after["date"] = tournament.date.isoformat()
        changed = [k for k in after if after[k] != before[k]]
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.TOURNAMENT_UPDATED,
            tournament,
            before={k: before[k] for k in changed},
            after={k: after[k] for k in changed},
        )
    return tournament


def _audited(value):
    """A setting as the audit entry's JSON keeps it."""
    plain = value is None or isinstance(value, bool | int | str | dict | list)
    return value if plain else str(value)


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
        raise TournamentError("no_round_left")
    return first.number


def register(tournament: Tournament, items, *, actor=None) -> list[Entry]:
    """Enter several players at once: ``("member", player)`` or ``("guest", (name, club,
    licence))`` items, numbered in order; all or nothing. A guest found across the league
    comes as ``("guest", (name, club, licence, person))``: the guest's player record is
    linked to that ``Person`` and so is the entry. A guest who plays for another club of
    the site (a person, or ``(name, club, licence, person, True)``: a team match's away
    player) gets a guest's record (``Player.is_guest``), not one of the club's players."""
    _require(actor, tournament)
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
                    raise TournamentError("player_not_in_club", field="players")
                entry = Entry(player=player, name=player.name, person_id=player.person_id)
            else:
                person = value[3] if len(value) > 3 else None
                named_here = len(value) > 4 and bool(value[4])  # the caller chose the name
                outside = person is not None or named_here
                name, club, licence = (str(v or "").strip() for v in value[:3])
                if person is not None and not named_here and not named_to_everyone(person):
                    name, licence = unnamed(person.pk), ""  # a hidden person: no name here
                elif person is None and licence:
                    # typed with a licence: the organiser named them; linked when the
                    # names match (``guests.licensed_person``)
                    person = guests.licensed_person(licence, name)
                    outside = outside or person is not None
                player = _guest_player(tournament, name, club, entered, person, outside)
                entry = Entry(
                    player=player,
                    name=name,
                    is_guest=True,
                    guest_club=club,
                    licence=licence,
                    person_id=player.person_id,
                )
            if player.pk in entered:
                raise TournamentError("already_entered", field="players", name=entry.name)
            entered.add(player.pk)
            entry.tournament = tournament
            entry.number = number
            entry.joined_before_round = joining
            number += 1
            entries.append(entry)
        most = 4 * movement.MAX_TABLES if tournament.is_duplicate else draw.MAX_PLAYERS
        if len(entered) > most:
            raise TournamentError("too_many_players", field="players", n=most)
        Entry.objects.bulk_create(entries)
        _clear_stale_draws(tournament)
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ENTRIES_REGISTERED,
            tournament,
            after={"entries": [f"{e.number}. {e.name}" for e in entries]},
        )
    return entries


def unnamed(number) -> str:
    """The name a hidden person (``clubs.visibility``) is entered under in another club:
    nothing of their name or licence, the same each time (``number``: their record's)."""
    return _("Player no. %(number)s") % {"number": number}


def link_entry(entry: Entry, person: Person, *, actor=None) -> Entry:
    """The organiser confirms that a guest entered with a licence is the person holding
    it: the entry and the guest's player record are linked to them."""
    _require(actor, entry.tournament)
    with transaction.atomic():
        _lock(entry.tournament)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        if entry.person_id is not None or person.licence != entry.licence:
            raise TournamentError("already_linked")
        entry.person = person
        entry.save(update_fields=["person"])
        if entry.player.person_id is None:
            entry.player.person = person
            entry.player.save(update_fields=["person"])
        audit.record(
            entry.tournament.club_id,
            actor,
            audit.Action.PERSON_LINKED,
            entry.player,
            after={"person": str(person), "licence": person.licence},
        )
    return entry


def _guest_player(tournament, name, club, entered, person=None, outside=False) -> Player:
    """The club's player for a guest: "Name (Their club)", created if new.

    A guest named with their club who already came (a player of that name with no
    login) is the same player again; any other clash of names is numbered. A guest
    who is a known ``person``: the club's record already linked to them is the same
    player again; a new or unlinked record is linked to them. A new record of a guest
    playing for another club (``outside``) is a guest's record (``Player.is_guest``).
    """
    if person is not None:
        linked = Player.objects.filter(club_id=tournament.club_id, person=person).first()
        if linked is not None:
            return linked
    if not name:
        raise TournamentError(
            "name_required", field="name", wording="name_required.guest_needs_name"
        )
    if len(name) > 60 or len(club) > 60:
        raise TournamentError("name_too_long", field="name")
    base = f"{name} ({club})" if club else name
    existing = Player.objects.filter(club_id=tournament.club_id, name=base).first()
    if existing is None:
        return Player.objects.create(
            club_id=tournament.club_id, name=base, person=person, is_guest=outside
        )
    if (
        club
        and existing.user_id is None
        and existing.pk not in entered
        and (person is None or existing.person_id in (None, person.pk))
    ):
        if person is not None and existing.person_id is None:
            existing.person = person
            existing.save(update_fields=["person"])
        return existing
    n = 2
    while Player.objects.filter(club_id=tournament.club_id, name=f"{base} {n}").exists():
        n += 1
    return Player.objects.create(
        club_id=tournament.club_id, name=f"{base} {n}", person=person, is_guest=outside
    )


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


def register_bulk(tournament: Tournament, text, *, actor=None) -> list[Entry]:
    """Enter every player of a pasted list (``parse_bulk``), all or nothing."""
    _require(actor, tournament)
    items = parse_bulk(tournament.club, text)
    if not items:
        raise TournamentError("nobody", field="names")
    return register(tournament, items, actor=actor)


def withdrawal_effect(entry: Entry) -> dict:
    """What withdrawing ``entry`` now would do, for the confirmation page (no write):
    ``after`` (the last round started, 0 for none: the entry is then simply removed)
    and ``drawn``, the later rounds already drawn, which keep their draw unless drawn
    again: ``{"number": round number, "tables": the table numbers a re-balance
    changes}``."""
    tournament = entry.tournament
    rounds = _rounds(tournament)
    after = max((r.number for r in rounds if not r.is_open), default=0)
    entries = list(tournament.entries.all())
    drawn = []
    for rnd in rounds:
        if rnd.state != Round.State.DRAWN:
            continue
        present = [e.number for e in entries if e.plays_in(rnd.number) and e.pk != entry.pk]
        seats = list(rnd.tables.order_by("number").values_list("seats", flat=True))
        changed = []
        if len(present) >= 3:
            changed = draw.rebalance(seats, present, history(tournament, rnd.number))[1]
        drawn.append({"number": rnd.number, "tables": [i + 1 for i in changed]})
    return {"after": after, "drawn": drawn}


def withdraw_player(entry: Entry, *, redraw: bool = False, actor=None) -> Entry | None:
    """Withdraw ``entry`` after the last round started (before any round, the entry
    goes), keeping the later rounds already drawn: each is re-balanced
    (``tournaments.draw.rebalance``), only the tables the change touches move, and
    those are marked ``changed`` (their cards need printing again). ``redraw=True``
    forgets those draws instead: the rounds must be drawn again. Returns the entry, or
    None when it was removed.
    """
    _require(actor, entry)
    with transaction.atomic():
        tournament = _lock(entry.tournament)
        entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
        rounds = _rounds(tournament)
        last = max((r.number for r in rounds if not r.is_open), default=0)
        if entry.withdrawn_after_round is not None:
            raise TournamentError("already_withdrawn")
        if tournament.is_duplicate:
            if any(not r.is_open for r in rounds):
                raise TournamentError("duplicate_started")
            _clear_stale_draws(tournament)
            audit.record(
                tournament.club_id,
                actor,
                audit.Action.ENTRY_WITHDRAWN,
                tournament,
                after={"entry": str(entry), "after_round": 0, "redraw": True},
            )
            entry.delete()
            return None
        if last == len(rounds):
            raise TournamentError("no_round_left", wording="no_round_left.withdraw_nothing")
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ENTRY_WITHDRAWN,
            tournament,
            after={"entry": str(entry), "after_round": last, "redraw": redraw},
        )
        if last < entry.joined_before_round:
            entry.delete()  # never seated at a started round
            entry = None
        else:
            entry.withdrawn_after_round = last
            entry.save(update_fields=["withdrawn_after_round"])
        if redraw:
            for rnd in rounds:
                if rnd.state == Round.State.DRAWN:
                    _forget_draw(rnd)
        else:
            _rebalance_drawn(tournament, rounds)
    return entry


def _forget_draw(rnd: Round) -> None:
    rnd.tables.all().delete()
    rnd.state = Round.State.PLANNED
    rnd.save(update_fields=["state"])


def _rebalance_drawn(tournament, rounds) -> None:
    """Fit each drawn round not started to the players present, table by table."""
    entries = list(tournament.entries.all())
    for rnd in rounds:
        if rnd.state != Round.State.DRAWN:
            continue
        present = [e.number for e in entries if e.plays_in(rnd.number)]
        if len(present) < 3:
            _forget_draw(rnd)
            continue
        current = list(rnd.tables.order_by("number"))
        tables, changed = draw.rebalance(
            [t.seats for t in current], present, history(tournament, rnd.number)
        )
        for row in current[len(tables) :]:
            row.delete()
        for i in changed:
            if i < len(current):
                row = current[i]
                row.seats = tables[i]
                row.changed = True
                row.save(update_fields=["seats", "changed"])
            else:
                row = RoundTable(round=rnd, number=i + 1, seats=tables[i], changed=True)
                tokens.issue(row)
                row.save()


def _clear_stale_draws(tournament) -> list[int]:
    """Forget the draw of the rounds not started whose tables no longer seat the players
    present (someone joined or withdrew). Returns their numbers."""
    if tournament.is_duplicate:  # the movement seats everybody at once: drawn again
        rounds = list(tournament.round_set.all())
        if any(not r.is_open for r in rounds):
            raise TournamentError("duplicate_started")
        cleared = [r.number for r in rounds if r.state == Round.State.DRAWN]
        RoundTable.objects.filter(round__tournament=tournament).delete()
        tournament.round_set.update(state=Round.State.PLANNED)
        return cleared
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


# ---------------------------------------------------------------- playing


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


def table_label(round_number, table_number) -> str:
    """The sheet's table label: "R2 T7" (round 2, table 7)."""
    return f"R{round_number} T{table_number}"


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


# ---------------------------------------------------------------- teams


def teammates(tournament) -> list[tuple[int, int]]:
    """The pairs of entry numbers who are in the same team (never at the same table)."""
    teams: dict[int, list[int]] = {}
    for number, team_id in tournament.entries.exclude(team=None).values_list("number", "team_id"):
        teams.setdefault(team_id, []).append(number)
    return [(a, b) for members in teams.values() for a in members for b in members if a < b]


def register_team(tournament: Tournament, name, items, *, actor=None) -> Team:
    """Enter a team: its name and its players (``register``'s items), as many as the
    tournament's teams have; all or nothing."""
    _require(actor, tournament)
    name = (name or "").strip()
    with transaction.atomic():
        locked = _lock(tournament)
        if not locked.team_size:
            raise TournamentError("not_a_team_event")
        if not name:
            raise TournamentError(
                "name_required", field="name", wording="name_required.team_needs_name"
            )
        if len(name) > 60:
            raise TournamentError("name_too_long", field="name")
        if len(items) != locked.team_size:
            raise TournamentError(
                "team_size", field="players", wording="team_size.count", n=locked.team_size
            )
        if locked.teams.filter(name__iexact=name).exists():
            raise TournamentError("team_exists", field="name")
        entries = register(locked, items, actor=actor)
        number = (locked.teams.aggregate(n=Max("number"))["n"] or 0) + 1
        team = Team.objects.create(tournament=locked, number=number, name=name)
        Entry.objects.filter(pk__in=[e.pk for e in entries]).update(team=team)
        audit.record(
            locked.club_id,
            actor,
            audit.Action.TEAM_REGISTERED,
            team,
            label=f"{locked.name}: {name}",
            after={"team": name, "entries": [f"{e.number}. {e.name}" for e in entries]},
        )
    return team


# ---------------------------------------------------------------- the tables' results


def _refuse_closed(tournament) -> None:
    if tournament.state == Tournament.State.CLOSED:
        raise TournamentError("tournament_closed")


def _lock_table(table: RoundTable) -> RoundTable:
    """Lock one table (its results, state and link) for the length of the transaction."""
    return (
        RoundTable.objects.select_for_update(of=("self",))
        .select_related("round__tournament__club", "sheet")
        .get(pk=table.pk)
    )


def wanted_deals(table: RoundTable) -> int:
    """The deals the table must have played to hand its sheet in (timed: one)."""
    return deals_for_table(table.round.tournament, len(table.seats)) or 1


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


def _text(value) -> str:
    value = Decimal(value)
    return str(value.quantize(Decimal(1)) if value == value.to_integral_value() else value)


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


def _refuse_duplicate(tournament) -> None:
    if tournament.is_duplicate:
        raise TournamentError("duplicate_movement")


def _check_hand_of(table: RoundTable, hand: Hand) -> None:
    if hand.sheet_id != table.sheet_id or table.sheet_id is None:
        raise TournamentError("unknown_hand")


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


def _require(actor, of) -> None:
    """The organiser's verbs: a manager of the club of ``of`` (a club, a tournament, an
    entry, a round or a table) or ``forbidden``; a table's link acts without a user
    (``actor=None``: its view checked the token), and nothing is read for it."""
    if actor is None:
        return
    if isinstance(of, RoundTable):
        club_id = of.round.tournament.club_id
    elif isinstance(of, (Entry, Round)):
        club_id = of.tournament.club_id
    elif isinstance(of, Tournament):
        club_id = of.club_id
    else:
        club_id = of.pk
    require(actor, club_id, "manage", TournamentError)


def _actor(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


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


def _table_audit(table: RoundTable, by, action, totals=None) -> None:
    """The audit entry of the organiser's action on a table (its tournament's)."""
    after = {"table": table_label(table.round.number, table.number)}
    if totals is not None:
        after["totals"] = totals
    audit.record(table.round.tournament.club_id, by, action, table.round.tournament, after=after)


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


# ---------------------------------------------------------------- closing the tournament


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


def close_tournament(tournament: Tournament, *, actor=None) -> Tournament:
    """Close the tournament once every round is closed and every sheet confirmed: the
    final ranking is frozen (``final_ranking``) and nothing changes any more."""
    _require(actor, tournament)
    from tournaments import published, queries  # noqa: PLC0415 (queries read; services write)

    with transaction.atomic():
        tournament = _lock(tournament)
        _refuse_closed(tournament)
        rounds = _rounds(tournament)
        if any(r.state != Round.State.CLOSED for r in rounds):
            raise TournamentError("rounds_open")
        pending = list(
            RoundTable.objects.filter(round__tournament=tournament)
            .exclude(state=RoundTable.State.CONFIRMED)
            .values_list("round__number", "number")
        )
        if pending:
            raise TournamentError(
                "tables_unconfirmed", tables=", ".join(table_label(r, t) for r, t in pending)
            )
        tournament.state = Tournament.State.CLOSED
        tournament.closed_at = timezone.now()
        players = published.ranking(tournament)  # the ranking its kind publishes
        if tournament.is_duplicate:
            # the duplicate's pages read its frozen ranking: players, séries, teams
            tournament.final_ranking = _duplicate_frozen(tournament)
        else:
            tournament.final_ranking = {
                "players": queries.json_ranking(players),
                "teams": queries.json_ranking(published.team_ranking(tournament, players)),
            }
        tournament.save(update_fields=["state", "closed_at", "final_ranking"])
        audit.record(tournament.club_id, actor, audit.Action.TOURNAMENT_CLOSED, tournament)
        followups.tournament_closed(tournament, players)  # a league's results stored
        transaction.on_commit(
            lambda: signals.tournament_closed.send(
                Tournament, tournament=tournament, ranking=players
            )
        )
    return tournament


def _duplicate_frozen(tournament) -> dict:
    """A duplicate event's ranking frozen as it closes, for its own pages: players,
    séries and teams, scores as the export gives them (the leagues count
    ``published.ranking``)."""
    from tournaments.duplicate import results as duplicate_results  # noqa: PLC0415 (read at the closing only)

    loaded = duplicate_results.load(tournament)
    rows = duplicate_results.barometer(loaded)

    def frozen(row):
        return {
            "rank": row["rank"],
            "number": row["player"],
            "name": row["entry"].name if row["entry"] else "",
            "score": json_score(row["score"]),
            "deals": row["deals"],
        }

    return {
        "players": [frozen(row) for row in rows],
        "series": {
            name: [frozen(row) for row in ranked]
            for name, ranked in duplicate_results.by_series(loaded, rows).items()
        },
        "teams": [
            {"rank": t["rank"], "team": t["team"], "score": json_score(t["score"])}
            for t in duplicate_results.teams(loaded)
        ],
    }


# ---------------------------------------------------------------- one phone per table


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
