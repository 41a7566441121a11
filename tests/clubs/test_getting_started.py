"""Getting started without a shell: sign-up confirmed by email, a new club walked through
its first season, an email address set and confirmed in My account, and password reset
end to end — all with Django's mail outbox."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.urls import reverse

from clubs import accounts
from clubs.models import AuditEntry, Club, Membership, Role
from tests.data import RULES_POST

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-passphrase-17"


def link_in(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


@pytest.fixture
def open_site(settings):
    settings.ALLOW_SIGNUP = True
    settings.ALLOW_CLUB_CREATION = True
    return settings


def sign_up(client, username="nina", email="nina@example.org"):
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_sign_up_then_a_club_then_its_first_season(client, open_site):
    response = sign_up(client)
    assert response.status_code == 200 and "nina@example.org" in response.content.decode()
    user = get_user_model().objects.get(username="nina")
    assert not user.is_active and user.email == ""  # set once confirmed
    assert not client.login(username="nina", password=PASSWORD)
    [message] = mail.outbox
    assert message.to == ["nina@example.org"]

    link = link_in(message)
    assert client.get(link).status_code == 200  # a page with a button: nothing yet
    user.refresh_from_db()
    assert not user.is_active
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == reverse("club_create")
    user.refresh_from_db()
    assert user.is_active and user.email == "nina@example.org"
    assert client.post(link).status_code == 200  # used: the page says so
    assert "used" in client.post(link).content.decode()

    response = client.post(reverse("club_create"), {"name": "Les Excuses", "visibility": "members"})
    club = Club.objects.get(name="Les Excuses")
    assert response["Location"] == reverse("manage:welcome", args=[club.slug])
    assert not club.is_public
    assert Membership.objects.get(club=club, user=user).role == Role.MANAGER
    assert AuditEntry.objects.filter(club=club, action="member_added").exists()

    welcome = reverse("manage:welcome", args=[club.slug])
    page = client.get(welcome)
    assert page.context["form"].initial["name"] == str(datetime.date.today().year)
    response = client.post(
        welcome,
        {
            "name": "2026",
            "start_date": "2026-01-01",
            "end_date": "",
            **RULES_POST,
            "misere": "10",
            "ranking_by": "evening_average",
        },
    )
    assert response.status_code == 302
    season = club.seasons.get()
    assert season.rules["misere"] == 10 and season.ranking == {"by": "evening_average"}
    page = client.get(welcome)
    assert page.context["form"] is None and "2026" in page.content.decode()
    assert client.post(welcome, {"name": "again"}).status_code == 302
    assert club.seasons.count() == 1


def test_sign_up_and_club_creation_are_off_by_default(client, make_user):
    assert client.get(reverse("signup")).status_code == 404
    assert sign_up(client).status_code == 404
    assert not get_user_model().objects.filter(username="nina").exists()
    assert client.get(reverse("club_create")).status_code == 404
    client.force_login(make_user())
    assert (
        client.post(reverse("club_create"), {"name": "X", "visibility": "public"}).status_code
        == 404
    )
    assert not Club.objects.exists()
    home = client.get(reverse("home")).content.decode()
    assert reverse("club_create") not in home


def test_a_superuser_may_always_create_a_club(client, make_user):
    client.force_login(make_user("root", is_superuser=True, is_staff=True))
    response = client.post(reverse("club_create"), {"name": "New", "visibility": "public"})
    assert response.status_code == 302
    assert Club.objects.get().slug == "new-club"  # "new" reads as a page of the site


def test_sign_up_refusals(client, open_site, make_user):
    make_user("taken")
    response = sign_up(client, username="TAKEN")
    assert "This username is taken" in response.content.decode()
    response = client.post(
        reverse("signup"),
        {
            "username": "nina",
            "email": "nina@example.org",
            "password1": "12345678",
            "password2": "12345678",
        },
    )
    assert response.status_code == 200 and response.context["form"].errors
    response = sign_up(client, username="bad name!")
    assert "Letters, digits" in response.content.decode()
    assert get_user_model().objects.count() == 1 and not mail.outbox


def test_a_link_for_an_address_another_login_has_is_refused(client, open_site, make_user):
    make_user("first", email="nina@example.org")
    sign_up(client)
    response = client.post(link_in(mail.outbox[0]))
    assert "Another login uses this address" in response.content.decode()
    assert not get_user_model().objects.get(username="nina").is_active


def test_tampered_and_expired_links(client, open_site, monkeypatch):
    sign_up(client)
    link = link_in(mail.outbox[0])
    assert "not valid" in client.post(link[:-3] + "abc/").content.decode()
    monkeypatch.setattr(accounts, "LINK_DAYS", -1)
    assert "expired" in client.post(link).content.decode()
    assert not get_user_model().objects.get(username="nina").is_active


def test_an_unconfirmed_username_is_free_again_after_its_link_expired(client, open_site):
    sign_up(client)
    get_user_model().objects.filter(username="nina").update(
        date_joined=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    )
    response = sign_up(client, email="other@example.org")
    assert "Check your email" in response.content.decode()
    assert get_user_model().objects.filter(username="nina").count() == 1


# ---------------------------------------------------------------- my email address


def test_my_email_is_set_only_once_confirmed(client, make_user):
    user = make_user("alice", email="")
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert "No email address yet" in page
    response = client.post(reverse("email_change"), {"email": "alice@example.org"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == ""
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    link = link_in(message)
    assert "alice@example.org" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    user.refresh_from_db()
    assert user.email == "alice@example.org"
    # a second link of the old address no longer works
    assert "not valid" in client.post(link).content.decode()


def test_email_change_refusals(client, make_user):
    user = make_user("alice")
    make_user("bob", email="bob@example.org")
    client.force_login(user)
    response = client.post(reverse("email_change"), {"email": "not an email"})
    assert response.status_code == 400
    response = client.post(reverse("email_change"), {"email": "alice@example.org"})
    assert "already your address" in response.content.decode()
    client.post(reverse("email_change"), {"email": "BOB@example.org"})
    response = client.post(link_in(mail.outbox[0]))
    assert "Another login uses this address" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "alice@example.org"


def test_a_link_of_another_purpose_does_not_confirm(client, make_user):
    user = make_user("alice", email="")
    token = signing.dumps({"u": user.pk, "e": "x@example.org"}, salt=accounts.SIGNUP_SALT)
    response = client.post(reverse("email_confirm", args=[token]))
    assert "not valid" in response.content.decode()
    user.refresh_from_db()
    assert user.email == ""


def test_managers_see_their_members_emails(client, make_user, club):
    boss = make_user("boss")
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    Membership.objects.create(club=club, user=make_user("carla", email="carla@example.org"))
    client.force_login(boss)
    page = client.get(reverse("manage:members", args=[club.slug])).content.decode()
    assert "carla@example.org" in page


# ---------------------------------------------------------------- password reset


def test_password_reset_end_to_end(client, make_user):
    make_user("alice", email="alice@example.org")
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response.status_code == 302
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    link = link_in(message)
    response = client.get(link, follow=True)  # Django swaps the token for a session
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    new = "another-long-passphrase-99"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    client.logout()
    response = client.post(reverse("login"), {"username": "alice", "password": new})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    assert not client.login(username="alice", password="correct-horse-battery-42")
