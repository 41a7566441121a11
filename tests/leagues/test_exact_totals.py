"""League sums and ties are exact: a third of 100 three times is 100 and ties with 100;
on simulated proportional seasons (Hypothesis) the kept ranks equal a recomputation in
fractions written here, with every event counted when the season has no best-N limit."""

import datetime
import itertools
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Person, Player
from leagues import season_standings, services
from leagues.models import LeagueEvent, Standing
from tournaments import services as tournament_services

SERIES = ("Open", "1ère")
DAY = datetime.date(2026, 3, 1)
_names = itertools.count()


@pytest.fixture
def persons(clubs):
    out = []
    for i in range(6):
        person = Person.objects.create(name=f"P{i}", licence=f"L{i}", serie=SERIES[i % 2])
        out.append(Player.objects.create(club=clubs["a"], name=f"P{i}", person=person))
    return out


@pytest.fixture
def tournaments(clubs):
    return [
        tournament_services.create_tournament(
            clubs["a"], name=f"T{i}", date=DAY, rules="fft", rounds=1, deals_per_round=4
        )
        for i in range(5)
    ]


def season(league, points=100, best=None):
    return services.save_season(
        league,
        name=f"S{next(_names)}",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2026, 6, 30),
        scale={"kind": "proportional", "points": points},
        best_events=best,
    )


def store(lseason, tournament, ranks, coefficient=1):
    """An event of ``lseason`` with the given ranks (player → rank)."""
    event = LeagueEvent.objects.create(
        season=lseason, tournament=tournament, coefficient=Decimal(str(coefficient))
    )
    rows = [
        {"player_id": p.pk, "name": p.name, "rank": r, "total": Decimal(0)}
        for p, r in ranks.items()
    ]
    services.store_results(event, rows)


def places(lseason):
    return dict(Standing.objects.filter(season=lseason).values_list("person_id", "place"))


def test_a_third_of_100_three_times_is_100_and_ties_with_100(league, persons, tournaments):
    lseason = season(league)
    x, y, a, b = persons[:4]
    for t in tournaments[:3]:  # x third of four three times: 3 × 100/3
        store(lseason, t, {a: 1, b: 2, x: 3, persons[4]: 4})
    store(lseason, tournaments[3], {y: 1, persons[5]: 2, persons[4]: 3, a: 4})  # y: 100
    rows = {r["person_id"]: r for r in season_standings.season_ranking(lseason)}
    px, py = x.person_id, y.person_id
    assert Standing.objects.get(season=lseason, person_id=px).exact == "100"
    assert rows[px]["total"] == rows[py]["total"] == Decimal(100)
    assert rows[px]["rank"] == rows[py]["rank"]


def expected(events, points, best, series):
    """The season recomputed from the events' ranks, in fractions: placement points
    proportional to the field beaten, × the coefficient, the best N summed, ranked."""
    per = {}
    for ranks, coefficient in events:
        field = len(ranks)
        for person, r in ranks.items():
            behind = sum(1 for other in ranks.values() if other > r)
            value = Fraction(points) if field == 1 else Fraction(points) * behind / (field - 1)
            per.setdefault(person, []).append(value * Fraction(str(coefficient)))
    totals = {
        p: sum(sorted(v, reverse=True)[: best or len(v)], Fraction(0)) for p, v in per.items()
    }
    return (
        {p: 1 + sum(1 for o in totals.values() if o > t) for p, t in totals.items()},
        {
            p: 1 + sum(1 for o, u in totals.items() if series[o] == series[p] and u > t)
            for p, t in totals.items()
        },
        totals,
    )


event_of = st.tuples(
    st.dictionaries(st.integers(0, 5), st.integers(0, 3), min_size=1, max_size=6),
    st.sampled_from(["1", "1.5", "2", "0.33"]),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    events=st.lists(event_of, min_size=1, max_size=5),
    points=st.sampled_from([100, 7, 1000]),
    best=st.sampled_from([None, 1, 2, 3]),
)
def test_proportional_seasons_rank_as_an_exact_recomputation(
    league, persons, tournaments, events, points, best
):
    lseason = season(league, points, best)
    plain = []
    for (scores, coefficient), tournament in zip(events, tournaments, strict=False):
        # ranks from scores: equal scores share a rank (1, 2, 2, 4)
        ranks = {
            persons[i]: 1 + sum(1 for other in scores.values() if other > s)
            for i, s in scores.items()
        }
        store(lseason, tournament, ranks, coefficient)
        plain.append(({p.person_id: r for p, r in ranks.items()}, coefficient))
    series = {p.person_id: SERIES[i % 2] for i, p in enumerate(persons)}
    place, serie_place, totals = expected(plain, points, best, series)
    kept = Standing.objects.filter(season=lseason)
    assert {s.person_id: s.place for s in kept} == place
    assert {s.person_id: s.serie_place for s in kept} == serie_place
    assert {s.person_id: Fraction(s.exact) for s in kept} == totals
    assert {s.person_id: s.counted for s in kept} == {
        p: min(best or 99, sum(1 for ranks, _c in plain if p in ranks)) for p in totals
    }


def test_the_migration_recomputes_exact_points_and_standings(league, persons, tournaments):
    """What ``0007_exact_league_points`` does to results stored before it (exact "0",
    standings summed from rounded values): the same as storing them now."""
    from importlib import import_module  # noqa: PLC0415 (a migration module's name)

    from django.apps import apps  # noqa: PLC0415

    from leagues.models import EventResult  # noqa: PLC0415

    migration = import_module("leagues.migrations.0007_exact_league_points")
    lseason = season(league, 100, 2)
    x, y, a, b = persons[:4]
    for t in tournaments[:3]:
        store(lseason, t, {a: 1, b: 2, x: 3, persons[4]: 4})
    store(lseason, tournaments[3], {y: 1, persons[5]: 2, persons[4]: 3, a: 4}, "1.5")
    kept = list(Standing.objects.filter(season=lseason).values_list("person", "exact", "place"))
    EventResult.objects.update(exact="0")
    Standing.objects.update(exact="0", place=0, total=0)
    migration.exact(apps, None)
    assert sorted(
        Standing.objects.filter(season=lseason).values_list("person", "exact", "place")
    ) == sorted(kept)
    assert Standing.objects.get(season=lseason, person=y.person_id).exact == "150"
