"""The table terminal: a whole evening with no network.

A phone opens a sheet (the service worker installs and keeps the sheet and the hand
form), the network goes (Playwright's offline mode), eight hands of every kind are
entered (the preview works them out in the page), the page is reloaded still offline
(it comes from the service worker) and shows the eight hands waiting; the network comes
back: the eight are stored once each, in order, with the engine's scores. A hand the
server refuses stays in the queue with the server's reason, to fix or discard.
"""

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoresheet import services
from scoresheet.models import Hand, ScoreRow
from tarot import score_hand
from tarot.jsonformat import parse_hand
from tests.browser.conftest import TIMEOUT_MS

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bert", "Carl", "Dora"]

#: Eight hands, one of each kind: (what the scorer taps, the hand in the JSON format).
HANDS = [
    (
        {"taker": "Anna", "contract": "prise", "bouts": "1", "points": "51"},
        {"taker": "Anna", "contract": "prise", "bouts": 1, "points": 51},
    ),
    (
        {"taker": "Bert", "contract": "garde", "bouts": "2", "points": "40"},
        {"taker": "Bert", "contract": "garde", "bouts": 2, "points": 40},
    ),
    (
        {"taker": "Carl", "contract": "garde sans", "bouts": "3", "points": "60", "pab": "Attack"},
        {
            "taker": "Carl",
            "contract": "garde_sans",
            "bouts": 3,
            "points": 60,
            "petit_au_bout": "attack",
        },
    ),
    (
        {"taker": "Dora", "contract": "garde contre", "bouts": "0", "points": "30"}
        | {"pab": "Defence"},
        {
            "taker": "Dora",
            "contract": "garde_contre",
            "bouts": 0,
            "points": 30,
            "petit_au_bout": "defence",
        },
    ),
    ({"taker": "Everybody passed"}, {"taker": None}),
    (
        {"taker": "Anna", "contract": "garde", "bouts": "2", "points": "45,5", "poignee": 0},
        {
            "taker": "Anna",
            "contract": "garde",
            "bouts": 2,
            "points": Decimal("45.5"),
            "poignees": [{"player": "Anna", "size": "single"}],
        },
    ),
    (
        {"taker": "Bert", "contract": "garde", "bouts": "3", "points": "91", "chelem": True},
        {
            "taker": "Bert",
            "contract": "garde",
            "bouts": 3,
            "points": 91,
            "chelem": {"announced": True, "made_by": "attack"},
        },
    ),
    (
        {"taker": "Carl", "contract": "garde", "bouts": "2", "points": "35", "defence": True},
        {"taker": "Carl", "contract": "garde", "bouts": 2, "points": 56},
    ),
]


def tap_choice(page, field, text):
    exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
    page.locator(f"#id_{field} label").filter(has_text=exact).tap()


def expected_halves(data):
    rules, hand = parse_hand({"rules": {"preset": "fft"}, "players": NAMES, **data})
    return list(score_hand(rules, hand).halves)


def signed(halves):
    value = Decimal(halves) / 2
    text = f"{abs(value):f}".rstrip("0").rstrip(".") if value % 1 else str(abs(int(value)))
    return ("+" if value > 0 else "−" if value < 0 else "") + text


#: How long the page's own signals may take on a loaded machine (the worker's install
#: and its copies, a pass of the queue): waited on as events, never slept through.
SIGNAL_MS = 30_000


@pytest.fixture(autouse=True)
def patient_expect():
    """The page's queue works through IndexedDB, its worker and the network: on a loaded
    machine a step can take longer than expect's 5 s; each still waits for its result."""
    expect.set_options(timeout=SIGNAL_MS)
    yield
    expect.set_options(timeout=TIMEOUT_MS)  # the suite's (tests/browser/conftest.py)


#: Settles once <html>'s data attributes (offline.js) hold ``equal`` and
#: data-queue-passes is above ``above``, watched with a MutationObserver (an async
#: ``page.evaluate`` waits for it; ``wait_for_function`` polls a string through eval,
#: which the CSP refuses); rejects after ``ms``.
WATCH = """([equal, above, ms]) => new Promise((resolve, reject) => {
    const root = document.documentElement;
    const ok = () =>
        Object.keys(equal).every((name) => root.dataset[name] === equal[name]) &&
        Number(root.dataset.queuePasses || "0") > above;
    const observer = new MutationObserver(check);
    const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error("still " + JSON.stringify(root.dataset) + " after " + ms + " ms"));
    }, ms);
    function check() {
        if (!ok()) return false;
        observer.disconnect();
        clearTimeout(timer);
        resolve(true);
        return true;
    }
    if (!check()) observer.observe(root, { attributes: true });
})"""


def watch(page, equal, above=-1, ms=SIGNAL_MS):
    page.evaluate(WATCH, [equal, above, ms])


KEPT = """(url) => caches.open("tarot-ledger-pages")
    .then((cache) => cache.match(url)).then((kept) => !!kept)"""


def works_offline(page, *urls):
    """The page says it works with no network: the service worker controls it and keeps
    a copy of it and of the pages it leads to (offline.js: <html data-works-offline="ready">,
    set once the worker answered that the copies are stored)."""
    expect(page.locator("html")).to_have_attribute("data-works-offline", "ready", timeout=SIGNAL_MS)
    assert page.evaluate("() => !!navigator.serviceWorker.controller")
    for url in urls:
        assert page.evaluate(KEPT, url), f"no copy of {url}"


def passes(page):
    """How many passes of the queue this page has ended (offline.js)."""
    return int(page.evaluate("() => document.documentElement.dataset.queuePasses || '0'"))


def pass_ended(page, after):
    """A pass of the queue begun after ``after`` ended ones has ended, and none runs."""
    watch(page, {"queue": "idle"}, after)


def queue_empty(page):
    """Every hand of the queue is sent and stored (their entries go once the server
    said saved), and no pass runs."""
    expect(page.locator("[data-queue-count]")).to_be_hidden(timeout=SIGNAL_MS)
    watch(page, {"queue": "idle"})
    assert queue_size(page) == 0


def enter(page, taps):
    tap_choice(page, "taker", taps["taker"])
    if taps["taker"] == "Everybody passed":
        return
    tap_choice(page, "contract", taps["contract"])
    tap_choice(page, "bouts", taps["bouts"])
    if taps.get("defence"):
        tap_choice(page, "points_side", "Defence")
    page.locator("#id_points").fill(taps["points"])
    if "pab" in taps:
        tap_choice(page, "petit_au_bout", taps["pab"])
    if "poignee" in taps or "chelem" in taps:
        page.locator("[data-extras] summary").tap()
    if "poignee" in taps:
        page.locator(f"#id_poignee_{taps['poignee']}").select_option("single")
    if taps.get("chelem"):
        page.locator("#id_chelem").select_option("announced_made")


def _cut(route):
    if route.request.method == "POST":
        route.abort("internetdisconnected")
    else:
        route.fallback()


def offline(context, cut=True):
    """No network: Playwright's offline mode, and the posts refused at the route too (a
    service worker restarted under load can let a post through before the offline mode
    reaches it: the hand is stored, its answer lost; the test wants a clean cut)."""
    if cut:
        context.set_offline(True)
        context.route("**/*", _cut)
    else:  # the route first: the "online" event sends the queue at once
        context.unroute("**/*", _cut)
        context.set_offline(False)


def queue_size(page):
    return page.evaluate("TarotQueue.all().then((entries) => entries.length)")


def test_an_evening_with_no_network(page, live_server, log_in, make_sheet, scorer):
    sheet = make_sheet(4)
    log_in(page, scorer)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    page.goto(sheet_url)
    works_offline(page, sheet_url, form_url)

    offline(page.context)
    for number, (taps, data) in enumerate(HANDS, start=1):
        page.goto(sheet_url)  # from the service worker: no network
        page.get_by_role("link", name="Enter a hand").tap()
        page.wait_for_url(form_url)
        enter(page, taps)
        halves = expected_halves(data)
        # the preview, worked out in the page
        preview = page.locator("#hand-preview")
        expect(preview.locator("[data-offline-preview]")).to_have_attribute(
            "data-offline-preview", "scored"
        )
        for name, half in zip(NAMES, halves):
            expect(preview.locator(f'[data-player="{name}"]')).to_have_text(signed(half))
        page.get_by_role("button", name="Save", exact=True).tap()
        expect(page.locator("[data-offline]")).to_be_visible()
        expect(page.locator("[data-queue-count]")).to_have_text(f"Waiting to be sent: {number}")
        # a second tap on the same form: the same hand, queued once (the tap's pass of
        # the queue ends, offline, with the hand still there once)
        before = passes(page)
        page.get_by_role("button", name="Save", exact=True).tap()
        pass_ended(page, before)
        assert queue_size(page) == number
    assert Hand.objects.filter(sheet=sheet).count() == 0

    page.goto(sheet_url)
    page.reload()  # still offline: the service worker answers
    waiting = page.locator("[data-queue-sheet] [data-queue-state='waiting']")
    expect(waiting).to_have_count(8)
    expect(waiting.first).to_have_text("waiting to be sent")
    expect(page.locator("[data-queue-count]")).to_have_text("Waiting to be sent: 8")
    assert Hand.objects.filter(sheet=sheet).count() == 0

    offline(page.context, False)  # the "online" event: the queue goes, in order
    queue_empty(page)
    expect(page.locator("[data-queue-count]")).to_be_hidden()
    expect(page.locator("[data-queue-sheet]")).to_be_hidden()
    stored = list(Hand.objects.filter(sheet=sheet).order_by("number"))
    assert [hand.number for hand in stored] == list(range(1, 9))
    for hand, (_, data) in zip(stored, HANDS):
        rows = ScoreRow.objects.filter(hand=hand).order_by("position")
        assert [int(row.score * 2) for row in rows] == expected_halves(data), hand.number
        assert services.hand_data(hand, services.Table.of(sheet))["taker"] == data["taker"]


def test_a_refused_hand_stays_with_the_reason(
    page, live_server, log_in, make_sheet, scorer, manager
):
    sheet = make_sheet(4)
    log_in(page, scorer)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    page.goto(sheet_url)
    works_offline(page, sheet_url, form_url)
    offline(page.context)
    page.get_by_role("link", name="Enter a hand").tap()
    enter(page, HANDS[1][0])
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("[data-offline]")).to_be_visible()
    # meanwhile the sheet is closed: the server refuses the hand
    services.close_sheet(sheet, actor=scorer)
    page.goto(sheet_url)
    offline(page.context, False)  # the "online" event: a pass, even if one is running
    refused = page.locator("[data-queue-sheet] [data-queue-state='refused']")
    expect(refused).to_contain_text("refused by the server:")
    expect(refused).to_contain_text("closed")
    expect(page.locator("[data-queue-count]")).to_have_text("Refused: 1")
    assert Hand.objects.filter(sheet=sheet).count() == 0
    # still there after a reload and its pass of the queue: never dropped silently
    page.reload()
    pass_ended(page, 0)
    expect(refused).to_have_count(1)
    assert queue_size(page) == 1

    # reopened: Fix brings the hand back into the form, Save stores it
    services.reopen_sheet(sheet, actor=manager)
    page.locator("[data-queue-sheet]").get_by_role("link", name="Fix").tap()
    expect(page.locator("#id_points")).to_have_value("40")
    page.get_by_role("button", name="Save", exact=True).tap()
    page.wait_for_url(re.compile(r"/sheets/\d+/#hand-1$"))
    assert Hand.objects.filter(sheet=sheet).count() == 1
    assert queue_size(page) == 0

    # discarding one: asked first, then gone, and never sent
    works_offline(page, sheet_url, form_url)
    offline(page.context)
    page.get_by_role("link", name="Enter a hand").tap()
    enter(page, HANDS[0][0])
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("[data-offline]")).to_be_visible()
    page.goto(sheet_url)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-queue-sheet]").get_by_role("button", name="Discard").tap()
    expect(page.locator("[data-queue-sheet]")).to_be_hidden()
    assert queue_size(page) == 0
    before = passes(page)
    offline(page.context, False)
    pass_ended(page, before)  # the "online" event's pass: nothing left to send
    assert Hand.objects.filter(sheet=sheet).count() == 1


def test_the_app_is_installable(page, live_server):
    page.goto(live_server.url + "/")
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    data = page.evaluate("(url) => fetch(url).then((r) => r.json())", manifest)
    assert data["start_url"] == "/" and data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        status = page.evaluate("(url) => fetch(url).then((r) => r.status)", icon["src"])
        assert status == 200
    works_offline(page)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == live_server.url + "/"


# ---------------------------------------------------------------- every kind of Save queues


def revisions(hand):
    return list(hand.revisions.order_by("at", "id").values_list("action", flat=True))


def test_savoyard_hands_and_a_correction_with_no_network(
    page, live_server, log_in, make_sheet, scorer
):
    """The Savoyard form and a correction queue as the French Tarot form does: with
    their keys, shown waiting on the sheet, sent in order, each stored once."""
    sheet = make_sheet(5, rules="savoyard")
    log_in(page, scorer)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    page.goto(sheet_url)
    works_offline(page, sheet_url, form_url)

    offline(page.context)
    games = [
        ("Call a king", {"partner": "Dora"}, "40"),
        ("Solo", {"declarer": "Carl", "cards_asked": "As dealt"}, "52"),
    ]
    for number, (mode, taps, count) in enumerate(games, start=1):
        page.goto(sheet_url)  # from the service worker
        page.get_by_role("link", name="Enter a hand").tap()
        page.wait_for_url(form_url)
        tap_choice(page, "mode", mode)
        for field, text in taps.items():
            tap_choice(page, field, text)
        page.locator("#id_count").fill(count)
        expect(page.locator("[data-offline-preview]")).to_have_attribute(
            "data-offline-preview", "on-save"
        )
        save = page.get_by_role("button", name="Save", exact=True)
        save.tap()
        expect(page.locator("[data-offline]")).to_be_visible()
        expect(page.locator("[data-queue-count]")).to_have_text(f"Waiting to be sent: {number}")
        before = passes(page)
        save.tap()  # a second tap: the same hand, queued once
        pass_ended(page, before)
        assert queue_size(page) == number
    page.goto(sheet_url)
    page.reload()  # offline: the worker's copy, with the hands waiting
    waiting = page.locator("[data-queue-sheet] [data-queue-state='waiting']")
    expect(waiting).to_have_count(2)
    expect(page.locator("[data-queue-sheet] [data-queue-entry-label]").first).to_contain_text(
        "Call a king"
    )
    assert sheet.hands.count() == 0

    offline(page.context, False)
    queue_empty(page)
    stored = list(sheet.hands.order_by("number"))
    table = services.Table.of(sheet)
    data = [services.hand_data(hand, table) for hand in stored]
    assert [(d["mode"], d["count"]) for d in data] == [("call", 40), ("solo", 52)]
    assert data[0]["partner"] == "Dora" and data[1]["declarer"] == "Carl"
    for hand in stored:
        assert revisions(hand) == ["created"]
        assert sum(ScoreRow.objects.filter(hand=hand).values_list("score", flat=True)) == 0

    # a correction saved with no network: queued with its key, then stored once
    edit_url = live_server.url + reverse("scoresheet:hand_edit", args=["rive", sheet.pk, 1])
    page.goto(edit_url)
    works_offline(page, edit_url)
    offline(page.context)
    page.locator("#id_count").fill("44")
    save = page.get_by_role("button", name="Save the correction")
    save.tap()
    expect(page.locator("[data-offline]")).to_be_visible()
    before = passes(page)
    save.tap()
    pass_ended(page, before)
    assert queue_size(page) == 1
    page.goto(sheet_url)
    expect(page.locator("[data-queue-sheet] [data-queue-entry-label]")).to_contain_text(
        "Correction of hand 1"
    )
    assert services.hand_data(sheet.hands.get(number=1), table)["count"] == 40

    offline(page.context, False)
    queue_empty(page)
    first = sheet.hands.get(number=1)
    assert services.hand_data(first, table)["count"] == 44
    assert revisions(first) == ["created", "corrected"]


def test_the_mouches_preview_and_a_correction_with_no_network(
    page, live_server, log_in, make_sheet, scorer
):
    """Mouches offline: the page scores each hand with the pools before it (the server's,
    then those the hands waiting in the queue leave), as the engine does; a correction
    of an earlier hand goes after them, and the server re-scores the hands after it."""
    from tarot import Sheet, score_sheet

    sheet = make_sheet(4, rules="mouches")
    rules = sheet.ruleset
    first = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 60}
    services.record_hand(sheet, first, actor=scorer)
    log_in(page, scorer)
    sheet_url = live_server.url + reverse("scoresheet:sheet", args=["rive", sheet.pk])
    form_url = live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    edit_url = live_server.url + reverse("scoresheet:hand_edit", args=["rive", sheet.pk, 1])
    page.goto(edit_url)  # kept by the worker, to correct later with no network
    works_offline(page, edit_url)
    page.goto(sheet_url)
    works_offline(page, sheet_url, form_url, edit_url)

    def expected(hands):
        parsed = tuple(parse_hand(h, rules, tuple(NAMES))[1] for h in hands)
        return score_sheet(Sheet(rules=rules, players=tuple(NAMES), hands=parsed)).hands

    def previewed(halves):
        preview = page.locator("#hand-preview")
        expect(preview.locator("[data-offline-preview]")).to_have_attribute(
            "data-offline-preview", "scored"
        )
        for name, half in zip(NAMES, halves):
            expect(preview.locator(f'[data-player="{name}"]')).to_have_text(signed(half))

    offline(page.context)
    entered = [first]
    for taps in (HANDS[1][0], HANDS[0][0]):  # Bert fails a garde, then Anna makes a prise
        page.goto(sheet_url)
        page.get_by_role("link", name="Enter a hand").tap()
        page.wait_for_url(form_url)
        dealer = page.locator('[data-show="dealer"]').inner_text()
        enter(page, taps)
        hand = {"dealer": dealer, "taker": taps["taker"], "contract": taps["contract"]}
        hand |= {"bouts": int(taps["bouts"]), "points": int(taps["points"])}
        entered.append(hand)
        previewed(expected(entered)[-1].halves)
        page.get_by_role("button", name="Save", exact=True).tap()
        expect(page.locator("[data-offline]")).to_be_visible()
    # hand 1 corrected: Anna fails (the pools before it: none)
    page.goto(edit_url)
    page.locator("#id_points").fill("30")
    corrected = [first | {"points": 30}, *entered[1:]]
    previewed(expected(corrected)[0].halves)
    page.get_by_role("button", name="Save the correction").tap()
    expect(page.locator("[data-offline]")).to_be_visible()
    assert queue_size(page) == 3

    offline(page.context, False)
    queue_empty(page)
    stored = list(sheet.hands.order_by("number"))
    assert [h.number for h in stored] == [1, 2, 3]
    for hand, result in zip(stored, expected(corrected)):
        rows = ScoreRow.objects.filter(hand=hand).order_by("position")
        assert [int(row.score * 2) for row in rows] == list(result.halves), hand.number
        assert list(hand.pools) == list(result.pools), hand.number
    assert revisions(stored[0]) == ["created", "corrected"]


# ---------------------------------------------------------------- a tournament table


@pytest.fixture
def table_day(django_user_model, club):
    """Eight members, one round of eight deals a table (two tables of four), started."""
    import datetime

    from clubs.models import Membership, Player, Role
    from tournaments import services as tournament_services

    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Player {i}") for i in range(1, 9)]
    t = tournament_services.create_tournament(
        club,
        name="Open",
        date=datetime.date(2026, 5, 9),
        rules="fft",
        rounds=1,
        deals_per_round=8,
        seed=5,
    )
    tournament_services.register(t, [("member", p) for p in players])
    rnd = t.round_set.get()
    tournament_services.draw_round(rnd)
    tournament_services.start_round(rnd)
    return rnd, organiser, rnd.tables.select_related("sheet").order_by("number").first()


def enter_deal(page, names, taker, contract, bouts, points):
    tap_choice(page, "taker", names[taker])
    tap_choice(page, "contract", contract)
    tap_choice(page, "bouts", bouts)
    page.locator("#id_points").fill(points)


def test_a_tournament_table_with_no_network_and_a_second_phone(
    new_context, live_server, log_in, table_day
):
    from tournaments import tokens

    rnd, organiser, table = table_day
    names = [s.player.name for s in table.sheet.seats.select_related("player").order_by("position")]
    link = live_server.url + tokens.url(table)
    form = link + "deals/new/"
    phone = new_context().new_page()
    phone.goto(link)
    works_offline(phone, link, form)

    # no network: two deals entered, the page reloaded from the service worker
    offline(phone.context)
    deals = [(1, "garde", "2", "56"), (2, "prise", "1", "40")]
    for taker, contract, bouts, points in deals:
        phone.goto(link)
        phone.locator("a[data-main-action]").tap()
        phone.wait_for_url(form)
        enter_deal(phone, names, taker, contract, bouts, points)
        expect(phone.locator("[data-offline-preview]")).to_have_attribute(
            "data-offline-preview", "scored"
        )
        phone.get_by_role("button", name="Save", exact=True).tap()
        expect(phone.locator("[data-offline]")).to_be_visible()
    phone.goto(link)
    phone.reload()
    expect(phone.locator("[data-queue-sheet] [data-queue-state='waiting']")).to_have_count(2)
    assert table.sheet.hands.count() == 0
    offline(phone.context, False)
    queue_empty(phone)
    stored = list(table.sheet.hands.order_by("number"))
    assert [h.number for h in stored] == [1, 2]
    for hand, (taker, contract, bouts, points) in zip(stored, deals):
        data = {"taker": names[taker], "contract": contract, "bouts": int(bouts)}
        data["points"] = int(points)
        rules, parsed = parse_hand({"rules": {"preset": "fft"}, "players": names, **data})
        rows = ScoreRow.objects.filter(hand=hand).order_by("position")
        assert [int(r.score * 2) for r in rows] == list(score_hand(rules, parsed).halves)

    # the organiser sees the table's phone (heard of at each page) and the code
    phone.reload()
    works_offline(phone, link, form)
    organiser_page = new_context().new_page()
    log_in(organiser_page, organiser)
    organiser_page.goto(
        live_server.url + reverse("tournaments:round", args=["rive", rnd.tournament_id, rnd.number])
    )
    row = organiser_page.locator(f'[data-device-table="{table.number}"]')
    expect(row).to_have_attribute("data-device-state", "online")
    code = organiser_page.locator("[data-takeover-code]").inner_text()

    # a deal entered offline on the first phone, while a second phone takes over
    offline(phone.context)
    phone.goto(link)
    phone.locator("a[data-main-action]").tap()
    enter_deal(phone, names, 3, "garde", "3", "70")
    phone.get_by_role("button", name="Save", exact=True).tap()
    expect(phone.locator("[data-offline]")).to_be_visible()

    second = new_context().new_page()
    second.goto(link)
    expect(second.locator("[data-table-held]")).to_be_visible()
    expect(second.locator("a[data-main-action]")).to_have_count(0)
    second.get_by_label("Organiser's code").fill("999999" if code != "999999" else "111111")
    second.get_by_role("button", name="Take over").tap()
    expect(second.locator("[data-messages]")).to_contain_text("not the organiser's code")
    expect(second.locator("[data-table-held]")).to_be_visible()
    second.get_by_label("Organiser's code").fill(code)
    second.get_by_role("button", name="Take over").tap()
    expect(second.locator("[data-table-held]")).to_have_count(0)
    second.locator("a[data-main-action]").tap()
    enter_deal(second, names, 0, "garde", "2", "60")
    second.get_by_role("button", name="Save", exact=True).tap()
    second.wait_for_url(re.compile(r"#deal-3$"))
    assert table.sheet.hands.count() == 3

    # the first phone's network comes back: its deal is refused, kept, with the reason
    # (sent by the form's page on the "online" event, or by the table's page as it opens)
    offline(phone.context, False)
    phone.goto(link)
    refused = phone.locator("[data-queue-sheet] [data-queue-state='refused']")
    expect(refused).to_contain_text("Another phone enters this table")
    expect(phone.locator("[data-queue-count]")).to_have_text("Refused: 1")
    assert table.sheet.hands.count() == 3


# ---------------------------------------------------------------- a phone form that fits

#: Nine typical hands: (seats, taps), as a scorer enters them, top to bottom.
TYPICAL = [
    (seats, taps)
    for seats in (3, 4, 5)
    for taps in (
        {"taker": "Anna", "contract": "garde", "bouts": "2", "points": "56"},
        {"taker": "Bert", "contract": "prise", "bouts": "1", "points": "48", "pab": "Defence"},
        {"taker": "Carl", "contract": "garde sans", "bouts": "3", "points": "40"},
    )
]


def test_the_preview_and_save_are_in_view_for_a_typical_hand(
    new_context, live_server, log_in, make_sheet, scorer
):
    """390×844: after the last tap of a typical hand, the scores and Save are on the
    screen without the scorer scrolling (the page brings them into view once)."""
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(page, scorer)
    sheets = {seats: make_sheet(seats) for seats in (3, 4, 5)}
    in_view = 0
    for seats, taps in TYPICAL:
        url = reverse("scoresheet:hand_create", args=["rive", sheets[seats].pk])
        page.goto(live_server.url + url)
        tap_choice(page, "taker", taps["taker"])
        tap_choice(page, "contract", taps["contract"])
        if seats == 5:
            tap_choice(page, "partner", "Dora")
        tap_choice(page, "bouts", taps["bouts"])
        page.locator("#id_points").fill(taps["points"])
        if "pab" in taps:
            tap_choice(page, "petit_au_bout", taps["pab"])
        scores = page.locator("#hand-preview").get_by_role("list")
        expect(scores).to_be_visible()
        save = page.get_by_role("button", name="Save", exact=True)
        try:
            expect(scores).to_be_in_viewport(ratio=1, timeout=2_000)
            expect(save).to_be_in_viewport(ratio=1, timeout=2_000)
        except AssertionError:
            continue
        in_view += 1
    assert in_view == len(TYPICAL), f"{in_view} of {len(TYPICAL)} hands"


#: In the page: a hand queued, a pass sending it held on the way, the hand edited (same
#: key) meanwhile, then the server refuses the first version: what is sent, what is left.
EDIT_DURING_A_SEND = """async () => {
  const answer = (status, body) => new Response(JSON.stringify(body), {
    status: status, headers: {"Content-Type": "application/json"},
  });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const sent = [];
  window.fetch = (url, options) => {
    sent.push(options.body.get("points"));
    if (sent.length === 1) return held.then(() => answer(422, {errors: ["Not yet"]}));
    return Promise.resolve(answer(200, {url: "/saved/"}));
  };
  const later = () => new Promise((resolve) => setTimeout(resolve, 300));
  await TarotQueue.idle();
  const entry = {key: "edit-during-a-send", action: "/nowhere/", csrf: "", sheet: "/s/",
                 form: "/f/", label: "Hand 1", fields: [["points", "41"]]};
  await TarotQueue.add(entry);
  const pass = TarotQueue.flush();
  await later();  // the first version on its way
  const edited = TarotQueue.add({...entry, fields: [["points", "51"]]});
  await later();
  release();
  await pass;
  await edited;
  await TarotQueue.flush();
  await TarotQueue.idle();
  return {sent: sent, left: (await TarotQueue.all()).map((e) => [e.status, e.fields])};
}"""


def test_a_hand_edited_while_its_older_version_is_sent_is_not_lost(page, live_server):
    """The queue's writes wait for the pass on its way (the Web Lock the sender holds):
    an edit saved meanwhile was overwritten by the older version's refusal (or deleted
    with it once saved); now it is written after the answer and sent in its turn."""
    page.goto(live_server.url + "/")
    outcome = page.evaluate(EDIT_DURING_A_SEND)
    assert outcome == {"sent": ["41", "51"], "left": []}
