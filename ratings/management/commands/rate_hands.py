"""Rate the players of sheets in the interchange format, with no database.

    manage.py rate_hands [--rules fft] < sheets.jsonl

One sheet per line, as ``import_sheets`` reads them (HAND_FORMAT.md, with ``date``
and ``rules`` optional): each line is read and scored by the import's own reading
(``scoresheet.importing.read_sheet``), the sheets are rated in date order (the file's order on
one date), each hand a match (``tarot.rating``) rated by ``ratings.compute`` as the
pages' ratings are, and every player's rating is printed as the pages show it
(``ratings.compute.shown``: the conservative estimate μ − 3σ rescaled, and its
spread), ranked by it, with μ, σ and the hands rated (a player under
``MIN_HANDS`` hands last, ranked "-"). A refused line is reported on stderr and the
command exits with 1.
"""

import sys

from django.core.management.base import BaseCommand, CommandError

from ratings.compute import Rater
from ratings.queries import rated_rows
from scoresheet.importing import read_sheet
from scoresheet.services import LedgerError
from tarot.jsonformat import parse_rules
from tarot.rating import result_seats


class Command(BaseCommand):
    help = "Print every player's rating from sheets in the interchange format (stdin)."

    def add_arguments(self, parser):
        parser.add_argument("--rules", default="fft", help="rules of a line without any")
        parser.add_argument("file", nargs="?", help="a file instead of stdin")

    def handle(self, *args, rules, file=None, **options):
        stream = open(file, encoding="utf-8") if file else sys.stdin  # noqa: SIM115
        default = {"preset": rules}
        sheets, refused = [], 0
        with stream:
            for number, text in enumerate(stream, start=1):
                if not text.strip():
                    continue
                try:
                    line = read_sheet(text, rules=default)
                except LedgerError as error:
                    refused += 1
                    self.stderr.write(f"line {number}: {error.message}")
                    continue
                sheets.append((line.date, number, parse_rules(line.rules).kind, line.results))
        rater = Rater()
        for _date, _number, kind, results in sorted(sheets, key=lambda s: (s[0], s[1])):
            for result in results:
                rater.rate_seats(kind, result_seats(result))
        rows = rated_rows((name, rater.get(name)) for name in rater.players())
        for row in rows:
            self.stdout.write(line_of(row))
        if refused:
            raise CommandError(f"{refused} line(s) refused")


def line_of(row) -> str:
    """One player's line (a ``queries.RatedRow``)."""
    rank = "-" if row.rank is None else row.rank
    return (
        f"{rank:>4}  {row.name:<30} rating {row.ordinal:7.1f}  "
        f"estimate {row.estimate:7.1f} ± {row.spread:5.1f}  "
        f"μ {row.mu:7.3f}  σ {row.sigma:6.3f}  hands {row.hands}"
    )
