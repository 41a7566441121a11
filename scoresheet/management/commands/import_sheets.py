from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from scoresheet.importing import import_sheets


class Command(BaseCommand):
    help = (
        "Import score sheets (JSON Lines, one sheet per line, HAND_FORMAT.md) into a club. "
        "Each line is all or nothing; a refused line or an unreadable file is one error "
        "line (with its line number and reason) and the import goes on. Players are matched "
        "by name ignoring case and accents, and created when new. Prints a summary; exits 1 "
        "if anything was refused. On PostgreSQL, --writers sheets are read and written at "
        "once, in child processes (default 2; lines that create players are written alone)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--season", help="put every sheet in this season (by name)")
        parser.add_argument(
            "--writers",
            type=int,
            default=2,
            help="sheets written at once on PostgreSQL, each in a process of its own (default 2)",
        )
        parser.add_argument("files", nargs="+", metavar="file", help="a .jsonl file, or -")

    def handle(self, *args, club, season, files, writers, **options):
        try:
            club = Club.objects.get(slug=club)
        except Club.DoesNotExist:
            raise CommandError(f"No club with slug {club!r}") from None
        if season is not None:
            season_obj = club.seasons.filter(name=season).first()
            if season_obj is None:
                raise CommandError(f"No season {season!r} in {club.name}")
            season = season_obj
        imported = refused = hands = bad_files = 0
        for file in files:
            prefix = "" if len(files) == 1 else f"{file}: "
            try:
                stream = self.stdin if file == "-" else open(file, "rb")  # noqa: SIM115
            except OSError as error:
                bad_files += 1
                self.stderr.write(f"{file}: cannot read: {error.strerror or error}")
                continue
            try:
                for result in import_sheets(club, stream, season=season, writers=writers):
                    if result.ok:
                        imported += 1
                        hands += result.hands
                        continue
                    refused += 1
                    where = f" (hand {result.hand})" if result.hand else ""
                    self.stderr.write(
                        f"{prefix}line {result.line}: refused{where}: "
                        f"{result.code}: {_one_line(result.message)}"
                    )
            except OSError as error:  # a read failing half-way (a directory, a device…)
                bad_files += 1
                self.stderr.write(f"{file}: cannot read: {error.strerror or error}")
            finally:
                if stream is not self.stdin:
                    stream.close()
        summary = f"imported {imported} sheets ({hands} hands), refused {refused} lines"
        if bad_files:
            summary += f", {bad_files} unreadable file(s)"
        self.stdout.write(summary)
        if refused or bad_files:
            raise CommandError(f"{refused + bad_files} refused", returncode=1)

    @property
    def stdin(self):
        import sys

        return sys.stdin.buffer


def _one_line(text) -> str:
    return " ".join(str(text).split())
