"""The arbitre's penalties and adjustments: points to one player in one round,
with a reason, added to that round's score in the ranking and shown on the ranking and
on the player's page."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.tournaments.helpers import play_round
from tournaments import queries, services
from tournaments.services import TournamentError


@pytest.fixture
def played(make_tournament):
    t = make_tournament(players=8, rounds=2)
    services.draw_schedule(t)
    first = t.round_set.get(number=1)
    services.start_round(first)
    play_round(t, first)
    return t


def row_of(t, number):
    return next(r for r in queries.ranking(t) if r["number"] == number)


def test_a_penalty_counts_in_the_round_and_the_total(played):
    t = played
    before = row_of(t, 3)
    assert before["adjusted"] is None
    services.adjust_score(t.entries.get(number=3), 1, "-10", "FFT 4.2: slow play")
    services.adjust_score(t.entries.get(number=3), 1, "+2,5", "Club rule: scoring error")
    after = row_of(t, 3)
    assert after["rounds"][0] == before["rounds"][0] - Decimal("7.5")
    assert after["total"] == before["total"] - Decimal("7.5")
    assert after["adjusted"] == Decimal("-7.5")
    assert after["deals"] == before["deals"]  # no deal added
    others = [r for r in queries.ranking(t) if r["number"] != 3]
    assert all(r["adjusted"] is None for r in others)


@pytest.mark.parametrize(
    ("round_number", "points", "reason", "code"),
    [
        (2, "-10", "late", "round_not_played"),  # round 2 is drawn, not started
        (9, "-10", "late", "round_not_played"),
        (1, "0", "late", "no_points"),
        (1, "ten", "late", "bad_score"),
        (1, "-10", "  ", "reason_required"),
    ],
)
def test_refusals(played, round_number, points, reason, code):
    with pytest.raises(TournamentError) as refused:
        services.adjust_score(played.entries.get(number=1), round_number, points, reason)
    assert refused.value.code == code
    assert not played.entries.get(number=1).adjustments.exists()


def test_the_organiser_records_it_and_the_pages_show_it(client, played, manager):
    t = played
    client.force_login(manager)
    url = reverse("tournaments:entry", args=[t.club.slug, t.pk, 2])
    page = client.get(url).content.decode()
    assert "A penalty or an adjustment" in page
    data = {"round": "1", "points": "-20", "reason": "FFT: phone at the table"}
    response = client.post(url, data)
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Round 1: −20 (FFT: phone at the table)" in page
    ranking = client.get(reverse("tournaments:ranking", args=[t.club.slug, t.pk])).content.decode()
    assert "adjusted by the arbitre: −20" in ranking
    # Refused with the reason on the form, nothing recorded; a reader sees no form.
    page = client.post(url, {"round": "1", "points": "0", "reason": "x"}).content.decode()
    assert "An adjustment is a number of points, not 0." in page
    assert t.entries.get(number=2).adjustments.count() == 1
    client.logout()
