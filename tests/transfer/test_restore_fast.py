"""The restore's fast paths keep every check: a value of its field's own Python type
(an int, a text, a bool) is taken as it is only within its field's bounds, and a
date or a decimal remembered by its text only once converted and checked. A value
beyond them is still refused, naming its row and its field, whether the file is read
whole (a dict) or a line at a time (version 3, read by orjson), and nothing is
written."""

import json

import pytest

from scoresheet.models import Hand, SheetTotal
from tests.transfer.doctored import backed_up_then_cleared, copy, counts, rows
from tests.transfer.test_restore_stream import LinesOnly
from transfer import backup as backups


def _text(data) -> str:
    """``data`` as the download writes it (version 3: a row a line)."""
    head = {k: data[k] for k in ("format", "version", "club", "users", "persons")}
    lines = [json.dumps(head)[:-1] + ', "objects": [']
    lines.append(",\n".join(json.dumps(row) for row in data["objects"]))
    lines.append('], "counts": ' + json.dumps(data["counts"]) + "}\n")
    return "\n".join(lines)


def _refused(data, *words):
    """Refused whole, read as a dict and as a stream, naming ``words``; nothing written."""
    before = counts()
    for source in (copy(data), LinesOnly(_text(data).encode())):
        with pytest.raises(backups.BackupError) as caught:
            backups.restore(source)
        assert caught.value.code == "backup_invalid", caught.value.message
        for word in words:
            assert word in caught.value.message, caught.value.message
        assert counts() == before


def _refused_value(cleared, model, field, value, *words):
    """The last row of ``model`` (the rows before it take the fast path first) given
    ``value`` for ``field``: refused, naming the row, the field and ``words``."""
    data, _ids = cleared
    row = rows(data, model)[-1]
    row["fields"][field] = value
    _refused(data, f"{model} {row['pk']}", field, *words)


@pytest.fixture
def cleared():
    return backed_up_then_cleared()


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [-1, -(2**40)])
def test_an_integer_beyond_its_fields_bounds_is_refused_naming_its_row(cleared, seats):
    """``seats`` (a positive small integer) given as an int, the type taken as it is.
    (Below zero: its upper bound is the database's, 32,767 on PostgreSQL and none on
    SQLite, where the table's CHECK refuses it unnamed, as before.)"""
    _refused_value(cleared, "scoresheet.scorerow", "seats", seats)


@pytest.mark.django_db
def test_a_text_over_its_length_is_refused_naming_its_row(cleared):
    _refused_value(cleared, "clubs.player", "name", "x" * 81)  # max_length 80


@pytest.mark.django_db
def test_a_text_not_one_of_its_choices_is_refused_though_of_the_right_type(cleared):
    _refused_value(cleared, "scoresheet.scorerow", "role", "emperor", "choices")


@pytest.mark.django_db
def test_a_decimal_remembered_by_its_text_does_not_let_a_bad_one_through(cleared):
    """The first score rows' scores are remembered once checked; a score with two
    decimals (the field keeps one), then the same text again, is refused at its
    first row."""
    data, _ids = cleared
    score_rows = rows(data, "scoresheet.scorerow")
    first, second = score_rows[-2], score_rows[-1]
    first["fields"]["score"] = second["fields"]["score"] = "10.25"
    _refused(data, f"scoresheet.scorerow {first['pk']}", "score")


@pytest.mark.django_db
def test_an_integer_as_text_is_still_converted_and_checked(cleared):
    """A value of another type than its field's (``"3"`` for an int) goes the slow way:
    converted, then checked (here beyond its bounds)."""
    _refused_value(cleared, "scoresheet.scorerow", "position", "-5")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    [
        "2026-02-30T10:00:00+00:00",  # no such day: neither reader takes it
        "last tuesday",
    ],
)
def test_a_date_and_time_the_fast_reader_refuses_is_still_refused(cleared, text):
    """``entered_at`` as the backup writes it is read by ``fromisoformat``; any other
    text goes the slow way, which names the row and the field."""
    _refused_value(cleared, "scoresheet.hand", "entered_at", text)


@pytest.mark.django_db
def test_a_date_and_time_read_fast_keeps_its_instant(cleared):
    """Another offset than UTC: the same instant stored, as Django would store it."""
    data, _ids = cleared
    hand = rows(data, "scoresheet.hand")[-1]
    hand["fields"]["entered_at"] = "2026-03-04T05:06:07.089000+02:00"
    backups.restore(copy(data))
    stored = Hand.objects.get(pk=hand["pk"]).entered_at
    assert stored.isoformat() == "2026-03-04T03:06:07.089000+00:00"


@pytest.mark.django_db
def test_an_empty_json_column_that_may_not_be_is_refused_as_empty(cleared):
    """A JSON list or object is taken as it is, and None as NULL only where the column
    may be NULL: ``miseres`` may not, so None goes the slow way, which names the row
    and says why (the database's NOT NULL would refuse it naming neither)."""
    _refused_value(cleared, "scoresheet.hand", "miseres", None, "empty")


@pytest.mark.django_db
def test_a_text_in_a_json_column_is_refused_by_the_hands_check(cleared):
    data, _ids = cleared
    hand = next(h for h in rows(data, "scoresheet.hand") if not h["fields"]["is_deleted"])
    hand["fields"]["poignees"] = "simple"
    _refused(data, f"scoresheet.hand {hand['pk']}")


@pytest.mark.django_db
def test_a_rebuilt_rows_values_are_not_read(cleared):
    """A sheet total is counted again from the ledger: a value no field takes does not
    refuse the file, and is not what the club shows."""
    data, _ids = cleared
    total = rows(data, "scoresheet.sheettotal")[0]
    total["fields"]["score"] = "lots"
    total["fields"]["date"] = None
    club = backups.restore(copy(data))
    rebuilt = SheetTotal.objects.get(
        sheet_id=total["fields"]["sheet"], player_id=total["fields"]["player"]
    )
    assert rebuilt.season.club == club and rebuilt.date is not None


@pytest.mark.django_db
def test_a_rebuilt_rows_key_naming_another_club_is_refused(cleared):
    data, ids = cleared
    total = rows(data, "scoresheet.sheettotal")[0]
    total["fields"]["player"] = ids["player"]
    _refused(data, f"scoresheet.sheettotal {total['pk']}", "player")
