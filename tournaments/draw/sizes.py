"""Table sizes, the spread of seats at tables of 3 and 5, and the draw's error."""

from __future__ import annotations

#: Seat positions, index 0 to 4, in the order a table lists its players.
SEAT_NAMES = ("North", "East", "South", "West", "Fifth")

#: The most players and rounds a draw takes: beyond, the search's tables of meetings
#: (players squared) and its time outgrow what a tournament needs.
MAX_PLAYERS = 500
MAX_ROUNDS = 30

Table = list[int]
Round = list[Table]


class DrawError(ValueError):
    """The draw cannot be made (too few players, a player seated twice, ...)."""


def table_sizes(n: int) -> list[int]:
    """The sizes of the tables that seat ``n`` players: 4s, then 5s, or 3s if needed.

    >>> table_sizes(17), table_sizes(18), table_sizes(11), table_sizes(6)
    ([4, 4, 4, 5], [4, 4, 5, 5], [4, 4, 3], [3, 3])
    """
    if n < 3:
        raise DrawError(f"A draw needs at least 3 players, not {n}.")
    if n > MAX_PLAYERS:
        raise DrawError(f"A draw takes at most {MAX_PLAYERS} players, not {n}.")
    fives = n % 4
    if n >= 5 * fives:
        return [4] * ((n - 5 * fives) // 4) + [5] * fives
    # 3, 6, 7 and 11 players: no mix of 4s and 5s seats them.
    threes = -n % 4
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


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
