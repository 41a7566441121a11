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


def test_a_decided_claim_in_french(client, championship, boss):
    """A claim awaiting a decision, then decided, on the captain's and the manager's pages:
    the colon after the match, the team and the decision's state keeps its no-break
    space."""
    from competitions import links, services  # noqa: PLC0415
    from tests.competitions.test_views import DEAL_1, DEAL_2  # noqa: PLC0415
    from tests.test_french_pages import slips, words  # noqa: PLC0415

    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    away = links.link_of(match, match.away)
    claim = services.file_claim(away, "La donne 2 était une garde.")
    client.cookies["django_language"] = "fr"
    client.force_login(boss)
    kwargs = {"league": competition.league.slug, "competition_id": competition.pk}
    waiting = client.get(reverse("competitions:detail", kwargs=kwargs)).content.decode()
    services.decide_claim(claim, upheld=False, decision="La feuille dit prise.", actor=boss)
    page = reverse("competitions:match", kwargs={**kwargs, "match_id": match.pk})
    manager = client.get(page).content.decode()
    client.logout()  # a captain has no login; the browser keeps its language
    client.cookies["django_language"] = "fr"
    captain = client.get(reverse("captain:page", args=[links.token(away)])).content.decode()
    for html in (waiting, captain, manager):
        assert not slips(words(html)), slips(words(html))
    assert f"{match.home.name} – {match.away.name}\u00a0:</a>" in waiting
    assert "</strong>\u00a0: La feuille dit prise." in captain
    assert "\u00a0: La donne 2 était une garde." in manager
    assert "\u00a0: La feuille dit prise." in manager
