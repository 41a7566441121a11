"""Who may read and write what: every URL of the project, every kind of user.

For each URL: anonymous, a user of another club, a member, a scorer and a
manager of the club, on a public and on a members-only club; reads (GET) and
writes (POST); a denied write must change nothing. Every object id of one club
given under another club's URL must answer 404, even to that club's manager.
A URL missing from the matrix fails ``test_every_url_is_in_the_matrix``.
"""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import get_resolver, reverse
from django.urls.resolvers import URLResolver

from clubs.models import Club, Invitation, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet
from tournaments import services as tournament_services
from tournaments import tokens
from tournaments.models import Entry, Round, RoundTable, TableResult, Tournament

USERS = ("anonymous", "outsider", "member", "scorer", "manager")
HAND = {"dealer": "P1", "taker": "P1", "contract": "garde", "bouts": 2, "points": 56}

# name -> (level, methods, the objects its URL needs)
CLUB_URLS = {
    "clubs:detail": ("read", "G", ()),
    "standings:club": ("read", "G", ()),
    "standings:season": ("read", "G", ("season",)),
    "standings:ratings": ("read", "G", ()),
    "standings:season_ratings": ("read", "G", ("season",)),
    "stats:player": ("read", "G", ("player",)),
    "stats:player_season": ("read", "G", ("player", "season")),
    "stats:season": ("read", "G", ("season",)),
    "scoresheet:sheets": ("read", "G", ()),
    "scoresheet:sheet": ("read", "G", ("sheet",)),
    "scoresheet:sheet_export": ("read", "G", ("sheet",)),
    "scoresheet:sheet_print": ("read", "G", ("sheet",)),
    "scoresheet:sheet_blank": ("read", "G", ("sheet",)),
    "scoresheet:hand": ("read", "G", ("sheet", "live")),
    "scoresheet:sheet_create": ("score", "GP", ()),
    "scoresheet:hand_create": ("score", "GP", ("sheet",)),
    "scoresheet:hand_preview": ("score", "P", ("sheet",)),
    "scoresheet:hand_edit": ("score", "GP", ("sheet", "live")),
    "scoresheet:hand_delete": ("score", "P", ("sheet", "live")),
    "scoresheet:hand_restore": ("score", "P", ("sheet", "deleted")),
    "clubhouse:history": ("manage", "G", ()),
    "clubhouse:players": ("read", "G", ()),
    "clubhouse:player_edit": ("manage", "GP", ("player",)),
    "clubhouse:player_merge": ("manage", "P", ("player",)),
    "clubhouse:player_unmerge": ("manage", "P", ("player",)),
    "scoresheet:sheets_deleted": ("manage", "G", ()),
    "scoresheet:sheet_edit": ("score", "GP", ("sheet",)),
    "scoresheet:sheet_check": ("score", "GP", ("sheet",)),
    "scoresheet:sheet_close": ("score", "P", ("sheet",)),
    "scoresheet:sheet_reopen": ("manage", "P", ("sheet",)),
    "scoresheet:sheet_delete": ("manage", "P", ("sheet",)),
    "scoresheet:sheet_restore": ("manage", "P", ("sheet",)),
    "scoresheet:hand_note": ("score", "P", ("sheet", "live")),
    "manage:overview": ("manage", "GP", ()),
    "manage:members": ("manage", "GP", ()),
    "manage:member": ("manage", "P", ("membership",)),
    "manage:member_remove": ("manage", "P", ("membership",)),
    "manage:invitation": ("manage", "P", ("invitation",)),
    "manage:seasons": ("manage", "GP", ()),
    "manage:season": ("manage", "GP", ("season",)),
    "manage:welcome": ("manage", "GP", ()),
    "transfer:data": ("manage", "G", ()),
    "transfer:import": ("manage", "P", ()),
    "transfer:backup": ("manage", "G", ()),
    "transfer:season_jsonl": ("read", "G", ("season",)),
    "transfer:season_xlsx": ("read", "G", ("season",)),
    "tournaments:list": ("read", "G", ()),
    "tournaments:create": ("manage", "GP", ()),
    "tournaments:detail": ("read", "G", ("tournament",)),
    "tournaments:edit": ("manage", "GP", ("tournament",)),
    "tournaments:players": ("manage", "GP", ("tournament",)),
    "tournaments:entry": ("read", "G", ("tournament", "entry")),
    "tournaments:withdraw": ("manage", "P", ("tournament", "entry")),
    "tournaments:schedule": ("manage", "P", ("tournament",)),
    "tournaments:ranking": ("read", "G", ("tournament",)),
    "tournaments:route_cards": ("read", "G", ("tournament",)),
    "tournaments:round": ("read", "G", ("tournament", "round")),
    "tournaments:round_draw": ("manage", "P", ("tournament", "round")),
    "tournaments:round_swap": ("manage", "P", ("tournament", "round")),
    "tournaments:round_start": ("manage", "P", ("tournament", "round")),
    "tournaments:round_close": ("manage", "P", ("tournament", "round")),
    "tournaments:table_cards": ("read", "G", ("tournament", "round")),
    "tournaments:close": ("manage", "P", ("tournament",)),
    "tournaments:export_json": ("read", "G", ("tournament",)),
    "tournaments:screen": ("read", "G", ("tournament",)),
    "tournaments:screen_live": ("read", "G", ("tournament",)),
    "tournaments:find": ("read", "G", ("tournament",)),
    "tournaments:table": ("manage", "G", ("tournament", "round", "table")),
    "tournaments:table_confirm": ("manage", "P", ("tournament", "round", "table")),
    "tournaments:table_reopen": ("manage", "P", ("tournament", "round", "table")),
    "tournaments:table_revoke": ("manage", "P", ("tournament", "round", "table")),
    "tournaments:table_hand": ("manage", "GP", ("tournament", "round", "table", "table_hand")),
}
# A tournament table's private link (tournaments.table_views): no account, the token is
# the key, the same for every user. name -> methods.
TOKEN_URLS = {
    "table:sheet": "G",
    "table:hand_create": "GP",
    "table:hand_preview": "P",
    "table:hand_edit": "GP",
    "table:hand_delete": "P",
    "table:submit": "P",
    "table:check": "P",
}
# URLs outside any club: who may GET them
SITE_URLS = {
    "home": "all",
    "login": "all",
    "logout": "post",  # Django 5: POST only
    "password_change": "login",
    "password_change_done": "login",
    "password_reset": "all",
    "password_reset_done": "all",
    "password_reset_confirm": "all",
    "password_reset_complete": "all",
    "set_language": "redirect",  # a GET changes nothing and goes back
    "profile": "login",
    "invitation": "404",  # an unknown token; tests/clubs/test_invitations.py has the rest
    # getting started (clubs.account_views); sign-up and new clubs are off by default:
    # tests/clubs/test_getting_started.py turns them on
    "signup": "404",
    "signup_confirm": "all",  # a page with a button; the POST checks the token
    "club_create": "404",
    "email_change": "post",
    "email_confirm": "all",  # an unknown token: the page says so
}
ALLOWED = {
    "read": {"member", "scorer", "manager"},
    "score": {"scorer", "manager"},
    "manage": {"manager"},
}


class World:
    """Two clubs with the same shape: a season, players, a sheet, a live and a deleted hand."""

    def __init__(self):
        User = get_user_model()
        self.users = {
            name: User.objects.create_user(name, password="pw-matrix-1")
            for name in ("outsider", "member", "scorer", "manager")
        }
        self.clubs = {}
        for slug, public in (("open", True), ("closed", False), ("other", True)):
            club = Club.objects.create(name=slug.title(), slug=slug, is_public=public)
            season = Season.objects.create(
                club=club, name="S", start_date=datetime.date(2026, 1, 1)
            )
            players = [Player.objects.create(club=club, name=f"P{i}") for i in range(1, 5)]
            sheet = services.create_sheet(season=season, players=players, date=season.start_date)
            live = services.record_hand(sheet, HAND)
            deleted = services.delete_hand(services.record_hand(sheet, HAND))
            # A tournament of the four players: round 1 started, round 2 not drawn.
            tournament = tournament_services.create_tournament(
                club, name="T", date=season.start_date, rules="fft", rounds=2, deals_per_round=4
            )
            entries = tournament_services.register(tournament, [("member", p) for p in players])
            first = tournament.round_set.get(number=1)
            tournament_services.draw_round(first)
            tournament_services.start_round(first)
            table = first.tables.select_related("sheet").get()
            table_hand = services.record_hand(table.sheet, HAND)
            revoked = tokens.token(table)
            tournament_services.revoke_link(table)
            table.refresh_from_db()
            # another tournament, its only round played and closed: its link has expired
            done = tournament_services.create_tournament(
                club, name="D", date=season.start_date, rules="fft", rounds=1, deals_per_round=1
            )
            tournament_services.register(done, [("member", p) for p in players])
            done_round = done.round_set.get()
            tournament_services.draw_round(done_round)
            tournament_services.start_round(done_round)
            services.record_hand(done_round.tables.get().sheet, HAND)
            tournament_services.close_round(done_round)
            self.clubs[slug] = {
                "table": table,
                "table_hand": table_hand,
                "tokens": {
                    "valid": tokens.token(table),
                    "wrong": "x" * tokens.TOKEN_LENGTH,
                    "revoked": revoked,
                    "expired": tokens.token(done_round.tables.get()),
                },
                "tournament": tournament,
                "round": first,
                "entry": entries[0],
                "club": club,
                "season": season,
                "player": players[0],
                "sheet": sheet,
                "live": live,
                "deleted": deleted,
            }
        other = self.clubs["other"]
        other["membership"] = Membership.objects.create(
            club=other["club"], user=self.users["outsider"], role=Role.MANAGER
        )
        for slug in ("open", "closed"):
            club = self.clubs[slug]["club"]
            for role in ("member", "scorer", "manager"):
                m = Membership.objects.create(club=club, user=self.users[role], role=role)
                if role == "member":
                    self.clubs[slug]["membership"] = m
        for slug, objects in self.clubs.items():
            objects["invitation"] = Invitation.objects.create(
                club=objects["club"], email=f"guest@{slug}.example.org", token_hash=slug
            )

    def url(self, name, slug, objects_of=None):
        objects = self.clubs[objects_of or slug]
        kwargs = {"slug": slug}
        for need in CLUB_URLS[name][2]:
            if need in ("live", "deleted", "entry"):
                kwargs["number"] = objects[need].number
            elif need == "round":
                kwargs["round_number"] = objects[need].number
            elif need == "table":
                kwargs["table_number"] = objects[need].number
            elif need == "table_hand":
                kwargs["number"] = objects[need].number
            else:
                kwargs[f"{need}_id"] = objects[need].pk
        return reverse(name, kwargs=kwargs)


def state():
    """Everything a write could change."""
    return (
        list(Hand.objects.order_by("pk").values_list("pk", "is_deleted", "points", "taker_id")),
        ScoreRow.objects.count(),
        HandRevision.objects.count(),
        Sheet.objects.count(),
        list(Membership.objects.order_by("pk").values_list("pk", "role")),
        list(Season.objects.order_by("pk").values_list("pk", "name", "rules")),
        list(Club.objects.order_by("pk").values_list("pk", "name", "is_public")),
        list(Invitation.objects.order_by("pk").values_list("pk", "token_hash")),
        list(Tournament.objects.order_by("pk").values_list("pk", "name", "rounds", "state")),
        list(Entry.objects.order_by("pk").values_list("pk", "withdrawn_after_round")),
        list(Round.objects.order_by("pk").values_list("pk", "state")),
        list(
            RoundTable.objects.order_by("pk").values_list(
                "pk", "seats", "sheet_id", "state", "token_hash"
            )
        ),
        TableResult.objects.count(),
        list(Sheet.objects.order_by("pk").values_list("pk", "closed_at")),
        list(Sheet.objects.order_by("pk").values_list("pk", "deleted_at", "date", "table", "note")),
        list(Player.objects.order_by("pk").values_list("pk", "name", "is_active", "merged_into")),
        list(Hand.objects.order_by("pk").values_list("pk", "note")),
    )


def client_for(client, world, who):
    if who != "anonymous":
        client.force_login(world.users[who])
    return client


def expected(level, visibility, who, method):
    """The status a request should get, or "ok" for any allowed answer."""
    member = who in ALLOWED["read"]
    if who in ALLOWED[level] or (level == "read" and visibility == "open"):
        return "ok"
    if who == "anonymous":
        return 404 if level == "read" else "login"
    if visibility == "closed" and not member:
        return 404  # a members-only club is not revealed to strangers
    return 403


def check(response, want):
    if want == "ok":
        denied = response.status_code in (403, 404, 405) or (
            response.status_code == 302 and "/accounts/login/" in response["Location"]
        )
        return not denied and response.status_code < 500
    if want == "login":
        return response.status_code == 302 and "/accounts/login/" in response["Location"]
    return response.status_code == want


@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker):
    """The world, built once for the module inside a transaction rolled back at its end."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield World()
        transaction.set_rollback(True)


@pytest.fixture
def world(_module_world, db):
    """Each test runs in a savepoint of the module's transaction, so its writes roll back."""
    return _module_world


@pytest.mark.parametrize("visibility", ["open", "closed"])
@pytest.mark.parametrize("name", sorted(CLUB_URLS))
def test_club_url_matrix(world, client, django_user_model, name, visibility):
    level, methods, _needs = CLUB_URLS[name]
    url = world.url(name, visibility)
    wrong = []
    for who in USERS:
        for method in methods:
            client.logout()
            client_for(client, world, who)
            want = expected(level, visibility, who, method)
            before = state()
            response = client.get(url) if method == "G" else client.post(url, {})
            if not check(response, want):
                wrong.append(f"{method} {who}: got {response.status_code}, want {want}")
            if method == "P" and want != "ok" and state() != before:
                wrong.append(f"POST {who}: denied but the database changed")
    assert not wrong, f"{name} ({visibility}): " + "; ".join(wrong)


@pytest.mark.parametrize("name", sorted(n for n, v in CLUB_URLS.items() if v[2]))
def test_objects_of_another_club_are_not_reachable(world, client, name):
    """The open club's manager, on their own club's URL, with the other club's ids."""
    client.force_login(world.users["manager"])
    url = world.url(name, "open", objects_of="other")
    before = state()
    for method in CLUB_URLS[name][1]:
        response = client.get(url) if method == "G" else client.post(url, {})
        assert response.status_code == 404, (method, url, response.status_code)
    assert state() == before


@pytest.mark.parametrize("who", USERS)
def test_site_urls(world, client, who):
    client_for(client, world, who)
    wrong = []
    for name, rule in SITE_URLS.items():
        kwargs = (
            {"uidb64": "MQ", "token": "set-password"} if name == "password_reset_confirm" else {}
        )
        if name in ("invitation", "signup_confirm", "email_confirm"):
            kwargs = {"token": "not-a-token"}
        url = reverse(name, kwargs=kwargs)
        response = client.get(url)
        if rule == "404":
            ok = response.status_code == 404
        elif rule == "post":
            ok = response.status_code == 405
        elif rule == "redirect":
            ok = response.status_code == 302
        elif rule == "login" and who == "anonymous":
            ok = response.status_code == 302 and "/accounts/login/" in response["Location"]
        else:
            ok = response.status_code == 200
        if not ok:
            wrong.append(f"{name}: {response.status_code}")
    assert not wrong, wrong


@pytest.mark.parametrize("who", USERS)
def test_members_only_club_never_leaks(world, client, who):
    """Pages anyone can reach never show a members-only club to a non-member."""
    client_for(client, world, who)
    member = who in ALLOWED["read"]
    urls = [reverse("home")] + ([reverse("profile")] if who != "anonymous" else [])
    for url in urls:
        page = client.get(url).content.decode()
        assert ("Closed" in page) == member, (url, who)
    club = world.clubs["open"]
    page = client.get(world.url("scoresheet:sheets", "open")).content.decode()
    assert "/clubs/closed/" not in page
    assert club["club"].name in page


def test_admin_is_staff_only(world, client):
    for who in USERS:
        client.logout()
        client_for(client, world, who)
        response = client.get("/admin/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"], who


def test_every_url_is_in_the_matrix():
    names = set()

    def walk(resolver, namespace=None):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                ns = pattern.namespace or namespace
                if ns != "admin":
                    walk(pattern, ns)
            elif pattern.name:
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver())
    missing = names - set(CLUB_URLS) - set(SITE_URLS) - set(TOKEN_URLS)
    assert not missing, f"URLs without a permission check in the matrix: {sorted(missing)}"
    stale = (set(CLUB_URLS) | set(SITE_URLS) | set(TOKEN_URLS)) - names
    assert not stale, f"matrix names no longer routed: {sorted(stale)}"


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_a_members_only_club_answers_as_an_unknown_slug(world, client, who):
    """Every club URL, GET and POST: the closed club and a slug nobody uses look alike."""
    client_for(client, world, who)
    wrong = []
    for name, (_level, methods, _needs) in sorted(CLUB_URLS.items()):
        closed = world.url(name, "closed")
        unknown = closed.replace("/clubs/closed/", "/clubs/no-such-club/", 1)
        for method in methods:
            answers = []
            for url in (closed, unknown):
                response = client.get(url) if method == "G" else client.post(url, {})
                location = response.get("Location", "").replace("no-such-club", "closed")
                answers.append((response.status_code, location))
            if answers[0] != answers[1]:
                wrong.append(f"{method} {name}: closed {answers[0]}, unknown {answers[1]}")
    assert not wrong, wrong


#: What a table's link answers, by its token: the table's pages, or 404, or 410 (gone).
TOKEN_ANSWERS = {"valid": "ok", "wrong": 404, "revoked": 404, "expired": 410}


@pytest.mark.parametrize("visibility", ["open", "closed"])
@pytest.mark.parametrize("name", sorted(TOKEN_URLS))
def test_table_link_matrix(world, client, name, visibility):
    """Every role, on a public and a members-only club, with a valid, wrong, revoked and
    expired (round closed) token: the token alone decides; a refused write changes
    nothing."""
    from django.core.cache import cache

    objects = world.clubs[visibility]
    wrong = []
    for who in USERS:
        for kind, want in TOKEN_ANSWERS.items():
            kwargs = {"token": objects["tokens"][kind]}
            if name in ("table:hand_edit", "table:hand_delete"):
                kwargs["number"] = objects["table_hand"].number
            url = reverse(name, kwargs=kwargs)
            for method in TOKEN_URLS[name]:
                cache.clear()  # the wrong-link limit is tested on its own
                client.logout()
                client_for(client, world, who)
                before = state()
                with transaction.atomic():
                    response = client.get(url) if method == "G" else client.post(url, {})
                    changed = state() != before
                    transaction.set_rollback(True)
                if not check(response, want):
                    wrong.append(f"{method} {who} {kind}: got {response.status_code}, want {want}")
                if want != "ok" and changed:
                    wrong.append(f"{method} {who} {kind}: refused but the database changed")
    assert not wrong, f"{name} ({visibility}): " + "; ".join(wrong)
