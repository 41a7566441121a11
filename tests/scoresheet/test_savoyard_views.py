"""The Savoyard hand form and pages: chosen from the sheet's ruleset, previewed live,
saved, read and corrected; refusals on the fields at fault, never a 500."""

import pytest
from django.urls import reverse

from scoresheet import services
from scoresheet.forms.hands import HandForm
from scoresheet.forms.savoyard import SavoyardHandForm
from scoresheet.models import Hand, ScoreRow

# Seats: Anna 0, Bert 1, Carl 2, Dora 3, Emil 4 (five play: total 68, tie 34).
CALL_POST = {"dealer": "0", "mode": "call", "partner": "3", "count": "40", "baga": "declarers"}
SOLO_POST = {"dealer": "1", "mode": "solo", "declarer": "2", "cards_asked": "0", "count": "52"}


def url(name, sheet, *args):
    return reverse(f"scoresheet:{name}", args=[sheet.club.slug, sheet.pk, *args])


@pytest.fixture
def sheet(make_sheet):
    return make_sheet(5, rules="savoyard")


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def test_the_sheets_ruleset_picks_the_form(scorer_client, sheet, make_sheet):
    html = scorer_client.get(url("hand_create", sheet)).content.decode()
    assert "savoyard-form" in html
    assert 0 <= html.index("js/form_common.js") < html.index("js/savoyard_form.js")
    assert 'name="mode"' in html and 'name="count"' in html and 'name="bouts"' not in html
    assert "68 in all, tie at 34" in html
    tarot = make_sheet(4)
    html = scorer_client.get(url("hand_create", tarot)).content.decode()
    assert "savoyard-form" not in html and 'name="bouts"' in html


def test_the_form_offers_the_modes_of_the_table(sheet, make_sheet):
    assert [c for c, _ in SavoyardHandForm(sheet=sheet).fields["mode"].choices] == ["solo", "call"]
    four = SavoyardHandForm(sheet=make_sheet(4, rules="savoyard"))
    assert [c for c, _ in four.fields["mode"].choices] == ["solo", "call", "partners"]
    three = SavoyardHandForm(sheet=make_sheet(3, rules="savoyard"))
    assert [c for c, _ in three.fields["mode"].choices] == ["solo", "each"]
    assert "baga" not in three.fields and "count_0" in three.fields  # never a baga at three
    no_baga = SavoyardHandForm(sheet=make_sheet(4, rules={"preset": "savoyard", "baga": None}))
    assert "baga" not in no_baga.fields
    six = SavoyardHandForm(sheet=make_sheet(6, rules="savoyard"))
    # the first hand: Anna deals, the player on her left (before her: Fred) sits out
    assert six.initial["dealer"] == "0" and six.initial["sits_out"] == "5"


def test_preview_gives_scores_and_explanation_and_stores_nothing(scorer_client, sheet):
    data = scorer_client.post(url("hand_preview", sheet), CALL_POST).json()
    assert data["scores"] == {"Anna": 24, "Bert": -16, "Carl": -16, "Dora": 24, "Emil": -16}
    assert data["explanation"].startswith("|40 − 34| = 6 × 1; three pay 6")
    assert data["defence_points"] == 28
    assert "hand-score-taker" in data["html"]
    # still to enter: the partner
    data = scorer_client.post(url("hand_preview", sheet), {**CALL_POST, "partner": ""}).json()
    assert data["missing"] == ["Partner"] and "scores" not in data
    # refused: the dealer as his own partner, on the partner field
    data = scorer_client.post(url("hand_preview", sheet), {**CALL_POST, "partner": "0"}).json()
    assert "partner" in data["errors"]
    data = scorer_client.post(url("hand_preview", sheet), {**CALL_POST, "count": "69"}).json()
    assert data["errors"]["count"]
    data = scorer_client.post(url("hand_preview", sheet), {**CALL_POST, "count": "4x"}).json()
    assert data["errors"]["count"]
    assert not Hand.objects.filter(sheet=sheet).exists()


def test_save_then_read_then_correct(scorer_client, sheet):
    response = scorer_client.post(url("hand_create", sheet), {**CALL_POST, "action": "save"})
    assert response.status_code == 302
    hand = Hand.objects.get(sheet=sheet)
    assert hand.extra["count"] == 40
    page = scorer_client.get(url("hand", sheet, 1)).content.decode()
    assert "<dt>Game</dt><dd>Call a king</dd><dt>Partner</dt><dd>Dora</dd>" in page
    assert "<dt>Count</dt><dd>40</dd><dt>Baga au bout</dt><dd>Declarers</dd>" in page
    edit = scorer_client.get(url("hand_edit", sheet, 1)).content.decode()
    assert 'name="mode" value="call" id="id_mode_1" checked' in edit
    assert 'name="partner" value="3" id="id_partner_3" checked' in edit
    assert 'name="baga" value="declarers" id="id_baga_1" checked' in edit
    response = scorer_client.post(url("hand_edit", sheet, 1), {**SOLO_POST, "action": "save"})
    assert response.status_code == 302
    rows = {r.player.name: r.score for r in ScoreRow.objects.filter(hand=hand)}
    assert rows["Carl"] == 576
    page = scorer_client.get(url("hand", sheet, 1)).content.decode()
    assert "Solo" in page and "As dealt" in page


def test_the_sheet_page_reads_savoyard_hands_in_its_seven_queries(
    scorer_client, sheet, django_assert_num_queries
):
    for post in (CALL_POST, SOLO_POST):
        scorer_client.post(url("hand_create", sheet), {**post, "action": "save"})
    # the session, the user, the club, the sheet, its seats, its hands (without the
    # fields no line shows: none read later, one by one) and their score rows
    with django_assert_num_queries(7):
        page = scorer_client.get(url("sheet", sheet)).content.decode()
    assert page.count('class="hand-row') == 2 and "|40 − 34| = 6 × 1" in page


def test_each_for_himself_on_the_form(scorer_client, make_sheet):
    sheet = make_sheet(3, rules="savoyard")
    post = {"dealer": "2", "mode": "each", "count_0": "37", "count_1": "29", "count_2": "12"}
    data = scorer_client.post(url("hand_preview", sheet), post).json()
    assert data["scores"] == {"Anna": 22, "Bert": 6, "Carl": -28}
    data = scorer_client.post(url("hand_preview", sheet), {**post, "count_2": "13"}).json()
    assert data["errors"]["__all__"] == ["The counts add up to the cards' 78."]
    data = scorer_client.post(url("hand_preview", sheet), {**post, "count_2": ""}).json()
    assert data["missing"] == ["Carl"]


def test_hostile_posts_get_a_form_message_never_a_500(scorer_client, sheet):
    for post in (
        {**CALL_POST, "mode": "partners"},
        {**CALL_POST, "dealer": "9"},
        {**CALL_POST, "partner": "²"},
        {**SOLO_POST, "cards_asked": "3"},
        {**CALL_POST, "baga": "attack"},
        {"mode": "call"},
        {},
    ):
        response = scorer_client.post(url("hand_create", sheet), {**post, "action": "save"})
        assert response.status_code == 200
        response = scorer_client.post(url("hand_preview", sheet), post)
        assert response.status_code == 200 and "errors" in response.json()
    assert not Hand.objects.filter(sheet=sheet).exists()


def test_a_tarot_sheet_keeps_its_form(make_sheet):
    from scoresheet.views.hands import form_class_for

    assert form_class_for(make_sheet(4)) is HandForm
    assert form_class_for(make_sheet(4, rules="savoyard")) is SavoyardHandForm


def test_the_sheet_page_lists_savoyard_hands(scorer_client, sheet, scorer):
    services.record_hand(sheet, {"dealer": "Anna", "mode": "call", "partner": "Dora", "count": 40})
    response = scorer_client.get(reverse("scoresheet:sheet", args=["rive", sheet.pk]))
    assert response.status_code == 200
