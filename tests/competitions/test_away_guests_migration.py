"""What ``0004_away_players_as_guests`` does to team matches started before the away
players entered the home club as guests' records: the same as starting them now."""

from importlib import import_module

import pytest
from django.apps import apps

from clubhouse.players import club_players
from clubs.models import AuditEntry, Person, Player
from competitions import services
from leagues.models import LeagueClub
from tournaments.models import Entry

from .conftest import line_ups

pytestmark = pytest.mark.django_db

migration = import_module("competitions.migrations.0004_away_players_as_guests")


@pytest.fixture
def started(championship, boss):
    """The first match (home: public club A, away: members-only club B), started; the
    first away player is a person who also plays for club A."""
    competition, _division, _teams = championship(deals=2)
    match = competition.matches.order_by("day", "slot").first()
    assert match.home.club.is_public and not match.away.club.is_public
    line_ups(match, actor=boss)
    first = match.line_up.filter(team=match.away).order_by("order").first().player
    both = Person.objects.create(name=first.name, licence="L-BOTH")
    Player.objects.filter(pk=first.pk).update(person=both)
    Player.objects.create(club=match.home.club, name=f"{first.name} at A", person=both)
    services.start_match(match, actor=boss)
    return match


def away(match):
    """(away line-up player, their entry in the home club's event), in line-up order."""
    event = match.tables.first().round_table.round.tournament
    players = [s.player for s in match.line_up.filter(team=match.away).order_by("order")]
    entries = Entry.objects.filter(tournament=event, is_guest=True).order_by("number")
    return list(zip(players, entries.select_related("player")))


def as_before(match):
    """The home club's records as matches started before made them: players of the home
    club named "Name (Their club)", the entries and the audit trail by their names."""
    audit = AuditEntry.objects.get(action="entries_registered")
    for player, entry in away(match):
        if entry.player.name.endswith(" at A"):
            continue  # the person's own record in club A, entered as such
        was = f"{entry.number}. {entry.name}"
        audit.after["entries"] = [
            f"{entry.number}. {player.name}" if line == was else line
            for line in audit.after["entries"]
        ]
        Player.objects.filter(pk=entry.player_id).update(
            is_guest=False, name=f"{player.name} ({entry.guest_club})"
        )
        Entry.objects.filter(pk=entry.pk).update(name=player.name)
    audit.save()


def state(match):
    rows = [(e.name, e.licence, e.player.name, e.player.is_guest) for _p, e in away(match)]
    return rows, AuditEntry.objects.get(action="entries_registered").after["entries"]


def test_the_away_players_become_hidden_guests_as_a_new_match_enters_them(started):
    now = state(started)
    home = started.home.club
    as_before(started)
    listed = {p.name for p in club_players(home)}
    assert sum(name.endswith("(Club B)") for name in listed) == 3  # the leak closed here
    migration.away_players_as_guests(apps, None)
    assert state(started) == now
    names = [entry.name for _p, entry in away(started)]
    assert names[1:] == [f"Player no. {p.pk}" for p, _e in away(started)[1:]]
    listed = {p.name for p in club_players(home)}
    assert not any(name.endswith("(Club B)") for name in listed)
    # the person who plays for A too keeps their own record there, a player of A's
    own = away(started)[0][1].player
    assert own.name.endswith(" at A") and not own.is_guest
    migration.away_players_as_guests(apps, None)  # run twice: nothing more changes
    assert state(started) == now


def test_a_club_that_names_its_players_to_the_league_keeps_their_names(started):
    LeagueClub.objects.filter(club=started.away.club).update(names_players=True)
    as_before(started)
    migration.away_players_as_guests(apps, None)
    rows = [(p, e) for p, e in away(started)][1:]
    assert [e.name for _p, e in rows] == [p.name for p, _e in rows]
    assert all(e.player.is_guest for _p, e in rows)
    assert {e.player.name for _p, e in rows} == {f"{p.name} (Club B)" for p, _e in rows}
