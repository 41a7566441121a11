"""The cards' arithmetic: what a deck's points and bouts allow (RULES.md §1.1, §1.2, §5).

A ``Deck`` answers the questions the scorer's input raises before any scoring:
the target for a number of bouts, the points a number of bouts allows, whether a
half point can happen at this many players, and whether a chelem fits the points.
Everything is kept in half points internally (``..._halves``); the public
methods take points as numbers and the plain-data form (``as_dict``) gives
points, so the web layer can put it in data attributes as it is.
"""

from dataclasses import dataclass, field

ATTACK = "attack"
DEFENCE = "defence"


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck's totals, targets, bounds and chelem bounds.

    ``targets`` are by number of bouts (index 0 to ``bouts``). ``bout_floor`` is
    the least a bout brings to the side holding it: a bout is worth 4.5, but the
    excuse counts 4 for a side that took no trick (RULES.md §5), so ``b`` bouts
    allow ``bout_floor × b`` to ``total − bout_floor × (bouts − b)`` points.
    ``half_points_at`` are the counts of players at which a count can end in .5
    (RULES.md §1.2: 3, 4 and 5; never at two).

    Chelem bounds (RULES.md §5): a chelem made by the attack leaves the defence
    at most the excuse, so the attack has at least ``chelem_attack_min`` points;
    a chelem made by the defence leaves the attack at most the excuse: at most
    ``chelem_defence_max_points`` points and ``chelem_defence_max_bouts`` bouts.
    The petit chelem (all the tricks but one) is not bounded: the one trick
    the other side takes may hold any cards (a trick of kings, a bout, the chien
    at garde contre), so no bound follows from the rules without guessing.
    """

    name: str
    total: int = 91
    bouts: int = 3
    targets: tuple[int, ...] = (56, 51, 41, 36)
    bout_floor: int = 4
    half_points_at: frozenset[int] = frozenset({3, 4, 5})
    chelem_attack_min: int = 87
    chelem_defence_max_points: int = 4
    chelem_defence_max_bouts: int = 1
    # Derived once, in half points: the hot path reads these.
    total_halves: int = field(init=False, repr=False, compare=False)
    target_halves: tuple[int, ...] = field(init=False, repr=False, compare=False)
    bounds_halves: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "total_halves", 2 * self.total)
        set_(self, "target_halves", tuple(2 * t for t in self.targets))
        set_(
            self,
            "bounds_halves",
            tuple(
                (2 * self.bout_floor * b, 2 * (self.total - self.bout_floor * (self.bouts - b)))
                for b in range(self.bouts + 1)
            ),
        )

    # --- questions, in points -------------------------------------------------------

    def target(self, bouts: int) -> int:
        """The points the attack needs with this many bouts (RULES.md §1.1)."""
        return self.targets[bouts]

    def points_range(self, bouts: int) -> tuple[int, int]:
        """The least and the most points this many bouts allow (RULES.md §5)."""
        low, high = self.bounds_halves[bouts]
        return low // 2, high // 2

    def half_point_allowed(self, players: int) -> bool:
        """Whether a count can end in .5 when this many play (RULES.md §1.2)."""
        return players in self.half_points_at

    def chelem_refusal(self, side, points_halves: int, bouts: int) -> str | None:
        """Why a chelem made by ``side`` contradicts the points (a message), or None.

        ``side`` None (no chelem made, or announced and failed) always fits;
        points or bouts out of range are the business of the other checks and
        count as fitting here."""
        if side == ATTACK:
            if points_halves < 2 * self.chelem_attack_min:
                return (
                    "a chelem means every trick: the attack then has at least "
                    f"{self.chelem_attack_min} points (the defence keeps at most the excuse)"
                )
        elif side == DEFENCE and (
            points_halves > 2 * self.chelem_defence_max_points
            or bouts > self.chelem_defence_max_bouts
        ):
            return (
                "the defence's chelem leaves the attack at most the excuse "
                f"({self.chelem_defence_max_points} points, "
                f"{self.chelem_defence_max_bouts} bout)"
            )
        return None

    def as_dict(self) -> dict:
        """Plain data for the hand-entry page (points, not half points)."""
        return {
            "total": self.total,
            "bouts": self.bouts,
            "targets": list(self.targets),
            "points_range": [list(self.points_range(b)) for b in range(self.bouts + 1)],
            "half_points_at": sorted(self.half_points_at),
            "chelem": {
                ATTACK: {"min_points": self.chelem_attack_min},
                DEFENCE: {
                    "max_points": self.chelem_defence_max_points,
                    "max_bouts": self.chelem_defence_max_bouts,
                },
            },
        }


#: The 78-card French tarot deck: 91 points, 3 bouts (RULES.md §1).
TAROT = Deck("tarot")
