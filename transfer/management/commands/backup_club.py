"""Write a club's backup (``transfer.backup``) to a file or to standard output, in
chunks (memory stays flat), and leave an audit entry in the club's trail: the
command's (no login), which file, its SHA-256 and its rows of each model."""

import hashlib

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from clubs import audit
from clubs.models import Club
from transfer.backup import chunks, summary, write


class Command(BaseCommand):
    help = "Back up a whole club (members, seasons, sheets, hands, history) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, metavar="SLUG")
        parser.add_argument("--output", "-o", help="a file (default: standard output)")

    def handle(self, *args, club, output, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club has the slug {club!r}")
        if output:
            try:
                with open(output, "wb") as out:
                    counts, digest = write(found, out)
            except OSError as error:
                raise CommandError(f"{output}: {error.strerror}") from None
        else:
            counts, sha = {}, hashlib.sha256()
            for text in chunks(found, counts=counts):
                sha.update(text.encode())
                self.stdout.write(text, ending="")
            self.stdout.write("")
            digest = sha.hexdigest()
        where = output or "standard output"
        # the whole club's data, members' emails included, left the site: which file, when
        label = output or f"backup-{found.slug}-{timezone.localdate().isoformat()}.json"
        after = {"sha256": digest, "counts": counts, "to": where}
        audit.record(found, None, audit.Action.BACKUP_DOWNLOADED, label=label[:200], after=after)
        # what was written, on standard error when the backup itself went to standard output
        report = self.stdout if output else self.stderr
        report.write(
            f"{found.slug} to {where} (sha256 {digest[:16]}…): {summary(counts)}; "
            "recorded in the club's history"
        )
