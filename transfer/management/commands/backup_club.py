"""Write a club's backup (``transfer.backup``) to a file or to standard output."""

import json

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from transfer.backup import backup, summary


class Command(BaseCommand):
    help = "Back up a whole club (members, seasons, sheets, hands, history) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, metavar="SLUG")
        parser.add_argument("--output", "-o", help="a file (default: standard output)")

    def handle(self, *args, club, output, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club has the slug {club!r}")
        data = backup(found)
        text = json.dumps(data, ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            self.stdout.write(text)
        # what was written, on standard error when the backup itself went to standard output
        where = output or "standard output"
        report = self.stdout if output else self.stderr
        report.write(f"{found.slug} to {where}: {summary(data['counts'])}")
