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


def test_the_captain_page_in_french(client, championship, boss):
    from competitions import links, services  # noqa: PLC0415
    from tests.competitions.test_views import DEAL_1, DEAL_2  # noqa: PLC0415

    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    link = links.link_of(match, match.home)
    page = reverse("captain:page", args=[links.token(link)])
    text = client.get(page, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le match a commencé\u00a0: les compositions sont verrouillées." in text
    assert "Déposer la réclamation" in text and "Capitaine d’A1" in text
    claim = reverse("captain:claim", args=[links.token(link)])
    client.post(claim, {"text": " "}, HTTP_ACCEPT_LANGUAGE="fr")
    text = client.get(page, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Dites sur quoi porte votre réclamation." in text
