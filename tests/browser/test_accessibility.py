"""axe-core on the pages of a club evening, in English and in French, on a phone: no
serious or critical violation. And a hand entered with the keyboard alone: the skip
link to the form, the choices with the arrows, Tab between fields, Save with Enter.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoresheet import services
from scoresheet.models import Hand
from tests.browser.test_terminal import offline, works_offline

pytestmark = pytest.mark.browser


def seed(sheet, scorer, hands=3):
    names = [seat.player.name for seat in sheet.seats.order_by("position")]
    for i in range(hands):
        data = {"dealer": names[i % len(names)], "taker": names[(i + 1) % len(names)]}
        data |= {"contract": "garde", "bouts": 2, "points": 45}
        if len(names) == 6:
            data["sits_out"] = data["dealer"]
        if len(names) >= 5:
            data["partner"] = names[(i + 2) % len(names)]
        services.record_hand(sheet, data, actor=scorer)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_evening_s_pages_have_no_serious_violation(
    locale, new_context, live_server, log_in, make_sheet, scorer, manager, axe_check
):
    sheet = make_sheet(6)
    seed(sheet, scorer)
    closed = make_sheet(4, table="2")
    services.close_sheet(closed, actor=scorer)
    page = new_context(locale=locale).new_page()
    log_in(page, scorer)
    slug = sheet.club.slug
    urls = [
        reverse("home"),
        reverse("scoresheet:sheet", args=[slug, sheet.pk]),
        reverse("scoresheet:hand_create", args=[slug, sheet.pk]),
        reverse("scoresheet:hand", args=[slug, sheet.pk, 1]),
        reverse("scoresheet:hand_edit", args=[slug, sheet.pk, 1]),
        reverse("scoresheet:hand_create", args=[slug, closed.pk]),
        reverse("scoresheet:sheet", args=[slug, closed.pk]),
    ]
    for url in urls:
        page.goto(live_server.url + url)
        # a preview on its way is faded (opacity): audited once it has come
        expect(page.locator("[aria-busy=true]")).to_have_count(0)
        axe_check(page)
    # the hand form with its live scores, and another phone's hand first
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=[slug, sheet.pk]))
    page.locator("#id_taker label").nth(1).tap()
    page.locator("#id_contract label").nth(1).tap()
    page.locator("#id_partner label").nth(2).tap()
    page.locator("#id_bouts label").nth(2).tap()
    page.locator("#id_points").fill("45")
    expect(page.locator("#hand-preview [data-player]").first).to_be_visible()
    expect(page.locator("[aria-busy=true]")).to_have_count(0)
    axe_check(page, "the hand form with its scores")
    seed_one = {"dealer": "Dora", "sits_out": "Dora", "taker": "Anna", "partner": "Bert"}
    services.record_hand(
        sheet, seed_one | {"contract": "prise", "bouts": 1, "points": 51}, actor=scorer
    )
    page.locator("[data-save]").tap()
    expect(page.locator("[data-clash]")).to_be_visible()
    axe_check(page, "a clash")

    log_in(page, manager)
    for url in (
        reverse("clubhouse:history", args=[slug]),
        reverse("stats:player", args=[slug, sheet.seats.first().player_id]),
    ):
        page.goto(live_server.url + url)
        axe_check(page)


def test_the_queue_on_the_sheet_has_no_serious_violation(
    new_context, live_server, log_in, make_sheet, scorer, axe_check
):
    sheet = make_sheet(4)
    page = new_context().new_page()
    log_in(page, scorer)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    page.goto(sheet_url)
    works_offline(page, sheet_url, form_url)
    offline(page.context)
    page.get_by_role("link", name="Enter a hand").tap()
    page.locator("#id_taker label").nth(4).tap()  # everybody passed
    page.locator("[data-save]").tap()
    expect(page.locator("[data-offline]")).to_be_visible()
    page.goto(sheet_url)
    expect(page.locator("[data-queue-sheet]")).to_be_visible()
    axe_check(page, "the sheet with a hand waiting")
    offline(page.context, False)


@pytest.mark.parametrize("seats", [4, 6])
def test_a_hand_entered_with_the_keyboard_alone(
    seats, new_context, live_server, log_in, make_sheet, scorer
):
    sheet = make_sheet(seats)
    page = new_context(has_touch=False, is_mobile=False, viewport={"width": 1366, "height": 768})
    page = page.new_page()
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    expect(page.locator("form[data-hand-form]")).to_have_attribute("data-placed", "yes")
    keyboard = page.keyboard
    keyboard.press("Tab")  # the first skip link: to the form
    expect(page.locator(":focus")).to_have_attribute("data-skip-hand", "")
    keyboard.press("Enter")
    expect(page.locator(":focus")).to_have_attribute("name", "taker")
    # on the first seat that plays (Anna; Bert at six, where Anna deals and sits
    # out), the arrow takes the next one
    expect(page.locator(":focus")).to_have_value("0" if seats == 4 else "1")
    keyboard.press("ArrowRight")
    expect(page.locator("#id_taker input:checked")).to_have_value("1" if seats == 4 else "2")
    keyboard.press("Tab")  # the contract
    keyboard.press("ArrowRight")  # garde
    expect(page.locator("#id_contract input:checked")).to_have_value("garde")
    if seats == 6:
        keyboard.press("Tab")  # the partner
        keyboard.press("ArrowRight")
        keyboard.press("ArrowRight")
        expect(page.locator("#id_partner input:checked")).to_have_count(1)
    keyboard.press("Tab")  # the bouts
    keyboard.press("ArrowRight")
    keyboard.press("ArrowRight")
    expect(page.locator("#id_bouts input:checked")).to_have_value("2")
    keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("name", "points")
    keyboard.type("45")
    expect(page.locator("#hand-preview [data-player]").first).to_be_visible()
    save = page.locator("[data-save]")
    for _ in range(30):  # Tab on to Save
        if page.evaluate("() => document.activeElement.value === 'save'"):
            break
        keyboard.press("Tab")
    expect(save).to_be_focused()
    keyboard.press("Enter")
    page.wait_for_url(f"**/sheets/{sheet.pk}/#hand-1")
    hand = Hand.objects.get(sheet=sheet)
    assert hand.number == 1 and hand.points == 45 and hand.bouts == 2
