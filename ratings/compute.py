"""The ratings' arithmetic, through ``openskill`` (no Django, no database).

The model and its options are chosen here once (the README says why):
``PlackettLuce`` with the library's defaults (μ 25, σ 25/3, β 25/6, τ 25/300), each
hand a match of its sides ranked by the hand's result (``tarot.rating.match_of``),
no weights and no scores. Everything that rates (the update of a new hand, the
re-rating from the ledger, ``rate_hands``, the benchmark) goes through ``Rater``.
"""

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

from tarot.rating import Match, match_of  # noqa: F401 (the ratings' API)

#: The one model, with the library's defaults.
MODEL = PlackettLuce()
#: The conservative rating the pages rank by: μ − Z·σ.
Z = 3.0


@dataclass(slots=True)
class State:
    """One player's rating in one scope: μ, σ and the hands it counts."""

    mu: float
    sigma: float
    hands: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @classmethod
    def new(cls) -> "State":
        return cls(MODEL.mu, MODEL.sigma, 0)


class Rater:
    """Players' ratings moved by matches, in the order given.

    ``rate`` is openskill's ``PlackettLuce.rate`` without its per-call costs, the one
    shortcut of the ratings (measured by ``bench_ratings``: 60 % of a match's time was
    ``rate``'s deep copy of the teams and a new rating object, with its uuid4, per
    player per match). It keeps one rating object per player and does what ``rate``
    does with the options chosen here (no weights, no scores, ``limit_sigma`` off):
    σ grown by τ, the sides put in rank order (a stable sort, as ``rate``'s), and the
    model's own ``_compute``, which moves the objects in place. The numbers are the
    library's to the last bit: ``rate_by_library`` is ``rate`` itself, and
    ``tests/ratings/test_compute.py`` checks the two agree on random matches.
    """

    def __init__(self, states=None):
        rating = MODEL.rating
        self._ratings = {}
        self._hands = {}
        for player, state in (states or {}).items():
            self._ratings[player] = rating(state.mu, state.sigma)
            self._hands[player] = state.hands

    def get(self, player) -> State | None:
        """The player's state now (None if never rated)."""
        found = self._ratings.get(player)
        if found is None:
            return None
        return State(found.mu, found.sigma, self._hands[player])

    def players(self):
        return self._ratings.keys()

    def _objects(self, team):
        ratings, hands = self._ratings, self._hands
        out = []
        for player in team:
            found = ratings.get(player)
            if found is None:
                found = ratings[player] = MODEL.rating()
                hands[player] = 0
            hands[player] += 1
            out.append(found)
        return out

    def rate(self, match: Match) -> None:
        """Rate one match (``PlackettLuce.rate``'s numbers, see the class)."""
        teams = [self._objects(team) for team in match.teams]
        tau_squared = MODEL.tau * MODEL.tau
        sqrt = math.sqrt
        for team in teams:
            for player in team:
                player.sigma = sqrt(player.sigma * player.sigma + tau_squared)
        ranks = match.ranks
        order = sorted(range(len(teams)), key=ranks.__getitem__)
        MODEL._compute(teams=[teams[i] for i in order], ranks=sorted(ranks))

    def rate_by_library(self, match: Match) -> None:
        """Rate one match with ``PlackettLuce.rate`` as the library offers it."""
        teams = [self._objects(team) for team in match.teams]
        rated = MODEL.rate(teams, ranks=list(match.ranks))
        for team, new_team in zip(match.teams, rated):
            for player, new in zip(team, new_team):
                self._ratings[player] = new

    def rate_seats(self, kind: str, seats) -> Match | None:
        """Rate a hand given as seats (``tarot.rating``); the match, or None if it rates nobody."""
        match = match_of(kind, seats)
        if match is not None:
            self.rate(match)
        return match


def predict_win(teams_states) -> list[float]:
    """Each side's chance to win (``openskill``'s ``predict_win``), sides given as lists
    of ``State``."""
    teams = [[MODEL.rating(s.mu, s.sigma) for s in team] for team in teams_states]
    return MODEL.predict_win(teams)
