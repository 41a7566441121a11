"""Personal API tokens: made and revoked on My account (audited, shown once, only a hash
kept), confined to their club and scope, dead at once when revoked, throttled; the API
needs no session cookie and no CSRF token, and sends no CORS header."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from clubs import tokens
from clubs.models import ApiToken, AuditEntry, Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.models import Hand
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
HAND = {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 50}


def test_a_token_is_made_on_my_account_and_shown_once(client, make_user, club):
    user = make_user("alice")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    client.login(username="alice", password=PASSWORD)
    response = client.post(
        reverse("token_create"), {"club": club.pk, "name": "site du club", "scope": "write"}
    )
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    text = response.context["new_token"]["text"]
    assert text.startswith("tl_") and text.encode() in response.content
    token = ApiToken.objects.get()
    assert token.token_hash == tokens.token_hash(text) and text not in token.token_hash
    assert (token.user, token.club, token.scope) == (user, club, "write")
    entry = AuditEntry.objects.get(action=AuditEntry.Action.TOKEN_CREATED)
    assert entry.actor == user and entry.after["prefix"] == token.prefix
    again = client.get(reverse("profile"))
    assert text.encode() not in again.content  # never shown again
    assert token.prefix.encode() in again.content

    response = client.post(reverse("token_revoke", args=[token.pk]))
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TOKEN_REVOKED).count() == 1


def test_a_member_may_not_make_a_write_token(client, make_user, club):
    user = make_user("bob")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    client.login(username="bob", password=PASSWORD)
    response = client.post(
        reverse("token_create"), {"club": club.pk, "name": "x", "scope": "write"}
    )
    assert response.status_code == 400
    assert not ApiToken.objects.exists()
    other = Club.objects.create(name="Autre", slug="autre")
    response = client.post(
        reverse("token_create"), {"club": other.pk, "name": "x", "scope": "read"}
    )
    assert response.status_code == 400  # not one of the user's clubs
    assert not ApiToken.objects.exists()


def test_someone_elses_token_cannot_be_revoked(client, make_user, club, scorer, token):
    token(scorer)
    make_user("eve")
    client.login(username="eve", password=PASSWORD)
    response = client.post(reverse("token_revoke", args=[ApiToken.objects.get().pk]))
    assert response.status_code == 404
    assert ApiToken.objects.get().revoked_at is None


@pytest.fixture
def club_b(django_user_model):
    """A second public club, with a sheet of its own."""
    club = Club.objects.create(name="Club B", slug="club-b")
    season = Season.objects.create(club=club, name="B", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=club, name=n) for n in ("Anna", "Bert", "Carl", "Dora")]
    sheet = services.create_sheet(
        season=season, players=players, date=datetime.date(2026, 2, 2), actor=None
    )
    services.record_hand(sheet, {**HAND, "dealer": "Dora"})
    return club, sheet


def test_a_token_of_club_a_cannot_read_or_write_club_b(api, token, seeded, scorer, club_b):
    club, sheet = club_b
    # the scorer is a scorer of B too: still, the token is A's
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    a = api(token(scorer, "write"))
    for url in (
        "/api/v1/clubs/club-b",
        "/api/v1/clubs/club-b/standings",
        f"/api/v1/clubs/club-b/sheets/{sheet.pk}",
        f"/api/v1/clubs/club-b/sheets/{sheet.pk}/hands/1",
    ):
        response = a.get(url)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "not_found"
    assert api().get("/api/v1/clubs/club-b/standings").status_code == 200  # it is public
    response = a.post(f"/api/v1/clubs/club-b/sheets/{sheet.pk}/hands", HAND)
    assert response.status_code == 404
    assert a.delete(f"/api/v1/clubs/club-b/sheets/{sheet.pk}/hands/1").status_code == 404
    # and A's sheet under B's URL is not found either
    assert a.get(f"/api/v1/clubs/club-b/sheets/{seeded.pk}").status_code == 404
    assert Hand.objects.filter(sheet=sheet).count() == 1
    assert [c["slug"] for c in a.get("/api/v1/clubs").json()["results"]] == ["rive"]


def test_a_revoked_token_fails_at_once(api, token, seeded, scorer):
    text = token(scorer, "write")
    caller = api(text)
    assert caller.get("/api/v1/clubs/rive/standings").status_code == 200
    tokens.revoke_token(ApiToken.objects.get(), actor=scorer)
    for response in (
        caller.get("/api/v1/clubs/rive/standings"),  # even a public club's read
        caller.post(f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands", HAND),
    ):
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "unauthorized"
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert Hand.objects.filter(sheet=seeded).count() == 5


@pytest.mark.parametrize("header", ["Bearer tl_nonsense", "Bearer ", "Basic abc", "tl_x"])
def test_a_wrong_token_is_401(api, seeded, header):
    response = Client().get("/api/v1/clubs/rive/standings", headers={"Authorization": header})
    assert response.status_code == 401


def test_a_token_of_an_inactive_login_opens_nothing(api, token, seeded, scorer):
    caller = api(token(scorer))
    scorer.is_active = False
    scorer.save()
    assert caller.get("/api/v1/clubs/rive").status_code == 401


def test_a_read_only_token_cannot_write(api, token, seeded, scorer):
    response = api(token(scorer, "read")).post(f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands", HAND)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "token_read_only"
    assert Hand.objects.filter(sheet=seeded).count() == 5


def test_a_write_token_follows_its_users_role(api, token, seeded, scorer):
    caller = api(token(scorer, "write"))
    Membership.objects.filter(user=scorer).update(role=Role.MEMBER)  # demoted
    response = caller.post(f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands", HAND)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    Membership.objects.filter(user=scorer).delete()  # and then removed from the club
    assert caller.get("/api/v1/clubs/rive").status_code == 200  # a public club: read
    assert caller.post(f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands", HAND).status_code == 403


def test_a_members_only_club_needs_a_members_token(api, token, seeded, member, club):
    club.is_public = False
    club.save()
    assert api().get("/api/v1/clubs/rive/standings").status_code == 404  # not revealed
    assert api().get("/api/v1/clubs").json()["count"] == 0
    assert api(token(member)).get("/api/v1/clubs/rive/standings").status_code == 200


def test_no_session_no_csrf_no_cors(api, token, seeded, scorer):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands",
        HAND,
        content_type="application/json",
        headers={"Authorization": f"Bearer {token(scorer, 'write')}", "Origin": "https://x.org"},
    )
    assert response.status_code == 201
    assert "sessionid" not in response.cookies
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]
    # a logged-in browser's session cookie alone writes nothing
    client.login(username="scorer", password="a-long-passphrase-1")
    response = client.post(
        f"/api/v1/clubs/rive/sheets/{seeded.pk}/hands", HAND, content_type="application/json"
    )
    assert response.status_code == 401


def test_each_token_is_throttled(api, token, seeded, scorer, settings):
    settings.API_RATE = 3
    first, second = api(token(scorer)), api(token(scorer))
    answers = [first.get("/api/v1/clubs/rive").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert first.get("/api/v1/clubs/rive")["Retry-After"] == "60"
    assert second.get("/api/v1/clubs/rive").status_code == 200  # its own count
    ApiToken.objects.filter(name="test").update(
        window_start=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    )
    assert first.get("/api/v1/clubs/rive").status_code == 200  # a new minute


def test_my_account_speaks_french(client, make_user, club):
    user = make_user("alice")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    client.login(username="alice", password=PASSWORD)
    headers = {"Accept-Language": "fr"}
    page = client.get(reverse("profile"), headers=headers).content.decode()
    assert "jetons d’API" in page and "Un jeton permet à un programme" in page
    assert "Créer un jeton" in page
    made = client.post(
        reverse("token_create"), {"club": club.pk, "name": "site", "scope": "read"}, headers=headers
    ).content.decode()
    assert "Votre nouveau jeton «\u00a0site\u00a0»\u00a0: copiez-le maintenant" in made
    refused = client.get("/api/v1/clubs/nowhere", headers=headers)
    assert refused.json()["error"]["message"] == "Introuvable."
