"""Entering hands on a phone: the scorer taps the seed's five hands in and checks the sheet."""

import re
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.urls import reverse
from playwright.sync_api import expect

from scoresheet import services
from scoresheet.models import ScoreRow
from tests.data import SEED_HANDS, SEED_TOTALS

pytestmark = pytest.mark.browser

PASSWORD = "a-long-passphrase-1"  # the scorer fixture's

#: What the scorer taps for each seed hand, and what the live preview must show.
SEED_TAPS = [
    {"dealer": "Dora", "taker": "Anna", "bouts": "2", "points": "56", "preview": {"Anna": "+240"}},
    {
        "taker": "Bert",
        "bouts": "3",
        "points": "49",
        "petit_au_bout": "Attack",
        "preview": {"Bert": "+288", "Anna": "−96"},
    },
    {
        "taker": "Carl",
        "bouts": "2",
        "points": "40",
        "petit_au_bout": "Defence",
        "preview": {"Carl": "−216", "Dora": "+72"},
    },
    {
        "taker": "Carl",
        "bouts": "2",
        "points": "41",
        "petit_au_bout": "Defence",
        "preview": {"Carl": "+90", "Anna": "−30"},
    },
    {
        "taker": "Dora",
        "bouts": "3",
        "points": "40",
        "poignee": ("Anna", "single"),
        "preview": {"Dora": "+234", "Anna": "−78"},
    },
]


def log_in_through_the_form(page, live_server, next_path):
    page.goto(f"{live_server.url}{reverse('login')}?next={next_path}")
    page.fill("input[name=username]", "scorer")
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("main").get_by_role("button").tap()
    page.wait_for_url(f"{live_server.url}{next_path}")


def tap_choice(page, field, text):
    """Tap the segmented button of ``field`` whose text is exactly ``text``."""
    exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
    page.locator(f"#id_{field} label").filter(has_text=exact).tap()


def poignee_select(page, name):
    return page.get_by_role("group", name="Poignées").get_by_label(name, exact=True)


def enter_hand(page, taps):
    if "dealer" in taps:
        page.locator("[data-seating] > summary").tap()
        tap_choice(page, "dealer", taps["dealer"])
        expect(page.locator('[data-show="dealer"]')).to_have_text(taps["dealer"])
    tap_choice(page, "taker", taps["taker"])
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", taps["bouts"])
    page.locator("#id_points").tap()
    page.keyboard.type(taps["points"])
    page.keyboard.press("Enter")  # closes the keyboard, saves nothing
    rest = Decimal(91) - Decimal(taps["points"])
    expect(page.locator("[data-defence-points]")).to_have_text(str(rest))
    if "petit_au_bout" in taps:
        tap_choice(page, "petit_au_bout", taps["petit_au_bout"])
    if "poignee" in taps:
        name, size = taps["poignee"]
        page.locator("[data-extras] > summary").tap()
        poignee_select(page, name).select_option(size)
    # the live preview shows the scores before anything is saved
    for player, score in taps["preview"].items():
        expect(page.locator(f'#hand-preview [data-player="{player}"]')).to_have_text(score)


def ledger_totals(sheet):
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    return {r["player__name"]: r["t"] for r in rows}


def test_enter_the_seed_by_tapping_and_read_the_totals(page, live_server, make_sheet, scorer):
    sheet = make_sheet(4)
    slug = sheet.club.slug
    new_hand = reverse("scoresheet:hand_create", args=[slug, sheet.pk])
    sheet_url = f"{live_server.url}{reverse('scoresheet:sheet', args=[slug, sheet.pk])}"
    log_in_through_the_form(page, live_server, new_hand)
    for number, taps in enumerate(SEED_TAPS, start=1):
        if number > 1:
            page.goto(live_server.url + new_hand)
        expect(page.locator("h1")).to_have_text(f"Hand {number}")
        enter_hand(page, taps)
        assert sheet.hands.count() == number - 1  # previewing stored nothing
        page.get_by_role("button", name="Save", exact=True).tap()
        page.wait_for_url(f"{sheet_url}#hand-{number}")  # the sheet, at the new line
        assert sheet.hands.count() == number
    assert ledger_totals(sheet) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    # the sheet page, where the last save landed, shows the table's totals
    for name, total in {"Anna": "+108", "Bert": "+172", "Carl": "−380", "Dora": "+100"}.items():
        expect(page.locator(f'[data-totals] [data-player="{name}"]')).to_contain_text(total)
    # the stored hands are the seed's, field by field
    table = services.Table.of(sheet)
    for hand, seed in zip(sheet.hands.order_by("number"), SEED_HANDS):
        data = services.hand_data(hand, table)
        for key, value in seed.items():
            assert data[key] == value, (hand.number, key)


def test_correct_a_hand_and_see_its_history(page, live_server, make_sheet, scorer):
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    hand_path = reverse("scoresheet:hand", args=[sheet.club.slug, sheet.pk, 5])
    log_in_through_the_form(page, live_server, hand_path)
    expect(page.locator('td[data-player="Dora"]')).to_have_text("+234")
    page.get_by_role("link", name="Correct").tap()
    expect(page.locator("h1")).to_have_text("Correct hand 5")
    # the form comes prefilled: the live preview already shows the stored scores
    expect(page.locator('#hand-preview [data-player="Dora"]')).to_have_text("+234")
    expect(page.locator("[data-extras]")).to_have_attribute("open", "")
    poignee_select(page, "Anna").select_option("")  # the poignée was not shown
    expect(page.locator('#hand-preview [data-player="Dora"]')).to_have_text("+174")
    page.get_by_role("button", name="Save the correction").tap()
    page.wait_for_url(f"{live_server.url}{hand_path}")
    expect(page.locator('td[data-player="Dora"]')).to_have_text("+174")
    history = page.get_by_role("list", name="History")
    expect(history).to_contain_text("by a scorer")
    expect(history).to_contain_text("Poignées: Anna single → —")
    expect(history).to_contain_text("Dora +234 → +174")
    assert ledger_totals(sheet) == {"Anna": 128, "Bert": 192, "Carl": -360, "Dora": 40}
    # delete, after the confirm dialog, then restore
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Delete").tap()
    deleted = page.get_by_role("heading", level=1).get_by_text("deleted", exact=True)
    expect(deleted).to_be_visible()
    assert dialogs == ["Delete hand 5? It will count for nobody until it is restored."]
    assert ledger_totals(sheet)["Dora"] == 40 - 174
    page.get_by_role("button", name="Restore the hand").tap()
    expect(deleted).to_have_count(0)
    expect(history.locator(":scope > li")).to_have_count(4)
    assert ledger_totals(sheet)["Dora"] == 40


def test_everybody_passed_hides_the_rest(page, live_server, make_sheet, scorer):
    sheet = make_sheet(5)
    new_hand = reverse("scoresheet:hand_create", args=[sheet.club.slug, sheet.pk])
    log_in_through_the_form(page, live_server, new_hand)
    tap_choice(page, "taker", "Anna")
    expect(page.locator("#id_partner")).to_be_visible()
    expect(page.locator("#hand-preview")).to_contain_text("Still to enter: Contract, Partner")
    # five seated playing as four: no partner to call
    page.locator("[data-seating] > summary").tap()
    tap_choice(page, "sits_out", "Emil")
    expect(page.locator("#id_partner")).to_be_hidden()
    tap_choice(page, "taker", "Everybody passed")
    expect(page.locator("#id_contract")).to_be_hidden()
    expect(page.locator("#id_points")).to_be_hidden()
    expect(page.locator('#hand-preview [data-player="Anna"]')).to_have_text("0")
    page.get_by_role("button", name="Save", exact=True).tap()
    page.wait_for_url("**/sheets/*/#hand-1")
    hand = sheet.hands.get()
    assert hand.taker is None and hand.sits_out.name == "Emil"
