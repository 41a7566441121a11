"""Schedules where nobody meets twice, from finite geometry (and one found once)."""

from __future__ import annotations

from collections.abc import Sequence


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
