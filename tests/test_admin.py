"""The admin: every page renders, and nothing there can break the ledger."""

import datetime

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow, Seat, Sheet

User = get_user_model()
HAND = {"dealer": "A", "taker": "A", "contract": "garde", "bouts": 2, "points": 56}


@pytest.fixture
def ledger(db, django_user_model):
    """A club with a manager, a season, a sheet with a hand and an empty sheet."""
    boss = django_user_model.objects.create_user("boss", password="pw-admin-1")
    club = Club.objects.create(name="Rive", slug="rive")
    manager = Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    season = Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=club, name=n) for n in "ABCD"]
    sheet = services.create_sheet(season=season, players=players, date=season.start_date)
    services.record_hand(sheet, HAND)
    empty = services.create_sheet(season=season, players=players[:3], date=season.start_date)
    return {"club": club, "manager": manager, "season": season, "sheet": sheet, "empty": empty}


@pytest.fixture
def staff(client, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root-1")
    client.force_login(root)
    return client


def url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_admin_page_renders(ledger, staff):
    """The index, each app, and each registered model's list, add and change pages."""
    objects = {
        Club: ledger["club"],
        Membership: ledger["manager"],
        Season: ledger["season"],
        Player: Player.objects.first(),
        Sheet: ledger["sheet"],
        Seat: Seat.objects.first(),
        Hand: Hand.objects.first(),
        ScoreRow: ScoreRow.objects.first(),
        HandRevision: HandRevision.objects.first(),
    }
    registered = {m for m in admin.site._registry if m._meta.app_label in ("clubs", "scoresheet")}
    assert registered == set(objects), "a registered model has no page check here"
    assert staff.get(reverse("admin:index")).status_code == 200
    for label in ("clubs", "scoresheet"):
        assert staff.get(reverse("admin:app_list", args=[label])).status_code == 200
    for model, obj in objects.items():
        assert staff.get(url(model, "changelist")).status_code == 200, model
        assert staff.get(url(model, "change", obj.pk)).status_code == 200, model
        add = staff.get(url(model, "add")).status_code
        request = RequestFactory().get("/admin/")
        request.user = User.objects.get(username="root")
        may_add = admin.site._registry[model].has_add_permission(request)
        assert add == (200 if may_add else 403), model


def test_a_sheet_with_hands_is_read_only(ledger, staff):
    sheet = ledger["sheet"]
    page = staff.get(url(Sheet, "change", sheet.pk)).content.decode()
    assert 'name="date"' not in page and 'name="season"' not in page
    before = (sheet.date, sheet.season_id, sheet.rules)
    response = staff.post(
        url(Sheet, "change", sheet.pk),
        {"club": sheet.club_id, "season": sheet.season_id, "date": "2027-01-01", "rules": "{}"},
    )
    assert response.status_code == 403
    sheet.refresh_from_db()
    assert (sheet.date, sheet.season_id, sheet.rules) == before
    assert staff.post(url(Sheet, "delete", sheet.pk), {"post": "yes"}).status_code == 403
    assert Sheet.objects.filter(pk=sheet.pk).exists()


def test_seats_hands_and_score_rows_cannot_be_edited(ledger, staff):
    seat = Seat.objects.filter(sheet=ledger["sheet"]).first()
    response = staff.post(
        url(Seat, "change", seat.pk),
        {"sheet": seat.sheet_id, "player": seat.player_id, "position": 5},
    )
    assert response.status_code == 403
    seat.refresh_from_db()
    assert seat.position == 0
    hand = Hand.objects.get()
    assert staff.post(url(Hand, "delete", hand.pk), {"post": "yes"}).status_code == 403
    row = ScoreRow.objects.first()
    assert staff.post(url(ScoreRow, "delete", row.pk), {"post": "yes"}).status_code == 403
    assert ScoreRow.objects.count() == 4


def test_an_empty_sheet_takes_only_valid_rules(ledger, staff):
    empty = ledger["empty"]
    data = {
        "club": empty.club_id,
        "season": empty.season_id,
        "date": "2026-02-01",
        "table": "2",
        "rules": '{"preset": "nonsense"}',
        "seats-TOTAL_FORMS": "0",
        "seats-INITIAL_FORMS": "0",
    }
    response = staff.post(url(Sheet, "change", empty.pk), data)
    page = response.content.decode()
    assert response.status_code == 200 and "“nonsense” is not one of the rules known" in page
    empty.refresh_from_db()
    assert empty.rules == {"preset": "fft"} and empty.table == ""


def test_house_rules_are_validated(ledger, staff):
    season = ledger["season"]
    data = {
        "club": season.club_id,
        "name": "2026",
        "start_date": "2026-01-01",
        "rules": '{"preset": "fft", "rounding": 7}',
    }
    response = staff.post(url(Season, "change", season.pk), data)
    assert response.status_code == 200
    assert "These rules are not valid (rounding)." in response.content.decode()
    season.refresh_from_db()
    assert season.rules == {"preset": "fft"}
    data["rules"] = '{"preset": "fft", "rounding": 5}'
    assert staff.post(url(Season, "change", season.pk), data).status_code == 302
    season.refresh_from_db()
    assert season.rules == {"preset": "fft", "rounding": 5}


def test_the_last_manager_stays(ledger, staff):
    manager = ledger["manager"]
    assert staff.post(url(Membership, "delete", manager.pk), {"post": "yes"}).status_code == 403
    data = {"club": manager.club_id, "user": manager.user_id, "role": Role.MEMBER}
    response = staff.post(url(Membership, "change", manager.pk), data)
    assert response.status_code == 200 and "at least one manager" in response.content.decode()
    manager.refresh_from_db()
    assert manager.role == Role.MANAGER
    # no bulk delete, which could remove every manager at once
    assert 'value="delete_selected"' not in staff.get(url(Membership, "changelist")).text


def test_a_second_manager_may_step_down(ledger, staff, django_user_model):
    other = django_user_model.objects.create_user("other", password="pw-admin-2")
    Membership.objects.create(club=ledger["club"], user=other, role=Role.MANAGER)
    manager = ledger["manager"]
    data = {"club": manager.club_id, "user": manager.user_id, "role": Role.MEMBER}
    assert staff.post(url(Membership, "change", manager.pk), data).status_code == 302
    manager.refresh_from_db()
    assert manager.role == Role.MEMBER
