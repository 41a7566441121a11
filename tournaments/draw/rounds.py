"""One round drawn for the players present, knowing the rounds before; the seats."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from .measures import _again, meeting_counts, odd_table_counts
from .sizes import DrawError, Round, table_sizes

#: Iterations of the tabu search of one round (all restarts together).
ROUND_ITERATIONS = 1500
#: Iterations without improvement before a round's search restarts.
ROUND_STALL = 150


def _round_search(
    n: int,
    sizes: list[int],
    weights: list[int],
    penalty: list[int],
    rng: random.Random,
    iterations: int,
) -> list[list[int]]:
    """Tables (of indices 0..n-1) minimising pair weights plus odd-table penalties.

    ``weights[a * n + b]`` is what seating a and b together costs (symmetric, 0
    on the diagonal); ``penalty[a]`` what seating a at a table of 3 or 5 costs.
    Greedy construction, then a tabu search over swaps of two players between
    tables, restarted from a new greedy draw when it stalls.
    """
    k = len(sizes)
    odd = [size != 4 for size in sizes]
    odd_seats = sum(size for size in sizes if size != 4)
    floor = sum(sorted(penalty)[:odd_seats])  # no draw costs less
    best_tables: list[list[int]] = []
    best_cost = None
    used = 0
    while used < iterations and best_cost != floor:
        # Greedy: players in random order, each at the cheapest table with room.
        order = list(range(n))
        rng.shuffle(order)
        tables: list[list[int]] = [[] for _ in sizes]
        for x in order:
            choice, low, ties = -1, None, 0
            for t in range(k):
                if len(tables[t]) == sizes[t]:
                    continue
                row = x * n
                cost = sum(weights[row + y] for y in tables[t]) + (penalty[x] if odd[t] else 0)
                if low is None or cost < low:
                    choice, low, ties = t, cost, 1
                elif cost == low:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        choice = t
            tables[choice].append(x)
        tables, cost, spent = _round_tabu(
            n, tables, odd, weights, penalty, floor, rng, iterations - used
        )
        used += spent + 1
        if best_cost is None or cost < best_cost:
            best_tables, best_cost = tables, cost
    return best_tables


def _round_tabu(
    n: int,
    tables: list[list[int]],
    odd: list[bool],
    weights: list[int],
    penalty: list[int],
    floor: int,
    rng: random.Random,
    budget: int,
) -> tuple[list[list[int]], int, int]:
    """Tabu search from ``tables``: (best tables, their cost, iterations spent)."""
    k = len(tables)
    where = [0] * n
    for t, table in enumerate(tables):
        for x in table:
            where[x] = t
    # sums[x][t]: what x costs with the players of table t (x itself excluded).
    sums = [[sum(weights[x * n + y] for y in table) for table in tables] for x in range(n)]
    cost = sum(sums[x][where[x]] for x in range(n)) // 2
    cost += sum(penalty[x] for x in range(n) if odd[where[x]])
    best_cost, best_tables = cost, [list(t) for t in tables]
    tabu = [0] * (n * k)  # tabu[x * k + t]: x may not go back to t before this iteration
    last_gain = 0
    it = 0
    while it < budget and best_cost != floor and it - last_gain < ROUND_STALL:
        it += 1
        even_penalties = [penalty[x] for x in range(n) if not odd[where[x]]]
        low_even = min(even_penalties) if even_penalties else 0
        candidates = [
            x for x in range(n) if sums[x][where[x]] or (odd[where[x]] and penalty[x] > low_even)
        ]
        move, low, ties = None, None, 0
        for a in candidates:
            ta = where[a]
            sa = sums[a]
            row = a * n
            leave_a = sa[ta]
            for b in range(n):
                tb = where[b]
                if tb == ta:
                    continue
                sb = sums[b]
                delta = sa[tb] - leave_a + sb[ta] - sb[tb] - 2 * weights[row + b]
                if odd[ta] != odd[tb]:
                    delta += penalty[b] - penalty[a] if odd[ta] else penalty[a] - penalty[b]
                if (tabu[a * k + tb] > it or tabu[b * k + ta] > it) and cost + delta >= best_cost:
                    continue
                if low is None or delta < low:
                    move, low, ties = (a, b), delta, 1
                elif delta == low:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        move = (a, b)
        if move is None:
            break
        a, b = move
        ta, tb = where[a], where[b]
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta
        for x in range(n):
            wa, wb = weights[x * n + a], weights[x * n + b]
            sums[x][ta] += wb - wa
            sums[x][tb] += wa - wb
        cost += low
        tabu[a * k + ta] = it + rng.randint(3, 10)
        tabu[b * k + tb] = it + rng.randint(3, 10)
        if cost < best_cost:
            best_cost, best_tables = cost, [list(t) for t in tables]
            last_gain = it
    return best_tables, best_cost, it


def _present(players: Iterable[int]) -> list[int]:
    listed = list(players)
    present = sorted(set(listed))
    if len(present) != len(listed):
        raise DrawError("A player is listed twice among those present.")
    return present


def _check_round(round_tables: Sequence[Sequence[int]]) -> None:
    seated = [p for table in round_tables for p in table]
    if len(seated) != len(set(seated)):
        raise DrawError("A player is seated twice in the same round.")


def draw_round(
    players: Iterable[int],
    history: Sequence[Sequence[Sequence[int]]] = (),
    *,
    seed: int | str | None = 0,
    iterations: int = ROUND_ITERATIONS,
    forbidden: Iterable[tuple[int, int]] = (),
    even_spread: bool = True,
) -> Round:
    """Draw the next round's tables for the ``players`` present.

    ``history`` holds the previous rounds' tables (each in seat order); it may
    name players who are no longer present. ``forbidden`` lists pairs who must
    never sit together (teammates): such a pair costs more than every meeting
    and odd-table seat of the round together, so the search seats them apart
    whenever the tables allow it. ``even_spread=False`` makes the seats at tables
    of 3 and 5 a tie-break after the meetings instead of a rule met first (the
    organiser's choice: fewer repeated meetings, some players at a table of 5 more
    often). Returns the tables, each listing its players in seat order (North,
    East, South, West, fifth).
    """
    present = _present(players)
    sizes = table_sizes(len(present))
    for round_tables in history:
        _check_round(round_tables)
    rng = random.Random(seed)
    tables = _draw_indices(
        present, sizes, history, rng, iterations, forbidden, even_spread=even_spread
    )
    return _assign_seats([[present[x] for x in table] for table in tables], history, rng)


def _draw_indices(
    present: list[int],
    sizes: list[int],
    history: Sequence[Sequence[Sequence[int]]],
    rng: random.Random,
    iterations: int,
    forbidden: Iterable[tuple[int, int]] = (),
    odd_players: set[int] | None = None,
    even_spread: bool = True,
) -> list[list[int]]:
    n = len(present)
    index = {p: i for i, p in enumerate(present)}
    weights = [0] * (n * n)
    for (a, b), times in meeting_counts(history).items():
        if a in index and b in index:
            i, j = index[a], index[b]
            weights[i * n + j] = weights[j * n + i] = _again(times)
    # The spread of odd-table seats is a rule, met first: one seat more at a
    # table of 3 or 5 costs more than all the meetings of a round can, so the
    # odd tables go to the players who had them least, and the meetings decide
    # only among those.
    pairs = sum(size * (size - 1) // 2 for size in sizes)
    unit = 1 + sum(sorted(weights, reverse=True)[: 2 * pairs])
    if not even_spread:
        # a tie-break: the meetings weigh 2n times more, a seat more at an odd table 1
        weights = [w * 2 * n for w in weights]
        unit = 1
    if odd_players is None:
        odd = odd_table_counts(history)
        penalty = [odd.get(p, 0) * unit for p in present]
    else:  # the players a plan seats at the tables of 3 and 5 this round
        penalty = [0 if p in odd_players else unit for p in present]
    apart = [(index[a], index[b]) for a, b in forbidden if a in index and b in index and a != b]
    if apart:
        huge = 1 + sum(weights) + sum(penalty)
        for i, j in apart:
            weights[i * n + j] = weights[j * n + i] = huge
    return _round_search(n, sizes, weights, penalty, rng, iterations)


def _assign_seats(
    round_tables: list[list[int]],
    history: Sequence[Sequence[Sequence[int]]],
    rng: random.Random,
) -> Round:
    """Order each table's players so that each gets the seats he had least often."""
    seat_counts: dict[tuple[int, int], int] = {}
    for past in history:
        for table in past:
            for position, player in enumerate(table):
                seat_counts[player, position] = seat_counts.get((player, position), 0) + 1
    result = []
    for table in round_tables:
        players = sorted(table)
        rng.shuffle(players)  # ties go to a random order
        best, low = players, None
        for order in itertools.permutations(players):
            counts = [seat_counts.get((p, pos), 0) for pos, p in enumerate(order)]
            key = (sum(counts), sum(c * c for c in counts))
            if low is None or key < low:
                best, low = list(order), key
        result.append(best)
    return result
