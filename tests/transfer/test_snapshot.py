"""A backup is one snapshot of the club (``transfer.backup.snapshot``): a hand recorded
from another connection while it is being written is wholly out of the file, which
restores: PostgreSQL's ``REPEATABLE READ`` transaction, SQLite's read transaction in
its WAL journal (where the writer commits beside the reader)."""

import datetime
import json
import threading

import pytest
from django.core import serializers
from django.db import connection

from scoresheet import services
from scoresheet.models import Hand, ScoreRow, Sheet
from tests.data import SEED_HANDS
from tests.transfer.doctored import clear
from tests.transfer.test_backup import build_club
from transfer import backup as backups
from transfer import jobs, streams
from transfer.backup import dump
from transfer.models import Job

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the other connection sees committed rows
]


def post_a_hand(sheet_id):
    """A hand recorded through the service from a thread of its own (its own connection),
    committed before it returns."""

    def post():
        try:
            sheet = Sheet.objects.get(pk=sheet_id)
            services.record_hand(sheet, SEED_HANDS[0])
        finally:
            connection.close()

    thread = threading.Thread(target=post)
    thread.start()
    thread.join()


def test_a_hand_posted_during_the_backup_is_out_of_it_and_the_file_restores(monkeypatch):
    club = build_club()
    sheet = Sheet.objects.filter(club=club, season__name="2026").order_by("pk").first()
    hands = Hand.objects.filter(sheet__club=club).count()
    rows = ScoreRow.objects.filter(hand__sheet__club=club).count()
    posted = []
    real = serializers.serialize

    def serialize(fmt, chunk, **kwargs):
        out = real(fmt, chunk, **kwargs)
        label = chunk[0]._meta.label
        # once the club is written (the hands not yet), and once the hands are (their
        # score rows not yet): without one snapshot, the first hand would be in the
        # file, and the second's score rows without their hand
        if label in ("clubs.Club", "scoresheet.Hand") and label not in posted:
            posted.append(label)
            post_a_hand(sheet.pk)
        return out

    monkeypatch.setattr(dump.serializers, "serialize", serialize)
    text = backups.dumps(club)
    monkeypatch.undo()

    assert posted == ["clubs.Club", "scoresheet.Hand"]
    assert Hand.objects.filter(sheet__club=club).count() == hands + 2  # both were written
    data = json.loads(text)
    found = [row for row in data["objects"] if row["model"] == "scoresheet.hand"]
    assert len(found) == data["counts"]["scoresheet.hand"] == hands
    assert sum(row["model"] == "scoresheet.scorerow" for row in data["objects"]) == rows

    clear(club)
    restored = backups.restore(text)
    assert Hand.objects.filter(sheet__club=restored).count() == hands


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite writes the progress at the end"
)
def test_a_backup_job_writes_its_progress_apart_from_the_snapshot(monkeypatch):
    """The snapshot writes nothing: the job's progress goes through a connection of its
    own, committed at once (the job's page reads it while the backup runs)."""
    club = build_club()
    manager = club.memberships.get(role="manager").user
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0)
    seen = []
    real = jobs.Progress._apart

    def apart(self, values):
        real(self, values)
        # read from outside the snapshot (which would show the row as it was)
        with self.side.cursor() as cursor:
            table = Job._meta.db_table
            cursor.execute(f"SELECT done, total FROM {table} WHERE id = %s", [self.job.pk])
            seen.append(cursor.fetchone())

    monkeypatch.setattr(jobs.Progress, "_apart", apart)
    job = jobs.start(Job.Kind.BACKUP, club=club, actor=manager)
    job.refresh_from_db()
    assert job.state == "done", job.error
    assert seen and seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == job.total > 0


def test_a_backup_job_whose_file_cannot_be_written_fails_and_says_so(monkeypatch):
    """The snapshot ends with the error (not when it is forgotten): the job's row,
    written then, is not refused by a read-only transaction."""
    club = build_club()
    manager = club.memberships.get(role="manager").user

    class Full:
        def write(self, data):
            raise OSError("No space left on device")

    monkeypatch.setattr(jobs, "open", lambda *args, **kwargs: _Opened(Full()), raising=False)
    job = jobs.start(Job.Kind.BACKUP, club=club, actor=manager)
    job.refresh_from_db()
    assert job.state == "failed" and job.error == str(jobs.error_messages["failed"])


class _Opened:
    def __init__(self, file):
        self.file = file

    def __enter__(self):
        return self.file

    def __exit__(self, *exc):
        return False


def _two_sheet_season():
    """The club of ``build_club`` with a second sheet in its 2026 season, played later."""
    club = build_club()
    first = Sheet.objects.filter(club=club, season__name="2026").order_by("pk").first()
    second = services.create_sheet(
        season=first.season,
        players=[seat.player for seat in first.seats.order_by("position")],
        date=datetime.date(2026, 12, 1),
        table="2",
    )
    services.record_hand(second, SEED_HANDS[0])
    return first.season, second


def test_a_hand_posted_during_a_season_csv_export_is_out_of_it():
    """The rows are counted (the progress's total), then read: both in one snapshot, a
    hand recorded between the two adds no row, and the count is the rows written."""
    season, second = _two_sheet_season()
    totals = []

    def progress(done, total):
        if not totals:
            post_a_hand(second.pk)
        totals.append(total)

    text = "".join(streams.csv_chunks(season, progress, language="en"))
    assert Hand.objects.filter(sheet=second).count() == 2  # it was written
    lines = text.splitlines()[1:]
    assert len(lines) == totals[-1] == ScoreRow.objects.filter(season=season).count() - 4


def test_a_hand_posted_during_a_season_jsonl_export_is_out_of_it(monkeypatch):
    """The sheets are read a chunk at a time (here one a chunk): a hand recorded on a
    later sheet once the first is written is not in that later sheet's line."""
    season, second = _two_sheet_season()
    monkeypatch.setattr(streams, "SHEET_CHUNK", 1)
    chunks = streams.season_jsonl_chunks(season)
    first = next(chunks)
    post_a_hand(second.pk)
    lines = [json.loads(line) for line in (first + "".join(chunks)).splitlines()]
    assert Hand.objects.filter(sheet=second).count() == 2  # it was written
    assert len(lines) == 2
    assert len(lines[-1]["hands"]) == 1


@pytest.mark.parametrize("kind", [Job.Kind.SEASON_CSV, Job.Kind.SEASON_JSONL])
def test_a_season_export_job_whose_file_cannot_be_written_fails_and_says_so(monkeypatch, kind):
    """The export's generator is closed with the error (``jobs._write``): its snapshot
    (a read-only transaction) ends before the job's failure is written."""
    club = build_club()
    manager = club.memberships.get(role="manager").user

    class Full:
        def write(self, data):
            raise OSError("No space left on device")

    monkeypatch.setattr(streams, "CHUNK", 2)  # the CSV yields while its rows are read
    monkeypatch.setattr(jobs, "open", lambda *args, **kwargs: _Opened(Full()), raising=False)
    job = jobs.start(kind, club=club, actor=manager, season=club.seasons.get(name="2026"))
    job.refresh_from_db()
    assert job.state == "failed" and job.error == str(jobs.error_messages["failed"])
