"""The table's phone: no deal is offered past the round's last, and the second entry's
fields are a finger tall and keep what was typed when the entry is refused."""

import pytest
from playwright.sync_api import expect

from scoresheet import services as sheets
from tests.browser.test_tournaments_day import day, fill_check, hand_in, seated, totals  # noqa: F401
from tests.tournaments.helpers import deal
from tournaments import tokens

pytestmark = pytest.mark.browser


def test_no_deal_is_offered_past_the_rounds_last(new_context, live_server, day):  # noqa: F811
    _t, _organiser, (one, _two, _three) = day
    link = f"{live_server.url}{tokens.url(one)}"
    phone = new_context().new_page()
    phone.goto(link)
    expect(phone.get_by_role("link", name="Enter deal 1")).to_be_visible()
    sheets.record_hand(one.sheet, deal(seated(one), 0))  # the round's only deal
    phone.reload()
    expect(phone.locator("[data-main-action]")).to_have_text("Hand the sheet in")
    expect(phone.get_by_role("link", name="Enter deal 2")).to_have_count(0)
    expect(phone.get_by_text("Enter deal", exact=False)).to_have_count(0)
    # the form's address typed by hand: back to the sheet, saying why
    phone.goto(f"{link}deals/new/")
    expect(phone.locator("[data-messages]")).to_contain_text(
        "Every deal of the round is entered (1): hand the sheet in."
    )
    assert phone.url.rstrip("/") == link.rstrip("/")


def test_a_refused_second_entry_keeps_what_was_typed(new_context, live_server, day):  # noqa: F811
    _t, _organiser, (one, _two, _three) = day
    sheets.record_hand(one.sheet, deal(seated(one), 0))
    link = f"{live_server.url}{tokens.url(one)}"
    first_phone = new_context().new_page()
    first_phone.goto(link)
    hand_in(first_phone, "Anna")
    second_phone = new_context().new_page()
    second_phone.goto(link)
    fields = second_phone.locator("[data-check-form] input:not([type=hidden])")
    expect(fields).to_have_count(5)  # four totals and the name
    for k in range(5):
        assert fields.nth(k).bounding_box()["height"] >= 44
    typo = [int(v) for v in totals(one)]
    typo[2] += 20
    fill_check(second_phone, typo, "Bert")
    second_phone.get_by_role("button", name="Confirm the result").tap()
    expect(second_phone.locator("[data-messages]")).to_contain_text("not zero")
    for k, value in enumerate(typo):
        expect(second_phone.locator(f"#score-{k}")).to_have_value(str(value))
    expect(second_phone.get_by_label("Your name")).to_have_value("Bert")
    for k in range(5):
        assert fields.nth(k).bounding_box()["height"] >= 44
    # typed once, kept once: a new visit starts empty
    second_phone.reload()
    expect(second_phone.locator("#score-0")).to_have_value("")
