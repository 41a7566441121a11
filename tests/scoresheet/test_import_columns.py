"""The bulk import (``importing._bulk_hands``: plain rows, ``COPY`` on PostgreSQL) writes
every column ``services.record_hand`` writes, hand by hand, for the same hands.

Each case imports one sheet of random hands (every rare event forced at least once)
and records the same hands one by one on a sheet of the same players and rules, then
compares the hands, every column of their score rows, their history entries and the
totals. Runs on SQLite and on PostgreSQL (``DATABASE_URL``).
"""

import json
import random

import pytest

from scoresheet import handmap, importing, services
from scoresheet.demo import EXTRAS, random_hand
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet, SheetTotal
from tarot.jsonformat import parse_rules
from tests.data import NAMES

#: (rules, seats): French Tarot at 3, 4, 5 (a partner called) and 6 (one sits out),
#: mouches (pools carried from hand to hand), misère and poignée options, the Savoyard
#: rules.
CASES = [
    ({"preset": "fft"}, 3),
    ({"preset": "fft", "misere": 10, "rounding": 10}, 4),
    ({"preset": "fft", "five_player_split": "equal"}, 5),
    ({"preset": "fft"}, 6),
    ({"preset": "mouches"}, 4),
    ({"preset": "mouches"}, 5),
    ({"preset": "savoyard"}, 4),
    ({"preset": "savoyard"}, 5),
]

#: A hand's columns the two paths give different values by nature.
HAND_OWN = {"id", "sheet", "entered_at", "updated_at"}
ROW_OWN = {"id", "hand", "sheet"}


def hands_for(rules, names, n=40, seed=15):
    rng = random.Random(seed)
    ruleset = parse_rules(rules)
    extras = [(e,) for e in EXTRAS] if ruleset.preset != "savoyard" else []
    return [
        random_hand(
            rng, names, ruleset, names[i % len(names)], extras=extras[i] if i < len(extras) else ()
        )
        for i in range(n)
    ]


def columns(model, own):
    return [f.attname for f in model._meta.concrete_fields if f.name not in own]


def written(sheet):
    """Everything the hand writes put on the ledger for ``sheet``, comparable across sheets."""
    hand_columns = columns(Hand, HAND_OWN)
    hands = list(Hand.objects.filter(sheet=sheet).order_by("number").values_list(*hand_columns))
    row_columns = columns(ScoreRow, ROW_OWN)
    rows = list(
        ScoreRow.objects.filter(sheet=sheet)
        .order_by("number", "position")
        .values_list(*row_columns)
    )
    revisions = list(
        HandRevision.objects.filter(hand__sheet=sheet)
        .order_by("hand__number", "id")
        .values_list("hand__number", "action", "user_id", "before", "after", "caused_by_id")
    )
    totals = sorted(
        SheetTotal.objects.filter(sheet=sheet).values_list(
            "player_id", "season_id", "date", "seats", "seated", "hands", "taken", "made", "score"
        )
    )
    sheet = Sheet.objects.get(pk=sheet.pk)
    return {
        "hands": [dict(zip(hand_columns, hand)) for hand in hands],
        "rows": [dict(zip(row_columns, row)) for row in rows],
        "revisions": revisions,
        "totals": totals,
        "counts": (sheet.hand_count, sheet.last_number),
    }


@pytest.mark.parametrize(("rules", "seats"), CASES)
def test_the_import_writes_every_column_record_hand_writes(
    club, season, players, make_sheet, scorer, rules, seats
):
    names = NAMES[:seats]
    hands = hands_for(rules, names)
    line = json.dumps(
        {"players": names, "hands": hands, "rules": rules, "date": "2026-03-14", "table": "1"},
        default=float,
    )
    [result] = importing.import_sheets(club, [line], season=season, actor=scorer)
    assert result.ok, (result.code, result.message, result.hand)
    assert result.hands == len(hands)

    by_hand = make_sheet(seats, rules=rules)
    for data in hands:
        services.record_hand(by_hand, data, actor=scorer)

    imported, recorded = written(result.sheet), written(by_hand)
    assert len(recorded["rows"]) == len(hands) * seats
    for part in ("hands", "rows", "revisions", "totals", "counts"):
        assert imported[part] == recorded[part], part
    # the random hands reached what the comparison is for
    rows = recorded["rows"]
    if parse_rules(rules).preset != "savoyard":
        assert {row["role"] for row in rows} >= {"taker", "defender"}
        assert any(row["poignee"] for row in rows) and any(row["chelem"] for row in rows)
    if parse_rules(rules).has_pools:
        assert any(row["pool"] for row in rows)


def test_a_sheet_without_hands_is_imported_empty(club, season, players, scorer):
    line = json.dumps({"players": NAMES[:4], "hands": [], "date": "2026-03-14"})
    [result] = importing.import_sheets(club, [line], season=season, actor=scorer)
    assert result.ok and result.hands == 0
    assert not Hand.objects.filter(sheet=result.sheet).exists()
    assert not SheetTotal.objects.filter(sheet=result.sheet).exists()


def test_an_imported_sheet_takes_the_next_hand_by_the_services(club, season, players, scorer):
    line = json.dumps({"players": NAMES[:4], "hands": hands_for("fft", NAMES[:4], n=3)})
    [result] = importing.import_sheets(club, [line], season=season, actor=scorer)
    hand = services.record_hand(result.sheet, hands_for("fft", NAMES[:4], n=1)[0], actor=scorer)
    assert hand.number == 4
    assert Sheet.objects.get(pk=result.sheet.pk).hand_count == 4


def test_a_row_the_database_refuses_leaves_its_sheet_out_and_the_next_line_goes_in(
    club, season, players, scorer, monkeypatch
):
    """A value the database refuses while the rows are copied (a CHECK constraint here)
    is the line's ``database_refused``; nothing of that sheet stays, the next line is
    imported on the same connection."""
    fields = handmap.hand_fields

    def refused(engine_hand, result, table, explanation=None):
        return {**fields(engine_hand, result, table, explanation), "bouts": -1}

    names = NAMES[:4]
    bad = json.dumps({"players": names, "hands": hands_for("fft", names, n=3)})
    good = json.dumps({"players": names, "hands": hands_for("fft", names, n=2)})
    before = (Sheet.objects.count(), Hand.objects.count(), SheetTotal.objects.count())
    with monkeypatch.context() as patch:
        patch.setattr(handmap, "hand_fields", refused)
        [result] = importing.import_sheets(club, [bad], season=season, actor=scorer)
    assert result.code == "database_refused" and result.message
    assert (Sheet.objects.count(), Hand.objects.count(), SheetTotal.objects.count()) == before
    [result] = importing.import_sheets(club, [good], season=season, actor=scorer)
    assert result.ok and result.hands == 2
    assert ScoreRow.objects.filter(sheet=result.sheet).count() == 8
