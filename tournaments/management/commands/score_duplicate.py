"""Score duplicate events from JSON Lines, without the database (``DUPLICATE.md`` §5).

    manage.py score_duplicate < events.jsonl > results.jsonl

Each input line is an event; each gives exactly one output line, in order: its
ranking and every seat's deal score, or ``{"error": {...}}`` (a blank line too, so
output line *n* answers input line *n*). A refused event does not stop the run.
"""

from django.core.management.base import BaseCommand

from core.jsonlines import answer_lines
from tournaments.duplicate.event_ranking import score_event_line

BLANK = {"error": {"code": "json_invalid", "message": "an empty line; each line holds an event"}}


class Command(BaseCommand):
    help = "Read duplicate events as JSON Lines on stdin; write one result line per event."
    requires_system_checks = []  # pure scoring: no models, no database
    stealth_options = ("stdin",)

    def handle(self, *args, stdin=None, **options):
        answer_lines(
            self,
            stdin,
            score_event_line,
            blank=BLANK,
            refused=lambda message: {"error": {"code": "json_invalid", "message": message}},
            own_stdout=options.get("stdout") is None,
        )
