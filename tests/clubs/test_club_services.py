"""clubs.services: who may change a club's members, settings and seasons, and the refusals."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from clubs import services
from clubs.models import Club, Membership, Player, Role, Season
from clubs.services import ClubError
from scoresheet import services as ledger

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing a password the real way takes a noticeable time per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


JAN, JUN = datetime.date(2026, 1, 1), datetime.date(2026, 6, 30)


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def manager(make_user, club):
    user = make_user("marie")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


@pytest.fixture
def other_club(db):
    return Club.objects.create(name="Les Excusés", slug="excuses")


def refused(code, call, *args, **kwargs):
    with pytest.raises(ClubError) as info:
        call(*args, **kwargs)
    assert info.value.code == code, info.value.message
    return info.value


# ---------------------------------------------------------------- who may write


def test_only_a_manager_may_write(club, manager, make_user, other_club):
    scorer = make_user("sam")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    Membership.objects.create(club=other_club, user=make_user("olga"), role=Role.MANAGER)
    olga = get_user_model().objects.get(username="olga")
    for by in (scorer, olga):
        refused("forbidden", services.update_club, club, name="X", is_public=False, actor=by)
    admin = make_user("root", is_superuser=True)
    assert services.update_club(club, name="X", is_public=False, actor=admin).name == "X"


# ---------------------------------------------------------------- roles


def test_change_role_keeps_a_manager(club, manager, make_user):
    mine = Membership.objects.get(user=manager)
    error = refused("last_manager", services.change_role, mine, Role.SCORER, actor=manager)
    assert error.field == "role"
    refused("role_invalid", services.change_role, mine, "king", actor=manager)

    bob = Membership.objects.create(club=club, user=make_user("bob"), role=Role.MEMBER)
    services.change_role(bob, Role.MANAGER, actor=manager)
    services.change_role(mine, Role.SCORER, actor=manager)  # another manager now: allowed
    mine.refresh_from_db()
    assert mine.role == Role.SCORER
    # marie is no longer a manager: she may not promote herself back
    refused("forbidden", services.change_role, mine, Role.MANAGER, actor=manager)


def test_remove_member_keeps_a_manager_and_unlinks_the_player(club, manager, make_user):
    mine = Membership.objects.get(user=manager)
    refused("last_manager", services.remove_member, mine, actor=manager)

    bob_user = make_user("bob")
    bob = Membership.objects.create(club=club, user=bob_user, role=Role.MEMBER)
    player = Player.objects.create(club=club, name="Bert")
    services.link_player(bob, player, actor=manager)
    services.remove_member(bob, actor=manager)

    assert not Membership.objects.filter(user=bob_user).exists()
    player.refresh_from_db()
    assert player.user is None  # the player and its results stay
    assert Membership.objects.get(user=manager).role == Role.MANAGER


# ---------------------------------------------------------------- players


def test_link_player_moves_and_unlinks(club, manager, make_user, other_club):
    anna, bert = (Player.objects.create(club=club, name=n) for n in ("Anna", "Bert"))
    membership = Membership.objects.get(user=manager)

    services.link_player(membership, anna, actor=manager)
    assert Player.objects.get(user=manager) == anna
    services.link_player(manager, bert, actor=manager)  # a user works as well: the link moves
    assert list(Player.objects.filter(user=manager)) == [bert]
    services.link_player(membership, None, actor=manager)
    assert not Player.objects.filter(user=manager).exists()
    services.link_player(manager, bert, actor=manager)
    services.link_player(manager, None, club=club, actor=manager)
    assert not Player.objects.filter(user=manager).exists()

    # one login per club: marie may be linked in another club too
    Membership.objects.create(club=other_club, user=manager, role=Role.MANAGER)
    theirs = Player.objects.create(club=other_club, name="Anna")
    services.link_player(manager, anna, actor=manager)
    services.link_player(manager, theirs, actor=manager)
    assert Player.objects.filter(user=manager).count() == 2


def test_link_player_refusals(club, manager, make_user, other_club):
    membership = Membership.objects.get(user=manager)
    elsewhere = Player.objects.create(club=other_club, name="Zoe")
    error = refused(
        "player_not_in_club", services.link_player, membership, elsewhere, actor=manager
    )
    assert error.field == "player"

    stranger = make_user("stranger")
    anna = Player.objects.create(club=club, name="Anna")
    refused("not_a_member", services.link_player, stranger, anna, actor=manager)

    bob = Membership.objects.create(club=club, user=make_user("bob"), role=Role.MEMBER)
    services.link_player(bob, anna, actor=manager)
    refused("player_taken", services.link_player, membership, anna, actor=manager)
    anna.refresh_from_db()
    assert anna.user == bob.user


# ---------------------------------------------------------------- the club


def test_update_club(club, manager):
    services.update_club(club, name="  Club   du Lac ", is_public=False, actor=manager)
    club.refresh_from_db()
    assert (club.name, club.slug, club.is_public) == ("Club du Lac", "rive", False)
    refused("name_required", services.update_club, club, name=" ", is_public=True, actor=manager)
    refused("name_too_long", services.update_club, club, name="x" * 121, is_public=1, actor=manager)


# ---------------------------------------------------------------- seasons


def test_create_season_normalises_the_rules(club, manager):
    season = services.create_season(
        club,
        name="2026",
        start_date=JAN,
        end_date=JUN,
        rules={"preset": "fft", "rounding": 10, "poignee": [20, 30, 40], "ante": 10},
        actor=manager,
    )
    assert season.rules == {"preset": "fft", "rounding": 10}
    # positional, as in the issue: (club, name, start, end, rules, by); no rules: fft
    open_ended = services.create_season(club, "Open", JUN, None, None, actor=manager)
    assert (open_ended.end_date, open_ended.rules) == (None, {"preset": "fft"})


def test_season_refusals(club, manager):
    create = services.create_season
    error = refused("dates_inverted", create, club, "S", JUN, JAN, None, actor=manager)
    assert error.field == "end_date"
    refused("date_required", create, club, "S", None, None, None, actor=manager)
    refused("name_required", create, club, "", JAN, None, None, actor=manager)
    error = refused("rules_invalid", create, club, "S", JAN, None, {"preset": "x"}, actor=manager)
    assert error.field == "rules"
    error = refused("rules_invalid", create, club, "S", JAN, None, {"rounding": 3}, actor=manager)
    assert error.field == "rounding"
    error = refused(
        "rules_invalid", create, club, "S", JAN, None, {"poignee": [1, -2, 4]}, actor=manager
    )
    assert error.field == "poignee"
    error = refused(
        "rules_invalid", create, club, "S", JAN, None, {"no_prise": "yes"}, actor=manager
    )
    assert error.field == "no_prise"
    refused("rules_invalid", create, club, "S", JAN, None, {"colour": "red"}, actor=manager)
    create(club, "2026", JAN, None, "fft", actor=manager)
    refused("season_name_taken", create, club, " 2026", JAN, None, None, actor=manager)
    assert Season.objects.filter(club=club).count() == 1


def test_update_season_keeps_the_rules_of_existing_sheets(club, manager):
    season = services.create_season(club, "2026", JAN, None, None, actor=manager)
    players = [Player.objects.create(club=club, name=n) for n in ("A", "B", "C", "D")]
    sheet = ledger.create_sheet(season=season, players=players, date=JAN)

    services.update_season(
        season,
        name="Saison 2026",
        start_date=JAN,
        end_date=JUN,
        rules={"preset": "mouches", "ante": 20, "misere": 10},
        actor=manager,
    )
    season.refresh_from_db()
    assert season.name == "Saison 2026" and season.end_date == JUN
    assert season.rules == {"preset": "mouches", "misere": 10, "ante": 20}
    sheet.refresh_from_db()
    assert sheet.rules == {"preset": "fft"}  # frozen when the sheet was opened
    assert sheet.ruleset.preset == "fft"

    update = services.update_season
    refused("dates_inverted", update, season, "S", JUN, JAN, season.rules, actor=manager)
    refused("rules_invalid", update, season, "S", JAN, None, {"rounding": 7}, actor=manager)
    other = services.create_season(club, "2027", JUN, None, None, actor=manager)
    refused("season_name_taken", update, other, "saison 2026", JUN, None, None, actor=manager)
    season.refresh_from_db()
    assert (season.name, season.rules["preset"]) == ("Saison 2026", "mouches")  # nothing written


# ---------------------------------------------------------------- mailed links


def test_absolute_link_from_the_request_else_the_allowed_hosts(settings):
    from django.test import RequestFactory

    settings.ALLOWED_HOSTS = ["club.example.net"]
    request = RequestFactory().get("/", HTTP_HOST="club.example.net")
    assert services.absolute_link(request, "/x/") == "http://club.example.net/x/"
    settings.ALLOWED_HOSTS = ["*", ".tarot.example.org", "other.example.org"]
    assert services.absolute_link(None, "/x/") == "https://tarot.example.org/x/"
    settings.ALLOWED_HOSTS = []
    assert services.absolute_link(None, "/x/") == "https://localhost/x/"


def test_every_refusal_of_the_module_is_in_its_catalogue():
    """``ClubError`` looks its message up by code (or by ``wording=``) in
    ``clubs.services.error_messages``: every code and wording raised there is declared."""
    import inspect
    import re

    source = inspect.getsource(services)
    raised = set(re.findall(r'ClubError\(\s*"([a-z_]+)"', source))
    worded = set(re.findall(r'wording="([a-z_.]+)"', source))
    assert raised and raised <= set(services.error_messages)
    assert worded and worded <= set(services.error_messages)


def test_a_catalogued_refusal_takes_its_parameters_and_wording(club):
    error = services.ClubError("player_exists", field="name", name="Anna")
    assert (error.message, error.field) == ("The club already has a player called Anna.", "name")
    error = services.ClubError("player_exists", wording="player_exists.merge", name="Anna")
    assert error.message == "The club already has a player called Anna: merge them instead."
    assert error.code == "player_exists"
