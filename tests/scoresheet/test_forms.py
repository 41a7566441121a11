"""The hand form: which fields a sheet gets, its defaults, and cleaned data → HAND_FORMAT."""

import json
from decimal import Decimal

import pytest

from scoresheet import services
from scoresheet.forms.hands import HandForm, suggested_dealer
from scoresheet.models import Hand, HandRevision, ScoreRow
from tests.data import SEED_HANDS

NOT_POINTS = "Enter the points as a number, such as 45 or 45,5."

# Seats in dealing order: Anna 0, Bert 1, Carl 2, Dora 3, Emil 4, Fred 5.


def form_for(sheet, data=None, **kwargs):
    return HandForm(data, sheet=sheet, **kwargs)


def post(**values):
    """POST data: numbers and lists as the browser sends them."""
    return {k: [str(x) for x in v] if isinstance(v, list) else str(v) for k, v in values.items()}


def counts():
    return (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count())


# ---------------------------------------------------------------- fields by sheet


def test_four_players_fft_fields(make_sheet):
    form = form_for(make_sheet(4))
    names = set(form.fields)
    assert {"dealer", "taker", "contract", "bouts", "points", "petit_au_bout", "chelem"} <= names
    assert {"poignee_0", "poignee_1", "poignee_2", "poignee_3"} <= names
    for absent in ("sits_out", "partner", "petit_chelem", "miseres", "poignee_4"):
        assert absent not in names
    assert [c[0] for c in form.fields["contract"].choices] == [
        "prise",
        "garde",
        "garde_sans",
        "garde_contre",
    ]
    taker = form.fields["taker"].choices
    assert taker[:4] == [("0", "Anna"), ("1", "Bert"), ("2", "Carl"), ("3", "Dora")]
    assert taker[-1][0] == "pass"
    assert [c[0] for c in form.fields["bouts"].choices] == ["0", "1", "2", "3"]
    # a half point can happen at four players (the excuse in the last trick, RULES §1.2)
    assert form.fields["points"].widget.attrs["data-step"] == "0.5"
    assert form.fields["points"].widget.input_type == "text"  # "45,5" is not read as 455
    assert form.fields["points"].widget.attrs["inputmode"] == "decimal"


def test_poignee_choices_show_the_rules_values(make_sheet):
    form = form_for(make_sheet(4, rules={"preset": "fft", "poignee": [10, 20, 40]}))
    labels = [str(label) for _value, label in form.fields["poignee_0"].choices]
    assert labels == ["—", "single (10)", "double (20)", "triple (40)"]


def test_five_seats_partner_and_optional_sits_out(make_sheet):
    form = form_for(make_sheet(5))
    assert form.fields["partner"].choices[-1][0] == "alone"
    assert form.fields["sits_out"].required is False
    assert form.fields["sits_out"].choices[0][0] == ""
    assert form.initial["sits_out"] == ""  # nobody by default at five
    assert form.fields["points"].widget.attrs["data-step"] == "0.5"


def test_six_seats_the_dealer_sits_out_by_default(make_sheet):
    form = form_for(make_sheet(6))
    assert form.fields["sits_out"].required is True
    assert "" not in [c[0] for c in form.fields["sits_out"].choices]
    assert form.initial["dealer"] == "0" and form.initial["sits_out"] == "0"
    assert "partner" in form.fields


def test_three_players_half_points(make_sheet):
    form = form_for(make_sheet(3))
    assert form.fields["points"].widget.attrs["data-step"] == "0.5"
    assert "partner" not in form.fields and "sits_out" not in form.fields


@pytest.mark.parametrize(
    ("rules", "contracts"),
    [
        ("pousse", ["prise", "pousse", "garde", "garde_sans", "garde_contre"]),
        ({"preset": "fft", "no_prise": True}, ["garde", "garde_sans", "garde_contre"]),
        ("fixed", ["garde", "garde_sans", "garde_contre"]),
    ],
)
def test_contracts_of_the_sheets_rules(make_sheet, rules, contracts):
    form = form_for(make_sheet(4, rules=rules))
    assert [c[0] for c in form.fields["contract"].choices] == contracts


def test_petit_chelem_and_misere_only_when_the_rules_have_them(make_sheet):
    assert "petit_chelem" in form_for(make_sheet(4, rules="contre5")).fields
    assert "petit_chelem" in form_for(make_sheet(4, rules="fixed")).fields
    form = form_for(make_sheet(4, rules={"preset": "fft", "misere": 10}))
    assert "miseres" in form.fields and "petit_chelem" not in form.fields
    assert form.fields["miseres"].choices == [
        ("0", "Anna"),
        ("1", "Bert"),
        ("2", "Carl"),
        ("3", "Dora"),
    ]


def test_two_players_has_no_contract_partner_or_poignee(make_sheet):
    form = form_for(make_sheet(2, rules="two_players"))
    for absent in ("contract", "partner", "poignee_0", "sits_out"):
        assert absent not in form.fields
    assert form.fields["points"].widget.attrs["data-step"] == "1"
    # no bidding at two: nobody passes
    assert form.fields["taker"].choices == [("0", "Anna"), ("1", "Bert")]
    form = form_for(form.sheet, post(taker=1, bouts=2, points=45))
    assert form.is_valid(), form.errors
    assert form.hand_data == {
        "dealer": None,
        "taker": "Bert",
        "bouts": 2,
        "points": 45,
        "petit_au_bout": None,
        "chelem": None,
    }
    assert form.result.scores == {"Anna": -29, "Bert": 29}


# ---------------------------------------------------------------- defaults


def test_suggested_dealer_follows_the_last_live_hand(make_sheet, scorer):
    sheet = make_sheet(4)
    table = services.Table.of(sheet)
    assert suggested_dealer(sheet, table) == "Anna"  # first hand: the first seat
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)  # Dora dealt
    assert suggested_dealer(sheet, table) == "Anna"  # after the last seat: the first
    hand = services.record_hand(sheet, SEED_HANDS[1], actor=scorer)  # Anna dealt
    assert suggested_dealer(sheet, table) == "Bert"
    assert form_for(sheet).initial["dealer"] == "1"
    services.delete_hand(hand, actor=scorer)  # a deleted hand is not the last dealt
    assert suggested_dealer(sheet, table) == "Anna"


# ---------------------------------------------------------------- cleaning


def test_a_hand_in_four_taps(make_sheet):
    sheet = make_sheet(4)
    form = form_for(sheet, post(dealer=3, taker=0, contract="garde", bouts=2, points=56))
    assert form.is_valid(), form.errors
    assert form.hand_data == {
        "dealer": "Dora",
        "taker": "Anna",
        "contract": "garde",
        "bouts": 2,
        "points": 56,
        "petit_au_bout": None,
        "poignees": [],
        "chelem": None,
    }
    assert form.result.scores == {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}
    assert not Hand.objects.exists()  # validating stores nothing


def test_every_field_into_the_hand_format(make_sheet):
    sheet = make_sheet(5, rules={"preset": "fft", "misere": 10})
    data = post(
        dealer=4,
        taker=0,
        contract="garde_sans",
        partner=2,
        bouts=3,
        points="45,5",  # a French keyboard
        petit_au_bout="attack",
        poignee_1="double",
        poignee_0="single",
        chelem="announced_failed",
        miseres=[3],
    )
    form = form_for(sheet, data)
    assert form.is_valid(), form.errors
    assert form.hand_data == {
        "dealer": "Emil",
        "sits_out": None,
        "taker": "Anna",
        "contract": "garde_sans",
        "partner": "Carl",
        "bouts": 3,
        "points": Decimal("45.5"),
        "petit_au_bout": "attack",
        "poignees": [{"player": "Anna", "size": "single"}, {"player": "Bert", "size": "double"}],
        "chelem": {"announced": True, "made_by": None},
        "miseres": ["Dora"],
    }


def test_alone_at_five(make_sheet):
    form = form_for(
        make_sheet(5), post(taker=1, contract="garde", partner="alone", bouts=2, points=50)
    )
    assert form.is_valid(), form.errors
    assert form.hand_data["partner"] is None
    assert form.result.score("Bert") == 4 * form.result.per_defender


def test_five_seats_playing_four_with_the_dealer_out(make_sheet):
    sheet = make_sheet(5)
    form = form_for(
        sheet, post(dealer=4, sits_out=4, taker=0, contract="garde", bouts=2, points=56)
    )
    assert form.is_valid(), form.errors
    assert form.hand_data["sits_out"] == "Emil"
    assert "partner" not in form.hand_data
    assert form.result.scores["Emil"] == 0 and form.result.scores["Anna"] == 240


def test_everybody_passed_ignores_the_rest(make_sheet):
    sheet = make_sheet(4)
    # whatever was tapped before "everybody passed", even nonsense, is ignored
    data = post(dealer=0, taker="pass", contract="bogus", bouts=7, points="abc", poignee_0="huge")
    form = form_for(sheet, data)
    assert form.is_valid(), form.errors
    assert form.hand_data == {"dealer": "Anna", "taker": None}
    assert set(form.result.scores.values()) == {0}


def test_missing_entries_are_asked_for(make_sheet):
    form = form_for(make_sheet(5), post(taker=0))
    assert not form.is_valid()
    assert set(form.errors) == {"contract", "partner", "bouts", "points"}
    assert form.missing_fields() == ["Contract", "Partner", "Bouts (attack)", "Points (attack)"]
    assert form.refusals() == {}
    form = form_for(make_sheet(4), {})
    assert form.errors["taker"] == ["Choose the taker, or everybody passed."]


@pytest.mark.parametrize(
    ("values", "field", "message"),
    [
        ({"bouts": 1, "points": 90}, "points", "With 1 bout the attack has 4 to 83 points."),
        (
            {"bouts": 2, "points": 53, "chelem": "made"},
            "chelem",
            "A chelem means every trick: the attack then has at least 87 points.",
        ),
        (
            {"bouts": 1, "points": "4.5", "chelem": "defence"},
            "chelem",
            "the attack then has at most the excuse, 4 points and 1 bout",
        ),
        ({"bouts": 2, "points": 4, "chelem": "defence"}, "points", "With 2 bouts"),
        ({"bouts": 2, "points": "50.25"}, "points", "Points go by halves: 40 or 40.5."),
        ({"bouts": 2, "points": 92}, "points", "less than or equal to 91"),
        ({"bouts": 2, "points": -1}, "points", NOT_POINTS),
        (
            {"bouts": 2, "points": "lots"},
            "points",
            NOT_POINTS,
        ),
        (
            {"bouts": 2, "points": "NaN"},
            "points",
            NOT_POINTS,
        ),
        (
            {"bouts": 2, "points": "4²"},
            "points",
            NOT_POINTS,
        ),
        (
            {"bouts": 2, "points": "٤٥"},
            "points",
            NOT_POINTS,
        ),
        (
            {"bouts": 2, "points": "45.5.5"},
            "points",
            NOT_POINTS,
        ),
        (
            {"bouts": 2, "points": "1e2"},
            "points",
            NOT_POINTS,
        ),
        ({"bouts": 2, "points": 50, "dealer": "²"}, "dealer", "valid choice"),
        ({"bouts": 9, "points": 50}, "bouts", "Select a valid choice."),
        ({"bouts": 0, "points": 60, "petit_au_bout": "attack"}, "petit_au_bout", "no bout"),
        ({"bouts": 3, "points": 60, "petit_au_bout": "defence"}, "petit_au_bout", "three"),
        ({"bouts": 2, "points": 50, "contract": "pousse"}, "contract", "valid choice"),
        ({"bouts": 2, "points": 50, "poignee_2": "quadruple"}, "poignee_2", "valid choice"),
        ({"bouts": 2, "points": 50, "chelem": "maybe"}, "chelem", "valid choice"),
        ({"bouts": 2, "points": 50, "dealer": 9}, "dealer", "valid choice"),
    ],
)
def test_refusals_land_on_their_field(make_sheet, values, field, message):
    sheet = make_sheet(4)
    data = post(**{"dealer": 0, "taker": 0, "contract": "garde", **values})
    before = counts()
    form = form_for(sheet, data)
    assert not form.is_valid()
    assert list(form.errors) == [field]
    assert message in form.errors[field][0]
    assert form.refusals() == {field: form.errors[field]}
    assert counts() == before


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("45,5", Decimal("45.5")), ("45.5", Decimal("45.5")), (" 4,5 ", Decimal("4.5")), ("56", 56)],
)
def test_points_take_a_decimal_comma_or_point(make_sheet, typed, stored):
    """A French keyboard types "45,5": it is 45.5, never 455 (a number input's misreading)."""
    form = form_for(make_sheet(4), post(dealer=0, taker=0, contract="garde", bouts=1, points=typed))
    assert form.is_valid(), form.errors
    assert form.hand_data["points"] == stored


def test_a_half_point_at_four_players_scores(make_sheet):
    """RULES §1.2: garde, 2 bouts, 40.5 points is failed by 1: 52 per defender."""
    sheet = make_sheet(4)
    form = form_for(sheet, post(dealer=0, taker=0, contract="garde", bouts=2, points="40,5"))
    assert form.is_valid(), form.errors
    assert form.result.scores == {"Anna": -156, "Bert": 52, "Carl": 52, "Dora": 52}


def test_the_page_gives_the_script_the_decks_bounds(make_sheet):
    form = form_for(make_sheet(4))
    deck = json.loads(form.deck_json())
    assert deck["total"] == 91 and deck["chelem"]["attack"]["min_points"] == 87
    assert deck["chelem"]["defence"] == {"max_points": 4, "max_bouts": 1}


def test_partner_when_four_play_is_refused_on_the_partner(make_sheet):
    sheet = make_sheet(5)
    data = post(sits_out=4, taker=0, contract="garde", partner=1, bouts=2, points=50)
    form = form_for(sheet, data)
    assert not form.is_valid()
    assert form.errors["partner"] == ["A partner is called only when five play."]


def test_a_sitter_out_cannot_take_nor_show_a_poignee(make_sheet):
    sheet = make_sheet(6)
    form = form_for(
        sheet,
        post(dealer=5, sits_out=5, taker=5, contract="garde", partner="alone", bouts=2, points=50),
    )
    assert not form.is_valid()
    assert form.errors["taker"] == ["Fred sits out this hand."]
    data = post(
        dealer=5,
        sits_out=5,
        taker=0,
        contract="garde",
        partner=1,
        bouts=2,
        points=50,
        poignee_5="single",
        poignee_2="single",
    )
    form = form_for(sheet, data)
    assert not form.is_valid()
    assert dict(form.errors) == {"poignee_5": ["Fred sits out this hand."]}


def test_mouches_needs_a_dealer(make_sheet):
    form = form_for(make_sheet(4, rules="mouches"), post(taker="pass"))
    assert not form.is_valid()
    assert "dealer" in form.errors


def test_ledger_error_fields_map_to_form_fields(make_sheet):
    form = form_for(make_sheet(4), post(taker=0, contract="garde", bouts=2, points=50))
    assert form.is_valid()
    form.add_ledger_error(services.LedgerError("seat_count", "A table seats 2 to 6.", "players"))
    form.add_ledger_error(services.LedgerError("x", "Somewhere.", None))
    form.add_ledger_error(services.LedgerError("rules_invalid", "Bad rules.", "rounding"))
    assert form.non_field_errors() == ["A table seats 2 to 6.", "Somewhere.", "Bad rules."]
    form = form_for(
        make_sheet(4, rules={"preset": "fft", "misere": 10}),
        post(taker=0, contract="garde", bouts=2, points=50, miseres=[1]),
    )
    assert form.is_valid()
    form.add_ledger_error(services.LedgerError("duplicate_player", "twice", "miseres"))
    assert form.errors["miseres"] == ["twice"]


# ---------------------------------------------------------------- a stored hand, prefilled


@pytest.mark.parametrize(
    ("seats", "rules", "data"),
    [
        (4, None, SEED_HANDS[4]),
        (4, None, {"dealer": "Anna", "taker": None}),
        (
            5,
            {"preset": "contre5", "misere": 10},
            {
                "dealer": "Emil",
                "taker": "Bert",
                "partner": "Carl",
                "contract": "garde_contre",
                # the defence's chelem leaves the attack the excuse at most (RULES §5)
                "bouts": 1,
                "points": 4,
                "petit_au_bout": "attack",
                "poignees": [{"player": "Bert", "size": "triple"}],
                "chelem": {"announced": True, "made_by": "defence"},
                "petit_chelem": {"announced": True, "made_by": "attack"},
                "miseres": ["Dora", "Anna"],
            },
        ),
        (
            5,
            None,
            {
                "dealer": "Emil",
                "taker": "Bert",
                "partner": None,
                "contract": "prise",
                "bouts": 1,
                "points": 60,
            },
        ),
        (
            6,
            None,
            {
                "dealer": "Fred",
                "sits_out": "Fred",
                "taker": "Bert",
                "partner": "Bert",
                "contract": "garde",
                "bouts": 1,
                "points": 60,
            },
        ),
    ],
)
def test_stored_hand_round_trips_through_the_form(make_sheet, scorer, seats, rules, data):
    sheet = make_sheet(seats, rules=rules)
    hand = services.record_hand(sheet, data, actor=scorer)
    table = services.Table.of(sheet)
    stored = services.hand_data(hand, table)
    form = form_for(sheet, hand=hand)
    # the prefilled form, posted as is, gives back the same hand
    bound = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value in (None, ""):
            continue
        bound[name] = [str(v) for v in value] if isinstance(value, list) else str(value)
    posted = form_for(sheet, bound, hand=hand)
    assert posted.is_valid(), posted.errors
    again = services.preview_hand(sheet, posted.hand_data, table, hand=hand)
    assert again.scores == {r.player.name: r.score for r in hand.scores.select_related("player")}
    for key, value in posted.hand_data.items():
        expected = stored.get(key)
        if key == "partner" and expected == stored.get("taker"):
            expected = None
        if key in ("poignees", "miseres"):
            assert sorted(map(str, value)) == sorted(map(str, expected or [])), key
        else:
            assert value == expected, key


# ---------------------------------------------------------------- the defence's points


def test_the_defence_points_are_stored_as_the_attacks(make_sheet):
    """The scorer may count the defence's pile; the form stores 91 − x."""
    sheet = make_sheet(4)
    data = post(taker=0, contract="garde", bouts=2, points="35", points_side="defence")
    form = form_for(sheet, data)
    assert form.is_valid(), form.errors
    assert form.hand_data["points"] == 56
    assert form.result.scores["Anna"] == 240
    # "35,5" from the defence is 55.5 for the attack
    form = form_for(sheet, {**data, "points": "35,5"})
    assert form.is_valid(), form.errors
    assert form.hand_data["points"] == Decimal("55.5")
    # the attack's, as before, when the toggle says so or says nothing
    for side in ("attack", ""):
        form = form_for(sheet, {**data, "points": "56", "points_side": side})
        assert form.is_valid(), form.errors
        assert form.hand_data["points"] == 56


def test_a_bogus_points_side_is_refused(make_sheet):
    form = form_for(
        make_sheet(4), post(taker=0, contract="garde", bouts=2, points=56, points_side="both")
    )
    assert not form.is_valid()
    assert "points_side" in form.errors


def test_the_defence_points_through_the_view(client, make_sheet, scorer):
    from django.urls import reverse

    sheet = make_sheet(4)
    client.force_login(scorer)
    url = reverse("scoresheet:hand_create", args=[sheet.club.slug, sheet.pk])
    data = post(
        dealer=0,
        taker=0,
        contract="garde",
        bouts=2,
        points="35",
        points_side="defence",
        action="save",
    )
    assert client.post(url, data).status_code == 302
    assert sheet.hands.get().points == 56
