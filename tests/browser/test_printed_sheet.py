"""The printed feuille de marque (A4) at 3 to 6 seats, in English and French:
no number cell on two lines, headers and names never broken inside a word, players'
heads shortened as on the phone sheet, the blank sheet with only the columns its seats
need; then printed to PDF (A4)."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_at_the_table import (
    A4_WIDTH_PX,
    LONG_NAMES,
    long_club,  # noqa: F401 (fixture)
    long_evening,
    open_sheet,
    pdf_page_sizes,
    sheet_url,
)

pytestmark = pytest.mark.browser

#: Text nodes of ``selector`` laid out on more than one line: [text, lines]. A Range over
#: a text node gives one rectangle per line box it spans.
WRAPPED_NUMBERS = """selector => {
    const out = [];
    for (const cell of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                .map(r => Math.round(r.top)));
            if (tops.size > 1) out.push([node.textContent, tops.size]);
        }
    }
    return out;
}"""

#: Words of ``selector``'s text split over two lines: [word, lines].
BROKEN_WORDS = """selector => {
    const out = [];
    for (const cell of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent;
            for (const match of text.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                    .map(r => Math.round(r.top)));
                if (tops.size > 1) out.push([match[0], tops.size]);
            }
        }
    }
    return out;
}"""


def printed(new_context, live_server, sheet, name, locale):
    page = new_context(
        locale=locale, viewport={"width": A4_WIDTH_PX, "height": 1000}, is_mobile=False
    ).new_page()
    page.goto(sheet_url(live_server, sheet, name))
    page.emulate_media(media="print")
    return page


def check_layout(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH_PX
    assert page.evaluate(WRAPPED_NUMBERS, "[data-seats] [data-num]") == []
    assert page.evaluate(BROKEN_WORDS, "[data-seats] thead th") == []
    assert page.evaluate(BROKEN_WORDS, "[data-seats] td[data-name-cell]") == []
    pdf = page.pdf(format="A4", print_background=True)
    sizes = pdf_page_sizes(pdf)
    assert sizes and all(abs(w - 595) <= 1 and abs(h - 842) <= 1 for w, h in sizes)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_printed_sheet_keeps_numbers_and_words_whole(
    new_context,
    live_server,
    season,
    scorer,
    long_club,  # noqa: F811
    seats,
    locale,
):
    _, _, players = long_club
    sheet = open_sheet(season, players, scorer, seats, hands=long_evening)
    page = printed(new_context, live_server, sheet, "sheet_print", locale)
    # five- and six-character totals, as the long evening makes them
    totals = page.locator("[data-seats] tfoot td[data-num]").all_inner_texts()
    assert max(len(t.strip()) for t in totals) >= 5
    # players' heads shortened as on the phone sheet, the full name in the title
    for player in LONG_NAMES[:seats]:
        head = page.locator(f'thead th[data-player="{player}"] abbr')
        expect(head).to_have_attribute("title", player)
        assert len(head.inner_text()) <= 5
    check_layout(page)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_blank_sheet_has_only_the_columns_its_seats_need(
    new_context,
    live_server,
    season,
    scorer,
    long_club,  # noqa: F811
    seats,
    locale,
):
    _, _, players = long_club
    sheet = open_sheet(season, players, scorer, seats, hands=lambda names: [])
    page = printed(new_context, live_server, sheet, "sheet_blank", locale)
    columns = page.locator("[data-seats] thead th").evaluate_all(
        "cells => cells.map(c => c.dataset.column)"
    )
    assert ("sits_out" in columns) is (seats == 6)  # five seats: all five play
    assert ("partner" in columns) is (seats >= 5)
    assert columns.count("player") == seats
    check_layout(page)


@pytest.mark.parametrize("seats", [4, 6])
def test_the_browser_s_print_of_the_sheet_page_keeps_numbers_and_names_whole(
    new_context,
    live_server,
    season,
    scorer,
    long_club,  # noqa: F811
    seats,
):
    """The sheet page itself printed (the browser's Print, not the "Print" view): its
    scores ("+115,5") on one line, the players' names broken only between words."""
    _, _, players = long_club
    sheet = open_sheet(season, players, scorer, seats, hands=long_evening)
    page = printed(new_context, live_server, sheet, "sheet", "fr-FR")
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH_PX
    assert page.evaluate(WRAPPED_NUMBERS, "table[data-seats] [data-score]") == []
    assert page.evaluate(BROKEN_WORDS, "table[data-seats] thead th") == []
    assert page.evaluate(BROKEN_WORDS, "table[data-seats] tbody td:nth-child(2)") == []
