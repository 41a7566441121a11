"""The barème editor: lines typed in a form, refused in the reader's words, previewed on
a few differences, never JSON."""

from django.urls import reverse

from competitions.models import Competition
from tests.competitions.test_views import bareme

FORM = {
    "name": "Interclubs",
    "kind": "championship",
    "mode": "duplicate",
    "deals": "2",
    "win_points": "3",
    "draw_points": "1",
    "loss_points": "0",
    "tie_breaks": "points",
    "promoted": "0",
    "relegated": "0",
}


def test_a_barème_refused_in_french_then_previewed_then_created(client, league, boss):
    client.force_login(boss)
    url = reverse("competitions:create", args=[league.slug])
    # the side behind above the side ahead: named, in French, and nothing stored
    bad = {**FORM, **bareme([0, 1, 1], [10, 0, 2]), "action": "create"}
    page = client.post(url, bad, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "l’équipe devant reçoit au moins les points de match" in page
    assert not Competition.objects.exists()
    # no line from 0
    page = client.post(url, {**FORM, **bareme([5, 2, 0]), "action": "create"}).content.decode()
    assert "The first line starts at a difference of 0." in page
    # a line half filled
    half = {**FORM, **bareme([0, 1, 1]), "line-TOTAL_FORMS": "2", "line-1-start": "7"}
    page = client.post(url, half).content.decode()
    assert "Fill the three numbers of the line, or none." in page
    # the preview: each line's start, the difference just below, one well beyond
    good = {**FORM, **bareme([0, 1, 1], [10, 2, 0], [40, 3, 0])}
    response = client.post(url, {**good, "action": "preview"})
    shown = [(p["difference"], p["ahead"], p["behind"]) for p in response.context["preview"]]
    assert shown == [(0, 1, 1), (9, 1, 1), (10, 2, 0), (39, 2, 0), (40, 3, 0), (90, 3, 0)]
    assert not Competition.objects.exists()
    response = client.post(url, {**good, "action": "create"}, follow=True)
    assert Competition.objects.get().scale == [[0, 1, 1], [10, 2, 0], [40, 3, 0]]
    assert [str(m) for m in response.context["messages"]] == [
        "Interclubs is created: add its divisions and teams."
    ]
