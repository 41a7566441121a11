"""Restore a club's backup (``transfer.backup``) into this site, which must not hold it."""

from django.core.management.base import BaseCommand, CommandError

from transfer.backup import BackupError, club_rows, restore, summary


class Command(BaseCommand):
    help = "Restore a club from the file backup_club (or the club's data page) wrote."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            source = open(file, "rb")  # noqa: SIM115 (read as a stream, closed below)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        try:
            with source:
                club = restore(source)
        except BackupError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        counts = {m._meta.label_lower: rows.count() for m, rows in club_rows(club).items()}
        self.stdout.write(f"restored {club.slug}: {club.name} ({summary(counts)})")
