"""The engine's explanation words, translated, rendered with numbers in the active locale.

``EXPLANATION_LABELS`` has the keys of ``scoring.explain.LABELS`` with the same
English text, marked for translation (context "explanation"). Tarot words
(petit au bout, poignée, chelem, garde…) keep their French names in English.

``render_explanation`` hands them to the engine's own ``Explanation.render``:
the engine joins the terms, this module only picks the words, the number format
and the French spacing before ";".
"""

import json
from functools import lru_cache

from django.utils.translation import get_language, pgettext_lazy

from scoresheet.explain_json import terms_from_json
from scoresheet.formatting import format_number
from tarot.explain import LABELS, Explanation, Term

EXPLANATION_LABELS = {
    "petit_au_bout": pgettext_lazy("explanation", "petit au bout"),
    "poignee": pgettext_lazy("explanation", "poignée"),
    "chelem": pgettext_lazy("explanation", "chelem"),
    "petit_chelem": pgettext_lazy("explanation", "petit chelem"),
    "prise": pgettext_lazy("explanation", "prise"),
    "pousse": pgettext_lazy("explanation", "pousse"),
    "garde": pgettext_lazy("explanation", "garde"),
    "garde_sans": pgettext_lazy("explanation", "garde sans"),
    "garde_contre": pgettext_lazy("explanation", "garde contre"),
    "per_defender": pgettext_lazy("explanation", "per defender"),
    "to_each_defender": pgettext_lazy("explanation", "to each defender"),
    "rounded": pgettext_lazy("explanation", "rounded to {value}"),
    "role_taker": pgettext_lazy("explanation", "taker {value}"),
    "role_partner": pgettext_lazy("explanation", "partner {value}"),
    "player_score": pgettext_lazy("explanation", "{player} {value}"),
    "passed": pgettext_lazy("explanation", "everybody passed"),
    "winner": pgettext_lazy("explanation", "{player} wins:"),
    "misere": pgettext_lazy("explanation", "misère: {player} {value} ({amount} from each)"),
    "pool_ante": pgettext_lazy("explanation", "each seated player antes {amount} into a new pool"),
    "pool_stake": pgettext_lazy("explanation", "{player} (dealer) adds {amount} to the pool"),
    "pool_take": pgettext_lazy("explanation", "{player} takes the pool of {amount}"),
    "pool_pay": pgettext_lazy("explanation", "{player} pays {amount} into a new pool"),
    "pools_left": pgettext_lazy("explanation", "pools {amounts}"),
    "pools_none": pgettext_lazy("explanation", "no pool left"),
    # The Savoyard rules (scoring.rulesets.savoyard.LABELS)
    "sv_margin": pgettext_lazy("explanation", "|{count} − {line}| = {value}"),
    "sv_under": pgettext_lazy("explanation", "(losers under {value})"),
    "sv_one_card": pgettext_lazy("explanation", "(solo with one card or none)"),
    "sv_as_dealt": pgettext_lazy("explanation", "(solo as dealt)"),
    "sv_tie": pgettext_lazy("explanation", "{count}: exactly the tie line, nobody pays"),
    "sv_solo_won": pgettext_lazy(
        "explanation", "each opponent pays {amount}, the soloist takes {total}"
    ),
    "sv_solo_lost": pgettext_lazy(
        "explanation", "the soloist pays {total}, each opponent takes {amount}"
    ),
    "sv_call_won": pgettext_lazy(
        "explanation", "three pay {amount}, the dealer takes {dealer} and the partner {partner}"
    ),
    "sv_call_lost": pgettext_lazy(
        "explanation", "three take {amount}, the dealer pays {dealer} and the partner {partner}"
    ),
    "sv_pairs_won": pgettext_lazy("explanation", "each opponent pays {amount} to a declarer"),
    "sv_pairs_lost": pgettext_lazy("explanation", "each declarer pays {amount} to an opponent"),
    "sv_each_pays": pgettext_lazy("explanation", "{player} pays {line} − {count} = {value}"),
    "sv_each_under": pgettext_lazy("explanation", "(under {value})"),
    "sv_each_share": pgettext_lazy("explanation", "shared by the excess over {line}:"),
    "sv_each_takes": pgettext_lazy("explanation", "{player} {excess} → {value}"),
    "sv_each_even": pgettext_lazy("explanation", "everybody at {line}: nobody pays"),
    "sv_baga": pgettext_lazy("explanation", "baga au bout worth {value}"),
    "sv_baga_one_card": pgettext_lazy("explanation", "(solo with one card)"),
    "sv_baga_as_dealt": pgettext_lazy("explanation", "(solo as dealt)"),
    "sv_baga_announced": pgettext_lazy("explanation", "(announced)"),
    "sv_to_declarers": pgettext_lazy("explanation", "to the declarers:"),
    "sv_to_opponents": pgettext_lazy("explanation", "to the opponents:"),
}


class _WithEnglishFallback(dict):
    """A label the engine gained but nobody translated yet shows in English."""

    def __missing__(self, key):
        return LABELS[key]


_LABELS = _WithEnglishFallback(EXPLANATION_LABELS)

#: French typography: a narrow no-break space before ";" (and a no-break space
#: before ":", which lives in the translations themselves).
NARROW_NBSP = "\u202f"


def _explanation(value) -> Explanation:
    if isinstance(value, Explanation):
        return value
    if isinstance(value, str):
        value = json.loads(value)
    return terms_from_json(value)


def render_explanation(value) -> str:
    """Render an explanation in the active language.

    ``value`` is an ``Explanation``, its JSON terms (``explain_json.terms_to_json``)
    or that JSON as a string. Empty or missing explanations render as "".
    """
    if value is None or value == "" or value == []:
        return ""
    language = get_language() or ""
    if isinstance(value, Explanation):
        return _render(value, language)
    try:
        text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    except TypeError:  # numbers JSON does not write (Decimal): not stored terms
        return _render(_explanation(value), language)
    return _render_stored(text, language)


@lru_cache(maxsize=4096)
def _render_stored(text, language) -> str:
    """Stored terms (their JSON text) rendered in ``language`` (the active one), once
    per process: a sheet page shows every hand's explanation, and is shown again
    after each new hand."""
    return _render(_explanation(text), language)


def _render(explanation, language) -> str:
    french = language.startswith("fr")
    if french:
        terms = tuple(
            Term("op", NARROW_NBSP + ";") if t.kind == "op" and t.value == ";" else t
            for t in explanation.terms
        )
        explanation = Explanation(terms)
    text = explanation.render(labels=_LABELS, number=format_number)
    if french:
        text = text.replace(" " + NARROW_NBSP + ";", NARROW_NBSP + ";")
    return text
