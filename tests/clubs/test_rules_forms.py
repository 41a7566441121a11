"""House rules in words and in forms (clubs.rules_forms), shared by seasons and sheets."""

import pytest

from clubs import rules_forms
from clubs.forms import SeasonForm
from clubs.rules_forms import RulesFields, describe_rules, rules_initial, rules_parts
from scoresheet.forms.sheets import SheetForm
from tarot import ScoringError
from tarot.jsonformat import parse_rules
from tests.data import RULES_POST


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("fft", "FFT: the official rules"),
        (None, "FFT: the official rules"),
        (
            {"preset": "fft", "rounding": 10, "misere": 10},
            "FFT: the official rules, rounded to 10, misère 10",
        ),
        ({"preset": "pousse", "no_prise": True}, "With the pousse bid, no prise"),
        (
            {"preset": "fixed", "poignee": [10, 20, 40]},
            "Fixed scores: garde 80, 160, 320, poignées 10/20/40",
        ),
        ({"preset": "mouches"}, "Mouches: with pools, ante 10, dealer's stake 5"),
        (
            {"preset": "contre5", "five_player_split": "equal"},
            "Garde contre ×5, petit chelem, taker and partner alike at five",
        ),
        ({"preset": "two_players", "poignee": [10, 20, 40]}, "Two players"),
        (parse_rules({"preset": "fft", "rounding": 5}), "FFT: the official rules, rounded to 5"),
        ({"preset": "nope"}, "unreadable rules"),
        ("savoyard", "Savoyard rules (Chambéry, 1902)"),
        (
            {"preset": "savoyard", "deck": 62, "count": "ticino", "baga": None},
            "Savoyard rules (Chambéry, 1902), 62 cards, Ticino count, no baga au bout",
        ),
        ({"preset": "savoyard", "baga": 20}, "Savoyard rules (Chambéry, 1902), baga au bout 20"),
    ],
)
def test_describe_rules(rules, words):
    assert describe_rules(rules) == words


def test_rules_parts_are_the_badges_of_describe_rules():
    rules = {"preset": "mouches", "rounding": 10, "ante": 20}
    assert rules_parts(rules) == [
        "Mouches: with pools",
        "rounded to 10",
        "ante 20",
        "dealer's stake 5",
    ]
    assert describe_rules(rules) == ", ".join(rules_parts(rules))


def test_rules_initial_of_stored_and_unreadable_rules():
    assert rules_initial({"preset": "mouches", "poignee": [10, 20, 40], "ante": 20}) == {
        "preset": "mouches",
        "rounding": 1,
        "poignee_single": 10,
        "poignee_double": 20,
        "poignee_triple": 40,
        "misere": 0,
        "no_prise": False,
        "five_player_split": "two_to_one",
        "ante": 20,
        "dealer_stake": 5,
        "savoyard_deck": 78,
        "savoyard_count": "classic",
        "savoyard_baga": 10,
    }
    assert rules_initial({"preset": "nope"}) == rules_initial("fft")
    savoyard = rules_initial({"preset": "savoyard", "deck": 62, "baga": None})
    assert (savoyard["savoyard_deck"], savoyard["savoyard_baga"]) == (62, None)


def test_savoyard_fields_clean_into_its_own_options():
    post = {**RULES_POST, "preset": "savoyard", "savoyard_deck": "62", "savoyard_count": "ticino"}
    form = RulesFields({**post, "savoyard_baga": ""})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == {
        "preset": "savoyard",
        "deck": 62,
        "count": "ticino",
        "baga": None,
    }
    form = RulesFields({**RULES_POST, "preset": "savoyard", "savoyard_baga": "15"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"]["baga"] == 15 and form.cleaned_data["rules"]["deck"] == 78
    # the tarot fields do not count for it; a bad deck lands on its field
    form = RulesFields({**RULES_POST, "preset": "savoyard", "savoyard_deck": "52"})
    assert not form.is_valid() and form.errors["savoyard_deck"]
    # and the Savoyard fields do not count for French Tarot
    form = RulesFields({**RULES_POST, "savoyard_deck": "62"})
    assert form.is_valid() and form.cleaned_data["rules"] == {"preset": "fft"}


def test_fields_clean_into_the_short_rules_dict():
    form = RulesFields({**RULES_POST, "rounding": "10", "no_prise": "on", "dealer_stake": ""})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == {"preset": "fft", "rounding": 10, "no_prise": True}


def test_unbound_fields_start_at_the_rules():
    form = RulesFields()
    form.set_rules_initial({"preset": "fixed", "misere": 10})
    assert form["preset"].value() == "fixed" and form["misere"].value() == 10
    assert form["ante"].value() == 10


@pytest.mark.parametrize(
    ("field", "shown_on", "message"),
    [
        ("rules", "preset", "These rules are not valid."),
        ("poignee", "poignee_single", "These rules are not valid (poignées)."),
        ("misere", "misere", "These rules are not valid (misère)."),
        ("x", None, "These rules are not valid."),
    ],
)
def test_a_scoring_error_lands_on_its_field(monkeypatch, field, shown_on, message):
    """On its field, worded from its code (clubs.refusals), not the engine's English."""

    def refuse(rules):
        raise ScoringError("rules_invalid", "Refused.", field=field)

    monkeypatch.setattr(rules_forms, "parse_rules", refuse)
    form = RulesFields(RULES_POST)
    assert not form.is_valid()
    assert form.errors == {shown_on or "__all__": [message]}


def test_fields_that_do_not_apply_are_not_validated():
    class Optional(RulesFields):
        def rules_fields_apply(self):
            return False

    form = Optional({**RULES_POST, "misere": "oops", "preset": "poker"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] is None


def test_the_season_and_the_sheet_share_the_same_rule_fields(club):
    sheet_form, season_form = SheetForm(club=club), SeasonForm()
    for name in RulesFields.RULE_FIELDS:
        assert sheet_form.fields[name].label == season_form.fields[name].label
        assert type(sheet_form.fields[name]) is type(season_form.fields[name])
    # each form's own fields first, the rules last
    assert list(season_form.fields)[:3] == ["name", "start_date", "end_date"]
    assert list(sheet_form.fields)[-len(RulesFields.RULE_FIELDS) - 1 :] == [
        "custom_rules",
        *RulesFields.RULE_FIELDS,
    ]
