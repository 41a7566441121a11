"""The statistics from the sheets' totals equal the statistics from the ledger.

``stats.queries`` sums the facts the write side keeps on each ``SheetTotal``;
``tests.stats.ledger_reference`` is the earlier code that aggregated the ledger's
rows directly. Over random evenings at every table size, with corrections and
deletions, every figure of a player's page (in a season and over all seasons) and
of a season's page is the same.
"""

import datetime
import random

import pytest

from clubs.models import Season
from scoresheet import services
from scoresheet.demo import EXTRAS, random_hand
from scoresheet.models import ScoreRow, SheetFacts, SheetTotal
from scoresheet.services import LedgerError
from stats import queries as stats
from tests.stats import ledger_reference as reference


def _evenings(season, players, rng, rules, n_sheets):
    for i in range(n_sheets):
        seats = rng.choice((3, 4, 4, 5, 5, 6))
        seated = rng.sample(players, seats)
        day = season.start_date + datetime.timedelta(days=rng.randrange(20))
        sheet = services.create_sheet(
            season=season, players=seated, date=day, table=str(i), rules=rules
        )
        names = [p.name for p in seated]
        for n in range(rng.randint(3, 14)):
            extras = (rng.choice(EXTRAS),) if rng.random() < 0.4 else ()
            try:
                services.record_hand(
                    sheet, random_hand(rng, names, rules, names[n % seats], extras=extras)
                )
            except LedgerError:  # an extra these rules do not have
                services.record_hand(sheet, random_hand(rng, names, rules, names[n % seats]))
        hands = list(sheet.hands.all())
        if rng.random() < 0.5:
            hand = rng.choice(hands)
            services.correct_hand(hand, random_hand(rng, names, rules, names[hand.number % seats]))
        if rng.random() < 0.3:
            services.delete_hand(rng.choice(hands))


def _player_figures(rows, totals):
    sheets = stats.player_sheets(totals)
    ends = stats.SheetEnds.of(sheets)
    count = sheets[-1]["rows"] if sheets else 0
    summary, contracts = stats.player_summary_and_contracts(totals)
    assert summary == stats.player_summary(totals)
    assert contracts == stats.contracts(totals)
    return {
        "summary": summary,
        "contracts": contracts,
        "evenings": stats.evenings(sheets),
        "best": stats.best_hands(rows, sheets),
        "worst": stats.worst_hands(rows, sheets),
        "streak": stats.taker_streak(rows, sheets),
        "hands": stats.hands_from(rows, ends, 0, count),
        "page": stats.hands_from(rows, ends, count // 3, 7),
    }


def _reference_figures(rows):
    hands = reference.running_by_hand(rows)
    for hand in hands:
        del hand["role_label"]
    return {
        "summary": reference.player_summary(rows),
        "contracts": reference.contracts(rows),
        "evenings": reference.evenings(rows),
        "best": reference.best_hands(rows),
        "worst": reference.worst_hands(rows),
        "streak": reference.taker_streak(rows),
        "hands": hands,
        "page": hands[len(hands) // 3 : len(hands) // 3 + 7],
    }


@pytest.mark.parametrize("rules, seed", [("fft", 1), ("fft", 2), ("mouches", 3), ("contre5", 4)])
def test_every_figure_equals_the_ledgers(club, season, players, rules, seed):
    rng = random.Random(seed)
    later = Season.objects.create(club=club, name="2027", start_date=datetime.date(2027, 1, 1))
    _evenings(season, players, rng, rules, 9)
    _evenings(later, players, rng, rules, 4)
    compared = 0
    for player in players:
        for scope in (season, None):
            rows = ScoreRow.objects.of_player(player, scope)
            totals = SheetTotal.objects.of_player(player, scope)
            found, expected = _player_figures(rows, totals), _reference_figures(rows)
            for key, value in expected.items():
                assert found[key] == value, (player.name, scope, key)
            compared += bool(expected["hands"])
    assert compared >= 8
    for one in (season, later):
        rows, totals = ScoreRow.objects.of_season(one), SheetTotal.objects.of_season(one)
        sheets = SheetFacts.objects.filter(season=one)
        summary = stats.season_summary(sheets, one)
        assert summary == reference.season_summary(rows, one)
        expected = reference.contracts(rows, hands=summary["hands"])
        assert stats.season_contracts(sheets, summary["hands"]) == expected
        # every take is on its sheet's facts and on its taker's totals
        assert stats.contracts(totals, hands=summary["hands"]) == expected
        assert stats.table_sizes(sheets) == reference.table_sizes(rows)
        evenings = stats.add_players(stats.season_evenings(sheets), totals)
        assert evenings == reference.season_evenings(rows, one)
