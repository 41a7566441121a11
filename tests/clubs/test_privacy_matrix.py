"""Nobody reads a hidden person's name, licence or e-mail: every URL, every reader.

The world: a public league ("pub") of a public club (HOME) and a members-only club
(AWAY), a members-only league ("priv") of HOME and a members-only club (SHUT), and a
public club in no league (OTHER). AWAY's and SHUT's players are persons with licences
and logins with e-mails, who play for no club that lets anybody name them: they are
the hidden persons. HOME and AWAY meet in a team match started and played to its end
(the away players entered as HOME's guests), and in a second one started only (its
table links live); AWAY and SHUT hold league events; HOME holds a duplicate event with
guests, one a hidden person; one person plays for HOME and AWAY (named, through HOME).

Every URL of the URL map (the pages, the API) is filled from the world's objects
(each combination of its path's parameters the world has), requested by every kind
of reader, and every query variant a page links to (exports, print views, filters),
and every search form, is requested too. Each answer (an XLSX's sheets unpacked) is
searched for the hidden persons' names, licences and e-mails. A URL of the map that
the world cannot fill fails the test, so a new URL is covered or named here.
"""

import datetime
import io
import re
import zipfile
from collections import Counter
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from clubs import tokens as api_tokens
from clubs.models import Club, Invitation, Membership, Person, Player, Role, Season
from competitions import links
from competitions import services as competitions
from leagues import licences
from leagues import services as leagues
from scoresheet import services as ledger
from tournaments import services as tournaments
from tournaments import tokens
from tournaments.duplicate import services as duplicate_services
from tournaments.models import RoundTable

DAY = datetime.date(2026, 2, 1)
HIDDEN = {
    "away": [
        "Ysolde Quillemaire",
        "Wenceslas Brindavoine",
        "Ottilie Farandole",
        "Ursule Pimprenelle",
    ],
    "shut": [
        "Zéphyrine Trombicule",
        "Anatole Croquemitaine",
        "Philibert Mirliton",
        "Gertrude Escarbille",
    ],
}
NAMED = ["Bastien Deuxclubs"]  # plays for HOME and AWAY: named through HOME
#: URLs of the map the world does not fill: a background job's or a restore's pages (a
#: club manager's own, tested in tests/transfer), an API token's revocation (its owner's),
#: a duplicate decision's removal and a claim's decision (writes, POST only)
UNFILLED = {
    "password_reset_confirm",
    "restore_job",
    "restore_status",
    "token_revoke",
    "transfer:job",
    "transfer:job_file",
    "transfer:job_status",
    "transfer:job_again",  # a job started again: POST-only, its page is the job's
    "transfer:upload_preview",
    "tournaments:duplicate_decision_remove",
    "competitions:claim_decide",
}
DEALS = [
    {"taker": 0, "contract": "garde", "bouts": 2, "points": 51},
    {"taker": 1, "contract": "prise", "bouts": 1, "points": 45},
]


def _hand(sheet, taker):
    names = [s.player.name for s in sheet.seats.order_by("position")]
    return {"taker": names[taker], "contract": "garde", "bouts": 2, "points": 56}


def _play_table(table, deals):
    table = RoundTable.objects.select_related("round__tournament", "sheet").get(pk=table.pk)
    names = [s.player.name for s in table.sheet.seats.order_by("position")]
    for deal in deals:
        tournaments.record_table_hand(table, dict(deal, taker=names[deal["taker"]]))
    tournaments.submit_table(table, by_name="first")
    found = tournaments.snapshot(table)[1]
    tournaments.check_table(RoundTable.objects.get(pk=table.pk), deals=found, by_name="two")


def _close(tournament):
    for rnd in tournament.round_set.order_by("number"):
        tournaments.draw_round(rnd)
        tournaments.start_round(rnd)
        for table in rnd.tables.select_related("sheet"):
            ledger.record_hand(table.sheet, _hand(table.sheet, 0))
        tournaments.close_round(rnd)
        for table in rnd.tables.all():
            tournaments.confirm_table(table)
    return tournaments.close_tournament(tournament)


class World:
    def __init__(self):
        User = get_user_model()
        self.users = {
            who: User.objects.create_user(f"pm_{who}", password="pw-privacy-1")
            for who in (
                "no_club",
                "other_member",
                "fellow_manager",
                "league_manager",
                "removed",
                "two_clubs",
            )
        }
        self.clubs = {
            slug: Club.objects.create(name=f"Club {slug.title()}", slug=slug, is_public=public)
            for slug, public in (("home", True), ("away", False), ("shut", False), ("other", True))
        }
        for slug, who, role in (
            ("other", "other_member", Role.MEMBER),
            ("home", "fellow_manager", Role.MANAGER),
            ("away", "removed", Role.MEMBER),
            # a member of the public HOME and of AWAY: their token for HOME reads as HOME's
            ("home", "two_clubs", Role.MEMBER),
            ("away", "two_clubs", Role.MEMBER),
        ):
            Membership.objects.create(club=self.clubs[slug], user=self.users[who], role=role)
        self.needles, self.players, self.persons = [], {}, []
        for slug, names in HIDDEN.items():
            self.players[slug] = []
            for n, name in enumerate(names):
                login = User.objects.create_user(
                    f"pm_{slug}{n}", email=f"{slug}{n}.secret@hidden.example", password="x" * 12
                )
                Membership.objects.create(club=self.clubs[slug], user=login, role=Role.MEMBER)
                person = Person.objects.create(name=name, licence=f"LIC{slug.upper()}{n}7")
                person.user = login
                person.save()
                self.players[slug].append(
                    Player.objects.create(
                        club=self.clubs[slug], name=name, person=person, user=login
                    )
                )
                self.persons.append(person)
                self.needles += [name, name.split()[-1], person.licence, login.email]
        self.needles += ["away.secret@hidden.example"]  # an invitation of AWAY
        both = Person.objects.create(name=NAMED[0], licence="LICBOTH1")
        self.players["home"] = [
            Player.objects.create(
                club=self.clubs["home"], name=name, person=both if n == 0 else None
            )
            for n, name in enumerate([NAMED[0], "Henri Domicile", "Hector Maison", "Hugo Foyer"])
        ]
        Player.objects.create(club=self.clubs["away"], name=NAMED[0], person=both)
        self.persons.append(both)
        for slug in ("home", "away", "shut", "other"):
            Season.objects.create(
                club=self.clubs[slug], name="S", start_date=datetime.date(2026, 1, 1)
            )
        # the removed member's token, made while they were a member
        self.removed_token = api_tokens.create_token(
            club=self.clubs["away"], name="old", scope="read", actor=self.users["removed"]
        )[1]
        Membership.objects.filter(user=self.users["removed"]).delete()
        for slug in ("home", "away"):
            Invitation.objects.create(
                club=self.clubs[slug], email=f"{slug}.secret@hidden.example", token_hash=slug
            )
        self._leagues()
        self._team_matches()
        self._events()
        self._duplicate()

    def _leagues(self):
        boss = self.users["league_manager"]
        self.leagues = {}
        for slug, public, members in (
            ("pub", True, ("home", "away")),
            ("priv", False, ("home", "shut")),
        ):
            league = leagues.create_league(slug.title(), slug, is_public=public, managers=[boss])
            for club in members:
                leagues.accept_invitation(leagues.invite_club(league, self.clubs[club]))
            season = leagues.save_season(
                league,
                name="S",
                start_date=datetime.date(2026, 1, 1),
                scale={"kind": "table", "tables": [{"from": 1, "points": [10, 6, 4, 2]}]},
            )
            self.leagues[slug] = {"league": league, "season": season}
        # HOME's manager sends a licence list: a hidden person's licence and a new one
        # wait for the league's managers (the held lines' page, the history)
        hidden = self.players["away"][1].person
        licences.import_licences(
            self.leagues["pub"]["league"],
            f"Licence;Nom;Club\n{hidden.licence};{hidden.name};home\nLICNEW1;Nouveau Venu;home\n",
            actor=self.users["fellow_manager"],
            commit=True,
        )

    def _team_matches(self):
        league = self.leagues["pub"]["league"]
        self.matches, self.captain_tokens, self.table_tokens = [], [], []
        for number in (1, 2):
            competition = competitions.create_competition(
                league, name=f"Interclubs {number}", kind="championship", deals=2
            )
            division = competitions.add_division(competition, "D1")
            for slug in ("home", "away"):
                squad = self.players[slug]
                competitions.enter_team(
                    competition, self.clubs[slug], name=f"Team {slug}", players=squad,
                    captain=squad[0], division=division,
                )  # fmt: skip
            [match, *_] = competitions.generate_fixtures(division)
            for side in (match.home, match.away):
                competitions.submit_line_up(match, side, list(side.squad.order_by("pk")))
            # the home captain's link: the away team's names are not theirs to read
            self.captain_tokens += [links.token(links.link_of(match, match.home))]
            competitions.start_match(match)
            tables = [t.round_table for t in match.tables.order_by("number")]
            self.table_tokens += [tokens.token(t) for t in tables]
            if number == 1:  # played to its end: both tables entered twice, confirmed
                for table in tables:
                    _play_table(table, DEALS)
            self.matches.append(match)

    def _events(self):
        for slug, league in (("away", "pub"), ("shut", "priv")):
            club = self.clubs[slug]
            event = tournaments.create_tournament(
                club, name=f"Open {slug}", date=DAY, rules="fft", rounds=1, deals_per_round=1
            )
            tournaments.register(event, [("member", p) for p in self.players[slug]])
            leagues.register_event(self.leagues[league]["season"], event)
            _close(event)

    def _duplicate(self):
        club = self.clubs["home"]
        event = duplicate_services.create_duplicate(
            club, name="Dup", date=DAY, rounds=1, deals_per_set=2
        )
        hidden = self.players["away"][0]
        items = [("member", p) for p in self.players["home"][1:3]]
        items += [("guest", (hidden.name, "Club Away", hidden.person.licence, hidden.person))]
        items += [("guest", ("Invité Libre", "Ailleurs", ""))]
        tournaments.register(event, items)
        duplicate_services.draw_movement(event)
        tournaments.start_round(event.round_set.get())

    # ------------------------------------------------------------ the URLs' parameters

    def contexts(self):
        """Every set of path parameters the world has (each a dict)."""
        out = [{}]
        for club in self.clubs.values():
            base = {"slug": club.slug}
            out.append(base)
            if club.slug == "other":  # a club of nobody hidden: its own pages once each
                out += [{**base, "membership_id": m.pk} for m in club.memberships.all()]
                out += [{**base, "season_id": s.pk} for s in club.seasons.all()]
                continue
            for season in club.seasons.all():
                out.append({**base, "season_id": season.pk})
            seasons = list(club.seasons.all())
            # a members-only club's pages answer 404 alike: two of its players are enough
            players = club.players.all() if club.is_public else club.players.all()[:2]
            for n, player in enumerate(players):
                out.append({**base, "player_id": player.pk})
                if n == 0 or player.is_guest:  # a player's season: a guest's, and one other
                    out += [{**base, "player_id": player.pk, "season_id": s.pk} for s in seasons]
            for membership in club.memberships.all():
                out.append({**base, "membership_id": membership.pk})
            for invitation in club.invitations.all():
                out.append({**base, "invitation_id": invitation.pk})
            for sheet in club.sheets.all() if hasattr(club, "sheets") else []:
                out.append({**base, "sheet_id": sheet.pk, "number": 1})
            for tournament in club.tournaments.all():
                ctx = {**base, "tournament_id": tournament.pk, "number": 1, "deal": 1}
                out.append(ctx)
                for rnd in tournament.round_set.all():
                    for table in rnd.tables.all():
                        out.append(
                            {**ctx, "round_number": rnd.number, "table_number": table.number}
                        )
                        if table.sheet_id:
                            out.append({**base, "sheet_id": table.sheet_id, "number": 1})
                for season in Season.objects.filter(tournament=tournament):
                    out.append({**base, "season_id": season.pk})
        for found in self.leagues.values():
            league = found["league"]
            base = {"league": league.slug}
            out.append(base)
            out.append({**base, "season_id": found["season"].pk})
            for event in found["season"].events.all():
                out.append({**base, "event_id": event.pk})
            for line in league.held_licences.all():
                out.append({**base, "held_id": line.pk})
            for competition in league.competitions.all():
                ctx = {**base, "competition_id": competition.pk}
                out.append(ctx)
                for match in competition.matches.all():
                    out.append({**ctx, "match_id": match.pk})
                    for team in (match.home, match.away):
                        out.append({**ctx, "match_id": match.pk, "team_id": team.pk})
                for team in competition.teams.all():
                    out.append({**ctx, "team_id": team.pk})
        out = _sampled(out, {c.slug for c in self.clubs.values() if not c.is_public})
        out += [{"person_id": person.pk} for person in self.persons]
        out += [{"token": token} for token in self.captain_tokens + self.table_tokens]
        out += [{"token": token, "number": 1} for token in self.table_tokens]
        return out


def _sampled(contexts, closed) -> list[dict]:
    """A members-only club's URLs answer every reader here as an unknown club's do (the
    permission matrix checks that for each of them): one set of objects of each kind."""
    out, kinds = [], set()
    for ctx in contexts:
        if ctx.get("slug") in closed:
            kind = (ctx["slug"], frozenset(ctx))
            if kind in kinds:
                continue
            kinds.add(kind)
        out.append(ctx)
    return out


def url_patterns():
    """``(name, parameters)`` of every named URL of the map (the admin aside)."""
    found = []

    def walk(resolver, namespace=None, params=()):
        for pattern in resolver.url_patterns:
            here = params + tuple(pattern.pattern.regex.groupindex)
            if isinstance(pattern, URLResolver):
                ns = pattern.namespace or namespace
                if ns != "admin":
                    walk(pattern, ns, here)
            elif pattern.name:
                found.append((f"{namespace}:{pattern.name}" if namespace else pattern.name, here))

    walk(get_resolver())
    return found


def all_urls(world):
    """Every URL the world fills, and the names it cannot fill."""
    urls, unfilled = set(), set()
    contexts = world.contexts()
    for name, params in url_patterns():
        made = False
        for ctx in contexts:
            if set(params) <= set(ctx):
                try:
                    urls.add(reverse(name, kwargs={p: ctx[p] for p in params}))
                    made = True
                except Exception:  # noqa: BLE001 (a parameter of another shape)
                    continue
        if not made:
            unfilled.add(name)
    return sorted(urls), unfilled


LINK = re.compile(r'href="([^"#]*\?[^"#]*)"')


def body_text(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if content[:2] == b"PK":  # an XLSX: its sheets' text
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            content = b" ".join(archive.read(n) for n in archive.namelist() if n.endswith(".xml"))
    return unescape(content.decode("utf-8", "replace")).casefold()


def leaks(world, text) -> list[str]:
    return [needle for needle in world.needles if needle.casefold() in text]


def read_all(world, client, urls, who, headers=None):
    """Each URL, then each query variant its page links to, then its search with each
    hidden person's licence and name: ``(leaks, errors, requests, named)``."""
    found, errors, seen, named = [], [], set(), set()
    variants = Counter()  # the query variants followed per path (filters, exports)
    queue = list(urls)
    while queue:
        url = queue.pop()
        if url in seen or url.startswith("/admin/") or "/logout" in url:
            continue
        seen.add(url)
        response = client.get(url, headers=headers or {})
        if response.status_code >= 500:
            errors.append(f"{who} {url}: {response.status_code}")
            continue
        if response.status_code != 200:
            continue
        text = body_text(response)
        asked = parse_qs(urlsplit(url).query).get("q", [""])[0].casefold()
        if asked:  # a search repeats what was typed: that is no leak
            text = text.replace(asked, "")
        for needle in leaks(world, text):
            found.append(f"{who} {url}: {needle}")
        named.update(n for n in NAMED if n.casefold() in text)
        path = urlsplit(url).path
        for link in LINK.findall(text):
            target = unescape(link)
            if target.startswith("?"):
                target = path + target
            if urlsplit(target).path == path and target not in seen and variants[path] < 5:
                variants[path] += 1
                queue.append(target)
        if 'name="q"' in text and "?" not in url:
            person = world.players["away"][1].person
            queue += [f"{path}?q={person.licence.lower()}", f"{path}?q={person.name[:5]}"]
    return found, errors, len(seen), named


@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield World()
        transaction.set_rollback(True)


@pytest.fixture
def world(_module_world, db):
    return _module_world


def test_every_url_of_the_map_is_filled(world):
    _urls, unfilled = all_urls(world)
    assert unfilled <= UNFILLED, (
        f"URLs the privacy matrix cannot fill: {sorted(unfilled - UNFILLED)}"
    )


@pytest.mark.parametrize(
    "who", ["anonymous", "no_club", "other_member", "fellow_manager", "league_manager"]
)
def test_no_page_names_a_hidden_person(world, who):
    """Pages, exports, print views, searches, the API without a token, the links."""
    client = Client()
    if who != "anonymous":
        client.force_login(world.users[who])
    urls, _unfilled = all_urls(world)
    found, errors, count, named = read_all(world, client, urls, who)
    assert not errors, errors
    leaking = len({f.rsplit(": ", 1)[0] for f in found})
    assert not found, f"{leaking} of {count} answers leak:\n" + "\n".join(found[:40])
    assert named == set(NAMED)  # the pages do name people: the search is not blind


@pytest.mark.parametrize("who", ["removed", "fellow_manager", "other_member", "two_clubs"])
def test_no_api_answer_names_a_hidden_person(world, who):
    """Every API operation with a token: a removed member's, a fellow club's, another
    club's, and the token for HOME of a member of AWAY too (it reads as HOME's member)."""
    if who == "removed":
        token = world.removed_token
    else:
        club = Membership.objects.filter(user=world.users[who]).order_by("club__slug").last().club
        token = api_tokens.create_token(club=club, name=who, scope="read", actor=world.users[who])[
            1
        ]
    urls = [u for u in all_urls(world)[0] if u.startswith("/api/")]
    headers = {"Authorization": f"Bearer {token}"}
    found, errors, count, _named = read_all(world, Client(), urls, who, headers)
    assert not errors, errors
    leaking = len({f.rsplit(": ", 1)[0] for f in found})
    assert not found, f"{leaking} of {count} answers leak:\n" + "\n".join(found[:40])
    if who == "removed":
        body = Client().get("/api/v1/clubs", headers=headers).json()
        assert [c["slug"] for c in body["results"]] == []


def test_the_hidden_persons_pages_answer_as_unknown_ones(world):
    hidden = [p for p in world.persons if p.name not in NAMED]
    client = Client()
    client.force_login(world.users["fellow_manager"])
    for person in hidden:
        assert client.get(reverse("leagues:person", args=[person.pk])).status_code == 404
        assert client.get(f"/api/v1/persons/{person.pk}").status_code == 404
    # a member of the person's club reads them
    client.force_login(world.players["away"][1].user)
    assert client.get(reverse("leagues:person", args=[hidden[0].pk])).status_code == 200


def test_the_held_licence_lines_are_read_by_the_leagues_manager_only(world):
    """The held lines' page lists HOME's manager's lines to the league's manager, the
    hidden person's written as the history writes them; to the sender, 403."""
    url = reverse("leagues:held_licences", args=["pub"])
    client = Client()
    client.force_login(world.users["league_manager"])
    html = client.get(url).content.decode()
    assert html.count("data-held=") == 2 and "Nouveau Venu" in html
    assert "A player of a members-only club" in html
    client.force_login(world.users["fellow_manager"])
    assert client.get(url).status_code == 403


def test_the_held_licence_lines_through_the_api_hide_the_hidden_person(world):
    """The league's manager's token (of HOME, a member club) lists the same lines, the
    hidden person's name and licence written as the page writes them; the sender's
    token is refused."""
    boss = world.users["league_manager"]
    Membership.objects.create(club=world.clubs["home"], user=boss, role=Role.SCORER)
    url = reverse("api:held_licences", args=["pub"])
    for scope in ("read", "write"):
        token = api_tokens.create_token(club=world.clubs["home"], name="b", scope=scope, actor=boss)
        text = body_text(Client().get(url, headers={"Authorization": f"Bearer {token[1]}"}))
        assert text.count('"status": "pending"') == 2 and "nouveau venu" in text, text
        assert "a player of a members-only club" in text
        assert not leaks(world, text), leaks(world, text)
    sender = world.users["fellow_manager"]
    token = api_tokens.create_token(club=world.clubs["home"], name="s", scope="write", actor=sender)
    assert Client().get(url, headers={"Authorization": f"Bearer {token[1]}"}).status_code == 403


def test_a_members_only_league_answers_as_an_unknown_one(world):
    client = Client()
    for url in ("/leagues/priv/", "/leagues/priv/manage/", "/leagues/nowhere/manage/"):
        assert client.get(url).status_code == 404, url


def test_the_away_players_are_not_the_home_clubs(world):
    home = world.clubs["home"]
    listed = Client().get(reverse("clubhouse:players", args=[home.slug])).content.decode()
    guests = Player.objects.filter(club=home, is_guest=True)
    assert guests.count() >= 4
    assert not any(g.name in listed for g in guests)
    api = Client().get(f"/api/v1/clubs/{home.slug}/players").json()
    assert not {r["id"] for r in api["results"]} & set(guests.values_list("pk", flat=True))


def test_the_matrix_would_see_a_leak(world):
    """The search itself: a page naming a hidden person is found."""
    name = HIDDEN["away"][0]
    assert leaks(world, f"<td>{name}</td>".casefold()) == [name, name.split()[-1]]
