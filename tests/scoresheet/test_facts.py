"""The statistics' facts on the SheetTotals (``scoresheet.facts``): the record path's
upsert, the rewrite after corrections, the import and the SQL rebuild all count them
alike, and the runs of contracts made follow the takes in hand order."""

import json
import random

import pytest
from django.db.models import Max

from scoresheet import facts, importing, services
from scoresheet.demo import EXTRAS, random_hand
from scoresheet.models import ScoreRow, SheetFacts, SheetTotal
from scoresheet.services import LedgerError
from scoresheet.totals import rebuild_season_totals
from tests.data import NAMES


def _sheet_facts(season):
    """Every SheetTotal's counters and facts, and every SheetFacts row, of the season."""
    return sorted(
        SheetTotal.objects.filter(season=season).values_list("sheet_id", "player_id", *facts.NAMES)
    ), sorted(
        SheetFacts.objects.filter(season=season).values_list(
            "sheet_id", "date", "seats", *facts.SHEET_NAMES
        )
    )


def _play(sheet, rng, n_hands):
    """Random hands (a rare event forced in some) recorded through the services."""
    names = [seat.player.name for seat in sheet.seats.select_related("player")]
    for i in range(n_hands):
        extras = (rng.choice(EXTRAS),) if rng.random() < 0.5 else ()
        data = random_hand(rng, names, sheet.rules, names[i % len(names)], extras=extras)
        try:
            services.record_hand(sheet, data)
        except LedgerError:  # an extra these rules do not have
            services.record_hand(sheet, random_hand(rng, names, sheet.rules, names[i % len(names)]))
    return names


def _runs_from_the_ledger(sheet):
    """Each player's runs of contracts made on the sheet, scanned from their takes."""
    found = {}
    takes = (
        ScoreRow.objects.filter(sheet=sheet, role="taker")
        .order_by("number")
        .values_list("player_id", "made")
    )
    for player_id, made in takes:
        first, last, best, unbroken = found.get(player_id, (0, 0, 0, True))
        if made is True:
            first += unbroken
            last += 1
            best = max(best, last)
        else:
            last, unbroken = 0, False
        found[player_id] = (first, last, best, unbroken)
    return {player_id: runs[:3] for player_id, runs in found.items()}


def test_the_row_defaults_are_the_models():
    for name, default in facts.ROW_DEFAULTS.items():
        field = ScoreRow._meta.get_field(name)
        assert field.get_default() == default, name


@pytest.mark.parametrize(
    "rules, seats, seed",
    [
        ("fft", 4, 1),
        ("fft", 5, 2),
        ("fft", 6, 3),
        ("fft", 3, 4),
        ("mouches", 4, 5),
        ("contre5", 5, 6),
        ("savoyard", 4, 7),
        ("savoyard", 5, 8),
    ],
)
def test_every_write_path_counts_the_facts_as_a_rebuild_does(
    make_sheet, season, rules, seats, seed
):
    """Posts add a hand's facts (the upsert), corrections, deletions and restores
    rewrite the sheet's (Python), the rebuild counts them in SQL: all equal."""
    rng = random.Random(seed)
    sheet = make_sheet(seats, rules=rules)
    _play(sheet, rng, 30)
    kept = _sheet_facts(season)
    assert kept[0] and kept[1]
    rebuild_season_totals(season)
    assert _sheet_facts(season) == kept

    names = [seat.player.name for seat in sheet.seats.select_related("player")]
    hands = list(sheet.hands.order_by("number"))
    for hand in rng.sample(hands, 4):
        data = random_hand(rng, names, sheet.rules, names[hand.number % len(names)])
        services.correct_hand(hand, data)
    deleted = rng.choice(hands)
    services.delete_hand(deleted)
    services.delete_hand(rng.choice([h for h in hands if h.pk != deleted.pk]))
    services.restore_hand(deleted)
    kept = _sheet_facts(season)
    rebuild_season_totals(season)
    assert _sheet_facts(season) == kept

    runs = _runs_from_the_ledger(sheet)
    for total in SheetTotal.objects.filter(sheet=sheet):
        expected = runs.get(total.player_id, (0, 0, 0))
        assert (total.run_first, total.run_last, total.run_best) == expected
    assert any(total.run_best for total in SheetTotal.objects.filter(sheet=sheet))


def test_an_imported_sheet_counts_the_facts_as_a_rebuild_does(club, season, players):
    rng = random.Random(9)
    names = list(NAMES[:5])
    hands = [random_hand(rng, names, "fft", names[i % 5]) for i in range(40)]
    line = {"date": "2026-03-14", "players": names, "hands": hands}
    [result] = importing.import_sheets(club, [json.dumps(line, default=float)], season=season)
    assert result.ok, result.message
    kept = _sheet_facts(season)
    assert (len(kept[0]), len(kept[1])) == (5, 1)
    rebuild_season_totals(season)
    assert _sheet_facts(season) == kept


def test_runs_follow_the_takes_in_hand_order(make_sheet, season, players):
    """Anna takes eight times: made, made, failed, made, made, made, failed, made."""
    sheet = make_sheet(4)
    anna = players[0].name
    for points in (60, 55, 30, 70, 52, 58, 20, 61):
        services.record_hand(
            sheet, {"taker": anna, "contract": "garde", "bouts": 1, "points": points}
        )
    total = SheetTotal.objects.get(sheet=sheet, player=players[0])
    assert (total.taken, total.made) == (8, 6)
    assert (total.run_first, total.run_last, total.run_best) == (2, 1, 3)
    assert (total.contract_garde_taken, total.contract_garde_made) == (8, 6)
    anna_rows = ScoreRow.objects.filter(sheet=sheet, player=players[0])
    assert total.best == anna_rows.aggregate(best=Max("score"))["best"]
    rebuild_season_totals(season)  # its rows anew
    total = SheetTotal.objects.get(sheet=sheet, player=players[0])
    assert (total.run_first, total.run_last, total.run_best) == (2, 1, 3)
