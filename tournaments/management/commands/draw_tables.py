"""Draw the tables of a free-deal tournament, without any database.

    manage.py draw_tables --players 24 --rounds 5 [--seed 7] [--incremental]

Prints ``{"rounds": [[[1, 5, 9, 13], ...tables...], ...rounds...]}`` on stdout
(players numbered 1 to N, each table in seat order: North, East, South, West,
fifth) and a one-line summary on stderr: repeated pairs, the most times a pair
met, the spread of seats at tables of 3 and 5, and the time taken.

``--incremental`` draws round after round with ``draw_round``, as during a
tournament where players may come and go, and also times the last round (a
round drawn knowing every earlier one); without it the whole schedule is drawn
in advance with ``draw_schedule``.
"""

import json
import time

from django.core.management.base import BaseCommand, CommandError

from tournaments.draw import DrawError, draw_round, draw_schedule, quality


class Command(BaseCommand):
    help = "Draw the tables of a tournament for N players over R rounds; JSON on stdout."
    # Pure computation: no database, no URLs, so no system checks to run first.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, metavar="N")
        parser.add_argument("--rounds", type=int, required=True, metavar="R")
        parser.add_argument("--seed", default="0", help="any text; the same seed, the same draw")
        parser.add_argument(
            "--incremental",
            action="store_true",
            help="draw one round at a time (draw_round) rather than the whole schedule",
        )

    def handle(self, *args, players, rounds, seed, incremental, **options):
        if rounds < 1:
            raise CommandError("--rounds must be at least 1")
        seed = int(seed) if seed.lstrip("-").isdigit() else seed
        started = time.perf_counter()
        last = 0.0
        try:
            if incremental:
                schedule = []
                for number in range(rounds):
                    begun = time.perf_counter()
                    schedule.append(
                        draw_round(range(1, players + 1), schedule, seed=f"{seed}:{number}")
                    )
                    last = time.perf_counter() - begun
            else:
                schedule = draw_schedule(players, rounds, seed=seed)
        except DrawError as error:
            raise CommandError(str(error)) from None
        elapsed = time.perf_counter() - started
        self.stdout.write(json.dumps({"rounds": schedule}))
        q = quality(schedule)
        how = "round by round" if incremental else "schedule"
        line = (
            f"{players} players x {rounds} rounds ({how}, seed {seed}): "
            f"{q.repeated_pairs} repeated pairs, "
            f"{q.repeated_meetings} repeated meetings, worst pair met {q.max_meetings} times, "
            f"seats at tables of 3/5 per player {q.odd_seats_min}-{q.odd_seats_max}, "
            f"{q.seat_repeats} repeated seat positions; {elapsed:.2f} s"
        )
        if incremental:
            line += f" (last round {last:.2f} s)"
        self.stderr.write(line)
