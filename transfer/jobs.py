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

import hashlib
import logging
import time
import uuid
from contextlib import closing, contextmanager
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
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


def confirm_restore(job, *, actor) -> bool:
    """Queue a previewed restore, once (False: it was queued already)."""
    if actor is None or not actor.is_staff:
        raise JobError("not_staff", str(error_messages["not_staff"]))
    queued = Job.objects.filter(pk=job.pk, state=Job.State.PENDING).update(
        state=Job.State.QUEUED, user=actor
    )
    if queued:
        enqueue(job)
    return bool(queued)


@task()
def run_job(job_id: str) -> str:
    """Do the job (once: a job not waiting is left alone); returns its state."""
    claimed = Job.objects.filter(pk=job_id, state=Job.State.QUEUED).update(state=Job.State.RUNNING)
    if not claimed:
        return "skipped"
    job = Job.objects.select_related("club", "season", "user").get(pk=job_id)
    progress = Progress(job)
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
    return job.state


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
    job.save(update_fields=fields)
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
        club = backups.restore(source, actor=job.user)  # read as a stream (version 3)
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
    names after ``ORPHAN_KEPT``. Run when a job starts and by ``manage.py
    prune_jobs`` (a daily cron); returns how many of each it removed."""
    now = now or timezone.now()
    kept = timedelta(days=settings.JOB_FILES_DAYS)
    removed = {"downloads": 0, "pending": 0, "orphans": 0}
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
    limit = (now - ORPHAN_KEPT).timestamp()
    for path in files_dir().iterdir():
        try:
            if path.is_file() and path.name not in named and path.stat().st_mtime < limit:
                path.unlink()
                removed["orphans"] += 1
        except FileNotFoundError:  # removed meanwhile (another prune)
            continue
    return removed


def record_download(job, actor) -> None:
    """A backup leaving the site: who took it, when (``backup_downloaded``)."""
    if job.kind == Job.Kind.BACKUP:
        after = {"sha256": job.options.get("sha256"), "counts": job.options.get("counts")}
        audit.record(
            job.club, actor, audit.Action.BACKUP_DOWNLOADED, label=job.download_name, after=after
        )


def digest_of(name: str) -> str:
    sha = hashlib.sha256()
    with open(path_of(name), "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()
