"""Draw the tables of a free-deal tournament, without any database.

    manage.py draw_tables --players 24 --rounds 5 [--seed 7] [--incremental]
                          [--spread 1|2|...|any] [--effort 3]
    manage.py draw_tables --stats [--seed 1] [--spread ...] [--effort ...] [--compare]

Prints ``{"rounds": [[[1, 5, 9, 13], ...tables...], ...rounds...]}`` on stdout
(players numbered 1 to N, each table in seat order: North, East, South, West,
fifth) and a one-line summary on stderr: repeated meetings against the least
possible the draw knows of, the spread of seats at tables of 3 and 5, and the
time taken.

``--compare`` (with ``--stats``) adds the repeated meetings of a plain local search
under an even spread (``tournaments.draw.plain``), the yardstick of the default draw.

``--incremental`` draws round after round with ``draw_round``, as during a
tournament where players may come and go, and also times the last round (a
round drawn knowing every earlier one); without it the whole schedule is drawn
in advance with ``draw_schedule``. ``--spread`` bounds the difference between
the players' seats at tables of 3 or 5 (1, the default: evenly; ``any``: no
rule). ``--stats`` draws the benchmark sizes (``STATS_SIZES``) and prints one
line a size: repeated meetings, the lower bound, the spread, the seconds (the
clock's, and the CPU's: on a busy machine the clock's count other programs).
"""

import json
import time

from django.core.management.base import BaseCommand, CommandError

from tournaments.draw import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    SCHEDULE_EFFORT,
    DrawError,
    draw_round,
    draw_schedule,
    least_repeats,
    quality,
    table_sizes,
)
from tournaments.draw.plain import plain_search

#: Sizes organisers reported (players, rounds), then large tournaments.
STATS_SIZES = [
    (12, 4),
    (22, 4),
    (13, 4),
    (17, 4),
    (18, 5),
    (21, 5),
    (22, 5),
    (26, 6),
    (30, 6),
    (16, 5),
    (20, 5),
    (24, 5),
    (32, 6),
    (40, 7),
    (98, 6),
    (99, 6),
    (100, 6),
    (7, 4),
    (11, 5),
    (57, 9),
]


def _spread(value: str) -> int | None:
    if value == "any":
        return None
    try:
        spread = int(value)
    except ValueError:
        raise CommandError("--spread is a whole number of seats, or 'any'") from None
    if spread < 1:
        raise CommandError("--spread must be at least 1")
    return spread


class Command(BaseCommand):
    help = "Draw the tables of a tournament for N players over R rounds; JSON on stdout."
    # Pure computation: no database, no URLs, so no system checks to run first.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, metavar="N")
        parser.add_argument("--rounds", type=int, metavar="R")
        parser.add_argument("--seed", default="0", help="any text; the same seed, the same draw")
        parser.add_argument(
            "--incremental",
            action="store_true",
            help="draw one round at a time (draw_round) rather than the whole schedule",
        )
        parser.add_argument(
            "--spread",
            default="1",
            help="most seats at tables of 3/5 a player may have beyond another (1), or 'any'",
        )
        parser.add_argument(
            "--effort", type=float, default=SCHEDULE_EFFORT, help="the search's length"
        )
        parser.add_argument(
            "--stats", action="store_true", help="draw the benchmark sizes, one line each"
        )
        parser.add_argument(
            "--compare",
            action="store_true",
            help="with --stats: also the repeated meetings of a plain local search (draw.plain)",
        )

    def handle(
        self, *args, players, rounds, seed, incremental, spread, effort, stats, compare, **options
    ):
        seed = int(seed) if seed.lstrip("-").isdigit() else seed
        spread = _spread(spread)
        if effort < 0:
            raise CommandError("--effort cannot be negative")
        if stats:
            self._stats(seed, spread, effort, compare)
            return
        if players is None or rounds is None:
            raise CommandError("--players and --rounds are required (or --stats)")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise CommandError(f"--rounds must be from 1 to {MAX_ROUNDS}")
        if not 3 <= players <= MAX_PLAYERS:
            raise CommandError(f"--players must be from 3 to {MAX_PLAYERS}")
        started, cpu = time.perf_counter(), time.process_time()
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
                schedule = draw_schedule(players, rounds, seed=seed, spread=spread, effort=effort)
        except DrawError as error:
            raise CommandError(str(error)) from None
        elapsed = time.perf_counter() - started
        self.stdout.write(json.dumps({"rounds": schedule}))
        line = self._line(players, rounds, schedule, elapsed, time.process_time() - cpu)
        how = "round by round" if incremental else "schedule"
        line = line.replace(":", f" ({how}, seed {seed}):", 1)
        if incremental:
            line += f" (last round {last:.2f} s)"
        self.stderr.write(line)

    def _line(self, players, rounds, schedule, elapsed, cpu) -> str:
        q = quality(schedule)
        even = q.odd_seats_max - q.odd_seats_min <= 1  # the least of an evenly spread draw
        bound = least_repeats([table_sizes(players)] * rounds, players, even_spread=even)
        return (
            f"{players} players x {rounds} rounds: "
            f"{q.repeated_meetings} repeated meetings (least possible known {bound}), "
            f"{q.repeated_pairs} repeated pairs, worst pair met {q.max_meetings} times, "
            f"seats at tables of 3/5 per player {q.odd_seats_min}-{q.odd_seats_max}, "
            f"{q.seat_repeats} repeated seat positions; {elapsed:.2f} s ({cpu:.2f} s of CPU)"
        )

    def _stats(self, seed, spread, effort, compare=False) -> None:
        self.stdout.write(f"seed {seed}, spread {spread or 'any'}, effort {effort}")
        total = total_cpu = 0.0
        for players, rounds in STATS_SIZES:
            started, cpu = time.perf_counter(), time.process_time()
            schedule = draw_schedule(players, rounds, seed=seed, spread=spread, effort=effort)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            total += elapsed
            total_cpu += cpu
            line = self._line(players, rounds, schedule, elapsed, cpu)
            if compare:
                plain = quality(plain_search(players, rounds, seed=seed)).repeated_meetings
                line += f"; a plain local search: {plain}"
            self.stdout.write(line)
        self.stdout.write(f"total {total:.1f} s ({total_cpu:.1f} s of CPU)")
