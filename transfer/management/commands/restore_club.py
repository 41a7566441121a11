"""Restore a club's backup (``transfer.backup``) into this site, which must not hold it."""

from django.core.management.base import BaseCommand, CommandError

from transfer.backup import BackupError, club_rows, restore, summary
from transfer.named import EVERY_LOGIN


class Command(BaseCommand):
    help = (
        "Restore a club from the file backup_club (or the club's data page) wrote. The "
        "logins it names get their role in the club (membership) or their player only "
        "when confirmed: --login USERNAME for each, or --every-login."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--login",
            action="append",
            default=[],
            dest="logins",
            metavar="USERNAME",
            help="a login whose role in the club the file gives is confirmed (repeat it)",
        )
        parser.add_argument(
            "--every-login",
            action="store_true",
            help="confirm every login the file names (a backup you made yourself)",
        )

    def handle(self, *args, file, logins, every_login, **options):
        try:
            source = open(file, "rb")  # noqa: SIM115 (read as a stream, closed below)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}") from None
        try:
            with source:
                club = restore(source, logins=EVERY_LOGIN if every_login else set(logins))
        except BackupError as error:
            raise CommandError(f"{error.code}: {error.message}") from None
        counts = {m._meta.label_lower: rows.count() for m, rows in club_rows(club).items()}
        self.stdout.write(f"restored {club.slug}: {club.name} ({summary(counts)})")
        entry = club.audit_entries.filter(action="club_restored").first()
        left_out = (entry.after or {}).get("logins_left_out") if entry else None
        if left_out:
            self.stdout.write("left out (not confirmed with --login): " + ", ".join(left_out))
