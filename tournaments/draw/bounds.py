"""Lower bounds of the repeated meetings of any draw with given table sizes."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from .sizes import DrawError, odd_seat_bounds, table_sizes


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
