"""The upload's refusals in the page's language: no code in the text (it stays in a
tooltip), French typography, plural forms ("0 refusée", "2 refusées")."""

import re

import pytest

from clubs.refusals import MESSAGES, refusal_message
from tarot import CODES
from tests.data import SEED_HANDS
from tests.transfer.test_upload import GOOD, jsonl, manager, post_file  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

FOUR_BOUTS = dict(GOOD, table="2", hands=[dict(SEED_HANDS[0], bouts=4)])


def refusals(page):
    return re.findall(
        r'<span class="refusal" data-code="([a-z_]+)" title="[^"]*">(.*?)</span>', page
    )


def test_french_refusals_are_french_without_codes(client, manager, season):  # noqa: F811
    client.force_login(manager)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    text = jsonl(GOOD, FOUR_BOUTS) + "not json\n"
    page = post_file(client, season.club, text).content.decode()
    found = refusals(page)
    assert [code for code, _ in found] == ["bouts_out_of_range", "json_invalid"]
    bouts, json_line = (html for _, html in found)
    assert bouts == (
        "<strong>refusée</strong>\u00a0: donne 1\u00a0: Bouts\u00a0: 4\u202f; "
        "une donne compte de 0 à 3 bouts."
    )
    assert json_line == (
        "<strong>refusée</strong>\u00a0: La ligne n’est pas un objet JSON (une feuille par ligne)."
    )
    for _, html in found:
        assert "_" not in html and "(char" not in html and "is not" not in html
    assert "2\u00a0refusées." in page or "2 refusées." in page


def test_english_refusals_keep_the_code_out_of_the_text(client, manager, season):  # noqa: F811
    client.force_login(manager)
    page = post_file(client, season.club, jsonl(FOUR_BOUTS)).content.decode()
    [(code, html)] = refusals(page)
    assert code == "bouts_out_of_range"
    assert html == "<strong>refused</strong>: hand 1: Bouts: 4; a hand has 0 to 3 bouts."
    assert 'title="bouts_out_of_range"' in page


def test_no_refusal_is_singular_in_french(client, manager, season):  # noqa: F811
    client.force_login(manager)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    page = post_file(client, season.club, jsonl(GOOD)).content.decode()
    assert re.search(r"0 refusée\.", page) and "refusées" not in page


def test_every_engine_code_has_a_wording():
    assert set(CODES) <= set(MESSAGES)
    for code in CODES:
        assert refusal_message(code, "points", {}) and "%(" not in refusal_message(code, None, {})


def test_a_season_exports_as_csv_in_the_page_language(client, season, make_sheet):
    from decimal import Decimal

    from django.urls import reverse

    from scoresheet import services

    sheet = make_sheet(5)
    hand = {
        "dealer": "Emil",
        "taker": "Anna",
        "contract": "garde",
        "bouts": 1,
        "points": Decimal("50.5"),
    }
    services.record_hand(sheet, dict(hand, partner="Bert"))
    url = reverse("transfer:season_csv", args=[season.club.slug, season.pk])
    french = b"".join(client.get(url, HTTP_ACCEPT_LANGUAGE="fr").streaming_content)
    french = french.decode("utf-8-sig")
    rows = [line.split(";") for line in french.splitlines()]
    assert rows[0][0] == "Date" and len(rows) == 6
    scores = [Decimal(r[-1].replace(",", ".")) for r in rows[1:]]
    assert sum(scores) == 0 and all("." not in r[-1] for r in rows[1:])
    english = b"".join(client.get(url, HTTP_ACCEPT_LANGUAGE="en").streaming_content)
    english = english.decode("utf-8-sig")
    assert english.splitlines()[0].startswith("Date,Table,")
