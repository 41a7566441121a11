"""Issue 15: pages and writes that cost what their own data costs.

The stored facts on score rows and the stored sheet counts, the bulk import, the
mouches re-scoring in bulk and the query budget of a hand post.
"""

from decimal import Decimal

import pytest
from django.db.models import Count, Q

from scoresheet import handmap, importing, services
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet
from tests.data import SEED_HANDS, SEED_TOTALS
from tests.scoresheet.test_views_hands import SEED_POSTS, url


@pytest.fixture
def sheet(make_sheet):
    return make_sheet(4)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


#: A hand post today: 21 queries in production (the test adds 4 SAVEPOINT/RELEASE
#: lines). The issue's target is 12, not reached yet (see the report of issue 15).
HAND_POST_QUERIES = 25


def test_a_hand_post_does_not_take_more_queries(
    scorer_client, sheet, django_assert_max_num_queries
):
    scorer_client.post(url("hand_create", sheet), {**SEED_POSTS[0], "action": "save"})
    with django_assert_max_num_queries(HAND_POST_QUERIES):
        response = scorer_client.post(
            url("hand_create", sheet), {**SEED_POSTS[1], "action": "save"}
        )
    assert response.status_code == 302
    assert sheet.hands.count() == 2


def test_score_rows_store_the_hand_facts(make_sheet, scorer):
    five = make_sheet(5)
    alone = {
        "dealer": "Anna",
        "taker": "Anna",
        "contract": "garde",
        "partner": "Anna",
        "bouts": 2,
        "points": 50,
    }
    called = {**alone, "partner": "Bert"}
    for data in (alone, called):
        services.record_hand(five, data, user=scorer)
    rows = ScoreRow.objects.filter(sheet=five)
    assert {(r.number, r.playing, r.alone) for r in rows} == {(1, 5, True), (2, 5, False)}
    six = make_sheet(6)
    services.record_hand(six, {**called, "sits_out": "Fred"}, user=scorer)
    assert set(ScoreRow.objects.filter(sheet=six).values_list("playing", flat=True)) == {5}


def test_sheets_keep_their_counts(make_sheet, scorer):
    sheet = make_sheet(4)
    assert (sheet.seat_count, sheet.hand_count) == (4, 0)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, user=scorer)
    sheet.refresh_from_db()
    assert sheet.hand_count == 5
    services.delete_hand(sheet.hands.get(number=2), user=scorer)
    sheet.refresh_from_db()
    assert sheet.hand_count == 4
    services.restore_hand(sheet.hands.get(number=2), user=scorer)
    sheet.refresh_from_db()
    assert sheet.hand_count == 5


def test_the_bulk_import_writes_what_the_services_write(club, season, make_sheet, scorer):
    import json

    names = ["Anna", "Bert", "Carl", "Dora"]
    line = json.dumps(
        {"players": names, "hands": SEED_HANDS, "date": str(season.start_date), "table": "9"}
    )
    [result] = importing.import_sheets(club, [line], user=scorer)
    assert result.ok and result.hands == 5
    imported = result.sheet
    by_hand = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(by_hand, data, user=scorer)

    def ledger(sheet):
        return sorted(
            ScoreRow.objects.filter(sheet=sheet).values_list(
                "number", "position", "role", "score", "pool", "playing", "alone", "margin"
            )
        )

    assert ledger(imported) == ledger(by_hand)
    assert HandRevision.objects.filter(hand__sheet=imported, action="created").count() == 5
    totals = dict(
        ScoreRow.objects.filter(sheet=imported)
        .values_list("player__name")
        .annotate(t=Count("pk", filter=Q(role="taker")))
    )
    assert sum(totals.values()) == 5
    assert Sheet.objects.get(pk=imported.pk).hand_count == 5


def test_a_refused_hand_leaves_nothing_of_its_sheet(club, season, scorer):
    import json

    bad = [*SEED_HANDS[:3], {**SEED_HANDS[3], "bouts": 7}]
    line = json.dumps({"players": ["Anna", "Bert", "Carl", "Dora"], "hands": bad})
    before = (Sheet.objects.count(), Hand.objects.count(), ScoreRow.objects.count())
    [result] = importing.import_sheets(club, [line], season=season, user=scorer)
    assert not result.ok and result.hand == 4
    assert (Sheet.objects.count(), Hand.objects.count(), ScoreRow.objects.count()) == before


def test_correcting_the_first_hand_of_a_mouches_sheet_rescores_in_bulk(
    make_sheet, scorer, django_assert_max_num_queries
):
    sheet = make_sheet(4, rules={"preset": "mouches"})
    hands = [*SEED_HANDS] * 8  # 40 hands
    for data in hands:
        services.record_hand(sheet, data, user=scorer)
    first = sheet.hands.get(number=1)
    data = handmap.hand_data(first, handmap.Table.of(sheet))
    with django_assert_max_num_queries(30):  # not a query per later hand
        services.correct_hand(first, {**data, "points": data["points"] + 3}, user=scorer)
    totals = ScoreRow.objects.filter(sheet=sheet).values_list("score", flat=True)
    pools = sheet.hands.order_by("-number").first().pools
    assert sum(totals) + sum(pools) == 0
    assert ScoreRow.objects.filter(sheet=sheet).count() == 40 * 4
    assert SEED_TOTALS  # the seed is the one the other tests use
    assert Decimal(0) == sum(totals) + sum(pools)
