"""The competition pages in French: the match days, the seats, a space before colons."""

from django.urls import reverse

from tests.competitions.conftest import line_ups

NNBSP = "\u202f"


def test_the_pages_in_french(client, championship, boss):
    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    kwargs = {"league": competition.league.slug, "competition_id": competition.pk}
    page = client.get(reverse("competitions:detail", kwargs=kwargs), HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert "Journée 1" in text and "Calendrier" in text and "Points de classement" in text
    client.force_login(boss)
    results = reverse("competitions:results", kwargs={**kwargs, "match_id": match.pk})
    text = client.get(results, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Nord" in text and "Ouest" in text and f"place{NNBSP}:" in text
    wrong = {f"d{n}_t{t}_{s}": 0 for n in (1, 2) for t in (1, 2) for s in "NESW"}
    wrong["d2_t1_N"] = 10
    text = client.post(results, wrong, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Donne 2, table 1{NNBSP}: la somme des marques n’est pas 0." in text
