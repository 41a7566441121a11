"""Pages and writes that cost what their own data costs.

The stored facts on score rows and the stored sheet counts, the bulk import, the
mouches re-scoring in bulk and the query budget of a hand post.
"""

import pytest
from django.db.models import Count, Q

from core.idempotency import FIELD_NAME, new_key
from core.models import IdempotencyKey
from scoresheet import facts, handmap, importing, services
from scoresheet.models import Hand, HandRevision, ScoreRow, SeasonTotal, Sheet, SheetTotal
from scoresheet.totals import rebuild_season_totals
from tests.data import SEED_HANDS
from tests.scoresheet.test_views_hands import SEED_POSTS, url


@pytest.fixture
def sheet(make_sheet):
    return make_sheet(4)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


#: A hand post as the hand form sends it (with its idempotency key), pinned: 12 queries
#: in production — the session, the user, the club with the user's role (one query),
#: the sheet with its season and its seats with their players (one query: the form
#: checks the post against them), the key's INSERT … ON CONFLICT DO NOTHING, the
#: sheet's UPDATE … RETURNING (its lock, the hand's number and count), the hand, its
#: score rows, its history entry, the SheetTotal upsert (with the SheetFacts upsert in
#: its WITH: one statement on PostgreSQL, two on SQLite), the SeasonTotal upsert and
#: the key's result URL — plus 2 here: the test's transaction turns the post's own
#: transaction (``once``'s BEGIN … COMMIT, not counted in production) into a SAVEPOINT
#: and its RELEASE. The ratings kept on write (``ratings.keeping``) add 1 for a sheet's
#: next hand: one compare-and-set UPDATE of the rows this process wrote last. The
#: sheet's first hand costs 2 more (``FIRST_HAND_EXTRA``): its seating may still change
#: until then (``editing.update_sheet``), so the service reads it again under the lock,
#: and its players' ratings are read, then upserted; and which leagues rate the club's
#: hands (``ratings.keeping.registered_of_club``) is read, as each process does once a
#: club and minute (each test starts with none read: tests/conftest.py). On PostgreSQL
#: the club's write lock (``core.db.club_write_lock``) adds 1: the same count on both
#: databases.
HAND_POST_QUERIES = 13 + 2 + 1
FIRST_HAND_EXTRA = 3


def _form_post(data):
    """A hand as the hand form posts it: its fields, "save" and a fresh idempotency key."""
    return {**data, "action": "save", FIELD_NAME: new_key()}


def test_a_hand_post_does_not_take_more_queries(scorer_client, sheet, django_assert_num_queries):
    create_url = url("hand_create", sheet)
    for first, data in zip((True, False), SEED_POSTS[:2]):  # the first hand, then the second
        post = _form_post(data)
        with django_assert_num_queries(HAND_POST_QUERIES + FIRST_HAND_EXTRA * first):
            response = scorer_client.post(create_url, post)
        assert response.status_code == 302
        assert IdempotencyKey.objects.get(key=post[FIELD_NAME]).result_url == response["Location"]
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2]
    sheet.refresh_from_db()
    assert (sheet.hand_count, sheet.last_number) == (2, 2)
    # the sheet page offers to undo the new hand (a cookie: no session write on the post)
    page = scorer_client.get(response["Location"])
    assert page.context["undo_number"] == 2


#: The hand form (GET), pinned: the session, the user, the club with the user's role,
#: the sheet with its season and its seats with their players (one query) and the last
#: live hand's dealer (the suggested one). The next hand's number comes from the
#: sheet's count.
HAND_FORM_QUERIES = 5


def test_the_hand_form_takes_five_queries_and_numbers_the_next_hand(
    scorer_client, sheet, scorer, django_assert_num_queries
):
    create_url = url("hand_create", sheet)
    for data in SEED_HANDS[:3]:
        services.record_hand(sheet, data, actor=scorer)
    services.delete_hand(sheet.hands.get(number=3), actor=scorer)  # its number stays taken
    with django_assert_num_queries(HAND_FORM_QUERIES):
        response = scorer_client.get(create_url)
    assert response.context["next_number"] == 4
    scorer_client.post(create_url, _form_post(SEED_POSTS[0]))
    assert sheet.hands.order_by("number").last().number == 4
    # hands written without the sheet's count (a bulk load): the number is read
    Sheet.objects.filter(pk=sheet.pk).update(last_number=0)
    # read twice: the next number, and the hand the form is entered after (the phones' check)
    with django_assert_num_queries(HAND_FORM_QUERIES + 2):
        response = scorer_client.get(create_url)
    assert response.context["next_number"] == 5
    scorer_client.post(create_url, _form_post(SEED_POSTS[1]))
    assert sheet.hands.order_by("number").last().number == 5


def _summaries(season):
    """Both summary tables of a season and its sheets' stored counts, comparable across
    a rebuild (the SeasonTotals' revision aside)."""
    fields = ("player_id", "seated", "hands", "taken", "made", "score")
    sheet_totals = SheetTotal.objects.filter(season=season).order_by("sheet_id", "player_id")
    facts_kept = ("player_id", *facts.NAMES)  # the statistics' facts too
    season_totals = SeasonTotal.objects.filter(season=season).order_by("player_id")
    sheets = Sheet.objects.filter(season=season).order_by("pk")
    return (
        list(sheet_totals.values_list("sheet_id", "season_id", "date", "seats", *facts_kept)),
        list(season_totals.values_list("sheets", *fields)),
        list(sheets.values_list("pk", "hand_count", "last_number")),
    )


def _assert_rebuild_keeps(season):
    kept = _summaries(season)
    assert kept[0] and kept[1]
    rebuild_season_totals(season)
    assert _summaries(season) == kept


def test_totals_kept_by_posts_corrections_and_deletes_equal_a_rebuild(
    scorer_client, make_sheet, season, scorer
):
    """Hand posts add to the totals (``add_hand_to_totals``), corrections, deletes and
    restores rewrite them (``refresh_sheet_totals``): across two sheets of one season
    sharing players, mixed in every order, both summary tables and the sheets' counts
    stay what a rebuild from the ledger gives."""
    four = make_sheet(4)
    six = make_sheet(6, table="2")

    def post(sheet, data):
        response = scorer_client.post(url("hand_create", sheet), _form_post(data))
        assert response.status_code == 302, response.content.decode()[:2000]

    def at_six(dealer, taker, partner, points, **more):
        # five play, the dealer sits out; seats: Anna 0 … Fred 5
        data = {"dealer": dealer, "sits_out": dealer, "taker": taker, "contract": "garde"}
        return {**data, "partner": partner, "bouts": "2", "points": points, **more}

    # the six-seat sheet's first hand: Fred sits out (seated, not played: no sheet yet)
    post(six, at_six("5", "0", "1", "56"))
    post(four, SEED_POSTS[0])
    _assert_rebuild_keeps(season)
    post(six, at_six("4", "5", "5", "40"))  # Fred plays (alone): the sheet counts for him
    for data in SEED_POSTS[1:]:
        post(four, data)
    post(six, at_six("3", "2", "4", "33", petit_au_bout="defence"))  # failed
    _assert_rebuild_keeps(season)

    table = handmap.Table.of(four)
    first = four.hands.get(number=1)
    services.correct_hand(first, {**handmap.hand_data(first, table), "points": 40}, actor=scorer)
    services.delete_hand(four.hands.get(number=3), actor=scorer)
    services.delete_hand(six.hands.get(number=2), actor=scorer)  # Fred played no hand again
    _assert_rebuild_keeps(season)

    post(four, SEED_POSTS[2])  # numbered after the deleted hand 3: 6
    post(six, at_six("0", "5", "2", "60"))  # Fred's first hand played again: hand 4
    services.restore_hand(four.hands.get(number=3), actor=scorer)
    post(four, SEED_POSTS[4])
    _assert_rebuild_keeps(season)
    assert list(four.hands.order_by("number").values_list("number", "is_deleted")) == [
        *((n, False) for n in range(1, 8))
    ]
    assert list(six.hands.order_by("number").values_list("number", "is_deleted")) == [
        (1, False),
        (2, True),
        (3, False),
        (4, False),
    ]
    fred = SeasonTotal.objects.get(season=season, player__name="Fred")
    assert (fred.seated, fred.sheets, fred.hands, fred.taken) == (3, 1, 2, 1)


def test_a_sheet_loaded_without_its_last_number_numbers_after_its_hands(make_sheet, scorer):
    """Hands written another way than the services (a bulk load, a backup made before
    ``last_number``) leave it behind: the next hand is numbered after the highest one."""
    sheet = make_sheet(4)
    for data in SEED_HANDS[:3]:
        services.record_hand(sheet, data, actor=scorer)
    services.delete_hand(sheet.hands.get(number=3), actor=scorer)
    Sheet.objects.filter(pk=sheet.pk).update(last_number=0)
    hand = services.record_hand(sheet, SEED_HANDS[3], actor=scorer)
    assert hand.number == 4
    sheet.refresh_from_db()
    assert (sheet.hand_count, sheet.last_number) == (3, 4)
    assert services.record_hand(sheet, SEED_HANDS[4], actor=scorer).number == 5


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
        services.record_hand(five, data, actor=scorer)
    rows = ScoreRow.objects.filter(sheet=five)
    assert {(r.number, r.playing, r.alone) for r in rows} == {(1, 5, True), (2, 5, False)}
    six = make_sheet(6)
    services.record_hand(six, {**called, "sits_out": "Fred"}, actor=scorer)
    assert set(ScoreRow.objects.filter(sheet=six).values_list("playing", flat=True)) == {5}


def test_sheets_keep_their_counts(make_sheet, scorer):
    sheet = make_sheet(4)
    assert (sheet.seat_count, sheet.hand_count) == (4, 0)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    sheet.refresh_from_db()
    assert sheet.hand_count == 5
    services.delete_hand(sheet.hands.get(number=2), actor=scorer)
    sheet.refresh_from_db()
    assert sheet.hand_count == 4
    services.restore_hand(sheet.hands.get(number=2), actor=scorer)
    sheet.refresh_from_db()
    assert sheet.hand_count == 5


def test_the_bulk_import_writes_what_the_services_write(club, season, make_sheet, scorer):
    import json

    names = ["Anna", "Bert", "Carl", "Dora"]
    line = json.dumps(
        {"players": names, "hands": SEED_HANDS, "date": str(season.start_date), "table": "9"}
    )
    [result] = importing.import_sheets(club, [line], actor=scorer)
    assert result.ok and result.hands == 5
    imported = result.sheet
    by_hand = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(by_hand, data, actor=scorer)

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

    # the import's sheet totals (totals.add_new_sheet_totals) are those the services keep
    def sheet_totals(sheet):
        fields = ("player__name", "seats", "seated", "hands", "taken", "made", "score")
        return sorted(SheetTotal.objects.filter(sheet=sheet).values_list(*fields))

    assert len(sheet_totals(imported)) == 4
    assert sheet_totals(imported) == sheet_totals(by_hand)
    assert imported.season_id == by_hand.season_id
    _assert_rebuild_keeps(imported.season)  # and the season's totals add both up


def test_a_refused_hand_leaves_nothing_of_its_sheet(club, season, scorer):
    import json

    bad = [*SEED_HANDS[:3], {**SEED_HANDS[3], "bouts": 7}]
    line = json.dumps({"players": ["Anna", "Bert", "Carl", "Dora"], "hands": bad})
    before = (Sheet.objects.count(), Hand.objects.count(), ScoreRow.objects.count())
    [result] = importing.import_sheets(club, [line], season=season, actor=scorer)
    assert not result.ok and result.hand == 4
    assert (Sheet.objects.count(), Hand.objects.count(), ScoreRow.objects.count()) == before


def test_correcting_the_first_hand_of_a_mouches_sheet_rescores_in_bulk(
    make_sheet, scorer, django_assert_max_num_queries
):
    sheet = make_sheet(4, rules={"preset": "mouches"})
    hands = [*SEED_HANDS] * 8  # 40 hands
    for data in hands:
        services.record_hand(sheet, data, actor=scorer)
    first = sheet.hands.get(number=1)
    data = handmap.hand_data(first, handmap.Table.of(sheet))
    scores_before = list(first.scores.order_by("position").values_list("score", flat=True))
    # not a query per later hand (the ratings' re-rating of the club and the season
    # from the sheet: 9 or so each, whatever the hands)
    with django_assert_max_num_queries(50):
        services.correct_hand(first, {**data, "points": data["points"] + 3}, actor=scorer)
    scores_after = list(first.scores.order_by("position").values_list("score", flat=True))
    assert scores_after != scores_before  # the correction was scored
    totals = ScoreRow.objects.filter(sheet=sheet).values_list("score", flat=True)
    pools = sheet.hands.order_by("-number").first().pools
    assert sum(totals) + sum(pools) == 0
    assert ScoreRow.objects.filter(sheet=sheet).count() == 40 * 4
    _assert_rebuild_keeps(sheet.season)  # the totals kept in step with the re-scored rows
