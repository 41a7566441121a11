"""Adding a member is an invitation its owner accepts: no username shown, nobody added
without consent, the link throttled."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs import invitations
from clubs.models import Club, Invitation, Membership, Role
from clubs.services import ClubError
from scoresheet import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def manager(make_user, club):
    user = make_user("marie", first_name="Marie", last_name="Curie")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


@pytest.fixture
def as_manager(client, manager):
    client.force_login(manager)
    return client


def members_url():
    return reverse("manage:members", args=["rive"])


def link_of(mail) -> str:
    return re.search(r"http://testserver(/invitations/\S+/)", mail.body).group(1)


def test_inviting_an_existing_login_adds_nobody_and_shows_no_username(
    as_manager, club, make_user, mailoutbox
):
    make_user("bob_secret_login", email="bob@example.org")
    response = as_manager.post(members_url(), {"email": "bob@example.org", "role": "scorer"})
    assert response.status_code == 302
    assert not Membership.objects.filter(club=club, user__username="bob_secret_login").exists()
    page = as_manager.get(members_url()).content.decode()
    assert "bob_secret_login" not in page
    assert "bob@example.org" in page and "not accepted yet" in page
    assert len(mailoutbox) == 1 and "bob_secret_login" not in mailoutbox[0].body
    assert mailoutbox[0].to == ["bob@example.org"]


def test_an_existing_login_accepts_after_logging_in(
    as_manager, client, club, make_user, mailoutbox
):
    bob = make_user("bob", email="bob@example.org")
    as_manager.post(members_url(), {"email": "bob@example.org", "role": "scorer"})
    link = link_of(mailoutbox[0])
    client.logout()
    page = client.get(link)
    assert page.status_code == 200 and page.context["needs_login"]
    # anonymous, a POST cannot take over the existing login's address
    assert client.post(link, {"password1": "x-Long-pass-9", "password2": "x-Long-pass-9"})
    assert not Membership.objects.filter(club=club, user=bob).exists()
    assert get_user_model().objects.filter(email__iexact="bob@example.org").count() == 1

    client.force_login(bob)
    response = client.post(link)
    assert response.status_code == 302
    assert Membership.objects.get(club=club, user=bob).role == Role.SCORER
    assert client.get(link).status_code == 404  # used


def test_an_unknown_address_makes_its_login_on_acceptance(client, as_manager, club, mailoutbox):
    as_manager.post(members_url(), {"email": "dora@example.org", "role": "member"})
    assert not get_user_model().objects.filter(email="dora@example.org").exists()
    link = link_of(mailoutbox[0])
    client.logout()
    response = client.post(link, {"password1": "short", "password2": "short"})
    assert response.status_code == 200 and response.context["form"].errors
    assert not get_user_model().objects.filter(email="dora@example.org").exists()
    response = client.post(
        link, {"password1": "a-fresh-passphrase-9", "password2": "a-fresh-passphrase-9"}
    )
    assert response.status_code == 302
    dora = get_user_model().objects.get(email="dora@example.org")
    assert dora.check_password("a-fresh-passphrase-9")
    assert Membership.objects.get(club=club, user=dora).role == Role.MEMBER
    assert client.session["_auth_user_id"] == str(dora.pk)


def test_a_pending_invitation_counts_nowhere(as_manager, club, mailoutbox):
    as_manager.post(members_url(), {"email": "dora@example.org", "role": "manager"})
    assert club.memberships.count() == 1
    overview = as_manager.get(reverse("manage:overview", args=["rive"]))
    assert overview.context["members"] == 1


def test_resend_and_cancel(as_manager, club, mailoutbox):
    as_manager.post(members_url(), {"email": "dora@example.org", "role": "member"})
    invitation = Invitation.objects.get()
    first = link_of(mailoutbox[0])
    url = reverse("manage:invitation", args=["rive", invitation.pk])
    assert as_manager.post(url, {"action": "resend"}).status_code == 302
    assert len(mailoutbox) == 2 and link_of(mailoutbox[1]) != first
    assert as_manager.get(first).status_code == 404  # the old link stops working
    assert as_manager.post(url, {"action": "bogus"}).status_code == 400
    assert as_manager.post(url, {"action": "cancel"}).status_code == 302
    assert not Invitation.objects.exists()
    assert as_manager.get(link_of(mailoutbox[1])).status_code == 404


def test_bad_links_are_404_and_throttled(client, db):
    statuses = [client.get(f"/invitations/guess{i}/").status_code for i in range(31)]
    assert statuses[:30] == [404] * 30 and statuses[30] == 429


def test_expired_invitation(client, as_manager, club, mailoutbox):
    as_manager.post(members_url(), {"email": "dora@example.org", "role": "member"})
    Invitation.objects.update(created_at=Invitation.objects.get().created_at - Invitation.LIFETIME)
    assert client.get(link_of(mailoutbox[0])).status_code == 404
    assert "expired" in as_manager.get(members_url()).content.decode()


def test_invite_refusals(club, manager, make_user):
    make_user("bob", email="bob@example.org")
    with pytest.raises(ClubError) as error:
        invitations.invite(club, email="MARIE@example.org", actor=manager)  # a member already
    assert error.value.code == "already_member"
    for email in ("", "a@b@c", "x" * 300 + "@example.org"):
        with pytest.raises(ClubError) as error:
            invitations.invite(club, email=email, actor=manager)
        assert error.value.code == "email_invalid"
    with pytest.raises(ClubError) as error:
        invitations.invite(club, email="z@example.org", role="king", actor=manager)
    assert error.value.code == "role_invalid"
    outsider = make_user("olga")
    with pytest.raises(ClubError) as error:
        invitations.invite(club, email="z@example.org", actor=outsider)
    assert error.value.code == "forbidden"
    assert not Invitation.objects.exists()


# ---------------------------------------------------------------- names, never usernames


def test_pages_show_names_not_usernames(client, club, manager, make_sheet, scorer, players):
    players[1].user = scorer
    players[1].save()
    sheet = make_sheet(4)
    services.record_hand(
        sheet,
        {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
        actor=scorer,
    )
    hand = reverse("scoresheet:hand", args=["rive", sheet.pk, 1])
    page = client.get(hand).content.decode()
    assert "by Bert" in page and "by scorer" not in page
    # a scorer linked to no player and without a name: a neutral word
    players[1].user = None
    players[1].save()
    assert "by a scorer" in client.get(hand).content.decode()

    client.force_login(manager)
    page = client.get(members_url()).content.decode()
    assert "marie" not in page.replace("marie@example.org", "").lower().replace("marie curie", "")
    assert "Marie Curie" in page
    top = client.get(reverse("home")).content.decode()
    assert "Marie Curie" in top and ">marie<" not in top
    client.force_login(scorer)
    top = client.get(reverse("home")).content.decode()
    assert 'class="account-name" href="/accounts/profile/">My account<' in top


def test_a_new_login_takes_a_free_username_from_the_address(club, manager, make_user, mailoutbox):
    make_user("dora", email="dora@elsewhere.org")
    make_user("Dora2", email="dora2@elsewhere.org")  # taken in another case
    assert invitations.invite(club, email="dora@example.org", actor=manager).invited_by == manager
    token = re.search(r"/invitations/(\S+)/", mailoutbox[0].body).group(1)
    membership = invitations.accept(token, password="a-fresh-passphrase-9")
    assert membership.user.username == "dora3"
    assert membership.user.email == "dora@example.org"


def test_a_mail_server_down_keeps_the_invitation_and_refuses_the_sign_up(
    club, manager, monkeypatch, settings, mailoutbox
):
    from clubs import accounts
    from clubs import services as club_services

    def down(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr(club_services, "send_mail", down)
    invitation = invitations.invite(club, email="dora@example.org", actor=manager)
    assert invitation.sent is False and Invitation.objects.filter(pk=invitation.pk).exists()
    with pytest.raises(ClubError) as caught:
        invitations.resend(invitation, actor=manager)
    assert caught.value.code == "mail_failed"
    settings.ALLOW_SIGNUP = True
    with pytest.raises(accounts.AccountError) as caught:
        accounts.sign_up("eve", "eve@example.org", "a-fresh-passphrase-9")
    assert caught.value.code == "mail_failed"
    assert mailoutbox == []


# ---------------------------------------------------------------- the club's name after "to"


@pytest.mark.parametrize(
    ("name", "to"),
    [
        ("Club de la Rive", "au Club de la Rive"),
        ("Les Rois de Vienne", "aux Rois de Vienne"),
        ("La Dame de Cœur", "à la Dame de Cœur"),
        ("Bonneville", "à Bonneville"),
    ],
)
def test_the_mail_and_the_welcome_say_to_the_club_in_french(
    client, club, manager, name, to, mailoutbox
):
    """« à » before the club's name, contracted with its article or its leading noun: « vous
    invite au Club de la Rive », never « au club Club de la Rive » nor « à Les Rois »."""
    club.name = name
    club.save(update_fields=["name"])
    client.cookies["django_language"] = "fr"
    client.force_login(manager)
    client.post(members_url(), {"email": "dora@example.org", "role": "member"})
    sent = mailoutbox[0]
    assert sent.subject == f"Vous êtes invité {to} sur Tarot Ledger"
    assert f"Marie Curie vous invite {to} sur Tarot Ledger, comme membre." in sent.body
    link = link_of(sent)
    client.logout()
    client.cookies["django_language"] = "fr"
    response = client.post(
        link, {"password1": "a-fresh-passphrase-9", "password2": "a-fresh-passphrase-9"}
    )
    welcome = [str(message) for message in response.wsgi_request._messages]
    assert welcome == [f"Bienvenue {to}. Votre identifiant est dora."]


def test_the_mail_names_the_club_alone_in_english(as_manager, club, mailoutbox):
    as_manager.post(members_url(), {"email": "dora@example.org", "role": "member"})
    assert mailoutbox[0].subject == "You are invited to Club de la Rive on Tarot Ledger"
    body = mailoutbox[0].body
    assert "Marie Curie invites you to Club de la Rive on Tarot Ledger, as member." in body
