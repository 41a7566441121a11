"""One sheet, one truth: a new hand carries the number of the sheet's last hand it was
entered after; another phone's hand stored first refuses it (``hand_clash``), with both
hands shown and a choice, and nothing is stored twice."""

import json

import pytest
from django.urls import reverse

from scoresheet import services
from scoresheet.models import Hand
from tests.scoresheet.test_views_hands import SEED_POSTS


@pytest.fixture
def sheet(make_sheet):
    return make_sheet(4)


def url(sheet):
    return reverse("scoresheet:hand_create", args=[sheet.club.slug, sheet.pk])


def data_of(_index):
    return {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def test_the_service_refuses_a_hand_entered_after_an_older_last_hand(sheet, scorer):
    services.record_hand(sheet, data_of(0), actor=scorer, after=0)
    with pytest.raises(services.LedgerError) as refused:
        services.record_hand(sheet, data_of(0), actor=scorer, after=0)
    assert refused.value.code == "hand_clash"
    assert refused.value.params == {"number": 1, "after": 0}
    assert "Hand 1 was entered meanwhile" in refused.value.message
    assert sheet.hands.count() == 1
    services.record_hand(sheet, data_of(0), actor=scorer, after=1)  # kept as the next
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2]


def test_the_form_states_the_last_hand(client, scorer, sheet):
    client.force_login(scorer)
    page = client.get(url(sheet)).content.decode()
    assert 'name="after" value="0"' in page
    services.record_hand(sheet, data_of(0), actor=scorer)
    assert 'name="after" value="1"' in client.get(url(sheet)).content.decode()


def test_a_second_phone_is_shown_both_hands_and_a_choice(client, scorer, sheet):
    client.force_login(scorer)
    post = {**SEED_POSTS[0], "after": "0", "action": "save"}
    assert client.post(url(sheet), post).status_code == 302
    response = client.post(url(sheet), {**post, "taker": "1"})
    assert response.status_code == 409
    page = response.content.decode()
    assert "Hand 1 was entered meanwhile, on another phone" in page
    assert "Taker: Anna" in page and "Taker: Bert" in page  # theirs, and mine
    assert "Keep mine as hand 2" in page
    assert 'name="after" value="1"' in page  # Save now keeps it as the next hand
    assert Hand.objects.filter(sheet=sheet).count() == 1
    assert client.post(url(sheet), {**post, "taker": "1", "after": "1"}).status_code == 302
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2]


def test_the_queue_is_answered_with_the_clash(client, scorer, sheet):
    client.force_login(scorer)
    post = {**SEED_POSTS[0], "after": "0", "action": "save"}
    client.post(url(sheet), post)
    response = client.post(
        url(sheet), post, headers={"X-Requested-With": "fetch", "X-Tarot-Queue": "1"}
    )
    assert response.status_code == 409
    data = json.loads(response.content)
    assert data["clash"]["last"] == 1
    assert [hand["number"] for hand in data["clash"]["theirs"]] == [1]
    assert "Anna" in data["clash"]["mine"]
    assert Hand.objects.filter(sheet=sheet).count() == 1


def test_a_hand_without_after_is_not_checked(client, scorer, sheet):
    """The API, the imports and a form page kept from before: no check."""
    client.force_login(scorer)
    post = {**SEED_POSTS[0], "action": "save"}
    client.post(url(sheet), post)
    assert client.post(url(sheet), post).status_code == 302
    assert sheet.hands.count() == 2


# ---------------------------------------------------------------- a closed sheet


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_closed_sheet_is_read_only_with_the_reason(client, scorer, sheet, language):
    services.record_hand(sheet, data_of(0), actor=scorer)
    services.close_sheet(sheet, actor=scorer)
    client.force_login(scorer)
    client.cookies["django_language"] = language
    sheet_url = reverse("scoresheet:sheet", args=[sheet.club.slug, sheet.pk])
    page = client.get(sheet_url).content.decode()
    assert url(sheet) not in page  # no "Enter a hand"
    detail = client.get(reverse("scoresheet:hand", args=[sheet.club.slug, sheet.pk, 1]))
    assert detail.status_code == 200
    hand_page = detail.content.decode()
    assert "data-sheet-closed" in hand_page
    edit = reverse("scoresheet:hand_edit", args=[sheet.club.slug, sheet.pk, 1])
    assert edit not in hand_page
    closed = "Cette feuille est close" if language == "fr" else "This sheet is closed"
    reopen = "«\u00a0Rouvrir la feuille\u00a0»" if language == "fr" else "“Reopen the sheet”"
    for target in (url(sheet), edit):
        for response in (
            client.get(target),
            client.post(target, {**SEED_POSTS[0], "action": "save"}),
        ):
            assert response.status_code == 409
            text = response.content.decode()
            assert closed in text and reopen in text
    answer = client.post(url(sheet), SEED_POSTS[0], headers={"X-Requested-With": "fetch"})
    assert answer.status_code == 409
    assert closed in json.loads(answer.content)["errors"][0]
    assert sheet.hands.count() == 1
