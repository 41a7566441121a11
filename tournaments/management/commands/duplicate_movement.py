"""Print a duplicate movement as JSON, without the database (``DUPLICATE.md`` §6).

    manage.py duplicate_movement --tables T --rounds R

``{"rounds": [[{"table": 1, "set": 3, "seats": [N, E, S, W]}, …], …], "repeated": K}``:
for each round, each table's set and its players (numbered 1 to 4T) in seat order,
and how many repeated meetings the movement has (pairs meeting more than once count
each meeting after the first).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.duplicate.movement import MovementError, movement


class Command(BaseCommand):
    help = "Print the movement of a duplicate event (tables of four) as JSON."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)

    def handle(self, *args, tables, rounds, **options):
        try:
            chosen = movement(tables, rounds)
        except MovementError as error:
            raise CommandError(error.message) from None
        self.stdout.write(json.dumps({**chosen.as_dict(), "repeated": chosen.repeated}))
