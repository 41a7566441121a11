"""Abuse limits: the client's address behind a proxy, the login lockout per username and
address and per address alone, and the limits on the password and token pages."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from core.throttle import Limit, client_address

PASSWORD = "right-horse-battery"


@pytest.fixture
def anna(db):
    return get_user_model().objects.create_user("anna", "anna@example.org", password=PASSWORD)


def login(client, username, password, xff=None, remote="10.0.0.1"):
    extra = {"REMOTE_ADDR": remote}
    if xff:
        extra["HTTP_X_FORWARDED_FOR"] = xff
    data = {"username": username, "password": password}
    return client.post(reverse("login"), data, **extra)


# ---------------------------------------------------------------- the client's address


@pytest.mark.parametrize(
    "count, xff, want",
    [
        (0, "", "10.0.0.1"),
        (0, "1.1.1.1", "10.0.0.1"),  # no proxy: the header is the client's own, ignored
        (1, "1.1.1.1", "1.1.1.1"),
        (1, "6.6.6.6, 1.1.1.1", "1.1.1.1"),  # a forged entry on the left is not trusted
        (2, "6.6.6.6, 1.1.1.1, 172.16.0.2", "1.1.1.1"),
        (2, "1.1.1.1", "10.0.0.1"),  # fewer entries than proxies: the nearest proxy
        (1, "unknown", "10.0.0.1"),  # not an address: the nearest proxy
        (1, "[1, 2]", "10.0.0.1"),
    ],
)
def test_client_address(settings, count, xff, want):
    settings.PROXY_COUNT = count
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=xff)
    assert client_address(request) == want


def test_two_clients_behind_one_proxy_are_throttled_apart(client, anna, settings):
    settings.PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "anna", "wrong", xff="1.1.1.1")
    assert login(client, "anna", PASSWORD, xff="1.1.1.1").status_code == 429
    # the real Anna, at home behind the same proxy, still logs in
    response = login(client, "anna", PASSWORD, xff="2.2.2.2")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(anna.pk)


def test_without_a_proxy_a_forged_header_changes_nothing(client, anna, settings):
    settings.PROXY_COUNT = 0
    for i in range(settings.AXES_FAILURE_LIMIT):
        login(client, "anna", "wrong", xff=f"1.1.1.{i}")
    # a fresh forged address does not get the attacker a fresh count
    assert login(client, "anna", PASSWORD, xff="9.9.9.9").status_code == 429


def test_password_spraying_from_one_address_is_throttled(client, db, settings):
    statuses = [login(client, f"user{i}", "Winter2026!").status_code for i in range(30)]
    assert 429 in statuses
    assert statuses[:20] == [200] * 20  # each username only failed once: axes alone never locks
    # another address is not affected
    assert login(client, "user0", "x", remote="10.0.0.2").status_code == 200


def test_throttled_page_is_translated(client, db):
    for i in range(21):
        login(client, f"user{i}", "x")
    response = client.post(
        reverse("login"),
        {"username": "u", "password": "x"},
        REMOTE_ADDR="10.0.0.1",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert response.status_code == 429
    assert "Trop de tentatives" in response.content.decode()


def test_a_username_over_the_limit_is_a_form_error(client, anna):
    response = login(client, "a" * 300, "whatever")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]


# ---------------------------------------------------------------- password pages


def test_password_change_limits_wrong_current_passwords(client, anna):
    client.force_login(anna)
    url = reverse("password_change")
    data = {
        "old_password": "wrong",
        "new_password1": "n3w-Pass-word",
        "new_password2": "n3w-Pass-word",
    }
    for _ in range(5):
        assert client.post(url, data).status_code == 200
    data["old_password"] = PASSWORD
    assert client.post(url, data).status_code == 429
    anna.refresh_from_db()
    assert anna.check_password(PASSWORD)


def test_password_reset_sends_no_more_than_a_few_emails(client, anna):
    url = reverse("password_reset")
    statuses = [client.post(url, {"email": "anna@example.org"}).status_code for _ in range(10)]
    assert statuses.count(302) == 3 and statuses.count(429) == 7
    assert len(mail.outbox) == 3


def test_password_reset_is_limited_per_address_across_emails(client, anna):
    url = reverse("password_reset")
    statuses = [client.post(url, {"email": f"x{i}@example.org"}).status_code for i in range(10)]
    assert statuses[:5] == [302] * 5 and set(statuses[5:]) == {429}


def test_password_reset_email_over_the_limit_is_a_form_error(client, db):
    response = client.post(reverse("password_reset"), {"email": "a" * 300 + "@example.org"})
    assert response.status_code == 200
    assert response.context["form"].errors["email"]


def test_reset_link_is_throttled(client, db):
    url = reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "guess"})
    statuses = [client.get(url).status_code for _ in range(31)]
    assert statuses[:30] == [200] * 30 and statuses[30] == 429


def test_limit_counts_per_key(db):
    limit = Limit("test", 2, 60)
    assert limit.hit("a") and limit.hit("a") and not limit.hit("a")
    assert limit.hit("b")
    assert limit.exceeded("a") and not limit.exceeded("b")
