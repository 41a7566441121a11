"""A Savoyard evening at five on a phone: a call with its baga, a solo as dealt and a tie,
tapped in with the live preview, then the sheet's running totals."""

import re
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.urls import reverse
from playwright.sync_api import expect

from scoresheet.models import ScoreRow

pytestmark = pytest.mark.browser

# Five play (78 cards): total 68, tie 34. Seats: Anna, Bert, Carl, Dora, Emil.
TAPS = [
    {
        # Anna deals (the first hand) and calls Dora; 40: |40 − 34| = 6, three pay 6,
        # 9 and 9; the baga to the declarers: three pay 10, 15 and 15
        "mode": "Call a king",
        "partner": "Dora",
        "count": "40",
        "baga": "Declarers",
        "preview": {"Anna": "+24", "Dora": "+24", "Bert": "−16"},
        "explanation": "|40 − 34| = 6 × 1; three pay 6, the dealer takes 9 and the partner 9",
    },
    {
        # Bert deals; Carl alone as dealt, 52: |52 − 34| = 18 × 8 = 144 from each
        "mode": "Solo",
        "declarer": "Carl",
        "cards_asked": "As dealt",
        "count": "52",
        "preview": {"Carl": "+576", "Anna": "−144"},
        "explanation": "(solo as dealt)",
    },
    {
        # Carl deals and calls Anna; 34 is the tie line: nobody pays
        "mode": "Call a king",
        "partner": "Anna",
        "count": "34",
        "preview": {"Anna": "0", "Carl": "0"},
        "explanation": "34: exactly the tie line, nobody pays",
    },
]
TOTALS = {"Anna": "−120", "Bert": "−160", "Carl": "+560", "Dora": "−120", "Emil": "−160"}


def tap_choice(page, field, text):
    exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
    page.locator(f"#id_{field} label").filter(has_text=exact).tap()


def test_a_savoyard_evening_on_a_phone(page, live_server, log_in, make_sheet, scorer):
    sheet = make_sheet(5, rules="savoyard")
    slug = sheet.club.slug
    new_hand = live_server.url + reverse("scoresheet:hand_create", args=[slug, sheet.pk])
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=[slug, sheet.pk])
    log_in(page, scorer)
    dealers = ["Anna", "Bert", "Carl"]
    for number, taps in enumerate(TAPS, start=1):
        page.goto(new_hand)
        expect(page.locator("h1")).to_have_text(f"Hand {number}")
        # the dealer moves round by itself
        expect(page.locator('[data-show="dealer"]')).to_have_text(dealers[number - 1])
        # only the chosen game's fields show
        expect(page.locator("#id_count")).to_be_hidden()
        tap_choice(page, "mode", taps["mode"])
        if "partner" in taps:
            expect(page.locator("#id_declarer")).to_be_hidden()
            tap_choice(page, "partner", taps["partner"])
        else:
            expect(page.locator("#id_partner")).to_be_hidden()
            tap_choice(page, "declarer", taps["declarer"])
            tap_choice(page, "cards_asked", taps["cards_asked"])
        page.locator("#id_count").tap()
        page.keyboard.type(taps["count"])
        page.keyboard.press("Enter")  # closes the keyboard, saves nothing
        expect(page.locator("[data-defence-points]")).to_have_text(str(68 - int(taps["count"])))
        if "baga" in taps:
            tap_choice(page, "baga", taps["baga"])
        for player, score in taps["preview"].items():
            expect(page.locator(f'#hand-preview [data-player="{player}"]')).to_have_text(score)
        explanation = page.locator("#hand-preview [data-explanation]")
        expect(explanation).to_contain_text(taps["explanation"])
        assert sheet.hands.count() == number - 1  # the preview stored nothing
        page.get_by_role("button", name="Save", exact=True).tap()
        page.wait_for_url(f"{sheet_url}#hand-{number}")
        assert sheet.hands.count() == number
    # the sheet's running totals, where the last save landed
    for name, total in TOTALS.items():
        expect(page.locator(f'[data-totals] [data-player="{name}"]')).to_contain_text(total)
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    assert {r["player__name"]: r["t"] for r in rows} == {
        name: Decimal(total.replace("−", "-")) for name, total in TOTALS.items()
    }
    hand = sheet.hands.get(number=1)
    assert hand.extra["baga"] == {"to": "declarers", "announced": False}
