"""Explanations and scores as the pages show them, in English and in French.

French typography chosen here: decimal comma (22,5), the Unicode minus (−22,5), a
narrow no-break space (U+202F) before ";" and a no-break space (U+00A0) before ":".
"""

import json
import re
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from scoresheet.explain_json import terms_from_json, terms_to_json
from scoresheet.explain_labels import EXPLANATION_LABELS, render_explanation
from tarot import LABELS, Hand, Rules, score_hand
from tarot.explain import Explanation, Signed, Term
from tarot.hand import Poignee

NNBSP = "\u202f"
NBSP = "\u00a0"
P4 = ("Anna", "Bert", "Carl", "Dora")
P5 = (*P4, "Emil")

#: (rules, hand) pairs covering every shape of explanation the engine builds.
HANDS = {
    "garde_poignee": (
        Rules(),
        Hand(
            P4,
            taker="Anna",
            contract="garde",
            bouts=2,
            points=45,
            poignees=(Poignee("Anna", "single"),),
        ),
    ),
    "five_equal_halves": (
        Rules(five_player_split="equal"),
        Hand(P5, taker="Anna", partner="Bert", contract="prise", bouts=1, points=57),
    ),
    "passed": (Rules(), Hand(P4)),
    "two_players": (
        Rules(preset="two_players"),
        Hand(("Anna", "Bert"), taker="Anna", bouts=1, points=55),
    ),
    "misere": (
        Rules(misere=10),
        Hand(P4, taker="Anna", contract="garde", bouts=1, points=40, miseres=("Carl",)),
    ),
    "mouches_take": (
        Rules(preset="mouches"),
        Hand(P4, taker="Anna", contract="garde", bouts=1, points=60, dealer="Dora"),
    ),
    "mouches_pay": (
        Rules(preset="mouches"),
        Hand(P4, taker="Anna", contract="garde", bouts=1, points=40, dealer="Dora"),
    ),
    "rounded_pab": (
        Rules(rounding=10),
        Hand(P4, taker="Anna", contract="garde_sans", bouts=1, points=58, petit_au_bout="attack"),
    ),
}


def explanation_of(name):
    rules, hand = HANDS[name]
    return score_hand(rules, hand).explanation


def stored(name):
    """The terms as a JSONField gives them back: through real JSON text."""
    return json.loads(json.dumps(terms_to_json(explanation_of(name))))


def render_template(source, **context):
    return Template("{% load tarot %}" + source).render(Context(context))


# --- the labels ---------------------------------------------------------------------------


def test_labels_have_the_engine_keys_and_its_english_text():
    assert set(EXPLANATION_LABELS) == set(LABELS)
    with translation.override("en"):
        assert {k: str(v) for k, v in EXPLANATION_LABELS.items()} == LABELS


def test_every_label_is_translated_to_french_with_the_same_placeholders():
    tarot_words = {"petit_au_bout", "poignee", "chelem", "petit_chelem", "prise", "pousse"}
    tarot_words |= {"garde", "garde_sans", "garde_contre", "player_score"}
    tarot_words |= {"sv_margin", "sv_each_takes"}  # formulas: numbers and names, no words
    with translation.override("fr"):
        french = {k: str(v) for k, v in EXPLANATION_LABELS.items()}
    for key, english in LABELS.items():
        assert re.findall(r"{(\w+)}", french[key]) == re.findall(r"{(\w+)}", english), key
        if key in tarot_words:
            assert french[key] == english, key  # tarot words keep their French names
        else:
            assert french[key] != english, f"{key} is not translated"
    assert french["per_defender"] == "par défenseur"
    assert french["role_taker"] == "preneur {value}"
    assert french["passed"] == "tout le monde a passé"


# --- rendering ----------------------------------------------------------------------------


def test_english_rendering_is_the_engines_own_text():
    with translation.override("en"):
        for name in HANDS:
            assert render_explanation(stored(name)) == str(explanation_of(name)), name
        assert render_explanation(stored("garde_poignee")) == (
            "(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234"
        )


@pytest.mark.parametrize(
    ("name", "french"),
    [
        ("garde_poignee", f"(25 + 4) × 2 + 20 poignée = 78 par défenseur{NNBSP}; preneur +234"),
        (
            "five_equal_halves",
            f"(25 + 6) × 1 = 31 par défenseur{NNBSP}; preneur +46,5, partenaire +46,5",
        ),
        ("passed", "tout le monde a passé"),
        ("two_players", f"Anna gagne{NBSP}: 25 + 4 = 29{NNBSP}; Anna +29, Bert −29"),
        (
            "misere",
            f"(25 + 11) × 2 = 72 à chaque défenseur{NNBSP}; preneur −216{NNBSP}; "
            f"misère{NBSP}: Carl +30 (10 de chacun)",
        ),
        (
            "mouches_take",
            f"9 × 2 = 18 par défenseur{NNBSP}; preneur +54{NNBSP}; "
            f"chaque joueur à la table met 10 dans une nouvelle cagnotte{NNBSP}; "
            f"Dora (donneur) ajoute 5 à la cagnotte{NNBSP}; "
            f"Anna remporte la cagnotte de 45{NNBSP}; plus de cagnotte",
        ),
        (
            "mouches_pay",
            f"11 × 2 = 22 à chaque défenseur{NNBSP}; preneur −66{NNBSP}; "
            f"chaque joueur à la table met 10 dans une nouvelle cagnotte{NNBSP}; "
            f"Dora (donneur) ajoute 5 à la cagnotte{NNBSP}; "
            f"Anna verse 45 dans une nouvelle cagnotte{NNBSP}; cagnottes 45, 45",
        ),
        (
            "rounded_pab",
            f"(25 + 7 + 10 petit au bout) × 4 = 168, arrondi à 170 par défenseur{NNBSP}; "
            "preneur +510",
        ),
    ],
)
def test_french_rendering(name, french):
    with translation.override("fr"):
        assert render_explanation(stored(name)) == french


def test_the_filter_renders_in_the_active_language():
    terms = stored("garde_poignee")
    source = "{{ terms|render_explanation }}"
    with translation.override("en"):
        english = "(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234"
        assert render_template(source, terms=terms) == english
    with translation.override("fr"):
        french = f"(25 + 4) × 2 + 20 poignée = 78 par défenseur{NNBSP}; preneur +234"
        assert render_template(source, terms=terms) == french


def test_the_filter_accepts_an_explanation_a_json_string_or_nothing():
    explanation = explanation_of("passed")
    with translation.override("fr"):
        passed = "tout le monde a passé"
        assert render_template("{{ e|render_explanation }}", e=explanation) == passed
        assert render_template("{{ e|render_explanation }}", e=json.dumps(stored("passed"))) == (
            "tout le monde a passé"
        )
        assert render_template("[{{ e|render_explanation }}]", e=None) == "[]"
        assert render_template("[{{ e|render_explanation }}]", e=[]) == "[]"


def test_player_names_are_escaped():
    terms = terms_to_json(Explanation((Term("text", None, "winner", (("player", "<b>Zoé</b>"),)),)))
    with translation.override("en"):
        rendered = render_template("{{ t|render_explanation }}", t=terms)
        assert rendered == "&lt;b&gt;Zoé&lt;/b&gt; wins:"


def test_a_malformed_explanation_renders_empty_instead_of_breaking_the_page(caplog):
    bad = [["text", None, "no_such_label", []], ["oops"]]
    assert render_template("[{{ t|render_explanation }}]", t=bad) == "[]"
    assert "cannot render explanation" in caplog.text


def test_a_label_the_engine_adds_later_falls_back_to_english(monkeypatch):
    monkeypatch.setitem(LABELS, "brand_new", "brand new {value}")
    terms = [["text", None, "brand_new", [["value", {"signed": -2.5}]]]]
    with translation.override("fr"):
        assert render_explanation(terms) == "brand new −2,5"


# --- JSON ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", HANDS)
def test_json_round_trip_keeps_the_terms(name):
    explanation = explanation_of(name)
    back = terms_from_json(stored(name))
    assert back == explanation
    assert str(back) == str(explanation)


def test_json_form_of_numbers_signed_values_and_lists():
    explanation = Explanation(
        (
            Term("num", Decimal("22.5")),
            Term("op", ";"),
            Term("text", None, "role_taker", (("value", Signed(Decimal("-45"))),)),
            Term("text", None, "pools_left", (("amounts", (Decimal("10"), 5)),)),
        )
    )
    data = terms_to_json(explanation)
    assert data == [
        ["num", 22.5, None, []],
        ["op", ";", None, []],
        ["text", None, "role_taker", [["value", {"signed": -45}]]],
        ["text", None, "pools_left", [["amounts", [10, 5]]]],
    ]
    assert json.loads(json.dumps(data)) == data
    back = terms_from_json(data)
    assert back.terms[0].value == Decimal("22.5") and isinstance(back.terms[0].value, Decimal)
    assert back == explanation


@pytest.mark.parametrize(
    "bad",
    ["not a list", [["verb", 1, None, []]], [["num", "x", None, []]], [["op", 1, None, []]], [[]]],
)
def test_terms_from_json_refuses_malformed_data(bad):
    with pytest.raises(ValueError):
        terms_from_json(bad)


# --- score filters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "en", "fr"),
    [
        (Decimal("22.5"), "22.5", "22,5"),
        (Decimal("-22.5"), "−22.5", "−22,5"),
        (Decimal("10.0"), "10", "10"),
        (Decimal("-0"), "0", "0"),
        (-234, "−234", "−234"),
        (Decimal("1234"), "1234", "1234"),
        (None, "", ""),
    ],
)
def test_score_filter(value, en, fr):
    with translation.override("en"):
        assert render_template("{{ v|score }}", v=value) == en
    with translation.override("fr"):
        assert render_template("{{ v|score }}", v=value) == fr


@pytest.mark.parametrize(
    ("value", "signed", "css"),
    [
        (Decimal("22.5"), "+22,5", "pos"),
        (Decimal("-22.5"), "−22,5", "neg"),
        (Decimal("0"), "0", "zero"),
        (78, "+78", "pos"),
        ("", "", ""),
    ],
)
def test_signed_score_and_score_class(value, signed, css):
    with translation.override("fr"):
        assert render_template("{{ v|signed_score }}", v=value) == signed
        assert render_template("{{ v|score_class }}", v=value) == css


@pytest.mark.parametrize(
    ("value", "css"),
    [
        (Decimal("-460"), ""),
        (980, ""),
        (0, ""),
        ("", ""),
        (None, ""),
        (-1068, " long"),
        (Decimal("1280"), " long"),
        (Decimal("22.5"), " long"),  # +22,5
        (Decimal("-868.5"), " long longer"),
        (11840, " long longer"),
        (-12345, " long longer"),
    ],
)
def test_long_score_marks_scores_past_four_characters(value, css):
    for language in ("en", "fr"):
        with translation.override(language):
            assert render_template("{{ v|long_score }}", v=value) == css
