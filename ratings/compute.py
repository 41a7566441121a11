"""The ratings' arithmetic, through ``openskill`` (no Django, no database).

The model and its options are chosen here once (the README says why):
``PlackettLuce`` with the library's defaults (μ 25, σ 25/3, β 25/6, τ 25/300), each
hand a match of its sides ranked by the hand's result (``tarot.rating.match_of``),
no weights and no scores. Everything that rates (the update of a new hand, the
re-rating from the ledger, ``rate_hands``, the benchmark) goes through ``Rater``.
"""

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
    """Players' states (``player → State``) moved by matches, in the order given."""

    def __init__(self, states=None):
        self.states: dict = dict(states or {})

    def state(self, player) -> State:
        found = self.states.get(player)
        if found is None:
            found = self.states[player] = State.new()
        return found

    def rate(self, match: Match) -> None:
        """Rate one match (``openskill``'s ``rate``) and keep its players' new states."""
        rating = MODEL.rating
        teams = [
            [rating(s.mu, s.sigma) for s in (self.state(p) for p in team)] for team in match.teams
        ]
        rated = MODEL.rate(teams, ranks=list(match.ranks))
        for team, new_team in zip(match.teams, rated):
            for player, new in zip(team, new_team):
                state = self.states[player]
                state.mu, state.sigma = new.mu, new.sigma
                state.hands += 1

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
