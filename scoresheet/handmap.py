"""One hand, its shapes, and the one place that maps between them.

A hand exists as the model (``Hand``: player ids), the JSON format of
HAND_FORMAT.md (``hand_data``: names), the engine's dataclass
(``engine_hand_of``), a history snapshot (``snapshot``) and ledger rows
(``score_rows``). Everything a page shows of a scored hand (roles, margin,
chelem outcome) comes from the engine's ``HandResult``; nothing here
recomputes the rules.
"""

from dataclasses import dataclass
from decimal import Decimal

from core.explain_json import terms_to_json
from scoresheet.models import Hand, ScoreRow, Sheet
from scoresheet.scoring import HandResult, halves_to_decimal
from scoresheet.scoring.jsonformat import hand_to_dict, number, parse_hand
from scoresheet.vocabulary import CHELEM_OF_ENGINE, ROLE_OF_ENGINE


@dataclass(frozen=True)
class Table:
    """A sheet's seating: names in dealing order and the players behind them."""

    names: tuple
    by_name: dict
    by_id: dict

    @classmethod
    def of(cls, sheet: Sheet) -> "Table":
        seats = list(sheet.seats.select_related("player").order_by("position"))
        players = [seat.player for seat in seats]
        return cls(
            tuple(p.name for p in players),
            {p.name: p for p in players},
            {p.pk: p for p in players},
        )


# ---------------------------------------------------------------- model → JSON → engine


def hand_data(hand: Hand, table: Table) -> dict:
    """A stored hand in the JSON format, with the players' names."""

    def name(pk):
        return table.by_id[pk].name if pk is not None else None

    if hand.extra:  # a ruleset's own fields (the Savoyard rules)
        return savoyard_data(hand, table)
    data = {
        "dealer": name(hand.dealer_id),
        "taker": name(hand.taker_id),
        "contract": hand.contract or None,
        "partner": name(hand.partner_id),
        "sits_out": name(hand.sits_out_id),
        "petit_au_bout": hand.petit_au_bout or None,
        "poignees": [{"player": name(p["player"]), "size": p["size"]} for p in hand.poignees],
        "chelem": hand.chelem,
        "petit_chelem": hand.petit_chelem,
        "miseres": [name(pk) for pk in hand.miseres],
    }
    if hand.taker_id is not None:
        data["bouts"] = hand.bouts
        points = hand.points
        data["points"] = int(points) if points == points.to_integral_value() else points
    return data


def engine_hand_of(hand: Hand, table: Table):
    """A stored hand back into the engine's dataclass."""
    return parse_hand(hand_data(hand, table), hand.sheet.ruleset, table.names)[1]


# ---------------------------------------------------------------- engine → model


def apply(hand: Hand, engine_hand, result: HandResult, table: Table) -> None:
    """Copy the engine's hand and result onto the model (names to player ids)."""
    by_name = table.by_name

    def pk(name):
        return by_name[name].pk if name is not None else None

    if result.kind == "savoyard":
        return apply_savoyard(hand, engine_hand, result, table)
    hand.dealer_id = pk(engine_hand.dealer)
    hand.taker_id = pk(engine_hand.taker)
    hand.partner_id = pk(engine_hand.partner)
    hand.sits_out_id = pk(engine_hand.sits_out)
    hand.contract = engine_hand.contract or ""
    passed = engine_hand.taker is None
    hand.bouts = 0 if passed else engine_hand.bouts
    hand.points = Decimal(0) if passed else halves_to_decimal(result.points_halves)
    hand.petit_au_bout = engine_hand.petit_au_bout or ""
    hand.poignees = [{"player": pk(p.player), "size": p.size} for p in engine_hand.poignees]
    hand.chelem = _chelem(engine_hand.chelem)
    hand.petit_chelem = _chelem(engine_hand.petit_chelem)
    hand.miseres = [pk(name) for name in engine_hand.miseres]
    hand.pools = list(result.pools) if result.pools is not None else None
    hand.explanation = terms_to_json(result.explanation)


def _chelem(chelem):
    """The engine's ``Chelem`` → the JSON format's object."""
    if chelem is None:
        return None
    return {"announced": chelem.announced, "made_by": chelem.made_by}


def hand_facts(hand: Hand, seats: int) -> dict:
    """The hand's facts stored on each of its ledger rows (statistics never join Hand):
    ``number``, ``playing`` (the seated minus one who sits out) and ``alone`` (a
    taker without a partner: none called, or the called card was their own)."""
    return {
        "number": hand.number,
        "playing": seats - (1 if hand.sits_out_id is not None else 0),
        "alone": hand.taker_id is not None
        and (hand.partner_id is None or hand.partner_id == hand.taker_id),
    }


def score_rows(hand: Hand, sheet: Sheet, table: Table, result: HandResult) -> list[ScoreRow]:
    """The ledger rows of one scored hand: one per seated player, in seat order.

    Role, margin and chelem outcome are the engine's (``result.roles``,
    ``result.card_margin``, ``result.chelem_outcome``).
    """
    if result.kind == "savoyard":
        return savoyard_rows(hand, sheet, table, result)
    seats = len(table.names)
    passed = result.kind == "passed"
    made = None if passed else result.made
    bouts = None if passed else result.bouts
    margin = result.card_margin
    chelem = CHELEM_OF_ENGINE[result.chelem_outcome]
    poignees = {p["player"]: p["size"] for p in hand.poignees}
    miseres = set(hand.miseres)
    pool_by_name = {}
    for _event, name, amount in result.pool_moves:
        pool_by_name[name] = pool_by_name.get(name, 0) + amount
    facts = hand_facts(hand, seats)
    rows = []
    for position, (name, halves, role) in enumerate(zip(table.names, result.halves, result.roles)):
        player = table.by_name[name]
        rows.append(
            ScoreRow(
                hand=hand,
                sheet=sheet,
                season_id=sheet.season_id,
                player=player,
                date=sheet.date,
                seats=seats,
                position=position,
                role=ROLE_OF_ENGINE[role],
                contract=hand.contract,
                **facts,
                made=made,
                margin=margin,
                bouts=bouts,
                petit_au_bout=hand.petit_au_bout,
                poignee=poignees.get(player.pk, ""),
                misere=player.pk in miseres,
                chelem=chelem,
                score=halves_to_decimal(halves),
                pool=pool_by_name.get(name, 0),
            )
        )
    return rows


# ---------------------------------------------------------------- the Savoyard rules
#
# A Savoyard hand keeps its own fields in ``Hand.extra`` (players as ids):
# ``{"mode", "declarer", "cards_asked", "partner", "count", "counts": {id: count},
# "baga": {"to", "announced"}}``. The tarot columns keep what pages and filters
# read: dealer, sits_out, ``taker`` the declarer (the soloist; the dealer in a
# call or partners), ``partner`` the called or opposite partner, ``contract`` the
# mode, ``points`` the declaring count, ``petit_au_bout`` the baga's side
# ("attack": to the declarers). Ledger rows: the engine's roles (taker: the
# soloist or the dealer; partner; defender: the opponents, and everybody
# under ``each``; out), ``made`` whether the declarers won (null on a tie and
# under ``each``), ``margin`` the declaring count minus the tie line (under
# ``each``: the player's own count minus the even share), ``cards_asked`` and
# ``factor`` (1, 2, 4, 8).

SAVOYARD_SIDE = {"declarers": "attack", "opponents": "defence"}


def savoyard_data(hand: Hand, table: Table) -> dict:
    """A stored Savoyard hand in the JSON format of SAVOYARD.md §6, with names."""
    extra = hand.extra
    by_id = table.by_id

    def name(pk):
        return by_id[pk].name if pk is not None else None

    data = {
        "dealer": name(hand.dealer_id),
        "sits_out": name(hand.sits_out_id),
        "mode": extra.get("mode"),
    }
    for field in ("declarer", "partner"):
        if extra.get(field) is not None:
            data[field] = name(extra[field])
    for field in ("cards_asked", "count", "baga"):
        if extra.get(field) is not None:
            data[field] = extra[field]
    if extra.get("counts"):
        data["counts"] = {name(int(pk)): count for pk, count in extra["counts"].items()}
    return data


def apply_savoyard(hand: Hand, engine_hand, result: HandResult, table: Table) -> None:
    by_name = table.by_name

    def pk(name):
        return by_name[name].pk if name is not None else None

    extra = {"mode": engine_hand.mode}
    if engine_hand.declarer is not None:
        extra["declarer"] = pk(engine_hand.declarer)
        extra["cards_asked"] = engine_hand.cards_asked
    if engine_hand.partner is not None and engine_hand.mode == "call":
        extra["partner"] = pk(engine_hand.partner)
    if engine_hand.count is not None:
        extra["count"] = engine_hand.count
    if engine_hand.counts:
        extra["counts"] = {str(pk(name)): count for name, count in engine_hand.counts}
    baga = engine_hand.baga
    if baga is not None:
        extra["baga"] = {"to": baga.to, "announced": baga.announced}
    hand.extra = extra
    hand.dealer_id = pk(engine_hand.dealer)
    hand.sits_out_id = pk(engine_hand.sits_out)
    hand.taker_id = pk(result.taker)
    hand.partner_id = pk(result.partner)
    hand.contract = engine_hand.mode
    hand.bouts = 0
    hand.points = Decimal(engine_hand.count or 0)
    hand.petit_au_bout = SAVOYARD_SIDE[baga.to] if baga is not None else ""
    hand.poignees = []
    hand.chelem = hand.petit_chelem = None
    hand.miseres = []
    hand.pools = None
    hand.explanation = terms_to_json(result.explanation)


def savoyard_rows(hand: Hand, sheet: Sheet, table: Table, result: HandResult) -> list[ScoreRow]:
    detail = result.detail
    seats = len(table.names)
    counts = dict(detail.shares and ((p, c) for p, c, _v in detail.shares))
    rows = []
    for position, (name, halves, role) in enumerate(zip(table.names, result.halves, result.roles)):
        player = table.by_name[name]
        if detail.mode == "each":
            margin = counts[name] - detail.line if name in counts else None
        else:
            margin = detail.count - detail.line
        rows.append(
            ScoreRow(
                hand=hand,
                sheet=sheet,
                season_id=sheet.season_id,
                player=player,
                date=sheet.date,
                seats=seats,
                position=position,
                role=ROLE_OF_ENGINE[role],
                contract=detail.mode,
                **hand_facts(hand, seats),
                made=detail.won,
                margin=margin,
                bouts=None,
                petit_au_bout=hand.petit_au_bout,
                score=halves_to_decimal(halves),
                cards_asked=detail.cards_asked,
                factor=detail.factor,
            )
        )
    return rows


# ---------------------------------------------------------------- history snapshots


def stored_scores(hand: Hand, table: Table) -> dict:
    """The hand's ledger rows as {name: score} (JSON numbers), for a snapshot."""
    return {
        table.by_id[player_id].name: number(int(score * 2))
        for player_id, score in hand.scores.values_list("player_id", "score")
    }


def stored_snapshot(hand: Hand, table: Table) -> dict:
    """A history snapshot of a hand as stored now (before a change)."""
    return snapshot(engine_hand_of(hand, table), None, stored_scores(hand, table))


def snapshot(engine_hand, result: HandResult | None, scores: dict | None = None) -> dict:
    """A history entry's view of a hand: the JSON hand, its scores, the pools after it."""
    if result is not None:
        scores = {p: number(h) for p, h in zip(result.players, result.halves)}
    out = {"hand": hand_to_dict(engine_hand), "scores": scores or {}}
    if result is not None and result.pools is not None:
        out["pools"] = list(result.pools)
    return out
