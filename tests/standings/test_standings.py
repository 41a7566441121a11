"""Club standings: the summary kept in step with the ledger, the pages, filters and exports."""

import csv
import datetime
import io
import random
import threading
from decimal import Decimal

import openpyxl
import pytest
from django.db import connection, connections
from django.urls import reverse

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.models import Hand, ScoreRow, SeasonTotal, SheetTotal
from scoresheet.summaries import standings
from scoresheet.totals import rebuild_season_totals
from tests.data import NAMES, SEED_HANDS, SEED_TOTALS

pytestmark = pytest.mark.django_db

MARCH, APRIL = datetime.date(2026, 3, 14), datetime.date(2026, 4, 18)
#: Anna makes a garde by 15 (+240, the others −80); Dora fails one by 15 (−240, the others +80).
TIES = [
    {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    {"dealer": "Anna", "taker": "Dora", "contract": "garde", "bouts": 2, "points": 26},
]
MOUCHES = [
    {"dealer": "Anna", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 50},
    {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 1, "points": 40},
    {"dealer": "Carl", "taker": "Dora", "contract": "garde", "bouts": 2, "points": 50},
]


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))


@pytest.fixture
def players(club):
    return [Player.objects.create(club=club, name=name) for name in NAMES]


@pytest.fixture
def scorer(make_user, club):
    user = make_user("scorer")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    return user


@pytest.fixture
def make_sheet(season, players, scorer):
    def make(n=4, *, season=season, date=MARCH, rules=None, seated=None, hands=()):
        sheet = services.create_sheet(
            season=season,
            players=seated or players[:n],
            date=date,
            table="1",
            rules=rules,
            actor=scorer,
        )
        for data in hands:
            services.record_hand(sheet, data, actor=scorer)
        return sheet

    return make


def sat_out(data, dealer):
    """A hand at six: the dealer sits out."""
    return dict(data, dealer=dealer, sits_out=dealer)


def season_url(season, **query):
    return _with_query(reverse("standings:season", args=[season.club.slug, season.pk]), query)


def club_url(club, **query):
    return _with_query(reverse("standings:club", args=[club.slug]), query)


def _with_query(url, query):
    from urllib.parse import urlencode

    return f"{url}?{urlencode(query)}" if query else url


def by_name(rows):
    return {row["name"]: row for row in rows}


def page_rows(response):
    """The page's rows as shown: (rank, name, total, sheets, hands, taken, made %, average)."""
    return [
        (r["rank"], r["name"], r["total"], r["sheets"], r["hands"], r["taken"], r["made_pct"])
        + (r["average"],)
        for r in response.context["table"].display_rows
    ]


def from_ledger(club, **filters):
    """The standings' numbers summed from the ledger itself, in Python (the reference)."""
    result = {}
    for row in ScoreRow.objects.filter(season__club=club, **filters).select_related("player"):
        entry = result.setdefault(
            row.player.name,
            {"total": Decimal(0), "sheets": set(), "hands": 0, "taken": 0, "made": 0},
        )
        entry["total"] += row.score
        if row.role != "out":
            entry["hands"] += 1
            entry["sheets"].add(row.sheet_id)
        if row.role == "taker":
            entry["taken"] += 1
            entry["made"] += bool(row.made)
    return {
        name: (e["total"], len(e["sheets"]), e["hands"], e["taken"], e["made"])
        for name, e in result.items()
    }


def summarised(club, **kwargs):
    return {
        r["name"]: (
            r["total"],
            r["sheets_played"],
            r["hands_played"],
            r["hands_taken"],
            r["contracts_made"],
        )
        for r in standings(club, **kwargs)
    }


def summary_tables(season):
    """Both summary tables of a season, comparable across a rebuild."""
    sheets = SheetTotal.objects.filter(season=season).order_by("sheet_id", "player_id")
    seasons = SeasonTotal.objects.filter(season=season).order_by("player_id")
    fields = ("player_id", "seated", "hands", "taken", "made", "score")
    return (
        list(sheets.values_list("sheet_id", "date", "seats", *fields)),
        list(seasons.values_list("sheets", *fields)),
    )


# ---------------------------------------------------------------- the numbers


def test_every_column_on_the_seed_sheet(client, make_sheet, season):
    make_sheet(hands=SEED_HANDS)

    rows = by_name(standings(season.club, season=season))
    assert {name: row["total"] for name, row in rows.items()} == {
        name: Decimal(total) for name, total in SEED_TOTALS.items()
    }
    # Anna, Bert and Dora each take once and make it; Carl makes 41 with two bouts
    # (hand 4) but falls one short with 40 (hand 3).
    assert rows["Carl"] == {
        "player_id": rows["Carl"]["player_id"],
        "name": "Carl",
        "rank": 4,
        "total": Decimal(-380),
        "sheets_played": 1,
        "hands_played": 5,
        "hands_taken": 2,
        "contracts_made": 1,
        "made_pct": 50.0,
        "average": -76.0,
        "players": 4,
    }

    response = client.get(season_url(season))
    assert response.status_code == 200
    assert page_rows(response) == [
        (1, "Bert", "+172", "1", "5", "1", "100%", "+34.4"),
        (2, "Anna", "+108", "1", "5", "1", "100%", "+21.6"),
        (3, "Dora", "+100", "1", "5", "1", "100%", "+20"),
        (4, "Carl", "−380", "1", "5", "2", "50%", "−76"),
    ]
    html = response.content.decode()
    assert '<span class="neg">−380</span>' in html
    assert "4 players" in html


def test_equal_totals_share_a_rank_and_the_next_skips(client, make_sheet, season):
    make_sheet(hands=TIES)

    response = client.get(season_url(season))
    assert [row[:3] for row in page_rows(response)] == [
        (1, "Anna", "+320"),
        (2, "Bert", "0"),
        (2, "Carl", "0"),
        (4, "Dora", "−320"),
    ]


def test_ranks_are_global_whatever_the_sort_and_the_page(client, make_sheet, season):
    make_sheet(hands=TIES)

    by_player = client.get(season_url(season, sort="name", per_page=2, page=2))
    assert [row[:2] for row in page_rows(by_player)] == [(2, "Carl"), (4, "Dora")]
    by_rank_down = client.get(season_url(season, sort="-rank", per_page=3))
    assert [row[:2] for row in page_rows(by_rank_down)] == [(4, "Dora"), (2, "Bert"), (2, "Carl")]
    assert "?sort=-rank&amp;per_page=3&amp;page=2" in by_rank_down.content.decode()


def test_columns_sort_in_sql(client, make_sheet, players, season):
    make_sheet(hands=SEED_HANDS)
    make_sheet(5, date=APRIL, hands=[dict(TIES[0], dealer="Emil")])

    names = [row[1] for row in page_rows(client.get(season_url(season, sort="-hands_played")))]
    assert names == ["Anna", "Bert", "Carl", "Dora", "Emil"]  # 6 hands each (by name), then 1
    names = [row[1] for row in page_rows(client.get(season_url(season, sort="average")))]
    assert names[:2] == ["Emil", "Carl"]  # −80 a hand, then (−380 − 80) / 6
    # The first click on a number sorts it from high to low.
    assert 'href="?sort=-average"' in client.get(season_url(season)).content.decode()


def test_sitting_out_is_not_playing(make_sheet, players, season):
    # Six seated: the dealer sits out each hand. Fred deals the only hand of the
    # second sheet, so that sheet does not count as one he played.
    sheet = make_sheet(6, hands=[sat_out(TIES[0], "Fred"), sat_out(TIES[1], "Emil")])
    make_sheet(6, date=APRIL, hands=[sat_out(TIES[0], "Fred")])

    rows = by_name(standings(season.club, season=season))
    assert (rows["Fred"]["hands_played"], rows["Fred"]["sheets_played"]) == (1, 1)
    assert (rows["Emil"]["hands_played"], rows["Emil"]["sheets_played"]) == (2, 2)
    assert (rows["Anna"]["hands_played"], rows["Anna"]["sheets_played"]) == (3, 2)
    assert rows["Fred"]["average"] == float(rows["Fred"]["total"])
    assert summarised(season.club) == from_ledger(season.club)
    assert SheetTotal.objects.get(sheet=sheet, player__name="Anna").seated == 2


# ---------------------------------------------------------------- filters


def test_season_filter_on_the_club_page(client, club, season, make_sheet):
    older = Season.objects.create(club=club, name="2025", start_date=datetime.date(2025, 1, 1))
    make_sheet(hands=SEED_HANDS)
    make_sheet(season=older, date=datetime.date(2025, 5, 1), hands=TIES)

    everything = page_rows(client.get(club_url(club)))
    assert [row[1:3] for row in everything] == [
        ("Anna", "+428"),  # 108 + 320
        ("Bert", "+172"),  # 172 + 0
        ("Dora", "−220"),  # 100 − 320
        ("Carl", "−380"),
    ]

    response = client.get(club_url(club, season=older.pk))
    assert [row[:3] for row in page_rows(response)][0] == (1, "Anna", "+320")
    assert response.context["season"] == older
    assert page_rows(client.get(season_url(older))) == page_rows(response)
    html = response.content.decode()
    assert f'<option value="{older.pk}" selected>2025</option>' in html


def test_date_and_table_size_filters_read_the_sheet_totals(client, season, make_sheet):
    make_sheet(hands=SEED_HANDS)  # March, four players
    make_sheet(5, date=APRIL, hands=[dict(TIES[0], dealer="Emil")])  # April, five

    march = client.get(season_url(season, date_to="2026-03-31"))
    assert [row[1:3] for row in page_rows(march)] == [
        ("Bert", "+172"),
        ("Anna", "+108"),
        ("Dora", "+100"),
        ("Carl", "−380"),
    ]
    fives = client.get(season_url(season, seats="5", date_from="2026-04-01"))
    assert {row[1] for row in page_rows(fives)} == set(NAMES[:5])
    for kwargs, filters in [
        ({"date_from": APRIL}, {"date__gte": APRIL}),
        ({"seats": 4}, {"seats": 4}),
        ({"date_from": MARCH, "date_to": MARCH, "seats": 4}, {"date": MARCH, "seats": 4}),
    ]:
        assert summarised(season.club, season=season, **kwargs) == from_ledger(
            season.club, **filters
        )
    # A filter matching nothing: an empty table, not an error.
    empty = client.get(season_url(season, seats="6"))
    assert page_rows(empty) == []
    assert "No hand on the ledger yet." in empty.content.decode()


def test_a_wrong_filter_value_is_shown_and_ignored(client, season, make_sheet):
    make_sheet(hands=SEED_HANDS)

    response = client.get(season_url(season, date_from="14/03/2026", seats="9"))
    assert response.status_code == 200
    assert len(page_rows(response)) == 4
    html = response.content.decode()
    assert 'class="error-summary"' in html
    assert '<details class="disclosure standings-filter" data-filter open>' in html


# ---------------------------------------------------------------- exports


def test_csv_export_has_every_row_not_just_the_page(client, season, make_sheet):
    make_sheet(hands=SEED_HANDS)

    response = client.get(season_url(season, per_page=2, _export="csv"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="standings-rive-2026.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows == [
        ["Rank", "Player", "Total", "Sheets", "Hands", "Taken", "Made", "Made %", "Average"]
        + ["Rating"],
        # (5 hands: too few for a rating to show)
        ["1", "Bert", "172", "1", "5", "1", "1", "100", "34.4", ""],
        ["2", "Anna", "108", "1", "5", "1", "1", "100", "21.6", ""],
        ["3", "Dora", "100", "1", "5", "1", "1", "100", "20", ""],
        ["4", "Carl", "-380", "1", "5", "2", "1", "50", "-76", ""],
    ]


def test_xlsx_export_opens_and_follows_filters_and_sort(client, club, season, make_sheet):
    make_sheet(hands=SEED_HANDS)
    make_sheet(5, date=APRIL, hands=[dict(TIES[0], dealer="Emil")])

    response = client.get(club_url(club, season=season.pk, seats="4", sort="name", _export="xlsx"))
    assert response.status_code == 200
    assert 'filename="standings-rive-2026.xlsx"' in response["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("Rank", "Player", "Total")
    assert [row[:3] for row in rows[1:]] == [
        (2, "Anna", 108),
        (1, "Bert", 172),
        (4, "Carl", -380),
        (3, "Dora", 100),
    ]
    assert rows[3][7:] == (50, -76, None)  # Carl: made %, average, as numbers; no rating


# ---------------------------------------------------------------- kept in step


def test_correcting_deleting_and_restoring_update_the_standings(make_sheet, season, scorer):
    sheet = make_sheet(hands=SEED_HANDS)
    club = season.club
    hands = list(sheet.hands.order_by("number"))

    services.correct_hand(hands[2], dict(SEED_HANDS[2], points=41), actor=scorer)  # Carl makes it
    assert by_name(standings(club))["Carl"]["contracts_made"] == 2
    assert summarised(club) == from_ledger(club)

    services.delete_hand(hands[0], actor=scorer)
    rows = by_name(standings(club))
    assert rows["Anna"]["hands_played"] == 4 and rows["Anna"]["hands_taken"] == 0
    assert rows["Anna"]["made_pct"] is None
    assert summarised(club) == from_ledger(club)

    services.restore_hand(hands[0], actor=scorer)
    assert summarised(club) == from_ledger(club)
    assert by_name(standings(club))["Anna"]["hands_played"] == 5

    for hand in hands:
        services.delete_hand(hand, actor=scorer)
    assert list(standings(club)) == []
    assert not SeasonTotal.objects.exists() and not SheetTotal.objects.exists()


def test_mouches_rescoring_is_followed(make_sheet, season, scorer):
    sheet = make_sheet(rules="mouches", hands=MOUCHES)
    hands = list(sheet.hands.order_by("number"))
    club = season.club
    assert summarised(club) == from_ledger(club)
    # Correcting hand 2 rescores hand 3 too (the pools carry): both are followed.
    services.correct_hand(hands[1], dict(MOUCHES[1], points=60), actor=scorer)
    assert summarised(club) == from_ledger(club)
    services.delete_hand(hands[1], actor=scorer)
    assert summarised(club) == from_ledger(club)


def test_rebuild_gives_the_summary_kept_by_the_services(make_sheet, season, players, scorer):
    club = season.club
    other = Season.objects.create(club=club, name="2025", start_date=datetime.date(2025, 1, 1))
    make_sheet(hands=SEED_HANDS)
    six = make_sheet(6, date=APRIL, hands=[sat_out(TIES[0], "Fred"), sat_out(TIES[1], "Emil")])
    make_sheet(rules="mouches", hands=MOUCHES)
    make_sheet(season=other, date=datetime.date(2025, 6, 1), hands=TIES)
    services.delete_hand(six.hands.get(number=1), actor=scorer)
    services.correct_hand(
        six.hands.get(number=2), sat_out(dict(TIES[1], points=60), "Emil"), actor=scorer
    )
    kept = summary_tables(season), summary_tables(other)
    assert kept[0][0] and kept[0][1]

    rebuild_season_totals(season)
    rebuild_season_totals(other.pk)

    assert (summary_tables(season), summary_tables(other)) == kept
    assert summarised(club) == from_ledger(club)


@pytest.mark.django_db(transaction=True)
def test_sheets_of_one_season_written_at_once_add_up(club, season, players):
    """Two scorers record hands at the same moment for the same players on two sheets:
    the season totals get both changes (added in the upsert), not the last writer's."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    sheets = [
        services.create_sheet(season=season, players=players[:4], date=MARCH, table=table)
        for table in ("1", "2")
    ]
    barrier = threading.Barrier(2)
    errors = []

    def write(sheet):
        try:
            for data in SEED_HANDS:
                barrier.wait(timeout=20)
                services.record_hand(sheet, data)
        except Exception as error:  # reported below, in the test's thread
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(sheet,)) for sheet in sheets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert summarised(club) == from_ledger(club)
    assert by_name(standings(club))["Carl"]["total"] == 2 * -380


# ---------------------------------------------------------------- queries


def _larger_club(club, season, players, scorer):
    """Sixty players, fifteen sheets: more rows than a page, more hands than the seed."""
    more = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(54)]
    everyone = players + more
    for i in range(15):
        seated = everyone[4 * i : 4 * i + 4]
        names = [p.name for p in seated]
        sheet = services.create_sheet(season=season, players=seated, date=MARCH, actor=scorer)
        for j, data in enumerate(SEED_HANDS[:4]):
            hand = dict(data, dealer=names[j], taker=names[(j + i) % 4])
            hand.pop("poignees", None)
            services.record_hand(sheet, hand, actor=scorer)


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"sort": "-average", "per_page": "3", "page": "2"},
        {"date_from": "2026-03-01", "seats": "4"},
    ],
    ids=["plain", "sorted-page-2", "filtered"],
)
def test_query_count_does_not_grow_with_the_ledger(
    client, django_assert_num_queries, make_sheet, club, season, players, scorer, query
):
    # The club, its seasons, the page's rows (which carry the number of players), what
    # the pools hold (the last live hand's pools of each sheet), and whether
    # the ratings are being recomputed (``ratings.queries.recomputing``).
    make_sheet(hands=SEED_HANDS)
    with django_assert_num_queries(5):
        assert client.get(season_url(season, **query)).status_code == 200
    with django_assert_num_queries(5):
        assert client.get(club_url(club, **query)).status_code == 200

    _larger_club(club, season, players, scorer)
    assert SeasonTotal.objects.count() == 60
    with django_assert_num_queries(5):
        response = client.get(season_url(season, **query))
    paginator = response.context["table"].paginator
    assert len(page_rows(response)) == paginator.per_page
    assert paginator.num_pages == (20 if query.get("page") else 2)
    assert "60 players" in response.content.decode()
    with django_assert_num_queries(5):
        assert client.get(club_url(club, **query)).status_code == 200
    # An export: every row, in one query (and no pools line).
    with django_assert_num_queries(3):
        response = client.get(season_url(season, _export="csv", **query))
    assert response.content.decode().count("\n") == 61


def test_a_page_past_the_end_shows_the_last_one(client, make_sheet, season):
    make_sheet(hands=SEED_HANDS)

    response = client.get(season_url(season, per_page=3, page=7))
    assert response.status_code == 200
    assert [row[1] for row in page_rows(response)] == ["Carl"]
    assert response.context["table"].page.number == 2
    response = client.get(season_url(season, per_page=3, page="x"))
    assert [row[1] for row in page_rows(response)] == ["Bert", "Anna", "Dora"]


def test_members_page_adds_only_the_session_and_role(
    client, django_assert_num_queries, make_sheet, club, season, scorer
):
    make_sheet(hands=SEED_HANDS)
    club.is_public = False
    club.save()
    client.force_login(scorer)
    # session, user, club with the membership, seasons, rows, pools, recomputing
    with django_assert_num_queries(7):
        assert client.get(season_url(season)).status_code == 200


# ---------------------------------------------------------------- who may read


def test_anyone_reads_a_public_club(client, club, season, make_sheet):
    make_sheet(hands=SEED_HANDS)
    assert client.get(club_url(club)).status_code == 200
    assert client.get(season_url(season, _export="csv")).status_code == 200


def test_a_members_only_club_is_not_revealed(client, make_user, club, season, make_sheet, scorer):
    make_sheet(hands=SEED_HANDS)
    club.is_public = False
    club.save()
    for url in (club_url(club), season_url(season), season_url(season, _export="xlsx")):
        assert client.get(url).status_code == 404
    client.force_login(make_user("stranger"))
    assert client.get(club_url(club)).status_code == 404
    client.force_login(scorer)
    assert client.get(club_url(club)).status_code == 200
    assert client.get(season_url(season)).status_code == 200


def test_unknown_club_and_another_clubs_season_are_404(client, club, season):
    other = Club.objects.create(name="Les Excusés", slug="excuses")
    foreign = Season.objects.create(club=other, name="X", start_date=datetime.date(2026, 1, 1))
    assert client.get("/clubs/nowhere/standings/").status_code == 404
    url = reverse("standings:season", args=[club.slug, foreign.pk])
    assert client.get(url).status_code == 404
    # Another club's season in the filter is a wrong choice, not a leak.
    response = client.get(club_url(club, season=foreign.pk))
    assert response.status_code == 200 and response.context["season"] is None


def test_an_empty_club_has_an_empty_table(client, club, season):
    response = client.get(season_url(season))
    assert response.status_code == 200
    assert "No hand on the ledger yet." in response.content.decode()
    assert "0 players" in response.content.decode()


# ---------------------------------------------------------------- the benchmark's ledger


def test_bench_bulk_load_reads_like_the_services_ledger(club, season, players):
    """bench_standings copies hands recorded through the services onto other tables:
    each copy scores (engine, now) as its rows say, and the rebuilt summary is the ledger's."""
    from benchmarks.management.commands.bench_standings import Command

    command = Command()
    command.verbosity = 0
    rng = random.Random(7)
    templates = command.record_templates(rng, per_size=15)
    n_rows = command.load(season, [p.pk for p in players], 200, templates, rng)
    rebuild_season_totals(season)

    hands = Hand.objects.filter(sheet__season=season).select_related("sheet")
    assert hands.count() == 200
    assert ScoreRow.objects.filter(season=season).count() == n_rows
    scores = {}
    for hand_id, name, score in ScoreRow.objects.filter(season=season).values_list(
        "hand_id", "player__name", "score"
    ):
        scores.setdefault(hand_id, {})[name] = score
    tables = {}
    for hand in hands:
        table = tables.get(hand.sheet_id) or tables.setdefault(
            hand.sheet_id, services.Table.of(hand.sheet)
        )
        result = services.preview_hand(hand.sheet, services.hand_data(hand, table), table)
        assert (
            dict(zip(result.players, (Decimal(h) / 2 for h in result.halves))) == (scores[hand.pk])
        )
        assert sum(scores[hand.pk].values()) == 0
    assert summarised(club, season=season) == from_ledger(club)


def test_the_club_page_links_to_the_standings(client, club, season):
    older = Season.objects.create(club=club, name="2025", start_date=datetime.date(2025, 1, 1))
    html = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert f'href="{club_url(club)}"' in html
    for s in (season, older):
        assert f'href="{season_url(s)}" aria-describedby="season-{s.pk}"' in html


# ---------------------------------------------------------------- mouches: the pools


def test_a_pools_season_says_what_the_pools_hold(client, make_sheet, season, scorer):
    """A mouches season's totals sum to minus what is left in the pools; the
    page says so, from the pools of each sheet's last live hand."""
    sheet = make_sheet(rules="mouches", hands=MOUCHES)
    make_sheet(hands=SEED_HANDS)  # no pools: adds nothing
    hands = list(sheet.hands.order_by("number"))
    held = sum(hands[-1].pools)
    assert held > 0
    totals = sum(r["total"] for r in standings(season.club, season=season))
    assert totals == -held
    html = client.get(season_url(season)).content.decode()
    assert f'data-pools-held="{held}"' in html
    assert f"The pools hold {held} points: the players' totals sum to \u2212{held}." in html
    # the last live hand counts: with the last hand deleted, the pools before it
    services.delete_hand(hands[-1], actor=scorer)
    before = sum(hands[-2].pools)
    assert client.get(season_url(season)).context["pools_held"] == before


def test_a_season_without_pools_says_nothing_of_them(client, make_sheet, season):
    make_sheet(hands=SEED_HANDS)
    response = client.get(season_url(season))
    assert response.context["pools_held"] == 0
    assert "The pools hold" not in response.content.decode()


def test_french_csv_reads_back_as_numbers_with_a_decimal_comma(client, season, make_sheet):
    """French Excel's reading: ";" between cells, "," as the decimal mark. Every number
    column parses as a number, and the averages keep their decimals ("34,4", not "34.4")."""
    make_sheet(hands=SEED_HANDS)

    response = client.get(season_url(season, _export="csv"), HTTP_ACCEPT_LANGUAGE="fr")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))
    header, body = rows[0], rows[1:]
    assert len(header) == 10 and len(body) == 4
    assert {row[-1] for row in body} == {""}  # 5 hands: too few for a rating
    number_columns = [i for i, name in enumerate(header) if 1 != i < 9]  # not player, rating

    def french_number(cell):
        assert "." not in cell and " " not in cell, cell  # no point, no thousands separator
        return Decimal(cell.replace(",", "."))

    parsed = [[french_number(row[i]) for i in number_columns] for row in body]
    assert [row[1] for row in body] == ["Bert", "Anna", "Dora", "Carl"]
    assert [p[-1] for p in parsed] == [Decimal("34.4"), Decimal("21.6"), 20, -76]
    assert body[0][-2] == "34,4"
    assert [p[1] for p in parsed] == [172, 108, 100, -380]  # totals


def test_english_csv_keeps_the_decimal_point(client, season, make_sheet):
    make_sheet(hands=SEED_HANDS)
    response = client.get(season_url(season, _export="csv"), HTTP_ACCEPT_LANGUAGE="en")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[1][-2] == "34.4" and rows[4][2] == "-380"


# ---------------------------------------------------------------- the ratings column


def test_the_ratings_column_shows_each_players_rating_in_the_scope_shown(
    client, monkeypatch, django_assert_num_queries, club, season, make_sheet
):
    """The kept ratings (1000 + 40 (μ − 3σ), whole) of the club, or of the season shown, in the same
    query as the totals (the page's count stays 4), sortable, blank under the minimum."""
    from ratings import queries as ratings
    from ratings import scopes

    monkeypatch.setattr(ratings, "MIN_HANDS", 5)
    make_sheet(hands=SEED_HANDS)  # 5 hands each in 2026
    other = Season.objects.create(club=club, name="2027", start_date=datetime.date(2027, 1, 1))
    make_sheet(season=other, date=datetime.date(2027, 3, 1), hands=TIES)  # Anna, Dora: 7

    def shown(response):
        return {r["name"]: r["rating"] for r in response.context["table"].display_rows}

    def expected(key):
        from scoresheet.formatting import format_number

        return {
            row.name: format_number(round(row.ordinal)) if row.hands >= 5 else "—"
            for row in ratings.scope_rows(key)
        }

    # the club, its seasons, the rows (ratings in), pools, whether ratings are recomputed
    with django_assert_num_queries(5):
        response = client.get(club_url(club))
    club_ratings = expected(scopes.club(club.pk))
    assert shown(response) == club_ratings
    assert set(club_ratings.values()) != {"—"}
    # the season's page: that season's own ratings, which differ from the club's
    response = client.get(season_url(season))
    assert shown(response) == expected(scopes.season(season.pk))
    assert shown(response)["Anna"] != club_ratings["Anna"]
    # the season chosen in the club page's filter: the same
    assert shown(client.get(club_url(club, season=season.pk))) == shown(response)
    # under the minimum: blank (the 2027 season: 2 hands each)
    assert set(shown(client.get(season_url(other))).values()) == {"—"}
    # sorted by rating, high to low, in SQL
    response = client.get(club_url(club, sort="-rating"))
    names = [r["name"] for r in response.context["table"].display_rows]
    by_ordinal = [r.name for r in ratings.scope_rows(scopes.club(club.pk))]
    assert names == by_ordinal
    html = client.get(club_url(club)).content.decode()
    assert "data-rating-note" in html and "shown from 5 hands rated" in html
    # the export: the rating as a number
    rows = list(
        csv.reader(
            io.StringIO(client.get(club_url(club, _export="csv")).content.decode("utf-8-sig"))
        )
    )
    assert rows[0][-1] == "Rating"
    exported = {row[1]: float(row[-1]) for row in rows[1:]}
    rated = {r.name: r.ordinal for r in ratings.scope_rows(scopes.club(club.pk))}
    assert exported == pytest.approx(rated, abs=1e-4)
