"""Duplicate tarot: the results made with the same cards, compared seat by seat
(``DUPLICATE.md`` §1–§4). Pure Python, exact fractions.

In a duplicate event every deal is played at several tables, each seat (North,
East, South, West) always holding the same cards. ``compare`` takes each table's
marques of each deal and scores every seat against the same seat at the other
tables, by one of two methods:

``matchpoints`` (the default)
    each other table's result beaten earns 2, each tie 1, out of a top of
    ``2 × (n − 1)`` for ``n`` tables; the deal's score is the percentage
    ``100 × MP / top`` (50 when one table played the deal); a player's event score
    is the mean of their deals' percentages.
``average``
    the deal's score is the marque minus the mean of the seat's marques (0 when
    one table played the deal); a player's event score is the sum of their deals.

A deal the arbitre cancels at one table is left out of that table's comparisons:
its four players get the method's neutral score (50 % or 0) for it, and the deal
counts among the deals they played. An arbitral score given to one seat replaces
that seat's score for the deal; the table's marque still stands in the other
tables' comparisons (the cards were played; only that seat's score is decided by
the arbitre).

Nothing here rounds: scores are ``Fraction``s, rounded only to be shown.
"""

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from .engine import score_hand
from .errors import ScoringError
from .jsonformat import parse_hand, parse_rules

SEATS = ("N", "E", "S", "W")
MATCHPOINTS = "matchpoints"
AVERAGE = "average"
METHODS = (MATCHPOINTS, AVERAGE)
#: the score a seat gets when it has nobody to be compared with, or a cancelled deal
NEUTRAL = {MATCHPOINTS: Fraction(50), AVERAGE: Fraction(0)}


class DuplicateError(ValueError):
    """An event the contract refuses; ``code`` as in ``ScoringError``."""

    def __init__(self, code: str, message: str, **where):
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where

    def as_dict(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, **self.where}}


#: Every code ``DuplicateError`` carries, with what it means.
CODES = {
    "method_unknown": "a comparison method other than matchpoints or average",
    "seat_unknown": "a seat other than N, E, S, W",
    "seats_incomplete": "a table without all four seats",
    "player_twice": "the same player twice at one table, or at two tables on one deal",
    "deal_twice": "the same deal reported twice for one table",
    "deal_invalid": "a deal or table number that is not a whole number from 1",
    "json_invalid": "an event that is not an object with a list of results",
    "invalid_field": "a hand that gives its players, dealer or rules (the event gives them)",
}


def dealer_seat(deal: int) -> int:
    """The index in ``SEATS`` of the seat that deals ``deal`` (§1): N, E, S, W in turn."""
    return (deal - 1) % 4


@dataclass(frozen=True)
class TableDeal:
    """One deal at one table: the players by seat (N, E, S, W) and their marques in the
    same order (``None``: the arbitre cancelled the deal at this table).

    ``arbitral`` gives a seat (its index) a score decided by the arbitre instead of
    its compared score: a percentage under matchpoints, points under average."""

    deal: int
    table: int
    players: tuple
    marques: tuple | None
    arbitral: tuple = ()  # ((seat index, Fraction), …)


@dataclass(frozen=True)
class SeatScore:
    deal: int
    table: int
    seat: str
    player: object
    marque: object  # the table's marque for the seat (None when cancelled)
    score: Fraction


@dataclass
class Comparison:
    """What ``compare`` returns: the score of every seat of every table's deal, in
    the order of the deals, tables and seats, and each player's event score with the
    number of deals it is made of."""

    method: str
    seats: list = field(default_factory=list)
    totals: dict = field(default_factory=dict)  # player → event score (Fraction)
    deals: dict = field(default_factory=dict)  # player → deals played


def check_event(results) -> None:
    """Refuse what §5 refuses of the table results themselves (not of their hands)."""
    seen_tables = set()
    players_on_deal = defaultdict(set)
    for result in results:
        for name, value in (("deal", result.deal), ("table", result.table)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise DuplicateError("deal_invalid", f"{name}: a whole number from 1")
        where = {"deal": result.deal, "table": result.table}
        if (result.deal, result.table) in seen_tables:
            raise DuplicateError(
                "deal_twice", f"deal {result.deal} reported twice for table {result.table}", **where
            )
        seen_tables.add((result.deal, result.table))
        if len(set(result.players)) != len(result.players):
            raise DuplicateError("player_twice", "the same player twice at one table", **where)
        for player in result.players:
            if player in players_on_deal[result.deal]:
                raise DuplicateError(
                    "player_twice",
                    f"{player} at two tables on deal {result.deal}",
                    **where,
                )
            players_on_deal[result.deal].add(player)


def _seat_scorer(method: str, same_cards: list):
    """The score of a marque among ``same_cards`` (the seat's marques at every table
    that played the deal, itself included) as ``(numerator, denominator)``, whole
    numbers not reduced: §3's matchpoints or difference to the mean (the tests hold
    them to the definitions, computed table by table), with what they need computed
    once per deal and seat rather than once per table (the sorted marques
    for matchpoints, their mean for the average). ``compare`` sums the pairs per
    denominator, in whole numbers, and makes fractions once a player: a Fraction
    addition per seat (its gcd) was most of a large event's comparison."""
    n = len(same_cards)
    if method == MATCHPOINTS:
        if n == 1:
            neutral = NEUTRAL[MATCHPOINTS]
            return lambda x: (neutral.numerator, neutral.denominator)
        ordered = sorted(same_cards)
        top = 2 * (n - 1)

        def matchpoints(x):
            below = bisect_left(ordered, x)
            equal = bisect_right(ordered, x) - below
            return 100 * (2 * below + equal - 1), top

        return matchpoints
    mean = Fraction(sum(same_cards, Fraction(0)), n)

    def difference(x):
        score = Fraction(x) - mean
        return score.numerator, score.denominator

    return difference


def compare(results, method: str = MATCHPOINTS) -> Comparison:
    """Score every seat of every ``TableDeal`` against the same seat at the other tables
    that played the deal (§3), and each player's event score."""
    if method not in METHODS:
        raise DuplicateError("method_unknown", f"method: one of {', '.join(METHODS)}")
    results = sorted(results, key=lambda r: (r.deal, r.table))
    check_event(results)
    by_deal = defaultdict(list)
    for result in results:
        by_deal[result.deal].append(result)
    out = Comparison(method)
    neutral = NEUTRAL[method]
    # player → denominator → the sum of the numerators of their scores over it
    parts = defaultdict(lambda: defaultdict(int))
    fractions = {}  # (numerator, denominator) → its Fraction, made once
    for deal, tables in by_deal.items():
        played = [t for t in tables if t.marques is not None]
        scorers = [
            _seat_scorer(method, [t.marques[index] for t in played]) if played else None
            for index in range(len(SEATS))
        ]
        for result in tables:
            arbitral = dict(result.arbitral)
            for index, seat in enumerate(SEATS):
                if index in arbitral:
                    score = Fraction(arbitral[index])
                    pair = (score.numerator, score.denominator)
                elif result.marques is None:
                    score = neutral
                    pair = (score.numerator, score.denominator)
                else:
                    pair = scorers[index](result.marques[index])
                    score = fractions.get(pair)
                    if score is None:
                        score = fractions[pair] = Fraction(*pair)
                player = result.players[index]
                marque = None if result.marques is None else result.marques[index]
                out.seats.append(SeatScore(deal, result.table, seat, player, marque, score))
                parts[player][pair[1]] += pair[0]
                out.deals[player] = out.deals.get(player, 0) + 1
    for player, sums in parts.items():
        total = sum((Fraction(num, den) for den, num in sums.items()), Fraction(0))
        out.totals[player] = total / out.deals[player] if method == MATCHPOINTS else total
    return out


def team_score(member_scores, method: str) -> Fraction:
    """A team's score from its members' event scores (§4): their sum under average,
    their mean under matchpoints."""
    scores = [Fraction(s) for s in member_scores]
    if not scores:
        return NEUTRAL[method]
    total = sum(scores, Fraction(0))
    return total / len(scores) if method == MATCHPOINTS else total


# ------------------------------------------------------------ the JSON of an event


def _refuse(code, message, **where):
    raise DuplicateError(code, message, **where)


def _seats(value, where) -> tuple:
    if not isinstance(value, dict):
        _refuse("seats_incomplete", "seats: an object of the four seats N, E, S, W", **where)
    unknown = sorted(set(value) - set(SEATS))
    if unknown:
        _refuse("seat_unknown", f"seat {unknown[0]}: the seats are N, E, S, W", **where)
    missing = [seat for seat in SEATS if seat not in value]
    if missing:
        _refuse("seats_incomplete", f"seat {missing[0]} is empty: a table seats four", **where)
    players = tuple(value[seat] for seat in SEATS)
    if not all(isinstance(p, str) and p.strip() for p in players):
        _refuse("seats_incomplete", "seats: each holds a player's name", **where)
    return players


def _arbitral(value, where) -> tuple:
    """``{"S": 60}``: an arbitral score for a seat (an extension of the contract's JSON)."""
    if value is None:
        return ()
    if not isinstance(value, dict):
        _refuse("seat_unknown", "arbitral: an object of seats and scores", **where)
    out = []
    for seat, score in value.items():
        if seat not in SEATS:
            _refuse("seat_unknown", f"seat {seat}: the seats are N, E, S, W", **where)
        if isinstance(score, bool) or not isinstance(score, int | Decimal | Fraction):
            _refuse("deal_invalid", f"arbitral {seat}: a number", **where)
        out.append((SEATS.index(seat), Fraction(score)))
    return tuple(sorted(out))


def parse_event(data: dict):
    """An event of ``DUPLICATE.md`` §5 into ``(rules, method, [TableDeal])``: each hand
    scored by the engine at four, the seats in the order N, E, S, W, the dealer by §1.

    Beside the contract's fields a result may carry ``"cancelled": true`` (the arbitre
    cancelled the deal at that table: no hand) and ``"arbitral": {"S": 60}`` (an
    arbitral score for a seat)."""
    if not isinstance(data, dict):
        _refuse("json_invalid", "an event is a JSON object")
    rules = parse_rules(data.get("rules"))
    method = data.get("method", MATCHPOINTS)
    if method not in METHODS:
        _refuse("method_unknown", f"method: {method!r} is not one of {', '.join(METHODS)}")
    results = data.get("results")
    if not isinstance(results, list):
        _refuse("json_invalid", "results: a list of table results")
    out = []
    for item in results:
        if not isinstance(item, dict):
            _refuse("json_invalid", "each result is an object with deal, table, seats, hand")
        deal, table = item.get("deal"), item.get("table")
        for name, value in (("deal", deal), ("table", table)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                _refuse("deal_invalid", f"{name}: a whole number from 1")
        where = {"deal": deal, "table": table}
        players = _seats(item.get("seats"), where)
        if len(set(players)) != len(players):
            _refuse("player_twice", "the same player twice at one table", **where)
        arbitral = _arbitral(item.get("arbitral"), where)
        if item.get("cancelled") is True:
            out.append(TableDeal(deal, table, players, None, arbitral))
            continue
        hand = item.get("hand")
        if not isinstance(hand, dict):
            _refuse("json_invalid", "hand: the deal's hand, an object", **where)
        given = sorted({"players", "dealer", "rules"} & set(hand))
        if given:
            _refuse(
                "invalid_field",
                f"hand: {given[0]} comes from the event (seats, deal number, rules)",
                **where,
            )
        try:
            hand_rules, parsed = parse_hand(
                {**hand, "dealer": players[dealer_seat(deal)]}, rules, players
            )
            result = score_hand(hand_rules, parsed)
        except ScoringError as error:
            raise DuplicateError(error.code, error.message, **where) from None
        marques = tuple(Fraction(halves, 2) for halves in result.halves)
        out.append(TableDeal(deal, table, players, marques, arbitral))
    return rules, method, out  # ``compare`` checks the event as a whole (``check_event``)


def json_score(value: Fraction):
    """A score as a JSON number: an int when whole, else the nearest binary float, whose
    shortest form is the exact decimal whenever the fraction has one (62.5, 0.1)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)
