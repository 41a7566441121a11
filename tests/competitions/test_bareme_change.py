"""A competition's barème changed after its creation: by a league manager, in the editor
of its creation, while no match is recorded; refused once one is (the kept results were
computed with it), in the reader's language; each change in the league's history."""

import pytest
from django.urls import reverse

from competitions import bareme, services
from competitions.bareme import BaremeError
from competitions.models import Competition, Match
from leagues.models import LeagueAuditEntry
from tests.competitions.conftest import line_ups, marques
from tests.competitions.test_views import bareme as posted

# the away team ahead by 320 points over the two deals
DEAL_1 = (marques(120, -40, -40, -40), marques(120, -40, -40, -40))
DEAL_2 = (marques(-50, 150, -50, -50), marques(-30, -30, 90, -30))
WIDE = [[0, 1, 1], [200, 3, 0]]


def test_a_manager_changes_the_barème_before_any_result_and_it_is_audited(championship, boss):
    competition, division, _teams = championship()
    plain = competition.scale
    bareme.set_scale(competition, WIDE, actor=boss)
    competition.refresh_from_db()
    assert competition.scale == WIDE
    entry = LeagueAuditEntry.objects.get(action="bareme_changed")
    assert entry.actor == boss and entry.label == competition.name
    assert entry.after == {"before": plain, "after": WIDE}
    # the same barème again: nothing to record
    bareme.set_scale(competition, WIDE, actor=boss)
    assert LeagueAuditEntry.objects.filter(action="bareme_changed").count() == 1
    # the first match recorded is counted with the new barème: 320 ahead, 3–0
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    match.refresh_from_db()
    assert (match.mp_home, match.mp_away) == (0, 3)


def test_the_barème_is_refused_once_a_match_is_recorded(championship, boss):
    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    assert not bareme.editable(competition)
    with pytest.raises(BaremeError) as refused:
        bareme.set_scale(competition, WIDE, actor=boss)
    assert refused.value.code == "results_recorded"
    competition.refresh_from_db()
    assert competition.scale != WIDE
    assert not LeagueAuditEntry.objects.filter(action="bareme_changed").exists()


def test_only_a_league_manager_changes_it_and_a_bad_barème_is_named(championship, clubs):
    competition, _division, _teams = championship()
    with pytest.raises(BaremeError) as refused:
        bareme.set_scale(competition, WIDE, actor=clubs["a_manager"])
    assert refused.value.code == "forbidden"
    with pytest.raises(BaremeError) as refused:
        bareme.set_scale(competition, [[0, 0, 2]])
    assert refused.value.code == "scale_points"
    with pytest.raises(BaremeError) as refused:
        bareme.set_scale(competition, [[5, 2, 0]])
    assert refused.value.code == "scale_start"
    assert Competition.objects.get().scale == [[0, 1, 1], [1, 2, 0]]


def test_a_result_is_computed_with_the_barème_read_under_the_match_lock(championship, boss):
    """The caller's copy of the competition is stale: the result reads the stored barème
    (what a change committed just before the recording's lock must give)."""
    competition, division, _teams = championship()
    match = Match.objects.select_related("competition").get(division=division, day=1, slot=0)
    line_ups(match, boss)
    bareme.set_scale(competition, WIDE, actor=boss)
    assert match.competition.scale != WIDE  # the caller's copy, read before the change
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    match.refresh_from_db()
    assert (match.mp_home, match.mp_away) == (0, 3)


def test_the_editor_page_saves_previews_and_then_refuses_in_french(
    client, championship, boss, clubs
):
    competition, division, _teams = championship()
    url = reverse("competitions:bareme", args=[competition.league.slug, competition.pk])
    manage = reverse("competitions:manage", args=[competition.league.slug, competition.pk])
    client.force_login(clubs["a_manager"])
    assert client.get(url).status_code == 403
    client.force_login(boss)
    assert url in client.get(manage).content.decode()
    page = client.get(url)
    assert [
        (f.initial["start"], f.initial["ahead"], f.initial["behind"])
        for f in page.context["lines"].forms[:2]
    ] == [(0, 1, 1), (1, 2, 0)]
    # a preview stores nothing
    response = client.post(url, {**posted(*WIDE), "action": "preview"})
    assert response.context["previewing"]
    assert (200, 3, 0) in [
        (p["difference"], p["ahead"], p["behind"]) for p in response.context["preview"]
    ]
    assert Competition.objects.get().scale != WIDE
    response = client.post(url, {**posted(*WIDE), "action": "save"}, follow=True)
    assert response.redirect_chain[-1][0] == manage
    assert [str(m) for m in response.context["messages"]] == ["The barème is saved."]
    assert Competition.objects.get().scale == WIDE
    # a match recorded: the page shows the barème, says why, and a post is refused
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "data-bareme-locked" in page and "data-bareme-form" not in page
    assert "son barème ne peut plus changer" in page
    response = client.post(
        url, {**posted([0, 1, 1]), "action": "save"}, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Un match de cette compétition est enregistré" in response
    assert Competition.objects.get().scale == WIDE
