"""Explanations a player can check, as structured terms.

An explanation is a tuple of ``Term``s in the shape of the rule, e.g.
``(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234``. Numbers stay numbers
and words are message keys, so the web layer renders the same terms in French by
passing its own ``labels`` (translated templates) and number format.

The ruleset chooses the shape (``Ruleset.explanation``, a key of ``STYLES``):
nothing here guesses a preset from its figures. This module imports the result
type's helpers only, never the engine.
"""

from decimal import Decimal
from typing import NamedTuple

from .result import HandResult, halves_to_decimal

MINUS = "\u2212"

#: English text of every message key. Tarot words keep their French names.
LABELS = {
    "petit_au_bout": "petit au bout",
    "poignee": "poignée",
    "chelem": "chelem",
    "petit_chelem": "petit chelem",
    "prise": "prise",
    "pousse": "pousse",
    "garde": "garde",
    "garde_sans": "garde sans",
    "garde_contre": "garde contre",
    "per_defender": "per defender",
    "to_each_defender": "to each defender",
    "rounded": "rounded to {value}",
    "role_taker": "taker {value}",
    "role_partner": "partner {value}",
    "player_score": "{player} {value}",
    "passed": "everybody passed",
    "winner": "{player} wins:",
    "misere": "misère: {player} {value} ({amount} from each)",
    "pool_ante": "each seated player antes {amount} into a new pool",
    "pool_stake": "{player} (dealer) adds {amount} to the pool",
    "pool_take": "{player} takes the pool of {amount}",
    "pool_pay": "{player} pays {amount} into a new pool",
    "pools_left": "pools {amounts}",
    "pools_none": "no pool left",
}


class Term(NamedTuple):
    kind: str  # "num", "op" or "text"
    value: object = None  # the number, or the operator's symbol
    label: str | None = None  # message key: a num's label, or a text's template
    params: tuple = ()  # a text's (name, value) pairs; numbers stay numbers


class Explanation(NamedTuple):
    terms: tuple

    def render(self, labels=None, number=None) -> str:
        labels = LABELS if labels is None else labels
        number = format_number if number is None else number
        words = []
        for term in self.terms:
            if term.kind == "op":
                words.append(term.value)
            elif term.kind == "num":
                text = number(term.value)
                if term.label:
                    text += " " + str(labels[term.label])
                words.append(text)
            else:
                params = {k: _param(v, number) for k, v in term.params}
                words.append(str(labels[term.label]).format(**params))
        text = " ".join(words)
        for before, after in (("( ", "("), (" )", ")"), (" ;", ";"), (" ,", ",")):
            text = text.replace(before, after)
        return text

    def __str__(self) -> str:
        return self.render()


class Signed(NamedTuple):
    """A number always shown with its sign (a player's score)."""

    value: Decimal


def _param(value, number):
    if isinstance(value, Signed):
        return signed(value.value, number)
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return number(value)
    if isinstance(value, tuple):
        return ", ".join(number(v) for v in value)
    return value


def format_number(value) -> str:
    text = str(value)
    return MINUS + text[1:] if text.startswith("-") else text


def signed(value, number=format_number) -> str:
    return number(value) if value < 0 else "+" + number(value)


def _num(value, label=None):
    return Term("num", value, label)


def _op(symbol):
    return Term("op", symbol)


def _text(label, **params):
    return Term("text", None, label, tuple(params.items()))


def _add(terms, amount, label):
    """Append ``+ amount label`` or ``− amount label`` (skipped when zero)."""
    if amount:
        terms.append(_op("+" if amount > 0 else MINUS))
        terms.append(_num(abs(amount), label))


def explain_hand(result: HandResult, style: str | None = None) -> Explanation:
    """The explanation of a result in the ruleset's ``style`` (by default its own)."""
    if style is None:
        style = result.ruleset.explanation
    terms = []
    if result.kind == "passed":
        terms.append(_text("passed"))
    else:
        STYLES[style](result, terms)
    if result.miseres:
        n = len(result.players) - (result.sits_out is not None)
        for name in result.miseres:
            terms.append(_op(";"))
            terms.append(
                _text(
                    "misere",
                    player=name,
                    value=Signed(Decimal(result.misere_value * (n - 1))),
                    amount=result.misere_value,
                )
            )
    for event, player, amount in result.pool_moves:
        if event == "ante":
            if player != result.players[0]:
                continue  # one line for everybody's ante
            terms.append(_op(";"))
            terms.append(_text("pool_ante", amount=-amount))
        else:
            terms.append(_op(";"))
            terms.append(_text("pool_" + event, player=player, amount=abs(amount)))
    if result.pools is not None:
        terms.append(_op(";"))
        if result.pools:
            terms.append(_text("pools_left", amounts=result.pools))
        else:
            terms.append(_text("pools_none"))
    return Explanation(tuple(terms))


def _explain_base(result, terms):
    """``(25 + margin + pab) × multiplier …``: fft, pousse, contre5."""
    sign = 1 if result.made else -1
    terms += [_op("("), _num(result.base), _op("+"), _num(result.margin)]
    _add(terms, sign * result.pab // result.multiplier, "petit_au_bout")
    terms += [_op(")"), _op("×"), _num(result.multiplier)]
    _tail(result, terms, sign)


def _explain_flat(result, terms):
    """``80 garde + 20 + 10 petit au bout …``: fixed, a flat base by contract."""
    sign = 1 if result.made else -1
    terms += [_num(result.base, result.contract)]
    _add(terms, result.margin, None)
    _add(terms, sign * result.pab, "petit_au_bout")
    _tail(result, terms, sign)


def _explain_no_base(result, terms):
    """``(margin + pab) × multiplier …``: mouches, no base."""
    sign = 1 if result.made else -1
    if result.pab:
        terms += [_op("("), _num(result.margin)]
        _add(terms, sign * result.pab // result.multiplier, "petit_au_bout")
        terms += [_op(")")]
    else:
        terms += [_num(result.margin)]
    terms += [_op("×"), _num(result.multiplier)]
    _tail(result, terms, sign)


def _attack_halves(result):
    """The taker's and the partner's card scores in half points (no misère, no pools)."""
    s = result.per_defender
    if result.partner is None:
        n = len(result.players) - (result.sits_out is not None)
        return 2 * s * (n - 1), 0
    if result.split == "equal":
        return 3 * s, 3 * s
    return 4 * s, 2 * s


def _tail(result, terms, sign):
    """Bonuses, the per-defender amount and the attack's scores."""
    _add(terms, result.poignee, "poignee")
    _add(terms, sign * result.chelem, "chelem")
    _add(terms, sign * result.petit_chelem, "petit_chelem")
    exact = sign * result.exact
    terms += [_op("="), _num(exact)]
    if result.per_defender != result.exact:
        terms += [_op(","), _text("rounded", value=sign * result.per_defender)]
    terms.append(_text("per_defender" if result.made else "to_each_defender"))
    taker, partner = _attack_halves(result)
    terms.append(_op(";"))
    terms.append(_text("role_taker", value=Signed(halves_to_decimal(taker))))
    if result.partner is not None:
        terms.append(_op(","))
        terms.append(_text("role_partner", value=Signed(halves_to_decimal(partner))))


def _explain_two(result, terms):
    players = result.players
    taker = result.taker
    other = next(p for p in players if p not in (taker, result.sits_out))
    winner = taker if result.made else other
    sign = 1 if result.made else -1
    terms += [_text("winner", player=winner), _num(25), _op("+"), _num(result.margin)]
    _add(terms, sign * result.pab, "petit_au_bout")
    _add(terms, sign * result.chelem, "chelem")
    _add(terms, sign * result.petit_chelem, "petit_chelem")
    terms += [_op("="), _num(sign * result.exact)]
    if result.per_defender != result.exact:
        terms += [_op(","), _text("rounded", value=sign * result.per_defender)]
    for name in (taker, other):
        terms.append(_op(";" if name == taker else ","))
        value = result.per_defender if name == taker else -result.per_defender
        terms.append(_text("player_score", player=name, value=Signed(Decimal(value))))


#: Explanation shapes a ruleset may choose (``Ruleset.explanation``).
STYLES = {
    "base": _explain_base,
    "flat": _explain_flat,
    "no_base": _explain_no_base,
    "two_players": _explain_two,
}
