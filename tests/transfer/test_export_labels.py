"""The exports speak the reader's language and give numbers as numbers: the season's
scores name roles and contracts in words ("défenseur", "garde sans"), not codes; the
ratings' range is two numbers (its ends), not a text a spreadsheet neutralises."""

import csv
import io

from django.urls import reverse

from scoresheet import services
from tests.data import SEED_HANDS


def rows_of(response):
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    text = text.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text), delimiter=";" if ";" in text[:200] else ","))


def test_the_french_season_export_names_roles_and_contracts(client, make_sheet, scorer, season):
    sheet = make_sheet(4)
    services.record_hand(sheet, {**SEED_HANDS[0], "contract": "garde_sans"}, actor=scorer)
    client.force_login(scorer)
    client.cookies["django_language"] = "fr"
    rows = rows_of(client.get(reverse("transfer:season_csv", args=["rive", season.pk])))
    roles = {row[5] for row in rows[1:]}
    contracts = {row[6] for row in rows[1:]}
    assert roles == {"preneur", "défenseur"}
    assert contracts == {"garde sans"}
    assert not {"defender", "taker", "garde_sans"} & (roles | contracts)


def test_the_ratings_export_gives_the_range_as_numbers(client, make_sheet, scorer, club):
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    client.force_login(scorer)
    client.cookies["django_language"] = "fr"
    url = reverse("standings:ratings", args=[club.slug])
    rows = rows_of(client.get(url + "?_export=csv"))
    header = rows[0]
    low_label = "Intervalle, de (estimation − incertitude)"
    high_label = "Intervalle, à (estimation + incertitude)"
    assert low_label in header and high_label in header
    assert "Niveau estimé ± incertitude" not in header
    low, high = header.index(low_label), header.index(high_label)
    for row in rows[1:]:
        for cell in (row[low], row[high]):
            assert not cell.startswith("'") and "." not in cell, cell
            float(cell.replace(",", "."))  # a number, with the French decimal comma
        assert float(row[low].replace(",", ".")) < float(row[high].replace(",", "."))


def test_an_upload_s_summary_agrees_with_its_counts_in_french():
    from django.utils import translation

    from transfer.jobs import _summary

    with translation.override("fr"):
        assert _summary("1 feuille importée", 1) == "1 feuille importée, 1 refusée."
        assert _summary("2 feuilles importées", 2) == "2 feuilles importées, 2 refusées."
    assert _summary("2 sheets imported", 1) == "2 sheets imported, 1 refused."
