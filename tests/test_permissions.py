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
from django.test import Client
from django.urls import get_resolver, reverse
from django.urls.resolvers import URLResolver

from clubs import tokens as api_tokens
from clubs.models import Club, Invitation, Membership, Player, Role, Season
from competitions.models import (
    CaptainLink,
    Competition,
    Division,
    LineUpSeat,
    Match,
    MatchClaim,
    TableDeal,
)
from competitions.models import Team as CompetitionTeam
from leagues import licences
from leagues.models import HeldLicence
from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet
from tournaments import services as tournament_services
from tournaments import tokens
from tournaments.duplicate import services as duplicate_services
from tournaments.models import DealDecision, Entry, Round, RoundTable, TableResult, Tournament
from transfer import jobs
from transfer.models import Job

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
    "transfer:season_csv": ("read", "G", ("season",)),
    "transfer:job_start": ("manage", "P", ()),
    "transfer:job": ("manage", "G", ("job",)),
    "transfer:job_status": ("manage", "G", ("job",)),
    "transfer:job_file": ("manage", "G", ("job",)),
    "transfer:job_again": ("manage", "P", ("job",)),
    "transfer:upload_preview": ("manage", "G", ("preview_job",)),
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
    "tournaments:table_totals": ("manage", "P", ("tournament", "round", "table")),
    "tournaments:table_totals_cancel": ("manage", "P", ("tournament", "round", "table")),
    "tournaments:table_hand": ("manage", "GP", ("tournament", "round", "table", "table_hand")),
    # a duplicate event (tournaments.duplicate.views)
    "tournaments:duplicate_create": ("manage", "GP", ()),
    "tournaments:duplicate": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_edit": ("manage", "GP", ("duplicate",)),
    "tournaments:duplicate_draw": ("manage", "P", ("duplicate",)),
    "tournaments:duplicate_series": ("manage", "GP", ("duplicate",)),
    "tournaments:duplicate_movement": ("manage", "GP", ("duplicate",)),
    "tournaments:duplicate_route_cards": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_table_cards": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_etuis": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_deal_sheets": ("manage", "G", ("duplicate",)),
    "tournaments:duplicate_etuis_by_hand": ("manage", "P", ("duplicate",)),
    "tournaments:duplicate_ranking": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_screen": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_screen_live": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_travellers": ("read", "G", ("duplicate",)),
    "tournaments:duplicate_traveller": ("read", "G", ("duplicate", "dup_deal")),
    "tournaments:duplicate_player": ("read", "G", ("duplicate", "dup_entry")),
    "tournaments:duplicate_arbitre": ("manage", "GP", ("duplicate",)),
    "tournaments:duplicate_decision_remove": ("manage", "P", ("duplicate", "decision")),
    "tournaments:duplicate_export": ("read", "G", ("duplicate",)),
    "league_club:leagues": ("manage", "GP", ()),
    "league_club:guests": ("manage", "GP", ("tournament",)),
    "league_club:player_data": ("manage", "GP", ("player",)),
    "league_club:player_erase": ("manage", "GP", ("player",)),
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
    "table:take_over": "P",
    "table:heartbeat": "P",
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
    # the link sent again: only after a login tried before confirming; else the login page
    "signup_resend": "redirect",
    "club_create": "404",
    "email_change": "post",
    "email_confirm": "all",  # an unknown token: the page says so
    "leagues:list": "all",
    "leagues:create": "404",  # closed unless the site allows it (a superuser: tested apart)
    "leagues:mine": "login",
    "leagues:my_data": "login",
    # My account's API tokens (clubs.account_views): POST only, logged in
    "token_create": "post",
    "token_revoke": "post",
    # a site administrator's restore of a club (transfer.views): 403 to any other login
    "restore": "staff",
    "restore_job": "staff",
    "restore_status": "staff",
    # the installable web app (config.pwa): static facts, the same for everybody
    "service_worker": "all",
    "manifest": "all",
    "favicon": "redirect",  # to the static icon, for everybody
    "guide": "redirect",  # to the guide's first page (static files), for everybody
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
            # a backup made in the background (done: its file is there to download)
            job = jobs.start(Job.Kind.BACKUP, club=club, actor=None)
            # a large upload's check, still running (its page waits for it)
            preview_job = Job.objects.create(
                kind=Job.Kind.UPLOAD_PREVIEW, club=club, state=Job.State.RUNNING
            )
            done_round = done.round_set.get()
            tournament_services.draw_round(done_round)
            tournament_services.start_round(done_round)
            services.record_hand(done_round.tables.get().sheet, HAND)
            tournament_services.close_round(done_round)
            # a duplicate event of the four players: one round of two deals, started
            duplicate = duplicate_services.create_duplicate(
                club, name="Dup", date=season.start_date, rounds=1, deals_per_set=2
            )
            dup_entries = tournament_services.register(duplicate, [("member", p) for p in players])
            duplicate_services.draw_movement(duplicate)
            tournament_services.start_round(duplicate.round_set.get())
            dup_table = RoundTable.objects.get(round__tournament=duplicate)
            tournament_services.record_table_hand(dup_table, {**HAND, "dealer": None})
            decision = duplicate_services.cancel_deal(dup_table, 2, "étui")
            self.clubs[slug] = {
                "duplicate": duplicate,
                "dup_entry": dup_entries[0],
                "dup_deal": 1,
                "decision": decision,
                "table": table,
                "table_hand": table_hand,
                "tokens": {
                    "valid": tokens.token(table),
                    "wrong": "x" * tokens.TOKEN_LENGTH,
                    "revoked": revoked,
                    "expired": tokens.token(done_round.tables.get()),
                },
                "tournament": tournament,
                "job": job,
                "preview_job": preview_job,
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
            if need in ("live", "deleted", "entry", "dup_entry"):
                kwargs["number"] = objects[need].number
            elif need == "duplicate":
                kwargs["tournament_id"] = objects[need].pk
            elif need == "dup_deal":
                kwargs["deal"] = objects[need]
            elif need == "round":
                kwargs["round_number"] = objects[need].number
            elif need == "table":
                kwargs["table_number"] = objects[need].number
            elif need == "table_hand":
                kwargs["number"] = objects[need].number
            elif need == "preview_job":
                kwargs["job_id"] = objects[need].pk
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
        list(Entry.objects.order_by("pk").values_list("pk", "series")),
        list(Tournament.objects.order_by("pk").values_list("pk", "etuis_by_hand", "method")),
        DealDecision.objects.count(),
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


def try_link(client, url, method, state, want, label) -> list[str]:
    """One request to a private link's page (a table's, a captain's), rolled back: what
    is wrong with its answer, or with the database when it refused (nothing may change)."""
    before = state()
    with transaction.atomic():
        response = client.get(url) if method == "G" else client.post(url, {})
        changed = state() != before
        transaction.set_rollback(True)
    wrong = []
    if not check(response, want):
        wrong.append(f"{method} {label}: got {response.status_code}, want {want}")
    if want != "ok" and changed:
        wrong.append(f"{method} {label}: refused but the database changed")
    return wrong


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
        if name == "token_revoke":
            kwargs = {"token_id": 1}
        elif name in ("restore_job", "restore_status"):
            kwargs = {"job_id": "00000000-0000-4000-8000-000000000000"}
        url = reverse(name, kwargs=kwargs)
        response = client.get(url)
        if rule == "404":
            ok = response.status_code == 404
        elif rule == "post":
            ok = response.status_code == 405
        elif rule == "redirect":
            ok = response.status_code == 302
        elif rule == "staff":  # nobody of USERS is staff
            if who == "anonymous":
                ok = response.status_code == 302 and "/accounts/login/" in response["Location"]
            else:
                ok = response.status_code == 403
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
    missing = names - set(CLUB_URLS) - set(SITE_URLS) - set(TOKEN_URLS) - set(LEAGUE_URLS)
    missing -= set(API_URLS)
    missing -= set(CAPTAIN_URLS)  # test_captain_link_matrix
    missing -= {"leagues:person"}  # test_person_page_shows_only_readable_clubs
    assert not missing, f"URLs without a permission check in the matrix: {sorted(missing)}"
    stale = (
        set(CLUB_URLS) | set(SITE_URLS) | set(TOKEN_URLS) | set(API_URLS) | set(CAPTAIN_URLS)
    ) - names
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
                wrong += try_link(client, url, method, state, want, f"{who} {kind}")
    assert not wrong, f"{name} ({visibility}): " + "; ".join(wrong)


# ---------------------------------------------------------------- leagues

# name -> (level, methods, the objects its URL needs); for a public and a members-only
# league, to: anonymous, a stranger, a member of a member club, a league manager
LEAGUE_URLS = {
    "leagues:home": ("read", "G", ()),
    "leagues:ranking": ("read", "G", ("season",)),
    "leagues:season_json": ("read", "G", ("season",)),
    "leagues:season_csv": ("read", "G", ("season",)),
    "leagues:event": ("read", "G", ("event",)),
    "leagues:ratings": ("read", "G", ()),
    "leagues:manage": ("manage", "GP", ()),
    "leagues:season_edit": ("manage", "GP", ("season",)),
    "leagues:link": ("manage", "P", ()),
    "leagues:event_edit": ("manage", "P", ("event",)),
    "leagues:licences": ("manage", "GP", ()),
    "leagues:held_licences": ("manage", "GP", ()),
    # a league's team competitions (competitions.views)
    "competitions:list": ("read", "G", ()),
    "competitions:create": ("manage", "GP", ()),
    "competitions:detail": ("read", "G", ("competition",)),
    "competitions:manage": ("manage", "GP", ("competition",)),
    "competitions:bareme": ("manage", "GP", ("competition",)),
    "competitions:team": ("read", "G", ("competition", "team")),
    "competitions:match": ("read", "G", ("competition", "match")),
    "competitions:results": ("manage", "GP", ("competition", "match")),
    # a league manager, or the team's club manager (test_a_line_up_is_its_club_managers)
    "competitions:line_up": ("manage", "GP", ("competition", "match", "team")),
    # the match day's screen and the exports: read where the league's pages are read
    "competitions:screen": ("read", "G", ("competition",)),
    "competitions:screen_live": ("read", "G", ("competition",)),
    "competitions:export": ("read", "G", ("competition",)),
    # a match's start, a captain's new link, a claim's decision (tests/competitions/test_links.py)
    "competitions:start": ("manage", "P", ("competition", "match")),
    "competitions:captain_revoke": ("manage", "P", ("competition", "match", "team")),
    "competitions:claim_decide": ("manage", "P", ("competition", "match", "claim")),
    "leagues:history": ("manage", "G", ()),
}
LEAGUE_USERS = ("anonymous", "outsider", "member", "manager")


@pytest.fixture
def league_world(db, django_user_model):
    from leagues import services as league_services  # noqa: PLC0415 (tests only)

    users = {
        name: django_user_model.objects.create_user(f"league_{name}", password="pw-matrix-1")
        for name in ("outsider", "member", "manager", "club_manager")
    }
    world = {"users": users}
    for slug, public in (("pub", True), ("priv", False)):
        league = league_services.create_league(
            slug.title(), slug, is_public=public, managers=[users["manager"]]
        )
        club = Club.objects.create(name=f"C{slug}", slug=f"c-{slug}", is_public=public)
        Membership.objects.create(club=club, user=users["member"], role=Role.MEMBER)
        Membership.objects.create(club=club, user=users["club_manager"], role=Role.MANAGER)
        league_services.accept_invitation(league_services.invite_club(league, club))
        season = league_services.save_season(league, name="S", start_date=datetime.date(2026, 1, 1))
        tournament = tournament_services.create_tournament(
            club,
            name="T",
            date=datetime.date(2026, 2, 1),
            rules="fft",
            rounds=1,
            deals_per_round=4,
        )
        event = league_services.register_event(season, tournament)
        # a line the club's manager sent, held for the league's managers
        text = f"licence;name;club\n9100;Held Line;C{slug}\n"
        licences.import_licences(league, text, actor=users["club_manager"], commit=True)
        held = HeldLicence.objects.get(league=league)
        world[slug] = {"league": league, "season": season, "event": event, "held": held}
        world[slug].update(_a_team_match(league, club))
    return world


def _a_team_match(league, club):
    """A championship of the league: two teams of ``club`` and their match."""
    from competitions import services as competitions  # noqa: PLC0415 (tests only)

    competition = competitions.create_competition(league, name="Interclubs", kind="championship")
    division = competitions.add_division(competition, "D1")
    players = [Player.objects.create(club=club, name=f"Squad {n}") for n in range(8)]
    for number in (1, 2):
        squad = players[4 * (number - 1) : 4 * number]
        competitions.enter_team(
            competition, club, name=f"Team {number}", players=squad, division=division
        )
    [match] = competitions.generate_fixtures(division)
    from competitions import links  # noqa: PLC0415 (tests only)
    from competitions.models import MatchClaim  # noqa: PLC0415

    home = links.link_of(match, match.home)
    revoked = links.token(home)
    competitions.revoke_captain_link(home)
    claim = MatchClaim.objects.create(match=match, team=match.away, text="A claim")
    return {
        "competition": competition,
        "match": match,
        "team": match.home,
        "claim": claim,
        "captain_tokens": {
            "valid": links.token(home),
            "wrong": "x" * tokens.TOKEN_LENGTH,
            "revoked": revoked,
            "table": tokens.token_of(home.token_salt),  # a table's key: not a captain's
        },
    }


def league_state():
    from leagues.models import League, LeagueClub, LeagueEvent, LeagueSeason  # noqa: PLC0415

    return (
        list(HeldLicence.objects.order_by("pk").values_list("pk", "status")),
        list(League.objects.order_by("pk").values_list("pk", "series")),
        list(LeagueClub.objects.order_by("pk").values_list("pk", "accepted_at")),
        list(LeagueSeason.objects.order_by("pk").values_list("pk", "name", "scale")),
        list(LeagueEvent.objects.order_by("pk").values_list("pk", "coefficient", "withdrawn_at")),
        list(Player.objects.order_by("pk").values_list("pk", "person_id")),
        list(Competition.objects.order_by("pk").values_list("pk", "name", "bracket")),
        list(Division.objects.order_by("pk").values_list("pk", "fixtures_at")),
        list(CompetitionTeam.objects.order_by("pk").values_list("pk", "name")),
        list(Match.objects.order_by("pk").values_list("pk", "recorded_at", "date", "venue")),
        list(LineUpSeat.objects.order_by("pk").values_list("pk", "player")),
        list(TableDeal.objects.order_by("pk").values_list("pk", "north")),
        list(Match.objects.order_by("pk").values_list("pk", "started_at")),
        list(CaptainLink.objects.order_by("pk").values_list("pk", "token_hash", "confirmed_at")),
        list(MatchClaim.objects.order_by("pk").values_list("pk", "state", "decided_at")),
    )


@pytest.mark.parametrize("visibility", ["pub", "priv"])
@pytest.mark.parametrize("name", sorted(LEAGUE_URLS))
def test_league_url_matrix(league_world, client, name, visibility):
    level, methods, needs = LEAGUE_URLS[name]
    objects = league_world[visibility]
    kwargs = {"league": objects["league"].slug}
    for need in needs:
        kwargs[f"{need}_id"] = objects[need].pk
    url = reverse(name, kwargs=kwargs)
    wrong = []
    for who in LEAGUE_USERS:
        for method in methods:
            client.logout()
            if who != "anonymous":
                client.force_login(league_world["users"][who])
            reader = visibility == "pub" or who in ("member", "manager")
            if who == "manager" or (level == "read" and reader):
                want = "ok"
            elif not reader:
                want = 404  # a members-only league answers everyone as an unknown one
            else:
                want = "login" if who == "anonymous" else 403
            before = league_state()
            response = client.get(url) if method == "G" else client.post(url, {})
            if not check(response, want):
                wrong.append(f"{method} {who}: got {response.status_code}, want {want}")
            if method == "P" and want != "ok" and league_state() != before:
                wrong.append(f"POST {who}: denied but the database changed")
    assert not wrong, f"{name} ({visibility}): " + "; ".join(wrong)


def test_league_objects_of_another_league_are_not_reachable(league_world, client):
    client.force_login(league_world["users"]["manager"])
    for name, (_level, methods, needs) in LEAGUE_URLS.items():
        if not needs:
            continue
        kwargs = {"league": "pub"}
        for need in needs:
            kwargs[f"{need}_id"] = league_world["priv"][need].pk
        for method in methods:
            url = reverse(name, kwargs=kwargs)
            response = client.get(url) if method == "G" else client.post(url, {})
            assert response.status_code == 404, (name, method, response.status_code)


@pytest.mark.parametrize("visibility", ["pub", "priv"])
def test_a_line_up_is_its_club_managers(league_world, client, visibility):
    """The team's club manager hands in its line-up (a league manager too, in the matrix);
    a member of the club may read the form's page no more than anybody else."""
    objects = league_world[visibility]
    match = objects["match"]
    url = reverse(
        "competitions:line_up",
        kwargs={
            "league": objects["league"].slug,
            "competition_id": objects["competition"].pk,
            "match_id": match.pk,
            "team_id": match.home_id,
        },
    )
    squad = list(match.home.squad.order_by("pk"))
    data = {f"player_{i}": p.pk for i, p in enumerate(squad, start=1)}
    client.force_login(league_world["users"]["member"])
    assert client.get(url).status_code == 403
    assert client.post(url, data).status_code == 403
    assert not LineUpSeat.objects.exists()
    client.force_login(league_world["users"]["club_manager"])
    assert client.get(url).status_code == 200
    assert client.post(url, data).status_code == 302
    assert LineUpSeat.objects.filter(match=match).count() == 4


# A team captain's private link to a match (competitions.captain_views): no account, the
# token is the key, the same for every user and whatever the league. name -> methods.
CAPTAIN_URLS = {"captain:page": "GP", "captain:confirm": "P", "captain:claim": "P"}
CAPTAIN_ANSWERS = {"valid": "ok", "wrong": 404, "revoked": 404, "table": 404}


@pytest.mark.parametrize("visibility", ["pub", "priv"])
@pytest.mark.parametrize("name", sorted(CAPTAIN_URLS))
def test_captain_link_matrix(league_world, client, name, visibility):
    """Anonymous, a stranger, a member, a club manager and a league manager, with the
    captain's token, a wrong one, a revoked one and a table's token of the same salt:
    the token alone decides; a refused write changes nothing."""
    from django.core.cache import cache  # noqa: PLC0415

    objects = league_world[visibility]
    wrong = []
    for who in ("anonymous", "outsider", "member", "club_manager", "manager"):
        for kind, want in CAPTAIN_ANSWERS.items():
            url = reverse(name, kwargs={"token": objects["captain_tokens"][kind]})
            for method in CAPTAIN_URLS[name]:
                cache.clear()  # the wrong-link limit is not this test's
                client.logout()
                if who != "anonymous":
                    client.force_login(league_world["users"][who])
                wrong += try_link(client, url, method, league_state, want, f"{who} {kind}")
    assert not wrong, f"{name} ({visibility}): " + "; ".join(wrong)


def test_person_page_shows_only_readable_clubs(league_world, client, django_user_model):
    from clubs.models import Person  # noqa: PLC0415

    owner = django_user_model.objects.create_user("owner", password="pw-matrix-1")
    person = Person.objects.create(name="Personne", licence="1", user=owner)
    Player.objects.create(club=Club.objects.get(slug="c-priv"), name="Secret", person=person)
    url = reverse("leagues:person", kwargs={"person_id": person.pk})
    assert client.get(url).status_code == 404  # anonymous: only a members-only club
    client.force_login(league_world["users"]["outsider"])
    assert client.get(url).status_code == 404
    for who in (league_world["users"]["member"], owner):
        client.force_login(who)
        page = client.get(url)
        assert page.status_code == 200 and "Secret" in page.content.decode()
    Player.objects.create(club=Club.objects.get(slug="c-pub"), name="Visible", person=person)
    client.force_login(league_world["users"]["outsider"])
    page = client.get(url).content.decode()
    assert "Visible" in page and "Secret" not in page


# ---------------------------------------------------------------- the JSON API (api.views)

# name -> (level, method, the objects its URL needs). "site": no club in the URL (the
# clubs a caller may read). A caller is anonymous (no header) or a personal token of
# the user for the club of the URL (the outsider's: for the club they manage, "other").
API_URLS = {
    # the schema and the docs page, for anybody; the API's root: nothing there
    "api:openapi-json": ("site", "GET", ()),
    "api:openapi-view": ("site", "GET", ()),
    "api:api-root": ("site", "GET", ()),
    "api:clubs": ("site", "GET", ()),
    "api:club": ("read", "GET", ()),
    "api:seasons": ("read", "GET", ()),
    "api:standings": ("read", "GET", ()),
    "api:players": ("read", "GET", ()),
    "api:player_statistics": ("read", "GET", ("player",)),
    "api:sheets": ("read", "GET", ()),
    "api:sheet": ("read", "GET", ("sheet",)),
    "api:hand": ("read", "GET", ("sheet", "live")),
    "api:tournaments": ("read", "GET", ()),
    "api:tournament": ("read", "GET", ("tournament",)),
    "api:tournament_ranking": ("read", "GET", ("tournament",)),
    "api:round_tables": ("read", "GET", ("tournament", "round")),
    "api:season_results": ("read", "GET", ("season",)),
    "api:tournament_results": ("read", "GET", ("tournament",)),
    "api:sheet_create": ("score", "POST", ()),
    "api:hand_create": ("score", "POST", ("sheet",)),
    "api:hand_correct": ("score", "PUT", ("sheet", "live")),
    "api:hand_delete": ("score", "DELETE", ("sheet", "live")),
    "api:hand_restore": ("score", "POST", ("sheet", "deleted")),
    "api:duplicate_ranking": ("read", "GET", ("duplicate",)),
    "api:duplicate_travellers": ("read", "GET", ("duplicate",)),
    # the leagues (test_the_api_league_matrix), a person (tests/api/test_leagues.py)
    "api:leagues": ("site", "GET", ()),
    "api:league": ("league", "GET", ()),
    "api:league_events": ("league", "GET", ("season",)),
    "api:league_event": ("league", "GET", ("event",)),
    "api:league_ranking": ("league", "GET", ("season",)),
    "api:league_ratings": ("league", "GET", ()),
    "api:licence_import": ("league_manage", "POST", ()),
    "api:held_licences": ("league_held", "GET", ()),
    "api:held_confirm": ("league_held", "POST", ()),
    "api:held_dismiss": ("league_held", "POST", ("held",)),
    "api:person": ("person", "GET", ()),
}
CLUB_LEVELS = ("read", "score")


def api_url(world, name, slug, objects_of=None):
    objects = world.clubs[objects_of or slug]
    kwargs = {} if API_URLS[name][0] == "site" else {"slug": slug}
    for need in API_URLS[name][2]:
        if need in ("live", "deleted", "round"):
            kwargs["number"] = objects[need].number
        elif need == "duplicate":
            kwargs["tournament_id"] = objects[need].pk
        else:
            kwargs[f"{need}_id"] = objects[need].pk
    return reverse(name, kwargs=kwargs)


def api_body(world, name, slug):
    if name == "api:sheet_create":
        season = world.clubs[slug]["season"]
        return {"season": season.pk, "date": "2026-02-02", "players": ["P1", "P2", "P3", "P4"]}
    return HAND if name in ("api:hand_create", "api:hand_correct") else None


def api_call(client, method, url, body, token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if method == "GET":
        return client.get(url, headers=headers)
    send = {"POST": client.post, "PUT": client.put, "DELETE": client.delete}[method]
    if body is None:
        return send(url, headers=headers)
    return send(url, body, content_type="application/json", headers=headers)


def api_token(world, who, slug):
    """The user's token for ``slug`` ("write" when their role may write), or None."""
    if who == "anonymous":
        return None
    user = world.users[who]
    club = world.clubs["other" if who == "outsider" else slug]["club"]
    scope = "read" if who == "member" else "write"
    return api_tokens.create_token(club=club, name=who, scope=scope, actor=user)[1]


def api_expected(level, who, slug):
    """What the API answers ``who`` at ``slug`` for an operation of ``level``: "ok",
    or the refusal's status (as the pages: a members-only club is not revealed)."""
    if who == "outsider" or (who == "anonymous" and slug == "closed"):
        return 404  # the outsider's token is for another club
    if level == "read":
        return "ok"
    if who == "anonymous":
        return 401
    if who == "member":
        return 403  # a member's token only reads (and a member may not write)
    return "ok"


@pytest.mark.parametrize("who", USERS)
def test_the_api_matrix(world, who):
    """Every API operation, for each kind of caller, on a public and a members-only club:
    allowed (2xx, or 409 for a write the object's state refuses) or refused with the
    expected status; a refused write changes nothing."""
    client = Client()
    wrong = []
    for slug in ("open", "closed"):
        token = api_token(world, who, slug)
        for name, (level, method, _needs) in API_URLS.items():
            if level not in CLUB_LEVELS:
                continue
            url = api_url(world, name, slug)
            before = state()
            response = api_call(client, method, url, api_body(world, name, slug), token)
            expected = api_expected(level, who, slug)
            if expected == "ok":
                ok = response.status_code in (200, 201) or (
                    level == "score" and response.status_code == 409
                )
            else:
                ok = response.status_code == expected and state() == before
                ok = ok and "error" in response.json()
            if not ok:
                wrong.append(f"{method} {name} at {slug}: {response.status_code}, not {expected}")
    assert not wrong, wrong


def test_api_objects_of_another_club_are_not_found(world):
    """Every object id of one club under another club's URL: 404, even to a manager's
    token of the club of the URL."""
    client = Client()
    token = api_token(world, "manager", "open")
    wrong = []
    for name, (level, method, needs) in API_URLS.items():
        if not needs or level not in CLUB_LEVELS:
            continue
        url = api_url(world, name, "open", objects_of="other")
        before = state()
        response = api_call(client, method, url, api_body(world, name, "open"), token)
        if response.status_code != 404 or state() != before:
            wrong.append(f"{method} {name}: {response.status_code}")
    assert not wrong, wrong


@pytest.mark.parametrize("who", USERS)
def test_the_apis_schema_and_docs_are_for_anybody(world, who):
    token = api_token(world, who, "open")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = Client()
    assert client.get(reverse("api:openapi-json"), headers=headers).status_code == 200
    assert client.get(reverse("api:openapi-view"), headers=headers).status_code == 200
    assert client.get(reverse("api:api-root"), headers=headers).status_code == 404


@pytest.mark.parametrize("who", USERS)
def test_the_api_lists_the_clubs_a_caller_may_read(world, who):
    token = api_token(world, who, "closed")
    listed = Client().get(
        reverse("api:clubs"), headers=({"Authorization": f"Bearer {token}"} if token else {})
    )
    slugs = [club["slug"] for club in listed.json()["results"]]
    expected = {"anonymous": ["open", "other"], "outsider": ["other"]}.get(who, ["closed"])
    assert sorted(slugs) == expected


@pytest.mark.parametrize("visibility", ["pub", "priv"])
def test_the_api_league_matrix(league_world, visibility):
    """The API's league operations: a public league for anybody, a members-only one
    through a token of one of its member clubs only (else 404, as the pages hide it); the
    licence import needs a write token of a member club and a manager (refused: nothing
    written)."""
    objects = league_world[visibility]
    users = league_world["users"]
    club = Club.objects.get(slug=f"c-{visibility}")
    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=elsewhere, user=users["outsider"], role=Role.MANAGER)

    def make(user, for_club, scope):
        return api_tokens.create_token(club=for_club, name="t", scope=scope, actor=user)[1]

    callers = {
        "anonymous": None,
        "outsider": make(users["outsider"], elsewhere, "write"),
        "member": make(users["member"], club, "read"),
        "club_manager": make(users["club_manager"], club, "write"),
    }
    held = objects["held"]
    bodies = {
        "api:licence_import": {"csv": f"licence;name;club\n9001;Anne Roux;{club.name}\n"},
        "api:held_confirm": {"ids": [held.pk]},
    }
    client, wrong = Client(), []
    for name, (level, method, needs) in API_URLS.items():
        if level not in ("league", "league_manage", "league_held"):
            continue
        body = bodies.get(name)
        kwargs = {"league": objects["league"].slug}
        for need in needs:
            kwargs[f"{need}_id"] = objects[need].pk
        url = reverse(name, kwargs=kwargs)
        for who, token in callers.items():
            reader = visibility == "pub" or who in ("member", "club_manager")
            if level == "league":
                want = 200 if reader else 404
            elif level == "league_held":  # the league's managers' alone
                want = {"anonymous": 401, "outsider": 404}.get(who, 403)
            else:
                want = {"anonymous": 401, "outsider": 404, "member": 403}.get(who, 200)
            before = league_state()
            response = api_call(client, method, url, body if method == "POST" else None, token)
            if response.status_code != want:
                wrong.append(f"{method} {name} {who}: {response.status_code}, not {want}")
            if want != 200 and league_state() != before:
                wrong.append(f"{method} {name} {who}: refused but the database changed")
    assert not wrong, wrong
