"""A duplicate event through its services: set-up, the movement drawn with byes, the
deals entered at the tables only for their set with the dealer of the deal, the
results read from the stored rows and equal to ``score_duplicate`` on the event's
own JSON, the arbitre's decisions audited."""

import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Player
from tarot.duplicate import SEATS, dealer_seat
from tournaments import published, services, tokens
from tournaments.duplicate import results as duplicate_results
from tournaments.duplicate import services as duplicate_services
from tournaments.duplicate.event_ranking import score_event
from tournaments.duplicate.services import DuplicateEventError
from tournaments.models import Round, RoundTable, Tournament
from tournaments.services import TournamentError

from .duplicate_helpers import DATE, confirm_table, enter_table, make_event, play_round


@pytest.fixture
def members20(club):
    return [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 25)]


def start(rnd):
    services.start_round(Round.objects.get(pk=rnd.pk))


def ranked(rows):
    return {row["player"]: (row["rank"], row["score"]) for row in rows}


def test_create_refuses_what_duplicate_cannot_play(club, manager):
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.create_duplicate(
            club, name="X", date=DATE, rounds=3, deals_per_set=0, actor=manager
        )
    assert error.value.code == "deals_per_set"
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.create_duplicate(
            club, name="X", date=DATE, rounds=3, deals_per_set=3, team_size=2, actor=manager
        )
    assert error.value.code == "team_size"
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.create_duplicate(
            club, name="X", date=DATE, rounds=3, deals_per_set=3, method="best", actor=manager
        )
    assert error.value.code == "method"
    assert not Tournament.objects.exists()


def test_movement_with_byes_seats_everybody_once_a_round(club, members20, manager):
    # 18 players: 5 tables, two seats empty. A table with an empty seat rests that round.
    event = make_event(club, members20, manager, players=18, rounds=4)
    plan = duplicate_services.draw_movement(event, actor=manager)
    assert plan.tables == 5
    for rnd in event.round_set.all():
        tables = list(rnd.tables.all())
        seated = [n for t in tables for n in t.seats]
        assert len(seated) == len(set(seated))
        assert len(seated) + len(plan.byes[rnd.number - 1]) == 18
        assert len({t.set_number for t in tables}) == len(tables)
        assert rnd.state == Round.State.DRAWN
    # orientation fixed, no set twice
    orientation, sets = {}, {}
    for table in RoundTable.objects.filter(round__tournament=event):
        for i, n in enumerate(table.seats):
            assert orientation.setdefault(n, i) == i
            assert table.set_number not in sets.setdefault(n, set())
            sets[n].add(table.set_number)
    # 5 tables is prime: nobody meets twice
    assert plan.repeated == 0
    # the free draw refuses a duplicate event
    with pytest.raises(TournamentError) as error:
        services.draw_round(event.round_set.get(number=1), actor=manager)
    assert error.value.code == "duplicate_movement"


def test_a_table_enters_only_its_set_with_the_dealer_of_the_deal(club, members20, manager):
    event = make_event(club, members20, manager, rounds=2, deals=3)
    duplicate_services.draw_movement(event, actor=manager)
    start(event.round_set.get(number=1))
    table = RoundTable.objects.filter(round__tournament=event, round__number=1).order_by("number")[
        1
    ]
    enter_table(table)
    names = [s.player.name for s in table.sheet.seats.select_related("player").order_by("position")]
    for hand in table.sheet.hands.order_by("number"):
        deal = (table.set_number - 1) * 3 + hand.number
        assert hand.dealer.name == names[dealer_seat(deal)]
    with pytest.raises(TournamentError) as error:
        services.record_table_hand(table, {"taker": None})
    assert error.value.code == "set_complete"
    assert table.sheet.hands.count() == 3


def test_a_duplicate_table_corrects_a_deal_and_never_deletes_it(club, members20, manager, client):
    """A deal entered again after a deletion would take the sheet's next hand number,
    not its place in the étui, and the comparison would leave it out: a duplicate
    table corrects its deals, and its sheet offers no deletion."""
    event = make_event(club, members20, manager, rounds=2, deals=3)
    duplicate_services.draw_movement(event, actor=manager)
    start(event.round_set.get(number=1))
    table = RoundTable.objects.filter(round__tournament=event, round__number=1).first()
    enter_table(table)
    last = table.sheet.hands.order_by("number").last()
    with pytest.raises(TournamentError) as error:
        services.delete_table_hand(table, last)
    assert error.value.code == "duplicate_no_delete"
    assert "corrected, not deleted" in error.value.message
    assert table.sheet.hands.live().count() == 3
    page = client.get(reverse("table:sheet", args=[tokens.token(table)]))
    assert page.status_code == 200
    assert "Delete deal" not in page.content.decode()
    # nor through the club's own sheet pages
    client.force_login(manager)
    url = reverse("scoresheet:hand_delete", args=[club.slug, table.sheet_id, last.number])
    client.post(url)
    last.refresh_from_db()
    assert not last.is_deleted


def test_results_equal_score_duplicate_on_the_event_json(club, members20, manager):
    event = make_event(club, members20, manager, players=20, rounds=4, deals=3)
    duplicate_services.draw_movement(event, actor=manager)
    for number in (1, 2):
        rnd = event.round_set.get(number=number)
        start(rnd)
        play_round(rnd)
        services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
    loaded = duplicate_results.load(event)
    assert not loaded.provisional
    page = ranked(duplicate_results.barometer(loaded))
    labels = duplicate_results.labels(loaded.entries)
    exported = json.loads(json.dumps(duplicate_results.event_json(loaded)))
    scored = score_event(exported)
    assert {labels[n]: (r, s) for n, (r, s) in page.items()} == {
        row["player"]: (row["rank"], Fraction(row["score"]).limit_denominator(10**6))
        for row in scored["ranking"]
    }
    # 5 tables × 2 rounds × 3 deals, 4 seats each
    assert len(scored["deals"]) == 5 * 2 * 3 * 4


def test_the_arbitre_cancels_a_deal_and_gives_an_arbitral_score(club, members20, manager):
    # Two rounds: each deal is played at two tables (its set moves on). Deal d at tables
    # A (round 1) and B (round 2); matchpoints with n = 2: the better marque 100 %, the
    # worse 0 %, a tie 50 %. Cancelled at B: B's four players get 50 (neutral) and A
    # is left alone on the deal (n = 1): 50 too, whatever the marques.
    event = make_event(club, members20, manager, players=20, rounds=2, deals=2)
    duplicate_services.draw_movement(event, actor=manager)
    for number in (1, 2):
        rnd = event.round_set.get(number=number)
        start(rnd)
        play_round(rnd)
        services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
    first = RoundTable.objects.get(round__tournament=event, round__number=1, number=1)
    second = RoundTable.objects.get(
        round__tournament=event, round__number=2, set_number=first.set_number
    )
    deal = (first.set_number - 1) * 2 + 1
    before = duplicate_results.load(event)
    marques = {(r.deal, r.table): r.marques for r in before.results}
    assert marques[(deal, first.number)] != marques[(deal, second.number)]
    scores = {(s.deal, s.table, s.seat): s.score for s in before.comparison.seats}
    assert {scores[(deal, first.number, seat)] for seat in SEATS} != {50}
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.cancel_deal(second, deal, "  ", actor=manager)
    assert error.value.code == "reason_required"
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.cancel_deal(second, deal + 2, "étui", actor=manager)
    assert error.value.code == "deal_not_here"
    duplicate_services.cancel_deal(second, deal, "étui mélangé", actor=manager)
    other = deal + 1
    duplicate_services.give_arbitral_score(first, other, "S", 60, "art. 12", actor=manager)
    loaded = duplicate_results.load(event)
    scores = {(s.deal, s.table, s.seat): s.score for s in loaded.comparison.seats}
    for seat in SEATS:
        assert scores[(deal, second.number, seat)] == 50  # cancelled: neutral
        assert scores[(deal, first.number, seat)] == 50  # alone on the deal now
    assert scores[(other, first.number, "S")] == 60
    # the other table's S keeps its compared score against first's marque: 0, 50 or 100
    assert scores[(other, second.number, "S")] in (0, 50, 100)
    actions = list(AuditEntry.objects.filter(club=club).values_list("action", "actor__username"))
    assert ("deal_cancelled", "organiser") in actions
    assert ("arbitral_score", "organiser") in actions
    # the JSON export carries both, and score_duplicate agrees
    scored = score_event(json.loads(json.dumps(duplicate_results.event_json(loaded))))
    by_seat = {(d["deal"], d["table"], d["seat"]): d["score"] for d in scored["deals"]}
    assert by_seat[(deal, second.number, "N")] == 50
    assert by_seat[(other, first.number, "S")] == 60


def test_the_barometer_is_provisional_until_the_round_is_confirmed(club, members20, manager):
    event = make_event(club, members20, manager, players=20, rounds=2, deals=2)
    duplicate_services.draw_movement(event, actor=manager)
    rnd = event.round_set.get(number=1)
    start(rnd)
    tables = list(RoundTable.objects.filter(round=rnd).order_by("number"))
    enter_table(tables[0])
    assert duplicate_results.load(event).results == []  # not handed in: not counted
    services.submit_table(tables[0], by_name="a")
    loaded = duplicate_results.load(event)
    assert len(loaded.results) == 2 and loaded.provisional
    for table in tables[1:]:
        enter_table(table)
        confirm_table(table)
    totals, _ = services.snapshot(tables[0])
    services.check_table(tables[0], totals=[totals[str(n)] for n in tables[0].seats], by_name="b")
    services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
    assert duplicate_results.load(event, until_round=1).provisional is False


def test_registering_after_the_movement_forgets_it_and_after_a_start_is_refused(
    club, members20, manager
):
    event = make_event(club, members20, manager, players=16, rounds=2, deals=2)
    duplicate_services.draw_movement(event, actor=manager)
    services.register(event, [("member", members20[16])], actor=manager)
    assert not RoundTable.objects.filter(round__tournament=event).exists()
    duplicate_services.draw_movement(event, actor=manager)
    start(event.round_set.get(number=1))
    with pytest.raises(TournamentError) as error:
        services.register(event, [("member", members20[17])], actor=manager)
    assert error.value.code == "duplicate_started"


def test_teams_and_licences_in_the_event_json(club, members20, manager):
    # Quadrettes under the average: a team's score is the sum of its members' (§4).
    event = duplicate_services.create_duplicate(
        club,
        name="Quadrettes",
        date=DATE,
        rounds=2,
        deals_per_set=2,
        method="average",
        team_size=4,
        actor=manager,
        seed=5,
    )
    for t in range(5):
        services.register_team(
            event,
            f"Équipe {t + 1}",
            [("member", p) for p in members20[4 * t : 4 * t + 4]],
            actor=manager,
        )
    entry = event.entries.get(number=1)
    entry.licence = "0123456"
    entry.save()
    duplicate_services.draw_movement(event, actor=manager)
    rnd = event.round_set.get(number=1)
    start(rnd)
    play_round(rnd)
    loaded = duplicate_results.load(event)
    data = json.loads(json.dumps(duplicate_results.event_json(loaded)))
    assert data["licences"] == {entry.name: "0123456"}
    assert len(data["teams"]) == 5
    scored = score_event(data)
    teams = {row["team"]: (row["rank"], Fraction(str(row["score"]))) for row in scored["teams"]}
    on_page = {row["team"]: (row["rank"], row["score"]) for row in duplicate_results.teams(loaded)}
    assert on_page == teams
    members = {e.number: e for e in event.entries.all()}
    for row in duplicate_results.teams(loaded):
        total = sum(loaded.comparison.totals[n] for n in row["players"])
        assert row["score"] == total
        assert {members[n].team.name for n in row["players"]} == {row["team"]}


def test_the_arbitre_removes_a_decision_and_the_deal_is_compared_again(
    club, members20, manager, scorer
):
    # Deal d at tables A (round 1) and B (round 2), matchpoints with n = 2. Cancelled at B,
    # every seat of A and B scores 50; the cancellation removed, both tables are compared
    # again as they entered the deal (100/0 or 50/50 by seat), exactly as before it.
    event = make_event(club, members20, manager, players=20, rounds=2, deals=2)
    duplicate_services.draw_movement(event, actor=manager)
    for number in (1, 2):
        rnd = event.round_set.get(number=number)
        start(rnd)
        play_round(rnd)
        services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
    first = RoundTable.objects.get(round__tournament=event, round__number=1, number=1)
    second = RoundTable.objects.get(
        round__tournament=event, round__number=2, set_number=first.set_number
    )
    deal = (first.set_number - 1) * 2 + 1

    def scores():
        loaded = duplicate_results.load(event)
        return {(s.deal, s.table, s.seat): s.score for s in loaded.comparison.seats}

    before = scores()
    cancelled = duplicate_services.cancel_deal(second, deal, "étui mélangé", actor=manager)
    arbitral = duplicate_services.give_arbitral_score(
        first, deal + 1, "W", 75, "art. 12", actor=manager
    )
    assert {scores()[(deal, first.number, seat)] for seat in SEATS} == {50}
    with pytest.raises(TournamentError) as error:
        duplicate_services.remove_decision(cancelled, actor=scorer)
    assert error.value.code == "forbidden"
    duplicate_services.remove_decision(cancelled, actor=manager)
    after = scores()
    assert after[(deal, first.number, "N")] == before[(deal, first.number, "N")]
    assert {k: v for k, v in after.items() if k[0] == deal} == {
        k: v for k, v in before.items() if k[0] == deal
    }
    assert after[(deal + 1, first.number, "W")] == 75  # the other decision stays
    entry = AuditEntry.objects.filter(club=club, action="decision_removed").get()
    assert entry.actor == manager
    assert entry.before == {
        "table": f"R2 T{second.number}",
        "deal": deal,
        "decision": "cancelled",
        "reason": "étui mélangé",
    }
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.remove_decision(cancelled, actor=manager)
    assert error.value.code == "decision_gone"
    # once the event is closed its ranking is frozen: the arbitral score stays
    services.close_tournament(Tournament.objects.get(pk=event.pk), actor=manager)
    with pytest.raises(TournamentError) as error:
        duplicate_services.remove_decision(arbitral, actor=manager)
    assert error.value.code == "tournament_closed"
    assert scores()[(deal + 1, first.number, "W")] == 75


def test_recording_how_the_etuis_are_dealt_has_its_own_audit_action(club, members20, manager):
    event = make_event(club, members20, manager, players=8, rounds=2, deals=2)
    duplicate_services.set_etuis_by_hand(event, True, actor=manager)
    entry = AuditEntry.objects.filter(club=club).order_by("-pk").first()
    assert (entry.action, entry.after) == ("etuis_dealt", {"etuis_by_hand": True})
    assert str(entry.get_action_display()) == "how the étuis are dealt"


def test_closing_a_duplicate_event_freezes_its_own_ranking_for_the_leagues(
    club, members20, manager, client, django_capture_on_commit_callbacks
):
    """The event's page lists what is still open; closed, the ranking frozen is the
    duplicate's barometer (not a free-deal total), with séries and teams, and the
    leagues hear it with each player's rank and score to one decimal."""
    from tournaments import signals

    event = make_event(club, members20, manager, players=8, rounds=2)
    duplicate_services.draw_movement(event, actor=manager)
    heard = []

    def hear(sender, tournament, ranking, **kwargs):
        heard.append(ranking)

    signals.tournament_closed.connect(hear, dispatch_uid="test.hear")
    try:
        client.force_login(manager)
        page = reverse("tournaments:duplicate", args=[club.slug, event.pk])
        first = event.round_set.get(number=1)
        start(first)
        play_round(first, skip={1})
        text = client.get(page).content.decode()
        assert "Still open:" in text and "Round 1, table 1: in progress" in text
        assert "Round 2: not drawn" not in text and "Round 2: drawn" in text
        assert "data-close>" not in text
        with pytest.raises(TournamentError) as error:
            services.close_tournament(Tournament.objects.get(pk=event.pk), actor=manager)
        assert error.value.code == "rounds_open"
        left = first.tables.get(number=1)
        enter_table(left)
        confirm_table(left)
        for rnd in event.round_set.order_by("number"):
            rnd = Round.objects.get(pk=rnd.pk)
            if rnd.state == Round.State.DRAWN:
                start(rnd)
                play_round(rnd)
            services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
        text = client.get(page).content.decode()
        assert "Still open:" not in text and "data-close>" in text
        with django_capture_on_commit_callbacks(execute=True):  # the signal: after commit
            response = client.post(reverse("tournaments:close", args=[club.slug, event.pk]))
        assert response["Location"].endswith(f"/tournaments/{event.pk}/duplicate/ranking/")
    finally:
        signals.tournament_closed.disconnect(dispatch_uid="test.hear")
    event.refresh_from_db()
    assert event.is_closed
    rows = duplicate_results.barometer(duplicate_results.load(event))
    frozen = event.final_ranking["players"]
    assert [(r["rank"], r["number"]) for r in frozen] == [(r["rank"], r["player"]) for r in rows]
    assert [r["score"] for r in frozen] == [float(r["score"]) for r in rows]
    assert set(event.final_ranking) == {"players", "series", "teams"}
    (told,) = heard
    assert [(r["player_id"], r["rank"]) for r in told] == [
        (r["entry"].player_id, r["rank"]) for r in rows
    ]
    assert [r["total"] for r in told] == [
        (Decimal(r["score"].numerator) / r["score"].denominator).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )
        for r in rows
    ]
    assert published.ranking(event) == told  # what a league counting it later reads
    assert "The event is closed: its ranking is final." in client.get(page).content.decode()
