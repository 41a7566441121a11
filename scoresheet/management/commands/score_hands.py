"""Score hands and sheets from JSON Lines, without the database.

    manage.py score_hands < hands.jsonl > scores.jsonl
    manage.py score_hands --explain < hands.jsonl

Each input line is a hand or a sheet in the format of HAND_FORMAT.md; each gives
exactly one output line, in order: the result, or ``{"error": {...}}`` for a line
that is refused (a blank line is refused too, as ``json_invalid``, so output line
*n* always answers input line *n*). A refused line does not stop the run; the
command exits 0 once every line is read. Input is read a line at a time, so a file
of any size streams through. Input is UTF-8; output is UTF-8 JSON, names
unescaped.
"""

from django.core.management.base import BaseCommand

from core.jsonlines import answer_lines
from tarot.errors import ScoringError
from tarot.jsonformat import score_line

BLANK = ScoringError(
    "json_invalid", "an empty line; each line must hold a JSON object (a hand or a sheet)"
).as_dict()


class Command(BaseCommand):
    help = (
        "Read hands or sheets as JSON Lines on stdin and write one JSON line of scores "
        "(or an error object) per input line to stdout."
    )
    requires_system_checks = []  # pure scoring: no models, no database
    # call_command(..., stdin=StringIO(...)) in tests
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument(
            "--explain",
            action="store_true",
            help="add each hand's explanation in English (the sum it comes from)",
        )

    def handle(self, *args, explain=False, stdin=None, **options):
        answer_lines(
            self,
            stdin,
            lambda line: score_line(line, explain),
            blank=BLANK,
            refused=lambda message: ScoringError("json_invalid", message).as_dict(),
            own_stdout=options.get("stdout") is None,
        )
