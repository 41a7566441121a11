"""A duplicate event's plan from its movement (``DUPLICATE.md`` §1, §6): the players
entered put on the movement's seats, the byes, each player's route, each table's
card and each étui's way round the room. Pure Python, no database.

The movement seats ``4T`` players for ``T = ⌈N / 4⌉`` tables; the entries take the
movement's players 1 … N in the order of their numbers, and the seats of the players
N + 1 … 4T stay empty: a table with an empty seat does not play that round (its
players rest, a bye) and is left out of the plan's tables.

Several movements may fit (``movement.candidates``): ``options`` plans each for the
players entered, with what tells them apart (repeated meetings between the players
entered, players resting a round, rounds each player plays, how the players move);
the one with the fewest repeated meetings, then the fewest rests, then fixed moves
rather than route cards, is preselected.
"""

from dataclasses import dataclass
from itertools import combinations

from tournaments.duplicate.movement import ORIENTATIONS, candidates


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
    kind: str = "fewest"  # the movement's kind (``movement.KINDS``)

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


@dataclass(frozen=True)
class Option:
    """One movement that fits, planned for the players entered."""

    plan: Plan
    movement: object  # the ``movement.Movement``
    preselected: bool

    @property
    def kind(self) -> str:
        return self.plan.kind

    @property
    def most_resting(self) -> int:
        """The most players resting in one round."""
        return max((len(byes) for byes in self.plan.byes), default=0)

    @property
    def rests(self) -> int:
        """Rests over the event, every player's byes counted."""
        return sum(len(byes) for byes in self.plan.byes)

    def rounds_played(self, numbers) -> tuple:
        """The fewest and the most rounds one of ``numbers`` plays."""
        rounds = len(self.plan.rounds)
        rested = dict.fromkeys(numbers, 0)
        for byes in self.plan.byes:
            for n in byes:
                rested[n] += 1
        counts = [rounds - r for r in rested.values()] or [rounds]
        return min(counts), max(counts)


def options(numbers, rounds: int) -> list[Option]:
    """Every movement that fits the entries ``numbers`` over ``rounds`` rounds, planned,
    the preselected one marked (``MovementError`` as ``plan``)."""
    numbers = sorted(numbers)
    count = tables_for(len(numbers)) if numbers else 0
    plans = [(_plan_of(numbers, rounds, m), m) for m in candidates(count, rounds)]

    def cost(item):  # on a tie, moves everybody can follow beat route cards
        planned, chosen = item
        return planned.repeated, sum(len(b) for b in planned.byes), chosen.shifts is None

    best = min(plans, key=cost)
    return [Option(*item, item is best) for item in plans]


def plan(numbers, rounds: int, kind: str = "") -> Plan:
    """The plan of ``rounds`` rounds for the entries ``numbers`` on the movement of
    ``kind`` (the preselected one when ``kind`` is empty or does not fit them);
    ``MovementError`` when no movement can be played: fewer than four players, or more
    rounds than tables."""
    found = options(numbers, rounds)
    chosen = next((o for o in found if o.kind == kind), None)
    if chosen is None:
        chosen = next(o for o in found if o.preselected)
    return chosen.plan


def _plan_of(numbers, rounds: int, chosen) -> Plan:
    count = chosen.tables
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
    return Plan(count, out, byes, repeated_meetings(out), chosen.kind)


def repeated_meetings(rounds) -> int:
    """Meetings beyond the first, over every pair of players who played at one table."""
    met: dict = {}
    for tables in rounds:
        for table in tables:
            for pair in combinations(sorted(table.seats), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values())
