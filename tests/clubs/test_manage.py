"""The managers' pages and "My account": who gets in, what the writes do, no 500 on bad input."""

import datetime

import pytest
from django.urls import reverse

from clubs.models import Club, Invitation, Membership, Player, Role, Season
from tests.conftest import PASSWORD
from tests.data import RULES_POST

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing a password the real way takes a noticeable time per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def other_club(db):
    return Club.objects.create(name="Les Excusés", slug="excuses")


@pytest.fixture
def people(make_user, club, other_club):
    """A login per role in ``club``, and a manager of ``other_club``."""
    people = {}
    for role in (Role.MANAGER, Role.SCORER, Role.MEMBER):
        people[role] = make_user(f"{role}1")
        Membership.objects.create(club=club, user=people[role], role=role)
    people["stranger"] = make_user("olga")
    Membership.objects.create(club=other_club, user=people["stranger"], role=Role.MANAGER)
    return people


@pytest.fixture
def manager(people):
    return people[Role.MANAGER]


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )


@pytest.fixture
def as_manager(client, manager):
    client.force_login(manager)
    return client


def url(name, *args, club="rive"):
    return reverse(f"manage:{name}", args=[club, *args])


def season_data(**changes):
    data = {"name": "2026", "start_date": "2026-01-01", "end_date": "", **RULES_POST}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# ---------------------------------------------------------------- who gets in


def pages(season, membership):
    invitation = Invitation.objects.create(
        club=membership.club, email="zoe@example.org", token_hash="0" * 64
    )
    return [
        url("overview"),
        url("members"),
        url("seasons"),
        url("season", season.pk),
    ], [
        url("member", membership.pk),
        url("member_remove", membership.pk),
        url("invitation", invitation.pk),
    ]


def test_only_managers_get_in(client, people, season):
    target = Membership.objects.get(user=people[Role.MEMBER])
    get_pages, post_pages = pages(season, target)

    for page in get_pages + post_pages:
        response = client.post(page) if page in post_pages else client.get(page)
        assert response.status_code == 302, page
        assert response.url.startswith(reverse("login") + "?next="), page

    for who in ("stranger", Role.MEMBER, Role.SCORER):
        client.force_login(people[who])
        for page in get_pages:
            assert client.get(page).status_code == 403, (who, page)
        for page in post_pages:
            assert client.post(page).status_code == 403, (who, page)
        for page in get_pages[:3]:  # and the writes on the GET pages
            assert client.post(page, {"name": "Hacked"}).status_code == 403, (who, page)
    assert Club.objects.get(slug="rive").name == "Club de la Rive"
    assert Membership.objects.filter(pk=target.pk, role=Role.MEMBER).exists()

    client.force_login(people[Role.MANAGER])
    for page in get_pages:
        response = client.get(page)
        assert response.status_code == 200, page
        assert b'name="csrfmiddlewaretoken"' in response.content
    for page in post_pages:
        assert client.get(page).status_code == 405, page


def test_a_members_only_club_asks_strangers_to_log_in(client, club, people):
    club.is_public = False
    club.save()
    response = client.get(url("overview"))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    # exactly as a slug nobody uses: the club's existence is not revealed
    response = client.get(url("overview", club="no-such-club"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_objects_of_another_club_are_404(as_manager, other_club, people):
    theirs = Membership.objects.get(club=other_club)
    their_season = Season.objects.create(
        club=other_club, name="2026", start_date=datetime.date(2026, 1, 1)
    )
    assert as_manager.get(url("season", their_season.pk)).status_code == 404
    assert as_manager.post(url("season", their_season.pk), season_data()).status_code == 404
    for name in ("member", "member_remove"):
        assert as_manager.post(url(name, theirs.pk), {"m1-role": "member"}).status_code == 404
    invitation = Invitation.objects.create(club=other_club, email="z@example.org", token_hash="1")
    response = as_manager.post(url("invitation", invitation.pk), {"action": "cancel"})
    assert response.status_code == 404 and Invitation.objects.filter(pk=invitation.pk).exists()
    assert Membership.objects.filter(pk=theirs.pk, role=Role.MANAGER).exists()
    assert as_manager.get(url("season", 999999)).status_code == 404


# ---------------------------------------------------------------- overview


def test_overview_renames_and_hides_the_club(as_manager, club):
    response = as_manager.get(url("overview"))
    assert b'value="Club de la Rive"' in response.content

    response = as_manager.post(url("overview"), {"name": "Club du Lac", "visibility": "members"})
    assert response.status_code == 302 and response.url == url("overview")
    club.refresh_from_db()
    assert (club.name, club.is_public, club.slug) == ("Club du Lac", False, "rive")
    response = as_manager.get(url("overview"))
    assert "saved" in response.content.decode()


@pytest.mark.parametrize(
    "data", [{}, {"name": "   ", "visibility": "public"}, {"name": "X", "visibility": "all"}]
)
def test_overview_refuses_bad_input_on_the_form(as_manager, club, data):
    response = as_manager.post(url("overview"), data)
    assert response.status_code == 200
    assert response.context["form"].errors
    assert b"error-summary" in response.content
    club.refresh_from_db()
    assert club.name == "Club de la Rive"


# ---------------------------------------------------------------- members


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"email": "manager1@example.org", "role": "member"}, "a member&#x27;s already"),
        ({"email": "bob@example.org", "role": "king"}, "Select a valid choice"),
        ({"email": "", "role": "member"}, "This field is required"),
        ({"email": "a@b@c", "role": "member"}, "valid email"),
        ({"email": "x" * 300 + "@example.org", "role": "member"}, "at most 254"),
    ],
)
def test_invite_errors_land_on_the_form(as_manager, make_user, data, message):
    make_user("bob")
    response = as_manager.post(url("members"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert response.context["form"].errors
    assert not Invitation.objects.exists()


def test_change_role_and_link_a_player(as_manager, club, people):
    member = Membership.objects.get(user=people[Role.MEMBER])
    bert = Player.objects.create(club=club, name="Bert")
    prefix = f"m{member.pk}"

    response = as_manager.post(
        url("member", member.pk), {f"{prefix}-role": "scorer", f"{prefix}-player": bert.pk}
    )
    assert response.status_code == 302
    member.refresh_from_db()
    bert.refresh_from_db()
    assert member.role == Role.SCORER and bert.user == member.user

    page = as_manager.get(url("members")).content.decode()
    assert f'<option value="{bert.pk}" selected>Bert</option>' in page

    response = as_manager.post(url("member", member.pk), {f"{prefix}-role": "scorer"})
    bert.refresh_from_db()
    assert response.status_code == 302 and bert.user is None


def test_member_row_errors(as_manager, club, other_club, people, manager):
    me = Membership.objects.get(user=manager)
    member = Membership.objects.get(user=people[Role.MEMBER])
    theirs = Player.objects.create(club=other_club, name="Zoe")
    taken = Player.objects.create(club=club, name="Anna", user=people[Role.SCORER])

    # the last manager cannot step down
    response = as_manager.post(url("member", me.pk), {f"m{me.pk}-role": "member"})
    assert response.status_code == 200
    assert "at least one manager" in response.content.decode()
    assert response.context["row_errors"][0].membership == me
    me.refresh_from_db()
    assert me.role == Role.MANAGER

    # a player of another club, one linked to somebody else, rubbish: the form refuses
    prefix = f"m{member.pk}"
    for player in (theirs.pk, taken.pk, "abc"):
        response = as_manager.post(
            url("member", member.pk), {f"{prefix}-role": "scorer", f"{prefix}-player": player}
        )
        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
    response = as_manager.post(url("member", member.pk), {f"{prefix}-role": "owner"})
    assert response.status_code == 200
    member.refresh_from_db()
    assert member.role == Role.MEMBER  # nothing written: both or neither

    # the last manager cannot leave either
    response = as_manager.post(url("member_remove", me.pk))
    assert response.status_code == 200
    assert "at least one manager" in response.content.decode()
    assert Membership.objects.filter(pk=me.pk).exists()


def test_remove_a_member(as_manager, people):
    member = Membership.objects.get(user=people[Role.MEMBER])
    response = as_manager.post(url("member_remove", member.pk))
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=member.pk).exists()
    assert "no longer a member" in as_manager.get(url("members")).content.decode()


def test_a_manager_who_steps_down_lands_on_my_account(as_manager, people, manager):
    Membership.objects.filter(user=people[Role.SCORER]).update(role=Role.MANAGER)
    me = Membership.objects.get(user=manager)
    response = as_manager.post(url("member", me.pk), {f"m{me.pk}-role": "member"})
    assert response.status_code == 302 and response.url == reverse("profile")
    assert as_manager.get(url("members")).status_code == 403


# ---------------------------------------------------------------- seasons


def test_seasons_list_and_create(as_manager, club, season):
    Season.objects.filter(pk=season.pk).update(rules={"preset": "fft", "rounding": 10})
    Season.objects.create(
        club=club, name="2025", start_date=datetime.date(2025, 1, 1), rules={"preset": "fixed"}
    )
    response = as_manager.get(url("seasons"))
    page = response.content.decode()
    assert "2026" in page and "rounded to 10" in page
    assert [s.name for s in response.context["seasons"]] == ["2026", "2025"]
    # a new season starts with the house rules of the latest one
    assert response.context["form"].initial["rounding"] == 10
    assert response.context["form"].initial["preset"] == "fft"

    response = as_manager.post(
        url("seasons"),
        season_data(name="2027", start_date="2027-01-01", end_date="2027-06-30", rounding="5"),
    )
    assert response.status_code == 302
    created = Season.objects.get(club=club, name="2027")
    assert created.end_date == datetime.date(2027, 6, 30)
    assert created.rules == {"preset": "fft", "rounding": 5}


def test_edit_a_season_and_its_house_rules(as_manager, season):
    response = as_manager.get(url("season", season.pk))
    page = response.content.decode()
    assert "never changes a sheet already started" in page
    assert "data-only-pools" in page and "data-pools" in page

    data = season_data(
        name="Saison 2026",
        end_date="2026-12-31",
        preset="mouches",
        rounding="10",
        poignee_single="10",
        poignee_double="20",
        poignee_triple="40",
        misere="10",
        no_prise="on",
        five_player_split="equal",
        ante="20",
        dealer_stake="",  # empty: the default
    )
    response = as_manager.post(url("season", season.pk), data)
    assert response.status_code == 302 and response.url == url("season", season.pk)
    season.refresh_from_db()
    assert season.name == "Saison 2026"
    assert season.rules == {
        "preset": "mouches",
        "rounding": 10,
        "misere": 10,
        "no_prise": True,
        "five_player_split": "equal",
        "ante": 20,
        "poignee": [10, 20, 40],
    }
    page = as_manager.get(url("season", season.pk)).content.decode()
    assert "Mouches: with pools" in page and "poignées 10/20/40" in page and "ante 20" in page


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"end_date": "2025-12-31"}, "end_date", "The end comes before the start."),
        ({"start_date": "not a date"}, "start_date", "Enter a valid date."),
        ({"start_date": None}, "start_date", "This field is required."),
        ({"preset": "poker"}, "preset", "Select a valid choice"),
        ({"rounding": "3"}, "rounding", "Select a valid choice"),
        ({"rounding": "abc"}, "rounding", "Select a valid choice"),
        ({"poignee_double": "-5"}, "poignee_double", "greater than or equal to 0"),
        ({"poignee_triple": "x"}, "poignee_triple", "Enter a whole number."),
        ({"misere": "1e9"}, "misere", "Enter a whole number."),
        ({"ante": "99999"}, "ante", "less than or equal to 9999"),
        ({"five_player_split": "thirds"}, "five_player_split", "Select a valid choice"),
        ({"name": ""}, "name", "This field is required."),
        ({"name": "2025"}, "name", "already has a season of this name"),
    ],
)
def test_season_errors_land_on_their_field(as_manager, club, season, changes, field, message):
    Season.objects.create(club=club, name="2025", start_date=datetime.date(2025, 1, 1))
    response = as_manager.post(url("season", season.pk), season_data(**changes))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and message in " ".join(errors[field]), errors
    season.refresh_from_db()
    assert season.name == "2026" and season.end_date is None


def test_create_season_errors_land_on_their_field(as_manager, club):
    response = as_manager.post(
        url("seasons"), season_data(start_date="2026-06-01", end_date="2026-01-01")
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"end_date": ["The end comes before the start."]}
    assert response.context["open_form"]
    assert not Season.objects.filter(club=club).exists()


# ---------------------------------------------------------------- my account


def test_profile_needs_a_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response.url == reverse("login") + "?next=/accounts/profile/"


def test_profile_lists_clubs_roles_and_players(client, club, other_club, people):
    scorer = people[Role.SCORER]
    Membership.objects.create(club=other_club, user=scorer, role=Role.MEMBER)
    Player.objects.create(club=club, name="Carl", user=scorer)
    client.force_login(scorer)

    response = client.get(reverse("profile"))
    assert response.status_code == 200
    page = response.content.decode()
    assert [(c["club"].slug, c["role"], c["player"]) for c in response.context["clubs"]] == [
        ("rive", "scorer", Player.objects.get(name="Carl")),
        ("excuses", "member", None),
    ]
    assert "You play as <strong>Carl</strong>" in page
    assert reverse("password_change") in page
    assert url("overview") not in page  # not a manager

    client.force_login(people[Role.MANAGER])
    assert url("overview") in client.get(reverse("profile")).content.decode()


def test_profile_of_a_user_without_clubs(client, make_user):
    client.login(username=make_user("nobody").username, password=PASSWORD)
    response = client.get(reverse("profile"))
    assert "not a member of any club yet" in response.content.decode()
