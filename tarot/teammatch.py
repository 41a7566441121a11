"""A team match: two teams of four, the same deals at two tables, the difference
turned into match points by the competition's scale. Pure Python, exact integers.

The seating (the default, as in a bridge team match): team A sits North–South at
table 1 and East–West at table 2, team B the other way round, so each team holds
both lines of every deal and the luck of the cards cancels. A team's result on a
deal is the sum of its players' marques at both tables; the match's difference is
the sum over the deals of A's result minus B's.

Each table's marques sum to zero, so on one deal A's result at a table is minus
B's, and the difference is twice A's result: a deal where both tables made the
same marque in the same seats is a difference of 0, whoever held the cards.

A free-deal team match (``seating=None`` below) sums each team's totals in the
same way, without the cancelling.

``Scale``: the competition's barème, data the league edits. Lines of
``(difference from, match points of the side ahead, match points of the side
behind)``, from a difference of 0 upwards; the line of a match is the last one
whose start is at most the absolute difference. An exact tie (a difference of 0)
puts nobody ahead: both sides get the first line's points of the side behind, so a
match scores the same whichever team is called A (a first line of 12–8 gives a tie
8–8; the 4 more are for being ahead). The default is a plain
win / draw / loss: a difference within the draw margin is a draw (1–1), beyond it
a win (2–0). League points follow the match points: more is a win (3 by default),
equal a draw (1), fewer a loss (0).
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SEATS = ("N", "E", "S", "W")
#: the default seating: the seats of team A at each table (B holds the other two)
DEFAULT_SEATING = (("N", "S"), ("E", "W"))


class TeamMatchError(ValueError):
    """A match or a scale the contract refuses; ``code`` names the reason."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Scale:
    """The barème: ``lines`` of ``(from_difference, ahead, behind)``, the first from 0."""

    lines: tuple[tuple[int, int, int], ...]

    def __post_init__(self):
        lines = tuple(tuple(int(part) for part in line) for line in self.lines)
        object.__setattr__(self, "lines", lines)
        if not lines or lines[0][0] != 0:
            raise TeamMatchError("scale_start", "a scale's first line starts at a difference of 0")
        starts = [line[0] for line in lines]
        if starts != sorted(set(starts)):
            raise TeamMatchError("scale_order", "a scale's lines go up by difference, once each")
        for start, ahead, behind in lines:
            if start < 0 or ahead < behind or behind < 0:
                raise TeamMatchError(
                    "scale_points",
                    "each line gives the side ahead at least the match points of the side behind",
                )

    @classmethod
    def plain(cls, draw_margin: int = 0, win: int = 2, draw: int = 1) -> "Scale":
        """Win / draw / loss: a difference up to ``draw_margin`` is a draw."""
        if draw_margin < 0:
            raise TeamMatchError("scale_start", "a draw margin is 0 or more")
        return cls(((0, draw, draw), (draw_margin + 1, win, 0)))

    @classmethod
    def from_data(cls, data) -> "Scale":
        """From the stored form: a list of ``[from, ahead, behind]``."""
        try:
            lines = tuple(tuple(int(part) for part in line) for line in data)
            if any(len(line) != 3 for line in lines):
                raise ValueError
        except (TypeError, ValueError) as error:
            raise TeamMatchError(
                "scale_shape", "a scale is a list of [from, ahead, behind]"
            ) from error
        return cls(lines)

    def as_data(self) -> list[list[int]]:
        return [list(line) for line in self.lines]

    def convert(self, difference: int) -> tuple[int, int]:
        """``(match points of A, of B)`` for A's difference over B."""
        line = next(line for line in reversed(self.lines) if line[0] <= abs(difference))
        _, ahead, behind = line
        if difference == 0:  # nobody ahead
            return (behind, behind)
        return (ahead, behind) if difference > 0 else (behind, ahead)


@dataclass(frozen=True)
class LeaguePoints:
    """League points from match points: more is a win, equal a draw, fewer a loss."""

    win: int = 3
    draw: int = 1
    loss: int = 0

    def of(self, mine: int, theirs: int) -> int:
        if mine > theirs:
            return self.win
        return self.draw if mine == theirs else self.loss


@dataclass(frozen=True)
class DealResult:
    """One deal: A's and B's results (the sums of their players' marques)."""

    number: int
    team_a: int
    team_b: int

    @property
    def difference(self) -> int:
        return self.team_a - self.team_b


@dataclass(frozen=True)
class MatchResult:
    deals: tuple[DealResult, ...]
    points_a: int
    points_b: int
    match_points: tuple[int, int]
    league_points: tuple[int, int]

    @property
    def difference(self) -> int:
        return self.points_a - self.points_b


def deal_result(
    number: int,
    tables: Sequence[Mapping[str, int]],
    seating: Sequence[Iterable[str]] | None = DEFAULT_SEATING,
) -> DealResult:
    """``tables``: each table's marques by seat (``{"N": 120, "E": -40, …}``), in the
    seating's order. ``seating``: A's seats at each table (B holds the rest)."""
    if seating is None:
        raise TeamMatchError("seating", "a duplicate deal needs the teams' seats")
    if len(tables) != len(seating):
        raise TeamMatchError(
            "tables", f"deal {number}: {len(seating)} tables expected, {len(tables)} given"
        )
    team_a = team_b = 0
    for index, (marques, seats_a) in enumerate(zip(tables, seating), start=1):
        if set(marques) != set(SEATS):
            raise TeamMatchError("seats", f"deal {number}, table {index}: a marque for each seat")
        if sum(marques.values()) != 0:
            raise TeamMatchError("zero_sum", f"deal {number}, table {index}: marques sum to 0")
        seats_a = set(seats_a)
        team_a += sum(score for seat, score in marques.items() if seat in seats_a)
        team_b += sum(score for seat, score in marques.items() if seat not in seats_a)
    return DealResult(number, team_a, team_b)


def match_result(
    deals: Iterable[DealResult],
    scale: Scale | None = None,
    league: LeaguePoints | None = None,
) -> MatchResult:
    """The match: the deals' sums, the match points by ``scale`` (plain by default),
    the league points by ``league`` (3/1/0 by default)."""
    scale = scale or Scale.plain()
    league = league or LeaguePoints()
    deals = tuple(deals)
    points_a = sum(deal.team_a for deal in deals)
    points_b = sum(deal.team_b for deal in deals)
    mp = scale.convert(points_a - points_b)
    return MatchResult(
        deals, points_a, points_b, mp, (league.of(mp[0], mp[1]), league.of(mp[1], mp[0]))
    )


def free_match(
    totals_a: Iterable[int],
    totals_b: Iterable[int],
    scale: Scale | None = None,
    league: LeaguePoints | None = None,
) -> MatchResult:
    """A free-deal match: each team's players' totals summed, then as ``match_result``."""
    deal = DealResult(0, sum(totals_a), sum(totals_b))
    return match_result((deal,), scale, league)
