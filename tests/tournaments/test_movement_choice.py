"""A duplicate event's movement chosen among those that fit the players entered: each
shown with its repeated meetings and its players resting, the fewest repeated meetings
preselected; the choice stored, used by the draw (and drawn again when the movement was
drawn), audited, and refused once a round has started."""

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Player
from tournaments import services
from tournaments.duplicate import plan as duplicate_plan
from tournaments.duplicate import services as duplicate_services
from tournaments.duplicate.movement import CYCLIC, FEWEST, candidates
from tournaments.duplicate.services import DuplicateEventError
from tournaments.models import Round, RoundTable, Tournament
from tournaments.services import TournamentError

from .duplicate_helpers import make_event


@pytest.fixture
def players(club):
    return [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 23)]


def seats(event):
    return [
        (t.round.number, t.number, t.set_number, tuple(t.seats))
        for t in RoundTable.objects.filter(round__tournament=event)
        .select_related("round")
        .order_by("round__number", "number")
    ]


def planned(plan):
    return [(t.round, t.table, t.set, t.seats) for tables in plan.rounds for t in tables]


def test_every_fitting_movement_is_offered_with_its_meetings_and_rests(club, players, manager):
    event = make_event(club, players, manager, players=22, rounds=4)
    options = duplicate_services.movement_options(event)
    assert [o.kind for o in options] == [FEWEST, CYCLIC]
    fewest, cyclic = options
    # the search's movement meets less, the fixed moves rest fewer players a round
    assert fewest.plan.repeated < cyclic.plan.repeated
    assert cyclic.most_resting < fewest.most_resting
    assert [o.preselected for o in options] == [True, False]
    assert cyclic.movement.shifts is not None and fewest.movement.shifts is None
    for option in options:  # every option seats each player at most once a round
        for tables, byes in zip(option.plan.rounds, option.plan.byes):
            seated = [n for t in tables for n in t.seats] + byes
            assert sorted(seated) == list(range(1, 23))
    # the repeated meetings shown are those of the plan for the players entered
    assert fewest.plan.repeated == duplicate_plan.repeated_meetings(fewest.plan.rounds)


def test_the_choice_is_stored_used_by_the_draw_and_audited(club, players, manager):
    event = make_event(club, players, manager, players=22, rounds=4)
    duplicate_services.draw_movement(event, actor=manager)
    fewest_seats = seats(event)
    plan = duplicate_services.choose_movement(event, CYCLIC, actor=manager)
    event.refresh_from_db()
    assert event.movement == CYCLIC and plan.kind == CYCLIC
    cyclic = next(o for o in duplicate_services.movement_options(event) if o.kind == CYCLIC)
    # drawn already: the rounds are drawn again on the movement chosen
    assert seats(event) == planned(cyclic.plan) != fewest_seats
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.TOURNAMENT_UPDATED).latest("pk")
    assert entry.actor == manager
    assert entry.before == {"movement": ""}
    assert entry.after == {"movement": CYCLIC, "repeated": plan.repeated, "drawn_again": True}
    # a later draw keeps the choice
    assert duplicate_services.draw_movement(event, actor=manager).kind == CYCLIC
    assert seats(event) == planned(cyclic.plan)


def test_a_movement_that_does_not_fit_is_refused(club, players, manager):
    event = make_event(club, players, manager, players=22, rounds=4)
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.choose_movement(event, "rotation", actor=manager)
    assert error.value.code == "movement_unfit"
    assert Tournament.objects.get(pk=event.pk).movement == ""


def test_the_choice_is_refused_once_a_round_is_played(club, players, manager):
    event = make_event(club, players, manager, players=22, rounds=4)
    duplicate_services.draw_movement(event, actor=manager)
    services.start_round(Round.objects.get(tournament=event, number=1))
    before = seats(event)
    with pytest.raises(DuplicateEventError) as error:
        duplicate_services.choose_movement(event, CYCLIC, actor=manager)
    assert error.value.code == "movement_started"
    assert Tournament.objects.get(pk=event.pk).movement == ""
    assert seats(event) == before


def test_only_a_manager_may_choose(club, players, manager, django_user_model):
    event = make_event(club, players, manager, players=22, rounds=4)
    stranger = django_user_model.objects.create_user("stranger", password="a-long-pass-1")
    with pytest.raises(TournamentError) as error:
        duplicate_services.choose_movement(event, CYCLIC, actor=stranger)
    assert error.value.code == "forbidden"


def test_the_choice_page_preselects_and_posts(client, club, players, manager):
    event = make_event(club, players, manager, players=22, rounds=4)
    client.force_login(manager)
    url = reverse("tournaments:duplicate_movement", args=[club.slug, event.pk])
    page = client.get(url).content.decode()
    assert page.count("data-movement-option=") == 2
    assert 'value="fewest" checked' in page and 'value="cyclic" checked' not in page
    response = client.post(url, {"movement": CYCLIC})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=event.pk).movement == CYCLIC
    assert 'value="cyclic" checked' in client.get(url).content.decode()
    response = client.post(url, {"movement": "nonsense"}, follow=True)
    assert "Choose one of the movements that fit" in response.content.decode()


def test_the_candidates_hold_distinct_movements():
    for tables, rounds in ((5, 5), (6, 4), (7, 3), (9, 6), (15, 5)):
        found = candidates(tables, rounds)
        assert found[0].repeated == min(m.repeated for m in found)
        assert len({m.plan for m in found}) == len(found)


def test_on_a_tie_the_fixed_moves_are_preselected():
    # 25 tables: the finite field's movement and the plain rotation both meet nobody
    # twice; the rotation's moves need no route card
    found = duplicate_plan.options(range(1, 101), 12)
    assert [(o.kind, o.plan.repeated) for o in found] == [(FEWEST, 0), ("rotation", 0)]
    assert [o.kind for o in found if o.preselected] == ["rotation"]


def test_an_event_s_settings_edit_is_audited_with_what_changed(club, players, manager):
    """A duplicate event's edit writes the same audit entry as a free-deal tournament's:
    what changed, before and after."""
    event = make_event(club, players, manager, players=16, rounds=4)
    duplicate_services.update_duplicate(
        event,
        name="Championnat en donnes préparées",
        date=event.date,
        rules=event.rules,
        rounds=3,
        deals_per_set=event.deals_per_round,
        method=event.method,
        actor=manager,
    )
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.TOURNAMENT_UPDATED).latest("pk")
    assert entry.before == {"rounds": 4} and entry.after == {"rounds": 3}
