"""``rate_hands`` rates sheets in the interchange format as the club's pages do."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from ratings import queries, scopes
from ratings.compute import State
from ratings.management.commands.rate_hands import line_of
from scoresheet import importing
from tests.data import SEED_HANDS
from tests.ratings.test_keeping import FIVE

LINES = [
    {"date": "2026-03-14", "players": ["Anna", "Bert", "Carl", "Dora"], "hands": SEED_HANDS},
    {"date": "2026-03-01", "players": ["Anna", "Bert", "Carl", "Dora", "Emil"], "hands": FIVE},
    {"date": "2026-03-20", "players": ["Dora", "Carl", "Bert", "Anna"], "hands": SEED_HANDS[:3]},
]


def test_rate_hands_prints_the_ratings_the_club_keeps(tmp_path, club, season):
    text = "\n".join(json.dumps(line) for line in LINES) + "\n"
    path = tmp_path / "sheets.jsonl"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    call_command("rate_hands", str(path), stdout=out)
    printed = out.getvalue().splitlines()
    results = list(importing.import_sheets(club, text.splitlines(), season=season))
    assert all(r.ok for r in results)
    rows = queries.scope_rows(scopes.club(club.pk))
    expected = [line_of(r) for r in rows]
    assert printed == expected and len(printed) == 5
    # Emil played 5 hands: under ``MIN_HANDS``, last and unranked
    assert printed[-1].startswith("   -  Emil ") and rows[-1].hands < queries.MIN_HANDS
    assert f"rating {rows[0].ordinal:7.1f}" in printed[0]


def test_a_refused_line_is_said_and_fails(tmp_path, db):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"players": ["A", "B", "C"], "hands": [{"taker": "Z"}]}\n', encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("rate_hands", str(path), stderr=err, stdout=io.StringIO())
    assert "line 1" in err.getvalue()


def test_read_sheet_refuses_what_the_import_refuses(db):
    """``scoresheet.importing.read_sheet``, the import's reading with no database: the
    import's codes for bad rules, a player seated twice, a bad hand and bad JSON."""
    from scoresheet.services import LedgerError

    def code(line, rules=None):
        with pytest.raises(LedgerError) as caught:
            importing.read_sheet(json.dumps(line), rules=rules or {"preset": "fft"})
        return caught.value.code

    four = ["Anna", "Bert", "Carl", "Dora"]
    assert code({"players": four, "hands": [], "rules": {"preset": "nope"}}) == "rules_invalid"
    assert code({"players": ["Anna", "Anna", "Carl", "Dora"], "hands": []}) == "duplicate_player"
    hand = {"taker": "Zoe", "contract": "garde", "bouts": 2, "points": 50}
    assert code({"players": four, "hands": [hand]}) == "player_not_at_table"
    assert code({"players": four, "hands": [hand | {"taker": "Anna", "points": 99}]}) == (
        "points_out_of_range"
    )
    with pytest.raises(LedgerError) as caught:
        importing.read_sheet("{not json", rules={"preset": "fft"})
    assert caught.value.code == "json_invalid"
    read = importing.read_sheet(json.dumps(LINES[0]), rules={"preset": "fft"})
    assert (read.date.isoformat(), read.players, read.rules) == (
        "2026-03-14",
        four,
        {"preset": "fft"},
    )
    assert len(read.results) == len(SEED_HANDS)


def test_the_expected_result_of_a_table_never_favours_a_newcomer(
    club, season, players, monkeypatch
):
    """Each rated player's chance is the model's chance of finishing first over the
    round's deals (``compute.predict_first``, a newcomer counted as an average regular);
    a player under ``MIN_HANDS`` hands has none (None: shown as not rated yet)."""
    from ratings.compute import predict_first, predict_win

    monkeypatch.setattr(queries, "MIN_HANDS", 5)
    text = json.dumps(LINES[0])
    assert all(r.ok for r in importing.import_sheets(club, [text], season=season))
    key = scopes.club(club.pk)
    ids = [p.pk for p in players[:5]]  # Emil is not rated yet
    chances = queries.expected_table(key, ids, 10)
    rated = queries.ratings_by_player(key, ids)
    assert len(rated) == 4 and ids[4] not in rated
    direct = predict_first([rated.get(pk) or queries.NEWCOMER for pk in ids], 10)
    assert [chances[pk] for pk in ids[:4]] == direct[:4] and chances[ids[4]] is None
    # a guest at the model's start is no favourite, even against a table rated low
    for pk in ids[:4]:
        rated[pk].mu = 10.0
    guest = predict_win([[rated[ids[0]]], [State.new()]])
    assert guest[1] > 0.5  # what the plain prediction would have said
    monkeypatch.setattr(queries, "ratings_by_player", lambda key, ids: rated)
    chances = queries.expected_table(key, ids, 2)
    assert chances[ids[4]] is None and all(chances[pk] is not None for pk in ids[:4])
