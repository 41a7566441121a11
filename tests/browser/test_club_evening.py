"""A club evening without a snag, in English and in French: near-duplicate
names asked about (sheet form and upload), the upload's refusals in the page's language
(the code only in a tooltip), the standings CSV with the language's decimal mark, the
unconfirmed login and the invitation's username, the light/dark/automatic switch and
the hand form's skip link, the engine's rule refusals in the new sheet's form and the
hand form worded in the page's language (no code, no identifier). The printed sheet:
test_printed_sheet.py."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from scoresheet import services
from scoresheet.models import Sheet
from tests.conftest import PASSWORD
from tests.data import SEED_HANDS

pytestmark = pytest.mark.browser

LOCALES = ["en-GB", "fr-FR"]
WORDS = {
    "en-GB": {
        "open": "Open the sheet",
        "asks": "“Helena” looks like a player of the club",
        "check": "Check the file",
        "refused": "refused",
        "unconfirmed": "not confirmed yet: open the link we mailed you",
        "resend": "Send the link again",
        "username": "Your username will be",
        "skip": "Skip to the hand form",
        "number": "34.4",
        "season_rules": "These rules are not valid (rounding).",
        "points_bouts": "With 0 bouts the attack has 0 to 79 points.",
    },
    "fr-FR": {
        "open": "Ouvrir la feuille",
        "asks": "«\u00a0Helena\u00a0» ressemble à un joueur du club",
        "check": "Vérifier le fichier",
        "refused": "refusée",
        "unconfirmed": "pas encore confirmé\u00a0: ouvrez le lien",
        "resend": "Renvoyer le lien",
        "username": "Votre identifiant sera",
        "skip": "Aller au formulaire de la donne",
        "number": "34,4",
        "season_rules": "Ces règles ne sont pas valables (arrondi).",
        "points_bouts": "Avec 0 bout, l’attaque a de 0 à 79 points.",
    },
}


@pytest.fixture
def club_manager(make_user, club):
    user = make_user("marie")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


@pytest.mark.parametrize("locale", LOCALES)
def test_the_sheet_form_asks_about_a_near_duplicate(
    new_context, live_server, log_in, scorer, players, season, club, locale
):
    Player.objects.create(club=club, name="Hélène")
    page = new_context(locale=locale).new_page()
    log_in(page, scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/new/")
    for seat, player in enumerate(players[:3], start=1):
        page.locator(f"#id_seat_{seat}").select_option(label=player.name)
    page.locator("#id_new_players").fill("Helena")
    page.get_by_role("button", name=WORDS[locale]["open"]).click()
    question = page.get_by_role(
        "group", name=re.compile(re.escape(WORDS[locale]["asks"]).replace("\u00a0", r"\s"))
    )
    expect(question).to_be_visible()
    question.get_by_role("radio", name="Hélène", exact=True).check()
    page.get_by_role("button", name=WORDS[locale]["open"]).click()
    expect(page.locator("[data-messages]")).to_be_visible()
    assert "Hélène" in [p.name for p in Sheet.objects.get().players.all()]
    assert not Player.objects.filter(name="Helena").exists()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_upload_asks_about_near_names_and_words_refusals_in_the_page_language(
    new_context, live_server, log_in, club_manager, season, club, locale
):
    for name in ("Anna", "Bert", "Carl", "Dora", "Hélène"):
        Player.objects.create(club=club, name=name)
    page = new_context(locale=locale).new_page()
    log_in(page, club_manager)
    good = {"players": ["Anna", "Bert", "Carl", "Helena"], "date": "2026-03-14", "table": "1"}
    hands = json.loads(json.dumps(SEED_HANDS[:2]).replace('"Dora"', '"Helena"'))
    sheets = [dict(good, hands=hands), dict(good, table="2", hands=[dict(hands[0], bouts=4)])]
    text = "\n".join(json.dumps(s) for s in sheets) + "\n"
    page.goto(f"{live_server.url}/clubs/rive/manage/data/")
    page.locator("#id_file").set_input_files(
        files=[{"name": "march.jsonl", "mimeType": "application/jsonl", "buffer": text.encode()}]
    )
    page.get_by_role("button", name=WORDS[locale]["check"]).click()
    refusal = page.locator('#upload-lines tr[data-outcome="refused"] [data-code]')
    expect(refusal).to_have_attribute("title", "bouts_out_of_range")
    expect(refusal).to_contain_text(WORDS[locale]["refused"])
    assert "bouts_out_of_range" not in refusal.inner_text() and "_" not in refusal.inner_text()
    question = page.locator('fieldset[data-near="Helena"]')
    expect(question).to_contain_text(WORDS[locale]["asks"])
    question.locator("input[type=radio]").first.check()  # Hélène, already in the club
    page.locator("#import-form button[type=submit]").click()
    expect(page.locator("#upload-summary")).to_be_visible()
    sheet = Sheet.objects.get()
    assert sorted(p.name for p in sheet.players.all()) == ["Anna", "Bert", "Carl", "Hélène"]
    assert not Player.objects.filter(name="Helena").exists()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_standings_csv_has_the_language_decimal_mark(
    new_context, live_server, make_sheet, season, scorer, locale
):
    sheet = make_sheet()
    for hand in SEED_HANDS:
        services.record_hand(sheet, hand, actor=scorer)
    page = new_context(locale=locale).new_page()
    page.goto(f"{live_server.url}{reverse('standings:season', args=['rive', season.pk])}")
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    separator = ";" if locale == "fr-FR" else ","
    header, first = (line.split(separator) for line in text.splitlines()[:2])
    average = header.index("Moyenne" if locale == "fr-FR" else "Average")
    assert first[average] == WORDS[locale]["number"]


@pytest.mark.parametrize("locale", LOCALES)
def test_an_unconfirmed_login_is_told_what_to_do(
    new_context, live_server, settings, mailoutbox, locale
):
    settings.ALLOW_SIGNUP = True
    page = new_context(locale=locale).new_page()
    page.goto(live_server.url + reverse("signup"))
    page.locator("#id_username").fill("nina")
    page.locator("#id_email").fill("nina@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#signup-sent")).to_be_visible()
    page.goto(live_server.url + reverse("login"))
    page.locator("#id_username").fill("nina")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("main")).to_contain_text(WORDS[locale]["unconfirmed"])
    page.get_by_role("link", name=WORDS[locale]["resend"]).click()
    page.locator("#id_email").fill("nina@example.org")
    page.get_by_role("button", name=WORDS[locale]["resend"]).click()
    expect(page.locator("#signup-sent")).to_contain_text("nina@example.org")
    assert len(mailoutbox) == 2 and mailoutbox[1].to == ["nina@example.org"]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_invitation_shows_its_username(
    new_context, live_server, log_in, club_manager, club, mailoutbox, locale
):
    from django.test import Client

    client = Client()
    client.force_login(club_manager)
    client.post(
        reverse("manage:members", args=["rive"]), {"email": "dora@example.org", "role": "member"}
    )
    link = re.search(r"http://testserver(/invitations/\S+/)", mailoutbox[0].body).group(1)
    page = new_context(locale=locale).new_page()
    page.goto(live_server.url + link)
    expect(page.locator("#new-username")).to_contain_text(WORDS[locale]["username"])
    expect(page.locator("#new-username strong")).to_have_text("dora")


BACKGROUND = "getComputedStyle(document.body).backgroundColor"
#: Records <html data-theme> when the parser adds <body> (before the first paint).
AT_BODY = """new MutationObserver((changes, observer) => {
    if (document.body) {
        window.themeAtBody = document.documentElement.getAttribute("data-theme");
        observer.disconnect();
    }
}).observe(document, {childList: true, subtree: true});"""


@pytest.mark.parametrize("locale", LOCALES)
def test_the_theme_switch_is_remembered_without_a_flash(new_context, live_server, locale):
    context = new_context(locale=locale, color_scheme="light")
    page = context.new_page()
    page.goto(live_server.url + "/")
    light = page.evaluate(BACKGROUND)
    switch = page.locator("#theme-choice")
    expect(switch).to_be_visible()
    expect(switch).to_have_value("auto")
    switch.select_option("dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    dark = page.evaluate(BACKGROUND)
    assert dark != light
    # remembered: another page has it before its first paint: set by a script in <head>,
    # it is there when the parser reaches <body>, before anything is drawn
    page.add_init_script(AT_BODY)
    page.goto(live_server.url + reverse("login"))
    assert page.evaluate("window.themeAtBody") == "dark"
    assert page.evaluate(BACKGROUND) == dark
    expect(page.locator("#theme-choice")).to_have_value("dark")
    # automatic: the system's again; the forced light wins over a dark system
    page.locator("#theme-choice").select_option("auto")
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(BACKGROUND) == dark
    page.locator("#theme-choice").select_option("light")
    assert page.evaluate(BACKGROUND) == light
    page.reload()
    assert page.evaluate(BACKGROUND) == light


@pytest.mark.parametrize("locale", LOCALES)
def test_the_skip_link_reaches_the_taker_in_one_tab(
    new_context, live_server, log_in, scorer, make_sheet, locale
):
    sheet = make_sheet()
    page = new_context(locale=locale, is_mobile=False, has_touch=False).new_page()
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == WORDS[locale]["skip"]
    page.keyboard.press("Enter")
    expect(page.locator("#id_taker_0")).to_be_focused()


def no_code_in(text):
    assert (
        "_" not in text
        and "rules_invalid" not in text
        and "rounding" not in text.replace("(rounding)", "")
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_a_rule_refusal_on_the_sheet_form_is_in_the_page_language(
    new_context, live_server, log_in, scorer, players, season, locale
):
    """The season's stored rules the engine no longer reads (a rounding of 3): the new
    sheet is refused on the season, worded from the engine's code in the page's language."""
    type(season).objects.filter(pk=season.pk).update(rules={"preset": "fft", "rounding": 3})
    page = new_context(locale=locale).new_page()
    log_in(page, scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/new/")
    for seat, player in enumerate(players[:4], start=1):
        page.locator(f"#id_seat_{seat}").select_option(label=player.name)
    page.get_by_role("button", name=WORDS[locale]["open"]).click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_contain_text(WORDS[locale]["season_rules"])
    error = page.locator("#id_season").locator("xpath=ancestor::div[contains(@class,'field')][1]")
    expect(error).to_contain_text(WORDS[locale]["season_rules"])
    no_code_in(summary.inner_text())
    assert not Sheet.objects.exists()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_rule_refusal_on_the_hand_form_is_in_the_page_language(
    new_context, live_server, log_in, scorer, make_sheet, locale
):
    """No bout and 80 points: the live preview and the saved form say it in the page's
    language, never the engine's code."""
    sheet = make_sheet()
    page = new_context(locale=locale).new_page()
    log_in(page, scorer)
    page.goto(live_server.url + reverse("scoresheet:hand_create", args=["rive", sheet.pk]))
    for field, text in (("taker", "Anna"), ("contract", "garde"), ("bouts", "0")):
        exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
        page.locator(f"#id_{field} label").filter(has_text=exact).click()
    page.locator("#id_points").fill("80")
    expect(page.locator("#hand-preview")).to_contain_text(WORDS[locale]["points_bouts"])
    page.locator("button[name=action][value=save]").click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_contain_text(WORDS[locale]["points_bouts"])
    expect(page.locator("[data-field=points]")).to_contain_text(WORDS[locale]["points_bouts"])
    text = summary.inner_text() + page.locator("#hand-preview").inner_text()
    assert "points_bouts_inconsistent" not in text and "_" not in text
    assert not sheet.hands.exists()
