"""A drawn round fitted to the players present now (late arrivals, withdrawals)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .measures import meeting_counts
from .rounds import _check_round, _present
from .sizes import Round, table_sizes


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
