"""Backups, season exports, large uploads and restores run as background jobs
(``transfer.jobs``): a page with a progress bar, the file to download when done,
the same permissions as the data page; a site administrator restores a club after
a preview. Most tests run the tasks at once (the test settings' immediate backend);
``test_the_database_queue_runs_a_job_in_the_worker`` goes through the database
queue and ``manage.py db_worker``, as ``make run`` does."""

import csv
import io
import json
import os
from datetime import timedelta

import openpyxl
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Club, Membership, Role
from scoresheet import services
from scoresheet.models import Hand, Sheet
from tests.data import SEED_HANDS
from tests.transfer.doctored import backed_up_then_cleared
from transfer import backup as backups
from transfer import jobs, streams
from transfer.models import Job

pytestmark = pytest.mark.django_db


def start(client, club, kind, season=None):
    data = {"kind": kind}
    if season is not None:
        data["season"] = season.pk
    response = client.post(reverse("transfer:job_start", args=[club.slug]), data)
    assert response.status_code == 302, response.status_code
    job = Job.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    assert response["Location"] == reverse("transfer:job", args=[club.slug, job.pk])
    return job


def status(client, club, job):
    response = client.get(reverse("transfer:job_status", args=[club.slug, job.pk]))
    assert response.status_code == 200
    return response.json()


def download(client, club, job) -> bytes:
    response = client.get(status(client, club, job)["download"])
    assert response.status_code == 200
    assert job.download_name in response["Content-Disposition"]
    return response.getvalue()


@pytest.fixture
def sheets(make_sheet, scorer):
    made = []
    for table in ("1", "2", "3"):
        sheet = make_sheet(table=table)
        for data in SEED_HANDS:
            services.record_hand(sheet, data, actor=scorer)
        made.append(sheet)
    return made


def test_a_backup_job_writes_the_club_and_its_download_is_audited(client, manager, sheets):
    club = sheets[0].club
    client.force_login(manager)
    job = start(client, club, "backup")
    expected = backups.backup(club)  # before the download's audit entry
    job.refresh_from_db()
    assert job.state == "done" and job.done == job.total > 0
    page = client.get(reverse("transfer:job", args=[club.slug, job.pk])).content.decode()
    assert 'data-job-status="' in page and "<progress" in page
    body = download(client, club, job)
    assert json.loads(body) == expected
    entry = AuditEntry.objects.get(action="backup_downloaded")
    assert entry.actor == manager and entry.after["counts"] == json.loads(body)["counts"]
    assert entry.after["sha256"] == job.options["sha256"]


def test_season_exports_in_the_background_equal_the_direct_ones(client, manager, season, sheets):
    club = season.club
    client.force_login(manager)
    response = client.get(reverse("transfer:season_jsonl", args=[club.slug, season.pk]))
    direct = response.getvalue()  # streamed: read once
    assert download(client, club, start(client, club, "season_jsonl", season)) == direct
    lines = direct.decode().splitlines()
    assert [json.loads(line)["table"] for line in lines] == ["1", "2", "3"]
    book = download(client, club, start(client, club, "season_xlsx", season))
    rows = list(openpyxl.load_workbook(io.BytesIO(book)).active.values)
    assert len(rows) == 1 + 3 * 4 * len(SEED_HANDS) and sum(r[7] for r in rows[1:]) == 0
    text = download(client, club, start(client, club, "season_csv", season)).decode()
    assert text.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert table[0] == list(rows[0]) and len(table) == len(rows)
    assert [r[4] for r in table[1:]] == [r[4] for r in rows[1:]]
    assert sum(float(r[7]) for r in table[1:]) == 0


def test_the_season_export_reads_sheets_a_chunk_at_a_time(
    season, sheets, make_sheet, django_assert_num_queries, monkeypatch
):
    """Three queries per chunk of sheets (the sheets, their seats, their hands), one for
    their ids (read through a cursor) and one for their number (the progress), whatever
    the number of sheets: never two per sheet."""
    monkeypatch.setattr(streams, "SHEET_CHUNK", 2)
    with django_assert_num_queries(2 + 3 * 2):  # 3 sheets: chunks of 2 and 1
        text = "".join(streams.season_jsonl_chunks(season))
    assert len(text.splitlines()) == 3


def test_a_job_counts_its_progress(manager, season, sheets, monkeypatch):
    seen = []
    monkeypatch.setattr(jobs, "PROGRESS_EVERY", 0)
    real = jobs.Progress.flush

    def flush(self):
        real(self)
        seen.append(Job.objects.values_list("done", "total").get(pk=self.job.pk))

    monkeypatch.setattr(jobs.Progress, "flush", flush)
    monkeypatch.setattr(streams, "CHUNK", 10)
    job = jobs.start(Job.Kind.SEASON_CSV, club=season.club, season=season, actor=manager)
    total = 3 * 4 * len(SEED_HANDS)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert len(seen) > 3 and [d for d, _t in seen] == sorted(d for d, _t in seen)
    job.refresh_from_db()
    assert job.state == "done" and job.percent == 100


def test_a_job_of_another_kind_or_season_is_a_400_and_starts_nothing(client, manager, season):
    client.force_login(manager)
    url = reverse("transfer:job_start", args=[season.club.slug])
    assert client.post(url, {"kind": "restore"}).status_code == 400
    assert client.post(url, {"kind": "season_csv", "season": "999"}).status_code == 400
    assert not Job.objects.exists()


def test_a_job_that_fails_says_so_and_its_file_is_not_served(client, manager, season, monkeypatch):
    def broken(job, progress):
        raise RuntimeError("disk full")

    monkeypatch.setitem(jobs.RUNNERS, Job.Kind.BACKUP, broken)
    client.force_login(manager)
    job = start(client, season.club, "backup")
    found = status(client, season.club, job)
    assert found["state"] == "failed" and "disk full" not in found["error"]
    assert found["error"] == str(jobs.error_messages["failed"]) and found["download"] is None
    response = client.get(reverse("transfer:job_file", args=[season.club.slug, job.pk]))
    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)  # the worker closes its connection between tasks
def test_the_database_queue_runs_a_job_in_the_worker(manager, season, sheets):
    """The real path: the job waits in the database queue until ``db_worker`` runs it."""
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        job = jobs.start(Job.Kind.SEASON_JSONL, club=season.club, season=season, actor=manager)
        job.refresh_from_db()
        assert job.state == "queued"
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    job.refresh_from_db()
    assert job.state == "done", job.error
    with open(jobs.path_of(job.file), encoding="utf-8") as written:
        assert written.read() == "".join(streams.season_jsonl_chunks(season))


def test_a_large_upload_is_imported_once_in_the_background(client, manager, season, monkeypatch):
    monkeypatch.setattr(jobs, "BACKGROUND_SHEETS", 2)
    client.force_login(manager)
    sheets = [
        {"players": ["Anna", "Bert", "Carl", "Dora"], "date": "2026-03-14", "table": str(t)}
        | {"hands": SEED_HANDS[:2]}
        for t in range(1, 5)
    ]
    text = "".join(json.dumps(s) + "\n" for s in sheets)
    url = reverse("transfer:import", args=[season.club.slug])
    file = SimpleUploadedFile("big.jsonl", text.encode())
    # its preview is a job too: its page (the progress), then the preview page
    response = client.post(url, {"step": "preview", "file": file})
    checked = Job.objects.get(kind="upload_preview")
    assert response["Location"] == reverse("transfer:job", args=[season.club.slug, checked.pk])
    assert checked.state == "done" and checked.options["good"] == 4
    assert checked.done == checked.total == 4
    assert not jobs.path_of(checked.source).exists()  # read: not kept (the session is)
    assert Sheet.objects.count() == 0  # nothing written by the preview
    preview = reverse("transfer:upload_preview", args=[season.club.slug, checked.pk])
    assert client.get(response["Location"])["Location"] == preview
    page = client.get(preview).content.decode()
    assert page.count('data-outcome="ok"') == 4 and "Import 4 sheets" in page
    digest = page.split('name="digest" value="')[1].split('"')[0]
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    form = {"step": "import", "digest": digest, "season": "", "idempotency_key": key}
    response = client.post(url, form)
    job = Job.objects.get(kind="upload")
    assert response["Location"] == reverse("transfer:job", args=[season.club.slug, job.pk])
    assert not Job.objects.exclude(pk__in=[job.pk, checked.pk]).exists()
    assert job.state == "done" and job.options["good"] == 4
    assert Sheet.objects.count() == 4 and Hand.objects.count() == 8
    page = client.get(response["Location"]).content.decode()
    assert page.count('data-outcome="ok"') == 4
    client.post(url, form)  # pressed again: the same key, nothing more
    assert Job.objects.filter(kind="upload").count() == 1 and Sheet.objects.count() == 4
    assert AuditEntry.objects.filter(action="sheets_uploaded").count() == 1


def test_a_large_uploads_preview_page_needs_the_file_the_session_keeps(
    client, manager, season, monkeypatch
):
    """The preview page reads the file from the session, as the confirm does: another
    manager (another session), or one who uploaded another file since, uploads again."""
    monkeypatch.setattr(jobs, "BACKGROUND_SHEETS", 1)
    client.force_login(manager)
    sheets = [
        {"players": ["Anna", "Bert", "Carl", "Dora"], "date": "2026-03-14", "table": str(t)}
        | {"hands": SEED_HANDS[:1]}
        for t in (1, 2)
    ]
    text = "".join(json.dumps(s) + "\n" for s in sheets)
    url = reverse("transfer:import", args=[season.club.slug])
    client.post(url, {"step": "preview", "file": SimpleUploadedFile("a.jsonl", text.encode())})
    checked = Job.objects.get(kind="upload_preview")
    preview = reverse("transfer:upload_preview", args=[season.club.slug, checked.pk])
    assert client.get(preview).status_code == 200
    client.logout()
    client.force_login(manager)  # a new session: no file
    response = client.get(preview)
    assert response["Location"] == reverse("transfer:data", args=[season.club.slug])


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("admin", password="pw-admin-1", is_staff=True)


def upload_backup(client, text):
    file = SimpleUploadedFile("backup.json", text.encode())
    return client.post(reverse("restore"), {"file": file})


def test_a_site_administrator_previews_then_restores_a_club(client, staff):
    data, _ids = backed_up_then_cleared()
    client.force_login(staff)
    response = upload_backup(client, json.dumps(data))
    assert response.status_code == 302
    job = Job.objects.get(kind="restore")
    assert job.state == "pending" and not Club.objects.filter(slug="rive").exists()
    page = client.get(response["Location"]).content.decode()
    assert "rive" in page and 'id="restore-confirm"' in page
    assert job.options["preview"]["counts"] == data["counts"]
    assert f"{data['counts']['scoresheet.hand']} hands" in job.summary
    assert job.summary in page
    client.post(response["Location"])
    job.refresh_from_db()
    assert job.state == "done", job.error
    club = Club.objects.get(slug="rive")
    assert job.club == club
    assert client.get(reverse("restore_status", args=[job.pk])).json()["club"] == reverse(
        "clubs:detail", args=["rive"]
    )
    assert AuditEntry.objects.get(club=club, action="club_restored").actor == staff
    assert client.post(response["Location"]).status_code == 302  # again: nothing more
    assert Job.objects.filter(kind="restore").count() == 1


def test_a_doctored_backup_fails_its_restore_job_and_writes_nothing(client, staff):
    data, ids = backed_up_then_cleared()
    for row in data["objects"]:
        if row["model"] == "clubs.player":
            row["fields"]["club"] = ids["club"]  # a player of another club
            break
    client.force_login(staff)
    response = upload_backup(client, json.dumps(data))
    client.post(response["Location"])
    job = Job.objects.get(kind="restore")
    assert job.state == "failed" and "Not a usable backup: clubs.player" in job.error
    assert not Club.objects.filter(slug="rive").exists()


def test_a_file_that_is_no_backup_is_refused_at_its_preview(client, staff):
    client.force_login(staff)
    response = upload_backup(client, '{"hello": 1}')
    assert response.status_code == 400 and not Job.objects.exists()
    assert "Not a usable backup" in response.content.decode()


def test_a_club_manager_may_not_restore(client, season):
    user = get_user_model().objects.create_user("boss", password="pw-boss-1")
    Membership.objects.create(club=season.club, user=user, role=Role.MANAGER)
    client.force_login(user)
    assert client.get(reverse("restore")).status_code == 403
    with pytest.raises(jobs.JobError):
        jobs.confirm_restore(Job(kind="restore"), actor=user)


def test_old_job_files_are_removed_and_their_page_says_so(
    client, manager, season, sheets, settings, tmp_path
):
    """A download is kept ``JOB_FILES_DAYS`` days, then its file goes (the job's row and
    page stay, saying the file was removed); a restore never confirmed is failed after a
    day; a stray file under FILES_DIR that no job names goes once a day old."""
    import os
    from datetime import timedelta

    from django.utils import timezone

    settings.FILES_DIR = tmp_path  # nothing of other tests' files
    club = season.club
    client.force_login(manager)
    fresh, old = start(client, club, "backup"), start(client, club, "backup")
    fresh.refresh_from_db()
    old.refresh_from_db()
    assert fresh.file and old.file
    two_weeks = timezone.now() - timedelta(days=14)
    Job.objects.filter(pk=old.pk).update(finished_at=two_weeks)
    pending_file = jobs.save_upload(SimpleUploadedFile("b.json", b"{}"), ".restore")
    pending = Job.objects.create(
        kind=Job.Kind.RESTORE, state=Job.State.PENDING, source=pending_file
    )
    Job.objects.filter(pk=pending.pk).update(created_at=two_weeks)
    stray = jobs.path_of("left-by-a-crash.json")
    stray.write_text("{}")
    os.utime(stray, (two_weeks.timestamp(), two_weeks.timestamp()))
    young_stray = jobs.path_of("being-written.json")
    young_stray.write_text("{}")

    assert jobs.prune() == {"downloads": 1, "pending": 1, "orphans": 1, "failed": 0}

    old.refresh_from_db()
    fresh.refresh_from_db()
    pending.refresh_from_db()
    assert old.file == "" and old.state == Job.State.DONE
    assert fresh.file and jobs.path_of(fresh.file).exists()
    assert pending.state == Job.State.FAILED and not jobs.path_of(pending_file).exists()
    assert not stray.exists() and young_stray.exists()
    page = client.get(reverse("transfer:job", args=[club.slug, old.pk]))
    assert "was removed after 7 days" in page.content.decode()
    assert status(client, club, old)["download"] is None
    assert client.get(reverse("transfer:job_file", args=[club.slug, old.pk])).status_code == 404
    out = io.StringIO()
    call_command("prune_jobs", stdout=out)
    assert "0 downloads, 0 unconfirmed restores, 0 stray files removed" in out.getvalue()


def test_a_restore_confirmed_while_the_prune_runs_keeps_its_file(settings, tmp_path, monkeypatch):
    """The prune reads the stale restores, then fails each one still waiting for its
    confirmation: one confirmed in between (``confirm_restore`` queues it) is left
    queued with its file, which its restore is about to read."""
    from datetime import timedelta

    from django.utils import timezone

    settings.FILES_DIR = tmp_path
    source = jobs.save_upload(SimpleUploadedFile("b.json", b"{}"), ".restore")
    job = Job.objects.create(kind=Job.Kind.RESTORE, state=Job.State.PENDING, source=source)
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(days=2))
    manager, original = Job.objects, Job.objects.filter

    def confirmed_meanwhile(*args, **kwargs):
        if kwargs.get("pk") == job.pk and kwargs.get("state") == Job.State.PENDING:
            original(pk=job.pk).update(state=Job.State.QUEUED)  # the other request
        return original(*args, **kwargs)

    monkeypatch.setattr(manager, "filter", confirmed_meanwhile)
    removed = jobs.prune()
    monkeypatch.undo()
    job.refresh_from_db()
    assert removed["pending"] == 0
    assert job.state == Job.State.QUEUED and job.source == source
    assert jobs.path_of(source).exists()


def test_the_prune_runs_once_the_jobs_transaction_commits(
    manager, season, settings, tmp_path, monkeypatch, django_capture_on_commit_callbacks
):
    """A job's start prunes the old files only after its transaction commits: inside
    one that may yet roll back, a prune would remove files for rows that come back."""
    settings.FILES_DIR = tmp_path
    pruned = []
    monkeypatch.setattr(jobs, "prune", lambda now=None: pruned.append(1) or {})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        jobs.start(Job.Kind.BACKUP, club=season.club, actor=manager)
    assert pruned == []
    for callback in callbacks:
        callback()
    assert pruned == [1]


def as_if_its_worker_died(job, *, file=None):
    """A job left "running" by a worker killed mid-way: its row says running, its
    partial file is on disk, its heartbeat is as old as the job."""
    old = timezone.now() - timedelta(seconds=settings.JOB_STALE_SECONDS + 5)
    Job.objects.filter(pk=job.pk).update(state="running", created_at=old, file=file or "")
    if file:
        jobs.path_of(file).write_text("half a fi")
    alive = jobs.path_of(jobs.alive_name(job.pk))
    alive.touch()
    os.utime(alive, (old.timestamp(), old.timestamp()))


def test_an_export_whose_worker_died_fails_loses_its_partial_file_and_starts_again(
    client, manager, season, sheets
):
    client.force_login(manager)
    job = Job.objects.create(kind="season_csv", club=season.club, season=season, user=manager)
    as_if_its_worker_died(job, file=f"{job.pk.hex}.csv")
    found = status(client, season.club, job)  # a look at its page fails it
    assert found["state"] == "failed" and found["download"] is None
    assert found["error"] == str(jobs.error_messages["worker_stopped"])
    page = client.get(reverse("transfer:job", args=[season.club.slug, job.pk])).content.decode()
    assert 'id="job-again"' in page
    assert jobs.prune()["failed"] == 0  # failed already: counted once
    assert not jobs.path_of(f"{job.pk.hex}.csv").exists()
    assert not jobs.path_of(jobs.alive_name(job.pk)).exists()
    response = client.post(reverse("transfer:job_again", args=[season.club.slug, job.pk]))
    again = Job.objects.exclude(pk=job.pk).get()
    assert response["Location"] == reverse("transfer:job", args=[season.club.slug, again.pk])
    assert again.kind == "season_csv" and again.season == season and again.state == "done"


def test_a_running_job_with_a_recent_heartbeat_is_left_alone(manager, season):
    job = Job.objects.create(kind="backup", club=season.club, user=manager)
    as_if_its_worker_died(job)
    jobs.Heartbeat(job.pk).beat()  # its worker alive after all
    assert jobs.reap() == 0 and Job.objects.get(pk=job.pk).state == "running"


def test_a_restore_whose_worker_died_may_be_confirmed_again(client, staff):
    data, _ids = backed_up_then_cleared()
    client.force_login(staff)
    response = upload_backup(client, json.dumps(data))
    job = Job.objects.get(kind="restore")
    as_if_its_worker_died(job)
    page = client.get(response["Location"]).content.decode()  # failed by its page
    assert 'id="restore-again"' in page and "stopped before the end" in page
    client.post(response["Location"])
    job.refresh_from_db()
    assert job.state == "done", job.error
    assert Club.objects.filter(slug="rive").exists()
    assert not jobs.path_of(job.source).exists()  # read: removed
