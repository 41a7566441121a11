"""The table draw of a free-deal French Tarot tournament ("tournoi en donnes libres").

Pure Python, no Django: the tournament pages and the ``draw_tables`` command
call it, and it can be tested and timed on its own.

A round seats everybody present at tables of 4; tables of 5 take the rest, and
tables of 3 appear only when 4s and 5s cannot seat everybody (3, 6, 7 and 11
players). Each table is a list of player ids in seat order: North, East, South,
West, then the fifth seat.

What a draw optimises, in this order:

1. The spread of seats at tables of 5 and 3, a rule: those seats go to the
   players present who sat there the fewest times, so nobody sits at one twice
   before everybody has once; among the players the rule allows, the meetings
   decide. (The rule has a price: with one table of 5 among tables of 4, the
   five players of a round's table of 5 must spread over the tables of 4 of
   the next round, so two of them meet again; for 21 players the strict spread
   costs about two repeated meetings a round.)
2. Repeated meetings. Two players at the same table *meet*; a draw avoids pairs
   who met in earlier rounds, and a pair who already met twice costs more than
   a pair who met once (a pair that met ``k`` times before costs
   ``k (k + 1) / 2``: 1, then 3, then 6).
3. Seat rotation: within each table, seats are given so that each player gets
   the positions he had the fewest times before.

Two ways of drawing:

* ``draw_round(players, history)``: one round at a time, for the players present
  now, knowing the tables of the previous rounds. Late arrivals and withdrawals
  are simply players present or not.
* ``draw_schedule(n_players, rounds)``: every round in advance. When the number
  of players is 4q for a prime power q >= 4, the first q rounds (5 for 16
  players) come from a finite-geometry construction (a resolvable transversal
  design; the affine plane of order 4 for 16 players) where nobody meets
  anybody twice; so do 5 or 6 rounds of 30 players, with an even spread
  (``_THIRTY_IN_SIX``, found once by an exact solver). Otherwise a plan first
  says who sits at the tables of 3 and 5 in each round (``_odd_plan``: an even
  spread, any two rounds sharing few of those players), rounds are drawn one
  after the other along it, then a tabu search over the whole schedule
  (``_ScheduleSearch``) swaps players within a round, keeping the spread
  (``spread``; ``spread=None`` trades that fairness for fewer meetings), and
  starts again from a new plan when it stalls. ``least_repeats`` is a lower
  bound the pages show beside a draw.

Three rules an organiser chooses among (``Tournament.draw_rule``): *fair by the end*,
the default, is ``draw_schedule(spread=1)``: after the last round everybody's seats at
tables of 3 and 5 are within one of each other, in whichever rounds; a tournament drawn
round by round gets the rounds of that schedule while the same players play every
round. *Fair every round* is ``draw_round`` round after round (nobody twice before
everybody once). *Fewer meetings* is ``spread=None``. ``plain.plain_search``, a plain
local search under the even spread, is the yardstick the default is held to (tests,
``draw_tables --stats --compare``). The package: ``sizes`` (table sizes, the spread's
bounds, the largest draw: ``MAX_PLAYERS``, ``MAX_ROUNDS``), ``measures``, ``rounds``
(one round, the seats), ``rebalance``, ``constructions``, ``bounds``, ``searches``.

Everything is deterministic for a given ``seed``: randomness comes only from
``random.Random(seed)``, searches are bounded by iteration or move counts (never
by the clock), and players are handled in the order of their ids.

An even spread has a price when a round has few tables. With one table of 5
among 4 tables (17 players), the five players of round r's table of 5 sit at
the 4 tables of another round r': if none of them sits at r''s table of 5, they
fill 3 tables of 4, so two pairs of them meet again; if one does, one pair. An
even spread gives two seats at a table of 5 to only 3 of the 17 players, so
over 4 rounds at most 2 (round, round) couples share a player of their tables
of 5 and the 12 ordered couples cost at least 17 repeated meetings (the search
reaches 17), while letting two players sit at the table of 5 every round
brings 3. With 21 players (5 tables a round) the same count gives at least 12.
For 13 players over 4 rounds (a table of 5 and two of 4) every schedule with an
even spread was tried (``_even_spread_reaches``: the 25 plans of who sits at the
table of 5, up to the order of the rounds, times the 35 splits of the others
into two tables of 4 each round): none has fewer than 22 repeated meetings,
against 14 without the rule. Those three least figures are in
``EVEN_SPREAD_LEAST``, and the search stops when it reaches one. With two
tables of 5 among 4 (18 players) a table of 5 seated in another round's 4
tables carries at least one pair, 40 over the 20 ordered couples of 5 rounds,
and a pair is counted at most 3 times per repeated meeting (nobody sits at a
table of 5 more than 3 times): at least 14 repeated meetings with an even
spread (``_carried_over``, in ``least_repeats``), against 11 without the rule.
With 22 players (tables 4, 4, 4, 5, 5) the same count, knowing how many players
two rounds' tables of 5 share, gives at least 4, against 3 without the rule.
The search reaches 25 and 10 there; nothing proves these the least: five times
the search's effort, other seeds, simulated annealings (one from the affine
plane of order 5 less 3 points, which meets nobody twice but seats 2 players
at a table of 5 every round) and an exact solver given a minute found no
better.
"""

from __future__ import annotations

import random

from .bounds import EVEN_SPREAD_LEAST, least_repeats
from .constructions import _constructed_rounds
from .measures import DrawQuality, meeting_counts, odd_table_counts, quality, repeats, swap
from .rebalance import rebalance
from .rounds import _assign_seats, draw_round
from .searches import SCHEDULE_EFFORT, SCHEDULE_WORK, _search
from .sizes import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    SEAT_NAMES,
    DrawError,
    Round,
    odd_seat_bounds,
    table_sizes,
)

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "SEAT_NAMES",
    "DrawError",
    "DrawQuality",
    "EVEN_SPREAD_LEAST",
    "draw_round",
    "draw_schedule",
    "least_repeats",
    "meeting_counts",
    "odd_seat_bounds",
    "odd_table_counts",
    "quality",
    "rebalance",
    "repeats",
    "swap",
    "table_sizes",
]


def draw_schedule(
    n_players: int,
    rounds: int,
    *,
    seed: int | str | None = 0,
    constructions: bool = True,
    effort: float = SCHEDULE_EFFORT,
    spread: int | None = 1,
) -> list[Round]:
    """Draw ``rounds`` rounds in advance for players numbered 1 to ``n_players``.

    ``constructions=False`` skips the finite-geometry schedules and always
    searches. ``effort`` scales the search (``SCHEDULE_WORK`` moves a unit;
    0 keeps the first draw). ``spread`` is the fairness of the tables of 3 and
    5 (``odd_seat_bounds``): 1, the default, spreads them evenly.
    """
    sizes = table_sizes(n_players)
    if rounds < 0:
        raise DrawError("The number of rounds cannot be negative.")
    if rounds > MAX_ROUNDS:
        raise DrawError(f"A draw takes at most {MAX_ROUNDS} rounds, not {rounds}.")
    rng = random.Random(seed)
    n = n_players
    low, high = odd_seat_bounds(n, rounds, spread)
    built = _constructed_rounds(n) if constructions else []
    schedule: list[Round] = []
    if rounds and len(built) >= rounds:
        # Relabel the players at random, pick and shuffle rounds and tables,
        # if the rounds picked keep the spread (30 players: 5 or 6 rounds).
        label = list(range(n))
        rng.shuffle(label)
        chosen = rng.sample(built, rounds)
        odd = odd_table_counts(chosen)
        if all(low <= odd.get(x, 0) <= high for x in range(n)):
            for r in chosen:
                tables = [[label[x] for x in table] for table in r]
                rng.shuffle(tables)
                schedule.append(tables)
    if not schedule:
        floor = least_repeats([sizes] * rounds, n, even_spread=spread == 1)
        schedule = _search(n, sizes, rounds, rng, int(effort * SCHEDULE_WORK), low, high, floor)
    # Seats last, round after round, players numbered from 1.
    result: list[Round] = []
    for r in schedule:
        result.append(_assign_seats([[x + 1 for x in table] for table in r], result, rng))
    return result
