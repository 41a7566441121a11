"""Long work of the data page in the background, with its progress: ``start`` a job,
``run_job`` (a ``django_tasks`` task) does it in ``manage.py db_worker``.

Every kind writes a file under ``settings.FILES_DIR`` in chunks (memory stays
flat), counting its progress on the job's row (at most twice a second), which
the job's page polls; or reads one (an upload, a backup to restore). A job ends
``done`` (its file ready to download, its summary) or ``failed`` (its error, the
service's message or a generic one: a traceback goes to the log, never to the
page). Who may start, see and download a job: ``transfer.views`` (a club's
managers, as for the data page; a restore: site administrators).
"""

import logging
import os
import threading
import time
import uuid
from contextlib import closing, contextmanager
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Sum
from django.db.models.sql import UpdateQuery
from django.db.models.sql.constants import NO_RESULTS
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, npgettext
from django_tasks import task

from clubs import audit
from clubs.permissions import require
from core.errors import ServiceError
from scoresheet.models import Sheet
from transfer import backup as backups
from transfer import streams, upload
from transfer.models import Job
from transfer.snapshot import in_snapshot

logger = logging.getLogger(__name__)

#: seconds between two writes of a job's progress
PROGRESS_EVERY = 0.5
#: an upload of more sheets than this is imported in the background
BACKGROUND_SHEETS = 50
#: the upper bound of a backup file restored from the site (bytes)
MAX_RESTORE_BYTES = 4 * 1024**3
#: a restore previewed and never confirmed: its file is removed after this long
PENDING_KEPT = timedelta(days=1)
#: a file under FILES_DIR that no job names (an upload saved by a request that then
#: failed): removed once this old
ORPHAN_KEPT = timedelta(days=1)

error_messages = {
    "forbidden": gettext_lazy("Only the club's managers may do that."),
    "not_staff": gettext_lazy("Only a site administrator may restore a club."),
    "failed": gettext_lazy(
        "The work stopped on an error; nothing was written. "
        "Try again, or tell the site's administrator."
    ),
    "not_confirmed": gettext_lazy(
        "This restore was not confirmed within a day; its file was removed. "
        "Upload the backup again."
    ),
    "worker_stopped": gettext_lazy(
        "The worker doing this job stopped before the end (its process ended or its "
        "machine restarted), so the job failed. Start it again."
    ),
}


class JobError(ServiceError):
    pass


def files_dir() -> Path:
    path = Path(settings.FILES_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def path_of(name: str) -> Path:
    return files_dir() / name


def start(kind, *, club, actor, season=None, options=None, source="") -> Job:
    """Queue a job of ``kind`` on ``club`` for ``actor`` (a manager of the club)."""
    require(actor, club, "manage", JobError)
    with transaction.atomic():
        job = Job.objects.create(
            kind=kind,
            club=club,
            season=season,
            user=actor if actor is not None and actor.is_authenticated else None,
            source=source,
            options={"language": translation.get_language(), **(options or {})},
        )
    enqueue(job)
    transaction.on_commit(prune)  # never inside a transaction that may yet roll back
    return job


def hands_of(club, season=None) -> int:
    """The hands a download would hold: the season's live sheets', or the club's (its
    backup). One sum over the sheets' kept counts."""
    sheets = Sheet.objects.filter(club=club) if season is None else streams.season_sheets(season)
    return sheets.aggregate(hands=Sum("hand_count"))["hands"] or 0


def start_download(kind, *, club, season=None, actor) -> Job:
    """The job of a direct download link above ``settings.DOWNLOAD_MAX_HANDS``: the one
    of the same file already queued or running (a second click, or another reader of
    the club, waits for it), else a new one. A season's export is the link's readers'
    (the view checked they may read the club); a backup is its managers'."""
    if kind not in (Job.Kind.SEASON_JSONL, Job.Kind.SEASON_CSV, Job.Kind.SEASON_XLSX):
        require(actor, club, "manage", JobError)
    language = translation.get_language()
    waiting = Job.objects.filter(
        kind=kind,
        club=club,
        season=season,
        state__in=[Job.State.QUEUED, Job.State.RUNNING],
        options__language=language,  # the CSV's separator and the headers are the page's
    )
    found = waiting.order_by("-created_at").first()
    if found is not None:
        return found
    with transaction.atomic():
        job = Job.objects.create(
            kind=kind,
            club=club,
            season=season,
            user=actor if actor is not None and actor.is_authenticated else None,
            options={"language": language, "direct": True},
        )
    enqueue(job)
    transaction.on_commit(prune)
    return job


def enqueue(job) -> None:
    """Hand the job to the queue (after its row is committed: the worker reads it)."""
    run_job.enqueue(str(job.pk))


def save_upload(uploaded, suffix: str) -> str:
    """Write an uploaded file under FILES_DIR in chunks; returns its name there."""
    name = f"{uuid.uuid4().hex}{suffix}"
    with open(path_of(name), "wb") as out:
        for chunk in uploaded.chunks():
            out.write(chunk)
    return name


def prepare_restore(source: str, *, actor) -> Job:
    """A restore to confirm: the backup (saved under FILES_DIR) read for its preview
    (``backup.preview``: the club and the rows of each model); nothing queued yet."""
    if actor is None or not actor.is_staff:
        raise JobError("not_staff", str(error_messages["not_staff"]))
    transaction.on_commit(prune)
    with open(path_of(source), "rb") as data:
        found = backups.preview(data)
    return Job.objects.create(
        kind=Job.Kind.RESTORE,
        state=Job.State.PENDING,
        user=actor,
        source=source,
        summary=backups.summary(found["counts"]),
        options={"language": translation.get_language(), "preview": found},
    )


def confirm_restore(job, *, actor, logins=()) -> bool:
    """Queue a previewed restore, once (False: it was queued already). ``logins``: the
    usernames of the preview's list the administrator confirmed; the file's other
    logins get no role in the club (``backup.restore``)."""
    if actor is None or not actor.is_staff:
        raise JobError("not_staff", str(error_messages["not_staff"]))
    listed = {row["username"] for row in job.options.get("preview", {}).get("logins", [])}
    options = {**job.options, "logins": sorted(set(logins) & listed)}
    queued = Job.objects.filter(pk=job.pk, state=Job.State.PENDING).update(
        state=Job.State.QUEUED, user=actor, options=options
    )
    if not queued:  # a restore whose worker died may go again while its file is kept
        stopped = Job.objects.filter(
            pk=job.pk, state=Job.State.FAILED, options__worker_stopped=True
        ).exclude(source="")
        if job.source and path_of(job.source).exists():
            queued = stopped.update(state=Job.State.QUEUED, user=actor, error="", done=0)
    if queued:
        enqueue(job)
    return bool(queued)


@task()
def run_job(job_id: str) -> str:
    """Do the job (once: a job not waiting is left alone); returns its state. While it
    runs, a thread beats its heart (``Heartbeat``): a job whose beats stop is failed
    by ``reap``."""
    heartbeat = Heartbeat(job_id)
    heartbeat.beat()  # before the claim: a running job always has a recent beat
    claimed = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).update(state=Job.State.RUNNING)
    if not claimed:
        heartbeat.path.unlink(missing_ok=True)
        return "skipped"
    job = Job.objects.select_related("club", "season", "user").get(pk=job_id)
    progress = Progress(job)
    heartbeat.start()
    with translation.override(job.options.get("language") or settings.LANGUAGE_CODE):
        try:
            RUNNERS[job.kind](job, progress)
        except ServiceError as error:
            _finish(job, Job.State.FAILED, error=error.message)
        except Exception:
            logger.exception("job %s (%s) failed", job.pk, job.kind)
            _finish(job, Job.State.FAILED, error=str(error_messages["failed"]))
        else:
            progress.flush()
            _finish(job, Job.State.DONE)
        finally:
            progress.close()
            heartbeat.stop()
    return job.state


def heartbeat_seconds() -> float:
    return settings.JOB_HEARTBEAT_SECONDS


def stale_seconds() -> float:
    return settings.JOB_STALE_SECONDS


class Heartbeat:
    """A running job's sign of life: a file under FILES_DIR (``<job>.alive``) whose
    time is set every ``JOB_HEARTBEAT_SECONDS`` by a thread of the worker. A file, not
    a row: on SQLite a job's transaction (a restore, an import) holds the only write
    lock for minutes, and a beat written to the database would wait for it."""

    def __init__(self, job_id):
        self.path = path_of(alive_name(job_id))
        self.stopped = threading.Event()
        self.thread = None

    def beat(self):
        self.path.touch()
        os.utime(self.path)

    def _run(self):
        while not self.stopped.wait(heartbeat_seconds()):
            try:
                self.beat()
            except OSError:  # a full disk: the next beat may pass; reap judges the silence
                logger.warning("job heartbeat %s not written", self.path.name)

    def start(self):
        self.thread = threading.Thread(target=self._run, name="job-heartbeat", daemon=True)
        self.thread.start()

    def stop(self):
        self.stopped.set()
        if self.thread is not None:
            self.thread.join()
        self.path.unlink(missing_ok=True)


def alive_name(job_id) -> str:
    return f"{uuid.UUID(str(job_id)).hex}.alive"


def reap(now=None) -> int:
    """Fail the running jobs whose worker died: their heartbeat (``Heartbeat``) is
    older than ``JOB_STALE_SECONDS`` (or missing, for a job that old). Their files go
    with the next ``prune``. Run by ``prune``, and by a job's page and its status
    (what the person waiting looks at); returns how many it failed."""
    now = now or timezone.now()
    limit = stale_seconds()
    failed = 0
    old = now - timedelta(seconds=limit)
    running = Job.objects.filter(state=Job.State.RUNNING, created_at__lt=old)
    for pk, options in running.values_list("pk", "options"):
        try:
            beat = path_of(alive_name(pk)).stat().st_mtime
        except FileNotFoundError:
            beat = None
        if beat is not None and now.timestamp() - beat < limit:
            continue
        failed += Job.objects.filter(pk=pk, state=Job.State.RUNNING).update(
            state=Job.State.FAILED,
            error=str(error_messages["worker_stopped"]),
            finished_at=now,
            options={**options, "worker_stopped": True},
        )
        path_of(alive_name(pk)).unlink(missing_ok=True)
        logger.warning("job %s failed: its worker stopped beating", pk)
    return failed


class Progress:
    """``progress(done, total)``: written on the job's row at most every
    ``PROGRESS_EVERY`` seconds (and by ``flush``)."""

    def __init__(self, job):
        self.job = job
        self.last = 0.0
        self.side = None  # the connection that writes apart from the work's transaction
        self.in_own_transaction = False

    def __call__(self, done, total):
        self.job.done, self.job.total = done, total
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY:
            self.flush()
            self.last = now

    def flush(self):
        values = {"done": self.job.done, "total": self.job.total}
        if not (self.in_own_transaction or in_snapshot()):
            Job.objects.filter(pk=self.job.pk).update(**values)
        elif connection.vendor == "postgresql":
            # the work's transaction (the backup's read-only snapshot, a preview rolled
            # back) would write nothing, or show it only at its end: the progress goes
            # through a connection of its own
            self._apart(values)
        # SQLite: nothing until the transaction ends (a writer would wait for its lock);
        # ``run_job`` writes the last figures then

    @contextmanager
    def apart(self):
        """The block runs in a transaction of its own: the progress is written apart
        from it meanwhile. Inside a transaction already (a test's), nothing changes:
        the block's is a savepoint of it, whose writes its connection sees."""
        self.in_own_transaction = not connection.in_atomic_block
        try:
            yield
        finally:
            self.in_own_transaction = False

    def _apart(self, values):
        if self.side is None:
            self.side = connections.create_connection(DEFAULT_DB_ALIAS)
        query = Job.objects.filter(pk=self.job.pk).query.chain(UpdateQuery)
        query.add_update_values(values)
        query.get_compiler(connection=self.side).execute_sql(NO_RESULTS)

    def close(self):
        if self.side is not None:
            self.side.close()
            self.side = None


def _finish(job, state, error=""):
    job.state, job.error, job.finished_at = state, error, timezone.now()
    fields = ["state", "error", "finished_at", "file", "download_name", "summary", "options"]
    fields += ["club", "done", "total"]
    # only a job still running: one failed by ``reap`` meanwhile (its heartbeat late)
    # stays failed, and its file is prune's to remove
    values = {name: getattr(job, name) for name in fields}
    if not Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(**values):
        job.refresh_from_db()
        return
    if job.source and job.kind in (Job.Kind.RESTORE, Job.Kind.UPLOAD, Job.Kind.UPLOAD_PREVIEW):
        _remove(job.source)  # read: not kept


def _remove(name):
    path_of(name).unlink(missing_ok=True)


def _output(job, extension) -> Path:
    job.file = f"{job.pk.hex}.{extension}"
    stamp = timezone.localdate().isoformat()
    if job.season is not None:
        label = slugify(f"{job.club.slug} {job.season.name}") or job.club.slug
        job.download_name = f"{label}.{extension}"
    else:
        job.download_name = f"backup-{job.club.slug}-{stamp}.{extension}"
    # named on the row before a byte is written: a worker dying mid-file leaves a file
    # that ``prune`` knows as the failed job's
    Job.objects.filter(pk=job.pk).update(file=job.file)
    return path_of(job.file)


def _write(path, chunks) -> None:
    # closed at once when writing fails (a full disk): the export's snapshot (a
    # read-only transaction) ends then, not when the error is forgotten, so the job's
    # failure can be recorded (``backup.write`` does the same)
    with closing(chunks), open(path, "w", encoding="utf-8", newline="") as out:
        for text in chunks:
            out.write(text)


def _backup(job, progress):
    with open(_output(job, "json"), "wb") as out:
        counts, digest = backups.write(job.club, out, progress)
    job.options = {**job.options, "counts": counts, "sha256": digest}
    job.summary = backups.summary(counts)


def _season_jsonl(job, progress):
    _write(_output(job, "jsonl"), streams.season_jsonl_chunks(job.season, progress))


def _season_csv(job, progress):
    _write(_output(job, "csv"), streams.csv_chunks(job.season, progress))


def _season_xlsx(job, progress):
    streams.write_xlsx(job.season, _output(job, "xlsx"), progress)


def _upload(job, progress):
    options = job.options
    with open(path_of(job.source), encoding="utf-8") as source:
        found = upload.chunks(source.read(), options["name"])
    outcomes = upload.import_file(
        job.club,
        found,
        name=options["name"],
        digest=options["digest"],
        season=job.season,
        actor=job.user,
        progress=progress,
    )
    good = sum(1 for o in outcomes if o.ok)
    job.options = {
        **options,
        "outcomes": [
            {"line": o.line, "label": o.label, "ok": o.ok, "hands": o.hands, "message": o.message}
            for o in outcomes
        ],
        "good": good,
        "refused": len(outcomes) - good,
    }
    done = ngettext("%(n)s sheet imported", "%(n)s sheets imported", good) % {"n": good}
    job.summary = _summary(done, len(outcomes) - good)


def _upload_preview(job, progress):
    """What the upload would import, sheet by sheet (``upload.preview``: nothing
    written); the preview page (``transfer.views.upload_preview``) shows its outcomes
    and asks for the confirm, which starts the import (``_upload``)."""
    options = job.options
    with open(path_of(job.source), encoding="utf-8") as source:
        found = upload.chunks(source.read(), options["name"])
    progress(0, len(found))
    with progress.apart():
        outcomes = upload.preview(
            job.club, found, season=job.season, actor=job.user, progress=progress
        )
    good = sum(1 for o in outcomes if o.ok)
    job.options = {
        **options,
        "outcomes": [upload.outcome_data(o) for o in outcomes],
        "good": good,
        "refused": len(outcomes) - good,
    }
    done = ngettext("%(n)s sheet can be imported", "%(n)s sheets can be imported", good) % {
        "n": good
    }
    job.summary = _summary(done, len(outcomes) - good)


def _summary(done: str, refused: int) -> str:
    """ "2 sheets imported, 1 refused.": each count with its own plural (French agrees
    "refusée" with 1)."""
    refused_text = npgettext("sheets", "%(n)s refused.", "%(n)s refused.", refused) % {"n": refused}
    return _("%(done)s, %(refused)s") % {"done": done, "refused": refused_text}


def _restore(job, progress):
    progress(0, 1)
    with open(path_of(job.source), "rb") as source:
        # read as a stream (version 3)
        club = backups.restore(source, actor=job.user, logins=set(job.options.get("logins", ())))
    job.club = club
    progress(1, 1)


RUNNERS = {
    Job.Kind.BACKUP: _backup,
    Job.Kind.SEASON_JSONL: _season_jsonl,
    Job.Kind.SEASON_CSV: _season_csv,
    Job.Kind.SEASON_XLSX: _season_xlsx,
    Job.Kind.UPLOAD: _upload,
    Job.Kind.UPLOAD_PREVIEW: _upload_preview,
    Job.Kind.RESTORE: _restore,
}


def prune(now=None) -> dict:
    """Remove the files the jobs no longer need, keeping the jobs' rows (the data
    page's history): a finished job's download after ``settings.JOB_FILES_DAYS``
    days (its page then says the file was removed), a restore previewed and never
    confirmed after ``PENDING_KEPT`` (the job fails, saying so), and files no job
    names after ``ORPHAN_KEPT``; first, the jobs whose worker died are failed
    (``reap``), and a failed job's partial file goes at once, the file it read after
    ``PENDING_KEPT``. Run when a job starts and by ``manage.py
    prune_jobs`` (a daily cron); returns how many of each it removed."""
    now = now or timezone.now()
    kept = timedelta(days=settings.JOB_FILES_DAYS)
    removed = {"downloads": 0, "pending": 0, "orphans": 0, "failed": reap(now)}
    # a failed job's file is partial (a worker died mid-export): never served, removed
    # now; what it read (a dead restore's backup, kept so it may be confirmed again)
    # after PENDING_KEPT
    for job in Job.objects.filter(state=Job.State.FAILED).exclude(file="").only("pk", "file"):
        _remove(job.file)
        Job.objects.filter(pk=job.pk).update(file="")
    dead = Job.objects.filter(state=Job.State.FAILED, finished_at__lt=now - PENDING_KEPT)
    for job in dead.exclude(source="").only("pk", "source"):
        _remove(job.source)
        Job.objects.filter(pk=job.pk).update(source="")
    old = Job.objects.filter(state=Job.State.DONE, finished_at__lt=now - kept).exclude(file="")
    for job in old.only("pk", "file", "options"):
        _remove(job.file)
        options = {**job.options, "expired": True}
        Job.objects.filter(pk=job.pk).update(file="", options=options)
        removed["downloads"] += 1
    stale = Job.objects.filter(state=Job.State.PENDING, created_at__lt=now - PENDING_KEPT)
    for job in stale.only("pk", "source"):
        failed = Job.objects.filter(pk=job.pk, state=Job.State.PENDING).update(
            state=Job.State.FAILED,
            source="",
            error=str(error_messages["not_confirmed"]),
            finished_at=now,
        )
        if failed:  # not confirmed meanwhile: its file is no one's
            if job.source:
                _remove(job.source)
            removed["pending"] += 1
    named = set()
    for file, source in Job.objects.exclude(file="", source="").values_list("file", "source"):
        named.update((file, source))
    running = Job.objects.filter(state__in=[Job.State.QUEUED, Job.State.RUNNING])
    named.update(alive_name(pk) for pk in running.values_list("pk", flat=True))
    limit = (now - ORPHAN_KEPT).timestamp()
    for path in files_dir().iterdir():
        try:
            if path.is_file() and path.name not in named and path.stat().st_mtime < limit:
                path.unlink()
                removed["orphans"] += 1
        except FileNotFoundError:  # removed meanwhile (another prune)
            continue
    return removed


def expire_club_files(club) -> int:
    """Remove the files of the club's finished jobs now, as ``prune`` does after
    ``JOB_FILES_DAYS`` (their pages then say the file was removed): a former player's
    erasure, whose name the backups and exports made before hold. The files go once
    the caller's transaction commits; returns how many."""
    done = Job.objects.filter(club=club, state=Job.State.DONE).exclude(file="")
    count = 0
    for job in done.only("pk", "file", "options"):
        Job.objects.filter(pk=job.pk).update(file="", options={**job.options, "expired": True})
        transaction.on_commit(lambda name=job.file: _remove(name))
        count += 1
    return count


def record_download(job, actor) -> None:
    """A backup leaving the site: who took it, when (``backup_downloaded``)."""
    if job.kind == Job.Kind.BACKUP:
        after = {"sha256": job.options.get("sha256"), "counts": job.options.get("counts")}
        audit.record(
            job.club, actor, audit.Action.BACKUP_DOWNLOADED, label=job.download_name, after=after
        )
