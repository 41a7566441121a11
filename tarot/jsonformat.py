"""The JSON interchange format of HAND_FORMAT.md: parse into the engine's
dataclasses, and write results and hands back out."""

import json
from decimal import Decimal

from .engine import HandResult, SheetResult, score_hand, score_sheet
from .errors import ScoringError
from .hand import Chelem, Hand, Poignee, Sheet
from .rules import Rules
from .rulesets import REGISTRY
from .rulesets.base import TAROT_HAND_FIELDS

RULE_OPTIONS = (
    "rounding",
    "poignee",
    "misere",
    "no_prise",
    "five_player_split",
    "ante",
    "dealer_stake",
)
# The fields of a French Tarot hand (a ruleset declares its own: Ruleset.hand_fields).
HAND_FIELDS = TAROT_HAND_FIELDS


def _bad(field, message):
    raise ScoringError("invalid_field", f"{field}: {message}", field=field)


def loads(line: str):
    """Parse one JSON line; numbers with a fraction become exact ``Decimal``s."""
    try:
        data = json.loads(line, parse_float=Decimal)
    except (ValueError, RecursionError) as error:
        raise ScoringError("json_invalid", f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ScoringError("json_invalid", "a line must hold a JSON object (a hand or a sheet)")
    return data


def parse_rules(value) -> Rules:
    if value is None:
        return Rules()
    if isinstance(value, str):
        return Rules(preset=value)
    if not isinstance(value, dict):
        raise ScoringError(
            "rules_invalid", "rules: a preset name or an object with a preset", field="rules"
        )
    preset = value.get("preset", "fft")
    ruleset = REGISTRY.get(preset) if isinstance(preset, str) else None
    allowed = RULE_OPTIONS
    own = {}
    if ruleset is not None:
        # a ruleset's own options keep their nulls (a Savoyard "baga": null is no baga)
        own = {k: value[k] for k in ruleset.option_defaults if k in value}
        allowed = (*(RULE_OPTIONS if ruleset.tarot_options else ()), *ruleset.option_defaults)
    unknown = set(value) - {"preset", *allowed}
    if unknown:
        raise ScoringError(
            "rules_invalid",
            f"rules: unknown option {', '.join(sorted(unknown))}; allowed: preset, "
            + ", ".join(allowed),
            field="rules",
        )
    options = {k: v for k, v in value.items() if v is not None and k not in own}
    if own:
        options["options"] = own
    options.setdefault("preset", "fft")
    if "poignee" in options:
        if not isinstance(options["poignee"], list):
            raise ScoringError(
                "rules_invalid", "rules: poignee must be a list of three values", field="poignee"
            )
        options["poignee"] = tuple(options["poignee"])
    if options.get("misere") is False:
        options["misere"] = 0
    if options.get("misere") is True:
        options["misere"] = 10
    if not isinstance(options["preset"], str):
        raise ScoringError("rules_invalid", "rules: preset must be a name", field="rules")
    try:
        return Rules(**options)
    except TypeError as error:
        raise ScoringError("rules_invalid", f"rules: {error}", field="rules") from None


def _name(data, field, required=False):
    value = data.get(field)
    if value is None:
        if required:
            _bad(field, "is required")
        return None
    if not isinstance(value, str) or not value.strip():
        _bad(field, "must be a player's name or null")
    return value


def _players(value):
    if not isinstance(value, list) or not all(isinstance(p, str) and p.strip() for p in value):
        _bad("players", "must be a list of 2 to 6 names")
    return tuple(value)


def _chelem(data, field):
    value = data.get(field)
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"announced", "made_by"}:
        raise ScoringError(
            "chelem_invalid",
            f'{field}: an object {{"announced": true/false, "made_by": "attack"|"defence"|null}}',
            field=field,
        )
    return Chelem(value.get("announced", False), value.get("made_by"))


def parse_hand(data: dict, rules: Rules | None = None, players: tuple | None = None):
    """A hand object into ``(rules, Hand)``; a sheet passes its rules and players."""
    if not isinstance(data, dict):
        _bad("hand", "must be a JSON object")
    if rules is None:
        rules = parse_rules(data.get("rules"))
    ruleset = rules.ruleset
    unknown = set(data) - ruleset.hand_fields
    if unknown:
        _bad(sorted(unknown)[0], "is not a field of a hand")
    if players is None:
        players = _players(data.get("players"))
    if ruleset.parse_hand is not None:  # a game of its own reads its own fields
        return rules, ruleset.parse_hand(data, rules, players)
    taker = _name(data, "taker")
    contract = data.get("contract")
    if contract is not None and not isinstance(contract, str):
        _bad("contract", "must be a contract's name")
    bouts = data.get("bouts", 0 if taker is None else None)
    points = data.get("points", 0 if taker is None else None)
    if bouts is None:
        _bad("bouts", "is required (0 to 3)")
    if points is None:
        _bad("points", f"is required (0 to {ruleset.deck.total})")
    if isinstance(bouts, bool) or not isinstance(bouts, int):
        raise ScoringError("bouts_out_of_range", "bouts: must be 0, 1, 2 or 3", field="bouts")
    if isinstance(points, bool) or not isinstance(points, (int, Decimal)):
        _bad("points", f"must be a number from 0 to {ruleset.deck.total}")
    pab = data.get("petit_au_bout")
    if pab is not None and not isinstance(pab, str):
        _bad("petit_au_bout", 'must be "attack", "defence" or null')
    poignees = data.get("poignees") or []
    if not isinstance(poignees, list):
        _bad("poignees", "must be a list")
    parsed_poignees = []
    for item in poignees:
        if not isinstance(item, dict) or set(item) != {"player", "size"}:
            _bad("poignees", 'each must be {"player": name, "size": "single"|"double"|"triple"}')
        parsed_poignees.append(Poignee(item["player"], item["size"]))
    miseres = data.get("miseres") or []
    if not isinstance(miseres, list) or not all(isinstance(m, str) for m in miseres):
        _bad("miseres", "must be a list of names")
    hand = Hand(
        players=players,
        taker=taker,
        contract=contract,
        bouts=bouts,
        points=points,
        partner=_name(data, "partner"),
        sits_out=_name(data, "sits_out"),
        dealer=_name(data, "dealer"),
        petit_au_bout=pab,
        poignees=tuple(parsed_poignees),
        chelem=_chelem(data, "chelem"),
        petit_chelem=_chelem(data, "petit_chelem"),
        miseres=tuple(miseres),
    )
    return rules, hand


def parse_sheet(data: dict) -> Sheet:
    rules = parse_rules(data.get("rules"))
    players = _players(data.get("players"))
    hands = data.get("hands")
    if not isinstance(hands, list):
        _bad("hands", "must be a list of hands")
    parsed = []
    for number, item in enumerate(hands, start=1):
        try:
            if isinstance(item, dict) and "players" in item and item["players"] != list(players):
                _bad("players", "a hand of a sheet takes the sheet's players")
            if isinstance(item, dict) and "rules" in item:
                _bad("rules", "a hand of a sheet takes the sheet's rules")
            parsed.append(parse_hand(item, rules, players)[1])
        except ScoringError as error:
            error.hand = number
            raise
    return Sheet(rules, players, tuple(parsed))


def number(halves: int):
    """A JSON number: an int, or a float ending in .5 (exact in binary)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def hand_result_dict(result: HandResult, explain: bool = False) -> dict:
    out = {"scores": {p: number(h) for p, h in zip(result.players, result.halves)}}
    if result.pools is not None:
        out["pools"] = list(result.pools)
    if explain:
        out["explanation"] = str(result.explanation)
    return out


def sheet_result_dict(result: SheetResult, explain: bool = False) -> dict:
    out = {
        "hands": [hand_result_dict(h, explain) for h in result.hands],
        "totals": {p: number(h) for p, h in zip(result.players, result.totals_halves)},
    }
    if result.pools is not None:
        out["pools"] = list(result.pools)
    return out


def score_line(line: str, explain: bool = False) -> dict:
    """Score one JSON line (a hand or a sheet): the result dict, or an error dict."""
    try:
        data = loads(line)
        if "hands" in data:
            return sheet_result_dict(score_sheet(parse_sheet(data)), explain)
        rules, hand = parse_hand(data)
        return hand_result_dict(score_hand(rules, hand), explain)
    except ScoringError as error:
        return error.as_dict()


def hand_to_dict(hand: Hand, with_players: bool = False) -> dict:
    """A hand in the JSON format (for export), leaving out empty fields."""
    if type(hand) is not Hand:  # a game of its own writes its own fields
        return hand.as_dict(with_players)
    out = {}
    if with_players:
        out["players"] = list(hand.players)
    for field in ("sits_out", "dealer", "taker", "contract", "partner", "petit_au_bout"):
        value = getattr(hand, field)
        if value is not None:
            out[field] = value
    if hand.taker is not None:
        out["bouts"] = hand.bouts
        points = hand.points
        out["points"] = int(points) if points == int(points) else float(points)
    if hand.poignees:
        out["poignees"] = [{"player": p.player, "size": p.size} for p in hand.poignees]
    for field in ("chelem", "petit_chelem"):
        value = getattr(hand, field)
        if value is not None:
            out[field] = {"announced": value.announced, "made_by": value.made_by}
    if hand.miseres:
        out["miseres"] = list(hand.miseres)
    return out
