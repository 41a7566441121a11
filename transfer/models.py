"""Background work of the data page (``transfer.jobs``): one row per job, what the
page polls for its progress bar.

A job is queued (``django_tasks``' database queue), runs in ``manage.py db_worker``
and counts its progress (``done`` of ``total`` rows or sheets) as it goes; it ends
``done`` with its file (under ``settings.FILES_DIR``) or ``failed`` with its error.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    class Kind(models.TextChoices):
        BACKUP = "backup", _("club backup")
        SEASON_JSONL = "season_jsonl", _("season sheets (JSON Lines)")
        SEASON_XLSX = "season_xlsx", _("season scores (Excel)")
        SEASON_CSV = "season_csv", _("season scores (CSV)")
        UPLOAD = "upload", _("upload of sheets")
        UPLOAD_PREVIEW = "upload_preview", _("check of an upload")
        RESTORE = "restore", _("club restore")

    class State(models.TextChoices):
        PENDING = "pending", _("to confirm")  # a restore's preview, not queued yet
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    #: the club whose data it reads or writes (a restore: the club restored, once done)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    season = models.ForeignKey(
        "clubs.Season", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    done = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(default=0)
    #: the file it reads (an upload, a backup to restore), under FILES_DIR
    source = models.CharField(max_length=200, blank=True)
    #: the file it wrote, under FILES_DIR, and the name it is downloaded as
    file = models.CharField(max_length=200, blank=True)
    download_name = models.CharField(max_length=200, blank=True)
    #: what the work needs (the upload's name, digest, season; the language) and
    #: what it found (the upload's outcomes, a backup's counts and digest)
    options = models.JSONField(default=dict, blank=True)
    summary = models.TextField(blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.kind} {self.pk} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        return min(99, self.done * 100 // self.total) if self.total else 0
