"""Renaming a player, making one inactive, and telling near-duplicate names apart
(``clubs.services``)."""

import pytest

from clubs.models import AuditEntry, Player
from clubs.services import (
    ClubError,
    edit_distance,
    rename_player,
    set_player_active,
    similar_players,
)


def test_rename_fixes_a_typo_and_is_audited(players):
    anna = rename_player(players[0], "  Anne  ", actor=None)
    anna.refresh_from_db()
    assert anna.name == "Anne" and anna.sort_key == "anne"
    entry = AuditEntry.objects.first()
    assert (entry.action, entry.before, entry.after) == (
        "player_renamed",
        {"name": "Anna"},
        {"name": "Anne"},
    )


@pytest.mark.parametrize(
    "name, code", [("bert", "player_exists"), ("BÉRT", "player_exists"), ("", "name_required")]
)
def test_rename_refusals(players, name, code):
    with pytest.raises(ClubError) as refused:
        rename_player(players[0], name, actor=None)
    assert refused.value.code == code
    players[0].refresh_from_db()
    assert players[0].name == "Anna"


def test_rename_to_another_case_of_its_own_name(players):
    assert rename_player(players[0], "ANNA", actor=None).name == "ANNA"


def test_only_a_manager_renames(players, scorer):
    with pytest.raises(ClubError) as refused:
        rename_player(players[0], "Anne", actor=scorer)
    assert refused.value.code == "forbidden"


def test_inactive_and_back(players):
    set_player_active(players[0], False, actor=None)
    players[0].refresh_from_db()
    assert not players[0].is_active
    set_player_active(players[0], True, actor=None)
    players[0].refresh_from_db()
    assert players[0].is_active
    assert [e.action for e in AuditEntry.objects.all()[:2]] == ["player_active"] * 2


def test_a_merged_player_stays_inactive(players):
    players[1].merged_into = players[0]
    players[1].is_active = False
    players[1].save()
    with pytest.raises(ClubError) as refused:
        set_player_active(players[1], True, actor=None)
    assert refused.value.code == "player_merged"


@pytest.mark.parametrize(
    "typed, existing, similar",
    [
        ("Jean Pierre", "Jean-Pierre", True),
        ("jeanpierre", "Jean-Pierre", True),
        ("Ana", "Anna", True),
        ("Helene", "Hélène", False),  # the same name: that player, not a near-duplicate
        ("Hélèna", "Hélène", True),
        ("Bob", "Rob", True),
        ("Bob", "Ron", False),
        ("Christophe", "Christine", False),
        ("Emmanuelle", "Emanuele", True),
    ],
)
def test_similar_players(club, typed, existing, similar):
    player = Player.objects.create(club=club, name=existing)
    assert (similar_players(typed, [player]) == [player]) is similar


def test_edit_distance_stops_at_the_limit():
    assert edit_distance("kitten", "sitting", 5) == 3
    assert edit_distance("kitten", "sitting", 2) == 3
    assert edit_distance("a", "abcdef", 2) == 3
