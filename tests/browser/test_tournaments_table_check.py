"""At the table on phones: a second entry whose totals do not add up to zero is
refused there, naming the player whose total looks wrong, and nothing goes to the
organiser; typed right, it confirms the sheet."""

import pytest
from playwright.sync_api import expect

from scoresheet import services as sheets
from tests.browser.test_tournaments_day import day, fill_check, hand_in, seated, totals  # noqa: F401
from tests.tournaments.helpers import deal
from tournaments import tokens

pytestmark = pytest.mark.browser


def test_a_second_entry_not_adding_up_to_zero_is_refused_at_the_table(
    new_context,
    live_server,
    day,  # noqa: F811
):
    _t, _organiser, (one, _two, _three) = day
    sheets.record_hand(one.sheet, deal(seated(one), 0))
    link = f"{live_server.url}{tokens.url(one)}"
    first_phone = new_context().new_page()
    first_phone.goto(link)
    # The round's only deal is in: handing the sheet in is the main button.
    expect(first_phone.locator("[data-main-action]")).to_have_text("Hand the sheet in")
    names = seated(one)
    heads = first_phone.locator("[data-deals] thead th[data-player]")
    expect(heads).to_have_text([f"P{name[-2:]}" for name in names])
    hand_in(first_phone, "Anna")

    second_phone = new_context().new_page()
    second_phone.goto(link)
    right = [int(v) for v in totals(one)]
    typo = list(right)
    typo[2] += 20  # e.g. -69 typed -49
    fill_check(second_phone, typo, "Bert")
    second_phone.get_by_role("button", name="Confirm the result").tap()
    expect(second_phone.locator("[data-messages]")).to_contain_text(
        f"The totals add up to +20, not zero: check {names[2]}'s total."
    )
    expect(second_phone.locator("[data-table-state]")).to_have_attribute(
        "data-table-state", "submitted"
    )
    one.refresh_from_db()
    assert one.state == "submitted"  # nothing went to the organiser
    fill_check(second_phone, right, "Bert")
    second_phone.get_by_role("button", name="Confirm the result").tap()
    expect(second_phone.locator("[data-messages]")).to_contain_text("the sheet is confirmed")
