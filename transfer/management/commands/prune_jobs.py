"""Remove the background jobs' files nobody needs any more (``transfer.jobs.prune``):
downloads older than ``JOB_FILES_DAYS`` days, restores never confirmed, files no job
names. Meant for a daily cron; a job's start runs it too."""

from django.core.management.base import BaseCommand

from transfer import jobs


class Command(BaseCommand):
    help = "Remove old files of background jobs (downloads kept JOB_FILES_DAYS days)."

    def handle(self, *args, **options):
        removed = jobs.prune()
        self.stdout.write(
            f"{removed['downloads']} downloads, {removed['pending']} unconfirmed restores, "
            f"{removed['orphans']} stray files removed; "
            f"{removed['failed']} jobs whose worker stopped failed"
        )
