"""Captains' private links, a match entered through its tables' links with double entry,
the provisional result and the captains' claims (competitions.services, .links)."""

import datetime

import pytest

from competitions import links, services
from competitions.models import MatchClaim
from competitions.services import CompetitionError
from leagues.models import LeagueAuditEntry
from scoresheet.models import Hand
from tournaments import services as tournaments
from tournaments import tokens
from tournaments.models import RoundTable

from .conftest import line_ups

pytestmark = pytest.mark.django_db

HANDS = [
    {"taker": 0, "contract": "garde", "bouts": 2, "points": 51},
    {"taker": 1, "contract": "prise", "bouts": 1, "points": 45},
]


def enter(table, hands):
    """The table enters its deals, hands the sheet in, and a second player the same deals."""
    table = RoundTable.objects.select_related("round__tournament", "sheet").get(pk=table.pk)
    names = [s.player.name for s in table.sheet.seats.order_by("position")]
    for hand in hands:
        tournaments.record_table_hand(table, dict(hand, taker=names[hand["taker"]]))
    tournaments.submit_table(table, by_name="first")
    return tournaments.snapshot(table)[1]


def check(table, deals):
    return tournaments.check_table(RoundTable.objects.get(pk=table.pk), deals=deals, by_name="two")


@pytest.fixture
def match(championship, boss):
    competition, _division, _teams = championship(deals=2)
    found = competition.matches.order_by("day", "slot").first()
    line_ups(found, actor=boss)
    return found


def test_a_captain_link_is_found_by_its_token_only_and_revoked(match, boss):
    home, away = links.links_of(match)
    assert links.find(links.token(home)) == home
    assert links.find(links.token(away)) == away
    assert links.links_of(match) == [home, away]  # made once
    assert links.find("x" * 32) is None and links.find("") is None
    old = links.token(home)
    services.revoke_captain_link(home, actor=boss)
    assert links.find(old) is None
    assert links.find(links.token(home)) == home
    # a table link's token never opens a captain's row: the keys differ
    assert links.token(home) != tokens.token_of(home.token_salt)
    with pytest.raises(CompetitionError):
        services.revoke_captain_link(away, actor=match.home.club.memberships.first().user)


def test_a_captain_hands_in_the_line_up_until_the_start(match, boss):
    link = links.link_of(match, match.home)
    squad = list(match.home.squad.order_by("-pk"))
    services.submit_line_up(match, match.home, squad, link=link)
    assert [s.player for s in match.line_up.filter(team=match.home)] == squad
    entry = LeagueAuditEntry.objects.filter(action="line_up_submitted").first()
    assert entry.after["by"] == "captain"
    with pytest.raises(CompetitionError) as error:  # not the other team's link
        services.submit_line_up(match, match.away, squad, link=link)
    assert error.value.code == "forbidden_team"
    services.start_match(match, actor=boss)
    with pytest.raises(CompetitionError) as error:
        services.submit_line_up(match, match.home, squad[::-1], link=link)
    assert error.value.code == "locked"
    with pytest.raises(CompetitionError) as error:
        services.start_match(match, actor=boss)
    assert error.value.code == "started"


def test_a_match_needs_both_line_ups_to_start(championship, boss):
    competition, _division, _teams = championship(deals=2)
    found = competition.matches.first()
    with pytest.raises(CompetitionError) as error:
        services.start_match(found, actor=boss)
    assert error.value.code == "line_up_missing"


def test_the_tables_links_record_the_match_after_double_entry(match, boss):
    services.start_match(match, actor=boss)
    one, two = [t.round_table for t in match.tables.order_by("number")]
    # seating: home 1 and 2 North-South at table 1, East-West at table 2
    home = [s.player_id for s in match.line_up.filter(team=match.home)]
    seated = [[s.player for s in t.sheet.seats.order_by("position")] for t in (one, two)]
    assert [p.pk for p in seated[0][0::2]] == home[:2]
    assert [p.pk for p in seated[1][1::2]] == home[2:]
    away = [s.player for s in match.line_up.filter(team=match.away)]
    # the away players enter as the home club's guests' records; the away club is
    # members-only, so their names stay out of the home club: a number stands for them
    assert not match.away.club.is_public
    names = [f"Player no. {p.pk}" for p in away]
    assert [p.name.split(" (")[0] for p in seated[0][1::2]] == names[:2]
    assert [p.name.split(" (")[0] for p in seated[1][0::2]] == names[2:]
    assert all(p.is_guest for p in seated[0][1::2] + seated[1][0::2])
    assert not any(p.is_guest for p in seated[0][0::2] + seated[1][1::2])
    first = enter(one, HANDS)
    check(one, first)
    match.refresh_from_db()
    assert not match.played  # one table confirmed: waiting for the other
    # the same deals at table 2, played the other way round
    second = enter(two, [dict(h, taker=(h["taker"] + 1) % 4) for h in HANDS])
    wrong = [row[:] for row in second]
    wrong[0][0], wrong[0][1] = wrong[0][1], wrong[0][0]
    check(two, wrong)  # the second entry differs: in dispute, nothing recorded
    match.refresh_from_db()
    assert not match.played
    tournaments.confirm_table(RoundTable.objects.get(pk=two.pk))  # the organiser's check
    match.refresh_from_db()
    assert match.played
    deals = [
        ({s: int(v) for s, v in zip("NESW", a)}, {s: int(v) for s, v in zip("NESW", b)})
        for a, b in zip(first, second)
    ]
    expected = services.teammatch.match_result(
        [services.teammatch.deal_result(n, d) for n, d in enumerate(deals, 1)],
        services.scale_of(match.competition),
        services.league_points_of(match.competition),
    )
    assert (match.points_home, match.points_away) == (expected.points_a, expected.points_b)
    assert (match.mp_home, match.mp_away) == expected.match_points
    assert Hand.objects.filter(sheet=one.sheet).count() == 2
    recorded = LeagueAuditEntry.objects.filter(action="match_recorded").first()
    assert recorded.after["by"] == "tables" and recorded.actor is None
    # the match played, its event is closed: the tables' links take no more deals
    event = RoundTable.objects.get(pk=one.pk).round.tournament
    assert event.state == "closed" and event.round_set.get().state == "closed"


def test_a_table_cannot_play_another_count_of_deals_than_the_match(match, boss):
    """The match's two deals and no more: a third is refused at the table, so both
    tables always hand in the same count (a refusal of the match itself still reaches
    the organiser: tests/competitions/test_recorded_once.py)."""
    services.start_match(match, actor=boss)
    _one, two = [t.round_table for t in match.tables.order_by("number")]
    enter(two, HANDS)
    with pytest.raises(tournaments.TournamentError) as error:
        enter(two, HANDS[:1])
    assert error.value.code in {"deals_complete", "table_submitted"}
    match.refresh_from_db()
    assert not match.played


def recorded(match, boss):
    deal = {"N": 60, "E": -20, "S": -20, "W": -20}
    back = {"N": -20, "E": 60, "S": -20, "W": -20}
    return services.record_results(match, [(deal, back), (deal, deal)], actor=boss)


def test_both_captains_confirm_the_result(match, boss):
    home, away = links.links_of(match)
    with pytest.raises(CompetitionError) as error:
        services.confirm_result(home)
    assert error.value.code == "not_recorded"
    match = recorded(match, boss)
    assert services.result_state(match) == "provisional"
    services.confirm_result(home)
    assert services.result_state(match) == "provisional"
    services.confirm_result(away)
    assert services.result_state(match) == "final"
    with pytest.raises(CompetitionError) as error:  # confirmed by both: no claim
        services.file_claim(home, "after all")
    assert error.value.code == "confirmed_final"
    recorded(match, boss)  # a correction asks the captains again
    match.refresh_from_db()
    assert services.result_state(match) == "provisional"
    later = match.recorded_at + datetime.timedelta(hours=24, seconds=1)
    assert services.result_state(match, now=later) == "final"


def test_a_claim_goes_to_the_league_manager(match, boss, clubs):
    home, away = links.links_of(match)
    match = recorded(match, boss)
    with pytest.raises(CompetitionError) as error:
        services.file_claim(away, "  ")
    assert error.value.code == "claim_text"
    claim = services.file_claim(away, "Deal 2 at table 1: a garde, not a prise.")
    assert services.result_state(match) == "claimed"
    later = match.recorded_at + datetime.timedelta(days=3)
    assert services.result_state(match, now=later) == "claimed"  # until decided
    with pytest.raises(CompetitionError) as error:
        services.file_claim(away, "again")
    assert error.value.code == "claim_open"
    with pytest.raises(CompetitionError):  # a club manager does not decide
        services.decide_claim(claim, upheld=True, actor=clubs["a_manager"])
    services.decide_claim(claim, upheld=False, decision="The sheet says prise.", actor=boss)
    claim.refresh_from_db()
    assert claim.state == MatchClaim.State.DISMISSED and claim.decided_by == boss
    with pytest.raises(CompetitionError) as error:
        services.decide_claim(claim, upheld=True, actor=boss)
    assert error.value.code == "claim_decided"
    history = LeagueAuditEntry.objects.filter(league=match.competition.league)
    decided = history.get(action="claim_decided")
    assert decided.after["state"] == "dismissed" and decided.actor == boss
    assert history.filter(action="claim_filed").exists()
    assert services.result_state(match) == "provisional"  # the 24 hours still run


def test_no_claim_after_24_hours(match, boss, monkeypatch):
    home, _away = links.links_of(match)
    match = recorded(match, boss)
    type(match).objects.filter(pk=match.pk).update(
        recorded_at=match.recorded_at - datetime.timedelta(hours=25)
    )
    with pytest.raises(CompetitionError) as error:
        services.file_claim(home, "too late")
    assert error.value.code == "claim_late"


def test_the_second_entries_of_both_tables_record_the_match(match, boss):
    services.start_match(match, actor=boss)
    one, two = [t.round_table for t in match.tables.order_by("number")]
    check(one, enter(one, HANDS))
    check(two, enter(two, HANDS))  # the last confirmation: a second entry, not the organiser
    match.refresh_from_db()
    assert match.played
    # the same marques in the same seats at both tables: a difference of 0, a draw
    assert match.points_home == match.points_away == 0 and match.winner_id is None


def test_a_free_deal_match_through_the_tables_sums_the_totals(championship, boss):
    competition, _division, _teams = championship(deals=2, mode="free")
    match = competition.matches.order_by("day", "slot").first()
    line_ups(match, actor=boss)
    services.start_match(match, actor=boss)
    one, two = [t.round_table for t in match.tables.order_by("number")]
    first = enter(one, HANDS)
    check(one, first)
    second = enter(two, HANDS[::-1])
    check(two, second)
    match.refresh_from_db()
    assert match.played
    [(table_one, table_two)] = [
        tuple(
            {s: sum(int(row[k]) for row in rows) for k, s in enumerate("NESW")}
            for rows in (first, second)
        )
    ]
    home = table_one["N"] + table_one["S"] + table_two["E"] + table_two["W"]
    assert (match.points_home, match.points_away) == (home, -home)
    assert match.tables.get(number=1).deals.get().number == 0  # one line: the totals


def test_two_teams_of_one_club_play_as_members(championship, boss):
    competition, _division, teams = championship(deals=2)
    a1, a2 = (t for t in teams if t.club.slug == "club-a")
    match = competition.matches.get(home__in=[a1, a2], away__in=[a1, a2])
    line_ups(match, actor=boss)
    services.start_match(match, actor=boss)
    event = match.tables.get(number=1).round_table.round.tournament
    assert not event.entries.filter(is_guest=True).exists()
    assert event.entries.count() == 8


def test_tables_refused_leave_the_match_not_started(match, boss, monkeypatch):
    def refuse(*args, **kwargs):
        raise tournaments.TournamentError("name_too_long")

    monkeypatch.setattr(tournaments, "register", refuse)
    with pytest.raises(CompetitionError) as error:
        services.start_match(match, actor=boss)
    assert error.value.code == "tables_refused"
    match.refresh_from_db()
    assert match.started_at is None and not match.tables.exists()
