"""The ratings as the pages, the exports and ``rate_hands`` show them: one shape.

``rated_rows(ratings)`` ranks ``(name, State)`` pairs by the rating shown
(``compute.shown``: the conservative estimate μ − 3σ rescaled, stored as
``Rating.ordinal``) with the one rank rule (``core.ranking``), the players rated
under ``MIN_HANDS`` hands after the others (unrated, unranked), and gives each its
estimate and spread on the same scale, μ, σ and the hands rated. ``scope_rows(key)``
reads a scope's ratings (one query); ``history(key, player)`` a player's points in
order (one query).
"""

from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from core.ranking import rank
from ratings.compute import SHOWN_AT, SHOWN_SCALE, State, predict_first, shown, shown_spread  # noqa: F401 (``shown``: the pages' API)
from ratings.models import Rating, RatingPoint, Recompute

#: Under this many hands rated, the standings leave a player's rating out (σ is still
#: wide: the first hands move it most).
MIN_HANDS = 20


@dataclass(frozen=True)
class RatedRow:
    """A player's rating as shown: ``ordinal`` the rating (ranked by), ``estimate``
    the skill's estimate on its scale and ``spread`` its uncertainty (the rating is
    ``estimate − spread``); ``rank`` None for a player not rated yet (``rated``)."""

    rank: int | None
    name: str
    player_id: int | None
    mu: float
    sigma: float
    ordinal: float
    estimate: float
    spread: float
    hands: int

    @property
    def rated(self) -> bool:
        return self.hands >= MIN_HANDS


def estimate(mu: float) -> float:
    """The skill's estimate μ on the rating's scale (``compute.shown`` without σ)."""
    return SHOWN_AT + SHOWN_SCALE * mu


def rated_rows(pairs) -> list[RatedRow]:
    """``(name, State[, player_id])`` ranked by the rating shown, then by name; the
    players under ``MIN_HANDS`` hands last, unranked, by name."""
    pairs = sorted(pairs, key=lambda pair: pair[0])
    rated = [pair for pair in pairs if pair[1].hands >= MIN_HANDS]
    ranked = rank(rated, key=lambda pair: round(pair[1].ordinal, 9))
    ranked.sort(key=lambda item: item[0])
    ranked += [(None, pair) for pair in pairs if pair[1].hands < MIN_HANDS]
    return [
        RatedRow(
            rank=position,
            name=pair[0],
            player_id=pair[2] if len(pair) > 2 else None,
            mu=state.mu,
            sigma=state.sigma,
            ordinal=state.ordinal,
            estimate=estimate(state.mu),
            spread=shown_spread(state.sigma),
            hands=state.hands,
        )
        for position, pair in ranked
        for state in (pair[1],)
    ]


def scope_rows(key: str) -> list[RatedRow]:
    """A scope's ratings, ranked (one query)."""
    return rated_rows(
        (name, State(mu, sigma, hands), player_id)
        for player_id, name, mu, sigma, hands in Rating.objects.filter(scope=key).values_list(
            "player_id", "player__name", "mu", "sigma", "hands"
        )
    )


def recomputing(key: str) -> bool:
    """Whether a background task is rating the scope again (``keeping.defer``): the
    pages say so (``templates/ratings/recomputing.html``). One query."""
    return Recompute.objects.filter(scope=key).exists()


def ratings_by_player(key: str, player_ids) -> dict:
    """player id → State for the given players in a scope (one query)."""
    return {
        player_id: State(mu, sigma, hands)
        for player_id, mu, sigma, hands in Rating.objects.filter(
            scope=key, player_id__in=list(player_ids)
        ).values_list("player_id", "mu", "sigma", "hands")
    }


def shown_ordinal(key: str, player="player_id") -> Subquery:
    """The rating shown (``compute.shown``) of the player of each row (``player``: the outer field
    naming them) in a scope, NULL under ``MIN_HANDS`` hands: an expression a query of
    another app annotates its rows with (no query of its own, sortable in SQL)."""
    return Subquery(
        Rating.objects.filter(scope=key, player_id=OuterRef(player), hands__gte=MIN_HANDS).values(
            "ordinal"
        )[:1]
    )


def shown_ordinals(key: str, player_ids) -> dict:
    """player id → rating shown for the given players rated ``MIN_HANDS`` hands or more in a
    scope (one query)."""
    return dict(
        Rating.objects.filter(
            scope=key, player_id__in=list(player_ids), hands__gte=MIN_HANDS
        ).values_list("player_id", "ordinal")
    )


def history(key: str, player_id) -> list[tuple]:
    """A player's rating after each sheet in a scope, in order: ``(date, μ, σ, hands)``;
    the last is their rating now (one query: the history and the Rating row)."""
    points = RatingPoint.objects.filter(scope=key, player_id=player_id).values_list(
        "date", "sheet_id", "mu", "sigma", "hands"
    )
    now = Rating.objects.filter(scope=key, player_id=player_id).values_list(
        "last_date", "last_sheet", "mu", "sigma", "hands"
    )
    rows = points.union(now, all=True).order_by("date", "sheet_id")
    return [(date, mu, sigma, hands) for date, _sheet, mu, sigma, hands in rows]


def expected_table(key: str, player_ids, deals: int | None = None) -> dict:
    """Before a round of ``deals`` deals (None: timed): each player's chance to finish
    the table first, with the highest total of the round, from their ratings in a scope
    (``compute.predict_first``), or None for a player rated under ``MIN_HANDS`` hands: nothing is
    known of them, and they are never shown as a favourite. Their share of the
    chances is counted as an average player's (the club's starting rating, its
    uncertainty narrowed to a regular's) and left out: the chances shown sum to less
    than 1 at a table with a newcomer. One query. player id → chance or None."""
    return expected_tables(key, [player_ids], [deals])[0]


#: The state a table's chances count a newcomer at: an average player (the model's
#: start), as sure as a regular, so that their wide σ does not pull every chance
#: towards the table's even share.
NEWCOMER = State(State.new().mu, 2.0, 0)


def expected_tables(key: str, tables, deals=None) -> list[dict]:
    """``expected_table`` for every table of a round (lists of player ids), each
    playing its ``deals`` (a list beside ``tables``; None: timed rounds), in one query."""
    tables = [list(table) for table in tables]
    deals = deals if deals is not None else [None] * len(tables)
    found = ratings_by_player(key, {pk for table in tables for pk in table})
    out = []
    for table, played in zip(tables, deals, strict=True):
        if not table:
            out.append({})
            continue
        rated = {pk: found.get(pk) for pk in table}
        rated = {
            pk: s if s is not None and s.hands >= MIN_HANDS else None for pk, s in rated.items()
        }
        chances = predict_first([rated[pk] or NEWCOMER for pk in table], played)
        out.append(
            {pk: (chance if rated[pk] is not None else None) for pk, chance in zip(table, chances)}
        )
    return out
