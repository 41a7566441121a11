"""The player pages (list, rename, merge) and the club history, as managers use them."""

import datetime

from django.urls import reverse

from clubhouse.players import merge_players
from clubs.models import Player
from scoresheet import services
from scoresheet.models import ScoreRow
from tests.data import SEED_HANDS


def url(name, *args):
    return reverse(f"clubhouse:{name}", args=args)


# ---------------------------------------------------------------- players


def test_the_player_list_reads_the_ledger_in_a_fixed_number_of_queries(
    client, club, seeded, make_sheet, django_assert_num_queries
):
    page = client.get(url("players", "rive"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-player="Anna"' in html and 'data-player="Fred"' in html
    assert "Manage" not in html  # readers see no actions
    more = make_sheet(4, date=datetime.date(2026, 4, 1))
    services.record_hand(more, SEED_HANDS[0])
    Player.objects.bulk_create(Player(club=club, name=f"Extra {i}") for i in range(20))
    # the club, the players, the summary
    with django_assert_num_queries(3):
        assert client.get(url("players", "rive")).status_code == 200


def test_a_manager_renames_makes_inactive_and_merges(client, manager, seeded, players, club):
    client.force_login(manager)
    anna, fred = players[0], players[5]
    edit = url("player_edit", "rive", anna.pk)
    assert client.get(edit).status_code == 200
    response = client.post(edit, {"action": "rename", "name": "Bert"})
    assert "merge them instead" in response.content.decode()
    client.post(edit, {"action": "rename", "name": "Anne"})
    anna.refresh_from_db()
    assert anna.name == "Anne"
    client.post(url("player_edit", "rive", fred.pk), {"action": "deactivate"})
    fred.refresh_from_db()
    assert not fred.is_active
    html = client.get(url("players", "rive")).content.decode()
    assert "Inactive players" in html
    # the new-sheet form no longer offers Fred
    assert (
        f'value="{fred.pk}"'
        not in client.get(reverse("scoresheet:sheet_create", args=["rive"])).content.decode()
    )

    # Anne merged into Fred (who never sat with her)
    client.post(url("player_merge", "rive", anna.pk), {"into": fred.pk})
    anna.refresh_from_db()
    assert anna.merged_into == fred
    assert not ScoreRow.objects.filter(player=anna).exists()
    html = client.get(url("players", "rive")).content.decode()
    assert "Anne, merged into Fred" in html
    client.post(url("player_unmerge", "rive", anna.pk))
    anna.refresh_from_db()
    assert anna.merged_into is None
    assert ScoreRow.objects.filter(player=anna).count() == len(SEED_HANDS)


def test_a_refused_merge_says_why(client, manager, seeded, players):
    client.force_login(manager)
    response = client.post(
        url("player_merge", "rive", players[0].pk), {"into": players[1].pk}, follow=True
    )
    assert "sat at the same table" in response.content.decode()
    response = client.post(url("player_merge", "rive", players[0].pk), {"into": "x"}, follow=True)
    assert "Choose the player to merge into" in response.content.decode()


# ---------------------------------------------------------------- sheets


def test_the_history_page_shows_a_merge_without_its_moved_ids(client, manager, seeded, club):

    alias = Player.objects.create(club=club, name="Annie")
    merge_players(alias, Player.objects.get(name="Anna"), actor=manager)
    client.force_login(manager)
    html = client.get(url("history", "rive")).content.decode()
    assert "players merged" in html.lower()
    assert "Anna → Annie" in html
    assert "_seats" not in html and "_hands" not in html
