"""Preset ``savoyard``: the rules of the Chambéry club, 1902 (SAVOYARD.md).

A game of its own, not French Tarot: no bids, no bouts, no chien. The scorer
enters the *count* of the declaring party (card values + tricks + skat), or at
three each player's count; a party pays the difference to the tie line,
doubled for a losing count under half the line and for a solo with one card
asked or none. Options (``Rules(options=…)``): ``deck`` 78 or 62, ``count``
``classic`` or ``ticino``, ``baga`` a value or None.

Everything here is whole points (``halves`` are twice the points). Each step
cites the SAVOYARD.md section it implements; *(ours)* marks a decision where
the contract is silent.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from ..errors import ScoringError
from ..explain import Explanation, Signed, Term
from ..result import new_result
from .base import Ruleset

MODES = ("solo", "call", "partners", "each")
#: The modes played by this many players (§2).
MODES_AT = {3: ("solo", "each"), 4: ("solo", "call", "partners"), 5: ("solo", "call")}
DECKS = (78, 62)
COUNTS = ("classic", "ticino")
SIDES = ("declarers", "opponents")
#: Classic count (§1): (players, deck) → total (52 card values + tricks + skat).
TOTALS = {(5, 78): 68, (4, 78): 72, (3, 78): 78, (5, 62): 64, (4, 62): 68, (3, 62): 72}
TICINO_TOTAL = 72

HAND_FIELDS = frozenset(
    {
        "rules",
        "players",
        "dealer",
        "sits_out",
        "mode",
        "declarer",
        "cards_asked",
        "partner",
        "count",
        "counts",
        "baga",
        "number",
    }
)
#: Which of the mode fields each mode takes (the others are refused).
MODE_FIELDS = {
    "solo": ("declarer", "cards_asked", "count"),
    "call": ("partner", "count"),
    "partners": ("partner", "count"),
    "each": ("counts",),
}

#: English text of the explanation's message keys (merged into ``explain.LABELS``).
LABELS = {
    "sv_margin": "|{count} − {line}| = {value}",
    "sv_under": "(losers under {value})",
    "sv_one_card": "(solo with one card or none)",
    "sv_as_dealt": "(solo as dealt)",
    "sv_tie": "{count}: exactly the tie line, nobody pays",
    "sv_solo_won": "each opponent pays {amount}, the soloist takes {total}",
    "sv_solo_lost": "the soloist pays {total}, each opponent takes {amount}",
    "sv_call_won": "three pay {amount}, the dealer takes {dealer} and the partner {partner}",
    "sv_call_lost": "three take {amount}, the dealer pays {dealer} and the partner {partner}",
    "sv_pairs_won": "each opponent pays {amount} to a declarer",
    "sv_pairs_lost": "each declarer pays {amount} to an opponent",
    "sv_each_pays": "{player} pays {line} − {count} = {value}",
    "sv_each_under": "(under {value})",
    "sv_each_share": "shared by the excess over {line}:",
    "sv_each_takes": "{player} {excess} → {value}",
    "sv_each_even": "everybody at {line}: nobody pays",
    "sv_baga": "baga au bout worth {value}",
    "sv_baga_one_card": "(solo with one card)",
    "sv_baga_as_dealt": "(solo as dealt)",
    "sv_baga_announced": "(announced)",
    "sv_to_declarers": "to the declarers:",
    "sv_to_opponents": "to the opponents:",
}


@dataclass(frozen=True, slots=True)
class Baga:
    """Baga au bout (§4): to the declarers or the opponents, announced or not."""

    to: str
    announced: bool = False


@dataclass(frozen=True, slots=True)
class SavoyardHand:
    """One Savoyard hand as the scorer enters it (SAVOYARD.md §6).

    ``players`` are everybody seated, in dealing order. ``counts`` (mode
    ``each``) are ``(name, count)`` pairs. Unused fields stay None.
    """

    players: tuple[str, ...]
    dealer: str | None = None
    mode: str | None = None
    declarer: str | None = None
    cards_asked: int | None = None
    partner: str | None = None
    count: int | None = None
    counts: tuple = ()
    sits_out: str | None = None
    baga: Baga | None = None

    def as_dict(self, with_players: bool = False) -> dict:
        """The hand in the JSON format, leaving out empty fields."""
        out = {}
        if with_players:
            out["players"] = list(self.players)
        for name in ("dealer", "sits_out", "mode", "declarer", "cards_asked", "partner", "count"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.counts:
            out["counts"] = dict(self.counts)
        if self.baga is not None:
            out["baga"] = {"to": self.baga.to, "announced": self.baga.announced}
        return out


class Detail(NamedTuple):
    """The Savoyard components of a result (``HandResult.detail``).

    ``line`` is the tie line (two parties) or the even share (``each``);
    ``doubled_below`` half of it; ``reasons`` the doublings applied ("under",
    "one_card", "as_dealt"); ``game`` and ``bagas`` each seated player's points
    from the game and from the baga; ``shares`` (``each``) (name, count, points).
    """

    mode: str
    total: int
    line: int
    doubled_below: Decimal
    count: int | None
    difference: int
    factor: int
    reasons: tuple
    cards_asked: int | None
    won: bool | None  # the declarers won; None on a tie and under ``each``
    game: tuple
    baga_to: str | None = None
    baga_announced: bool = False
    baga_value: int = 0
    baga_amount: int = 0
    bagas: tuple = ()
    shares: tuple = ()
    n: int = 0


def _refuse(code, message, field=None):
    raise ScoringError(code, message, field=field)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_name(value) -> bool:
    return isinstance(value, str)


class Savoyard(Ruleset):
    name = "savoyard"
    kind = "savoyard"
    player_counts = (3, 4, 5)
    multipliers = {}
    hand_fields = HAND_FIELDS
    has_poignees = False
    explanation = "savoyard"
    option_defaults = {"deck": 78, "count": "classic", "baga": 10}
    extra_seat_at = (5,)  # §5: six at the table, the dealer's left sits out
    sits_out_seat = -1

    # --- options -------------------------------------------------------------------

    def check_options(self, options: dict) -> dict:
        unknown = set(options) - set(self.option_defaults)
        if unknown:
            name = sorted(map(str, unknown))[0]
            _refuse("rules_invalid", f"rules: {name} is not an option of savoyard", name)
        out = {**self.option_defaults, **options}
        if not _whole(out["deck"]) or out["deck"] not in DECKS:
            _refuse("rules_invalid", "rules: deck must be 78 or 62", "deck")
        if out["count"] not in COUNTS:
            _refuse("rules_invalid", "rules: count must be classic or ticino", "count")
        baga = out["baga"]
        if baga is not None and (not _whole(baga) or baga < 0):
            _refuse("rules_invalid", "rules: baga must be a whole number ≥ 0 or null", "baga")
        return out

    def option_variants(self) -> list[dict]:
        return [
            {"deck": d, "count": c, "baga": b}
            for d in DECKS
            for c in COUNTS
            for b in (10, None, 20)
        ]

    def total(self, rules, n: int) -> int:
        """The count of all the cards with this many playing (§1)."""
        if rules.opts["count"] == "ticino":
            return TICINO_TOTAL
        return TOTALS[n, rules.opts["deck"]]

    # --- JSON ----------------------------------------------------------------------

    def parse_hand(self, data, rules, players):
        """The fields of SAVOYARD.md §6 into a ``SavoyardHand`` (shapes only; the
        rules' refusals are ``validate``'s)."""

        def name(field):
            value = data.get(field)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                _refuse("invalid_field", f"{field}: must be a player's name or null", field)
            return value

        mode = data.get("mode")
        if mode is not None and not isinstance(mode, str):
            _refuse("mode_unknown", "mode: must be solo, call, partners or each", "mode")
        count = _count_value(data.get("count"), "count")
        counts = data.get("counts")
        if counts is None:
            counts = ()
        elif isinstance(counts, dict):
            counts = tuple((k, _count_value(v, "counts")) for k, v in counts.items())
        else:
            _refuse("invalid_field", "counts: must be an object {name: count}", "counts")
        cards = data.get("cards_asked")
        if cards is not None and not _whole(cards):
            _refuse("cards_asked_out_of_range", "cards_asked: must be 0, 1 or 2", "cards_asked")
        return SavoyardHand(
            players=tuple(players),
            dealer=name("dealer"),
            mode=mode,
            declarer=name("declarer"),
            cards_asked=cards,
            partner=name("partner"),
            count=count,
            counts=counts,
            sits_out=name("sits_out"),
            baga=_baga_value(data.get("baga")),
        )

    # --- refusals ------------------------------------------------------------------

    def validate(self, rules, hand):
        """Raise the refusals of SAVOYARD.md §6; return ``(n, playing, total, partner)``."""
        if not isinstance(hand, SavoyardHand):
            _refuse("invalid_field", "hand: a Savoyard hand (mode, count…) is needed", "hand")
        players = hand.players
        _check_table(players, hand.dealer)
        out = _check_sits_out(players, hand.dealer, hand.sits_out)
        playing = tuple(p for p in players if p != out)
        n = len(playing)
        _check_mode(hand, n)
        total = self.total(rules, n)
        partner = _check_sides(hand, players, playing, out)
        if hand.mode == "each":
            _check_counts(hand.counts, playing, total)
        else:
            _check_count(hand.count, total, "count")
        _check_baga(hand.baga, n, rules)
        return n, playing, total, partner

    # --- scoring -------------------------------------------------------------------

    def score(self, rules, hand, pools: tuple = ()):
        n, playing, total, partner = self.validate(rules, hand)
        players = hand.players
        points = dict.fromkeys(players, 0)
        mode = hand.mode
        if mode == "each":
            detail = self._each(hand, playing, total)
            for name, _count, value in detail.shares:
                points[name] = value
            return self._result(hand, detail, points, None, None)

        # §3: two parties. The declarers: the soloist; the dealer (and partner).
        declarer = hand.declarer if mode == "solo" else hand.dealer
        line = total // 2
        count = hand.count
        difference = abs(count - line)
        won = None if difference == 0 else count > line
        reasons = []
        factor = 1
        if won is not None:
            losing = total - count if won else count
            if 2 * losing < line:  # strictly below half the tie line
                factor *= 2
                reasons.append("under")
        cards = hand.cards_asked if mode == "solo" else None
        if mode == "solo" and cards <= 1:
            factor *= 2
            reasons.append("one_card")
        if mode == "solo" and cards == 0:
            factor *= 2
            reasons.append("as_dealt")
        amount = difference * factor
        sign = 0 if won is None else (1 if won else -1)
        game = _pay(players, playing, mode, n, hand.dealer, declarer, partner, sign * amount)
        for name, value in game.items():
            points[name] += value
        baga = hand.baga
        bagas = {}
        value = baga_amount = 0
        if baga is not None:  # §4: paid like the game
            value = rules.opts["baga"]
            baga_amount = value
            if mode == "solo" and cards == 1:
                baga_amount *= 2
            elif mode == "solo" and cards == 0:
                baga_amount *= 4
            if baga.announced:
                baga_amount *= 2
            signed = baga_amount if baga.to == "declarers" else -baga_amount
            bagas = _pay(players, playing, mode, n, hand.dealer, declarer, partner, signed)
            for name, v in bagas.items():
                points[name] += v
        detail = Detail(
            mode=mode,
            total=total,
            line=line,
            doubled_below=Decimal(line) / 2,
            count=count,
            difference=difference,
            factor=factor,
            reasons=tuple(reasons),
            cards_asked=cards,
            won=won,
            game=tuple(game.get(p, 0) for p in players),
            baga_to=baga.to if baga is not None else None,
            baga_announced=baga.announced if baga is not None else False,
            baga_value=value,
            baga_amount=baga_amount,
            bagas=tuple(bagas.get(p, 0) for p in players),
            n=n,
        )
        return self._result(hand, detail, points, declarer, partner)

    def _each(self, hand, playing, total):
        """§3 ``each``: under the line pays, over the line shares by its excess."""
        line = total // 3
        counts = dict(hand.counts)
        paid = {}
        doubled = False
        for name in playing:
            count = counts[name]
            if count < line:
                difference = line - count
                if 2 * count < line:  # strictly below half the line
                    difference *= 2
                    doubled = True
                paid[name] = -difference
        pot = -sum(paid.values())
        excess = {p: counts[p] - line for p in playing if counts[p] > line}
        whole = sum(excess.values())
        # (ours) largest remainder; a tie of remainders to the first player in
        # dealing order after the dealer (the dealer's right).
        d = playing.index(hand.dealer) if hand.dealer in playing else -1
        order = {p: i for i, p in enumerate(playing[d + 1 :] + playing[: d + 1])}
        shares = {}
        if pot:
            remainders = []
            for name, e in excess.items():
                shares[name], rest = divmod(pot * e, whole)
                remainders.append((-rest, order[name], name))
            left = pot - sum(shares.values())
            for _, _, name in sorted(remainders)[:left]:
                shares[name] += 1
        rows = tuple((p, counts[p], shares.get(p, 0) + paid.get(p, 0)) for p in playing)
        return Detail(
            mode="each",
            total=total,
            line=line,
            doubled_below=Decimal(line) / 2,
            count=None,
            difference=pot,
            factor=2 if doubled else 1,
            reasons=("under",) if doubled else (),
            cards_asked=None,
            won=None,
            game=tuple(shares.get(p, 0) + paid.get(p, 0) for p in hand.players),
            shares=rows,
            n=len(playing),
        )

    def _result(self, hand, detail, points, declarer, partner):
        players = hand.players
        result = new_result()
        result.players = players
        result.halves = tuple(2 * points[p] for p in players)
        result.kind = "savoyard"
        result.ruleset = self
        result.taker = declarer
        result.partner = partner
        result.contract = detail.mode
        result.multiplier = detail.factor
        result.margin = detail.difference
        result.made = bool(detail.won)
        if detail.count is not None:
            result.margin_halves = 2 * (detail.count - detail.line)
            result.points_halves = 2 * detail.count
        result.sits_out = hand.sits_out
        if declarer is not None:
            result.playing = tuple(players.index(p) for p in (declarer, partner) if p is not None)
        result.detail = detail
        return result

    # --- explanation ---------------------------------------------------------------

    def explain(self, result):
        """``|40 − 34| = 6 × 1; three pay 6, the dealer takes 9 and the partner 9``."""
        d = result.detail
        terms = []
        if d.mode == "each":
            _explain_each(d, terms)
        elif d.won is None:
            terms.append(_text("sv_tie", count=d.count))
        else:
            terms.append(_text("sv_margin", count=d.count, line=d.line, value=d.difference))
            terms += [Term("op", "×"), Term("num", d.factor)]
            for reason in d.reasons:
                if reason == "under":
                    terms.append(_text("sv_under", value=d.doubled_below))
                else:
                    terms.append(_text("sv_" + reason))
            terms.append(Term("op", ";"))
            _explain_payment(d, result, d.difference * d.factor, d.won, terms)
        if d.baga_to is not None:
            terms.append(Term("op", ";"))
            terms.append(_text("sv_baga", value=d.baga_value))
            if d.baga_amount != d.baga_value:
                if d.cards_asked == 1:
                    terms += [Term("op", "×"), Term("num", 2), _text("sv_baga_one_card")]
                elif d.cards_asked == 0:
                    terms += [Term("op", "×"), Term("num", 4), _text("sv_baga_as_dealt")]
                if d.baga_announced:
                    terms += [Term("op", "×"), Term("num", 2), _text("sv_baga_announced")]
                terms += [Term("op", "="), Term("num", d.baga_amount)]
            terms.append(_text("sv_to_" + d.baga_to))
            _explain_payment(d, result, d.baga_amount, d.baga_to == "declarers", terms)
        return Explanation(tuple(terms))

    # --- random hands --------------------------------------------------------------

    def random_hand(self, rng, rules, players, sits_out=None, dealer=None, profile=None, extras=()):
        """A random valid Savoyard hand (the generator of ``randomhands``)."""
        players = tuple(players)
        if len(players) == 6 and sits_out is None:
            sits_out = players[rng.randrange(6)]
        if len(players) < 6:
            sits_out = None
        playing = tuple(p for p in players if p != sits_out)
        if dealer is None or dealer == sits_out:
            dealer = playing[rng.randrange(len(playing))]
        n = len(playing)
        modes = MODES_AT[n]
        mode = modes[rng.randrange(len(modes))]
        total = self.total(rules, n)
        fields = {}
        if mode == "each":
            a, b = sorted((rng.randint(0, total), rng.randint(0, total)))
            fields["counts"] = ((playing[0], a), (playing[1], b - a), (playing[2], total - b))
        else:
            fields["count"] = rng.randint(0, total)
            if mode == "solo":
                fields["declarer"] = playing[rng.randrange(n)]
                fields["cards_asked"] = rng.randrange(3)
            elif mode == "call":
                fields["partner"] = rng.choice([p for p in playing if p != dealer])
        baga = None
        if n > 3 and rules.opts["baga"] is not None and rng.random() < 0.15:
            baga = Baga(SIDES[rng.randrange(2)], rng.random() < 0.3)
        return SavoyardHand(
            players=players, dealer=dealer, mode=mode, sits_out=sits_out, baga=baga, **fields
        )

    def describe(self, rules) -> dict:
        """Plain data for the hand form: modes, totals and lines by players, baga."""
        tables = {}
        for n in self.player_counts:
            total = self.total(rules, n)
            tables[n] = {
                "modes": list(MODES_AT[n]),
                "total": total,
                "line": total // 2,
                "each_line": total // 3 if n == 3 else None,
            }
        return {
            "preset": self.name,
            "player_counts": list(self.player_counts),
            "tables": tables,
            "baga": rules.opts["baga"],
            "deck": rules.opts["deck"],
            "count": rules.opts["count"],
        }


# --- helpers --------------------------------------------------------------------------


def _seated(players, name, field):
    if name not in players:
        _refuse(
            "player_not_at_table",
            f"{field}: {name!r} is not at the table ({', '.join(map(str, players))})",
            field,
        )


def _check_count(value, total, field):
    if not _whole(value) or not 0 <= value <= total:
        _refuse(
            "count_out_of_range",
            f"{field}: {value!r}; a count is a whole number from 0 to {total}",
            field.split(" ")[0],
        )


def _count_value(value, field):
    """A JSON count: whole numbers (an integral Decimal too) as int; the rest as
    given, for ``validate`` to refuse; a non-number is refused here."""
    if value is None or _whole(value):
        return value
    if isinstance(value, Decimal):
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        return value
    if isinstance(value, float):
        return value
    _refuse("invalid_field", f"{field}: must be a whole number", field)


def _baga_value(value):
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"to", "announced"} or "to" not in value:
        _refuse(
            "invalid_field",
            'baga: null or {"to": "declarers"|"opponents", "announced": true/false}',
            "baga",
        )
    announced = value.get("announced", False)
    if value["to"] not in SIDES or not isinstance(announced, bool):
        _refuse(
            "invalid_field",
            'baga: null or {"to": "declarers"|"opponents", "announced": true/false}',
            "baga",
        )
    return Baga(value["to"], announced)


def _pay(players, playing, mode, n, dealer, declarer, partner, amount):
    """§3 (and §4 for the baga): each player's points when the declarers win
    ``amount`` (negative: they lose it), as {name: points} of those who play."""
    out = {}
    if mode == "solo":
        for p in playing:
            out[p] = -amount
        out[declarer] = (n - 1) * amount
    elif n == 5:  # call at five: two against three
        for p in playing:
            out[p] = -amount
        pot = 3 * abs(amount)
        sign = 1 if amount >= 0 else -1
        out[dealer] = sign * ((pot + 1) // 2)  # the dealer takes or pays the odd point
        out[partner] = sign * (pot // 2)
    else:  # two against two: each loser pays one winner
        for p in playing:
            out[p] = -amount
        out[dealer] = amount
        out[partner] = amount
    return out


def _text(label, **params):
    return Term("text", None, label, tuple(params.items()))


def _explain_payment(d, result, amount, declarers_won, terms):
    """Who pays whom ``amount`` (the game's, or the baga's)."""
    if d.mode == "solo":
        key = "sv_solo_won" if declarers_won else "sv_solo_lost"
        terms.append(_text(key, amount=amount, total=(d.n - 1) * amount))
    elif d.n == 5:
        pot = 3 * amount
        key = "sv_call_won" if declarers_won else "sv_call_lost"
        terms.append(_text(key, amount=amount, dealer=(pot + 1) // 2, partner=pot // 2))
    else:
        terms.append(_text("sv_pairs_won" if declarers_won else "sv_pairs_lost", amount=amount))


def _explain_each(d, terms):
    """``Cécile pays 26 − 12 = 14 × 2 (under 13) = 28; shared by the excess over 26:
    Amélie 11 → +22, Béatrice 3 → +6``."""
    losers = [(p, c, v) for p, c, v in d.shares if c < d.line]
    if not losers:
        terms.append(_text("sv_each_even", line=d.line))
        return
    for i, (player, count, value) in enumerate(losers):
        if i:
            terms.append(Term("op", ","))
        terms.append(
            _text("sv_each_pays", player=player, line=d.line, count=count, value=d.line - count)
        )
        if 2 * count < d.line:
            terms += [Term("op", "×"), Term("num", 2)]
            terms.append(_text("sv_each_under", value=d.doubled_below))
            terms += [Term("op", "="), Term("num", -value)]
    terms.append(Term("op", ";"))
    terms.append(_text("sv_each_share", line=d.line))
    first = True
    for player, count, value in d.shares:
        if count > d.line:
            if not first:
                terms.append(Term("op", ","))
            first = False
            terms.append(
                _text(
                    "sv_each_takes",
                    player=player,
                    excess=count - d.line,
                    value=Signed(Decimal(value)),
                )
            )


RULESET = Savoyard()

__all__ = ["LABELS", "RULESET", "Baga", "Detail", "SavoyardHand"]


# --- the refusals of §6, in the order a hand is read ---------------------------------


def _check_table(players, dealer):
    """Names, three to six seats, nobody twice, a seated dealer."""
    if not isinstance(players, tuple) or not all(_is_name(p) for p in players):
        _refuse("invalid_field", "players: must be a list of names", "players")
    nseat = len(players)
    if nseat < 3 or nseat > 6:
        _refuse("seat_count", f"players: {nseat} seated; a Savoyard table seats 3 to 6", "players")
    if len(set(players)) != nseat:
        twice = sorted({p for p in players if players.count(p) > 1})
        _refuse("duplicate_player", f"players: {', '.join(twice)} named twice", "players")
    if dealer is None:
        _refuse("dealer_required", "dealer: the Savoyard rules need the dealer", "dealer")
    _seated(players, dealer, "dealer")


def _check_sits_out(players, dealer, out):
    """At six one player sits out, never the dealer; otherwise nobody. Returns him."""
    nseat = len(players)
    if nseat == 6:
        if out is None:
            _refuse(
                "sits_out_invalid",
                "sits_out: at six the player on the dealer's left sits out; name him",
                "sits_out",
            )
        _seated(players, out, "sits_out")
        if out == dealer:
            _refuse("player_sits_out", f"dealer: {dealer} sits out this hand", "dealer")
    elif out is not None:
        _refuse(
            "sits_out_invalid",
            f"sits_out: only at six does a player sit out ({nseat} seated)",
            "sits_out",
        )
    return out


def _check_mode(hand, n):
    """A mode played by ``n``, and only the fields of that mode."""
    mode = hand.mode
    if mode not in MODES:
        _refuse(
            "mode_unknown",
            f"mode: {mode!r} is not a mode; allowed: solo, call, partners, each",
            "mode",
        )
    if mode not in MODES_AT[n]:
        _refuse(
            "mode_not_played",
            f"mode: {mode} is not played by {n}; at {n}: {', '.join(MODES_AT[n])}",
            "mode",
        )
    allowed = MODE_FIELDS[mode]
    for field in ("declarer", "cards_asked", "count", "counts"):
        if field not in allowed and getattr(hand, field) not in (None, ()):
            _refuse("invalid_field", f"{field}: not a field of a {mode} hand", field)
    if mode != "partners" and "partner" not in allowed and hand.partner is not None:
        _refuse("invalid_field", f"partner: not a field of a {mode} hand", "partner")


def _check_sides(hand, players, playing, out):
    """The soloist and the cards he asked, the called partner, or the partner opposite
    the dealer; returns the dealer's partner (None in solo and each)."""
    mode, dealer = hand.mode, hand.dealer
    if mode == "solo":
        declarer = hand.declarer
        if declarer is None:
            _refuse("invalid_field", "declarer: the soloist is required", "declarer")
        _seated(players, declarer, "declarer")
        if declarer == out:
            _refuse("player_sits_out", f"declarer: {declarer} sits out this hand", "declarer")
        cards = hand.cards_asked
        if not _whole(cards) or not 0 <= cards <= 2:
            _refuse(
                "cards_asked_out_of_range",
                f"cards_asked: {cards!r}; a soloist asks 0, 1 or 2 cards",
                "cards_asked",
            )
        return None
    if mode == "call":
        partner = hand.partner
        if partner is None:
            _refuse(
                "invalid_field", "partner: the holder of the called card is required", "partner"
            )
        _seated(players, partner, "partner")
        if partner == out:
            _refuse("player_sits_out", f"partner: {partner} sits out this hand", "partner")
        if partner == dealer:
            _refuse(
                "partner_is_dealer",
                f"partner: {partner} is the dealer; the dealer calls another player",
                "partner",
            )
        return partner
    if mode == "partners":  # §2: the dealer's partner sits opposite him
        partner = playing[(playing.index(dealer) + 2) % 4]
        if hand.partner is not None and hand.partner != partner:
            _refuse(
                "invalid_field",
                f"partner: in partners the dealer's partner sits opposite him ({partner})",
                "partner",
            )
        return partner
    return None


def _check_counts(counts, playing, total):
    """Every playing player's count once, each in range, adding up to the cards."""
    if not isinstance(counts, tuple) or not all(
        isinstance(c, tuple) and len(c) == 2 for c in counts
    ):
        _refuse("invalid_field", "counts: must be (name, count) pairs", "counts")
    names = [c[0] for c in counts]
    missing = [p for p in playing if p not in names]
    extra = [str(c) for c in names if c not in playing]
    if missing or extra or len(set(names)) != len(names):
        problems = []
        if missing:
            problems.append("missing " + ", ".join(missing))
        if extra:
            problems.append("not playing " + ", ".join(extra))
        if len(set(names)) != len(names):
            problems.append("a player twice")
        _refuse(
            "counts_inconsistent",
            f"counts: every player's count is needed ({'; '.join(problems)})",
            "counts",
        )
    for player, value in counts:
        _check_count(value, total, f"counts ({player})")
    added = sum(c[1] for c in counts)
    if added != total:
        _refuse(
            "counts_inconsistent",
            f"counts: they add up to {added}; the cards count {total}",
            "counts",
        )


def _check_baga(baga, n, rules):
    """A baga au bout: never at three, only where the rules have one, well formed."""
    if baga is None:
        return
    if n == 3:
        _refuse("baga_not_allowed", "baga: never at three players", "baga")
    if rules.opts["baga"] is None:
        _refuse("baga_not_allowed", "baga: these rules have no baga au bout", "baga")
    if not isinstance(baga, Baga) or baga.to not in SIDES:
        _refuse("invalid_field", 'baga: "to" must be declarers or opponents', "baga")
    if not isinstance(baga.announced, bool):
        _refuse("invalid_field", "baga: announced must be true or false", "baga")
