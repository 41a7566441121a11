"""The audit trail: every change is an entry (who, when, before, after), and the
managers' history page shows them with the hands' revisions, filtered and paginated."""

import datetime
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.urls import reverse

from clubs import services
from clubs.models import AuditEntry, Membership, Role
from scoresheet import services as ledger
from scoresheet.models import HandRevision

pytestmark = pytest.mark.django_db

MOUCHES = [
    {"dealer": "Anna", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 50},
    {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 1, "points": 40},
    {"dealer": "Carl", "taker": "Dora", "contract": "garde", "bouts": 2, "points": 50},
]


@pytest.fixture
def manager(django_user_model, club):
    user = django_user_model.objects.create_user("boss", password="pw-boss-12345")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


def entries(club):
    return list(
        AuditEntry.objects.filter(club=club)
        .order_by("id")
        .values_list("action", "actor__username", "before", "after")
    )


def test_club_changes_are_audited(club, season, manager, scorer, players):
    membership = Membership.objects.get(user=scorer)
    services.change_role(membership, Role.MANAGER, actor=manager)
    services.link_player(membership, players[0], actor=manager)
    services.update_club(club, "La Rive", False, actor=manager)
    services.update_season(
        season, "2026", season.start_date, None, {"preset": "fft", "misere": 10}, actor=manager
    )
    services.create_season(club, "2027", datetime.date(2027, 1, 1), None, None, actor=manager)
    services.change_role(membership, Role.SCORER, actor=manager)
    services.remove_member(membership, actor=manager)
    assert entries(club) == [
        ("role_changed", "boss", {"role": "scorer"}, {"role": "manager"}),
        ("player_linked", "boss", {"user": "scorer", "player": None},
         {"user": "scorer", "player": "Anna"}),
        ("club_updated", "boss", {"name": "Club de la Rive", "public": True},
         {"name": "La Rive", "public": False}),
        ("season_updated", "boss",
         {"name": "2026", "start": "2026-01-01", "end": None, "rules": {"preset": "fft"}},
         {"name": "2026", "start": "2026-01-01", "end": None,
          "rules": {"preset": "fft", "misere": 10}}),
        ("season_created", "boss", None,
         {"name": "2027", "start": "2027-01-01", "end": None, "rules": {"preset": "fft"}}),
        ("role_changed", "boss", {"role": "manager"}, {"role": "scorer"}),
        ("member_removed", "boss", {"user": "scorer", "role": "scorer", "player": "Anna"}, None),
    ]  # fmt: skip


def test_an_unchanged_save_is_not_an_entry(club, manager):
    services.update_club(club, club.name, club.is_public, actor=manager)
    assert entries(club) == []


def test_a_refused_change_leaves_no_entry(club, manager):
    membership = Membership.objects.get(user=manager)
    with pytest.raises(services.ClubError):
        services.change_role(membership, Role.MEMBER, actor=manager)  # the last manager
    assert entries(club) == []


def test_sheets_and_players_are_audited(club, season, scorer):
    zoe = services.create_player(club, "  Zoé  Martin ", actor=scorer)
    assert zoe.name == "Zoé Martin"
    sheet = ledger.create_sheet(
        season=season, players=[zoe, services.create_player(club, "Yann")], date=season.start_date,
        table="7", actor=scorer,
    )  # fmt: skip
    assert [(a, who) for a, who, _b, _a in entries(club)] == [
        ("player_created", "scorer"),
        ("player_created", None),
        ("sheet_created", "scorer"),
    ]
    last = AuditEntry.objects.filter(club=club).latest("id")
    assert last.object_id == sheet.pk and last.after["players"] == ["Zoé Martin", "Yann"]


@pytest.mark.parametrize(
    "name, code",
    [("", "name_required"), ("  ", "name_required"), ("A\x00B", "name_invalid"),
     ("x" * 81, "name_too_long"), ("anna", "player_exists"), ("ÀNNA", "player_exists")],
)  # fmt: skip
def test_player_names_are_checked(club, players, name, code):
    with pytest.raises(services.ClubError) as refused:
        services.create_player(club, name)
    assert refused.value.code == code
    assert not AuditEntry.objects.filter(club=club).exists()


def test_a_mouches_correction_records_each_rescored_hand(make_sheet, scorer):
    sheet = make_sheet(4, rules="mouches")
    hands = [ledger.record_hand(sheet, data, actor=scorer) for data in MOUCHES]
    correction = ledger.correct_hand(hands[0], dict(MOUCHES[0], points=40), actor=scorer)
    cause = correction.revisions.get(action=HandRevision.Action.CORRECTED)
    rescored = HandRevision.objects.filter(action=HandRevision.Action.RESCORED).order_by("id")
    assert [(r.hand.number, r.caused_by_id, r.user_id) for r in rescored] == [
        (2, cause.pk, scorer.pk),
        (3, cause.pk, scorer.pk),
    ]
    for revision in rescored:
        assert revision.before["scores"] != revision.after["scores"]
        scores = dict(revision.hand.scores.values_list("player__name", "score"))
        assert {k: float(v) for k, v in scores.items()} == revision.after["scores"]
    # deleting the first hand re-scores the later ones again, caused by the deletion
    ledger.delete_hand(hands[0], actor=scorer)
    deleted = hands[0].revisions.get(action=HandRevision.Action.DELETED)
    assert deleted.consequences.count() == 2


# ---------------------------------------------------------------- the page


@pytest.fixture
def history(club, season, manager, scorer, make_sheet):
    sheet = make_sheet(4, rules="mouches")
    hands = [ledger.record_hand(sheet, data, actor=scorer) for data in MOUCHES]
    ledger.correct_hand(hands[0], dict(MOUCHES[0], points=40), actor=scorer)
    services.update_club(club, "La Rive", True, actor=manager)
    return sheet


def log_in(client, user):
    """A session without the login signal (so the page tests run on PostgreSQL too)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key


def page(client, manager, **query):
    log_in(client, manager)
    return client.get(reverse("clubhouse:history", args=["rive"]), query)


def test_the_history_page_shows_both_kinds_of_change(client, manager, history):
    response = page(client, manager)
    html = response.content.decode()
    assert response.status_code == 200
    table = response.context["table"]
    kinds = [row.record["kind"] for row in table.page.object_list]
    assert kinds[:2] == ["club_updated", "hand_rescored"]  # newest first
    assert sorted(kinds) == sorted(
        ["club_updated", "sheet_created", "hand_created", "hand_created", "hand_created",
         "hand_corrected", "hand_rescored", "hand_rescored"]
    )  # fmt: skip
    assert "Club de la Rive → La Rive" in html
    assert "(after hand 1: hand corrected)" in html
    assert reverse("scoresheet:hand", args=["rive", history.pk, 2]) in html


@pytest.mark.parametrize(
    "query, expected",
    [
        ({"kind": "hand_rescored"}, 2),
        ({"kind": "club_updated"}, 1),
        ({"who": "manager"}, 1),
        ({"date_from": "2000-01-01", "date_to": "2000-01-02"}, 0),
        ({"kind": "nonsense"}, 8),  # an invalid filter is ignored and shown as an error
    ],
)
def test_the_history_filters(client, manager, history, query, expected):
    if query.get("who") == "manager":
        query = {"who": manager.pk}
    response = page(client, manager, **query)
    assert response.status_code == 200
    assert response.context["table"].paginator.count == expected


def test_the_history_is_paginated_in_constant_queries(
    client, manager, history, django_assert_max_num_queries
):
    for i in range(60):
        services.update_club(history.club, f"Name {i}", True, actor=manager)
    log_in(client, manager)
    url = reverse("clubhouse:history", args=["rive"])
    with django_assert_max_num_queries(12):
        response = client.get(url, {"page": 2})
    assert response.status_code == 200
    assert len(response.context["table"].page.object_list) == 18
    assert response.context["table"].paginator.count == 68


def test_the_overview_links_to_the_history(client, manager, club):
    log_in(client, manager)
    html = client.get(reverse("manage:overview", args=["rive"])).content.decode()
    assert reverse("clubhouse:history", args=["rive"]) in html
