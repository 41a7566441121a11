"""A job whose worker dies (``kill -9``) does not stay "running": its heartbeat stops,
``transfer.jobs.reap`` fails it within ``JOB_STALE_SECONDS`` (its page says why), the
next job runs in a new worker, and the pruning removes the dead job's files. A real
``manage.py db_worker`` process on the test database, killed mid-job."""

import json
import signal
import time
import uuid
from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from tests.data import SEED_HANDS
from tests.transfer import processes
from transfer import jobs
from transfer.models import Job

pytestmark = pytest.mark.django_db(transaction=True)  # the worker reads what the test wrote

QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
STALE = 3  # seconds: the limit the test sets, against a heartbeat every 0.2 s
BEAT = {"DJANGO_JOB_HEARTBEAT_SECONDS": "0.2"}


def upload_job(club, manager, sheets):
    lines = [
        {"players": ["Anna", "Bert", "Carl", "Dora"], "date": "2026-03-14", "table": str(t)}
        | {"hands": SEED_HANDS[:2]}
        for t in range(sheets)
    ]
    source = f"{uuid.uuid4().hex}.upload"
    jobs.path_of(source).write_text("".join(json.dumps(line) + "\n" for line in lines))
    return jobs.start(
        Job.Kind.UPLOAD,
        club=club,
        actor=manager,
        source=source,
        options={"name": "many.jsonl", "digest": uuid.uuid4().hex},
    )


def state_of(job):
    job.refresh_from_db()
    return job


@override_settings(TASKS=QUEUE, JOB_STALE_SECONDS=STALE)
def test_a_job_whose_worker_is_killed_fails_and_the_next_one_runs(client, manager, season):
    club = season.club
    client.force_login(manager)
    job = upload_job(club, manager, sheets=400)
    worker = processes.start_worker(**BEAT)
    try:
        processes.wait_for(lambda: state_of(job).done > 0, seconds=60)
        processes.stop(worker, signal.SIGKILL)
        killed = time.monotonic()
    finally:
        processes.stop(worker, signal.SIGKILL)
    assert 0 < job.done < job.total and job.state == "running"  # stopped mid-job
    assert jobs.path_of(job.source).exists()

    status = reverse("transfer:job_status", args=[club.slug, job.pk])
    failed = processes.wait_for(
        lambda: client.get(status).json()["state"] == "failed", seconds=STALE + 10, every=0.5
    )
    assert failed and time.monotonic() - killed <= STALE + 5
    found = client.get(status).json()
    assert found["error"] == str(jobs.error_messages["worker_stopped"])
    page = client.get(reverse("transfer:job", args=[club.slug, job.pk])).content.decode()
    assert "stopped before the end" in page

    # the next job runs in a new worker
    again = client.post(reverse("transfer:job_start", args=[club.slug]), {"kind": "backup"})
    backup = Job.objects.get(pk=again["Location"].rstrip("/").split("/")[-1])
    worker = processes.start_worker(**BEAT)
    try:
        processes.wait_for(lambda: state_of(backup).finished, seconds=60)
    finally:
        processes.stop(worker)
    assert backup.state == "done", backup.error
    assert jobs.path_of(backup.file).exists()

    # the dead job's files go with the pruning (the file it read once no retry may want it)
    dead_source = jobs.path_of(job.source)
    jobs.prune(now=timezone.now() + jobs.PENDING_KEPT + timedelta(minutes=1))
    assert not dead_source.exists() and not jobs.path_of(jobs.alive_name(job.pk)).exists()
    assert state_of(job).source == "" and job.state == "failed"
    assert jobs.path_of(backup.file).exists()  # a finished job's download stays its days


@override_settings(TASKS=QUEUE, JOB_STALE_SECONDS=1)
def test_a_job_longer_than_the_limit_lives_on_its_heartbeat(client, manager, season):
    """The limit is on the silence, not on the work: a job running several times the
    limit, its page polled (and so ``reap`` run) all along, ends done."""
    club = season.club
    client.force_login(manager)
    job = upload_job(club, manager, sheets=1200)  # well over three seconds of work
    status = reverse("transfer:job_status", args=[club.slug, job.pk])
    worker = processes.start_worker(**BEAT)
    try:
        processes.wait_for(lambda: state_of(job).state == "running", seconds=60)
        began = time.monotonic()
        processes.wait_for(lambda: client.get(status).json()["finished"], seconds=120, every=0.2)
        took = time.monotonic() - began
    finally:
        processes.stop(worker)
    assert state_of(job).state == "done", job.error
    assert took > 3  # three times the limit: without its beats it would have been failed
