"""The league ranking by hand-computed examples: best N events, coefficients, ties,
séries, the qualification line, a withdrawn event, and a members-only club's players
left unnamed. The per-event results are stored from hand-written ranks; the closing of a
real tournament is tests/leagues/test_events.py's."""

from decimal import Decimal

import pytest

from clubs.models import Person, Player
from leagues import season_standings, services
from leagues.models import EventResult

SERIES = {"A": "Open", "B": "Open", "C": "1ère", "D": "1ère", "E": "Vétéran"}


@pytest.fixture
def people(clubs):
    out = {}
    for i, (name, serie) in enumerate(SERIES.items()):
        person = Person.objects.create(name=name, licence=f"L{i}", serie=serie)
        club = clubs["a"] if name != "D" else clubs["b"]
        out[name] = Player.objects.create(club=club, name=name, person=person)
    return out


def counted(lseason, event, name, coefficient, ranks, people):
    """A tournament counted with ``coefficient``, its results stored from ``ranks``
    (person name → rank)."""
    tournament = event(name)
    league_event = services.register_event(lseason, tournament, coefficient=coefficient)
    rows = [
        {"player_id": people[n].pk, "name": n, "rank": r, "total": Decimal(0)}
        for n, r in ranks.items()
    ]
    services.store_results(league_event, rows)
    return league_event


@pytest.fixture
def season_of_four(lseason, event, people):
    # scale 10, 6, 4, 2 (then 0); best 2 events; the first of each série qualifies
    counted(lseason, event, "E1", 1, {"A": 1, "B": 2, "C": 2, "D": 4}, people)  # 10 6 6 2
    counted(lseason, event, "E2", 2, {"C": 1, "A": 2, "D": 3, "B": 4}, people)  # 20 12 8 4
    counted(lseason, event, "E3", 1, {"D": 1, "B": 2, "A": 3, "C": 4, "E": 5}, people)  # 10 6 4 2 0
    e4 = counted(lseason, event, "E4", "1.5", {"A": 1, "B": 2}, people)  # 15 9
    return e4


def by_name(rows):
    """Rows by the person's name (unnamed ones too: the test knows who they are)."""
    names = dict(Person.objects.values_list("pk", "name"))
    return {names[r["person_id"]]: r for r in rows}


def test_best_two_with_coefficients_until_an_event_is_withdrawn(lseason, season_of_four):
    rows = by_name(season_standings.season_ranking(lseason))
    # E4 counts: A 15 + 12 = 27, C 20 + 6 = 26, D 10 + 8 = 18, B 9 + 6 = 15, E 0
    assert {n: (r["total"], r["rank"]) for n, r in rows.items()} == {
        "A": (Decimal("27.000"), 1),
        "C": (Decimal("26.000"), 2),
        "D": (Decimal("18.000"), 3),
        "B": (Decimal("15.000"), 4),
        "E": (Decimal("0.000"), 5),
    }
    assert rows["A"]["played"] == 4 and rows["A"]["counted"] == 2
    services.withdraw_event(season_of_four)
    rows = by_name(season_standings.season_ranking(lseason))
    # A 12 + 10 = 22 now: C first
    assert {n: (r["total"], r["rank"]) for n, r in rows.items()} == {
        "C": (Decimal("26.000"), 1),
        "A": (Decimal("22.000"), 2),
        "D": (Decimal("18.000"), 3),
        "B": (Decimal("12.000"), 4),
        "E": (Decimal("0.000"), 5),
    }
    assert rows["A"]["played"] == 3
    # stored results stay for the record
    assert EventResult.objects.filter(event=season_of_four).count() == 2


def test_series_and_the_qualification_line(lseason, season_of_four):
    services.withdraw_event(season_of_four)
    rows = by_name(season_standings.season_ranking(lseason))
    assert {n: r["serie_rank"] for n, r in rows.items()} == {
        "A": 1,
        "B": 2,
        "C": 1,
        "D": 2,
        "E": None,  # Vétéran is not a série of the league
    }
    assert {n for n, r in rows.items() if r["qualified"]} == {"A", "C"}
    open_rows = season_standings.filtered(list(rows.values()), serie="Open")
    assert [r["name"] for r in open_rows] == ["A", "B"]
    assert [
        r["serie_rank"] for r in season_standings.filtered(list(rows.values()), serie="1ère")
    ] == [1, 2]


def test_ties_share_a_rank_and_the_next_is_skipped(lseason, event, people):
    counted(lseason, event, "T1", 1, {"A": 1, "B": 2, "C": 3}, people)  # 10 6 4
    counted(lseason, event, "T2", 1, {"B": 1, "A": 2, "D": 3, "C": 4}, people)  # 10 6 4 2
    rows = by_name(season_standings.season_ranking(lseason))
    # A 16, B 16, C 6, D 4: 1, 1, 3, 4
    names = dict(Person.objects.values_list("pk", "name"))
    assert [
        (names[r["person_id"]], r["rank"]) for r in season_standings.season_ranking(lseason)
    ] == [
        ("A", 1),
        ("B", 1),
        ("C", 3),
        ("D", 4),
    ]
    assert rows["A"]["total"] == rows["B"]["total"] == Decimal(16)


def test_a_new_coefficient_or_scale_rescores_the_stored_ranks(lseason, event, people):
    e = counted(lseason, event, "C1", 1, {"A": 1, "B": 2}, people)
    services.set_coefficient(e, "3")
    assert by_name(season_standings.season_ranking(lseason))["A"]["total"] == 30
    services.save_season(
        lseason.league,
        season=lseason,
        name=lseason.name,
        start_date=lseason.start_date,
        end_date=lseason.end_date,
        scale={"kind": "proportional", "points": 50},
        best_events=2,
    )
    rows = by_name(season_standings.season_ranking(lseason))
    assert (rows["A"]["total"], rows["B"]["total"]) == (150, 0)


def test_a_members_only_club_player_is_named_only_if_the_club_allows(
    lseason, season_of_four, clubs
):
    rows = season_standings.season_ranking(lseason)
    d = next(r for r in rows if r["licence"] is None)
    assert d["name"] is None and d["total"] == 18  # D plays in the members-only club B
    link = clubs["b"].league_links.get()
    services.accept_invitation(link, names_players=True, actor=clubs["b_manager"])
    assert "D" in {r["name"] for r in season_standings.season_ranking(lseason)}


def test_the_ranking_reads_three_queries(lseason, season_of_four, django_assert_num_queries):
    lseason = type(lseason).objects.select_related("league").get(pk=lseason.pk)
    with django_assert_num_queries(3):  # the rows, their clubs, whom the reader may see
        season_standings.season_ranking(lseason)


def test_a_serie_changed_ranks_the_person_in_their_new_serie(
    lseason, season_of_four, league, boss, clubs, django_user_model
):
    services.withdraw_event(season_of_four)  # C 26, A 22, D 18, B 12, E 0
    # the league's manager links D (1ère) in club A, giving the série Open
    services.link_by_licence(
        league, Player.objects.create(club=clubs["a"], name="D bis"), "L3", serie="Open", actor=boss
    )
    rows = by_name(season_standings.season_ranking(lseason))
    assert {n: (r["rank"], r["serie"], r["serie_rank"]) for n, r in rows.items()} == {
        "C": (1, "1ère", 1),
        "A": (2, "Open", 1),
        "D": (3, "Open", 2),
        "B": (4, "Open", 3),
        "E": (5, "Vétéran", None),
    }
    # E gives their own série from My account: second of 1ère behind C
    user = django_user_model.objects.create_user("e", password="pw-long-12345")
    Person.objects.filter(name="E").update(user=user)
    services.set_person(user, name="E", licence="L4", serie="1ère", actor=user)
    rows = by_name(season_standings.season_ranking(lseason, serie="1ère", order="serie"))
    assert {n: r["serie_rank"] for n, r in rows.items()} == {"C": 1, "E": 2}
    assert [r["name"] for r in season_standings.season_ranking(lseason, serie="Open")] == [
        "A",
        "D",
        "B",
    ]


def test_a_serie_change_locks_the_seasons_it_reranks(lseason, season_of_four, people):
    """``rerank_persons`` writes a season's ranks as ``restand`` does: under the season's
    row lock, so a série change and an event closing at once rank one after the other
    (PostgreSQL; SQLite writes one transaction at a time)."""
    from django.db import connection, transaction  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    person_id = people["A"].person_id
    Person.objects.filter(pk=person_id).update(serie="1ère")  # their série's ranks move
    table = lseason._meta.db_table
    with transaction.atomic(), CaptureQueriesContext(connection) as seen:
        season_standings.rerank_persons([person_id])
    locks = [q["sql"] for q in seen if "FOR UPDATE" in q["sql"] and table in q["sql"]]
    assert len(locks) == 1 and str(lseason.pk) in locks[0]
    sqls = [q["sql"] for q in seen]
    first_update = next(i for i, sql in enumerate(sqls) if "UPDATE" in sql and sql not in locks)
    assert sqls.index(locks[0]) < first_update  # locked before the ranks are written


def test_a_whole_season_summed_again_writes_its_ranks_in_the_same_rows(
    lseason, season_of_four, django_assert_num_queries
):
    """A whole season's re-sum (a new scale, a new best N) ranks the sums before writing
    them: the rows it writes hold the ranks the one rank rule gives, overall and by série,
    with no second pass (the season's lock, the delete, the results, the write)."""
    season_standings.restand(lseason, list(Person.objects.values_list("pk", flat=True)))
    kept = sorted(lseason.standings.values_list("person_id", "exact", "place", "serie_place"))
    lseason.standings.update(place=0, serie_place=0)
    with django_assert_num_queries(4):
        season_standings.restand(lseason)
    assert (
        sorted(lseason.standings.values_list("person_id", "exact", "place", "serie_place")) == kept
    )
    names = dict(Person.objects.values_list("pk", "name"))
    assert {names[p]: (place, serie) for p, _e, place, serie in kept} == {
        "A": (1, 1),  # Open
        "C": (2, 1),  # 1ère
        "D": (3, 2),
        "B": (4, 2),
        "E": (5, 1),  # Vétéran
    }
