"""A closed sheet (``Sheet.closed_at``) takes no hand, correction, deletion or restore
until it is reopened: the hand services refuse with ``sheet_closed`` and write nothing,
and the hand pages say so."""

import re

import pytest

from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow

HAND = {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56}


def _counts():
    return Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count()


def test_a_closed_sheet_refuses_every_hand_write(make_sheet):
    sheet = make_sheet(4)
    hand = services.record_hand(sheet, HAND)
    gone = services.delete_hand(services.record_hand(sheet, HAND))
    services.close_sheet(sheet)
    sheet.refresh_from_db()
    assert sheet.is_closed
    before = _counts()
    for write in (
        lambda: services.record_hand(sheet, HAND),
        lambda: services.correct_hand(hand, {**HAND, "points": 60}),
        lambda: services.delete_hand(hand),
        lambda: services.restore_hand(gone),
    ):
        with pytest.raises(services.LedgerError) as refused:
            write()
        assert refused.value.code == "sheet_closed"
    assert _counts() == before
    services.reopen_sheet(sheet)
    services.correct_hand(hand, {**HAND, "points": 60})
    hand.refresh_from_db()
    assert hand.points == 60


def test_closing_twice_keeps_the_first_time(make_sheet):
    sheet = make_sheet(4)
    first = services.close_sheet(sheet).closed_at
    assert services.close_sheet(sheet).closed_at == first


def test_the_hand_page_shows_the_refusal(client, make_sheet, scorer):
    sheet = make_sheet(4)
    services.close_sheet(sheet)
    client.force_login(scorer)
    url = f"/clubs/{sheet.club.slug}/sheets/{sheet.pk}/hands/new/"
    data = {"dealer": "3", "taker": "0", "contract": "garde", "bouts": "2", "points": "56"}
    response = client.post(url, {**data, "action": "save"})
    assert response.status_code == 409
    assert "This sheet is closed" in response.content.decode()
    assert "“Reopen the sheet”" in response.content.decode()
    assert Hand.objects.count() == 0


def _checked(html, name, value):
    """The input ``name``=``value`` of the page is checked (or holds the value)."""
    for tag in re.findall(r"<input[^>]*>", html):
        if f'name="{name}"' in tag and f'value="{value}"' in tag:
            return "checked" in tag or 'type="number"' in tag or 'type="text"' in tag
    return False


def test_a_hand_typed_into_a_sheet_closed_meanwhile_stays_on_the_refusal(
    client, make_sheet, scorer
):
    """No script on the phone: the form opened, the sheet was closed, Save. The refusal
    keeps every entry of the hand (to copy, or to save once reopened), says why in
    French and how to reopen; nothing is stored. Reopened, the same Save stores it."""
    sheet = make_sheet(4)
    client.force_login(scorer)
    url = f"/clubs/{sheet.club.slug}/sheets/{sheet.pk}/hands/new/"
    assert client.get(url).status_code == 200
    services.close_sheet(sheet)
    data = {"dealer": "3", "taker": "1", "contract": "garde_sans", "bouts": "2", "points": "47"}
    response = client.post(url, {**data, "action": "save"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 409
    html = response.content.decode()
    assert "Cette feuille est close\u00a0: aucune donne" in html
    assert "Rouvrir la feuille" in html
    assert "reste dans le formulaire" in html
    assert "<form" in html and "data-hand-form" in html
    for name in ("taker", "contract", "bouts", "points"):
        assert _checked(html, name, data[name]), name
    assert Hand.objects.count() == 0
    services.reopen_sheet(sheet)
    response = client.post(url, {**data, "action": "save"})
    assert response.status_code == 302
    assert Hand.objects.get().points == 47


def test_a_correction_typed_into_a_sheet_closed_meanwhile_stays_on_the_refusal(
    client, make_sheet, scorer
):
    sheet = make_sheet(4)
    hand = services.record_hand(sheet, HAND)
    services.close_sheet(sheet)
    client.force_login(scorer)
    url = f"/clubs/{sheet.club.slug}/sheets/{sheet.pk}/hands/1/edit/"
    data = {"dealer": "0", "taker": "1", "contract": "garde", "bouts": "2", "points": "61"}
    response = client.post(url, {**data, "action": "save"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 409
    html = response.content.decode()
    assert _checked(html, "points", "61") and "reste dans le formulaire" in html
    hand.refresh_from_db()
    assert hand.points == 56
