"""The ratings on a phone: the club's ratings table, and a player's rating chart."""

import datetime
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Player
from ratings import queries, scopes
from tests.browser.test_standings import season  # noqa: F401 (the fixture)
from tournaments.models import deals_for_table

pytestmark = pytest.mark.browser


def test_the_ratings_table_and_a_players_rating_chart(page, live_server, season, monkeypatch):  # noqa: F811
    from scoresheet.formatting import format_number

    monkeypatch.setattr(queries, "MIN_HANDS", 5)
    club = season.club
    rows = queries.scope_rows(scopes.club(club.pk))
    page.goto(live_server.url + reverse("standings:ratings", args=[club.slug]))
    table = page.locator("table[data-ratings]")
    expect(table.locator("tbody tr")).to_have_count(5)
    shown = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [row.name for row in rows]  # ranked by the rating, the unrated last
    expect(table.locator("thead")).to_contain_text("Skill estimate ± uncertainty")
    # the rating by value: 1000 + 40 (μ − 3σ), whole; Emil (one hand) is not rated yet
    ratings = dict(zip(shown, table.locator("tbody td[data-rating]").all_inner_texts()))
    for row in rows:
        if row.hands >= queries.MIN_HANDS:
            assert ratings[row.name] == format_number(round(1000 + 40 * (row.mu - 3 * row.sigma)))
        else:
            assert ratings[row.name] == "not rated yet"
    assert ratings["Emil"] == "not rated yet" and shown[-1] == "Emil"
    estimates = table.locator("tbody td[data-estimate]").all_inner_texts()
    top = rows[0]
    assert estimates[0] == (
        f"{format_number(round(1000 + 40 * top.mu))} ± {format_number(round(120 * top.sigma))}"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    anna = Player.objects.get(club=club, name="Anna")
    page.goto(live_server.url + reverse("stats:player", args=[club.slug, anna.pk]))
    chart = page.locator("[data-rating-history] canvas#chart-rating")
    expect(chart).to_be_visible()
    # drawn by the page's script: the canvas holds pixels
    page.wait_for_function(
        "() => { const c = document.getElementById('chart-rating');"
        " return c && c.width > 0 && c.toDataURL().length > 1000; }"
    )


def test_the_standings_rating_column_sorts_by_rating(page, live_server, season, monkeypatch):  # noqa: F811
    """The standings' Rating column: each player's μ − 3σ, blank under the minimum of
    hands (Emil: one hand), and a tap on its header ranks by it, the blanks last."""
    from scoresheet.formatting import format_number

    monkeypatch.setattr(queries, "MIN_HANDS", 5)
    club = season.club
    rows = queries.scope_rows(scopes.club(club.pk))
    page.goto(live_server.url + reverse("standings:club", args=[club.slug]))
    table = page.locator("[data-standings]")
    expect(table.locator("tbody tr")).to_have_count(5)
    shown = dict(
        zip(
            table.locator("tbody td[data-player]").all_inner_texts(),
            table.locator("tbody td[data-rating]").all_inner_texts(),
        )
    )
    assert shown == {
        row.name: format_number(round(row.ordinal)) if row.hands >= 5 else "—" for row in rows
    }
    assert shown["Emil"] == "—"
    table.locator("thead").get_by_role("link", name="Rating").tap()
    expect(page).to_have_url(re.compile(r"sort=-rating"))
    names = table.locator("tbody td[data-player]").all_inner_texts()
    assert names == [r.name for r in rows if r.hands >= 5] + ["Emil"]
    expect(page.locator("[data-rating-note]")).to_contain_text("shown from 5 hands rated")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_organiser_sees_each_tables_expected_result(
    page, live_server, log_in, club, monkeypatch
):
    """On a drawn round's page, each table lists its players with their chance to finish
    ahead (the club's ratings), likeliest first; the chances of a table sum to 100 %."""
    monkeypatch.setattr(queries, "MIN_HANDS", 1)  # four deals played each
    from clubs.models import Membership, Role
    from tests.tournaments.helpers import play_round
    from tournaments import services

    organiser = django_user().objects.create_user("organiser", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    members = [Player.objects.create(club=club, name=f"Member {i:02d}") for i in range(1, 17)]
    tournament = services.create_tournament(
        club,
        name="Open",
        date=datetime.date(2026, 6, 13),
        rules={"preset": "fft"},
        rounds=2,
        deals_per_round=4,
        minutes_per_round=None,
        five_tables="five",
        actor=organiser,
        seed=7,
    )
    services.register(tournament, [("member", p) for p in members])
    services.draw_schedule(tournament)
    first = tournament.round_set.get(number=1)
    services.start_round(first)
    play_round(tournament, first)
    services.close_round(first)
    log_in(page, organiser)
    page.goto(live_server.url + reverse("tournaments:round", args=[club.slug, tournament.pk, 2]))
    forecasts = page.locator("[data-round-tables] [data-forecast]")
    expect(forecasts).to_have_count(4)
    expect(forecasts.first).to_contain_text("Expected (ratings):")
    second = tournament.round_set.get(number=2)
    entries = {e.number: e for e in tournament.entries.all()}
    for table in second.tables.order_by("number"):
        line = page.locator(f"#table-{table.number} [data-forecast]")
        numbers = [
            int(n)
            for n in line.locator("[data-chance]").evaluate_all(
                "spans => spans.map(s => s.dataset.chance)"
            )
        ]
        chances = queries.expected_table(
            scopes.club(club.pk),
            [entries[n].player_id for n in table.seats],
            deals_for_table(tournament, len(table.seats)),
        )
        want = sorted(table.seats, key=lambda n: (-chances[entries[n].player_id], n))
        assert numbers == want
        texts = line.locator("[data-chance]").all_inner_texts()
        percents = [int(re.search(r"(\d+)\s*%$", text).group(1)) for text in texts]
        assert 97 <= sum(percents) <= 103  # whole percents, rounded
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def django_user():
    from django.contrib.auth import get_user_model

    return get_user_model()
