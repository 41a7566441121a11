"""The offline queue knows the sheet, and one sheet keeps one truth.

- A six-player evening entered with no network (a reload and a closed tab in the
  middle) numbers its hands, picks their dealers and sitters-out and scores them as the
  same evening entered online: each queued hand follows the sheet and the hands before
  it in the queue, as the server would.
- Two phones racing the same deal: it is stored once, and the second phone is told,
  with both hands and the choice (keep mine as the next hand, or drop it), online and
  when it comes back from offline.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoresheet.models import Hand, ScoreRow
from tests.browser.test_terminal import (
    offline,
    pass_ended,
    passes,
    patient_expect,  # noqa: F401 (autouse: the queue's steps on a loaded machine)
    queue_empty,
    tap_choice,
    works_offline,
)

pytestmark = pytest.mark.browser

SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fred"]

#: Eight hands at six seats (the dealer sits out): what the scorer taps.
EVENING = [
    {"taker": "Bert", "contract": "garde", "partner": "Carl", "bouts": "2", "points": "45"},
    {"taker": "Carl", "contract": "prise", "partner": "Dora", "bouts": "1", "points": "51"},
    {"taker": "Everybody passed"},
    {"taker": "Emil", "contract": "garde sans", "partner": "Alone", "bouts": "3", "points": "60"},
    {"taker": "Fred", "contract": "garde", "partner": "Anna", "bouts": "2", "points": "38"},
    {"taker": "Anna", "contract": "prise", "partner": "Bert", "bouts": "1", "points": "55"},
    {"taker": "Bert", "contract": "garde contre", "partner": "Emil", "bouts": "2", "points": "42"},
    {"taker": "Carl", "contract": "prise", "partner": "Fred", "bouts": "0", "points": "60"},
]
#: what the server suggests, hand after hand: the seat after the last dealer
DEALERS = [SIX[i % 6] for i in range(8)]


def enter(page, taps):
    tap_choice(page, "taker", taps["taker"])
    if taps["taker"] == "Everybody passed":
        return
    tap_choice(page, "contract", taps["contract"])
    tap_choice(page, "partner", taps["partner"])
    tap_choice(page, "bouts", taps["bouts"])
    page.locator("#id_points").fill(taps["points"])


def open_form(page, sheet_url, form_url, number):
    """The form of the sheet's next hand, from the sheet's link: its number and dealer
    (who sits out at six) as the form states them, once it is placed in the queue."""
    page.goto(sheet_url)
    page.get_by_role("link", name="Enter a hand").tap()
    page.wait_for_url(form_url)
    expect(page.locator("form[data-hand-form]")).to_have_attribute("data-placed", "yes")
    expect(page.locator("h1")).to_have_text(f"Hand {number}")
    form = page.locator("form[data-hand-form]")
    return (
        form.locator('[data-show="dealer"]').inner_text(),
        form.locator('[data-show="sits_out"]').inner_text(),
    )


def stored(sheet):
    out = []
    for hand in Hand.objects.filter(sheet=sheet).select_related("dealer", "sits_out"):
        rows = ScoreRow.objects.filter(hand=hand).order_by("position")
        out.append(
            (
                hand.number,
                hand.dealer.name,
                hand.sits_out.name,
                [str(row.score) for row in rows],
            )
        )
    return sorted(out)


def test_an_evening_offline_scores_as_the_same_evening_online(
    new_context, live_server, log_in, make_sheet, scorer
):
    online_sheet = make_sheet(6, table="1")
    offline_sheet = make_sheet(6, table="2")
    context = new_context()
    page = context.new_page()
    log_in(page, scorer)

    def urls(sheet):
        return (
            live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk]),
            live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]),
        )

    sheet_url, form_url = urls(online_sheet)
    shown_online = []
    for number, taps in enumerate(EVENING, start=1):
        shown_online.append(open_form(page, sheet_url, form_url, number))
        enter(page, taps)
        page.get_by_role("button", name="Save", exact=True).tap()
        page.wait_for_url(f"{sheet_url}#hand-{number}")
    assert [dealer for dealer, _ in shown_online] == DEALERS
    assert [out for _, out in shown_online] == DEALERS  # at six, the dealer sits out

    sheet_url, form_url = urls(offline_sheet)
    page.goto(sheet_url)
    works_offline(page, sheet_url, form_url)
    offline(context)
    shown_offline = []
    for number, taps in enumerate(EVENING, start=1):
        if number == 5:
            # mid-evening, still offline: a reload, then the tab closed and another opened
            page.goto(sheet_url)
            page.reload()
            expect(page.locator("[data-queue-sheet] [data-queue-state='waiting']")).to_have_count(4)
            page.close()
            page = context.new_page()
            context.set_offline(True)  # the new tab with no network too, whatever its start
            page.goto(sheet_url)
            expect(page.locator("[data-queue-sheet] [data-queue-entry-label]")).to_have_count(4)
        shown_offline.append(open_form(page, sheet_url, form_url, number))
        enter(page, taps)
        page.get_by_role("button", name="Save", exact=True).tap()
        expect(page.locator("[data-offline]")).to_be_visible()
        expect(page.locator("[data-queue-count]")).to_have_text(f"Waiting to be sent: {number}")
    assert shown_offline == shown_online
    page.goto(sheet_url)
    labels = page.locator("[data-queue-sheet] [data-queue-entry-label]")
    expect(labels).to_have_count(8)
    expect(labels.nth(7)).to_contain_text("Hand 8")
    # (not asserted: nothing stored yet. Under load Chromium once let a post through the
    # offline mode and the route's cut; the hand was then stored once, by its key, as the
    # comparison below shows)

    offline(context, False)
    queue_empty(page)
    online, queued = stored(online_sheet), stored(offline_sheet)
    assert [row[:3] for row in queued] == [
        (n, d, d) for n, d in zip(range(1, 9), DEALERS, strict=True)
    ]
    assert queued == online


# ---------------------------------------------------------------- two phones, one sheet

HAND = {"taker": "Bert", "contract": "garde", "bouts": "2", "points": "45"}


def four_seat_enter(page, taps):
    tap_choice(page, "taker", taps["taker"])
    tap_choice(page, "contract", taps["contract"])
    tap_choice(page, "bouts", taps["bouts"])
    page.locator("#id_points").fill(taps["points"])


def test_two_phones_racing_the_same_deal_store_it_once(
    new_context, live_server, log_in, make_sheet, scorer
):
    sheet = make_sheet(4)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    first, second = new_context().new_page(), new_context().new_page()
    for phone in (first, second):
        log_in(phone, scorer)
        phone.goto(form_url)
        expect(phone.locator("h1")).to_have_text("Hand 1")
        four_seat_enter(phone, HAND)

    first.get_by_role("button", name="Save", exact=True).tap()
    first.wait_for_url(f"{sheet_url}#hand-1")
    second.get_by_role("button", name="Save", exact=True).tap()
    clash = second.locator("[data-clash]")
    expect(clash).to_contain_text("Hand 1 was entered meanwhile, on another phone")
    expect(clash.locator("[data-clash-theirs]")).to_contain_text("Hand 1")
    expect(clash.locator("[data-clash-mine]")).to_contain_text("Bert")
    assert Hand.objects.filter(sheet=sheet).count() == 1
    # the same deal: dropped, and nothing more is stored
    clash.get_by_role("link", name="Drop mine").tap()
    second.wait_for_url(sheet_url)
    assert Hand.objects.filter(sheet=sheet).count() == 1

    # the second phone offline enters hand 2; meanwhile the first stores hand 2 online
    second.goto(sheet_url)
    works_offline(second, sheet_url, form_url)
    offline(second.context)
    second.get_by_role("link", name="Enter a hand").tap()
    expect(second.locator("h1")).to_have_text("Hand 2")
    four_seat_enter(second, HAND)
    second.get_by_role("button", name="Save", exact=True).tap()
    expect(second.locator("[data-offline]")).to_be_visible()
    first.goto(form_url)
    four_seat_enter(first, HAND)
    first.get_by_role("button", name="Save", exact=True).tap()
    first.wait_for_url(f"{sheet_url}#hand-2")
    second.goto(sheet_url)
    before = passes(second)
    offline(second.context, False)
    pass_ended(second, before)
    entry = second.locator("[data-queue-sheet] [data-queue-key]")
    expect(entry.locator("[data-queue-state='refused']")).to_contain_text(
        "Hand 2 was entered meanwhile"
    )
    expect(entry.locator("[data-queue-clash]")).to_contain_text("Hand 2 · Dealer")
    assert Hand.objects.filter(sheet=sheet).count() == 2
    # another deal after all: kept as hand 3
    entry.get_by_role("button", name="Keep mine as hand 3").tap()
    queue_empty(second)
    assert list(Hand.objects.filter(sheet=sheet).values_list("number", flat=True)) == [1, 2, 3]


# ---------------------------------------------------------------- a closed sheet


def test_a_sheet_closed_meanwhile_refuses_save_in_french(
    new_context, live_server, log_in, make_sheet, scorer
):
    from scoresheet import services

    sheet = make_sheet(4)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    page = new_context(locale="fr-FR").new_page()
    log_in(page, scorer)
    page.goto(form_url)
    tap_choice(page, "taker", "Bert")
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    page.locator("#id_points").fill("45")
    services.close_sheet(sheet, actor=scorer)
    page.get_by_role("button", name="Enregistrer", exact=True).tap()
    refusal = page.locator("[data-sheet-closed]")
    expect(refusal).to_contain_text("Cette feuille est close\u00a0: aucune donne")
    expect(refusal).to_contain_text("«\u00a0Rouvrir la feuille\u00a0»")
    assert Hand.objects.filter(sheet=sheet).count() == 0
    page.goto(sheet_url)
    expect(page.get_by_role("link", name="Saisir une donne")).to_have_count(0)
    expect(page.locator("[data-sheet-closed]")).to_contain_text("Rouvrir la feuille")
