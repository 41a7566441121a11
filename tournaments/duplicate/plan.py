"""A duplicate event's plan from its movement (``DUPLICATE.md`` §1, §6): the players
entered put on the movement's seats, the byes, each player's route, each table's
card and each étui's way round the room. Pure Python, no database.

The movement seats ``4T`` players for ``T = ⌈N / 4⌉`` tables; the entries take the
movement's players 1 … N in the order of their numbers, and the seats of the players
N + 1 … 4T stay empty: a table with an empty seat does not play that round (its
players rest, a bye) and is left out of the plan's tables.
"""

from dataclasses import dataclass
from itertools import combinations

from tournaments.duplicate.movement import ORIENTATIONS, movement


@dataclass(frozen=True)
class PlanTable:
    round: int
    table: int
    set: int
    seats: tuple  # entry numbers N, E, S, W


@dataclass(frozen=True)
class Plan:
    tables: int
    rounds: list  # per round: its playing tables (PlanTable), in table order
    byes: list  # per round: the entry numbers resting
    repeated: int  # meetings beyond the first between entered players

    def route(self, number: int) -> list:
        """An entry's route: ``(round, table, orientation, set)`` a round, or ``(round,
        None, None, None)`` for a bye."""
        out = []
        for r, tables in enumerate(self.rounds, 1):
            where = next(((t, t.seats.index(number)) for t in tables if number in t.seats), None)
            if where is None:
                out.append((r, None, None, None))
            else:
                table, seat = where
                out.append((r, table.table, ORIENTATIONS[seat], table.set))
        return out

    def passes(self, round_number: int, table: int) -> int | None:
        """The table that plays in the next round the set ``table`` plays in round
        ``round_number``: where its étui goes (None: the last round, or a bye table)."""
        if round_number >= len(self.rounds):
            return None
        current = next((t for t in self.rounds[round_number - 1] if t.table == table), None)
        if current is None:
            return None
        return self.set_table(round_number + 1, current.set)

    def set_table(self, round_number: int, set_number: int) -> int | None:
        found = next((t for t in self.rounds[round_number - 1] if t.set == set_number), None)
        return found.table if found else None


def tables_for(players: int) -> int:
    return -(-players // 4)


def plan(numbers, rounds: int) -> Plan:
    """The plan of ``rounds`` rounds for the entries ``numbers`` (``MovementError`` when
    the movement cannot be played: fewer than four players, or more rounds than tables)."""
    numbers = sorted(numbers)
    count = tables_for(len(numbers)) if numbers else 0
    chosen = movement(count, rounds)
    of_player = dict(enumerate(numbers, 1))
    out, byes = [], []
    for r in range(rounds):
        playing, resting = [], []
        for table, set_, players in chosen.seating(r):
            seats = tuple(of_player.get(p) for p in players)
            if None in seats:
                resting.extend(n for n in seats if n is not None)
            else:
                playing.append(PlanTable(r + 1, table, set_, seats))
        out.append(playing)
        byes.append(sorted(resting))
    return Plan(count, out, byes, repeated_meetings(out))


def repeated_meetings(rounds) -> int:
    """Meetings beyond the first, over every pair of players who played at one table."""
    met: dict = {}
    for tables in rounds:
        for table in tables:
            for pair in combinations(sorted(table.seats), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values())
