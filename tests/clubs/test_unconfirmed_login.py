"""Logging in before confirming the email says what to do and offers the link again; an
invitation shows the username it creates."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from clubs.models import Club, Membership, Role
from tests.clubs.test_getting_started import PASSWORD, link_in, open_site, sign_up  # noqa: F401
from tests.clubs.test_invitations import link_of

pytestmark = pytest.mark.django_db


def log_in(client, username="nina", password=PASSWORD):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_an_unconfirmed_login_is_told_to_open_the_link(client, open_site):  # noqa: F811
    sign_up(client)
    response = log_in(client)
    assert response.status_code == 200
    page = response.content.decode()
    assert "not confirmed yet: open the link we mailed you" in page
    assert "enter a correct username and password" not in page
    assert reverse("signup_resend") in page
    # a wrong password says nothing of the login's state
    wrong = log_in(client, password="not-the-password")
    assert "not confirmed" not in wrong.content.decode()
    assert "enter a correct username and password" in wrong.content.decode()


def test_the_link_is_sent_again_and_confirms(client, open_site):  # noqa: F811
    sign_up(client)
    log_in(client)
    mail.outbox.clear()
    assert client.get(reverse("signup_resend")).status_code == 200
    response = client.post(reverse("signup_resend"), {"email": "nina@example.org"})
    assert response.status_code == 200 and "nina@example.org" in response.content.decode()
    [message] = mail.outbox
    assert message.to == ["nina@example.org"]
    client.post(link_in(message))
    user = get_user_model().objects.get(username="nina")
    assert user.is_active and user.email == "nina@example.org"
    # confirmed: the page sends nobody anything any more
    assert client.post(reverse("signup_resend"), {"email": "x@example.org"}).status_code == 302


def test_the_resend_page_needs_a_login_that_just_tried(client, open_site):  # noqa: F811
    sign_up(client)
    response = client.post(reverse("signup_resend"), {"email": "nina@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("login")


def test_french_unconfirmed_login(client, open_site):  # noqa: F811
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    sign_up(client)
    page = log_in(client).content.decode()
    assert "pas encore confirmé" in page and "Renvoyer le lien" in page


def test_the_invitation_shows_the_username_it_creates(client, make_user, mailoutbox):
    club = Club.objects.create(name="Club de la Rive", slug="rive")
    boss = make_user("marie")
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    client.force_login(boss)
    client.post(
        reverse("manage:members", args=["rive"]), {"email": "dora@example.org", "role": "member"}
    )
    client.logout()
    response = client.get(link_of(mailoutbox[0]))
    username = response.context["new_username"]
    assert username and f"<strong>{username}</strong>" in response.content.decode()
    client.post(
        link_of(mailoutbox[0]),
        {"password1": "a-fresh-passphrase-9", "password2": "a-fresh-passphrase-9"},
    )
    assert get_user_model().objects.get(email="dora@example.org").username == username


def test_only_wrong_passwords_count_towards_the_lockout(client, open_site, settings):  # noqa: F811
    """Logging in again and again before confirming, with the right password, never locks
    the login; wrong passwords still do, at the limit."""
    sign_up(client)
    for _ in range(settings.AXES_FAILURE_LIMIT + 3):
        response = log_in(client)
        assert response.status_code == 200
        assert "not confirmed yet" in response.content.decode()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, password="not-the-password")
    locked = log_in(client)
    assert locked.status_code in (403, 429)
    assert "not confirmed yet" not in locked.content.decode()
