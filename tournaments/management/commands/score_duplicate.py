"""Score duplicate events from JSON Lines, without the database (``DUPLICATE.md`` §5).

    manage.py score_duplicate < events.jsonl > results.jsonl

Each input line is an event; each gives exactly one output line, in order: its
ranking and every seat's deal score, or ``{"error": {...}}`` (a blank line too, so
output line *n* answers input line *n*). A refused event does not stop the run.
"""

import json
import sys

from django.core.management.base import BaseCommand

from tournaments.duplicate import score_event_line

BLANK = {"error": {"code": "json_invalid", "message": "an empty line; each line holds an event"}}


class Command(BaseCommand):
    help = "Read duplicate events as JSON Lines on stdin; write one result line per event."
    requires_system_checks = []  # pure scoring: no models, no database
    stealth_options = ("stdin",)

    def handle(self, *args, stdin=None, **options):
        if stdin is None:
            stdin = sys.stdin.buffer
        if options.get("stdout") is None and hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(encoding="utf-8")
        dumps = json.JSONEncoder(ensure_ascii=False).encode
        for line in stdin:
            if isinstance(line, bytes):
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError as error:
                    message = f"not UTF-8 text: {error}"
                    self.stdout.write(
                        dumps({"error": {"code": "json_invalid", "message": message}})
                    )
                    continue
            if not line or line.isspace():
                self.stdout.write(dumps(BLANK))
                continue
            self.stdout.write(dumps(score_event_line(line)))
