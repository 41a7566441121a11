"""A plain local search of a whole schedule: the yardstick ``draw_schedule`` is held to.

Random rounds whose tables of 3 and 5 go to the players who had them least (so the
spread is even at the end), then random swaps of two players of a round, kept when
the repeated meetings do not grow and nobody's seats at tables of 3 or 5 leave the
even spread. No tabu, no restarts, no plan: what any search should at least reach.
"""

from __future__ import annotations

import itertools
import random

from .sizes import Round, odd_seat_bounds, table_sizes


def _first_rounds(n: int, rounds: int, rng: random.Random) -> tuple[list[Round], list[int]]:
    sizes = table_sizes(n)
    odd_seats = sum(s for s in sizes if s != 4)
    counts = [0] * n
    schedule: list[Round] = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=lambda x: counts[x])
        odd, rest = order[:odd_seats], order[odd_seats:]
        tables = []
        for size in sizes:
            source = odd if size != 4 else rest
            tables.append(source[:size])
            del source[:size]
        for x in order[:odd_seats]:
            counts[x] += 1
        schedule.append(tables)
    return schedule, counts


def plain_search(n_players: int, rounds: int, *, seed: int | str = 0, moves: int = 200_000):
    """A schedule (players 1 to ``n_players``) with an even spread of the tables of 3
    and 5, improved by ``moves`` random swaps kept when they cost no more meetings."""
    n, rng = n_players, random.Random(seed)
    low, high = odd_seat_bounds(n, rounds, 1)
    schedule, counts = _first_rounds(n, rounds, rng)
    meet = [[0] * n for _ in range(n)]
    where = [[0] * n for _ in range(rounds)]
    for r, tables in enumerate(schedule):
        for t, table in enumerate(tables):
            for x in table:
                where[r][x] = t
            for a, b in itertools.permutations(table, 2):
                meet[a][b] += 1

    def change(table, leaving, coming):
        """What ``coming`` taking ``leaving``'s seat at ``table`` changes in the repeats."""
        return sum((meet[coming][c] >= 1) - (meet[leaving][c] >= 2) for c in table if c != leaving)

    def move(table, leaving, coming):
        for c in table:
            if c != leaving:
                meet[leaving][c] -= 1
                meet[c][leaving] -= 1
                meet[coming][c] += 1
                meet[c][coming] += 1
        table[table.index(leaving)] = coming

    for _ in range(moves):
        r, a, b = rng.randrange(rounds), rng.randrange(n), rng.randrange(n)
        ta, tb = where[r][a], where[r][b]
        if ta == tb:
            continue
        table_a, table_b = schedule[r][ta], schedule[r][tb]
        odd_a, odd_b = len(table_a) != 4, len(table_b) != 4
        if odd_a != odd_b:
            leaving, joining = (a, b) if odd_a else (b, a)
            if counts[leaving] <= low or counts[joining] >= high:
                continue
        delta = change(table_a, a, b) + change(table_b, b, a)
        if delta <= 0:
            move(table_a, a, b)
            move(table_b, b, a)
            where[r][a], where[r][b] = tb, ta
            if odd_a != odd_b:
                counts[leaving] -= 1
                counts[joining] += 1
    return [[[x + 1 for x in table] for table in tables] for tables in schedule]
