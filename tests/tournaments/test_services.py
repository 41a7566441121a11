"""Tournament services: set-up, entries, the draw, rounds, withdrawals and late arrivals."""

import importlib
import inspect
import pkgutil
import re

import pytest

from clubs.models import Player, Season
from scoresheet.models import Hand, Sheet
from tournaments import draw, services
from tournaments.models import Entry, Round, Tournament
from tournaments.queries import ranking
from tournaments.services import TournamentError

from .conftest import DATE
from .helpers import deal, play_round, totals_from_sheets


def test_a_tournament_has_a_season_of_its_own_and_its_rounds(make_tournament, club):
    t = make_tournament(players=0, rounds=4)
    assert t.season.kind == Season.Kind.TOURNAMENT
    assert t.season.name == f"Tournoi de printemps ({DATE.isoformat()})"
    assert list(t.round_set.values_list("number", "state")) == [(n, "planned") for n in range(1, 5)]
    # the same name again on the same day: a season name of its own
    again = make_tournament(players=0)
    assert again.season.name.endswith(" 2")
    assert list(club.seasons.regular()) == []


@pytest.mark.parametrize(
    "changes, code",
    [
        ({"name": " "}, "name_required"),
        ({"rounds": 0}, "rounds_range"),
        ({"deals_per_round": None}, "round_length"),
        ({"minutes_per_round": 45}, "round_length"),
        ({"rules": {"preset": "two_players"}}, "rules_two_players"),
        ({"rules": {"preset": "nope"}}, None),  # the engine's own code
        ({"five_tables": "six"}, "five_tables"),
    ],
)
def test_settings_are_checked(club, changes, code):
    settings = {
        "name": "T",
        "date": DATE,
        "rules": "fft",
        "rounds": 3,
        "deals_per_round": 4,
        **changes,
    }
    with pytest.raises(TournamentError) as refused:
        services.create_tournament(club, **settings)
    assert refused.value.code == code if code else refused.value.code
    assert not Tournament.objects.exists() and not Season.objects.exists()


def test_entries_members_guests_and_a_pasted_list(make_tournament, club, members):
    t = make_tournament(players=2)
    (guest,) = services.register(t, [("guest", ("Jean Dupont", "TC Lyon", "0123456"))])
    assert (guest.number, guest.is_guest, guest.player.name) == (3, True, "Jean Dupont (TC Lyon)")
    text = "Member 05\n\nAnne Martin; Tarot Club Paris; 778899\nPaul\tCercle de Nice\n"
    pasted = services.register_bulk(t, text)
    assert [(e.number, e.name, e.is_guest, e.guest_club) for e in pasted] == [
        (4, "Member 05", False, ""),
        (5, "Anne Martin", True, "Tarot Club Paris"),
        (6, "Paul", True, "Cercle de Nice"),
    ]
    with pytest.raises(TournamentError) as refused:
        services.register_bulk(t, "Member 01\nNew Guest")
    assert refused.value.code == "already_entered"
    assert t.entries.count() == 6  # all or nothing
    assert not Player.objects.filter(name="New Guest").exists()


def test_a_returning_guest_is_the_same_player_a_clash_is_numbered(make_tournament, club):
    first = make_tournament(players=0)
    (a,) = services.register(first, [("guest", ("Jean", "Lyon", ""))])
    second = make_tournament(players=0)
    (b,) = services.register(second, [("guest", ("Jean", "Lyon", ""))])
    assert a.player_id == b.player_id
    (c,) = services.register(second, [("guest", ("Member 01", "", ""))])  # named like a member
    assert c.player.name == "Member 01 2" and c.is_guest


def test_draw_round_by_round_seats_everybody_at_tables_of_4_and_5(make_tournament):
    t = make_tournament(players=17)
    rnd = t.round_set.get(number=1)
    services.draw_round(rnd)
    tables = [table.seats for table in rnd.tables.order_by("number")]
    assert sorted(len(seats) for seats in tables) == [4, 4, 4, 5]
    assert sorted(n for seats in tables for n in seats) == list(range(1, 18))
    with pytest.raises(TournamentError) as refused:
        services.draw_round(t.round_set.get(number=3))
    assert refused.value.code == "earlier_round"


def test_schedule_then_swap_shows_the_repeats(make_tournament):
    t = make_tournament(players=16, rounds=3)
    assert services.draw_schedule(t) == [1, 2, 3]
    history = services.history(t, 4)
    assert draw.quality(history).repeated_pairs == 0  # 16 players: nobody meets twice
    second = t.round_set.get(number=2)
    first_tables = history[0]
    a, b = first_tables[0][0], first_tables[0][1]  # met at round 1
    table_of_a = next(s for s in history[1] if a in s)
    other = next(s for s in history[1] if a not in s and b not in s)
    # put b at a's table in round 2: they meet again
    services.swap_players(second, b, next(x for x in table_of_a if x != a))
    tables = [t_.seats for t_ in second.tables.order_by("number")]
    assert (min(a, b), max(a, b), 1) in draw.repeats(history[:1], tables)
    assert other  # the rest of the round is unchanged by the swap
    # round 3 was drawn knowing round 2: a swap in round 2 clears it
    assert t.round_set.get(number=3).state == Round.State.PLANNED


def test_start_round_opens_a_sheet_per_table_under_the_rules(make_tournament):
    t = make_tournament(players=17, rules={"preset": "fft", "rounding": 10})
    rnd = t.round_set.get(number=1)
    with pytest.raises(TournamentError):
        services.start_round(rnd)  # not drawn
    services.draw_round(rnd)
    services.start_round(rnd)
    t.refresh_from_db()
    assert t.state == Tournament.State.RUNNING
    sheets = Sheet.objects.filter(season=t.season).order_by("table")
    assert [s.table for s in sheets] == ["R1 T1", "R1 T2", "R1 T3", "R1 T4"]
    assert all(s.rules["rounding"] == 10 for s in sheets)
    entries = {e.number: e.player.name for e in t.entries.select_related("player")}
    for table in rnd.tables.select_related("sheet"):
        seated = list(table.sheet.seats.order_by("position").values_list("player__name", flat=True))
        assert seated == [entries[n] for n in table.seats]
    with pytest.raises(TournamentError) as refused:
        services.swap_players(rnd, 1, 2)
    assert refused.value.code == "round_not_drawn"


def test_close_needs_every_deal_and_the_next_round_needs_the_close(make_tournament):
    t = make_tournament(players=17, deals=4)
    services.draw_schedule(t)
    first, second = t.round_set.get(number=1), t.round_set.get(number=2)
    services.start_round(first)
    with pytest.raises(TournamentError) as refused:
        services.start_round(second)
    assert refused.value.code == "earlier_round"
    play_round(t, first, skip={4})
    with pytest.raises(TournamentError) as refused:
        services.close_round(first)
    assert refused.value.code == "table_unfinished"
    assert services.deals_for_table(t, 5) == 5 and services.deals_for_table(t, 3) == 6


def test_withdrawal_and_late_arrival_redraw_the_next_round(make_tournament, members):
    t = make_tournament(players=17, deals=4)
    services.draw_schedule(t)
    for number in (1, 2):
        rnd = t.round_set.get(number=number)
        services.start_round(rnd)
        play_round(t, rnd)
        services.close_round(rnd)
    leaving = t.entries.get(number=5)
    services.withdraw_player(leaving, redraw=True)
    leaving.refresh_from_db()
    assert leaving.withdrawn_after_round == 2
    third = t.round_set.get(number=3)
    assert third.state == Round.State.PLANNED  # its draw seated number 5: cleared
    (late,) = services.register(t, [("member", members[18])])
    assert (late.number, late.joined_before_round) == (18, 3)
    services.draw_round(third)
    seated = sorted(n for table in third.tables.all() for n in table.seats)
    assert 5 not in seated and 18 in seated and len(seated) == 17
    services.start_round(third)
    play_round(t, third)
    services.close_round(third)
    t.refresh_from_db()
    assert t.state == Tournament.State.FINISHED

    rows = {row["number"]: row for row in ranking(t)}
    sums = totals_from_sheets(t)
    for number, per_round in sums.items():
        row = rows[number]
        assert row["total"] == sum(per_round.values())
        assert row["rounds"] == [per_round.get(r) for r in (1, 2, 3)]
    assert rows[5]["rounds"][2] is None and rows[18]["rounds"][:2] == [None, None]
    assert sum(row["total"] for row in rows.values()) == 0
    ranks = [row["rank"] for row in ranking(t)]
    assert ranks == sorted(ranks) and ranks[0] == 1
    with pytest.raises(TournamentError) as refused:
        services.register(t, [("member", members[19])])
    assert refused.value.code == "no_round_left"


def test_withdrawing_before_any_round_removes_the_entry(make_tournament):
    t = make_tournament(players=5)
    assert services.withdraw_player(t.entries.get(number=2)) is None
    assert list(t.entries.values_list("number", flat=True)) == [1, 3, 4, 5]
    assert Entry.objects.count() == 4


def test_ties_share_a_rank_and_are_listed_by_number(make_tournament):
    t = make_tournament(players=8)
    rows = ranking(t)
    assert [r["rank"] for r in rows] == [1] * 8  # nobody has played: all at 0
    assert [r["number"] for r in rows] == list(range(1, 9))


def test_edit_before_the_start_only(make_tournament):
    t = make_tournament(players=8, rounds=3)
    settings = {"name": "Renamed", "date": DATE, "rules": "fft", "rounds": 5, "deals_per_round": 5}
    services.update_tournament(t, **settings)
    t.refresh_from_db()
    assert (t.name, t.rounds, t.round_set.count()) == ("Renamed", 5, 5)
    assert t.season.name.startswith("Renamed")
    services.update_tournament(
        t, **{**settings, "deals_per_round": 0, "minutes_per_round": 40, "confirm_by": "deals"}
    )
    t.refresh_from_db()
    assert (t.deals_per_round, t.minutes_per_round, t.confirm_by) == (None, 40, "deals")
    services.update_tournament(t, **{**settings, "rounds": 2})
    assert t.round_set.count() == 2
    rnd = t.round_set.get(number=1)
    services.draw_round(rnd)
    services.start_round(rnd)
    with pytest.raises(TournamentError) as refused:
        services.update_tournament(t, **settings)
    assert refused.value.code == "tournament_started"


def test_a_team_size_holds_once_teams_are_registered(make_tournament, members):
    t = make_tournament(players=0, rounds=3, team_size=2)
    services.register_team(t, "Team 1", [("member", members[0]), ("member", members[1])])
    settings = {"name": t.name, "date": DATE, "rules": "fft", "rounds": 3, "deals_per_round": 4}
    with pytest.raises(TournamentError) as refused:
        services.update_tournament(t, **settings, team_size=None)
    assert refused.value.code == "teams_registered"
    services.update_tournament(t, **settings, team_size=2)
    t.refresh_from_db()
    assert t.team_size == 2


def test_a_table_enters_its_deals_through_the_tournament_service(make_tournament):
    """A table's deal goes through ``record_table_hand``, which checks the table
    open for entries under its lock, then has the ledger record it (scored once); a
    handed-in table is refused there, whatever the page checked before."""
    t = make_tournament(players=16, deals=2)
    rnd = t.round_set.get(number=1)
    services.draw_round(rnd)
    services.start_round(rnd)
    table = rnd.tables.select_related("sheet").order_by("number").first()
    names = [s.player.name for s in table.sheet.seats.order_by("position").select_related("player")]
    hand = services.record_table_hand(table, deal(names, 0))
    assert hand.number == 1 and hand.sheet_id == table.sheet_id
    with pytest.raises(TournamentError) as refused:
        services.record_table_hand(table, dict(deal(names, 1), points=95))
    assert refused.value.code == "points_out_of_range" and refused.value.field == "points"
    services.record_table_hand(table, deal(names, 1))
    with pytest.raises(TournamentError) as refused:  # the round's 2 deals are in
        services.record_table_hand(table, deal(names, 2))
    assert refused.value.code == "deals_complete"
    assert refused.value.message == "Every deal of the round is entered (2): hand the sheet in."
    services.submit_table(table, by_name="Anna")
    stale = table  # the page read the table before it was handed in
    with pytest.raises(TournamentError) as refused:
        services.record_table_hand(stale, deal(names, 1))
    assert refused.value.code == "table_submitted"
    other = rnd.tables.order_by("number")[1]
    with pytest.raises(TournamentError) as refused:
        services.delete_table_hand(other, hand)
    assert refused.value.code == "unknown_hand"
    assert Hand.objects.filter(sheet=table.sheet).count() == 2


def test_only_a_manager_organises(make_tournament, scorer, manager):
    """The organiser's verbs check their actor the one way (``clubs.permissions.require``):
    a scorer of the club is refused, a manager and code without a user are not."""
    t = make_tournament(players=16)
    rnd = t.round_set.get(number=1)
    with pytest.raises(TournamentError) as refused:
        services.draw_round(rnd, actor=scorer)
    assert refused.value.code == "forbidden"
    assert refused.value.message == "Only a manager of the club may do this."
    assert not rnd.tables.exists()
    services.draw_round(rnd, actor=manager)
    with pytest.raises(TournamentError) as refused:
        services.close_tournament(t, actor=scorer)
    assert refused.value.code == "forbidden"
    services.start_round(rnd)  # a command


def test_every_refusal_of_the_module_is_in_its_catalogue():
    """``TournamentError`` looks its message up by code (or ``wording=``) in
    ``tournaments.services.error_messages``: every code and wording raised in any module
    of the package is declared."""
    modules = [
        importlib.import_module(f"{services.__name__}.{info.name}")
        for info in pkgutil.iter_modules(services.__path__)
    ]
    assert len(modules) > 1
    source = "".join(inspect.getsource(module) for module in modules)
    raised = set(re.findall(r'TournamentError\(\s*"([a-z_]+)"', source))
    worded = set(re.findall(r'wording="([a-z_.]+)"', source))
    assert raised and raised <= set(services.error_messages)
    assert worded <= set(services.error_messages)
    error = TournamentError("bad_score", wording="bad_score.score_whole_or_half")
    assert (error.code, error.message) == ("bad_score", "A score is a whole or a half point.")
    error = TournamentError("rounds_range", field="rounds", n=12)
    assert (error.message, error.field) == ("A tournament has 1 to 12 rounds.", "rounds")


@pytest.mark.parametrize(
    ("rule", "repeated", "odd_seats"),
    [("end", 17, {1, 2}), ("round", 18, {1, 2}), ("meetings", 3, None)],
)
def test_the_organiser_chooses_fair_seats_or_fewer_meetings(
    make_tournament, rule, repeated, odd_seats
):
    """17 players over 4 rounds: fair by the end (the default) or every round, everybody
    has 1 or 2 seats at the table of 5 after the last round, and the draw in advance
    has 17 repeated meetings, the least possible then (every round, drawn one after
    the other, one more); for fewer meetings, 3, some players at the table of 5 more
    often."""
    t = make_tournament(players=17, rounds=4, draw_rule=rule)
    assert services.draw_schedule(t) == [1, 2, 3, 4]
    history = services.history(t, 5)
    assert draw.quality(history).repeated_meetings <= repeated
    seats = set(draw.odd_table_counts(history).values()) | (
        {0} if len(draw.odd_table_counts(history)) < 17 else set()
    )
    if odd_seats is not None:
        assert seats <= odd_seats
    else:
        assert max(seats) - min(seats) > 1
    if rule == "round":  # nobody twice at the table of 5 before everybody once
        for played in range(1, 5):
            counts = draw.odd_table_counts(history[:played])
            had = [counts.get(n, 0) for n in range(1, 18)]
            assert max(had) - min(had) <= 1


def test_fair_by_the_end_round_by_round_is_the_draw_in_advance(make_tournament):
    """Drawn one round at a time by the same players, a tournament fair by the end gets
    the rounds of its draw in advance (17 x 4: 17 repeated meetings, everybody 1 or 2
    times at the table of 5), not a round-by-round draw's."""
    ahead = make_tournament(players=17, rounds=4, seed=3)
    services.draw_schedule(ahead)
    one_by_one = make_tournament(players=17, rounds=4, seed=3)
    one_by_one.draw_seed = ahead.draw_seed
    one_by_one.save(update_fields=["draw_seed"])
    for rnd in one_by_one.round_set.order_by("number"):
        services.draw_round(rnd)
    drawn = services.history(one_by_one, 5)
    assert drawn == services.history(ahead, 5)
    assert draw.quality(drawn).repeated_meetings <= 17
    assert set(draw.odd_table_counts(drawn).values()) == {1, 2}


def test_a_tournament_refuses_more_players_than_its_draw_takes(
    make_tournament, members, monkeypatch
):
    """Beyond the draw's most players (500; 5 here), entering is refused, all or nothing."""
    monkeypatch.setattr(draw, "MAX_PLAYERS", 5)
    t = make_tournament(players=4)
    with pytest.raises(TournamentError) as caught:
        services.register(t, [("member", p) for p in members[4:6]])
    assert caught.value.code == "too_many_players"
    assert caught.value.message == "A tournament takes at most 5 players."
    assert t.entries.count() == 4
