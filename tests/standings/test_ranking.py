"""Ranking rules per season: by total, average per hand or per evening, best N
evenings, a minimum attendance, placement points per evening — in SQL, pinned queries."""

import datetime
import random
from decimal import Decimal

import pytest
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Club, Membership, Player, Role, Season
from clubs.ranking_rule import Ranking, RankingError, parse_ranking, ranking_words
from scoresheet import services
from scoresheet.models import SheetTotal
from standings.queries import ranked_standings
from tests.data import NAMES, RULES_POST

pytestmark = pytest.mark.django_db

E1, E2, E3 = (datetime.date(2026, 3, d) for d in (1, 8, 15))


def made(taker, dealer):
    """A garde made by 15: the taker +240, each defender −80."""
    return {"dealer": dealer, "taker": taker, "contract": "garde", "bouts": 2, "points": 56}


def failed(taker, dealer):
    """A garde failed by 15: the taker −240, each defender +80."""
    return {"dealer": dealer, "taker": taker, "contract": "garde", "bouts": 2, "points": 26}


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))


@pytest.fixture
def players(club):
    return {name: Player.objects.create(club=club, name=name) for name in NAMES}


def sheet(season, players, names, date, *hands, table="1"):
    created = services.create_sheet(
        season=season, players=[players[n] for n in names], date=date, table=table
    )
    for hand in hands:
        services.record_hand(created, hand)
    return created


@pytest.fixture
def evenings(season, players):
    """Anna +240, +80 (2 evenings); Bert −80, +80, +240; Carl −80, +80, −80;
    Dora −80, −240, −80; Emil −80 (one evening)."""
    sheet(season, players, ["Anna", "Bert", "Carl", "Dora"], E1, made("Anna", "Dora"))
    sheet(season, players, ["Anna", "Bert", "Carl", "Dora"], E2, failed("Dora", "Anna"))
    sheet(season, players, ["Bert", "Carl", "Dora", "Emil"], E3, made("Bert", "Emil"))
    return season


def ranks(season, **rule):
    rows = ranked_standings(season, parse_ranking(rule))
    return [(row["name"], row["rank"], row["value"]) for row in rows]


def test_by_total_with_ties(evenings):
    assert ranks(evenings, min_evenings=1) == [
        ("Anna", 1, 320),
        ("Bert", 2, 240),
        ("Carl", 3, -80),
        ("Emil", 3, -80),
        ("Dora", 5, -400),
    ]


def test_minimum_attendance_lists_the_others_below_unranked(evenings):
    rows = ranked_standings(evenings, parse_ranking({"min_evenings": 2}))
    assert [(r["name"], r["rank"], r["ranked"]) for r in rows] == [
        ("Anna", 1, True),
        ("Bert", 2, True),
        ("Carl", 3, True),
        ("Dora", 4, True),
        ("Emil", None, False),
    ]
    assert {r["name"]: r["evenings"] for r in rows} == {
        "Anna": 2,
        "Bert": 3,
        "Carl": 3,
        "Dora": 3,
        "Emil": 1,
    }
    assert all(r["players"] == 5 for r in rows)


def test_best_evening_only(evenings):
    assert ranks(evenings, best=1) == [
        ("Anna", 1, 240),
        ("Bert", 1, 240),
        ("Carl", 3, 80),
        ("Dora", 4, -80),
        ("Emil", 4, -80),
    ]
    rows = {r["name"]: r for r in ranked_standings(evenings, parse_ranking({"best": 1}))}
    assert rows["Bert"]["counted"] == 1 and rows["Bert"]["total"] == 240  # the total stays


def test_average_per_hand(evenings):
    result = ranks(evenings, by="hand_average")
    assert [(name, rank) for name, rank, _ in result] == [
        ("Anna", 1),
        ("Bert", 2),
        ("Carl", 3),
        ("Emil", 4),
        ("Dora", 5),
    ]
    assert result[0][2] == 160
    assert round(result[2][2], 2) == Decimal("-26.67")


def test_placement_points(evenings):
    # E1: Anna first (10), the three others share second (6). E2: Anna, Bert and Carl
    # share first (10), Dora fourth (0). E3: Bert first (10), the three others second (6).
    assert ranks(evenings, by="points", points=[10, 6, 3]) == [
        ("Bert", 1, 26),
        ("Carl", 2, 22),
        ("Anna", 3, 20),
        ("Dora", 4, 12),
        ("Emil", 5, 6),
    ]


def test_placement_points_of_the_best_evenings(evenings):
    assert ranks(evenings, by="points", points=[10, 6, 3], best=2) == [
        ("Anna", 1, 20),
        ("Bert", 1, 20),
        ("Carl", 3, 16),
        ("Dora", 4, 12),
        ("Emil", 5, 6),
    ]


def test_an_evening_is_a_date_across_tables(season, players):
    """Two tables the same evening: the placement compares both; a player's two sheets
    of one date are one evening."""
    sheet(season, players, ["Anna", "Bert", "Carl", "Dora"], E1, made("Anna", "Dora"))
    sheet(season, players, ["Anna", "Emil", "Fred", "Bert"], E1, made("Emil", "Fred"), table="2")
    rows = {
        r["name"]: r for r in ranked_standings(season, parse_ranking({"by": "evening_average"}))
    }
    assert rows["Anna"]["evenings"] == 1 and rows["Anna"]["value"] == 160  # 240 − 80
    assert rows["Anna"]["sheets_played"] == 2
    # Emil +240 is the evening's first; Anna +160 second; Bert −160 last.
    points = ranks(season, by="points", points=[5, 3, 1])
    assert points[:2] == [("Emil", 1, 5), ("Anna", 2, 3)]
    assert {n: v for n, _, v in points}["Bert"] == 0


def test_matches_a_python_reference_on_a_random_season(season, players):
    """Random evenings; each rule computed again in Python from the sheet totals."""
    rng = random.Random(17)
    names = list(players)
    for day in range(1, 9):
        for table in range(rng.randint(1, 2)):
            seated = rng.sample(names, 4)
            hands = [
                (made if rng.random() < 0.6 else failed)(rng.choice(seated), seated[0])
                for _ in range(rng.randint(1, 3))
            ]
            sheet(season, players, seated, datetime.date(2026, 5, day), *hands, table=str(table))
    evening = {}
    for total in SheetTotal.objects.filter(season=season).select_related("player"):
        key = (total.player.name, total.date)
        score, hands = evening.get(key, (0, 0))
        evening[key] = (score + total.score, hands + total.hands)
    rules = [
        {"by": "points", "points": [7, 4, 2, 1], "best": 3, "min_evenings": 2},
        {"by": "evening_average", "best": 4},
        {"by": "total", "best": 2, "min_evenings": 3},
    ]
    for rule in rules:
        ranking = parse_ranking(rule)
        expected = _reference(evening, ranking)
        got = {r["name"]: (r["value"], r["ranked"]) for r in ranked_standings(season, ranking)}
        assert {n: (round(v, 6), k) for n, (v, k) in got.items()} == expected, rule


def _reference(evening, ranking):
    by_date = {}
    for (name, date), (score, _hands) in evening.items():
        by_date.setdefault(date, []).append((name, score))
    values = {}
    for (name, date), (score, hands) in evening.items():
        if ranking.by == "points":
            place = 1 + sum(1 for _, other in by_date[date] if other > score)
            value = ranking.points[place - 1] if place <= len(ranking.points) else 0
        else:
            value = score
        values.setdefault(name, []).append((value, date, hands))
    result = {}
    for name, items in values.items():
        items.sort(key=lambda v: (v[0], v[1]), reverse=True)
        counted = items[: ranking.best] if ranking.best else items
        total = sum(Decimal(v) for v, _, _ in counted)
        if ranking.by == "evening_average":
            total = total / len(counted)
        result[name] = (round(Decimal(total), 6), len(items) >= ranking.min_evenings)
    return result


# ---------------------------------------------------------------- the rule itself


def test_parse_and_short_form():
    assert parse_ranking({}) == Ranking()
    rule = parse_ranking({"by": "points", "points": "10, 7; 5", "best": "4", "min_evenings": 0})
    assert rule.as_dict() == {"by": "points", "points": [10, 7, 5], "best": 4}
    for bad, field in [
        ({"by": "elo"}, "by"),
        ({"by": "points", "points": "3, 7"}, "points"),
        ({"by": "points", "points": ""}, "points"),
        ({"by": "points", "points": "ten"}, "points"),
        ({"best": 0}, "best"),
        ({"min_evenings": -1}, "min_evenings"),
        ("total", "by"),
    ]:
        with pytest.raises(RankingError) as caught:
            parse_ranking(bad)
        assert caught.value.code == "ranking_invalid" and caught.value.field == field, bad


def test_in_words():
    words = " ".join(
        ranking_words({"by": "points", "points": [10, 7], "best": 5, "min_evenings": 3})
    )
    assert "10, 7 points" in words
    assert "best 5 evenings" in words
    assert "fewer than 3 evenings" in words


# ---------------------------------------------------------------- pages


@pytest.fixture
def manager(make_user, club):
    user = make_user("boss")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


def season_post(**fields):
    data = {"name": "2026", "start_date": "2026-01-01", "end_date": "", **RULES_POST}
    data.update(fields)
    return data


def test_the_managers_set_the_rule_on_the_season_page(client, manager, season):
    client.force_login(manager)
    url = reverse("manage:season", args=[season.club.slug, season.pk])
    response = client.post(
        url,
        season_post(
            ranking_by="points", ranking_points="10, 6, 3", ranking_best="8", ranking_min="4"
        ),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.ranking == {"by": "points", "points": [10, 6, 3], "best": 8, "min_evenings": 4}
    page = client.get(url).content.decode()
    assert 'value="10, 6, 3"' in page

    response = client.post(url, season_post(ranking_by="points", ranking_points="3, 6"))
    assert response.status_code == 200
    assert "never gets more points" in response.content.decode()
    season.refresh_from_db()
    assert season.ranking["points"] == [10, 6, 3]  # unchanged

    # an audit entry keeps the rule before and after
    entry = season.club.audit_entries.filter(action="season_updated").first()
    assert entry.after["ranking"]["by"] == "points"


def test_a_new_season_takes_the_rule_of_the_latest(client, manager, season):
    season.ranking = {"by": "hand_average"}
    season.save()
    client.force_login(manager)
    response = client.get(reverse("manage:seasons", args=[season.club.slug]))
    assert response.context["form"].initial["ranking_by"] == "hand_average"


def test_standings_page_says_the_rule_and_keeps_its_query_count(
    client, evenings, django_assert_num_queries
):
    evenings.ranking = {"by": "points", "points": [10, 6, 3], "min_evenings": 2}
    evenings.save()
    url = reverse("standings:season", args=[evenings.club.slug, evenings.pk])
    # the club, its seasons, the ranked rows, their ratings, the pools, recomputing?
    with django_assert_num_queries(6):
        response = client.get(url)
    page = response.content.decode()
    assert "Ranked by placement points" in page
    assert "Unranked: fewer than 2 evenings" in page
    rows = response.context["table"].display_rows
    assert [(r["rank"], r["name"], r["value"]) for r in rows] == [
        (1, "Bert", "26"),
        (2, "Carl", "22"),
        (3, "Anna", "20"),
        (4, "Dora", "12"),
        ("—", "Emil", "6"),
    ]
    # sorted by another column, the ranks stay
    response = client.get(url + "?sort=-total")
    assert [r["name"] for r in response.context["table"].display_rows][:2] == ["Anna", "Bert"]
    # the export has the ranked columns
    export = client.get(url + "?_export=csv").content.decode("utf-8-sig")
    assert export.splitlines()[0].startswith("Rank,Player,Points,Evenings")


def test_the_filter_narrows_the_evenings_the_rule_ranks(client, evenings):
    """The dates chosen in the filter are the evenings placed and counted."""
    evenings.ranking = {"by": "points", "points": [10, 6, 3], "min_evenings": 1}
    evenings.save()
    url = reverse("standings:season", args=[evenings.club.slug, evenings.pk])

    def shown(query):
        rows = client.get(url + query).context["table"].display_rows
        return [(r["rank"], r["name"], r["value"]) for r in rows]

    # 8 and 15 March: Anna, Bert, Carl first on the 8th (10), Dora fourth (0);
    # Bert first on the 15th (10), Carl, Dora and Emil second (6)
    assert shown("?date_from=2026-03-08") == [
        (1, "Bert", "20"),
        (2, "Carl", "16"),
        (3, "Anna", "10"),
        (4, "Dora", "6"),
        (4, "Emil", "6"),
    ]
    # 1 March only: Anna first, the others second; Emil did not play
    assert shown("?date_to=2026-03-01") == [
        (1, "Anna", "10"),
        (2, "Bert", "6"),
        (2, "Carl", "6"),
        (2, "Dora", "6"),
    ]


def test_the_rule_applies_to_its_season_chosen_on_the_club_page(client, evenings):
    evenings.ranking = {"by": "hand_average"}
    evenings.save()
    club = evenings.club
    plain = client.get(reverse("standings:club", args=[club.slug]))
    assert "Ranked by" not in plain.content.decode()
    chosen = client.get(reverse("standings:club", args=[club.slug]) + f"?season={evenings.pk}")
    assert "Ranked by average score per hand played." in chosen.content.decode()


def test_a_new_season_through_the_service_keeps_the_rule(club):
    season = club_services.create_season(
        club,
        "S",
        datetime.date(2026, 1, 1),
        None,
        None,
        actor=None,
        ranking={"by": "evening_average"},
    )
    assert season.ranking == {"by": "evening_average"}
    with pytest.raises(club_services.ClubError) as caught:
        club_services.create_season(
            club, "T", datetime.date(2026, 1, 1), None, None, actor=None, ranking={"best": "x"}
        )
    assert caught.value.code == "ranking_invalid"
    assert not Season.objects.filter(name="T").exists()
