"""A league's ratings (``leagues.rating_scope``: the ``league:<id>`` scope): a person rated
over every hand they played in any member club, kept on write, equal to ``Rater``
called directly on those hands, and to re-rating from scratch after any change."""

import datetime

import pytest

from clubs.models import Club, Membership, Player, Role, Season
from leagues import rating_scope as league_ratings
from leagues import services as league_services
from ratings import keeping, scopes
from ratings.compute import Rater
from ratings.models import Rating, RatingPoint
from scoresheet import services
from scoresheet.models import ScoreRow, Sheet
from tests.data import SEED_HANDS

NAMES = ["Anna", "Bert", "Carl", "Dora"]


def _club_with_players(club, user):
    season = Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    return season, players


@pytest.fixture
def ledger(league, clubs, boss, django_user_model):
    """Clubs A and B of the league and C outside it, each with Anna, Bert, Carl and Dora;
    Anna is one person in the three clubs (B's Anna linked after her hands there)."""
    c = Club.objects.create(name="Club C", slug="club-c")
    c_manager = django_user_model.objects.create_user("manager_c", password="pw-long-12345")
    Membership.objects.create(club=c, user=c_manager, role=Role.MANAGER)
    out = {"league": league, "boss": boss}
    for name, club, user in (
        ("a", clubs["a"], clubs["a_manager"]),
        ("b", clubs["b"], clubs["b_manager"]),
        ("c", c, c_manager),
    ):
        season, players = _club_with_players(club, user)
        out[name] = {"club": club, "user": user, "season": season, "players": players}
    person = league_services.link_by_licence(league, out["a"]["players"][0], "L-ANNA", actor=boss)
    league_services.link_player(out["c"]["players"][0], person)
    out["person"] = person
    return out


def _sheet(side, day, hands, table="1"):
    sheet = services.create_sheet(
        season=side["season"],
        players=side["players"],
        date=datetime.date(2026, 3, day),
        table=table,
        actor=side["user"],
    )
    for data in hands:
        services.record_hand(sheet, data, actor=side["user"])
    return sheet


def _identity(player_id):
    person = Player.objects.get(pk=player_id).person_id
    return ("person", person) if person else ("player", player_id)


def by_rater(club_ids):
    """The clubs' hands rated by ``Rater`` directly, in date order, each seat under its
    person (its player without one): identity → (μ, σ, hands)."""
    rows = (
        ScoreRow.objects.filter(sheet__club_id__in=club_ids)
        .order_by("date", "sheet_id", "number", "position")
        .values_list("sheet_id", "number", "player_id", "role", "made", "margin", "score")
    )
    hands = {}
    for sheet_id, number, player, role, made, margin, score in rows:
        seat = (_identity(player), role, made, margin, score)
        hands.setdefault((sheet_id, number), []).append(seat)
    kinds = {
        pk: keeping.kind_of(rules)
        for pk, rules in Sheet.objects.filter(club_id__in=club_ids).values_list("pk", "rules")
    }
    rater = Rater()
    for (sheet_id, _number), seats in hands.items():
        rater.rate_seats(kinds[sheet_id], seats)
    return {
        player: (state.mu, state.sigma, state.hands)
        for player in rater.players()
        for state in (rater.get(player),)
    }


def kept(key):
    return {
        _identity(player): (mu, sigma, hands)
        for player, mu, sigma, hands in Rating.objects.filter(scope=key).values_list(
            "player_id", "mu", "sigma", "hands"
        )
    }


def history(key):
    return sorted(
        RatingPoint.objects.filter(scope=key).values_list(
            "player_id", "sheet_id", "date", "mu", "sigma", "hands"
        )
    )


def assert_as_from_scratch(key):
    before = (kept(key), history(key))
    keeping.rerate(key)
    assert (kept(key), history(key)) == before
    return before[0]


def test_a_person_is_rated_over_the_hands_of_every_member_club(ledger):
    league, a, b, c = ledger["league"], ledger["a"], ledger["b"], ledger["c"]
    key = league_ratings.key(league.pk)
    _sheet(a, 2, SEED_HANDS[:3])
    _sheet(b, 3, SEED_HANDS[1:5])
    _sheet(c, 3, SEED_HANDS)  # outside the league: counts nowhere in it
    _sheet(a, 4, SEED_HANDS[2:])
    _sheet(b, 1, SEED_HANDS[:2])  # before the others: the later sheets are rated again
    # kept on write, B's Anna a player of her own until linked
    assert kept(key) == by_rater([a["club"].pk, b["club"].pk])
    assert ("player", b["players"][0].pk) in kept(key)
    # B's Anna linked now: the league rated again under the person
    league_services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    expected = by_rater([a["club"].pk, b["club"].pk])
    got = kept(key)
    assert got == expected
    anna = ("person", ledger["person"].pk)
    assert got[anna][2] == 3 + 4 + 3 + 2  # A's and B's hands, not C's
    assert len(got) == 1 + 3 + 3  # Anna, A's Bert, Carl, Dora, B's three others
    assert assert_as_from_scratch(key) == expected
    # the club scopes are untouched: B's Anna is B's player there
    assert Rating.objects.get(scope=scopes.club(b["club"].pk), player=b["players"][0]).hands == 6


def test_a_correction_deletion_and_restore_rate_as_from_scratch(ledger):
    league, a, b = ledger["league"], ledger["a"], ledger["b"]
    key = league_ratings.key(league.pk)
    league_services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    first = _sheet(a, 2, SEED_HANDS[:3])
    _sheet(b, 3, SEED_HANDS)
    _sheet(a, 4, SEED_HANDS)
    clubs = [a["club"].pk, b["club"].pk]
    assert kept(key) == by_rater(clubs)  # kept on write
    hand = first.hands.order_by("number").first()
    services.correct_hand(hand, SEED_HANDS[4], actor=a["user"])
    assert kept(key) == by_rater(clubs)
    assert_as_from_scratch(key)
    services.delete_hand(hand, actor=a["user"])
    assert kept(key) == by_rater(clubs)
    assert_as_from_scratch(key)
    hand.refresh_from_db()
    services.restore_hand(hand, actor=a["user"])
    assert kept(key) == by_rater(clubs)
    assert_as_from_scratch(key)


def test_a_club_joining_or_leaving_the_league_rates_it_again(ledger):
    league, a, c = ledger["league"], ledger["a"], ledger["c"]
    key = league_ratings.key(league.pk)
    _sheet(a, 2, SEED_HANDS)
    _sheet(c, 3, SEED_HANDS)
    assert kept(key) == by_rater([a["club"].pk, ledger["b"]["club"].pk])
    link = league_services.invite_club(league, c["club"], actor=ledger["boss"])
    assert kept(key) == by_rater([a["club"].pk])  # invited, not a member yet
    league_services.accept_invitation(link, actor=c["user"])
    joined = [a["club"].pk, ledger["b"]["club"].pk, c["club"].pk]
    assert kept(key) == by_rater(joined)
    assert kept(key)[("person", ledger["person"].pk)][2] == 10
    _sheet(c, 5, SEED_HANDS[:2])  # its next hands are kept on write
    assert kept(key) == by_rater(joined)
    league_services.leave_league(link, actor=c["user"])
    assert kept(key) == by_rater([a["club"].pk])
    _sheet(c, 6, SEED_HANDS[:2])  # and no longer
    assert kept(key) == by_rater([a["club"].pk])


def test_a_large_club_joining_is_rated_in_the_background(
    ledger, settings, django_capture_on_commit_callbacks
):
    """Over ``RATINGS_BACKGROUND_HANDS`` hands, a join leaves the league's ratings to the
    background task (a ``Recompute`` row the pages read); hands posted meanwhile are
    added as usual, and the task then rates the league as from scratch."""
    from ratings.models import Recompute

    league, a, c = ledger["league"], ledger["a"], ledger["c"]
    key = league_ratings.key(league.pk)
    _sheet(a, 2, SEED_HANDS)
    _sheet(c, 3, SEED_HANDS)
    settings.RATINGS_BACKGROUND_HANDS = len(SEED_HANDS)  # a and c together: more
    link = league_services.invite_club(league, c["club"], actor=ledger["boss"])
    with django_capture_on_commit_callbacks() as queued:
        league_services.accept_invitation(link, actor=c["user"])
    assert list(Recompute.objects.values_list("scope", "start_date")) == [(key, None)]
    assert kept(key) == by_rater([a["club"].pk])  # not yet
    _sheet(a, 5, SEED_HANDS[:2])  # posted while the task waits
    for callback in queued:
        callback()
    assert not Recompute.objects.exists()
    joined = [a["club"].pk, ledger["b"]["club"].pk, c["club"].pk]
    assert kept(key) == by_rater(joined)
    assert_as_from_scratch(key)


def test_a_join_made_by_another_process_is_caught_up_within_a_minute(ledger, monkeypatch):
    """Another process (a web worker, the background worker) read C's leagues before C
    joined, and its ``forget_club`` never ran: its posts leave C's hands out of the league
    until it reads C's leagues again (once a minute), which rates the league again in
    full: then the league counts every hand C played since it joined."""
    import time

    league, a, c = ledger["league"], ledger["a"], ledger["c"]
    key = league_ratings.key(league.pk)
    _sheet(a, 2, SEED_HANDS)
    _sheet(c, 3, SEED_HANDS[:1])
    clock = [time.monotonic()]
    monkeypatch.setattr(keeping.time, "monotonic", lambda: clock[0])
    keeping.registered_of_club(c["club"].pk)  # "no league", as that process read it
    link = league_services.invite_club(league, c["club"], actor=ledger["boss"])
    league_services.accept_invitation(link, actor=c["user"])
    joined = [a["club"].pk, ledger["b"]["club"].pk, c["club"].pk]
    assert kept(key) == by_rater(joined)
    keeping._registered[c["club"].pk] = ([], clock[0])  # that process, before the join
    _sheet(c, 4, SEED_HANDS[:2])  # left out of the league by that process
    assert kept(key) != by_rater(joined)
    clock[0] += keeping.REGISTERED_SECONDS + 1
    _sheet(c, 5, SEED_HANDS[:1])  # its next post reads C's leagues again
    assert kept(key) == by_rater(joined)
    assert_as_from_scratch(key)


def test_the_league_ratings_page_ranks_persons_and_names_as_the_ranking(
    ledger, client, monkeypatch
):
    """The persons by ordinal, each once across clubs; under the minimum of hands left
    out; a members-only club's players (B lets the league name nobody) unnamed unless the
    person is named by a public club; linked from the league's home."""
    from django.urls import reverse

    from ratings import queries

    league, a, b = ledger["league"], ledger["a"], ledger["b"]
    league_services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    _sheet(a, 2, SEED_HANDS + SEED_HANDS[:1])  # A's four: 6 hands
    _sheet(b, 3, SEED_HANDS)  # B's four: 5 hands (Anna: 11)
    _sheet(ledger["c"], 3, SEED_HANDS * 3)  # outside the league
    home = client.get(reverse("leagues:home", args=[league.slug])).content.decode()
    url = reverse("leagues:ratings", args=[league.slug])
    assert f'href="{url}"' in home
    monkeypatch.setattr(queries, "MIN_HANDS", 6)
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count("data-rated") == 4  # Anna and A's three others
    assert page.count(">Anna<") == 1
    assert f'href="{reverse("leagues:person", args=[ledger["person"].pk])}"' in page
    assert "11</td>" in page  # Anna's hands, A's and B's
    assert "A player of a members-only club" not in page
    assert response.context["left_out"] == 3  # B's Bert, Carl and Dora
    rows = response.context["rows"]
    assert [r["rating"].ordinal for r in rows] == sorted(
        (r["rating"].ordinal for r in rows), reverse=True
    )
    monkeypatch.setattr(queries, "MIN_HANDS", 5)
    page = client.get(url).content.decode()
    assert page.count("data-rated") == 7
    assert page.count("A player of a members-only club") == 3


def test_a_league_deleted_takes_its_ratings_along(ledger):
    league, a, b = ledger["league"], ledger["a"], ledger["b"]
    key = league_ratings.key(league.pk)
    _sheet(a, 2, SEED_HANDS)
    _sheet(b, 3, SEED_HANDS)
    assert Rating.objects.filter(scope=key).exists()
    league.delete()
    assert not Rating.objects.filter(scope=key).exists()
    assert not RatingPoint.objects.filter(scope=key).exists()


# ---------------------------------------------------------------- a new hand, added to


def _post(side, sheet, data):
    services.record_hand(sheet, data, actor=side["user"])


def _open(side, day, table="1"):
    return services.create_sheet(
        season=side["season"],
        players=side["players"],
        date=datetime.date(2026, 3, day),
        table=table,
        actor=side["user"],
    )


def _another_process(*state):
    """What a process that saw none of the writes since ``state`` was taken holds."""
    keeping._known.clear()
    keeping._known.update(state[0])
    keeping._identities.clear()
    keeping._identities.update({k: dict(v) for k, v in state[1].items()})
    keeping._registered.clear()
    keeping._registered.update(state[2])


def _state():
    return (
        dict(keeping._known),
        {k: dict(v) for k, v in keeping._identities.items()},
        dict(keeping._registered),
    )


def test_hands_added_to_the_league_rate_as_from_scratch(ledger):
    """Hands posted on two member clubs (Anna one person across both), interleaved on
    sheets of one date and of later dates, with this process's memory lost, a club
    joining, a person linked and a club leaving in between, some as seen by a process
    that missed them: the league's ratings and history equal the league rated from
    scratch after every step. A post costs 11 queries when it is added to the rows as
    this process wrote them, more when it reads them again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    league, a, b, c = ledger["league"], ledger["a"], ledger["b"], ledger["c"]
    key = league_ratings.key(league.pk)
    league_services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    members = [a["club"].pk, b["club"].pk]

    def check():  # (its re-rating from scratch clears this process's memory of the league)
        assert kept(key) == by_rater(members)
        assert_as_from_scratch(key)

    def post(side, sheet, data):
        with CaptureQueriesContext(connection) as captured:
            _post(side, sheet, data)
        return len(captured.captured_queries)

    sa, sb = _open(a, 2), _open(b, 2)
    for i in range(3):  # interleaved: Anna at both tables of one evening
        _post(a, sa, SEED_HANDS[i])
        _post(b, sb, SEED_HANDS[i + 1])
    check()
    sa = _open(a, 4)
    assert post(a, sa, SEED_HANDS[0]) > 11  # a first hand on a sheet: read and written
    assert post(a, sa, SEED_HANDS[1]) == 11  # the next: the one statement
    keeping._known.clear()  # as another process would start
    keeping._identities.clear()
    assert post(a, sa, SEED_HANDS[2]) > 11
    assert post(a, sa, SEED_HANDS[3]) == 11
    check()
    sb = _open(b, 3)  # before A's sheet of the 4th: rated again from it
    _post(b, sb, SEED_HANDS[3])
    check()
    # C joins: its hands count from now on, added to as A's and B's
    link = league_services.invite_club(league, c["club"], actor=ledger["boss"])
    league_services.accept_invitation(link, actor=c["user"])
    members.append(c["club"].pk)
    sc = _open(c, 5)
    for data in SEED_HANDS[:3]:
        _post(c, sc, data)
    check()
    # another process posts on C's sheet; this one still holds what it wrote before
    _post(c, sc, SEED_HANDS[3])
    assert post(c, sc, SEED_HANDS[4]) == 11
    held = _state()
    _post(c, sc, SEED_HANDS[0])
    _another_process(*held)
    assert post(c, sc, SEED_HANDS[1]) > 11  # the rows are not as it wrote them: read again
    check()
    # C's Bert becomes the person A's Bert is (one person across A and C)
    sa = _open(a, 6)
    for data in SEED_HANDS[:2]:
        _post(a, sa, data)
        _post(c, sc, data)
    held = _state()
    league_services.link_by_licence(league, a["players"][1], "L-BERT", actor=ledger["boss"])
    league_services.link_by_licence(league, c["players"][1], "L-BERT", actor=ledger["boss"])
    check()
    # a process that did not see it: its Bert of C is still rated as himself, A's Bert's
    # rating is without C's hands
    _another_process(*held)
    assert post(c, sc, SEED_HANDS[2]) > 11
    check()
    _another_process(*held)
    assert post(a, sa, SEED_HANDS[2]) > 11
    check()
    # C leaves, seen by another process within the minute: C's hands no longer count
    for data in SEED_HANDS[:2]:
        _post(c, sc, data)
    held = _state()
    league_services.leave_league(link, actor=c["user"])
    members.remove(c["club"].pk)
    check()
    _another_process(*held)
    assert key in keeping.registered_of_club(c["club"].pk)  # as that process believes
    _post(c, sc, SEED_HANDS[2])
    check()
    _post(c, sc, SEED_HANDS[3])
    check()


def test_the_next_hand_of_a_league_club_costs_what_it_costs_in_no_league(ledger):
    """The ratings' share of a hand post on a member club is the one compare-and-set
    statement of a club in no league (the league's rows in it): 11 queries each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    a, c = ledger["a"], ledger["c"]
    key = league_ratings.key(ledger["league"].pk)

    def post(side, sheet, data):
        with CaptureQueriesContext(connection) as captured:
            _post(side, sheet, data)
        return captured.captured_queries

    sa, sc = _open(a, 2), _open(c, 2)
    first_a = post(a, sa, SEED_HANDS[0])
    first_c = post(c, sc, SEED_HANDS[0])
    # the first hand of a sheet: the league's lock and its players' persons read more
    assert len(first_a) == len(first_c) + 2
    in_league = post(a, sa, SEED_HANDS[1])
    in_none = post(c, sc, SEED_HANDS[1])
    assert len(in_league) == len(in_none) == 11
    # the one statement writes the club's, the season's and the league's rows
    (swap,) = [q["sql"] for q in in_league if "UPDATE" in q["sql"] and key in q["sql"]]
    assert scopes.club(a["club"].pk) in swap and scopes.season(sa.season_id) in swap
    assert Rating.objects.get(scope=key, player=a["players"][0]).hands == 2
    assert_as_from_scratch(key)


def test_a_player_rated_on_a_later_sheet_of_another_club_rates_again(ledger):
    """Anna played a later sheet in B: a hand of A's earlier sheet (entered late) is rated
    in date order, the league rated again from it."""
    league, a, b = ledger["league"], ledger["a"], ledger["b"]
    key = league_ratings.key(league.pk)
    league_services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    sa = _open(a, 2)
    _post(a, sa, SEED_HANDS[0])
    sb = _open(b, 5)
    _post(b, sb, SEED_HANDS[1])
    _post(b, sb, SEED_HANDS[2])
    _post(a, sa, SEED_HANDS[3])  # Anna's league row is of B's later sheet
    assert kept(key) == by_rater([a["club"].pk, b["club"].pk])
    assert_as_from_scratch(key)


# ---------------------------------------------------------------- the export


def test_the_ratings_export_is_the_pages_table_with_its_privacy(ledger, client, monkeypatch):
    """CSV and XLSX of the league ratings page: its rows in its order, a members-only
    club's player unnamed as on the page, to four decimals; a members-only league
    exported to its clubs' members only (404 to a stranger, as the page); an unknown
    format refused."""
    import csv
    import io

    import openpyxl
    from django.urls import reverse

    from ratings import queries

    league, a, b = ledger["league"], ledger["a"], ledger["b"]
    _sheet(a, 2, SEED_HANDS + SEED_HANDS[:1])
    _sheet(b, 3, SEED_HANDS)
    monkeypatch.setattr(queries, "MIN_HANDS", 5)
    url = reverse("leagues:ratings", args=[league.slug])
    page = client.get(url)
    rows = page.context["rows"]
    assert len(rows) == 8 and 'href="?_export=csv"' in page.content.decode()
    response = client.get(url, {"_export": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f'filename="ratings-{league.slug}.csv"' in response["Content-Disposition"]
    text = response.content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=";" if ";" in text[:50] else ","))
    assert lines[0] == ["Rank", "Name", "Rating", "μ", "σ", "Hands rated"]
    expected = [
        [
            str(r["rating"].rank),
            r["name"] or "A player of a members-only club",
            str(round(r["rating"].ordinal, 4)),
            str(round(r["rating"].mu, 4)),
            str(round(r["rating"].sigma, 4)),
            str(r["rating"].hands),
        ]
        for r in rows
    ]
    assert lines[1:] == expected
    assert sum(line[1] == "A player of a members-only club" for line in lines) == 4  # B's
    response = client.get(url, {"_export": "xlsx"})
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    cells = [[str(c) for c in row] for row in book.active.iter_rows(values_only=True)]
    assert book.active.title == "Ratings"
    assert cells[1:] == expected
    assert client.get(url, {"_export": "pdf"}).status_code == 400
    # a members-only league: its member clubs' members only
    league.is_public = False
    league.save()
    assert client.get(url, {"_export": "csv"}).status_code == 404
    client.force_login(b["user"])
    assert client.get(url, {"_export": "csv"}).status_code == 200
    client.force_login(ledger["c"]["user"])
    assert client.get(url, {"_export": "xlsx"}).status_code == 404


class _PerThread(dict):
    """A module's memory as each of several processes holds its own: a dict per thread."""

    def __init__(self):
        import threading

        super().__init__()
        self._local = threading.local()

    @property
    def _own(self) -> dict:
        if not hasattr(self._local, "d"):
            self._local.d = {}
        return self._local.d

    def get(self, *args):
        return self._own.get(*args)

    def pop(self, *args):
        return self._own.pop(*args)

    def setdefault(self, *args):
        return self._own.setdefault(*args)

    def clear(self):
        self._own.clear()

    def update(self, *args, **kwargs):
        self._own.update(*args, **kwargs)

    def __getitem__(self, key):
        return self._own[key]

    def __setitem__(self, key, value):
        self._own[key] = value

    def __delitem__(self, key):
        del self._own[key]

    def __contains__(self, key):
        return key in self._own

    def __iter__(self):
        return iter(self._own)

    def __len__(self):
        return len(self._own)


@pytest.mark.django_db(transaction=True)
def test_two_member_clubs_posting_at_once_rate_as_from_scratch(ledger, monkeypatch):
    """A and B post at the same moment (Anna one person at both tables), B correcting a
    hand now and then (the league re-rated from its sheet, under the league's lock):
    every write succeeds (a deadlock is run again by the services) and the league's
    ratings and history equal the league rated from scratch (PostgreSQL; SQLite writes
    one transaction at a time). Each thread holds its own memory, as a process would."""
    import threading

    from django.db import connection, connections, transaction

    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    league, a, b = ledger["league"], ledger["a"], ledger["b"]
    key = league_ratings.key(league.pk)
    league_services.link_by_licence(league, b["players"][0], "L-ANNA", actor=ledger["boss"])
    sheets = [(a, _open(a, 2)), (b, _open(b, 2))]
    for name in ("_known", "_identities", "_registered"):
        monkeypatch.setattr(keeping, name, _PerThread())
    rounds = 12
    barrier = threading.Barrier(len(sheets))
    errors = []

    def write(side, sheet):
        try:
            for n in range(rounds):
                barrier.wait(timeout=60)
                _post(side, sheet, SEED_HANDS[n % len(SEED_HANDS)])
                if side is b and n % 4 == 3:
                    hand = sheet.hands.order_by("-number").first()
                    services.correct_hand(hand, SEED_HANDS[(n + 1) % 5], actor=side["user"])
        except Exception as error:  # reported below, in the test's thread
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=pair) for pair in sheets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert kept(key) == by_rater([a["club"].pk, b["club"].pk])
    assert kept(key)[("person", ledger["person"].pk)][2] == 2 * rounds
    with transaction.atomic():  # (autocommit here: a re-rating locks)
        assert_as_from_scratch(key)
