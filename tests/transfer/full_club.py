"""A club holding every kind of data, for the backup's round trips.

Hands under every preset (the Savoyard rules too), with and without a dealer;
a mouches sheet whose pools carry, corrected early so later hands are re-scored
(revisions caused by another); hands deleted, restored; a sheet deleted and one
deleted then restored; a merged player; invitations; the audit trail; and
tournaments in every state: set up, drawn, running with tables submitted,
confirmed, disputed, reopened and a revoked link, closed, and one of teams.
"""

import datetime
import random

from django.contrib.auth import get_user_model

from clubhouse.players import merge_players
from clubs import invitations
from clubs import services as club_services
from clubs.models import Club, Membership, Role
from scoresheet import demo, editing, services
from tarot.jsonformat import parse_rules
from tarot.rulesets import PRESETS
from tests.tournaments.duplicate_helpers import enter_table
from tests.tournaments.helpers import play_round
from tournaments import services as tournament_services
from tournaments.duplicate import services as duplicate_services

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fred", "Gina", "Hugo"]
DAY = datetime.date(2026, 3, 1)
#: The rules that need every hand's dealer (pools, or the deal decides the game).
DEALT = ("mouches", "savoyard")


def _seating(rules):
    counts = parse_rules(rules).ruleset.player_counts
    return max(n for n in counts if n <= 5)


def _play(sheet, names, rules, rng, hands, *, no_dealer_every=0):
    recorded = []
    for i in range(hands):
        data = demo.random_hand(rng, names, rules, names[i % len(names)])
        if no_dealer_every and i % no_dealer_every == 0 and rules not in DEALT:
            data.pop("dealer", None)
        recorded.append(services.record_hand(sheet, data))
    return recorded


def build_full_club(slug="pleine"):
    rng = random.Random(26)
    User = get_user_model()
    boss = User.objects.create_user(f"{slug}-boss", f"{slug}@example.org", "pw-full-backup-1")
    scorer = User.objects.create_user(f"{slug}-scorer", "", "pw-full-backup-2")
    club = Club.objects.create(name=f"Club {slug}", slug=slug, is_public=False)
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    players = [club_services.create_player(club, name, actor=boss) for name in NAMES]
    for number, preset in enumerate(PRESETS):
        season = club_services.create_season(
            club, preset, DAY.replace(year=2010 + number), None, preset, actor=boss
        )
        seats = _seating(preset)
        names = NAMES[:seats]
        sheet = services.create_sheet(
            season=season, players=players[:seats], date=season.start_date, actor=scorer
        )
        hands = _play(sheet, names, preset, rng, 8, no_dealer_every=3)
        if preset == "mouches":
            # a correction early on re-scores every later hand (pools carry)
            first = hands[0]
            data = demo.random_hand(rng, names, preset, names[0])
            services.correct_hand(first, data, actor=scorer)
            services.restore_hand(services.delete_hand(hands[2], actor=scorer), actor=boss)
        services.delete_hand(hands[-1], actor=scorer)
    fft = club.seasons.get(name="fft")
    gone = services.create_sheet(season=fft, players=players[:4], date=DAY, table="gone")
    _play(gone, NAMES[:4], "fft", rng, 3)
    editing.delete_sheet(gone, actor=boss)
    back = services.create_sheet(season=fft, players=players[:4], date=DAY, table="back")
    _play(back, NAMES[:4], "fft", rng, 3)
    editing.restore_sheet(editing.delete_sheet(back, actor=boss), actor=boss)
    twin = club_services.create_player(club, "Anna B", actor=boss)
    merge_players(players[0], twin, actor=boss)
    invitations.invite(club, email="guest@example.org", role=Role.SCORER, actor=boss)
    _tournaments(club, players, boss)
    return club


def _tournaments(club, players, boss):
    def new(name, **settings):
        settings = {"rules": "fft", "rounds": 2, "deals_per_round": 2} | settings
        return tournament_services.create_tournament(club, name=name, date=DAY, **settings)

    entries = [("member", p) for p in players[:8]]
    new("Set up")  # nothing registered
    drawn = new("Drawn")
    tournament_services.register(drawn, entries)
    tournament_services.draw_round(drawn.round_set.get(number=1))

    running = new("Running", confirm_by="deals")
    tournament_services.register(running, entries)
    tournament_services.register(running, [("guest", ("Visitor", "Ailleurs", ""))])
    first = running.round_set.get(number=1)
    tournament_services.draw_round(first)
    tournament_services.start_round(first)
    play_round(running, first)
    tables = list(first.tables.select_related("sheet", "round__tournament").order_by("number"))
    tournament_services.submit_table(tables[0], by_name="Anna")
    tournament_services.confirm_table(tables[0], actor=boss)
    tournament_services.submit_table(tables[1], by_name="Emil")
    _totals, deals = tournament_services.snapshot(tables[1])
    wrong = [list(row) for row in deals]
    wrong[0][0], wrong[0][1] = wrong[0][1], wrong[0][0]
    tournament_services.check_table(tables[1], deals=wrong, by_name="Fred")  # disputed
    if len(tables) > 2:
        tournament_services.submit_table(tables[2])
        tournament_services.reopen_table(tables[2], actor=boss)
    tournament_services.revoke_link(tables[0])
    penalised = running.entries.order_by("number").first()
    tournament_services.adjust_score(penalised, 1, -10, "Slow play", actor=boss)

    closed = new("Closed", rounds=1)
    tournament_services.register(closed, entries)
    only = closed.round_set.get()
    tournament_services.draw_round(only)
    tournament_services.start_round(only)
    play_round(closed, only)
    for table in only.tables.select_related("sheet", "round__tournament"):
        tournament_services.confirm_table(table, actor=boss)
    tournament_services.close_round(only)
    tournament_services.close_tournament(closed, actor=boss)

    # a table whose result the organiser typed alone, totals only
    by_totals = new("Totals")
    tournament_services.register(by_totals, entries)
    round_one = by_totals.round_set.get(number=1)
    tournament_services.draw_round(round_one)
    tournament_services.start_round(round_one)
    table = round_one.tables.order_by("number").first()
    others = [-10] * (len(table.seats) - 1)
    tournament_services.enter_table_totals(table, [-sum(others), *others], actor=boss)

    # a duplicate event, one deal cancelled by the arbitre at one table
    event = duplicate_services.create_duplicate(
        club, name="Duplicate", date=DAY, rounds=2, deals_per_set=2, actor=boss, seed=3
    )
    tournament_services.register(event, entries, actor=boss)
    duplicate_services.draw_movement(event, actor=boss)
    first_round = event.round_set.get(number=1)
    tournament_services.start_round(first_round)
    duplicate_table = first_round.tables.order_by("number").first()
    enter_table(duplicate_table)
    duplicate_services.cancel_deal(duplicate_table, 1, "Fouled étui", actor=boss)

    teams = new("Teams", team_size=2)
    for i in range(0, 8, 2):
        tournament_services.register_team(teams, f"Team {i // 2 + 1}", entries[i : i + 2])
