"""What a draw is measured by: meetings, seats at tables of 3 and 5, seat positions."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .sizes import DrawError, Round


def _again(times: int) -> int:
    """What seating together a pair who already met ``times`` times costs: 0, 1, 3, 6..."""
    return times * (times + 1) // 2


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
