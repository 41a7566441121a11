"""A duplicate event's movement (``DUPLICATE.md`` §6): who sits where, and which set
of deals each table plays, round by round. Pure Python, no database.

Players keep their orientation (North, East, South, West) all event long. The
movement is cyclic, as bridge movements are: the players of each orientation move
``shift[o]`` tables a round and the sets move ``step`` tables a round (modulo the
number of tables ``T``). With player ``p`` of orientation ``o`` starting at table
``p``:

- table of that player in round ``r``: ``p + shift[o] × r``; every round seats each
  player once, at their orientation, since each orientation's move is a rotation;
- set at table ``t`` in round ``r``: ``t + step × r`` (a rotation: one set a table);
- so the player plays set ``p + (shift[o] + step) × r``: never the same set twice
  while ``shift[o] + step`` has an order of at least ``R`` modulo ``T``;
- two players of orientations ``o`` and ``o'`` meet in the rounds where
  ``(shift[o] − shift[o']) × r`` equals the gap of their starting tables: at most
  once in ``T`` rounds when the difference is a unit modulo ``T``. With ``T`` prime
  and at least 5, shifts 0, 1, 2, 3 make every difference a unit: nobody meets twice.

When ``T`` is a power of a prime (8, 9, 16, 25, 27…) the same movement is made in
the finite field of ``T`` elements instead of the integers modulo ``T``: tables are
the field's elements, moves are field additions of ``shift × r``, and four distinct
shifts again make every difference invertible: nobody meets twice (``T`` ≥ 5).

For other table counts ``movement`` first searches every choice of shifts and step
modulo ``T`` (the North players stay: ``shift[N] = 0``), keeps those that never give
a player a set twice, and takes the one with the fewest repeated meetings (counted
exactly, in closed form, for each choice; 4,960 shift choices × 30 steps for 30
tables, under half a second). When that one still has repeated meetings (no cyclic
movement avoids them on 4, 6, 10, 12… tables: four shifts cannot all differ by a unit
there), a local search (``_Search``) moves players from it, keeping every rule, and
the movement returned is the best it finds: 6 tables over 6 rounds went from 132
repeated meetings to 45, 12 over 12 from 552 to 233, 6 over 5 from 96 to 0. The
search is deterministic (a fixed seed and a budget counted in moves, not seconds).

A movement is returned as data (``Movement.plan``: each round's sets and seats per
table), whichever way it was made.

Players are numbered 1 to ``4T``: the players of table ``t`` in round 1 are
``4t − 3`` (N), ``4t − 2`` (E), ``4t − 1`` (S), ``4t`` (W). Tables and sets are
numbered from 1.
"""

import math
import random
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import gcd

ORIENTATIONS = ("N", "E", "S", "W")


#: The largest movement made: the search of shifts grows as the tables cubed (100
#: tables, 30 rounds: about 2 s), and a duplicate event has at most 30 rounds.
MAX_TABLES = 100
MAX_ROUNDS = 30


class MovementError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


#: irreducible polynomials (coefficients from x^0 up, monic) making GF(p^k), k ≥ 2
IRREDUCIBLE = {
    (2, 2): (1, 1, 1),
    (2, 3): (1, 1, 0, 1),
    (2, 4): (1, 1, 0, 0, 1),
    (2, 5): (1, 0, 1, 0, 0, 1),
    (2, 6): (1, 1, 0, 0, 0, 0, 1),
    (3, 2): (1, 0, 1),
    (3, 3): (1, 2, 0, 1),
    (5, 2): (2, 0, 1),
    (7, 2): (3, 0, 1),
}


@dataclass(frozen=True)
class Ring:
    """The integers modulo ``size``, or the field of ``size`` = p^k elements: its
    addition and multiplication as tables over the elements 0 … size − 1."""

    size: int
    add: tuple
    mul: tuple

    @classmethod
    def integers(cls, size: int) -> "Ring":
        elements = range(size)
        return cls(
            size,
            tuple(tuple((a + b) % size for b in elements) for a in elements),
            tuple(tuple((a * b) % size for b in elements) for a in elements),
        )

    @classmethod
    def galois(cls, p: int, k: int) -> "Ring":
        size = p**k
        poly = IRREDUCIBLE[(p, k)]

        def digits(x):
            return [(x // p**i) % p for i in range(k)]

        def number(ds):
            return sum(d * p**i for i, d in enumerate(ds))

        def times(a, b):
            product = [0] * (2 * k - 1)
            for i, x in enumerate(digits(a)):
                for j, y in enumerate(digits(b)):
                    product[i + j] = (product[i + j] + x * y) % p
            for degree in range(2 * k - 2, k - 1, -1):  # reduce by the monic polynomial
                factor = product[degree]
                if factor:
                    for i, c in enumerate(poly):
                        product[degree - k + i] = (product[degree - k + i] - factor * c) % p
            return number(product[:k])

        elements = range(size)
        return cls(
            size,
            tuple(
                tuple(number([(x + y) % p for x, y in zip(digits(a), digits(b))]) for b in elements)
                for a in elements
            ),
            tuple(tuple(times(a, b) for b in elements) for a in elements),
        )

    def neg(self, a: int) -> int:
        return self.add[a].index(0)


def _prime_power(n: int):
    """``(p, k)`` when ``n`` = p^k for a prime p, else None."""
    for p in range(2, n + 1):
        if n % p == 0:
            k = 0
            while n % p == 0:
                n //= p
                k += 1
            return (p, k) if n == 1 else None
    return None


#: The movements an event chooses among (``candidates``): the fewest repeated meetings
#: found (``movement``); the plain rotation (North stays, East moves one table a round,
#: South two, West three); the cyclic movement with the fewest repeated meetings
#: (every player of one orientation moves the same number of tables), when it is
#: neither of the others.
FEWEST = "fewest"
ROTATION = "rotation"
CYCLIC = "cyclic"
KINDS = (FEWEST, ROTATION, CYCLIC)
ROTATION_SHIFTS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Movement:
    """A movement as data: for each round, each table's set and its players."""

    tables: int
    rounds: int
    repeated: int  # meetings beyond the first, over every pair of players
    #: per round, per table (in table order): ``(set, (N, E, S, W))``, all 1-based
    plan: tuple
    kind: str = FEWEST
    #: a cyclic movement on the integers modulo the tables: the tables each orientation
    #: (N, E, S, W) moves a round, and the sets' move; ``None`` when the players follow
    #: their route cards (a searched movement, or one made in a finite field)
    shifts: tuple | None = None
    step: int | None = None

    def seating(self, round_: int):
        """Round ``round_`` (0-based): ``(table, set, players N E S W)`` per table, all
        1-based, in table order."""
        return [
            (table, set_, players) for table, (set_, players) in enumerate(self.plan[round_], 1)
        ]

    def passes(self, round_: int) -> dict:
        """Where each table (1-based) passes its set after round ``round_`` (0-based): the
        table that plays it next round, or ``None`` when no table does."""
        if round_ + 1 >= self.rounds:
            return dict.fromkeys(range(1, self.tables + 1))
        next_table = {set_: table for table, set_, _ in self.seating(round_ + 1)}
        return {table: next_table.get(set_) for table, set_, _ in self.seating(round_)}

    def as_dict(self) -> dict:
        return {
            "rounds": [
                [
                    {"table": table, "set": set_, "seats": list(players)}
                    for table, set_, players in self.seating(r)
                ]
                for r in range(self.rounds)
            ]
        }


def _player(table: int, orientation: int) -> int:
    """The number of the player who starts at ``table`` (0-based) in ``orientation``."""
    return 4 * table + orientation + 1


def _cyclic_plan(tables, rounds, shifts, step, ring) -> tuple:
    """The plan of a cyclic movement: what starts at ``start`` and moves ``move`` a
    round is at ``start + move × r`` in round ``r``."""

    def at(start, move, round_):
        return ring.add[start][ring.mul[move][round_ % ring.size]]

    plan = []
    for round_ in range(rounds):
        seats = [[0] * 4 for _ in range(tables)]
        for start in range(tables):
            for orientation, shift in enumerate(shifts):
                seats[at(start, shift, round_)][orientation] = _player(start, orientation)
        plan.append(
            tuple((at(table, step, round_) + 1, tuple(seats[table])) for table in range(tables))
        )
    return tuple(plan)


def _order(value: int, modulus: int) -> int:
    """How many rounds a move of ``value`` tables takes to come back to its start."""
    return modulus // gcd(value % modulus, modulus)


@cache
def _repeats_for_gap(gap: int, tables: int, rounds: int) -> int:
    """Repeated meetings between the players of two orientations whose shifts differ by
    ``gap``: each pair of starting tables whose difference ``gap × r`` reaches meets in
    every round ``r`` of its residue class modulo the period; a pair meeting ``m`` times
    counts ``m − 1``."""
    period = _order(gap, tables)  # rounds between two meetings of one pair
    total = 0
    for first in range(min(period, rounds)):
        meetings = (rounds - 1 - first) // period + 1
        total += meetings - 1
    # each residue ``first`` is one gap of starting tables, met by ``tables`` pairs
    return total * tables


def count_repeats(shifts, tables: int, rounds: int) -> int:
    return sum(
        _repeats_for_gap((a - b) % tables, tables, rounds)
        for i, a in enumerate(shifts)
        for b in shifts[i + 1 :]
    )


#: the search's budget, in players moved from one table to another (about 1.5 s of
#: this machine's Python for any size: 430,000 a second measured at 6 to 30 tables)
SEARCH_BUDGET = 600_000
SEARCH_SEED = 1


class _Search:
    """Local search for fewer repeated meetings, from a cyclic movement.

    The sets stay where the cyclic movement puts them (set ``t + step × r`` at table
    ``t`` in round ``r``); players move. Three moves, each keeping the movement
    playable (one player an orientation at each table, nobody holding a set twice):

    - two players of one orientation swap tables in one round, when neither has
      held the other's set (possible only with fewer rounds than tables);
    - two sets swap for one orientation: in every round the two players of that
      orientation at the tables playing them swap (each still holds each set once);
    - two rounds swap for one orientation: each of its players holds in one round
      the set they held in the other.

    Simulated annealing over a budget counted in players moved, not in seconds:
    the same movement on every machine. Meetings are counted incrementally.
    """

    def __init__(self, tables, rounds, shifts, step):
        self.tables, self.rounds = tables, rounds
        self.set_at = [[(t + step * r) % tables for t in range(tables)] for r in range(rounds)]
        self.table_of_set = [[0] * tables for _ in range(rounds)]
        for r, sets in enumerate(self.set_at):
            for t, set_ in enumerate(sets):
                self.table_of_set[r][set_] = t
        self.where = [
            [[(i + shifts[o] * r) % tables for i in range(tables)] for r in range(rounds)]
            for o in range(4)
        ]
        self.who = [[[0] * tables for _ in range(rounds)] for _ in range(4)]
        for o in range(4):
            for r in range(rounds):
                for i, t in enumerate(self.where[o][r]):
                    self.who[o][r][t] = i
        self.players = 4 * tables
        self.meet = [0] * (self.players * self.players)
        self.held = [0] * (self.players * tables)
        self.repeated = 0
        self.moved = 0
        for r in range(rounds):
            for t in range(tables):
                for o in range(4):
                    i = self.who[o][r][t]
                    for o2 in range(o + 1, 4):
                        self._meet(o, i, o2, self.who[o2][r][t], +1)
                    self.held[(4 * i + o) * tables + self.set_at[r][t]] += 1

    def _meet(self, o, i, o2, j, change):
        x, y = 4 * i + o, 4 * j + o2
        key = x * self.players + y if x < y else y * self.players + x
        if change > 0:
            self.repeated += self.meet[key] >= 1
            self.meet[key] += 1
        else:
            self.meet[key] -= 1
            self.repeated -= self.meet[key] >= 1

    def relocate(self, o, r, moves):
        """Players ``i`` of orientation ``o`` go to ``table`` in round ``r`` (``moves``:
        ``(i, table)`` pairs that permute the tables they leave)."""
        who, where, tables = self.who, self.where, self.tables
        for i, _ in moves:
            t = where[o][r][i]
            for o2 in range(4):
                if o2 != o:
                    self._meet(o, i, o2, who[o2][r][t], -1)
            self.held[(4 * i + o) * tables + self.set_at[r][t]] -= 1
        for i, t in moves:
            where[o][r][i] = t
            who[o][r][t] = i
            for o2 in range(4):
                if o2 != o:
                    self._meet(o, i, o2, who[o2][r][t], +1)
            self.held[(4 * i + o) * tables + self.set_at[r][t]] += 1
        self.moved += len(moves)

    def _swap_players(self, rng, o):
        r = rng.randrange(self.rounds)
        ta, tb = rng.sample(range(self.tables), 2)
        a, b = self.who[o][r][ta], self.who[o][r][tb]
        sa, sb = self.set_at[r][ta], self.set_at[r][tb]
        held, tables = self.held, self.tables
        if held[(4 * a + o) * tables + sb] or held[(4 * b + o) * tables + sa]:
            return []
        self.relocate(o, r, [(a, tb), (b, ta)])
        return [(r, [(a, ta), (b, tb)])]

    def _swap_sets(self, rng, o):
        x, y = rng.sample(range(self.tables), 2)
        undo = []
        for r in range(self.rounds):
            ta, tb = self.table_of_set[r][x], self.table_of_set[r][y]
            a, b = self.who[o][r][ta], self.who[o][r][tb]
            self.relocate(o, r, [(a, tb), (b, ta)])
            undo.append((r, [(a, ta), (b, tb)]))
        return undo

    def _swap_rounds(self, rng, o):
        r1, r2 = rng.sample(range(self.rounds), 2)
        where, set_at, table_of_set = self.where[o], self.set_at, self.table_of_set
        sets1 = [set_at[r1][t] for t in where[r1]]
        sets2 = [set_at[r2][t] for t in where[r2]]
        undo = [(r1, list(enumerate(where[r1]))), (r2, list(enumerate(where[r2])))]
        self.relocate(o, r1, [(i, table_of_set[r1][set_]) for i, set_ in enumerate(sets2)])
        self.relocate(o, r2, [(i, table_of_set[r2][set_]) for i, set_ in enumerate(sets1)])
        return undo

    def run(self, budget=None, seed=SEARCH_SEED):
        """The best ``where`` found (``[o][r][i]`` → table) and its repeated meetings."""
        budget = SEARCH_BUDGET if budget is None else budget
        rng = random.Random(seed)
        best, best_where = self.repeated, [[row[:] for row in rows] for rows in self.where]
        moves = [self._swap_sets] + ([self._swap_rounds] if self.rounds > 1 else [])
        if self.rounds < self.tables:
            moves = [self._swap_players] * 3 + moves
        hot, cold = 2.0, 0.05
        while self.moved < budget and best:
            heat = hot * (cold / hot) ** (self.moved / budget)
            o = rng.randrange(4)
            before = self.repeated
            undo = rng.choice(moves)(rng, o)
            if not undo:
                self.moved += 1  # a refused swap still spends the budget
                continue
            worse = self.repeated - before
            if worse <= 0 or rng.random() < math.exp(-worse / heat):
                if self.repeated < best:
                    best = self.repeated
                    best_where = [[row[:] for row in rows] for rows in self.where]
            else:
                for r, back in reversed(undo):
                    self.relocate(o, r, back)
        return best, best_where

    def plan(self, where) -> tuple:
        plan = []
        for r in range(self.rounds):
            seats = [[0] * 4 for _ in range(self.tables)]
            for o in range(4):
                for i, t in enumerate(where[o][r]):
                    seats[t][o] = _player(i, o)
            plan.append(tuple((self.set_at[r][t] + 1, tuple(seats[t])) for t in range(self.tables)))
        return tuple(plan)


@cache
def movement(tables: int, rounds: int) -> Movement:
    """The movement of ``tables`` tables over ``rounds`` rounds with the fewest repeated
    meetings found; ``MovementError`` when it cannot be played."""
    for name, value in (("tables", tables), ("rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MovementError(f"{name}_invalid", f"{name}: a whole number from 1")
    if tables > MAX_TABLES or rounds > MAX_ROUNDS:
        raise MovementError(
            "too_large",
            f"a movement has at most {MAX_TABLES} tables and {MAX_ROUNDS} rounds, "
            f"not {tables} tables and {rounds} rounds",
        )
    if rounds > tables:
        raise MovementError(
            "rounds_over_tables",
            f"{rounds} rounds need {rounds} sets, and {tables} tables play {tables}: "
            "a player would meet a set twice",
        )
    power = _prime_power(tables)
    if power is not None and power[1] > 1 and tables >= 5 and power in IRREDUCIBLE:
        ring = Ring.galois(*power)
        shifts = (0, 1, 2, 3)  # four distinct elements: every difference invertible
        excluded = {ring.neg(shift) for shift in shifts}
        step = min(set(range(tables)) - excluded)  # shift + step is never 0
        return Movement(tables, rounds, 0, _cyclic_plan(tables, rounds, shifts, step, ring))
    repeated, shifts, step = _best_cyclic(tables, rounds)
    if repeated == 0:
        return _cyclic(tables, rounds, shifts, step, FEWEST)
    search = _Search(tables, rounds, shifts, step)
    found, where = search.run()
    return Movement(tables, rounds, found, search.plan(where))


def _step(shifts, tables: int, rounds: int) -> int | None:
    """The smallest move of the sets that never gives a player a set twice."""
    return next(
        (
            step
            for step in range(tables)
            if all(_order(shift + step, tables) >= rounds for shift in shifts)
        ),
        None,
    )


@cache
def _best_cyclic(tables: int, rounds: int) -> tuple:
    """``(repeated, shifts, step)`` of the cyclic movement with the fewest repeated
    meetings (counted in closed form for every choice of shifts)."""
    best = None
    for rest in combinations_with_replacement(range(tables), 3):
        shifts = (0, *rest)
        repeated = count_repeats(shifts, tables, rounds)
        if best is not None and repeated >= best[0]:
            continue
        step = _step(shifts, tables, rounds)
        if step is not None:
            best = (repeated, shifts, step)
            if repeated == 0:
                break
    return best


def _cyclic(tables, rounds, shifts, step, kind) -> Movement:
    plan = _cyclic_plan(tables, rounds, shifts, step, Ring.integers(tables))
    repeated = count_repeats(shifts, tables, rounds)
    return Movement(tables, rounds, repeated, plan, kind, tuple(shifts), step)


@cache
def candidates(tables: int, rounds: int) -> tuple:
    """Every movement that fits ``tables`` tables over ``rounds`` rounds, the fewest
    repeated meetings first: ``movement``'s, the plain rotation when it can be played
    (no player holding a set twice), and the best cyclic movement when it differs from
    both (a movement whose players' seats are those of one listed already is left out).
    ``MovementError`` as ``movement``."""
    out = [movement(tables, rounds)]
    step = _step(ROTATION_SHIFTS, tables, rounds) if tables >= 4 else None
    if step is not None:
        out.append(_cyclic(tables, rounds, ROTATION_SHIFTS, step, ROTATION))
    _repeated, shifts, step = _best_cyclic(tables, rounds)
    out.append(_cyclic(tables, rounds, shifts, step, CYCLIC))
    kept = []
    for candidate in out:
        if all(candidate.plan != other.plan for other in kept):
            kept.append(candidate)
    return tuple(kept)


def movement_of(kind: str, tables: int, rounds: int) -> Movement:
    """The movement of ``kind`` among ``candidates``; ``MovementError`` when it does not
    fit these tables and rounds."""
    found = next((m for m in candidates(tables, rounds) if m.kind == kind), None)
    if found is None:
        raise MovementError("movement_unfit", f"no {kind} movement fits {tables} tables")
    return found
