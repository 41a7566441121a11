"""A manager uploads sheets (JSON Lines or a CSV of hands), previews them, imports each
sheet all or nothing; a season exports as JSON Lines and as a spreadsheet."""

import datetime
import io
import json

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Membership, Role
from scoresheet import services
from scoresheet.models import Hand, ScoreRow, Sheet, SheetTotal
from tests.data import SEED_HANDS
from transfer import upload, views

pytestmark = pytest.mark.django_db

GOOD = {
    "players": ["Anna", "Bert", "Carl", "Dora"],
    "date": "2026-03-14",
    "table": "1",
    "hands": SEED_HANDS[:2],
}
#: its second hand names a taker who is not at the table
BAD = dict(
    GOOD,
    table="2",
    hands=[SEED_HANDS[0], dict(SEED_HANDS[1], taker="Zoé")],
)


def jsonl(*sheets):
    return "\n".join(json.dumps(s, ensure_ascii=False) for s in sheets) + "\n"


@pytest.fixture
def manager(make_user, club):
    user = make_user("boss")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


def post_file(client, club, text, name="sheets.jsonl", **extra):
    url = reverse("transfer:import", args=[club.slug])
    file = SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text)
    return client.post(url, {"step": "preview", "file": file, **extra})


def ledger():
    return (Sheet.objects.count(), Hand.objects.count(), ScoreRow.objects.count())


def test_a_refused_line_is_named_and_nothing_of_its_sheet_is_stored(client, manager, season):
    client.force_login(manager)
    text = jsonl(GOOD, BAD, GOOD | {"table": "3"})
    response = post_file(client, season.club, text)
    assert response.status_code == 200
    outcomes = response.context["outcomes"]
    assert [(o.line, o.ok) for o in outcomes] == [(1, True), (2, False), (3, True)]
    assert outcomes[1].message.startswith("hand 2:")
    page = response.content.decode()
    assert "refused" in page and "hand 2:" in page
    assert ledger() == (0, 0, 0)  # the preview wrote nothing

    response = client.post(
        reverse("transfer:import", args=[season.club.slug]),
        {"step": "import", "digest": response.context["digest"]},
    )
    assert response.status_code == 200
    assert [(o.line, o.ok) for o in response.context["outcomes"]] == [
        (1, True),
        (2, False),
        (3, True),
    ]
    assert sorted(Sheet.objects.values_list("table", flat=True)) == ["1", "3"]
    assert Hand.objects.count() == 4 and ScoreRow.objects.count() == 16
    assert not Sheet.objects.filter(table="2").exists()
    assert SheetTotal.objects.filter(sheet__table="2").count() == 0
    # the file is used once: posting the import again does nothing
    again = client.post(
        reverse("transfer:import", args=[season.club.slug]),
        {"step": "import", "digest": response.context.get("digest", "x")},
    )
    assert again.status_code == 302 and Sheet.objects.count() == 2


def test_a_csv_of_hands_with_a_refused_sheet_names_its_line(client, manager, season):
    client.force_login(manager)
    text = (
        "sheet;players;date;table;dealer;taker;contract;bouts;points;petit_au_bout;poignees\n"
        "A;Anna/Bert/Carl/Dora;2026-03-14;1;Dora;Anna;garde;2;56;;\n"
        "A;;;;Anna;Bert;garde;3;49;attack;Anna single\n"
        "\n"
        "B;Anna/Bert/Carl/Dora;2026-03-21;1;Dora;Anna;garde;2;56;;\n"
        "B;;;;Anna;Bert;garde;4;49;;\n"
    )
    response = post_file(client, season.club, text, name="scores.csv")
    outcomes = response.context["outcomes"]
    assert [(o.line, o.ok, o.hands) for o in outcomes] == [(1 + 1, True, 2), (6, False, 0)]
    assert "bouts" in outcomes[1].message
    client.post(
        reverse("transfer:import", args=[season.club.slug]),
        {"step": "import", "digest": response.context["digest"]},
    )
    sheet = Sheet.objects.get()
    assert sheet.date == datetime.date(2026, 3, 14) and sheet.hands.count() == 2
    assert sheet.hands.get(number=2).poignees != []


def test_a_csv_of_running_totals_is_refused_with_the_reason(client, manager, season):
    client.force_login(manager)
    response = post_file(client, season.club, "Anna,Bert,Carl,Dora\n120,-40,-40,-40\n", "t.csv")
    assert response.status_code == 400
    assert "running totals cannot become hands" in response.content.decode()
    assert ledger() == (0, 0, 0)


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"", "empty"),
        (b"\xff\xfe{", "not UTF-8"),
        (b"PK\x03\x04\x00\x00", "NUL"),
        (b"x" * (upload.MAX_BYTES + 1), "larger than 2 MB"),
    ],
)
def test_files_that_are_not_sheets_get_a_message(client, manager, season, content, reason):
    client.force_login(manager)
    response = post_file(client, season.club, content)
    assert response.status_code == 400
    assert reason in response.content.decode()


def test_broken_lines_and_bad_fields_are_refused_one_by_one(client, manager, season):
    client.force_login(manager)
    text = "\n".join(
        [
            "{not json",
            json.dumps(GOOD | {"date": "14/03/2026"}),
            json.dumps(GOOD | {"season": "1999"}),
            json.dumps(GOOD | {"players": "Anna"}),
            json.dumps(GOOD),
        ]
    )
    outcomes = post_file(client, season.club, text).context["outcomes"]
    assert [o.ok for o in outcomes] == [False, False, False, False, True]
    assert [o.line for o in outcomes] == [1, 2, 3, 4, 5]
    assert ledger() == (0, 0, 0)


def test_import_without_a_preview_or_with_a_bad_step(client, manager, season):
    client.force_login(manager)
    url = reverse("transfer:import", args=[season.club.slug])
    assert client.post(url, {"step": "import", "digest": "nope"}).status_code == 302
    assert client.post(url, {"step": "other"}).status_code == 400
    assert client.post(url, {"step": "preview"}).status_code == 400
    assert client.post(url, {"step": "preview", "season": "999999"}).status_code == 400
    assert ledger() == (0, 0, 0)


def test_the_chosen_season_takes_the_sheets(client, manager, season, club):
    other = club.seasons.create(name="Autumn", start_date=datetime.date(2025, 9, 1))
    client.force_login(manager)
    response = post_file(client, club, jsonl(GOOD), season=str(other.pk))
    client.post(
        reverse("transfer:import", args=[club.slug]),
        {"step": "import", "digest": response.context["digest"], "season": str(other.pk)},
    )
    assert Sheet.objects.get().season == other


# ---------------------------------------------------------------- season exports


def test_a_season_exports_as_json_lines_that_upload_back(client, manager, season, make_sheet):
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data)
    url = reverse("transfer:season_jsonl", args=[season.club.slug, season.pk])
    response = client.get(url)
    assert response.status_code == 200
    body = response.getvalue()  # streamed: read once
    lines = body.decode().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["season"] == "2026"
    before = list(
        ScoreRow.objects.order_by("hand__number", "position").values_list("score", flat=True)
    )
    sheet.hands.all().delete()
    Sheet.objects.all().delete()
    client.force_login(manager)
    response = post_file(client, season.club, body)
    client.post(
        reverse("transfer:import", args=[season.club.slug]),
        {"step": "import", "digest": response.context["digest"]},
    )
    after = list(
        ScoreRow.objects.order_by("hand__number", "position").values_list("score", flat=True)
    )
    assert after == before


def test_a_season_exports_as_a_spreadsheet(client, season, make_sheet, players):
    players[0].name = "=HYPERLINK(1)"
    players[0].save()
    sheet = make_sheet(4)
    services.record_hand(sheet, dict(SEED_HANDS[0], dealer="Dora", taker="=HYPERLINK(1)"))
    response = client.get(reverse("transfer:season_xlsx", args=[season.club.slug, season.pk]))
    assert response.status_code == 200
    rows = list(openpyxl.load_workbook(io.BytesIO(response.getvalue())).active.values)
    assert rows[0][:5] == ("Date", "Table", "Sheet", "Hand", "Player")
    assert len(rows) == 5
    assert "'=HYPERLINK(1)" in [r[4] for r in rows]
    assert sum(r[7] for r in rows[1:]) == 0


def test_import_pressed_twice_at_once_imports_once(client, manager, season):
    """Two posts of the same confirmation, both holding the session's copy of the file
    (as two presses at once do: each read the session before the other ended): the
    form's idempotency key lets the first import and sends the second to the data page."""
    client.force_login(manager)
    preview = post_file(client, season.club, jsonl(GOOD, GOOD | {"table": "3"}))
    page = preview.content.decode()
    assert 'name="idempotency_key"' in page
    key = page.split('name="idempotency_key" value="')[1].split('"')[0]
    kept = client.session[views.SESSION_KEY]
    form = {"step": "import", "digest": preview.context["digest"], "idempotency_key": key}
    url = reverse("transfer:import", args=[season.club.slug])
    first = client.post(url, form)
    assert first.status_code == 200 and Sheet.objects.count() == 2
    session = client.session
    session[views.SESSION_KEY] = kept  # the second press read the session before
    session.save()
    second = client.post(url, form)
    assert second.status_code == 302
    assert second.url == reverse("transfer:data", args=[season.club.slug])
    assert Sheet.objects.count() == 2 and Hand.objects.count() == 4


def test_a_line_nested_100000_deep_is_refused_not_a_server_error(client, manager, season):
    client.force_login(manager)
    deep = '{"players": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = post_file(client, season.club, deep + "\n" + jsonl(GOOD))
    assert response.status_code == 200
    outcomes = response.context["outcomes"]
    assert [(o.line, o.ok) for o in outcomes] == [(1, False), (2, True)]


def test_a_file_is_imported_once_whatever_the_form_sends(client, manager, season):
    """The same file posted again without the form's key (a script, a page kept from
    before), even after a fresh preview: its digest lets it be imported once, and the
    second time says so."""
    client.force_login(manager)
    text = jsonl(GOOD, GOOD | {"table": "3"})
    url = reverse("transfer:import", args=[season.club.slug])
    preview = post_file(client, season.club, text)
    assert 'id="imported-already"' not in preview.content.decode()
    first = client.post(url, {"step": "import", "digest": preview.context["digest"]})
    assert first.status_code == 200 and Sheet.objects.count() == 2
    again = post_file(client, season.club, text)  # a new preview of the same file
    assert 'id="imported-already"' in again.content.decode()
    second = client.post(url, {"step": "import", "digest": again.context["digest"]})
    assert second.status_code == 302
    assert second.url == reverse("transfer:data", args=[season.club.slug])
    assert Sheet.objects.count() == 2 and Hand.objects.count() == 4
    page = client.get(second.url).content.decode()
    assert "already imported into the club: nothing was imported again" in page
    other = post_file(client, season.club, jsonl(GOOD | {"table": "4"}))  # another file
    client.post(url, {"step": "import", "digest": other.context["digest"]})
    assert Sheet.objects.count() == 3
