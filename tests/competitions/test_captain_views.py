"""The captains' pages (their private links) and the league manager's side of them on
the match page: links, the start, the tables' links, the claims and their decisions."""

import pytest
from django.urls import reverse

from competitions import links, services
from competitions.models import LineUpSeat, MatchClaim
from leagues.models import LeagueAuditEntry
from tests.competitions.test_views import DEAL_1, DEAL_2, url

from .conftest import line_ups

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(championship):
    competition, _division, _teams = championship()
    return competition.matches.order_by("day", "slot").first()


def captain_url(link, name="page"):
    return reverse(f"captain:{name}", args=[links.token(link)])


def line_up_data(team, reverse_order=False):
    squad = list(team.squad.order_by("pk"))
    if reverse_order:
        squad.reverse()
    return {f"player_{i}": p.pk for i, p in enumerate(squad, start=1)}


def test_a_captain_hands_in_the_line_up_from_the_link(client, match, boss):
    link = links.link_of(match, match.home)
    page = client.get(captain_url(link))
    assert page.status_code == 200 and "data-captain-line-up" in page.content.decode()
    response = client.post(captain_url(link), line_up_data(match.home, reverse_order=True))
    assert response.status_code == 302
    order = list(
        LineUpSeat.objects.filter(match=match, team=match.home).values_list("player", flat=True)
    )
    assert order == list(match.home.squad.order_by("-pk").values_list("pk", flat=True))
    # changeable until the start, locked after
    client.post(captain_url(link), line_up_data(match.home))
    services.submit_line_up(match, match.away, list(match.away.squad.all()), actor=boss)
    services.start_match(match, actor=boss)
    page = client.get(captain_url(link)).content.decode()
    assert "data-locked" in page and "data-captain-line-up" not in page
    # the tables' links, for the captains at the venue
    from tournaments import tokens  # noqa: PLC0415

    for table in match.tables.all():
        assert tokens.url(table.round_table) in page
    response = client.post(captain_url(link), line_up_data(match.home, reverse_order=True))
    assert response.status_code == 200  # the form is refused, the line-up stays
    assert "The match has started: its line-ups are locked." in response.content.decode()
    order = list(
        LineUpSeat.objects.filter(match=match, team=match.home).values_list("player", flat=True)
    )
    assert order == list(match.home.squad.order_by("pk").values_list("pk", flat=True))


def test_the_manager_sees_copies_and_revokes_the_links(client, match, boss, clubs):
    client.force_login(boss)
    page = client.get(url("match", match.competition, match_id=match.pk)).content.decode()
    home, away = links.links_of(match)
    assert captain_url(home) in page and captain_url(away) in page
    old = captain_url(home)
    revoke = url("captain_revoke", match.competition, match_id=match.pk, team_id=match.home_id)
    assert client.post(revoke).status_code == 302
    assert client.get(old).status_code == 404
    home.refresh_from_db()
    assert client.get(captain_url(home)).status_code == 200
    assert LeagueAuditEntry.objects.filter(action="captain_link_revoked").exists()
    # a club manager reads the match page without the links
    client.force_login(clubs["a_manager"])
    page = client.get(url("match", match.competition, match_id=match.pk)).content.decode()
    assert "data-match-links" not in page and captain_url(home) not in page


def test_the_start_opens_the_tables_links(client, match, boss):
    line_ups(match, actor=boss)
    client.force_login(boss)
    response = client.post(url("start", match.competition, match_id=match.pk))
    assert response.status_code == 302
    page = client.get(url("match", match.competition, match_id=match.pk)).content.decode()
    assert page.count("data-table-link=") == 2 and "data-start-match" not in page
    tournament = match.tables.get(number=1).round_table.round.tournament
    rounds = f"/clubs/{match.home.club.slug}/tournaments/{tournament.pk}/rounds/1/"
    assert f'href="{rounds}" data-tables-round' in page
    table = match.tables.get(number=1).round_table
    from tournaments import tokens  # noqa: PLC0415

    assert client.get(tokens.url(table)).status_code == 200


def test_confirm_claim_and_decision(client, match, boss):
    line_ups(match, actor=boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    home, away = links.links_of(match)
    page = client.get(captain_url(home)).content.decode()
    assert 'data-result-state="provisional"' in page and "data-claim-form" in page
    assert client.post(captain_url(home, "confirm")).status_code == 302
    assert "data-confirmed" in client.get(captain_url(home)).content.decode()
    response = client.post(captain_url(away, "claim"), {"text": "Deal 2 was a garde."})
    assert response.status_code == 302
    claim = MatchClaim.objects.get()
    assert client.get(captain_url(away)).content.decode().count("Deal 2 was a garde.") == 1
    # the league manager: on the competition's page, on the match page; upheld: correct
    client.force_login(boss)
    detail = client.get(url("detail", match.competition)).content.decode()
    assert "data-open-claims" in detail and "(provisional)" in detail
    page = client.get(url("match", match.competition, match_id=match.pk)).content.decode()
    assert 'data-result-state="claimed"' in page and "data-decide-claim" in page
    decide = url("claim_decide", match.competition, match_id=match.pk, claim_id=claim.pk)
    response = client.post(decide, {"decision": "uphold", "note": "Table 1 deal 2: garde."})
    assert response.status_code == 302
    assert response["Location"] == url("results", match.competition, match_id=match.pk)
    claim.refresh_from_db()
    assert claim.state == "upheld" and claim.decision == "Table 1 deal 2: garde."
    entry = LeagueAuditEntry.objects.get(action="claim_decided")
    assert entry.after["state"] == "upheld"
    history = client.get(reverse("leagues:history", args=[match.competition.league.slug]))
    text = history.content.decode()
    assert 'data-action="claim_decided"' in text and 'data-action="claim_filed"' in text
    assert "data-open-claims" not in client.get(url("detail", match.competition)).content.decode()


def test_wrong_captain_links_are_limited_by_address(client, match):
    from django.core.cache import cache  # noqa: PLC0415

    from competitions import captain_views  # noqa: PLC0415

    cache.clear()
    link = links.link_of(match, match.home)
    for _ in range(captain_views.MISS_LIMIT.limit):
        assert client.get(reverse("captain:page", args=["y" * 32])).status_code == 404
    assert client.get(captain_url(link)).status_code == 429  # even a right link, for a while
    cache.clear()
    assert client.get(captain_url(link)).status_code == 200
