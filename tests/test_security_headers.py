"""Content-Security-Policy, Permissions-Policy and the language cookie's flags."""

import pytest
from django.urls import reverse

from core.middleware import CSP
from tests.test_accounts import production_settings

pytestmark = pytest.mark.django_db


def test_every_page_has_a_strict_policy(client):
    for url in (reverse("home"), reverse("login"), "/no-such-page/"):
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert policy == CSP
        for directive in (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "frame-ancestors 'none'",
            "form-action 'self'",
            "base-uri 'self'",
            "object-src 'none'",
        ):
            assert directive in policy
        assert "unsafe" not in policy
        assert "camera=()" in response["Permissions-Policy"]
        assert "geolocation=()" in response["Permissions-Policy"]


def test_pages_hold_no_inline_script_or_style(client, season, make_sheet, scorer):
    make_sheet(4)
    client.force_login(scorer)
    for url in (
        reverse("home"),
        reverse("clubs:detail", args=["rive"]),
        reverse("standings:club", args=["rive"]),
        reverse("scoresheet:sheets", args=["rive"]),
        reverse("scoresheet:sheet_create", args=["rive"]),
    ):
        html = client.get(url).content.decode()
        assert "<style" not in html and " style=" not in html, url
        scripts = html.split("<script")[1:]
        assert all(" src=" in s.split(">")[0] or "application/json" in s for s in scripts), url


def test_language_cookie_is_httponly_and_lax(client):
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


def test_language_cookie_is_secure_in_production():
    assert production_settings("s.LANGUAGE_COOKIE_SECURE") == ["True"]


def test_favicon_is_the_icon_not_a_page(client):
    """Browsers ask for /favicon.ico: a redirect to the icon, which sets no CSRF cookie
    (the 404 page's logout form would, racing the page just loaded)."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("img/icon.svg")
    assert "csrftoken" not in response.cookies


def test_a_csrf_failure_says_what_to_do_in_the_sites_page(client, scorer):
    """A form sent with a token the browser no longer holds: the site's own page (no
    inline style for the policy to block), in the page's language."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(scorer)
    response = browser.post(reverse("logout"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 403
    text = response.content.decode()
    assert "Le formulaire a expiré" in text
    assert "<style" not in text and "style=" not in text
