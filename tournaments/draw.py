"""The table draw of a free-deal French Tarot tournament ("tournoi en donnes libres").

Pure Python, no Django: the tournament pages and the ``draw_tables`` command
call it, and it can be tested and timed on its own.

A round seats everybody present at tables of 4; tables of 5 take the rest, and
tables of 3 appear only when 4s and 5s cannot seat everybody (3, 6, 7 and 11
players). Each table is a list of player ids in seat order: North, East, South,
West, then the fifth seat.

What a draw optimises, in this order:

1. The spread of seats at tables of 5 and 3, a rule: those seats go to the
   players present who sat there the fewest times, so nobody sits at one twice
   before everybody has once; among the players the rule allows, the meetings
   decide. (The rule has a price: with one table of 5 among tables of 4, the
   five players of a round's table of 5 must spread over the tables of 4 of
   the next round, so two of them meet again; for 21 players the strict spread
   costs about two repeated meetings a round.)
2. Repeated meetings. Two players at the same table *meet*; a draw avoids pairs
   who met in earlier rounds, and a pair who already met twice costs more than
   a pair who met once (a pair that met ``k`` times before costs
   ``k (k + 1) / 2``: 1, then 3, then 6).
3. Seat rotation: within each table, seats are given so that each player gets
   the positions he had the fewest times before.

Two ways of drawing:

* ``draw_round(players, history)``: one round at a time, for the players present
  now, knowing the tables of the previous rounds. Late arrivals and withdrawals
  are simply players present or not.
* ``draw_schedule(n_players, rounds)``: every round in advance. When the number
  of players is 4q for a prime power q >= 4, the first q rounds (5 for 16
  players) come from a finite-geometry construction (a resolvable transversal
  design; the affine plane of order 4 for 16 players) where nobody meets
  anybody twice; so do 5 or 6 rounds of 30 players, with an even spread
  (``_THIRTY_IN_SIX``, found once by an exact solver). Otherwise a plan first
  says who sits at the tables of 3 and 5 in each round (``_odd_plan``: an even
  spread, any two rounds sharing few of those players), rounds are drawn one
  after the other along it, then a tabu search over the whole schedule
  (``_ScheduleSearch``) swaps players within a round, keeping the spread
  (``spread``; ``spread=None`` trades that fairness for fewer meetings), and
  starts again from a new plan when it stalls. ``least_repeats`` is a lower
  bound the pages show beside a draw.

Everything is deterministic for a given ``seed``: randomness comes only from
``random.Random(seed)``, searches are bounded by iteration or move counts (never
by the clock), and players are handled in the order of their ids.

An even spread has a price when a round has few tables. With one table of 5
among 4 tables (17 players), the five players of round r's table of 5 sit at
the 4 tables of another round r': if none of them sits at r''s table of 5, they
fill 3 tables of 4, so two pairs of them meet again; if one does, one pair. An
even spread gives two seats at a table of 5 to only 3 of the 17 players, so
over 4 rounds at most 2 (round, round) couples share a player of their tables
of 5 and the 12 ordered couples cost at least 17 repeated meetings (the search
reaches 17), while letting two players sit at the table of 5 every round
brings 3. With 21 players (5 tables a round) the same count gives at least 12.
For 13 players over 4 rounds (a table of 5 and two of 4) every schedule with an
even spread was tried (``_even_spread_reaches``: the 25 plans of who sits at the
table of 5, up to the order of the rounds, times the 35 splits of the others
into two tables of 4 each round): none has fewer than 22 repeated meetings,
against 14 without the rule. Those three least figures are in
``EVEN_SPREAD_LEAST``, and the search stops when it reaches one. With two
tables of 5 among 4 (18 players) a table of 5 seated in another round's 4
tables carries at least one pair, 40 over the 20 ordered couples of 5 rounds,
and a pair is counted at most 3 times per repeated meeting (nobody sits at a
table of 5 more than 3 times): at least 14 repeated meetings with an even
spread (``_carried_over``, in ``least_repeats``), against 11 without the rule.
With 22 players (tables 4, 4, 4, 5, 5) the same count, knowing how many players
two rounds' tables of 5 share, gives at least 4, against 3 without the rule.
The search reaches 25 and 10 there; nothing proves these the least: five times
the search's effort, other seeds, simulated annealings (one from the affine
plane of order 5 less 3 points, which meets nobody twice but seats 2 players
at a table of 5 every round) and an exact solver given a minute found no
better.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "SEAT_NAMES",
    "DrawError",
    "DrawQuality",
    "EVEN_SPREAD_LEAST",
    "draw_round",
    "draw_schedule",
    "least_repeats",
    "meeting_counts",
    "odd_seat_bounds",
    "odd_table_counts",
    "quality",
    "rebalance",
    "repeats",
    "swap",
    "table_sizes",
]

#: Seat positions, index 0 to 4, in the order a table lists its players.
SEAT_NAMES = ("North", "East", "South", "West", "Fifth")

Table = list[int]
Round = list[Table]

#: Iterations of the tabu search of one round (all restarts together).
ROUND_ITERATIONS = 1500
#: Iterations without improvement before a round's search restarts.
ROUND_STALL = 150


def _again(times: int) -> int:
    """What seating together a pair who already met ``times`` times costs: 0, 1, 3, 6..."""
    return times * (times + 1) // 2


class DrawError(ValueError):
    """The draw cannot be made (too few players, a player seated twice, ...)."""


# --------------------------------------------------------------------------- sizes


def table_sizes(n: int) -> list[int]:
    """The sizes of the tables that seat ``n`` players: 4s, then 5s, or 3s if needed.

    >>> table_sizes(17), table_sizes(18), table_sizes(11), table_sizes(6)
    ([4, 4, 4, 5], [4, 4, 5, 5], [4, 4, 3], [3, 3])
    """
    if n < 3:
        raise DrawError(f"A draw needs at least 3 players, not {n}.")
    fives = n % 4
    if n >= 5 * fives:
        return [4] * ((n - 5 * fives) // 4) + [5] * fives
    # 3, 6, 7 and 11 players: no mix of 4s and 5s seats them.
    threes = -n % 4
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


# --------------------------------------------------------------------------- measures


def _pairs(table: Sequence[int]) -> Iterable[tuple[int, int]]:
    for a, b in itertools.combinations(table, 2):
        yield (a, b) if a < b else (b, a)


def meeting_counts(history: Iterable[Iterable[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How many times each pair ``(a, b)``, ``a < b``, sat at the same table."""
    counts: dict[tuple[int, int], int] = {}
    for round_tables in history:
        for table in round_tables:
            for pair in _pairs(table):
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def odd_table_counts(history: Iterable[Iterable[Sequence[int]]]) -> dict[int, int]:
    """How many times each player sat at a table of 3 or 5."""
    counts: dict[int, int] = {}
    for round_tables in history:
        for table in round_tables:
            if len(table) != 4:
                for player in table:
                    counts[player] = counts.get(player, 0) + 1
    return counts


def repeats(
    history: Iterable[Iterable[Sequence[int]]], round_tables: Iterable[Sequence[int]]
) -> list[tuple[int, int, int]]:
    """The pairs of a proposed round who already met: ``(a, b, times_met_before)``, a < b.

    For the organiser's manual changes: ``repeats(history, swap(tables, a, b))``
    lists what the swap of ``a`` and ``b`` would cost.
    """
    counts = meeting_counts(history)
    found = []
    for table in round_tables:
        for pair in _pairs(table):
            if counts.get(pair):
                found.append((pair[0], pair[1], counts[pair]))
    return sorted(found)


def swap(round_tables: Iterable[Sequence[int]], a: int, b: int) -> Round:
    """A copy of the round with players ``a`` and ``b`` exchanged, seat for seat."""
    exchange = {a: b, b: a}
    result = [[exchange.get(p, p) for p in table] for table in round_tables]
    seated = [p for table in result for p in table]
    if a not in seated or b not in seated:
        raise DrawError(f"Players {a} and {b} must both be seated to be swapped.")
    return result


@dataclass(frozen=True)
class DrawQuality:
    """A summary of a schedule (or of the rounds played so far)."""

    rounds: int
    players: int
    #: Pairs of players who met more than once.
    repeated_pairs: int
    #: Meetings beyond each pair's first, summed over the pairs.
    repeated_meetings: int
    #: The most times any pair met (0 without any table).
    max_meetings: int
    #: The fewest and the most seats at tables of 3 or 5 among the players.
    odd_seats_min: int
    odd_seats_max: int
    #: Times a player sat at a seat position (North, East...) he had had before.
    seat_repeats: int

    def summary(self) -> str:
        return (
            f"{self.players} players, {self.rounds} rounds: "
            f"{self.repeated_pairs} repeated pairs ({self.repeated_meetings} repeated "
            f"meetings), worst pair met {self.max_meetings} times, "
            f"seats at tables of 3 or 5 per player {self.odd_seats_min}-{self.odd_seats_max}, "
            f"{self.seat_repeats} repeated seat positions"
        )


def quality(rounds: Sequence[Sequence[Sequence[int]]]) -> DrawQuality:
    """Measure a schedule: repeated meetings, odd-table spread, seat repeats."""
    counts = meeting_counts(rounds)
    odd = odd_table_counts(rounds)
    players = sorted({p for r in rounds for table in r for p in table})
    seats: set[tuple[int, int]] = set()
    seat_repeats = 0
    for round_tables in rounds:
        for table in round_tables:
            for position, player in enumerate(table):
                if (player, position) in seats:
                    seat_repeats += 1
                seats.add((player, position))
    odd_seats = [odd.get(p, 0) for p in players] or [0]
    return DrawQuality(
        rounds=len(rounds),
        players=len(players),
        repeated_pairs=sum(1 for c in counts.values() if c > 1),
        repeated_meetings=sum(c - 1 for c in counts.values() if c > 1),
        max_meetings=max(counts.values(), default=0),
        odd_seats_min=min(odd_seats),
        odd_seats_max=max(odd_seats),
        seat_repeats=seat_repeats,
    )


# --------------------------------------------------------------------------- one round


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


def rebalance(
    round_tables: Sequence[Sequence[int]],
    players: Iterable[int],
    history: Sequence[Sequence[Sequence[int]]] = (),
) -> tuple[Round, list[int]]:
    """Fit a drawn round to the ``players`` present now, changing as few tables as it can.

    Players no longer present leave their seats; each seat short is then taken
    by the newcomer, or the player of a table too big, whose move costs the
    fewest meetings (met at the new table less those left behind). Tables are matched with the sizes
    ``table_sizes`` asks for, the biggest with the biggest, so a table of 5 gives
    a player to a table left with 3, and a table left too small is broken up when
    there are fewer tables (the last table takes its number). A player moved
    takes the last seat of his new table; the others keep theirs. Returns the
    tables and the indices of those that changed (whose cards need printing
    again).
    """
    present = _present(players)
    _check_round(round_tables)
    goal = table_sizes(len(present))
    keep = set(present)
    tables = [[p for p in table if p in keep] for table in round_tables]
    seated = {p for table in tables for p in table}
    pool = [p for p in present if p not in seated]
    while len(tables) < len(goal):
        tables.append([])
    # The biggest tables get the biggest sizes; the smallest ones, if too many, none.
    order = sorted(range(len(tables)), key=lambda i: (-len(tables[i]), i))
    sizes = [0] * len(tables)
    for i, size in zip(order, sorted(goal, reverse=True)):
        sizes[i] = size
    counts = meeting_counts(history)

    def cost(player: int, table: Sequence[int]) -> int:
        return sum(counts.get((min(player, q), max(player, q)), 0) for q in table if q != player)

    for i, table in enumerate(tables):
        if sizes[i] == 0:  # broken up: everybody moves
            pool.extend(table)
            table.clear()
    for i, table in enumerate(tables):
        while len(table) < sizes[i]:
            # The newcomer, or the player of a table too big, whose move costs least:
            # meetings at this table, less those he leaves behind.
            moves = [(cost(p, table), p, None) for p in pool]
            for j, other in enumerate(tables):
                if len(other) > sizes[j]:
                    moves += [(cost(p, table) - cost(p, other), p, j) for p in other]
            _, coming, origin = min(moves)
            if origin is None:
                pool.remove(coming)
            else:
                tables[origin].remove(coming)
            table.append(coming)
    # A table broken up takes the last table's place (and number).
    i = 0
    while i < len(tables):
        if tables[-1] and tables[i]:
            i += 1
        elif not tables[-1]:
            tables.pop()
        else:
            tables[i] = tables.pop()
    changed = [
        i
        for i, table in enumerate(tables)
        if i >= len(round_tables) or list(table) != list(round_tables[i])
    ]
    return tables, changed


# --------------------------------------------------------------------------- seats


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


# --------------------------------------------------------------------------- schedules


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), elements 0..q-1; None if q is no
    prime power. An element is a polynomial over GF(p) written in base p."""
    p = next((d for d in range(2, q + 1) if q % d == 0), None)
    if p is None:
        return None
    degree, rest = 0, q
    while rest % p == 0:
        rest //= p
        degree += 1
    if rest != 1:
        return None

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(degree)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    add = [
        [number([(a + b) % p for a, b in zip(digits(x), digits(y))]) for y in range(q)]
        for x in range(q)
    ]

    def poly_mul(a: list[int], b: list[int]) -> list[int]:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] = (out[i + j] + x * y) % p
        return out

    def reduce(a: list[int], modulus: list[int]) -> list[int]:
        a = list(a)
        m = len(modulus) - 1  # modulus is monic
        for i in range(len(a) - 1, m - 1, -1):
            factor = a[i]
            if factor:
                for j in range(m + 1):
                    a[i - m + j] = (a[i - m + j] - factor * modulus[j]) % p
        return (a + [0] * m)[:m]

    # An irreducible monic polynomial of the right degree: no monic factor of
    # degree 1 .. degree // 2 divides it.
    modulus = [0] * degree + [1]
    if degree > 1:
        for low in range(p**degree):
            candidate = digits(low) + [1]
            if all(
                any(reduce(candidate, number_digits + [1]))
                for d in range(1, degree // 2 + 1)
                for number_digits in ([(c // p**i) % p for i in range(d)] for c in range(p**d))
            ):
                modulus = candidate
                break
    mul = [
        [
            number(reduce(poly_mul(digits(x), digits(y)), modulus)) if degree > 1 else x * y % p
            for y in range(q)
        ]
        for x in range(q)
    ]
    return add, mul


#: 30 players over 6 rounds (five tables of 4 and two of 5 a round), nobody
#: meeting twice, everybody twice at a table of 5: player p sits at the tables of
#: 5 in the two rounds of the (p mod 15)-th pair of rounds (0-1, 0-2, ..., 4-5),
#: and an exact solver (CP-SAT, seconds) seated the rest; the local search stops
#: at 1 repeated meeting. Any 5 of the rounds keep the spread even.
_THIRTY_IN_SIX = (
    "0 1 3 16 19 / 2 4 15 17 18 / 5 8 14 24 / 9 12 23 25 / 7 11 20 28 / 6 10 26 27 / 13 21 22 29",
    "0 5 15 20 22 / 6 7 8 21 23 / 1 2 9 29 / 11 18 24 27 / 12 14 16 28 / 4 10 19 25 / 3 13 17 26",
    "1 20 24 25 26 / 5 9 10 11 16 / 0 14 18 21 / 4 7 13 27 / 2 22 23 28 / 6 17 19 29 / 3 8 12 15",
    "2 6 12 13 24 / 9 17 21 27 28 / 0 11 25 29 / 3 4 5 23 / 8 18 19 20 / 7 16 22 26 / 1 10 14 15",
    "3 14 22 25 27 / 7 10 12 18 29 / 0 8 9 13 / 15 19 24 28 / 2 5 21 26 / 16 17 20 23 / 1 4 6 11",
    "4 8 26 28 29 / 11 13 14 19 23 / 0 7 17 24 / 2 3 10 20 / 15 16 21 25 / 6 9 18 22 / 1 5 12 27",
)


def _constructed_rounds(n: int) -> list[list[list[int]]]:
    """Rounds where nobody meets twice: tables of 4 for n = 4q, q a prime power >= 4;
    for 30 players, the six rounds of ``_THIRTY_IN_SIX``.

    Players (i, x), i in 0..3, x in GF(q), are numbered i * q + x. In round r,
    table t seats (i, t + i * r) for i = 0..3: two players (i, x) and (j, y)
    meet when x - y = (i - j) r, which happens for exactly one r (a resolvable
    transversal design TD(4, q)). For q = 4 the four groups {(i, x)} make a
    fifth round (the affine plane of order 4).
    """
    if n == 30:
        return [
            [[int(x) for x in table.split()] for table in r.split(" / ")] for r in _THIRTY_IN_SIX
        ]
    if n % 4 or n < 16:
        return []
    q = n // 4
    field = _field(q)
    if field is None:
        return []
    add, mul = field
    rounds = [[[i * q + add[t][mul[i][r]] for i in range(4)] for t in range(q)] for r in range(q)]
    if q == 4:
        rounds.append([[i * q + x for x in range(q)] for i in range(4)])
    return rounds


#: Work of the schedule's search per unit of effort (``draw_schedule(effort=...)``),
#: counted in moves looked at, so that a draw is the same on every machine.
SCHEDULE_WORK = 1_000_000
#: The default effort: a few seconds for the hard sizes, under 10 s for 100 players.
SCHEDULE_EFFORT = 3
#: Iterations of one start of the tabu search without a better schedule before
#: the search starts again from a new first draw, per player.
SCHEDULE_STALL = 40
#: Kicks of a start before the search starts again from a new first draw.
SCHEDULE_KICKS = 20
#: Double moves (a swap and its reverse in another round) are looked at every
#: this many iterations: they cost more to look at.
DOUBLE_EVERY = 16


def odd_seat_bounds(n_players: int, rounds: int, spread: int | None = 1) -> tuple[int, int]:
    """The fewest and the most seats at tables of 3 or 5 a player may have over ``rounds``.

    ``spread=1`` (fair): everybody has the average, rounded down or up, so
    nobody sits at one once more than anybody else. A larger spread lets the
    search trade fairness for meetings; ``None``: no rule at all.
    """
    seats = sum(s for s in table_sizes(n_players) if s != 4) * rounds
    low, high = seats // n_players, -(-seats // n_players)
    if spread is None:
        return 0, rounds
    if spread < 1:
        raise DrawError("The spread of seats at tables of 3 or 5 is at least 1.")
    room = spread - (high - low)  # what the spread leaves beyond the average's rounding
    return max(0, low - room // 2), min(rounds, high + room - room // 2)


def least_repeats(
    round_sizes: Sequence[Sequence[int]],
    n_players: int | None = None,
    *,
    even_spread: bool = False,
) -> int:
    """A lower bound of the repeated meetings of any draw with these table sizes.

    ``round_sizes`` lists each round's table sizes (``[[4, 4, 5], ...]``).
    Two counts, the larger wins: the pairs seated over all rounds beyond the
    pairs of players that exist (pigeonhole), and, player by player, the
    players met beyond the others there are (each round seats a player with
    at least the smallest table's size minus one). Not always reachable: it
    knows nothing of the tables of 5 that must spread over too few tables,
    unless ``even_spread`` says the draw spreads them evenly and everybody
    plays every round: then the least figures proved for that count too
    (``EVEN_SPREAD_LEAST``).
    """
    if not round_sizes:
        return 0
    n = n_players or max(sum(sizes) for sizes in round_sizes)
    seated = sum(s * (s - 1) // 2 for sizes in round_sizes for s in sizes)
    pigeonhole = max(0, seated - n * (n - 1) // 2)
    met = sum(min(sizes) - 1 for sizes in round_sizes)
    per_player = (n * max(0, met - (n - 1)) + 1) // 2
    least = max(pigeonhole, per_player)
    full = all(sum(sizes) == n for sizes in round_sizes)
    if even_spread and full:
        least = max(
            least, EVEN_SPREAD_LEAST.get((n, len(round_sizes)), 0), _carried_over(round_sizes, n)
        )
    return least


def _carried_over(round_sizes: Sequence[Sequence[int]], n: int) -> int:
    """A lower bound of the repeated meetings of a draw that spreads the tables of
    3 and 5 evenly among ``n`` players who play every round at the same tables.

    The players of an odd table ``A`` of round r are seated in another round r'
    at its tables, so some pairs of them may have to meet again: if ``k`` of
    them sit at r''s odd tables and the others at its tables of 4, at least
    ``carried(k)`` pairs (each group placed as evenly as the tables let it).
    Over r's odd tables the ``k`` add up to ``s``, the players at odd tables in
    both rounds: at least ``pair_least(s)`` pairs carried from r to r', and as
    many from r' to r. The spread fixes the sum of ``s`` over the couples of
    rounds: each player counts once for each two rounds at an odd table, and
    has ``low`` or ``high`` of them. So the pairs carried over all couples are
    at least twice the least sum of ``pair_least(s)`` for that sum of ``s``.
    A pair met at an odd table in round r and again in r' is one of them; a
    pair who meets ``m`` times, ``f`` of them at odd tables, is counted
    ``f (m - 1)`` times and has ``m - 1`` repeated meetings, and ``f <= high``:
    the repeated meetings are at least the pairs carried over ``high``.

    18 players over 5 rounds (tables 4, 4, 5, 5): at least one pair per table
    of 5 and couple of rounds, 40, over high = 3 (50 seats, 18 players): 14,
    where 7 is the bound without the spread. 22 players (4, 4, 4, 5, 5): a table
    of 5 whose players sit 2 at r''s tables of 5 and 3 at its tables of 4 need
    carry none, but that takes ``s = 4`` and the spread gives the 10 couples
    only 34 (16 players twice at a table of 5, 6 three times): at least 6
    pairs short each way, 12, over 3: 4.
    """
    sizes = sorted(round_sizes[0]) if round_sizes else []
    rounds = len(round_sizes)
    if rounds < 2 or any(sorted(r) != sizes for r in round_sizes):
        return 0
    odd = [size for size in sizes if size != 4]
    odd_seats = sum(odd)
    if not odd_seats:
        return 0
    fours = len(sizes) - len(odd)

    def spread_evenly(players: int, tables: int, room: int) -> int | None:
        """The fewest pairs among ``players`` placed at ``tables`` of ``room`` seats."""
        if players > tables * room:
            return None
        share, more = divmod(players, tables) if tables else (0, 0)
        return more * (share + 1) * share // 2 + (tables - more) * share * (share - 1) // 2

    def carried(size: int, k: int) -> int | None:
        at_odd = spread_evenly(k, len(odd), odd[0])
        at_four = spread_evenly(size - k, fours, 4)
        return None if at_odd is None or at_four is None else at_odd + at_four

    # pair_least[s]: the least carried from one round's odd tables, s of their players
    # at odd tables in the other round (None: impossible).
    pair_least: list[int | None] = [0]
    for size in odd:
        grown: list[int | None] = [None] * (len(pair_least) + size)
        for s, so_far in enumerate(pair_least):
            for k in range(size + 1):
                cost = carried(size, k)
                if so_far is None or cost is None:
                    continue
                if grown[s + k] is None or so_far + cost < grown[s + k]:
                    grown[s + k] = so_far + cost
        pair_least = grown
    total = odd_seats * rounds
    low = total // n
    highs = total - low * n
    high = low + (1 if highs else 0)
    shared = highs * (low + 1) * low // 2 + (n - highs) * low * (low - 1) // 2
    # The least sum of pair_least over the couples of rounds, their s summing to shared.
    least: list[int | None] = [0] + [None] * shared
    for _ in range(rounds * (rounds - 1) // 2):
        step: list[int | None] = [None] * (shared + 1)
        for done, so_far in enumerate(least):
            if so_far is None:
                continue
            for s, cost in enumerate(pair_least):
                if cost is None or done + s > shared:
                    continue
                if step[done + s] is None or so_far + cost < step[done + s]:
                    step[done + s] = so_far + cost
        least = step
    if least[shared] is None:
        return 0
    return -(-2 * least[shared] // high)


#: The least repeated meetings of any schedule with an even spread (``spread=1``),
#: where it is more than ``least_repeats`` says: for 17 x 4 and 21 x 5 by the
#: count of the module's docstring, for 13 x 4 by ``_even_spread_reaches``
#: (every schedule, 2 s). ``least_repeats(..., even_spread=True)`` knows them, and
#: ``draw_schedule`` stops searching when it reaches one.
EVEN_SPREAD_LEAST = {(13, 4): 22, (17, 4): 17, (21, 5): 12}


def _even_spread_reaches(n_players: int, rounds: int, target: int) -> bool:
    """Whether some schedule with an even spread has at most ``target`` repeated
    meetings, tried exhaustively; for two tables of 4 and one of 3 or 5 a round
    (11 and 13 players) and a few rounds only.

    Repeated meetings are the pairs seated over all rounds less the distinct
    pairs that met, so the question is whether ``meetings - target`` distinct
    pairs can meet. A plan says which rounds each player sits at the odd table
    (``low`` or ``high`` of them, ``odd_seat_bounds``); plans are taken up to an
    order of the rounds. Given the plan, a round is the split of the other 8
    players into two tables of 4 (35 ways); the first round's split is taken up
    to players of the same rounds at the odd table, who are interchangeable.
    The pairs met are bit sets: the first rounds' unions against the last
    rounds', largest first, so most combinations are never looked at.
    """
    sizes = table_sizes(n_players)
    odd_sizes = [s for s in sizes if s != 4]
    if sizes.count(4) != 2 or len(odd_sizes) != 1 or rounds < 2:
        raise DrawError("Only for two tables of 4 and one of 3 or 5, over 2 rounds or more.")
    n, seats = n_players, odd_sizes[0]
    low, high = odd_seat_bounds(n, rounds)
    index = {pair: i for i, pair in enumerate(itertools.combinations(range(n), 2))}
    need = rounds * sum(s * (s - 1) // 2 for s in sizes) - target

    def met(table: Iterable[int]) -> int:
        bits = 0
        for pair in itertools.combinations(sorted(table), 2):
            bits |= 1 << index[pair]
        return bits

    # A player's kind: the rounds he sits at the odd table.
    kinds = [
        frozenset(c) for k in sorted({low, high}) for c in itertools.combinations(range(rounds), k)
    ]

    def plans(i: int, left: int, room: list[int], chosen: list[int]) -> Iterable[list[int]]:
        """How many players of each kind, filling every round's odd seats."""
        if left == 0:
            if not any(room):
                yield list(chosen)
            return
        if i == len(kinds):
            return
        for k in range(min([left] + [room[r] for r in kinds[i]]), -1, -1):
            for r in kinds[i]:
                room[r] -= k
            chosen.append(k)
            yield from plans(i + 1, left - k, room, chosen)
            chosen.pop()
            for r in kinds[i]:
                room[r] += k

    seen = set()
    for chosen in plans(0, n, [seats] * rounds, []):
        key = min(
            tuple(
                sorted((tuple(sorted(order[r] for r in kind)), k) for kind, k in zip(kinds, chosen))
            )
            for order in itertools.permutations(range(rounds))
        )
        if key in seen:
            continue
        seen.add(key)
        kind_of = [kind for kind, k in zip(kinds, chosen) for _ in range(k)]
        options = []
        for r in range(rounds):
            odd_met = met(x for x in range(n) if r in kind_of[x])
            rest = [x for x in range(n) if r not in kind_of[x]]
            splits: dict[tuple, int] = {}
            for others in itertools.combinations(rest[1:], 3):
                first = (rest[0], *others)
                second = [x for x in rest if x not in first]
                shape = tuple(
                    sorted(
                        tuple(sorted(tuple(sorted(kind_of[x])) for x in t)) for t in (first, second)
                    )
                )
                splits[shape if r == 0 else first] = odd_met | met(first) | met(second)
            options.append(list(splits.values()))
        halves = []
        for part in (options[: rounds // 2], options[rounds // 2 :]):
            unions = {0}
            for round_options in part:
                unions = {a | b for a in unions for b in round_options}
            halves.append(sorted(((u.bit_count(), u) for u in unions), reverse=True))
        left, right = halves
        for count_x, x in left:
            if count_x + right[0][0] < need:
                break
            for count_y, y in right:
                if count_x + count_y < need:
                    break
                if (x | y).bit_count() >= need:
                    return True
    return False


def draw_schedule(
    n_players: int,
    rounds: int,
    *,
    seed: int | str | None = 0,
    constructions: bool = True,
    effort: float = SCHEDULE_EFFORT,
    spread: int | None = 1,
) -> list[Round]:
    """Draw ``rounds`` rounds in advance for players numbered 1 to ``n_players``.

    ``constructions=False`` skips the finite-geometry schedules and always
    searches. ``effort`` scales the search (``SCHEDULE_WORK`` moves a unit;
    0 keeps the first draw). ``spread`` is the fairness of the tables of 3 and
    5 (``odd_seat_bounds``): 1, the default, spreads them evenly.
    """
    sizes = table_sizes(n_players)
    if rounds < 0:
        raise DrawError("The number of rounds cannot be negative.")
    rng = random.Random(seed)
    n = n_players
    low, high = odd_seat_bounds(n, rounds, spread)
    built = _constructed_rounds(n) if constructions else []
    schedule: list[Round] = []
    if rounds and len(built) >= rounds:
        # Relabel the players at random, pick and shuffle rounds and tables,
        # if the rounds picked keep the spread (30 players: 5 or 6 rounds).
        label = list(range(n))
        rng.shuffle(label)
        chosen = rng.sample(built, rounds)
        odd = odd_table_counts(chosen)
        if all(low <= odd.get(x, 0) <= high for x in range(n)):
            for r in chosen:
                tables = [[label[x] for x in table] for table in r]
                rng.shuffle(tables)
                schedule.append(tables)
    if not schedule:
        floor = least_repeats([sizes] * rounds, n, even_spread=spread == 1)
        schedule = _search(n, sizes, rounds, rng, int(effort * SCHEDULE_WORK), low, high, floor)
    # Seats last, round after round, players numbered from 1.
    result: list[Round] = []
    for r in schedule:
        result.append(_assign_seats([[x + 1 for x in table] for table in r], result, rng))
    return result


def _odd_plan(
    n: int, seats: int, rounds: int, low: int, high: int, rng: random.Random
) -> list[set[int]]:
    """Who sits at the tables of 3 and 5 in each round: ``seats`` players a round,
    each player between ``low`` and ``high`` times, and any two rounds sharing
    as few of them as they can, evenly (the sum of the squares of the rounds'
    shared players, made smaller by exchanges of two players between two
    rounds). Players sharing the odd tables of two rounds are the ones who
    risk meeting at both."""
    if seats == 0 or rounds < 2:
        return [set() for _ in range(rounds)]
    counts = [0] * n
    plan: list[set[int]] = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=lambda x: counts[x])  # the fewest first: an even spread
        chosen = set(order[:seats])
        for x in chosen:
            counts[x] += 1
        plan.append(chosen)
    if any(not low <= c <= high for c in counts):
        return plan  # a spread wider than even: the greedy plan is within it
    shared = [[len(a & b) for b in plan] for a in plan]
    for _ in range(200 * rounds):
        r, s = rng.sample(range(rounds), 2)
        only_r, only_s = plan[r] - plan[s], plan[s] - plan[r]
        if not only_r or not only_s:
            continue
        x = rng.choice(sorted(only_r))  # x moves from round r to round s
        y = rng.choice(sorted(only_s))  # and y from s to r
        change = {}
        for t in range(rounds):
            if t in (r, s):
                continue
            # shared[r][t] loses x, gains y; shared[s][t] loses y, gains x.
            dr = (y in plan[t]) - (x in plan[t])
            if dr:
                change[r, t] = dr
                change[s, t] = -dr
        cost = sum((shared[a][b] + d) ** 2 - shared[a][b] ** 2 for (a, b), d in change.items())
        # shared[r][s] is unchanged: x leaves r, joins s; y leaves s, joins r.
        if cost <= 0:
            plan[r].remove(x)
            plan[s].add(x)
            plan[s].remove(y)
            plan[r].add(y)
            for (a, b), d in change.items():
                shared[a][b] += d
                shared[b][a] += d
    return plan


def _first_draw(
    n: int, sizes: list[int], rounds: int, low: int, high: int, rng: random.Random
) -> list[Round]:
    """Rounds drawn one after the other, each avoiding the pairs that met, whose
    tables of 3 and 5 go to the players of a plan (``_odd_plan``)."""
    plan = _odd_plan(n, sum(s for s in sizes if s != 4), rounds, low, high, rng)
    schedule: list[Round] = []
    for r in range(rounds):
        schedule.append(
            _draw_indices(list(range(n)), sizes, schedule, rng, 200, odd_players=plan[r])
        )
    return schedule


def _search(
    n: int,
    sizes: list[int],
    rounds: int,
    rng: random.Random,
    work: int,
    low: int,
    high: int,
    floor: int,
) -> list[Round]:
    """The schedule with the fewest repeated meetings the search finds.

    Starts from a first draw (``_first_draw``) and improves it by tabu search
    (``_ScheduleSearch``); when a start stalls, starts again from a new first
    draw, until ``work`` (moves looked at) is spent or ``floor`` reached. Every
    schedule keeps each player's seats at tables of 3 and 5 between ``low`` and
    ``high``.
    """
    best: list[Round] = []
    best_cost = None
    budget = work
    while True:
        search = _ScheduleSearch(n, _first_draw(n, sizes, rounds, low, high, rng), low, high, rng)
        if rounds > 1 and work > 0:
            search.run(work, floor, SCHEDULE_STALL * n, SCHEDULE_KICKS)
            work -= search.work
        if best_cost is None or search.best_cost < best_cost:
            best, best_cost = search.best, search.best_cost
        if work <= 0 or best_cost <= floor or rounds < 2:
            break
    if best_cost and rounds > 1 and budget:
        # The polish: the same repeated meetings, over more pairs.
        polish = _ScheduleSearch(n, best, low, high, rng, spread_pairs=1)
        polish.run(budget // 10, floor, SCHEDULE_STALL * n)
        best = polish.best
    return best


class _ScheduleSearch:
    """Tabu search over a whole schedule, to reduce its repeated meetings.

    A move swaps two players of different tables in one round; only players
    who meet somebody again at their table are moved (the others have nothing
    to gain), each to any other table of the round, and each iteration makes
    the best move that is not tabu (a move back to a table a player just left
    is tabu for a few iterations, unless it makes the best schedule yet). A swap
    between a table of 4 and a table of 3 or 5 changes both players' count of
    seats at such tables; when that would leave ``low``..``high``, the move
    comes with the reverse swap in another round where the two players sit the
    other way round (a double move), so every schedule keeps the spread.

    The cost is the number of repeated meetings (a pair who meets three times
    has two). With ``spread_pairs``, the polish of a found schedule, each costs
    ``UNIT`` and a third or later meeting of a pair one more per meeting beyond
    the second: no more repeated meetings, spread over more pairs rather than
    one pair meeting at every round. When a search stalls, a few random swaps shake it (``_kick``)
    and it goes on (``SCHEDULE_KICKS`` times, then ``_search`` starts again).
    Changes are evaluated incrementally from the pairs' meeting counts.
    Deterministic: ties and tabu lengths come from ``rng``; the budget is
    counted in moves looked at.
    """

    #: A repeated meeting's cost when the search also spreads them over pairs.
    UNIT = 1000

    def __init__(
        self,
        n: int,
        schedule: list[Round],
        low: int,
        high: int,
        rng: random.Random,
        spread_pairs: int = 0,
    ) -> None:
        self.n, self.low, self.high, self.rng = n, low, high, rng
        self.rounds = len(schedule)
        self.tables = [[list(t) for t in r] for r in schedule]
        self.width = max((len(r) for r in schedule), default=1)
        self.where = [[0] * n for _ in schedule]
        self.odd = [[len(t) != 4 for t in r] for r in schedule]
        self.meet = [0] * (n * n)
        self.odd_seats = [0] * n
        for r, round_tables in enumerate(self.tables):
            for t, table in enumerate(round_tables):
                for x in table:
                    self.where[r][x] = t
                    self.odd_seats[x] += self.odd[r][t]
                for a, b in itertools.permutations(table, 2):
                    self.meet[a * n + b] += 1
        # gain[m]: what the meeting of a pair who already met m times costs.
        unit = self.unit = 1 if spread_pairs == 0 else self.UNIT
        self.gain = [0, unit] + [unit + spread_pairs * (m - 1) for m in range(2, self.rounds + 2)]
        owed = [0]
        for g in self.gain:
            owed.append(owed[-1] + g)
        self.cost = sum(owed[m] for m in self.meet) // 2
        self.best_cost = self.cost
        self.best = self._copy()
        self.work = 0

    def _copy(self) -> list[Round]:
        return [[list(t) for t in r] for r in self.tables]

    def _delta(self, r: int, a: int, b: int) -> int:
        """What swapping a and b in round r changes in the cost."""
        n, meet, gain = self.n, self.meet, self.gain
        ra, rb = a * n, b * n
        where, tables = self.where[r], self.tables[r]
        d = 0
        for c in tables[where[a]]:
            if c != a:
                d += gain[meet[rb + c]] - gain[meet[ra + c] - 1]
        for c in tables[where[b]]:
            if c != b:
                d += gain[meet[ra + c]] - gain[meet[rb + c] - 1]
        return d

    def _swap(self, r: int, a: int, b: int) -> None:
        n, meet = self.n, self.meet
        where, tables = self.where[r], self.tables[r]
        ta, tb = where[a], where[b]
        for leaving, coming, table in ((a, b, tables[ta]), (b, a, tables[tb])):
            rl, rc = leaving * n, coming * n
            for c in table:
                if c != leaving:
                    meet[rl + c] -= 1
                    meet[c * n + leaving] -= 1
                    meet[rc + c] += 1
                    meet[c * n + coming] += 1
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta
        if self.odd[r][ta] != self.odd[r][tb]:
            joining, leaving = (a, b) if self.odd[r][tb] else (b, a)
            self.odd_seats[joining] += 1
            self.odd_seats[leaving] -= 1

    def run(self, budget: int, floor: int, stall: int, kicks: int = 0) -> None:
        """Search until ``budget`` moves are looked at, the cost reaches ``floor``
        repeated meetings, or ``stall`` iterations bring nothing better."""
        n, R, K = self.n, self.rounds, self.width
        low, high, rng = self.low, self.high, self.rng
        meet, odd, odd_seats, where_all, tables_all = (
            self.meet,
            self.odd,
            self.odd_seats,
            self.where,
            self.tables,
        )
        delta, swap = self._delta, self._swap
        randrange = rng.randrange
        tabu = [[0] * (n * K) for _ in range(R)]
        floor *= self.unit
        it = last_gain = 0
        players = range(n)
        while self.work < budget and self.best_cost > floor and it - last_gain < stall:
            it += 1
            chosen: list[tuple[int, int, int]] | None = None
            low_d = 0
            ties = 0
            cost, best_cost = self.cost, self.best_cost
            for r in range(R):
                where, odd_r, tabu_r = where_all[r], odd[r], tabu[r]
                for ta, table in enumerate(tables_all[r]):
                    for a in table:
                        ra = a * n
                        if not any(meet[ra + c] > 1 for c in table if c != a):
                            continue
                        self.work += n
                        for b in players:
                            tb = where[b]
                            if tb == ta:
                                continue
                            is_tabu = tabu_r[a * K + tb] > it or tabu_r[b * K + ta] > it
                            double = False
                            if odd_r[ta] != odd_r[tb]:
                                leaving, joining = (a, b) if odd_r[ta] else (b, a)
                                double = odd_seats[leaving] <= low or odd_seats[joining] >= high
                            if not double:
                                d = delta(r, a, b)
                                if is_tabu and cost + d >= best_cost:
                                    continue
                                if chosen is None or d < low_d:
                                    chosen, low_d, ties = [(r, a, b)], d, 1
                                elif d == low_d:
                                    ties += 1
                                    if randrange(ties) == 0:
                                        chosen = [(r, a, b)]
                                continue
                            if it % DOUBLE_EVERY:
                                continue  # double moves are looked at every 16th iteration
                            # The reverse swap in a round where ``leaving`` sits at a
                            # table of 4 and ``joining`` at a table of 3 or 5.
                            first = delta(r, a, b)
                            swap(r, a, b)
                            for r2 in range(R):
                                w2 = where_all[r2]
                                if r2 == r or odd[r2][w2[leaving]] or not odd[r2][w2[joining]]:
                                    continue
                                self.work += 1
                                d = first + delta(r2, a, b)
                                if cost + d >= best_cost and (
                                    is_tabu
                                    or tabu[r2][a * K + w2[b]] > it
                                    or tabu[r2][b * K + w2[a]] > it
                                ):
                                    continue
                                if chosen is None or d < low_d:
                                    chosen, low_d, ties = [(r, a, b), (r2, a, b)], d, 1
                                elif d == low_d:
                                    ties += 1
                                    if randrange(ties) == 0:
                                        chosen = [(r, a, b), (r2, a, b)]
                            swap(r, a, b)  # undo
            if chosen is None:
                break
            for r, a, b in chosen:
                ta, tb = where_all[r][a], where_all[r][b]
                swap(r, a, b)
                tabu[r][a * K + ta] = it + 2 + randrange(n // 2 + 3)
                tabu[r][b * K + tb] = it + 2 + randrange(n // 2 + 3)
            self.cost += low_d
            if self.cost < self.best_cost:
                self.best_cost, self.best = self.cost, self._copy()
                last_gain = it
            elif kicks and it - last_gain >= stall:
                kicks -= 1
                last_gain = it
                self._kick()

    def _kick(self) -> None:
        """Shake the schedule out of a valley: a few random swaps in random rounds,
        between tables of the same kind (so that the spread stays)."""
        n, randrange = self.n, self.rng.randrange
        for _ in range(max(2, n // 6)):
            r, a, b = randrange(self.rounds), randrange(n), randrange(n)
            ta, tb = self.where[r][a], self.where[r][b]
            if ta != tb and self.odd[r][ta] == self.odd[r][tb]:
                self.cost += self._delta(r, a, b)
                self._swap(r, a, b)
