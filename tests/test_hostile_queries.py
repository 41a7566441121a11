"""Crafted query strings and exports: bounded pages, refused formats, inert spreadsheets."""

import csv
import io
from urllib.parse import urlencode

import openpyxl
import pytest
from django.urls import reverse

from clubs.models import Player
from core.exports import csv_separator, neutralise
from scoresheet import services

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = ['=HYPERLINK("http://evil","x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


def url(name, club, query):
    return reverse(name, args=[club.slug]) + "?" + urlencode(query)


@pytest.fixture
def ledger(season, make_sheet, scorer):
    sheet = make_sheet(4)
    services.record_hand(
        sheet,
        {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
        actor=scorer,
    )
    return sheet


# ---------------------------------------------------------------- page and size


@pytest.mark.parametrize("name", ["standings:club", "scoresheet:sheets"])
@pytest.mark.parametrize(
    "query",
    [
        {"per_page": "-1"},
        {"per_page": "0"},
        {"per_page": "99999999999999999999"},
        {"page": "4611686018427387904"},
        {"page": "-3"},
        {"page": "1e9", "per_page": "½"},
        {"page": "٣", "per_page": "²"},
    ],
)
def test_page_and_size_are_bounded(client, club, ledger, name, query):
    response = client.get(url(name, club, query))
    assert response.status_code == 200
    paginator = response.context["table"].paginator
    assert 1 <= paginator.per_page <= 100


def test_a_huge_page_shows_the_last_page(client, club, ledger):
    response = client.get(url("standings:club", club, {"page": "4611686018427387904"}))
    assert response.context["table"].page.number == response.context["table"].paginator.num_pages


def test_a_huge_page_size_is_capped(client, club, ledger):
    response = client.get(url("scoresheet:sheets", club, {"per_page": "100000"}))
    assert response.context["table"].paginator.per_page == 100


# ---------------------------------------------------------------- export formats


@pytest.mark.parametrize("fmt", ["ods", "yaml", "json", "xls", "latex", "tsv", "nope", "CSV"])
def test_unknown_export_format_is_a_400(client, club, ledger, fmt):
    response = client.get(url("standings:club", club, {"_export": fmt}))
    assert response.status_code == 400
    assert "400" in response.content.decode()


def test_an_empty_export_parameter_is_the_page(client, club, ledger):
    assert client.get(url("standings:club", club, {"_export": ""})).status_code == 200


# ---------------------------------------------------------------- formula injection


def test_neutralise():
    assert neutralise("=1+1") == "'=1+1"
    assert neutralise("\tx") == "'\tx" and neutralise("\rx") == "'\rx"
    assert neutralise("Anna") == "Anna"
    assert (
        neutralise(-380) == -380 and neutralise("-380") == "-380" and neutralise("-2.5") == "-2.5"
    )


@pytest.fixture
def hostile_ledger(season, club, scorer):
    players = [Player.objects.create(club=club, name=name) for name in HOSTILE_NAMES]
    sheet = services.create_sheet(season=season, players=players, date=season.start_date)
    names = [p.name for p in players]
    services.record_hand(
        sheet,
        {"dealer": names[0], "taker": names[1], "contract": "garde", "bouts": 2, "points": 26},
    )
    return sheet


def test_csv_export_neutralises_formulas(client, club, hostile_ledger):
    response = client.get(url("standings:club", club, {"_export": "csv"}))
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    names = {row[1] for row in rows[1:]}
    assert names == {"'" + name for name in HOSTILE_NAMES}
    totals = sorted(int(row[2]) for row in rows[1:])  # scores stay plain numbers
    assert totals[0] < 0 and all(not row[2].startswith("'") for row in rows[1:])


def test_xlsx_export_has_no_formula(client, club, hostile_ledger):
    response = client.get(url("standings:club", club, {"_export": "xlsx"}))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert not [c.value for c in cells if c.data_type == "f"]
    names = {row[1].value for row in sheet.iter_rows(min_row=2)}
    assert names == {"'" + name for name in HOSTILE_NAMES}
    totals = [row[2].value for row in sheet.iter_rows(min_row=2)]
    assert all(isinstance(t, int) for t in totals) and min(totals) < 0


def test_csv_separator_follows_the_page_language(client, club, ledger):
    english = client.get(url("standings:club", club, {"_export": "csv"}))
    assert english.content.decode("utf-8-sig").splitlines()[0].startswith("Rank,Player,")
    french = client.get(url("standings:club", club, {"_export": "csv"}), HTTP_ACCEPT_LANGUAGE="fr")
    header = french.content.decode("utf-8-sig").splitlines()[0]
    assert header.count(";") == len(header.split(";")) - 1 >= 8 and "," not in header
    assert csv_separator("fr") == ";" and csv_separator("en") == ","


def test_a_nul_in_a_query_is_a_400(client, club, ledger):
    assert client.get(url("standings:club", club, {"season": "1\x00"})).status_code == 400
    assert client.get(url("scoresheet:sheets", club, {"season": "\x00"})).status_code == 400
