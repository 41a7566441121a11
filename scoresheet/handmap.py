"""One hand, its shapes, and the one place that maps between them.

A hand exists as the model (``Hand``: player ids), the JSON format of
HAND_FORMAT.md (``hand_data``: names), the engine's dataclass
(``engine_hand_of``), a history snapshot (``snapshot``) and ledger rows
(``score_rows``). The model's columns come from ``hand_fields`` and
``score_row_fields`` (plain dicts): ``apply`` and ``score_rows`` make models of
them, the bulk import writes them as rows. Everything a page shows of a scored hand (roles, margin,
chelem outcome) comes from the engine's ``HandResult``; nothing here
recomputes the rules.
"""

from dataclasses import dataclass
from decimal import Decimal

from scoresheet.explain_json import terms_to_json
from scoresheet.models import Hand, ScoreRow, Seat, Sheet
from scoresheet.vocabulary import CHELEM_OF_ENGINE, ROLE_OF_ENGINE
from tarot import HandResult, halves_to_decimal
from tarot.jsonformat import hand_to_dict, number, parse_hand


@dataclass(frozen=True)
class Table:
    """A sheet's seating: names in dealing order and the players behind them."""

    names: tuple
    by_name: dict
    by_id: dict
    #: name → player id (what the rows store: a model's ``pk`` is slow to read
    #: once per seat of every hand of an import)
    ids: dict

    @classmethod
    def of(cls, sheet: Sheet) -> "Table":
        seats = sheet.seats.select_related("player").order_by("position")
        return cls.seating([seat.player for seat in seats])

    @classmethod
    def seating(cls, players) -> "Table":
        """The table of ``players`` in dealing order (a new sheet's, known already)."""
        return cls(
            tuple(p.name for p in players),
            {p.name: p for p in players},
            {p.pk: p for p in players},
            {p.name: p.pk for p in players},
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
    for name, value in hand_fields(engine_hand, result, table).items():
        setattr(hand, name, value)


def hand_fields(engine_hand, result: HandResult, table: Table, explanation=None) -> dict:
    """The model fields (attnames, players as ids) of a scored hand: what ``apply``
    sets, and what the bulk import writes as columns. The fields left out keep
    their defaults (``extra`` under French Tarot). ``explanation``: the result's
    explanation as JSON already (the import encodes it ahead), else made here."""
    if explanation is None:
        explanation = terms_to_json(result.explanation)
    if result.ruleset.kind == "savoyard":
        return savoyard_fields(engine_hand, result, table, explanation)
    ids = table.ids

    def pk(name):
        return ids[name] if name is not None else None

    passed = engine_hand.taker is None
    return {
        "dealer_id": pk(engine_hand.dealer),
        "taker_id": pk(engine_hand.taker),
        "partner_id": pk(engine_hand.partner),
        "sits_out_id": pk(engine_hand.sits_out),
        "contract": engine_hand.contract or "",
        "bouts": 0 if passed else engine_hand.bouts,
        "points": Decimal(0) if passed else halves_to_decimal(result.points_halves),
        "petit_au_bout": engine_hand.petit_au_bout or "",
        "poignees": [{"player": pk(p.player), "size": p.size} for p in engine_hand.poignees],
        "chelem": _chelem(engine_hand.chelem),
        "petit_chelem": _chelem(engine_hand.petit_chelem),
        "miseres": [pk(name) for name in engine_hand.miseres],
        "pools": list(result.pools) if result.pools is not None else None,
        "explanation": explanation,
    }


def _chelem(chelem):
    """The engine's ``Chelem`` → the JSON format's object."""
    if chelem is None:
        return None
    return {"announced": chelem.announced, "made_by": chelem.made_by}


def _facts(number: int, fields: dict, seats: int) -> dict:
    """The hand's facts stored on each of its ledger rows (statistics never join Hand):
    ``number``, ``playing`` (the seated minus one who sits out) and ``alone`` (a
    taker without a partner: none called, or the called card was their own)."""
    taker = fields["taker_id"]
    partner = fields["partner_id"]
    return {
        "number": number,
        "playing": seats - (1 if fields["sits_out_id"] is not None else 0),
        "alone": taker is not None and (partner is None or partner == taker),
    }


#: The hand's fields its ledger rows are made from (``score_row_fields``).
ROW_INPUTS = (
    "taker_id",
    "partner_id",
    "sits_out_id",
    "contract",
    "petit_au_bout",
    "poignees",
    "miseres",
)


def _row_inputs(hand: Hand) -> dict:
    return {name: getattr(hand, name) for name in ROW_INPUTS}


def score_rows(hand: Hand, sheet: Sheet, table: Table, result: HandResult) -> list[ScoreRow]:
    """The ledger rows of one scored hand: one per seated player, in seat order
    (``score_row_fields`` as models)."""
    seats = len(table.names)
    rows = []
    for row in score_row_fields(_row_inputs(hand), hand.number, table, result):
        player = table.by_id[row.pop("player_id")]
        rows.append(
            ScoreRow(
                hand=hand,
                sheet=sheet,
                season_id=sheet.season_id,
                player=player,
                date=sheet.date,
                seats=seats,
                **row,
            )
        )
    return rows


def score_row_fields(fields: dict, number: int, table: Table, result: HandResult) -> list[dict]:
    """The ledger rows of one scored hand as field dicts (``player_id`` and the
    hand's own columns; the sheet's — hand, sheet, season, date, seats — are the
    caller's): one per seated player, in seat order. ``fields``: the hand's
    ``hand_fields`` (at least ``ROW_INPUTS``); ``number``: its number on the sheet.

    Role, margin and chelem outcome are the engine's (``result.roles``,
    ``result.card_margin``, ``result.chelem_outcome``).
    """
    if result.ruleset.kind == "savoyard":
        return savoyard_row_fields(fields, number, table, result)
    seats = len(table.names)
    passed = result.kind == "passed"
    made = None if passed else result.made
    bouts = None if passed else result.bouts
    margin = result.card_margin
    chelem = CHELEM_OF_ENGINE[result.chelem_outcome]
    contract = fields["contract"]
    petit_au_bout = fields["petit_au_bout"]
    poignees = {p["player"]: p["size"] for p in fields["poignees"]}
    miseres = set(fields["miseres"])
    pool_by_name = {}
    for _event, name, amount in result.pool_moves:
        pool_by_name[name] = pool_by_name.get(name, 0) + amount
    facts = _facts(number, fields, seats)
    playing, alone = facts["playing"], facts["alone"]
    ids = table.ids
    rows = []
    for position, (name, halves, role) in enumerate(zip(table.names, result.halves, result.roles)):
        player_id = ids[name]
        rows.append(
            {
                "player_id": player_id,
                "position": position,
                "role": ROLE_OF_ENGINE[role],
                "contract": contract,
                "number": number,
                "playing": playing,
                "alone": alone,
                "made": made,
                "margin": margin,
                "bouts": bouts,
                "petit_au_bout": petit_au_bout,
                "poignee": poignees.get(player_id, "") if poignees else "",
                "misere": player_id in miseres if miseres else False,
                "chelem": chelem,
                "score": halves_to_decimal(halves),
                "pool": pool_by_name.get(name, 0) if pool_by_name else 0,
            }
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


def savoyard_fields(engine_hand, result: HandResult, table: Table, explanation) -> dict:
    ids = table.ids

    def pk(name):
        return ids[name] if name is not None else None

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
    return {
        "extra": extra,
        "dealer_id": pk(engine_hand.dealer),
        "sits_out_id": pk(engine_hand.sits_out),
        "taker_id": pk(result.taker),
        "partner_id": pk(result.partner),
        "contract": engine_hand.mode,
        "bouts": 0,
        "points": Decimal(engine_hand.count or 0),
        "petit_au_bout": SAVOYARD_SIDE[baga.to] if baga is not None else "",
        "poignees": [],
        "chelem": None,
        "petit_chelem": None,
        "miseres": [],
        "pools": None,
        "explanation": explanation,
    }


def savoyard_row_fields(fields: dict, number: int, table: Table, result: HandResult) -> list[dict]:
    detail = result.detail
    seats = len(table.names)
    counts = dict(detail.shares and ((p, c) for p, c, _v in detail.shares))
    facts = _facts(number, fields, seats)
    rows = []
    for position, (name, halves, role) in enumerate(zip(table.names, result.halves, result.roles)):
        if detail.mode == "each":
            margin = counts[name] - detail.line if name in counts else None
        else:
            margin = detail.count - detail.line
        rows.append(
            {
                "player_id": table.ids[name],
                "position": position,
                "role": ROLE_OF_ENGINE[role],
                "contract": detail.mode,
                **facts,
                "made": detail.won,
                "margin": margin,
                "bouts": None,
                "petit_au_bout": fields["petit_au_bout"],
                "score": halves_to_decimal(halves),
                "cards_asked": detail.cards_asked,
                "factor": detail.factor,
            }
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


def sheet_json(sheet) -> dict:
    """The sheet in HAND_FORMAT.md's sheet format (live hands, names), plus date and table."""
    return _sheet_json(sheet, Table.of(sheet), sheet.hands.live().order_by("number"))


def sheets_json(sheet_ids):
    """``sheet_json`` of each sheet of ``sheet_ids``, in their order: three queries for
    them all (the sheets, their seats, their live hands), not two per sheet."""
    sheets = Sheet.objects.in_bulk(sheet_ids)
    players = {}
    seats = Seat.objects.filter(sheet_id__in=sheet_ids).select_related("player")
    for seat in seats.order_by("sheet_id", "position"):
        players.setdefault(seat.sheet_id, []).append(seat.player)
    hands = {}
    for hand in Hand.objects.filter(sheet_id__in=sheet_ids).live().order_by("sheet_id", "number"):
        hands.setdefault(hand.sheet_id, []).append(hand)
    for pk in sheet_ids:
        sheet = sheets[pk]
        yield _sheet_json(sheet, Table.seating(players.get(pk, [])), hands.get(pk, []))


def _sheet_json(sheet, table, hands) -> dict:
    out_hands = []
    for hand in hands:
        data = hand_data(hand, table)
        out_hands.append({k: v for k, v in data.items() if v not in (None, [], "")})
    hands = out_hands
    out = {"rules": sheet.rules, "players": list(table.names)}
    out["date"] = sheet.date.isoformat()
    if sheet.table:
        out["table"] = sheet.table
    out["hands"] = hands
    return out
