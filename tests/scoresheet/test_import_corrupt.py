"""``import_sheets`` on corrupt input: never a traceback, one line per refusal with its
line number and reason, the next lines imported, a summary, exit status 1.

The corpus is generated here: each bad line is followed by a good one.
"""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Player
from scoresheet.importing import _name_keys
from scoresheet.models import Hand, ScoreRow, Sheet
from scoresheet.services import SCORE_MAX_HALVES

pytestmark = pytest.mark.django_db

GOOD_HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def sheet(players=("Anna", "Bert", "Carl", "Dora"), hands=(GOOD_HAND,), **fields):
    return json.dumps(
        {"players": list(players), "hands": list(hands), "date": "2026-03-14", **fields},
        ensure_ascii=False,
    ).encode()


#: (what, the bad line as bytes, the code it is refused with)
CORRUPT = [
    (
        "amounts too big for the score column",
        sheet(
            rules={"preset": "fft", "poignee": [10**12, 10**12, 10**12]},
            hands=[dict(GOOD_HAND, poignees=[{"player": "Anna", "size": "single"}])],
        ),
        "amount_too_large",
    ),
    ("a NUL in a name", sheet(players=("Anna", "B\x00b", "Carl", "Dora")), "name_invalid"),
    ("a control character", sheet(players=("Anna", "Bert\x07", "Carl", "Dora")), "name_invalid"),
    ("an over-long name", sheet(players=("Anna", "x" * 81, "Carl", "Dora")), "name_too_long"),
    ("an empty name", sheet(players=("Anna", "", "Carl", "Dora")), "name_required"),
    ("a blank name", sheet(players=("Anna", "  ", "Carl", "Dora")), "name_required"),
    ("invalid UTF-8", b'{"players": ["Anna", "B\xe9rt"], "hands": []}', "invalid_utf8"),
    ("a raw NUL byte", b'{"players": ["Anna"]\x00, "hands": []}', "invalid_text"),
    ("a NUL in the table", sheet(table="1\x00"), "invalid_text"),
    ("an over-long table", sheet(table="t" * 41), "table_too_long"),
    ("a NUL in the season", sheet(season="S\x00"), "invalid_text"),
    ("not JSON", b"{not json", "json_invalid"),
    ("100,000 arrays deep", b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", ""),
    ("a hand the engine refuses", sheet(hands=[dict(GOOD_HAND, points=95)]), ""),
]


def run(tmp_path, lines, *files):
    path = tmp_path / "sheets.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("import_sheets", "--club", "rive", str(path), *files, stdout=out, stderr=err)
    assert failed.value.returncode == 1
    return out.getvalue(), err.getvalue()


def test_every_corrupt_line_is_one_error_and_the_import_goes_on(tmp_path, season, players):
    lines = []
    for _what, bad, _code in CORRUPT:
        lines += [bad, sheet(table=str(len(lines)))]
    out, err = run(tmp_path, lines)
    errors = err.strip().splitlines()
    assert "Traceback" not in out + err
    assert len(errors) == len(CORRUPT)
    for (what, _bad, code), line, error in zip(CORRUPT, range(1, 2 * len(CORRUPT), 2), errors):
        assert error.startswith(f"line {line}: refused"), (what, error)
        assert f": {code}: " in error or not code, (what, error)
    assert out.strip() == (
        f"imported {len(CORRUPT)} sheets ({len(CORRUPT)} hands), refused {len(CORRUPT)} lines"
    )
    assert Sheet.objects.count() == Hand.objects.count() == len(CORRUPT)
    # nothing of a refused line was kept: no player named "", " ", "x"*81, "B\x00b"
    assert set(Player.objects.values_list("name", flat=True)) == {p.name for p in players}


def test_amounts_are_checked_against_the_column(tmp_path, season, players):
    out, err = run(tmp_path, [CORRUPT[0][1]])
    assert "amount_too_large" in err
    assert str(SCORE_MAX_HALVES // 2) in err  # the limit in the reason
    assert not ScoreRow.objects.exists()


def test_a_missing_file_is_one_error_and_the_other_files_are_read(tmp_path, season, players):
    out, err = run(tmp_path, [sheet()], str(tmp_path / "missing.jsonl"))
    assert err.strip() == f"{tmp_path / 'missing.jsonl'}: cannot read: No such file or directory"
    assert "imported 1 sheets (1 hands), refused 0 lines, 1 unreadable file(s)" in out
    assert Sheet.objects.count() == 1


def test_names_match_ignoring_case_and_accents(tmp_path, club, season):
    for name in ("Ann", "Hélène", "Bert", "Carl"):
        Player.objects.create(club=club, name=name)
    good = sheet(
        players=("ann", "Helene", " BERT ", "carl"),
        hands=[dict(GOOD_HAND, dealer="carl", taker="ann")],
    )
    out = StringIO()
    path = tmp_path / "names.jsonl"
    path.write_bytes(good + b"\n")
    call_command("import_sheets", "--club", "rive", str(path), stdout=out, stderr=StringIO())
    assert "imported 1 sheets (1 hands), refused 0 lines" in out.getvalue()
    assert sorted(Player.objects.values_list("name", flat=True)) == [
        "Ann",
        "Bert",
        "Carl",
        "Hélène",
    ]
    seated = Sheet.objects.get().seats.order_by("position").values_list("player__name", flat=True)
    assert list(seated) == ["Ann", "Hélène", "Bert", "Carl"]


def test_a_name_twice_in_other_cases_is_one_player_seated_twice(tmp_path, season, players):
    out, err = run(tmp_path, [sheet(players=("Anna", "anna", "Carl", "Dora"))])
    assert "line 1: refused: duplicate_player" in err


DEEP = b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


def test_a_deeply_nested_line_is_refused_by_several_writers_too(tmp_path, season, players):
    """With --writers (PostgreSQL), the lines are first read for their players' names:
    a line 100,000 arrays deep is refused there too, not a traceback."""
    path = tmp_path / "deep.jsonl"
    path.write_bytes(DEEP + b"\n" + sheet() + b"\n")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_sheets", "--club", "rive", "--writers", "2", str(path), stdout=out, stderr=err
        )
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert err.getvalue().startswith("line 1: refused")
    assert Sheet.objects.count() == 1


def test_the_names_of_a_deeply_nested_line_are_none():
    assert _name_keys(DEEP.decode()) == set()
