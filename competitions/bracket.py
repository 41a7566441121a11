"""A cup: direct elimination on a bracket, with seeds and byes. Pure Python.

The bracket has the next power of two above the number of teams; the places left
over are byes, given to the best seeds (seed 1 first), who go straight to the
second round. Seeds sit in the standard order (1 and 2 can only meet in the final,
1–4 and 2–3 in the semi-finals…): for 8 places, top to bottom 1, 8, 4, 5, 2, 7, 3, 6.

``draw_bracket`` seeds the teams in the order given (``seeded`` of them keep their
place; the others are drawn at random into the remaining seeds, reproducibly for a
``seed``); ``Bracket.rounds(winners)`` lays out every round from the winners known
so far, so the bracket is data and the results decide the rest.
"""

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Team = TypeVar("Team", bound=Hashable)


def seed_order(size: int) -> list[int]:
    """The seeds (from 1) top to bottom of a bracket of ``size`` places (a power of 2)."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for top in order for seed in (top, places + 1 - top)]
    return order


@dataclass(frozen=True)
class Tie(Generic[Team]):
    """One tie: ``round`` from 1, ``slot`` from 0 top to bottom; a side is ``None``
    while it waits for an earlier tie's winner; ``bye`` when one side has nobody."""

    round: int
    slot: int
    top: Team | None
    bottom: Team | None
    bye: bool = False

    @property
    def key(self) -> str:
        return f"{self.round}-{self.slot}"

    @property
    def decided_without_play(self) -> Team | None:
        return (self.top if self.top is not None else self.bottom) if self.bye else None


@dataclass(frozen=True)
class Bracket(Generic[Team]):
    """The first round's places, top to bottom (``None``: a bye)."""

    places: tuple[Team | None, ...]

    @property
    def size(self) -> int:
        return len(self.places)

    @property
    def round_count(self) -> int:
        return self.size.bit_length() - 1

    def rounds(self, winners: Mapping[str, Team] = {}) -> list[list[Tie]]:  # noqa: B006
        """Every round's ties, filled from ``winners`` (tie key → winning team)."""
        rounds: list[list[Tie]] = []
        sides = list(self.places)
        byes = [team is None for team in sides]  # empty for good, not still waiting
        for number in range(1, self.round_count + 1):
            ties, advancing, empty = [], [], []
            for slot in range(len(sides) // 2):
                top, bottom = sides[2 * slot], sides[2 * slot + 1]
                top_empty, bottom_empty = byes[2 * slot], byes[2 * slot + 1]
                tie = Tie(number, slot, top, bottom, bye=top_empty != bottom_empty)
                ties.append(tie)
                if top_empty and bottom_empty:
                    winner, gone = None, True
                elif tie.bye:
                    winner, gone = tie.decided_without_play, False
                else:
                    winner, gone = winners.get(tie.key), False
                    if winner is not None and winner not in (top, bottom):
                        raise ValueError(f"tie {tie.key}: {winner!r} did not play it")
                advancing.append(winner)
                empty.append(gone)
            rounds.append(ties)
            sides, byes = advancing, empty
        return rounds


def draw_bracket(teams: Sequence[Team], *, seeded: int | None = None, seed: int = 0) -> Bracket:
    """``teams`` by seed (best first). ``seeded``: how many keep their seed (all by
    default); the others are shuffled by ``random.Random(seed)`` over the seeds left."""
    teams = list(teams)
    if len(teams) < 2:
        raise ValueError("a cup needs two teams")
    if len(set(teams)) != len(teams):
        raise ValueError("each team once")
    seeded = len(teams) if seeded is None else max(0, min(seeded, len(teams)))
    drawn = teams[seeded:]
    random.Random(seed).shuffle(drawn)
    by_seed = teams[:seeded] + drawn
    size = 1 << (len(teams) - 1).bit_length()
    places = tuple(by_seed[s - 1] if s <= len(by_seed) else None for s in seed_order(size))
    return Bracket(places)
