"""Save and the live score in view on the hand form, at every seat count, on two phones
and a laptop: a bar stuck to a phone's bottom, the score beside the fields on a wide
screen. Measured: Save's place in the viewport as the form opens and once a typical
hand is entered (taker, contract, partner at five or six, bouts, points: at most seven
taps with Save), and the page's scroll: none, anywhere. The part of the page a typical
hand uses (down to the points and the other side's points, then the bar or the score
column) is no taller than the screen, so no tap scrolled it and none has to.
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCREENS = {
    "360x780": {"viewport": {"width": 360, "height": 780}},
    "390x844": {"viewport": {"width": 390, "height": 844}},
    "1366x768": {
        "viewport": {"width": 1366, "height": 768},
        "has_touch": False,
        "is_mobile": False,
    },
}
#: measured figures, printed at the end of the module (``pytest -s``)
FIGURES = []

SAVE_BOX = """() => {
    const save = document.querySelector('[data-save]');
    const box = save.getBoundingClientRect();
    const scores = document.querySelector("#hand-preview").getBoundingClientRect();
    return {top: Math.round(box.top), bottom: Math.round(box.bottom),
            height: window.innerHeight, scroll: Math.round(window.scrollY),
            scoresTop: Math.round(scores.top), scoresBottom: Math.round(scores.bottom),
            needed: Math.round(typicalHandHeight())};
    // the document's height a typical hand needs: down to its last field, plus the bar
    // stuck below it on a phone (beside it on a wide screen, the score column)
    function typicalHandHeight() {
        const last = document.querySelector('[data-field="points"]').getBoundingClientRect();
        const bar = document.querySelector("[data-hand-bar]").getBoundingClientRect();
        const beside = bar.left >= last.right;
        return (beside ? Math.max(last.bottom, bar.bottom) : last.bottom + bar.height)
            + window.scrollY;
    }
}"""


def press(locator, touch):
    if touch:
        locator.tap()
    else:
        locator.click()


def choose(page, field, text, touch):
    exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
    press(page.locator(f"#id_{field} label").filter(has_text=exact), touch)


def typical_hand(page, seats, touch):
    """A typical hand's taps (the points typed after one tap on the field), Save not yet."""
    taps = 0
    choose(page, "taker", "Bert", touch)
    choose(page, "contract", "garde", touch)
    taps += 2
    if seats >= 5:
        choose(page, "partner", "Carl", touch)
        taps += 1
    choose(page, "bouts", "2", touch)
    press(page.locator("#id_points"), touch)
    page.locator("#id_points").press_sequentially("45")
    return taps + 2


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    for line in FIGURES:
        print(line)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_save_and_the_score_stay_in_view(
    screen, seats, new_context, live_server, log_in, make_sheet, scorer
):
    sheet = make_sheet(seats)
    page = new_context(**SCREENS[screen]).new_page()
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    expect(page.locator("form[data-hand-form]")).to_have_attribute("data-placed", "yes")
    opened = page.evaluate(SAVE_BOX)
    assert opened["top"] >= 0 and opened["bottom"] <= opened["height"], opened

    touch = SCREENS[screen].get("has_touch", True)
    taps = typical_hand(page, seats, touch)
    expect(page.locator("#hand-preview [data-player]").first).to_be_visible()
    entered = page.evaluate(SAVE_BOX)
    # Save and the scores in view where the last field left the page: no scroll to reach them
    assert entered["top"] >= 0 and entered["bottom"] <= entered["height"], entered
    assert entered["scoresTop"] >= 0 and entered["scoresBottom"] <= entered["height"], entered
    # every field of the hand, the score and Save in one screen: no tap scrolled the page
    # (a field under the bar would have), and none has to
    assert entered["scroll"] == 0, entered
    assert entered["needed"] <= entered["height"], entered
    press(page.get_by_role("button", name="Save", exact=True), touch)
    taps += 1
    page.wait_for_url(f"**/sheets/{sheet.pk}/#hand-1")
    assert sheet.hands.count() == 1
    assert taps <= 7
    FIGURES.append(
        f"{screen} {seats} seats: Save at {opened['top']}-{opened['bottom']} px of "
        f"{opened['height']} on opening, {entered['top']}-{entered['bottom']} px after the "
        f"hand (page scrolled {entered['scroll']} px by the taps; the hand needs "
        f"{entered['needed']} px), {taps} taps"
    )
