"""The pages every visitor meets: home, log in and out, language, password reset."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_home_page_renders_phone_first(page, live_server):
    page.goto(live_server.url + "/")

    expect(page).to_have_title("Tarot Ledger")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome to Tarot Ledger")
    expect(page.get_by_role("link", name="Tarot Ledger")).to_be_visible()
    # The stylesheet and the script load (served offline by the app itself).
    assert "system-ui" in page.evaluate("getComputedStyle(document.body).fontFamily")
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))
    # Nothing sticks out sideways on a 390px phone, and the top bar's controls are tappable.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for control in (
        page.get_by_role("link", name="Log in").first,
        page.get_by_role("button", name="Français"),
    ):
        assert control.bounding_box()["height"] >= 36


def test_log_in_with_the_form(page, live_server, user):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(live_server.url + "/")
    account = page.locator("[data-account]").get_by_role("link")
    expect(account).to_have_text("My account")  # never the username
    expect(account).to_have_attribute("href", "/accounts/profile/")
    expect(page.get_by_role("link", name="Change my password")).to_be_visible()


def test_wrong_password_shows_the_error_summary(page, live_server, user):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()

    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("Please fix the following")
    expect(summary).to_contain_text("Please enter a correct username and password")
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)


def test_log_out_from_my_account_on_a_phone(page, live_server, user, log_in):
    """On a phone the top bar keeps its room for the menu: log out from "My account"."""
    log_in(page, user)
    page.goto(live_server.url + "/")
    account = page.locator("[data-account]")
    expect(account.get_by_role("button", name="Log out", include_hidden=True)).to_be_hidden()
    account.get_by_role("link").click()
    expect(page).to_have_url(live_server.url + "/accounts/profile/")

    page.locator("main").get_by_role("button", name="Log out").click()

    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_role("button", name="Log out")).to_have_count(0)
    expect(account.get_by_role("link", name="Log in")).to_be_visible()


def test_log_out_from_the_top_bar_on_a_wide_screen(page, live_server, user, log_in):
    page.set_viewport_size({"width": 1024, "height": 768})
    log_in(page, user)
    page.goto(live_server.url + "/")

    page.locator("[data-account]").get_by_role("button", name="Log out").click()

    expect(page).to_have_url(live_server.url + "/")
    expect(page.locator("[data-account]").get_by_role("link", name="Log in")).to_be_visible()


def test_language_switcher_turns_the_page_french_and_back(page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_role("button", name="Français").click()

    expect(page).to_have_url(live_server.url + "/accounts/login/")  # stays on the page
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Se connecter")
    expect(page.get_by_role("button", name="Français")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("link", name="Mot de passe oublié\u202f?")).to_be_visible()

    page.get_by_role("link", name="Tarot Ledger").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bienvenue sur Tarot Ledger")

    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome to Tarot Ledger")


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_french_browser_gets_french(page, live_server):
    page.goto(live_server.url + "/")

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Bienvenue sur Tarot Ledger")
    expect(page.locator("[data-account]").get_by_role("link", name="Se connecter")).to_be_visible()
    expect(page.get_by_role("link", name="Accueil")).to_have_attribute("aria-current", "page")


def test_password_reset_mails_a_link_that_sets_a_new_password(page, live_server, user, mailoutbox):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_role("link", name="Forgotten your password?").click()
    page.get_by_label("Email").fill("alice@example.org")
    page.get_by_role("button", name="Send me the link").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["alice@example.org"]
    assert mail.subject.startswith("Reset your Tarot Ledger password on localhost")
    assert "Your username, in case you have forgotten it: alice" in mail.body
    link = re.search(r"http://\S+/accounts/reset/\S+/", mail.body).group(0)

    page.goto(link)
    page.get_by_label("New password", exact=True).fill("a-brand-new-passphrase-7")
    page.get_by_label("New password confirmation").fill("a-brand-new-passphrase-7")
    page.get_by_role("button", name="Save my new password").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Password saved")
    user.refresh_from_db()
    assert user.check_password("a-brand-new-passphrase-7")


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_password_reset_mail_is_french_for_a_french_browser(page, live_server, user, mailoutbox):
    page.goto(live_server.url + "/accounts/password_reset/")
    page.get_by_label("Courriel").fill("alice@example.org")
    page.get_by_role("button", name="M’envoyer le lien").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Consultez vos courriels")
    assert len(mailoutbox) == 1
    assert mailoutbox[0].subject.startswith("Réinitialisez votre mot de passe Tarot Ledger")
    assert "Bonjour alice," in mailoutbox[0].body


def test_change_password_from_my_account(page, live_server, user, log_in):
    log_in(page, user)
    page.goto(live_server.url + "/accounts/profile/")
    page.get_by_role("link", name="Change my password").click()
    expect(page).to_have_url(live_server.url + "/accounts/password_change/")

    page.locator("input[name=old_password]").fill("not it")
    page.locator("input[name=new_password1]").fill("a-new-pass-phrase-77")
    page.locator("input[name=new_password2]").fill("a-new-pass-phrase-77")
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_role("alert")).to_be_visible()  # the old password was wrong

    page.locator("input[name=old_password]").fill(PASSWORD)
    page.locator("input[name=new_password1]").fill("a-new-pass-phrase-77")
    page.locator("input[name=new_password2]").fill("a-new-pass-phrase-77")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(live_server.url + "/accounts/password_change/done/")
    user.refresh_from_db()
    assert user.check_password("a-new-pass-phrase-77")
