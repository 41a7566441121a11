"""Write a club's backup (``transfer.backup``) to a file or to standard output."""

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from transfer.backup import dumps


class Command(BaseCommand):
    help = "Back up a whole club (members, seasons, sheets, hands, history) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, metavar="SLUG")
        parser.add_argument("--output", "-o", help="a file (default: standard output)")

    def handle(self, *args, club, output, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club has the slug {club!r}")
        text = dumps(found)
        if output:
            with open(output, "w", encoding="utf-8") as out:
                out.write(text + "\n")
        else:
            self.stdout.write(text)
