"""The ratings' arithmetic (no Django, no database): Weng–Lin's Bayesian update of
the Plackett–Luce model, as ``openskill`` computes it, with each side's strength the
*mean* of its players' (the README says why).

openskill (as Weng and Lin's paper does for team games) rates a side by the *sum*
of its players' skills, which fits teams of equal size; a Tarot hand is one taker (two at
five) against two to four defenders, and summed, three defenders at 25 are a side of
75 against a taker of 25: fresh ratings give a lone taker a 0.2 % chance, each made
contract is a large upset, and every μ drifts towards 0. openskill's ``weights``
(its manual: each player's contribution, "for faster convergence") only share a
side's move among its players, scaled into ``weight_bounds`` within each side: the
side is still a sum; its ``balance`` reweights the tails of the skill scale, not
the sides' sizes. Here a
side's strength is Σ wᵢθᵢ with wᵢ = 1/n (its mean), its variance Σ wᵢ²σᵢ², and each
player moves by the chain rule of the paper's update: μᵢ by wᵢσᵢ²/σ²_side · Ω, σᵢ²
shrunk by wᵢ²σᵢ²/σ²_side · Δ. With sides of one player (the Savoyard game's
``each``) this is openskill's ``PlackettLuce`` itself, to rounding
(``tests/ratings/test_compute.py``). ``bench_rating_model`` compares it with the sum,
with openskill's weights and with pairwise duels on clubs of known skill.

The library's defaults: μ 25, σ 25/3, β 25/6, τ 25/300, κ 0.0001, ranks only (no
scores, no margins). Everything that rates (a new hand, the re-rating from the
ledger, ``rate_hands``, the benchmarks) goes through ``Rater``.
"""

import math
from dataclasses import dataclass

from tarot.rating import Match, match_of  # noqa: F401 (the ratings' API)

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
KAPPA = 0.0001
#: The chances (``predict_win``) are read with the model's spread c widened by this
#: much: read as the update fits them (1.0), the ratings' chances were too sure at
#: both ends on clubs of known skill (the attack made 2.9 points more of its contracts
#: than the lowest tenth of predictions said, 3.5 fewer in the highest; 11,392 hands
#: of three clubs); widened by a tenth, every tenth is within 1.6 points there, 0.8 on
#: 34,185 hands of three larger clubs, 2.1 on six other clubs (``bench_rating_model``).
#: The ratings themselves do not change.
SPREAD = 1.1
#: The conservative estimate the pages rank by: μ − Z·σ (nearly surely below the skill).
Z = 3.0
#: The shown rating (``shown``): ``SHOWN_AT`` where μ − Zσ is 0, ``SHOWN_SCALE`` a point of μ.
SHOWN_AT = 1000
SHOWN_SCALE = 40


def shown(mu: float, sigma: float) -> float:
    """The rating a page shows: the conservative estimate μ − 3σ (below the skill,
    nearly surely) on a scale of ``SHOWN_SCALE`` points a point of μ, 1000 at
    μ − 3σ = 0 (a player who has not played yet: μ 25, σ 25/3). It grows with skill
    and with the hands that confirm it, then holds: an average player (μ 25) who
    plays often settles near 1,700-1,760 (σ levels off at 2 to 2.7, τ keeping it
    there; ``bench_rating_model``'s clubs), the players of a club of known skill
    between 700 and 2,550. Positive unless μ falls 25 points under 3σ, far beyond
    any club's spread."""
    return SHOWN_AT + SHOWN_SCALE * (mu - Z * sigma)


def shown_spread(sigma: float) -> float:
    """The uncertainty a page shows beside the rating: 3σ on the rating's scale (the
    skill lies, nearly surely, between the rating and the rating plus twice this)."""
    return SHOWN_SCALE * Z * sigma


@dataclass(slots=True)
class State:
    """One player's rating in one scope: μ, σ and the hands it counts."""

    mu: float
    sigma: float
    hands: int = 0

    @property
    def ordinal(self) -> float:
        """The rating shown and ranked by (``shown``): stored in ``Rating.ordinal``."""
        return shown(self.mu, self.sigma)

    @classmethod
    def new(cls) -> "State":
        return cls(MU, SIGMA, 0)


class Skill:
    """A player's μ and σ while being rated (moved in place)."""

    __slots__ = ("mu", "sigma")

    def __init__(self, mu=MU, sigma=SIGMA):
        self.mu, self.sigma = mu, sigma


def mean_side(team) -> tuple[float, float]:
    """A side's strength, the mean of its players': (μ, σ²)."""
    n = len(team)
    mu = sum(p.mu for p in team) / n
    return mu, sum(p.sigma * p.sigma for p in team) / (n * n)


def duel(winner, loser) -> None:
    """A match of two sides, ``winner`` first (lists of ``Skill``, moved in place):
    ``update`` for two sides of distinct ranks, written out (most hands are one)."""
    mu_w, var_w = mean_side(winner)
    mu_l, var_l = mean_side(loser)
    beta_squared = BETA * BETA
    c = math.sqrt(var_w + var_l + 2 * beta_squared)
    # p: the winner's chance under the model, 1/(1 + e^((μl − μw)/c))
    p = 1.0 / (1.0 + math.exp((mu_l - mu_w) / c))
    q = 1.0 - p
    for team, var, sign in ((winner, var_w, 1.0), (loser, var_l, -1.0)):
        omega = sign * var / c * q
        delta = var / (c * c) * p * q * (math.sqrt(var) / c)
        w = 1.0 / len(team)
        for player in team:
            share = player.sigma * player.sigma / var
            player.mu += w * share * omega
            player.sigma *= math.sqrt(max(1 - w * w * share * delta, KAPPA))


def update(teams, ranks) -> None:
    """Weng–Lin's Plackett–Luce update (openskill's ``PlackettLuce._compute``, tied
    sides sharing the comparisons as there) with each side's strength its players'
    mean; ``teams`` (lists of ``Skill``) in rank order, ``ranks`` sorted. (openskill's
    averaging of tied sides' moves afterwards compares each player with himself, moved
    in place: it changes nothing, and is not done here.)"""
    sides = [mean_side(team) for team in teams]
    c = math.sqrt(sum(var + BETA * BETA for _mu, var in sides))
    powers = [math.exp(mu / c) for mu, _var in sides]
    sums = [sum(e for e, r in zip(powers, ranks) if r >= rank_q) for rank_q in ranks]
    tied = [ranks.count(rank) for rank in ranks]
    for i, (team, (_mu, var)) in enumerate(zip(teams, sides)):
        omega = delta = 0.0
        for q, rank_q in enumerate(ranks):
            if rank_q <= ranks[i]:
                share = powers[i] / sums[q]
                delta += share * (1 - share) / tied[q]
                omega += ((1 - share) if q == i else -share) / tied[q]
        omega *= var / c
        delta *= var / (c * c) * (math.sqrt(var) / c)
        w = 1.0 / len(team)
        for player in team:
            share = player.sigma * player.sigma / var
            player.mu += w * share * omega
            player.sigma *= math.sqrt(max(1 - w * w * share * delta, KAPPA))


class Rater:
    """Players' ratings moved by matches, in the order given (``rate``)."""

    def __init__(self, states=None):
        self._skills = {}
        self._hands = {}
        for player, state in (states or {}).items():
            self._skills[player] = Skill(state.mu, state.sigma)
            self._hands[player] = state.hands

    def get(self, player) -> State | None:
        """The player's state now (None if never rated)."""
        found = self._skills.get(player)
        if found is None:
            return None
        return State(found.mu, found.sigma, self._hands[player])

    def players(self):
        return self._skills.keys()

    def _objects(self, team):
        skills, hands = self._skills, self._hands
        out = []
        for player in team:
            found = skills.get(player)
            if found is None:
                found = skills[player] = Skill()
                hands[player] = 0
            hands[player] += 1
            out.append(found)
        return out

    def rate(self, match: Match) -> None:
        """Rate one match: σ grown by τ, then the sides' update (``duel`` or ``update``)."""
        teams = [self._objects(team) for team in match.teams]
        tau_squared = TAU * TAU
        sqrt = math.sqrt
        for team in teams:
            for player in team:
                player.sigma = sqrt(player.sigma * player.sigma + tau_squared)
        ranks = match.ranks
        if len(teams) == 2 and ranks[0] != ranks[1]:
            if ranks[0] < ranks[1]:
                duel(teams[0], teams[1])
            else:
                duel(teams[1], teams[0])
            return
        order = sorted(range(len(teams)), key=ranks.__getitem__)  # stable, as openskill's
        update([teams[i] for i in order], sorted(ranks))

    def rate_seats(self, kind: str, seats) -> Match | None:
        """Rate a hand given as seats (``tarot.rating``); the match, or None if it rates nobody."""
        match = match_of(kind, seats)
        if match is not None:
            self.rate(match)
        return match


def predict_win(teams_states, widen: float = 1.0) -> list[float]:
    """Each side's chance to win (sides given as lists of ``State``), by the model's
    own likelihood (Plackett–Luce: a side's chance to come first is e^(μ/c) over the
    sum of every side's, c = ``SPREAD``·√(Σ(σ² + β²)), a side's μ and σ² its players'
    mean; ``SPREAD`` widens the model's own c by a tenth, measured to calibrate; c is
    widened again by ``widen``, as ``predict_first`` reads a round of several deals).

    Not openskill's ``predict_win``, which reads the same ratings through the normal
    curve, Φ(Δμ/√(2β² + σa² + σb²)): steeper than the logistic the ratings were
    fitted with, it said 2.5 % where the attack made 15 % of its contracts, and 98 %
    where it made 87 % (``bench_rating_model``)."""
    sides = [mean_side(team) for team in teams_states]
    c = widen * SPREAD * math.sqrt(sum(var + BETA * BETA for _mu, var in sides))
    top = max(mu for mu, _var in sides)
    powers = [math.exp((mu - top) / c) for mu, _var in sides]
    total = sum(powers)
    return [power / total for power in powers]


#: A round of this many deals (the tournament form's deals per round) reads its
#: chances with the spread of one hand (``predict_first``): measured, each tenth of
#: them is within 2.1 points of how often the player finished first of the table
#: (``bench_rating_model``).
ROUND_DEALS = 5


def round_widening(deals: int | None) -> float:
    """How much ``predict_first`` widens the spread for a round of ``deals`` deals
    (None, a timed round: ``ROUND_DEALS``): √((``ROUND_DEALS`` + 1)/(deals + 1))."""
    deals = deals or ROUND_DEALS
    return math.sqrt((ROUND_DEALS + 1) / (deals + 1))


def predict_first(states, deals: int | None) -> list[float]:
    """Each player's chance to finish a round of ``deals`` deals first of the table
    (players given as ``State``, each a side of their own; ``predict_win`` with its
    spread narrowed as the deals add up, ``round_widening``).

    Why: skill shows more as deals add up (one hand's spread: 12 points off at 1 deal, 17 at 20).
    """
    return predict_win([[state] for state in states], round_widening(deals))
