"""The home page's list of clubs and a club's page (seasons, house rules, recent sheets)."""

import datetime

import pytest
from django.urls import reverse

from clubs.models import Club, Membership, Role, Season
from scoresheet import services
from tests.data import SEED_HANDS


@pytest.fixture
def private_club(db):
    return Club.objects.create(name="Cercle privé", slug="prive", is_public=False)


@pytest.fixture
def member(django_user_model, club):
    user = django_user_model.objects.create_user("member", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


def detail(slug):
    return reverse("clubs:detail", args=[slug])


# ---------------------------------------------------------------- home


def test_home_lists_public_clubs_to_anonymous(client, club, private_club):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert detail("rive") in html and "Club de la Rive" in html
    assert "Cercle privé" not in html and detail("prive") not in html


def test_home_lists_the_members_clubs(client, club, private_club, django_user_model):
    user = django_user_model.objects.create_user("pat", password="a-long-passphrase-1")
    Membership.objects.create(club=private_club, user=user, role=Role.SCORER)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert detail("rive") in html and detail("prive") in html
    assert "members only" in html and "scorer" in html
    assert [c.slug for c in client.get(reverse("home")).context["clubs"]] == ["prive", "rive"]


def test_home_without_clubs(client, db):
    assert "No club to show yet." in client.get(reverse("home")).content.decode()


# ---------------------------------------------------------------- club page


def test_club_page_seasons_rules_and_recent_sheets(client, club, season, make_sheet, scorer):
    Season.objects.create(
        club=club,
        name="2025",
        start_date=datetime.date(2025, 1, 1),
        end_date=datetime.date(2025, 12, 31),
        rules={"preset": "fft", "rounding": 10, "misere": 10},
    )
    sheet = make_sheet(table="7")
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    response = client.get(detail("rive"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Club de la Rive</h1>" in html
    assert "2025" in html and "FFT: the official rules, rounded to 10, misère 10" in html
    assert reverse("scoresheet:sheet", args=["rive", sheet.pk]) in html
    assert "Anna, Bert, Carl, Dora" in html and "1 hand" in html and "table 7" in html
    assert reverse("scoresheet:sheets", args=["rive"]) in html
    # reading is free for anonymous users: no "New sheet" button for them
    assert reverse("scoresheet:sheet_create", args=["rive"]) not in html


def test_club_page_new_sheet_button_for_scorers_only(client, club, season, scorer, member):
    create = reverse("scoresheet:sheet_create", args=["rive"])
    client.force_login(member)
    assert create not in client.get(detail("rive")).content.decode()
    client.force_login(scorer)
    assert create in client.get(detail("rive")).content.decode()


def test_club_page_query_count_does_not_grow_with_sheets(
    client, club, season, make_sheet, django_assert_num_queries
):
    for day in range(1, 12):
        make_sheet(date=datetime.date(2026, 3, day))
    # club, seasons, recent sheets with their counts, their seats' players
    with django_assert_num_queries(4):
        assert client.get(detail("rive")).status_code == 200


def test_members_only_club_page(client, private_club, django_user_model):
    assert client.get(detail("prive")).status_code == 404
    stranger = django_user_model.objects.create_user("x", password="a-long-passphrase-1")
    client.force_login(stranger)
    assert client.get(detail("prive")).status_code == 404
    Membership.objects.create(club=private_club, user=stranger, role=Role.MEMBER)
    assert client.get(detail("prive")).status_code == 200


def test_unknown_club_is_404(client, db):
    assert client.get(detail("nope")).status_code == 404


def test_club_page_links_to_standings_and_managers_to_their_pages(
    client, club, season, django_user_model
):
    manage = reverse("manage:overview", args=["rive"])
    html = client.get(detail("rive")).content.decode()
    assert reverse("standings:club", args=["rive"]) in html
    assert manage not in html
    boss = django_user_model.objects.create_user("boss", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    client.force_login(boss)
    assert manage in client.get(detail("rive")).content.decode()
