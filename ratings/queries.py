"""The ratings as the pages, the exports and ``rate_hands`` show them: one shape.

``rated_rows(ratings)`` ranks ``(name, State)`` pairs by the ordinal (μ − 3σ) with
the one rank rule (``core.ranking``) and gives each its μ, σ, the range μ ± 3σ and
the hands rated. ``scope_rows(key)`` reads a scope's ratings (one query);
``history(key, player)`` a player's points in order (one query).
"""

from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from core.ranking import rank
from ratings.compute import State, Z, predict_win
from ratings.models import Rating, RatingPoint, Recompute

#: Under this many hands rated, the standings leave a player's rating out (σ is still
#: wide: the first hands move it most).
MIN_HANDS = 20


@dataclass(frozen=True)
class RatedRow:
    rank: int
    name: str
    player_id: int | None
    mu: float
    sigma: float
    ordinal: float
    low: float
    high: float
    hands: int


def rated_rows(pairs) -> list[RatedRow]:
    """``(name, State[, player_id])`` ranked by ordinal, then by name."""
    pairs = sorted(pairs, key=lambda pair: pair[0])
    ranked = rank(pairs, key=lambda pair: round(pair[1].ordinal, 9))
    ranked.sort(key=lambda item: item[0])
    return [
        RatedRow(
            rank=position,
            name=pair[0],
            player_id=pair[2] if len(pair) > 2 else None,
            mu=state.mu,
            sigma=state.sigma,
            ordinal=state.ordinal,
            low=state.mu - Z * state.sigma,
            high=state.mu + Z * state.sigma,
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
    """The ordinal (μ − 3σ) of the player of each row (``player``: the outer field
    naming them) in a scope, NULL under ``MIN_HANDS`` hands: an expression a query of
    another app annotates its rows with (no query of its own, sortable in SQL)."""
    return Subquery(
        Rating.objects.filter(scope=key, player_id=OuterRef(player), hands__gte=MIN_HANDS).values(
            "ordinal"
        )[:1]
    )


def shown_ordinals(key: str, player_ids) -> dict:
    """player id → ordinal for the given players rated ``MIN_HANDS`` hands or more in a
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


def expected_table(key: str, player_ids) -> dict:
    """Before a round: each player's chance to finish the table ahead of the others,
    from their ratings in a scope (openskill's ``predict_win``, each player a side of
    their own; a player not rated yet at the model's starting rating). One query.
    player id → chance (they sum to 1)."""
    return expected_tables(key, [player_ids])[0]


def expected_tables(key: str, tables) -> list[dict]:
    """``expected_table`` for every table of a round (lists of player ids), in one query."""
    tables = [list(table) for table in tables]
    found = ratings_by_player(key, {pk for table in tables for pk in table})
    return [
        dict(zip(table, predict_win([[found.get(pk) or State.new()] for pk in table])))
        if table
        else {}
        for table in tables
    ]
