"""Every action of a tournament's organiser leaves an entry in the club's audit trail."""

import inspect

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from tests.tournaments.helpers import play_round
from tournaments import services

pytestmark = pytest.mark.django_db

#: The services' actor keyword (read from a service, so the test follows its name).
ACTOR = next(
    p.name
    for p in inspect.signature(services.confirm_table).parameters.values()
    if p.kind is p.KEYWORD_ONLY
)


def test_every_organiser_action_is_audited_with_who(make_tournament, manager, members, club):
    by = {ACTOR: manager}
    t = make_tournament(players=0, rounds=1, deals=1)
    services.register(t, [("member", p) for p in members[:9]], **by)
    services.withdraw_player(t.entries.get(number=9), **by)
    rnd = t.round_set.get()
    services.draw_round(rnd, **by)
    first, second = rnd.tables.order_by("number")
    services.swap_players(rnd, first.seats[0], second.seats[0], **by)
    services.start_round(rnd, **by)
    play_round(t, rnd)
    first, second = rnd.tables.select_related("sheet", "round__tournament").order_by("number")
    services.submit_table(second, by_name="Anna")
    services.reopen_table(second, **by)
    services.revoke_link(first, **by)
    services.confirm_table(first, **by)
    services.confirm_table(second, **by)
    services.close_round(rnd, **by)
    services.close_tournament(t, **by)

    entries = AuditEntry.objects.filter(club=club, object_type="tournament").order_by("id")
    assert [e.action for e in entries] == [
        "tournament_created",
        "entries_registered",
        "entry_withdrawn",
        "round_drawn",
        "players_swapped",
        "round_started",
        "table_reopened",
        "link_revoked",
        "table_confirmed",
        "table_confirmed",
        "round_closed",
        "tournament_closed",
    ]
    assert {e.actor for e in entries} == {manager}
    assert {e.object_id for e in entries} == {t.pk}
    assert entries[1].after["entries"][0] == f"1. {members[0].name}"
    assert entries[8].after["table"] == "R1 T1" and entries[8].after["totals"]


def test_a_refused_action_leaves_no_entry(make_tournament, manager, club):
    t = make_tournament(players=2, rounds=1)
    before = AuditEntry.objects.filter(club=club).count()
    with pytest.raises(services.TournamentError):
        services.draw_round(t.round_set.get(), **{ACTOR: manager})  # too few players
    assert AuditEntry.objects.filter(club=club).count() == before


def test_the_clubs_history_page_shows_them(client, make_tournament, manager, club):
    t = make_tournament(players=8, rounds=1, deals=1)
    services.draw_round(t.round_set.get(), **{ACTOR: manager})
    client.force_login(manager)
    response = client.get(reverse("clubhouse:history", args=[club.slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "tournament created" in page and "round drawn" in page and "players entered" in page
