"""A scorer on a phone makes an API token on My account, copies it, uses it, revokes it;
the API's documentation page renders from the site's own files (no CSP violation)."""

import re

import pytest
import requests
from playwright.sync_api import expect

from clubs.models import ApiToken

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_token_made_used_and_revoked(page, live_server, log_in, scorer, club, seeded):
    log_in(page, scorer)
    page.goto(live_server.url + "/accounts/profile/")
    form = page.locator("#token-form")
    form.get_by_label("Name").fill("club website")
    form.get_by_label("read and write").check()
    form.get_by_role("button", name="Make a token").click()
    expect(page.locator("#new-token")).to_contain_text("shown only this once")
    text = page.locator("#new-token-text").inner_text().strip()
    assert text.startswith("tl_")

    url = f"{live_server.url}/api/v1/clubs/rive/sheets/{seeded.pk}/hands"
    hand = {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 50}
    bearer = {"Authorization": f"Bearer {text}"}
    assert requests.post(url, json=hand, headers=bearer, timeout=30).status_code == 201

    page.goto(live_server.url + "/accounts/profile/")
    expect(page.locator("#new-token")).to_have_count(0)  # shown once
    item = page.locator("#token-list li", has_text="club website")
    item.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("The token club website is revoked.")).to_be_visible()
    expect(page.locator("#token-list")).to_have_count(0)
    assert ApiToken.objects.get().revoked_at is not None
    assert requests.post(url, json=hand, headers=bearer, timeout=30).status_code == 401


def test_the_api_docs_page_renders(page, live_server, axe_check):
    page.goto(live_server.url + "/api/docs")
    expect(page.get_by_text("Tarot Ledger").first).to_be_visible()
    expect(page.get_by_text("/api/v1/clubs/{slug}/standings").first).to_be_visible()
    # Swagger UI draws the page after it loads: audited again once it has drawn, and
    # with a read and a write opened, so the result does not hang on which came first
    axe_check(page, "the API's documentation")
    for method in ("GET", "POST"):
        operation = page.get_by_role("button", name=re.compile(rf"^{method}\b")).first
        operation.click()
        expect(operation).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("button", name="Try it out")).to_have_count(2)
    axe_check(page, "the API's documentation with two operations open")
