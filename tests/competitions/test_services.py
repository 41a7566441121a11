"""The team competitions' writes: set-up, fixtures, line-ups, a match's results kept on
write and read back by the division table, a cup drawn and played to its final."""

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competitions import promotion, queries, services
from competitions.models import Competition, LineUpSeat, Match, TableDeal
from competitions.services import CompetitionError
from leagues.models import LeagueAuditEntry
from tests.competitions.conftest import line_ups, marques, team

# deal 1: the same marques at both tables (0 difference); deal 2: away's deal.
# Table 1: home N–S, away E–W; table 2: home E–W, away N–S.
DEAL_1 = (marques(120, -40, -40, -40), marques(120, -40, -40, -40))
DEAL_2 = (marques(-50, 150, -50, -50), marques(-30, -30, 90, -30))
# deal 1: home 120−40−(−40−40)… = home 80 − 80 = 0; deal 2: home −100 − 60 = −160


def test_fixtures_are_a_round_robin(championship):
    competition, division, teams = championship()
    matches = list(division.matches.all())
    assert len(matches) == 6
    pairs = {frozenset((m.home_id, m.away_id)) for m in matches}
    assert pairs == {frozenset(p) for p in itertools.combinations([t.pk for t in teams], 2)}
    for day in (1, 2, 3):
        playing = [t for m in matches if m.day == day for t in (m.home_id, m.away_id)]
        assert sorted(playing) == sorted(t.pk for t in teams)
    with pytest.raises(CompetitionError) as refused:
        services.generate_fixtures(division)
    assert refused.value.code == "fixtures_made"


def test_double_round_robin_with_five_teams(championship):
    _competition, division, teams = championship(teams=5, double_round=True)
    matches = list(division.matches.all())
    assert len(matches) == 20  # 10 pairs, twice
    assert {m.day for m in matches} == set(range(1, 11))
    for a, b in itertools.permutations(teams, 2):
        assert sum(1 for m in matches if (m.home_id, m.away_id) == (a.pk, b.pk)) == 1


def test_a_hand_computed_duplicate_match(championship, boss):
    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    match.refresh_from_db()
    assert (match.points_home, match.points_away) == (-160, 160)
    assert (match.mp_home, match.mp_away) == (0, 2)  # the plain scale: a win 2–0
    assert (match.lp_home, match.lp_away) == (0, 3)
    assert match.winner_id == match.away_id
    assert TableDeal.objects.filter(table__match=match).count() == 4
    sheet = queries.match_sheet(match)
    assert [(d[0], d[3], d[4]) for d in sheet.deals] == [(1, 0, 0), (2, -160, 160)]
    assert LeagueAuditEntry.objects.filter(action="match_recorded").count() == 1


def test_a_two_line_scale(championship, boss):
    # within 200 points: 1–1 (a draw); from 200: 3–0
    competition, division, _teams = championship(scale=[[0, 1, 1], [200, 3, 0]])
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)  # difference −320
    match.refresh_from_db()
    assert (match.mp_home, match.mp_away, match.lp_home, match.lp_away) == (0, 3, 0, 3)
    small = (marques(-50, 150, -50, -50), marques(-50, 150, -50, -50))  # difference 0
    light = (marques(-10, 30, -10, -10), marques(-10, -10, 30, -10))  # home −20 −20 = −40
    services.record_results(match, [small, light], actor=boss)  # corrected: −40 to 40
    match.refresh_from_db()
    # a difference of −80, within 200: a draw
    assert (match.points_home, match.points_away, match.mp_home, match.mp_away) == (-40, 40, 1, 1)
    assert (match.lp_home, match.lp_away) == (1, 1) and match.winner_id is None


def test_a_free_deal_match_sums_the_totals(championship, boss):
    competition, division, _teams = championship(mode=Competition.Mode.FREE)
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    with pytest.raises(CompetitionError) as refused:
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    assert refused.value.code == "deal_count"
    services.record_results(match, [(marques(300, -100, 100, -300), marques(0, 0, 0, 0))])
    match.refresh_from_db()
    assert (match.points_home, match.points_away, match.mp_home) == (400, -400, 2)


def test_the_division_table_reads_the_kept_results(championship, boss):
    competition, division, teams = championship()
    for match in division.matches.filter(day=1):
        line_ups(match, boss)
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)  # away wins each
    [view] = queries.championship(competition)
    by_team = {line.team.name: line for line in view.lines}
    winners = {m.away.name for m in division.matches.filter(day=1)}
    for name, line in by_team.items():
        assert line.played == 1
        assert line.league_points == (3 if name in winners else 0)
        assert line.won == (1 if name in winners else 0)
    assert {line.team.name for line in view.lines[:2]} == winners
    assert [line.rank for line in view.lines] == [1, 1, 3, 3]  # tied on every key


def test_promotion_marks_in_a_two_division_table(league, clubs, boss):
    competition = services.create_competition(
        league, name="C", kind="championship", promoted=1, relegated=1, actor=boss
    )
    one = services.add_division(competition, "D1", actor=boss)
    two = services.add_division(competition, "D2", actor=boss)
    team(competition, clubs, "a", "A1", 0, one)
    team(competition, clubs, "b", "B1", 0, one)
    team(competition, clubs, "a", "A2", 4, two)
    team(competition, clubs, "b", "B2", 4, two)
    top, bottom = queries.championship(competition)
    assert [line.move for line in top.lines] == ["", "down"]
    assert [line.move for line in bottom.lines] == ["up", ""]


def test_set_up_refusals(league, clubs, boss):
    with pytest.raises(CompetitionError) as refused:
        services.create_competition(league, name="C", kind="league", actor=boss)
    assert refused.value.code == "kind_invalid"
    with pytest.raises(CompetitionError) as refused:
        services.create_competition(league, name="C", kind="cup", scale=[[5, 2, 0]], actor=boss)
    assert refused.value.code == "scale_start"
    with pytest.raises(CompetitionError) as refused:
        services.create_competition(league, name="C", kind="cup", actor=clubs["a_manager"])
    assert refused.value.code == "forbidden"
    competition = services.create_competition(league, name="C", kind="cup", actor=boss)
    players = clubs["a_players"]
    cases = {
        "squad_size": {"players": players[:3]},
        "squad_club": {"players": players[:3] + clubs["b_players"][:1]},
        "captain_not_in_squad": {"players": players[:4], "captain": players[5]},
    }
    for code, args in cases.items():
        with pytest.raises(CompetitionError) as refused:
            services.enter_team(competition, clubs["a"], name="T", **args)
        assert refused.value.code == code
    # another club's manager may not enter club A's team; A's manager may
    with pytest.raises(CompetitionError) as refused:
        services.enter_team(
            competition, clubs["a"], name="T", players=players[:4], actor=clubs["b_manager"]
        )
    assert refused.value.code == "forbidden_team"
    services.enter_team(
        competition, clubs["a"], name="T", players=players[:4], actor=clubs["a_manager"]
    )
    with pytest.raises(CompetitionError) as refused:
        services.enter_team(competition, clubs["a"], name="T", players=players[4:])
    assert refused.value.code == "name_taken"


def test_line_up_rules(championship, clubs, boss):
    competition, division, teams = championship()
    match = division.matches.select_related("home", "away").get(day=1, slot=0)
    home = match.home
    squad = list(home.squad.order_by("pk"))
    outsider = next(t for t in teams if t.pk not in (match.home_id, match.away_id))
    with pytest.raises(CompetitionError) as refused:
        services.submit_line_up(match, outsider, squad)
    assert refused.value.code == "not_in_match"
    with pytest.raises(CompetitionError) as refused:
        services.submit_line_up(match, home, squad[:3] + squad[:1])
    assert refused.value.code == "line_up_size"
    strangers = list(match.away.squad.all())
    with pytest.raises(CompetitionError) as refused:
        services.submit_line_up(match, home, squad[:3] + strangers[:1])
    assert refused.value.code == "line_up_squad"
    other_manager = clubs["b_manager"] if home.club == clubs["a"] else clubs["a_manager"]
    own_manager = clubs["a_manager"] if home.club == clubs["a"] else clubs["b_manager"]
    with pytest.raises(CompetitionError) as refused:
        services.submit_line_up(match, home, squad, actor=other_manager)
    assert refused.value.code == "forbidden_team"
    services.submit_line_up(match, home, squad[::-1], actor=own_manager)
    services.submit_line_up(match, home, squad, actor=own_manager)  # changed: replaced
    assert list(
        LineUpSeat.objects.filter(match=match, team=home).values_list("player", flat=True)
    ) == [p.pk for p in squad]
    with pytest.raises(CompetitionError) as refused:
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    assert refused.value.code == "line_up_missing"
    services.submit_line_up(match, match.away, strangers, actor=boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    with pytest.raises(CompetitionError) as refused:
        services.submit_line_up(match, home, squad, actor=own_manager)
    assert refused.value.code == "locked"


def test_marques_that_do_not_sum_to_zero_are_refused(championship, boss):
    _competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    wrong = (marques(120, -40, -40, -30), DEAL_1[1])
    with pytest.raises(CompetitionError) as refused:
        services.record_results(match, [DEAL_1, wrong], actor=boss)
    assert refused.value.code == "zero_sum" and "Deal 2, table 1" in refused.value.message
    assert not TableDeal.objects.exists()
    match.refresh_from_db()
    assert not match.played


seat_marques = st.lists(st.integers(-3000, 3000), min_size=3, max_size=3).map(
    lambda three: marques(*three, -sum(three))
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(deals=st.lists(seat_marques, min_size=2, max_size=2))
def test_the_same_marques_at_both_tables_cancel(championship, boss, deals):
    """Luck cancels: whatever the cards, the same marques in the same seats at both tables
    are a difference of 0, a draw under any scale."""
    Match.objects.all().delete()
    competition = Competition.objects.first()
    if competition is None:
        competition, division, _teams = championship()
    else:
        division = competition.divisions.get()
        _recreate(division)
    match = division.matches.get(day=1, slot=0)
    line_ups(match)
    services.record_results(match, [(deal, dict(deal)) for deal in deals])
    match.refresh_from_db()
    assert match.points_home == match.points_away == 0
    assert match.mp_home == match.mp_away and match.lp_home == match.lp_away == 1


def _recreate(division):
    division.fixtures_at = None
    division.save()
    services.generate_fixtures(division)


def test_a_cup_of_five_played_to_its_final(league, clubs, boss):
    competition = services.create_competition(league, name="Coupe", kind="cup", deals=2, actor=boss)
    teams = [
        team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
        for i in range(5)
    ]
    services.draw_cup(competition, seed=7, actor=boss)
    competition.refresh_from_db()
    assert len(competition.bracket) == 8 and competition.bracket.count(None) == 3
    first = list(competition.matches.order_by("day", "slot"))
    # places 1, –, 4, 5, 2, –, 3, –: T2 and T3 through their byes meet at once
    assert [(m.day, m.home.name, m.away.name) for m in first] == [(1, "T4", "T5"), (2, "T2", "T3")]
    with pytest.raises(CompetitionError) as refused:
        services.draw_cup(competition, actor=boss)
    assert refused.value.code == "drawn_already"
    tie = first[0]
    line_ups(tie)
    services.record_results(tie, [DEAL_1, DEAL_2], actor=boss)  # away (T5) wins
    waiting = competition.matches.get(day=2, slot=0)
    assert (waiting.home.name, waiting.away.name) == ("T1", "T5")
    line_ups(waiting)
    flipped = (DEAL_2[1], DEAL_2[0])  # the tables swapped: home (T4) +160
    services.record_results(tie, [DEAL_1, flipped], actor=boss)  # corrected: T4 goes on
    waiting.refresh_from_db()
    assert (waiting.home.name, waiting.away.name) == ("T1", "T4")
    assert not waiting.line_up.exists()  # T5's line-up went with T5
    services.record_results(tie, [DEAL_1, DEAL_2], actor=boss)  # back to T5
    for match in competition.matches.filter(day=2).order_by("slot"):
        line_ups(match)
        services.record_results(match, [DEAL_1, DEAL_1], actor=boss)  # level: the better seed
    final = competition.matches.get(day=3)
    assert (final.home.name, final.away.name) == ("T1", "T2")
    with pytest.raises(CompetitionError) as refused:  # T5's next match is played
        services.record_results(tie, [DEAL_1, flipped], actor=boss)
    assert refused.value.code == "cup_next_played"
    line_ups(final)
    services.record_results(final, [DEAL_1, flipped], actor=boss)
    rounds = queries.cup_rounds(competition)
    assert [len(r) for r in rounds] == [4, 2, 1]
    assert rounds[2][0]["match"].winner == teams[0]


def test_the_same_seed_draws_the_same_bracket(league, clubs, boss):
    brackets = []
    for name in ("C1", "C2"):
        competition = services.create_competition(league, name=name, kind="cup", actor=boss)
        for i in range(6):
            team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
        services.draw_cup(competition, seed=42, seeded=2, actor=boss)
        competition.refresh_from_db()
        names = dict(competition.teams.values_list("pk", "name"))
        brackets.append([names.get(pk) for pk in competition.bracket])
    assert brackets[0] == brackets[1]
    assert brackets[0][0] == "T1" and brackets[0][4] == "T2"  # the two seeds kept


def test_the_next_season_moves_the_first_up_and_the_last_down(league, clubs, boss):
    competition = services.create_competition(
        league, name="2026", kind="championship", deals=2, promoted=1, relegated=1, actor=boss
    )
    one = services.add_division(competition, "D1", actor=boss)
    two = services.add_division(competition, "D2", actor=boss)
    made = {}
    for index, (key, name, division) in enumerate(
        [("a", "A1", one), ("b", "B1", one), ("a", "A2", two), ("b", "B2", two)]
    ):
        made[name] = team(competition, clubs, key, name, 4 * (index // 2), division, boss)
    for division in (one, two):
        services.generate_fixtures(division, actor=boss)
    with pytest.raises(CompetitionError) as refused:
        promotion.next_season(competition, name="2027", actor=boss)
    assert refused.value.code == "season_unfinished"
    for match in competition.matches.select_related("home", "away"):
        line_ups(match)
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)  # the away team wins
    following = promotion.next_season(competition, name="2027", actor=boss)
    divisions = {
        d.name: sorted(d.teams.values_list("name", flat=True)) for d in following.divisions.all()
    }
    winners = {m.division.name: m.away.name for m in competition.matches.all()}
    losers = {m.division.name: m.home.name for m in competition.matches.all()}
    # D1's loser goes down, D2's winner comes up
    assert divisions["D1"] == sorted([winners["D1"], winners["D2"]])
    assert divisions["D2"] == sorted([losers["D1"], losers["D2"]])
    copy = following.teams.get(name="A1")
    assert set(copy.squad.all()) == set(made["A1"].squad.all())
    assert not following.matches.exists()


def test_the_manager_adjusts_the_divisions_before_the_fixtures(
    league, clubs, boss, client, django_user_model
):
    """A team moved to another division by the league manager (the page's form): an
    entry in the league's history; refused once either division has its fixtures, to a
    division of another competition, and to a club manager."""
    from django.urls import reverse

    competition = services.create_competition(
        league, name="2027", kind="championship", deals=2, actor=boss
    )
    one = services.add_division(competition, "D1", actor=boss)
    two = services.add_division(competition, "D2", actor=boss)
    a1 = team(competition, clubs, "a", "A1", 0, one, boss)
    b1 = team(competition, clubs, "b", "B1", 4, one, boss)
    a2 = team(competition, clubs, "a", "A2", 4, two, boss)
    with pytest.raises(CompetitionError) as refused:
        services.move_team(a1, two, actor=clubs["a_manager"])
    assert refused.value.code == "forbidden"
    client.force_login(boss)
    manage = reverse("competitions:manage", args=[league.slug, competition.pk])
    answer = client.post(manage, {"action": "move", "move-team": a1.pk, "move-division": two.pk})
    assert answer.status_code == 302
    a1.refresh_from_db()
    assert a1.division == two
    entry = LeagueAuditEntry.objects.get(action="team_moved")
    assert (entry.label, entry.after) == ("A1", {"from": "D1", "to": "D2"})
    other = services.create_competition(league, name="Autre", kind="championship", actor=boss)
    elsewhere = services.add_division(other, "D9", actor=boss)
    with pytest.raises(CompetitionError) as refused:
        services.move_team(a2, elsewhere, actor=boss)
    assert refused.value.code == "division_other"
    services.generate_fixtures(two, actor=boss)
    page = client.post(manage, {"action": "move", "move-team": b1.pk, "move-division": two.pk})
    assert page.status_code == 200 and "already made" in page.content.decode()
    b1.refresh_from_db()
    assert b1.division == one


def test_the_next_season_costs_the_same_queries_whatever_the_teams(league, clubs, boss):
    """The teams and their squads are copied in two statements: the next season of a
    division of four teams costs what one of two does (it was four queries a team)."""
    costs = []
    for size in (2, 4):
        competition = services.create_competition(
            league, name=f"Of {size}", kind="championship", deals=2, actor=boss
        )
        division = services.add_division(competition, "D1", actor=boss)
        for index in range(size):
            key = "ab"[index % 2]
            team(competition, clubs, key, f"{key}{index}", 4 * (index // 2), division, boss)
        services.generate_fixtures(division, actor=boss)
        for match in competition.matches.select_related("home", "away"):
            line_ups(match)
            services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
        with CaptureQueriesContext(connection) as seen:
            following = promotion.next_season(competition, name=f"Next {size}", actor=boss)
        costs.append(len(seen))
        copies = {t.name: set(t.squad.values_list("pk", flat=True)) for t in following.teams.all()}
        assert copies == {
            t.name: set(t.squad.values_list("pk", flat=True)) for t in competition.teams.all()
        }
    assert costs[0] == costs[1]


def test_a_cups_results_are_recorded_one_at_a_time(league, clubs, boss):
    """Two sibling ties recorded at once would each see the other undecided and neither
    make the next tie: a cup's result locks the competition's row first (PostgreSQL;
    SQLite writes one transaction at a time)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    competition = services.create_competition(league, name="Coupe", kind="cup", deals=2, actor=boss)
    for i in range(4):
        team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
    services.draw_cup(competition, seed=7, actor=boss)
    competition.refresh_from_db()
    tie = competition.matches.order_by("day", "slot").first()
    line_ups(tie)
    table = Competition._meta.db_table
    with CaptureQueriesContext(connection) as seen:
        services.record_results(tie, [DEAL_1, DEAL_2], actor=boss)
    sqls = [q["sql"] for q in seen]

    def locks_the_competition(sql):  # FOR UPDATE locks every table read, or those of OF
        if "FOR UPDATE" not in sql:
            return False
        tail = sql.split("FOR UPDATE", 1)[1].strip()
        return f'"{table}"' in (tail if tail.startswith("OF") else sql)

    lock = next(i for i, sql in enumerate(sqls) if locks_the_competition(sql))
    first_write = next(i for i, sql in enumerate(sqls) if sql.lstrip().startswith("INSERT"))
    assert lock < first_write
