"""At the table: a sheet that fits a phone, a printable feuille de marque, a
hand form without snags, and no hand lost to the network.

Phones of 360×740 (in French) and 390×844 (in English). Selectors are roles and
``data-`` attributes where the page has them.
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from scoresheet import services

pytestmark = pytest.mark.browser

PHONES = [(360, 740), (390, 844)]
LOCALES = ["en-GB", "fr-FR"]
#: Each phone in one language: French, whose words are the longer, on the narrower
#: phone (the hardest fit), English on the other (all four pairs cost CI 40 s more).
PHONE_CASES = [(PHONES[0], "fr-FR"), (PHONES[1], "en-GB")]
PHONE_IDS = ["360-fr-FR", "390-en-GB"]
#: Long enough to need short names in a 360px column; Élodie and Zoë sort by accent.
LONG_NAMES = ["Bérangère", "Maximilien", "Élodie", "Zoë", "Hélène", "Christophe"]


def hands_for(names):
    """A few hands at this table: big scores (garde contre, poignées) so the widest
    numbers show, a passed hand, a failed one; at six the dealer sits out."""
    seats = len(names)
    out = []
    specs = [
        ("garde_contre", 3, 86, [{"player": 1, "size": "triple"}]),
        ("garde", 1, 40, []),
        (None, None, None, []),
        ("garde_sans", 2, 60, [{"player": 1, "size": "double"}]),
        ("garde_contre", 3, 80, [{"player": 1, "size": "single"}]),
    ]
    for i, (contract, bouts, points, poignees) in enumerate(specs):
        dealer = i % seats
        playing = [j for j in range(seats) if not (seats == 6 and j == dealer)]
        taker = playing[(i + 1) % len(playing)]
        hand = {"dealer": names[dealer]}
        if seats == 6:
            hand["sits_out"] = names[dealer]
        elif seats == 5:
            hand["sits_out"] = None
        if contract is None:
            hand["taker"] = None
        else:
            hand.update(
                taker=names[taker],
                contract=contract,
                bouts=bouts,
                points=points,
                poignees=[{"player": names[taker], "size": p["size"]} for p in poignees],
            )
            if len(playing) == 5:
                hand["partner"] = names[playing[(i + 3) % 5]]
        out.append(hand)
    return out


def long_evening(names):
    """``hands_for``'s hands, then seven garde contre with a chelem announced and made,
    the second player alone against the table (the dealer sits out at six): totals and
    running totals of five and six characters (−7228 and +23922 at six seats)."""
    seats = len(names)
    out = hands_for(names)
    for _ in range(7):
        hand = {"dealer": names[0], "taker": names[1], "contract": "garde_contre"}
        hand.update(bouts=3, points=91, chelem={"announced": True, "made_by": "attack"})
        if seats == 6:
            hand["sits_out"] = names[0]
        if seats >= 5:
            hand["partner"] = names[1]  # alone
        out.append(hand)
    return out


@pytest.fixture
def long_club(club, season):
    players = [Player.objects.create(club=club, name=name) for name in LONG_NAMES]
    return club, season, players


def open_sheet(season, players, scorer, seats, **kwargs):
    sheet = services.create_sheet(
        season=season,
        players=players[:seats],
        date=datetime.date(2026, 3, 14),
        table=kwargs.get("table", "3"),
        rules=kwargs.get("rules"),
        actor=scorer,
    )
    for hand in kwargs.get("hands", hands_for)([p.name for p in players[:seats]]):
        services.record_hand(sheet, hand, actor=scorer)
    return sheet


def sheet_url(live_server, sheet, name="sheet"):
    return live_server.url + reverse(f"scoresheet:{name}", args=[sheet.club.slug, sheet.pk])


def within(box, width):
    return box is not None and box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5


#: The cell's text is inside its box: nothing spills into the next column.
FITS = """el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect(), box = el.getBoundingClientRect();
    return el.scrollWidth <= el.clientWidth && text.left >= box.left - 0.5
        && text.right <= box.right + 0.5;
}"""


#: Every number in the players' columns, [text, shown whole] (``FITS``): each hand's
#: score and running total, and the totals.
PLAYER_NUMBERS = (
    """() => {
    const fits = """
    + FITS
    + """;
    const columns = [...document.querySelectorAll("thead th[data-player]")].map(
        th => th.cellIndex);
    const out = [];
    for (const row of document.querySelectorAll("tbody tr[data-hand], tfoot tr")) {
        for (const i of columns) {
            const cell = row.cells[i];
            if (!cell || cell.colSpan > 1) continue;  // a deleted hand's note
            for (const el of cell.children.length ? [...cell.children] : [cell]) {
                out.push([el.textContent.trim(), fits(el)]);
            }
        }
    }
    return out;
}"""
)


# ---------------------------------------------------------------- the sheet on a phone


@pytest.mark.parametrize(("size", "locale"), PHONE_CASES, ids=PHONE_IDS)
def test_every_player_column_fits_a_phone(
    new_context, live_server, season, scorer, long_club, size, locale
):
    club, _, players = long_club
    sheets = [(n, open_sheet(season, players, scorer, n)) for n in (3, 4, 5, 6)]
    # a long evening: numbers of five and six characters where the columns are narrow
    sheets += [(n, open_sheet(season, players, scorer, n, hands=long_evening)) for n in (4, 5, 6)]
    width, height = size
    page = new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    short_totals = []
    totals = []
    numbers = []
    for seats, sheet in sheets:
        page.goto(sheet_url(live_server, sheet))
        assert page.evaluate("document.documentElement.scrollWidth") <= width, seats
        heads = page.locator("thead th[data-player]")
        expect(heads).to_have_count(seats)
        for i in range(seats):
            head = heads.nth(i)
            expect(head).to_be_visible()
            assert within(head.bounding_box(), width), (seats, i)
        # every score of the last hand, and every total, is on screen too
        for cell in page.locator("tfoot [data-score]").all():
            assert within(cell.bounding_box(), width), seats
            # a total shows whole: −460 not cut to "−46", −1068 not to "−106"
            text = cell.inner_text().strip()
            assert cell.evaluate(FITS), (seats, text)
            totals.append((seats, text))
            if len(text) <= 4:
                short_totals.append((seats, text))
        # and so does every score and running total of six characters or fewer
        shown = page.evaluate(PLAYER_NUMBERS)
        assert len(shown) == seats * (2 * page.locator("tbody tr[data-hand]").count() + 1)
        assert [text for text, whole in shown if not whole] == [], seats
        numbers += [(seats, text) for text, _ in shown]
        # the totals row stays at the bottom of the screen while the hands scroll
        footer = page.locator("tfoot [data-score]").first  # the cells stick, not the row
        page.locator("#hand-1").scroll_into_view_if_needed()
        box = footer.bounding_box()
        assert box["y"] + box["height"] <= height + 0.5, seats
    # among them a negative one at six seats, the narrowest columns
    assert any(n == 6 and re.fullmatch(r"−\d{3}", text) for n, text in short_totals)
    # five characters at six seats: the totals −1068 and +1280, and running totals
    assert {(6, "−1068"), (6, "+1280")} <= set(totals)
    assert len({text for n, text in numbers if n == 6 and len(text) == 5}) > 4
    # and six characters (+23922) at four, five and six seats
    assert {n for n, text in totals if len(text) == 6} == {4, 5, 6}
    assert {n for n, text in numbers if len(text) == 6} == {4, 5, 6}
    # a short name shows the full one on tap
    head = page.locator('thead th[data-player="Maximilien"] [data-name]')
    expect(head).to_have_attribute("data-name", "Maximilien")
    head.tap()
    content = head.evaluate("el => getComputedStyle(el, '::after').content")
    assert "Maximilien" in content


def test_the_desktop_sheet_uses_the_width_it_has(
    new_context, live_server, season, scorer, long_club
):
    _, _, players = long_club
    sheet = open_sheet(season, players, scorer, 5)
    page = new_context(
        viewport={"width": 1366, "height": 900}, is_mobile=False, has_touch=False
    ).new_page()
    page.goto(sheet_url(live_server, sheet))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    main = page.locator("main").bounding_box()
    assert main["width"] > 1100  # not the 960px column of the other pages
    for label in ("Dealer", "Partner", "Bouts", "Points", "Bonuses"):
        header = page.get_by_role("columnheader", name=label, exact=True)
        expect(header).to_be_visible()
        assert within(header.bounding_box(), 1366)


# ---------------------------------------------------------------- the navigation


@pytest.mark.parametrize(("size", "locale"), PHONE_CASES, ids=PHONE_IDS)
def test_the_navigation_fits_a_phone_and_keeps_the_club_tabs(
    new_context,
    live_server,
    log_in,
    club,
    season,
    players,
    make_sheet,
    size,
    locale,
    django_user_model,
):
    width, height = size
    manager = django_user_model.objects.create_user(
        "mgr", password="x-long-passphrase-9", first_name="Marie-Bérangère", last_name="Curie"
    )
    Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
    sheet = make_sheet(4)
    services.record_hand(
        sheet,
        {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
        actor=manager,
    )
    anonymous = new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    anonymous.goto(sheet_url(live_server, sheet))
    log_in_link = anonymous.locator("[data-account]").get_by_role("link")
    box = log_in_link.bounding_box()
    assert box["height"] < 50  # "Log in" on one line
    assert within(box, width)

    page = new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    log_in(page, manager)
    slug = club.slug
    pages = [
        reverse("scoresheet:sheet", args=[slug, sheet.pk]),
        reverse("scoresheet:hand", args=[slug, sheet.pk, 1]),
        reverse("scoresheet:hand_create", args=[slug, sheet.pk]),
        reverse("scoresheet:hand_edit", args=[slug, sheet.pk, 1]),
        reverse("manage:overview", args=[slug]),
        reverse("manage:members", args=[slug]),
        reverse("standings:club", args=[slug]),
        reverse("profile"),
    ]
    tabs = page.get_by_role("banner").get_by_role("navigation").get_by_role("link")
    for path in pages:
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        expect(tabs).to_have_count(4)  # home, then the club's three tabs (leagues: the footer)
        for i in range(4):
            link = tabs.nth(i)
            # each tab whole on screen: nothing cut, nothing to scroll to
            assert within(link.bounding_box(), width), (path, i)
            assert link.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), (path, i)
        name = page.locator("[data-account]").get_by_role("link")
        expect(name).to_have_text("Marie-Bérangère Curie")
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), path  # not cut
        assert within(name.bounding_box(), width)


# ---------------------------------------------------------------- the hand form


def tap_choice(page, field, text):
    exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
    page.locator(f"#id_{field} label").filter(has_text=exact).tap()


def boxes(page, selector):
    """Each matched button's box relative to the fieldset that holds it, so a scroll or
    a change of height elsewhere on the page does not count as a move."""
    return page.locator(selector).evaluate_all(
        """els => els.map(e => {
            const g = e.closest("fieldset").getBoundingClientRect();
            const r = e.getBoundingClientRect();
            return [r.x - g.x, r.y - g.y, r.width, r.height];
        })"""
    )


@pytest.mark.parametrize(("size", "locale"), PHONE_CASES, ids=PHONE_IDS)
def test_no_button_moves_when_chosen(
    new_context, live_server, log_in, make_sheet, scorer, size, locale
):
    sheet = make_sheet(5)
    width, height = size
    page = new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    for field in ("taker", "contract", "partner", "bouts", "petit_au_bout"):
        selector = f"#id_{field} label"
        labels = page.locator(selector)
        for i in range(labels.count()):
            labels.nth(i).scroll_into_view_if_needed()
            before = boxes(page, selector)
            labels.nth(i).tap()
            expect(labels.nth(i).locator("input")).to_be_checked()
            after = boxes(page, selector)
            assert before == after, (field, i)
            if field == "taker" and i == labels.count() - 1:
                tap_choice(page, "taker", "Anna")  # back from "everybody passed"


@pytest.mark.parametrize(("size", "locale"), PHONE_CASES, ids=PHONE_IDS)
def test_the_preview_never_covers_a_field(
    new_context, live_server, log_in, make_sheet, scorer, size, locale
):
    sheet = make_sheet(5)
    width, height = size
    page = new_context(locale=locale, viewport={"width": width, "height": height}).new_page()
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    tap_choice(page, "taker", "Anna")
    page.locator("#id_contract label").first.tap()
    page.locator("#id_partner label").nth(1).tap()
    page.locator("#id_bouts label").nth(2).tap()
    page.locator("#id_points").fill("56")
    page.locator("[data-extras] > summary").tap()
    preview = page.locator("[data-preview]")
    expect(preview.locator("[data-player]").first).to_be_visible()
    selector = (
        "[data-hand-form] input, [data-hand-form] select, "
        "[data-hand-form] label, [data-hand-form] summary"
    )
    # The preview and Save ride in a bar stuck to the phone's bottom: fields scroll under
    # it, and each control, brought into view as focusing or tapping it does, lands clear
    # of the bar (its scroll margin), never under it (the preview's own "Why?" aside).
    covered = """([selector, bar]) => {
        const hits = [];
        let seen = 0;
        for (const el of document.querySelectorAll(selector)) {
            if (el.closest(bar)) continue;
            if (el.getBoundingClientRect().width === 0) continue;
            seen++;
            el.scrollIntoView({block: "nearest"});
            const box = el.getBoundingClientRect();
            const shown = document.querySelector(bar).getBoundingClientRect();
            if (box.height > 0 && box.left < shown.right && shown.left < box.right
                && box.bottom > shown.top + 1 && box.top < shown.bottom) {
                hits.push(el.outerHTML.slice(0, 80));
            }
        }
        return [seen, hits];
    }"""
    seen, hits = page.evaluate(covered, [selector, "[data-hand-bar]"])
    assert seen > 20
    assert hits == [], hits
    # the preview is one line of scores; the explanation folds under it
    expect(preview.get_by_role("list")).to_be_visible()  # after the last refresh
    scores = preview.get_by_role("list").bounding_box()
    assert scores["height"] < 80
    expect(preview.locator("[data-explanation]")).to_be_hidden()
    preview.locator("summary").tap()
    expect(preview.locator("[data-explanation]")).to_be_visible()


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_french_comma_points_are_stored_as_halves(page, live_server, log_in, make_sheet, scorer):
    sheet = make_sheet(4)
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    tap_choice(page, "taker", "Anna")
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    page.locator("#id_points").tap()
    page.keyboard.type("45,5")
    expect(page.locator("[data-defence-points]")).to_have_text("45,5")
    page.get_by_role("button", name="Enregistrer", exact=True).tap()
    page.wait_for_url("**/sheets/*/#hand-1")
    assert sheet.hands.get().points == Decimal("45.5")


def test_the_defence_points_may_be_entered_instead(page, live_server, log_in, make_sheet, scorer):
    sheet = make_sheet(4)
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    tap_choice(page, "taker", "Anna")
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    tap_choice(page, "points_side", "Defence")
    expect(page.locator('[data-points-label="defence"]')).to_be_visible()
    expect(page.locator('[data-points-label="attack"]')).to_be_hidden()
    page.locator("#id_points").fill("35")
    expect(page.locator("[data-defence]")).to_have_text(re.compile(r"attack\s+56"))
    expect(page.locator('#hand-preview [data-player="Anna"]')).to_have_text("+240")
    page.get_by_role("button", name="Save", exact=True).tap()
    page.wait_for_url("**/sheets/*/#hand-1")
    assert sheet.hands.get().points == 56


def test_after_saving_the_sheet_shows_the_new_line_and_an_undo(
    page, live_server, log_in, make_sheet, scorer
):
    sheet = make_sheet(4)
    for _ in range(14):  # a long sheet: the new line is far below the top
        services.record_hand(
            sheet,
            {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
            actor=scorer,
        )
    log_in(page, scorer)
    # from the sheet, as a scorer comes (its accessibility audit, once per page, runs
    # now and not while the undo's seconds run out)
    page.goto(live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk]))
    page.get_by_role("link", name="Enter a hand").first.tap()
    tap_choice(page, "taker", "Carl")
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "1")
    page.locator("#id_points").fill("60")
    page.get_by_role("button", name="Save", exact=True).tap()
    page.wait_for_url("**/sheets/*/#hand-15")
    row = page.locator("#hand-15")
    expect(row).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 300
    undo = page.locator("[data-undo]")
    expect(undo).to_contain_text("Hand 15 saved.")
    undo.get_by_role("button", name="Undo").tap()
    page.wait_for_url(re.compile(r"/sheets/\d+/$"))
    expect(page.locator("[data-messages]")).to_contain_text("Hand 15 undone")
    assert sheet.hands.get(number=15).is_deleted
    # and it goes by itself after a few seconds
    services.restore_hand(sheet.hands.get(number=15), actor=scorer)


# ---------------------------------------------------------------- no network


@pytest.mark.parametrize("browser_locale", LOCALES)
def test_a_save_without_network_survives_and_is_stored_once(
    page, live_server, log_in, make_sheet, scorer, browser_locale
):
    sheet = make_sheet(4)
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    tap_choice(page, "taker", "Anna")
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    page.locator("#id_points").fill("56")
    expect(page.locator('#hand-preview [data-player="Anna"]')).to_have_text("+240")
    form_url = page.url
    page.context.set_offline(True)
    save = "Enregistrer" if browser_locale == "fr-FR" else "Save"
    page.get_by_role("button", name=save, exact=True).tap()
    offline = page.locator("[data-offline]")
    expect(offline).to_be_visible()
    if browser_locale == "en-GB":  # the French words come with the lead's catalogue
        expect(offline).to_contain_text("No network: the hand is not saved yet.")
    assert page.url == form_url  # still the form, with what was entered
    expect(page.locator("#id_points")).to_have_value("56")
    assert sheet.hands.count() == 0
    # tapped again while offline: still kept, still nothing stored
    page.get_by_role("button", name=save, exact=True).tap()
    assert sheet.hands.count() == 0
    page.context.set_offline(False)
    # stored by the form's own save or by the queue's next pass, whichever goes first:
    # the first lands on the hand in the sheet, the second on the sheet
    expect(page).to_have_url(re.compile(r"/sheets/\d+/(#hand-1)?$"), timeout=30_000)
    assert sheet.hands.count() == 1
    # nothing left to send: the form opens empty, and nothing more is stored
    page.goto(form_url)
    expect(page.locator("[data-offline]")).to_be_hidden()
    expect(page.locator("#id_points")).to_have_value("")
    page.wait_for_timeout(500)
    assert sheet.hands.count() == 1


def test_a_hand_kept_offline_is_sent_when_the_form_opens_again(
    page, live_server, log_in, make_sheet, scorer
):
    """The answer was lost (the hand may or may not be stored): the phone's queue
    (static/js/offline.js) sends it again with the same key from the next page opened,
    and the server stores it once."""
    sheet = make_sheet(4)
    log_in(page, scorer)
    new_hand = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    page.goto(new_hand)
    tap_choice(page, "taker", "Anna")
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    page.locator("#id_points").fill("56")
    # the server stores it, but the answer never reaches the phone
    page.route("**/hands/new/", lambda route: (route.fetch(), route.abort()))
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("[data-offline]")).to_be_visible()
    expect(page.locator("[data-queue-count]")).to_have_text("Waiting to be sent: 1")
    assert sheet.hands.count() == 1
    page.unroute("**/hands/new/")
    page.goto(new_hand)  # the scorer comes back to the form: the queue sends it, same key
    for _ in range(100):  # the queue (IndexedDB) empties once the hand went
        if page.evaluate("() => TarotQueue.all().then((entries) => entries.length === 0)"):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the queue kept the hand")
    expect(page.locator("[data-queue-count]")).to_be_hidden()
    expect(page.locator("[data-offline]")).to_be_hidden()
    page.wait_for_timeout(300)
    assert sheet.hands.count() == 1


# ---------------------------------------------------------------- the printed sheet

#: A4 at 96 px per inch, less the 12 mm margins of the print stylesheet (app.css).
A4_WIDTH_PX = int((210 - 24) / 25.4 * 96)


def pdf_page_sizes(pdf: bytes):
    return [
        (float(w), float(h))
        for w, h in re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    ]


@pytest.mark.parametrize("name", ["sheet", "sheet_print", "sheet_blank"])
@pytest.mark.parametrize("seats", [4, 6])
def test_printing_a_sheet_shows_every_column(
    new_context, live_server, season, scorer, long_club, name, seats
):
    _, _, players = long_club
    sheet = open_sheet(season, players, scorer, seats)
    page = new_context(
        viewport={"width": A4_WIDTH_PX, "height": 1000}, is_mobile=False, has_touch=False
    ).new_page()
    page.goto(sheet_url(live_server, sheet, name))
    banner = page.get_by_role("banner", include_hidden=True)
    expect(banner).to_be_visible()
    page.emulate_media(media="print")
    expect(banner).to_be_hidden()  # no navigation on paper
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH_PX
    headers = page.locator("table thead th")
    assert headers.count() >= seats + 6
    for i in range(headers.count()):
        header = headers.nth(i)
        expect(header).to_be_visible()
        assert within(header.bounding_box(), A4_WIDTH_PX), header.inner_text()
    for player in LONG_NAMES[:seats]:
        head = page.locator(f'thead th[data-player="{player}"]')
        if name == "sheet":
            expect(head).to_contain_text(player)
        else:  # the feuille de marque: the phone sheet's short label, the name in its title
            expect(head.locator("abbr")).to_have_attribute("title", player)
    pdf = page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF")
    sizes = pdf_page_sizes(pdf)
    assert sizes and all(abs(w - 595) <= 1 and abs(h - 842) <= 1 for w, h in sizes)  # A4


def test_the_feuille_de_marque_has_what_the_paper_one_has(
    page, live_server, season, scorer, long_club
):
    _, _, players = long_club
    sheet = open_sheet(season, players, scorer, 5)
    page.goto(sheet_url(live_server, sheet, "sheet_print"))
    text = page.locator("main").inner_text()
    for words in (
        "Club de la Rive",
        "Table",
        "Rules",
        "Bérangère",
        "Check: the totals sum to zero.",
    ):
        assert words in text
    table = page.get_by_role("table")
    expect(table.locator("tbody tr")).to_have_count(5)
    signatures = page.get_by_role("list", name="Signatures").get_by_role("listitem")
    expect(signatures).to_have_count(6)  # five players and the scorer
    page.goto(sheet_url(live_server, sheet, "sheet_blank"))
    expect(table.locator("tbody tr")).to_have_count(24)
    expect(table.locator("tbody td:not(:empty)")).to_have_count(0)
