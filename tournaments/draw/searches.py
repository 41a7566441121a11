"""The search of a whole schedule: a plan of the odd tables, a first draw, a tabu search."""

from __future__ import annotations

import itertools
import random

from .rounds import _draw_indices
from .sizes import Round

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
