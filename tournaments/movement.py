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

For other table counts ``movement`` searches every choice of shifts and step modulo
``T`` (the North players stay: ``shift[N] = 0``), keeps those that never give a
player a set twice, and takes the one with the fewest repeated meetings (counted
exactly, in closed form, for each choice). For 30 tables that is 4,960 shift
choices × 30 steps, under half a second.

Players are numbered 1 to ``4T``: the players of table ``t`` in round 1 are
``4t − 3`` (N), ``4t − 2`` (E), ``4t − 1`` (S), ``4t`` (W). Tables and sets are
numbered from 1.
"""

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import gcd

ORIENTATIONS = ("N", "E", "S", "W")


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


@dataclass(frozen=True)
class Movement:
    tables: int
    rounds: int
    shifts: tuple  # tables moved a round, per orientation N, E, S, W (ring elements)
    step: int  # tables a set moves a round
    repeated: int  # meetings beyond the first, over every pair of players
    ring: Ring = None

    def at(self, start: int, move: int, round_: int) -> int:
        """Where a player (or a set) that starts at ``start`` and moves ``move`` a
        round is in round ``round_`` (0-based): ``start + move × round_``."""
        ring = self.ring
        return ring.add[start][ring.mul[move][round_ % ring.size]]

    def player(self, table: int, orientation: int) -> int:
        """The number of the player who starts at ``table`` (0-based) in ``orientation``."""
        return 4 * table + orientation + 1

    def seating(self, round_: int):
        """Round ``round_`` (0-based): ``(table, set, players N E S W)`` per table, all
        1-based, in table order."""
        t_count = self.tables
        seats = [[0] * 4 for _ in range(t_count)]
        for start in range(t_count):
            for orientation, shift in enumerate(self.shifts):
                seats[self.at(start, shift, round_)][orientation] = self.player(start, orientation)
        return [
            (table + 1, self.at(table, self.step, round_) + 1, tuple(seats[table]))
            for table in range(t_count)
        ]

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


def movement(tables: int, rounds: int) -> Movement:
    """The movement of ``tables`` tables over ``rounds`` rounds with the fewest repeated
    meetings among the cyclic ones; ``MovementError`` when it cannot be played."""
    for name, value in (("tables", tables), ("rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MovementError(f"{name}_invalid", f"{name}: a whole number from 1")
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
        return Movement(tables, rounds, shifts, step, 0, ring)
    ring = Ring.integers(tables)
    best = None
    for rest in combinations_with_replacement(range(tables), 3):
        shifts = (0, *rest)
        repeated = count_repeats(shifts, tables, rounds)
        if best is not None and repeated >= best.repeated:
            continue
        step = next(
            (
                step
                for step in range(tables)
                if all(_order(shift + step, tables) >= rounds for shift in shifts)
            ),
            None,
        )
        if step is not None:
            best = Movement(tables, rounds, shifts, step, repeated, ring)
            if repeated == 0:
                break
    return best
