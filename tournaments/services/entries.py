"""Who plays: members and guests entered (one by one, pasted, as a team), a guest linked
to the person holding their licence, a withdrawal and what it changes in the rounds
already drawn."""

import re

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Person, Player
from clubs.visibility import named_to_everyone
from tournaments import draw, guests, tokens
from tournaments.duplicate import movement
from tournaments.models import (
    Entry,
    Round,
    RoundTable,
    Team,
    Tournament,
)
from tournaments.services.common import TournamentError, _first_open, _lock, _require, _rounds
from tournaments.services.rounds import history


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
