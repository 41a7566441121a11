"""Who wins a tournament: the ranking against totals and ranks computed by hand.

Four players make one table of four, so every round seats them all whatever the
draw, and each round is one deal whose score is worked out below (FFT rules: a
contract is worth 25 plus the points it is made or failed by, times the contract's
multiplier, paid by each defender to the taker; a taker alone against three takes
three times that).
"""

from decimal import Decimal

from scoresheet import services as sheets
from tournaments import queries, services

# Round 1: entry 1 takes a garde with 2 bouts and 56 points (41 needed): made by 15,
#   (25 + 15) x 2 = 80 from each defender: 1 wins 240, 2, 3 and 4 lose 80 each.
# Round 2: entry 3 takes a garde with no bout and 50 points (56 needed): failed by 6,
#   (25 + 6) x 2 = 62 to each defender: 3 loses 186, 1, 2 and 4 win 62 each.
ROUND_DEALS = {1: (1, 2, 56), 2: (3, 0, 50)}  # round: (taker's entry number, bouts, points)
EXPECTED = [  # (entry number, per round, total, rank): highest first, ties by number
    (1, [240, 62], 302, 1),
    (2, [-80, 62], -18, 2),
    (4, [-80, 62], -18, 2),
    (3, [-80, -186], -266, 4),
]


def play_known_deals(t):
    names = {e.number: e.name for e in t.entries.all()}
    for number, (taker, bouts, points) in ROUND_DEALS.items():
        rnd = t.round_set.get(number=number)
        services.draw_round(rnd)
        services.start_round(rnd)
        (table,) = rnd.tables.select_related("sheet")
        seated = [s.player.name for s in table.sheet.seats.select_related("player")]
        data = {"dealer": seated[0], "taker": names[taker], "contract": "garde"}
        sheets.record_hand(table.sheet, {**data, "bouts": bouts, "points": points})
        services.close_round(rnd)


def test_the_highest_total_wins_and_equal_totals_share_a_rank(make_tournament):
    t = make_tournament(players=4, rounds=2, deals=1)
    play_known_deals(t)
    rows = queries.ranking(t)
    found = [(r["number"], r["rounds"], r["total"], r["rank"]) for r in rows]
    assert found == [
        (n, [Decimal(s) for s in per], Decimal(total), rank) for n, per, total, rank in EXPECTED
    ]
    assert rows[0]["name"] == t.entries.get(number=1).name  # the winner


def test_the_team_with_the_highest_sum_wins_and_equal_sums_share_a_rank(make_tournament, members):
    t = make_tournament(players=0, rounds=2, team_size=2)
    for i in range(4):  # team i + 1 holds entries 2i + 1 and 2i + 2
        pair = [("member", members[2 * i]), ("member", members[2 * i + 1])]
        services.register_team(t, f"Team {i + 1}", pair)
    assert dict(t.entries.values_list("number", "team__number")) == {
        1: 1,
        2: 1,
        3: 2,
        4: 2,
        5: 3,
        6: 3,
        7: 4,
        8: 4,
    }
    totals = {1: 100, 2: 20, 3: -40, 4: -40, 5: 150, 6: -30, 7: -200, 8: 40}
    rows = [{"number": n, "total": Decimal(total)} for n, total in totals.items()]
    teams = queries.team_ranking(t, rows)
    # team 1: 100 + 20 = 120; team 2: -80; team 3: 150 - 30 = 120; team 4: -160
    found = [(team["number"], team["total"], team["rank"]) for team in teams]
    assert found == [(1, 120, 1), (3, 120, 1), (2, -80, 3), (4, -160, 4)]
    assert [m["number"] for m in teams[1]["members"]] == [5, 6]
