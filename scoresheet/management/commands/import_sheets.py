from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from scoresheet.importing import import_sheets


class Command(BaseCommand):
    help = (
        "Import score sheets (JSON Lines, one sheet per line, HAND_FORMAT.md) into a club. "
        "Each line is all or nothing; players are matched by name and created when new. "
        "Exits 1 if any line was refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--season", help="put every sheet in this season (by name)")
        parser.add_argument("file", help="a .jsonl file, or - for standard input")

    def handle(self, *args, club, season, file, **options):
        try:
            club = Club.objects.get(slug=club)
        except Club.DoesNotExist:
            raise CommandError(f"No club with slug {club!r}") from None
        if season is not None:
            season_obj = club.seasons.filter(name=season).first()
            if season_obj is None:
                raise CommandError(f"No season {season!r} in {club.name}")
            season = season_obj
        stream = self.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
        imported = refused = hands = 0
        try:
            for result in import_sheets(club, stream, season=season):
                if result.ok:
                    imported += 1
                    hands += result.hands
                    continue
                refused += 1
                where = f" (hand {result.hand})" if result.hand else ""
                self.stderr.write(
                    f"line {result.line}: refused{where}: {result.code}: {result.message}"
                )
        finally:
            if stream is not self.stdin:
                stream.close()
        self.stdout.write(f"imported {imported} sheets ({hands} hands), refused {refused} lines")
        if refused:
            raise CommandError(f"{refused} line(s) refused", returncode=1)

    @property
    def stdin(self):
        import sys

        return sys.stdin
