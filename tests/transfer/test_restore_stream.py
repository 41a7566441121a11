"""A backup of version 3 holds a row a line, and the restore reads it as a stream;
files of versions 1 and 2 (one JSON document, read whole) still restore. On
PostgreSQL the rows go in by COPY, not one INSERT a row."""

import io
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from scoresheet.models import Hand, ScoreRow
from tests.transfer.doctored import backed_up_then_cleared, counts
from tests.transfer.test_backup import build_club
from transfer import backup as backups


class LinesOnly(io.BytesIO):
    """A file that may be read a line at a time, never whole."""

    def read(self, size=-1):
        if size is None or size < 0:
            raise AssertionError("the restore read the whole file")
        return super().read(size)


def _cleared_text():
    """The text ``chunks`` writes of the club ``rive``, the club gone from the database."""
    data, _ids = backed_up_then_cleared()
    # the backup as the download writes it, from the dict the fixture kept
    head = {k: data[k] for k in ("format", "version", "club", "users", "persons")}
    lines = [json.dumps(head)[:-1] + ', "objects": [']
    lines.append(",\n".join(json.dumps(row) for row in data["objects"]))
    lines.append('], "counts": ' + json.dumps(data["counts"]) + "}\n")
    return "\n".join(lines), data


@pytest.mark.django_db
def test_a_backup_writes_a_row_a_line_and_stays_json():
    club = build_club()
    text = backups.dumps(club)
    lines = text.splitlines()
    data = json.loads(text)
    assert data["version"] == 3 == backups.VERSION
    assert lines[0].endswith('"objects": [') and '"persons"' in lines[0]
    assert len(lines) == len(data["objects"]) + 2  # the head, a line a row, the end
    assert lines[-1].startswith('], "counts": ')
    assert all(json.loads(line.rstrip(","))["model"] for line in lines[1:-1])


@pytest.mark.django_db
def test_a_version_3_file_restores_read_a_line_at_a_time():
    text, data = _cleared_text()
    club = backups.restore(LinesOnly(text.encode()))
    assert club.slug == "rive"
    assert Hand.objects.filter(sheet__club=club).count() == data["counts"]["scoresheet.hand"]
    assert (
        ScoreRow.objects.filter(sheet__club=club).count() == data["counts"]["scoresheet.scorerow"]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("cut", ["end", "row"])
def test_a_version_3_file_cut_short_is_refused_and_writes_nothing(cut):
    text, _data = _cleared_text()
    lines = text.splitlines(keepends=True)
    if cut == "end":
        lines = lines[:-1]  # no counts at the end
    else:
        del lines[len(lines) // 2]  # a row less than the counts say
    before = counts()
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(LinesOnly("".join(lines).encode()))
    assert caught.value.code == "backup_invalid"
    assert "count" in caught.value.message
    assert counts() == before


@pytest.mark.django_db
def test_a_version_3_file_with_a_broken_line_is_refused():
    text, _data = _cleared_text()
    lines = text.splitlines(keepends=True)
    lines[3] = lines[3][: len(lines[3]) // 2] + "\n"
    before = counts()
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(LinesOnly("".join(lines).encode()))
    assert "not JSON" in caught.value.message
    assert counts() == before


@pytest.mark.django_db
def test_a_version_2_file_still_restores():
    data, _ids = backed_up_then_cleared()
    persons = data.pop("persons")
    counted = data.pop("counts")
    data.update(version=2, persons=persons, counts=counted)  # persons and counts last
    club = backups.restore(json.dumps(data).encode())
    assert club.slug == "rive" and club.sheets.count() == 3


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY is PostgreSQL's")
def test_postgresql_takes_the_rows_by_copy_not_one_insert_a_row():
    text, data = _cleared_text()
    with CaptureQueriesContext(connection) as queries:
        club = backups.restore(io.BytesIO(text.encode()))
    inserts = [q["sql"] for q in queries if q["sql"].startswith('INSERT INTO "scoresheet_')]
    # the restore's own rows go by COPY (which Django does not log); the totals are
    # counted again in SQL (INSERT … SELECT)
    assert not [sql for sql in inserts if "VALUES" in sql], inserts[:3]
    assert (
        ScoreRow.objects.filter(sheet__club=club).count() == data["counts"]["scoresheet.scorerow"]
    )
    assert Club.objects.filter(slug="rive").exists()
