"""Writes through the API: the ledger's services, their refusals as structured 4xx, the
Idempotency-Key, and the query counts of a read and a write."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import AuditEntry
from core.models import IdempotencyKey
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet

pytestmark = pytest.mark.django_db

HAND = {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 50.5}


@pytest.fixture
def writer(api, token, scorer):
    return api(token(scorer, "write"))


def hands_url(sheet):
    return f"/api/v1/clubs/rive/sheets/{sheet.pk}/hands"


def test_a_hand_posted_is_recorded_by_the_service(writer, seeded, scorer):
    response = writer.post(hands_url(seeded), HAND)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["number"] == 6
    assert body["scores"] == {"Anna": 26, "Bert": -78, "Carl": 26, "Dora": 26}
    hand = Hand.objects.get(sheet=seeded, number=6)
    assert hand.entered_by == scorer
    assert ScoreRow.objects.filter(hand=hand).count() == 4
    assert hand.revisions.get().action == HandRevision.Action.CREATED
    totals = writer.get(f"/api/v1/clubs/rive/sheets/{seeded.pk}").json()["totals"]
    assert totals == {"Anna": 134, "Bert": 94, "Carl": -354, "Dora": 126}


def test_a_retried_post_stores_once(writer, seeded):
    key = {"Idempotency-Key": "retry-of-hand-six-0001"}
    first = writer.post(hands_url(seeded), HAND, **key)
    again = writer.post(hands_url(seeded), HAND, **key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Hand.objects.filter(sheet=seeded).count() == 6
    assert IdempotencyKey.objects.filter(key=key["Idempotency-Key"]).count() == 1
    other = writer.post(hands_url(seeded), HAND, **{"Idempotency-Key": "another-key-0000002"})
    assert other.status_code == 201 and other.json()["number"] == 7


def test_a_refused_post_leaves_its_key_free(writer, seeded):
    key = {"Idempotency-Key": "refused-then-fixed-01"}
    refused = writer.post(hands_url(seeded), {**HAND, "bouts": 7}, **key)
    assert refused.status_code == 400
    assert refused.json() == {
        "error": {
            "code": "bouts_out_of_range",
            "message": "Bouts: 7; a hand has 0 to 3 bouts.",
            "field": "bouts",
        }
    }
    assert writer.post(hands_url(seeded), HAND, **key).status_code == 201


def test_a_malformed_key_is_refused(writer, seeded):
    response = writer.post(hands_url(seeded), HAND, **{"Idempotency-Key": "short"})
    assert response.status_code == 422
    assert Hand.objects.filter(sheet=seeded).count() == 5


@pytest.mark.parametrize(
    "data, code",
    [
        ({**HAND, "taker": "Zoe"}, "player_not_at_table"),
        ({**HAND, "points": 92}, "points_out_of_range"),
        ({**HAND, "colour": "red"}, "invalid_field"),
        ({"dealer": "Anna", "taker": "Bert", "contract": "prise"}, "invalid_field"),
    ],
)
def test_the_services_refusals_are_4xx_with_their_code(writer, seeded, data, code):
    response = writer.post(hands_url(seeded), data)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code
    assert Hand.objects.filter(sheet=seeded).count() == 5


def test_correct_delete_and_restore(writer, seeded):
    url = f"{hands_url(seeded)}/1"
    corrected = writer.put(url, {**HAND, "dealer": "Dora"})
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["scores"]["Bert"] == -78
    deleted = writer.delete(url)
    assert deleted.status_code == 200 and deleted.json()["deleted"] is True
    again = writer.delete(url)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "hand_deleted"
    restored = writer.post(f"{url}/restore")
    assert restored.status_code == 200 and restored.json()["deleted"] is False
    actions = list(Hand.objects.get(sheet=seeded, number=1).revisions.values_list("action"))
    assert [a for (a,) in actions][-3:] == ["corrected", "deleted", "restored"]


def test_a_closed_sheet_is_a_conflict(writer, seeded, scorer):
    from scoresheet import services

    services.close_sheet(seeded, actor=scorer)
    response = writer.post(hands_url(seeded), HAND)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "sheet_closed"


def test_open_a_sheet(writer, season, players):
    data = {
        "season": season.pk,
        "date": "2026-05-01",
        "table": "3",
        "players": ["anna", "Bert", "Carl", "Dora", "Emil"],
    }
    key = {"Idempotency-Key": "open-sheet-key-000001"}
    response = writer.post("/api/v1/clubs/rive/sheets", data, **key)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["players"] == ["Anna", "Bert", "Carl", "Dora", "Emil"]
    assert body["rules"] == {"preset": "fft"} or body["rules"]["preset"] == "fft"
    again = writer.post("/api/v1/clubs/rive/sheets", data, **key)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert Sheet.objects.filter(date=datetime.date(2026, 5, 1)).count() == 1
    assert AuditEntry.objects.filter(action="sheet_created").count() == 1
    unknown = writer.post("/api/v1/clubs/rive/sheets", {**data, "players": ["Anna", "Zoe"]})
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "player_unknown"


def test_a_read_and_a_write_cost_a_fixed_number_of_queries(writer, seeded, make_sheet):
    """Pinned: the token with its user and club (1), its throttle (1 UPDATE), then the
    endpoint's own queries; more sheets and hands on the ledger cost no more."""

    def count(call):
        with CaptureQueriesContext(connection) as queries:
            response = call()
        assert response.status_code in (200, 201), response.content
        return len(queries)

    writer.get("/api/v1/clubs/rive/standings")  # the throttle's counter exists from here
    read = count(lambda: writer.get("/api/v1/clubs/rive/standings"))
    write = count(lambda: writer.post(hands_url(seeded), HAND))
    keyed = count(lambda: writer.post(hands_url(seeded), HAND, **{"Idempotency-Key": "x" * 20}))
    for n in range(3):  # more sheets and hands
        sheet = make_sheet(table=f"t{n}")
        writer.post(hands_url(sheet), HAND)
    assert count(lambda: writer.get("/api/v1/clubs/rive/standings")) == read
    # on the latest sheet: a hand on an earlier sheet re-rates the sheets after it
    # (ratings/keeping.py), which a page's post pays the same
    assert count(lambda: writer.post(hands_url(sheet), HAND)) == write
    assert (read, write, keyed) == (READ_QUERIES, WRITE_QUERIES, KEYED_WRITE_QUERIES)


#: token 1, throttle 1, the club with the user's role 1, its seasons 1, the standings'
#: rows 1 (their count in the same query), what the pools hold 1
READ_QUERIES = 6
#: token 1, throttle 1, club 1, the sheet and its seats 2; record_hand: its savepoint
#: (here, inside the test's transaction) 2, the sheet's lock and count 1, the hand, its
#: rows, its history 3, the sheet's facts, sheet totals and season totals 3; the hand's
#: rows read back for the answer 1; the players' ratings in one compare-and-set UPDATE 1
#: (the rows this process wrote last: ``ratings.keeping``)
WRITE_QUERIES = 16
#: the key's INSERT … ON CONFLICT DO NOTHING, and its result's URL
KEYED_WRITE_QUERIES = WRITE_QUERIES + 2
