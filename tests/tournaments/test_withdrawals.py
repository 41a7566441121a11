"""Withdrawals keep the later rounds' draws: ``services.withdraw_player`` re-balances
only the tables the withdrawal touches and marks them for a new card; ``redraw=True``
forgets those draws; the confirmation page says which tables will change."""

import pytest
from django.urls import reverse

from tests.tournaments.helpers import play_round
from tournaments import draw, services
from tournaments.models import Round
from tournaments.services import TournamentError


def tables_of(rnd):
    return [t.seats for t in rnd.tables.order_by("number")]


def url(t, number):
    return reverse("tournaments:withdraw", args=[t.club.slug, t.pk, number])


def round_url(name, t, number):
    return reverse(f"tournaments:{name}", args=[t.club.slug, t.pk, number])


@pytest.fixture
def drawn(make_tournament):
    """17 players, 3 rounds drawn in advance, round 1 played and closed."""
    t = make_tournament(players=17, rounds=3)
    services.draw_schedule(t)
    first = t.round_set.get(number=1)
    services.start_round(first)
    play_round(t, first)
    services.close_round(first)
    return t


def test_a_withdrawal_keeps_the_drawn_rounds_changing_only_its_tables(drawn):
    t = drawn
    before = {n: tables_of(t.round_set.get(number=n)) for n in (2, 3)}
    # Number 5 sits at a table of 4 in round 2 (else another player of a table of 4).
    leaving = next(p for table in before[2] if len(table) == 4 for p in table)
    effect = services.withdrawal_effect(t.entries.get(number=leaving))
    assert effect["after"] == 1
    assert [r["number"] for r in effect["drawn"]] == [2, 3]

    kept = services.withdraw_player(t.entries.get(number=leaving))
    assert kept.withdrawn_after_round == 1
    for n in (2, 3):
        rnd = t.round_set.get(number=n)
        assert rnd.state == Round.State.DRAWN  # the draw stays
        after = tables_of(rnd)
        seated = sorted(p for table in after for p in table)
        assert seated == [p for p in range(1, 18) if p != leaving]
        assert sorted(map(len, after)) == [4, 4, 4, 4]  # 16 players: tables of 4
        changed = [t.number for t in rnd.tables.order_by("number") if t.changed]
        same = [i + 1 for i, (a, b) in enumerate(zip(before[n], after)) if a == b]
        assert changed == [i for i in range(1, 5) if i not in same]
        # The table he left and the table of 5 that gave it a player: two tables.
        assert len(changed) <= 2
        # The confirmation page said so.
        assert next(r for r in effect["drawn"] if r["number"] == n)["tables"] == changed
    with pytest.raises(TournamentError) as refused:
        services.withdraw_player(t.entries.get(number=leaving))
    assert refused.value.code == "already_withdrawn"


def test_the_organiser_may_have_them_drawn_again(drawn):
    services.withdraw_player(drawn.entries.get(number=3), redraw=True)
    states = list(drawn.round_set.order_by("number").values_list("state", flat=True))
    assert states == ["closed", "planned", "planned"]


def test_late_rounds_a_table_broken_up(make_tournament):
    # 20 players (5 tables of 4) down to 19 (tables 4, 5, 5, 5): the table left with 3
    # is broken up and the last table takes its number.
    t = make_tournament(players=20, rounds=2)
    services.draw_schedule(t)
    second = t.round_set.get(number=2)
    before = tables_of(second)
    leaving = before[1][0]
    services.withdraw_player(t.entries.get(number=leaving))
    after = tables_of(second)
    assert sorted(map(len, after)) == [4, 5, 5, 5]
    assert after[1] == before[4] or sorted(after[1])[:4] != sorted(before[1][1:])
    assert sorted(p for table in after for p in table) == sorted(
        p for p in range(1, 21) if p != leaving
    )
    assert second.tables.filter(changed=True).count() == 4


def test_rebalance_is_pure_and_minimal():
    history = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12, 13]]]
    current = [[1, 5, 9, 12], [2, 6, 10, 13], [3, 4, 7, 8, 11]]
    # 3 leaves: his table of 5 becomes a table of 4, nothing else moves.
    tables, changed = draw.rebalance(current, [p for p in range(1, 14) if p != 3], history)
    assert tables == [[1, 5, 9, 12], [2, 6, 10, 13], [4, 7, 8, 11]] and changed == [2]
    # 1 leaves: the table of 5 gives the player who met table 1's others least.
    tables, changed = draw.rebalance(current, list(range(2, 14)), history)
    assert changed == [0, 2]
    assert tables[1] == current[1] and len(tables[0]) == 4 and len(tables[2]) == 4
    moved = tables[0][-1]
    assert moved in current[2] and moved not in (7, 8)  # 7, 8 met 5; 4 or 11 did not
    # A late arrival joins a table, and nothing else moves.
    tables, changed = draw.rebalance(current, range(1, 15), history)
    assert changed == [0] and tables[0] == [1, 5, 9, 12, 14]


def test_the_confirmation_page_then_the_withdrawal(client, drawn, manager):
    client.force_login(manager)
    page = client.get(url(drawn, 7)).content.decode()
    assert "Withdraw 7. Member 07?" in page
    assert "Their scores up to round 1 stay in the ranking" in page
    assert "Rounds already drawn keep their draw" in page
    assert 'data-round="2"' in page and 'data-round="3"' in page
    assert drawn.entries.get(number=7).withdrawn_after_round is None  # a GET changes nothing
    response = client.post(url(drawn, 7), {"later": "keep"})
    assert response.status_code == 302
    assert drawn.entries.get(number=7).withdrawn_after_round == 1
    second = drawn.round_set.get(number=2)
    assert second.state == Round.State.DRAWN
    round_page = client.get(round_url("round", drawn, 2))
    text = round_page.content.decode()
    changed = second.tables.filter(changed=True).count()
    assert changed and text.count("data-changed") == changed
    cards = client.get(round_url("table_cards", drawn, 2) + "?changed=1").content.decode()
    assert cards.count('class="print-card table-card"') == changed
    # Again: refused with a message, not a 500.
    assert client.get(url(drawn, 7)).status_code == 302
    assert client.post(url(drawn, 7)).status_code == 302
