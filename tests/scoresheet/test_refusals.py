"""clubs.refusals: the engine's refusals worded from code + params in the page's
language, never with the code in the text."""

from decimal import Decimal

import pytest
from django.utils import translation

from clubs.refusals import MESSAGES, refusal_message
from scoresheet import services
from tarot import CODES, ScoringError, score_hand
from tarot.jsonformat import parse_hand, parse_rules

RULES = parse_rules(None)
PLAYERS = ("Anna", "Bert", "Carl", "Dora")
HAND = {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56}


def refusal(**changes):
    with pytest.raises(ScoringError) as error:
        rules, hand = parse_hand(dict(HAND, **changes), RULES, PLAYERS)
        score_hand(rules, hand)
    return services.LedgerError.from_scoring(error.value)


@pytest.mark.parametrize(
    "changes, english, french",
    [
        ({"bouts": 4}, "Bouts: 4; a hand has 0 to 3 bouts.", "Bouts\u00a0: 4\u202f; une donne"),
        ({"taker": "Zoé"}, "Zoé is not at the table.", "Zoé n’est pas à la table."),
        ({"points": 95}, "Points: 95; they go from 0 to 91.", "ils vont de 0 à 91"),
        ({"points": Decimal("40.25")}, "Points go by halves: 40 or 40.5.", "40 ou 40,5"),
        ({"contract": "grande"}, "“grande” is not a contract", "«\u00a0grande\u00a0» n’est pas"),
    ],
)
def test_engine_refusals_in_english_and_french(changes, english, french):
    with translation.override("en"):
        error = refusal(**changes)
        assert english in error.message and error.code not in error.message
        assert error.engine_message  # the engine's own words stay for logs
    with translation.override("fr"):
        error = refusal(**changes)
        assert french in error.message and error.code not in error.message


def test_every_code_is_worded_without_params_too():
    assert set(CODES) <= set(MESSAGES)
    with translation.override("fr"):
        for code in CODES:
            text = refusal_message(code)
            assert text and "%(" not in text and code not in text
