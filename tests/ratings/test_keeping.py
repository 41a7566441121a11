"""Ratings kept on write: equal to the model (``ratings.compute``) called directly, and
to rating the ledger from scratch after any change."""

import datetime

import pytest
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import keeping, scopes
from ratings.compute import Rater
from ratings.models import Rating, RatingPoint, Recompute
from scoresheet import editing, services
from tarot.rating import Match
from tests.data import SEED_HANDS

#: A five-seat sheet: called partners, a hand everybody passed, a failed contract.
FIVE = [
    {
        "dealer": "Emil",
        "taker": "Anna",
        "partner": "Carl",
        "contract": "garde",
        "bouts": 2,
        "points": 56,
    },
    {"dealer": "Anna", "taker": "Bert", "contract": "prise", "bouts": 1, "points": 40},
    {"dealer": "Bert", "contract": None},
    {
        "dealer": "Carl",
        "taker": "Dora",
        "partner": "Dora",
        "contract": "garde",
        "bouts": 3,
        "points": 50,
    },
    {
        "dealer": "Dora",
        "taker": "Emil",
        "partner": "Bert",
        "contract": "prise",
        "bouts": 0,
        "points": 30,
    },
]


def ratings_of(key):
    return {
        r.player.name: (r.mu, r.sigma, r.hands)
        for r in Rating.objects.filter(scope=key).select_related("player")
    }


def history_of(key):
    return sorted(
        RatingPoint.objects.filter(scope=key).values_list(
            "player_id", "sheet_id", "date", "mu", "sigma", "hands"
        )
    )


def assert_as_from_scratch(club):
    """Every scope of the club as kept equals the ledger rated again from scratch
    (ratings and history alike); returns the club scope's ratings."""
    keys = scopes.of_club(club.pk)
    kept = {key: (ratings_of(key), history_of(key)) for key in keys}
    for key in keys:
        keeping.rerate(key)
    assert {key: (ratings_of(key), history_of(key)) for key in keys} == kept
    return kept[scopes.club(club.pk)][0]


def by_hand(matches):
    """The same matches given to the model directly (``compute.Rater``): name → (μ, σ,
    hands)."""
    rater = Rater()
    for teams, ranks in matches:
        rater.rate(Match(teams, tuple(ranks)))
    return {name: (s.mu, s.sigma, s.hands) for name in rater.players() for s in [rater.get(name)]}


def test_a_hand_made_sheet_rates_as_the_model_does(make_sheet, scorer, club):
    sheet = make_sheet(5)
    for data in FIVE:
        services.record_hand(sheet, data, actor=scorer)
    # the matches, by hand: attack first, ranked by the contract; the passed hand rates
    # nobody; Dora called herself (alone against four); Emil and Bert fail
    matches = [
        ((("Anna", "Carl"), ("Bert", "Dora", "Emil")), [0, 1]),
        ((("Bert",), ("Anna", "Carl", "Dora", "Emil")), [1, 0]),
        ((("Dora",), ("Anna", "Bert", "Carl", "Emil")), [0, 1]),
        ((("Bert", "Emil"), ("Anna", "Carl", "Dora")), [1, 0]),
    ]
    expected = by_hand(matches)
    got = ratings_of(scopes.club(club.pk))
    assert got.keys() == expected.keys()
    for name, (mu, sigma, hands) in expected.items():
        assert got[name] == (pytest.approx(mu, abs=0), pytest.approx(sigma, abs=0), hands)
    assert ratings_of(scopes.season(sheet.season_id)) == got


def test_a_player_who_sits_out_keeps_their_rating(make_sheet, scorer, club):
    sheet = make_sheet(5)
    services.record_hand(sheet, FIVE[0], actor=scorer)
    key = scopes.club(club.pk)
    before = ratings_of(key)
    services.record_hand(sheet, {**SEED_HANDS[0], "sits_out": "Emil"}, actor=scorer)
    after = ratings_of(key)
    assert after["Emil"] == before["Emil"]
    assert all(after[name] != before[name] for name in ("Anna", "Bert", "Carl", "Dora"))
    # nor does a hand everybody passed move anyone
    services.record_hand(sheet, {"dealer": "Anna", "contract": None}, actor=scorer)
    assert ratings_of(key) == after


def two_sheets(make_sheet, scorer):
    """The seed hands on a sheet, then in reverse on a later one."""
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    later = make_sheet(4, date=datetime.date(2026, 4, 1))
    for data in SEED_HANDS[::-1]:
        services.record_hand(later, data, actor=scorer)
    return sheet, later


def test_a_correction_of_hand_1_rates_as_the_corrected_ledger_from_scratch(
    make_sheet, scorer, club
):
    sheet, _later = two_sheets(make_sheet, scorer)
    before = assert_as_from_scratch(club)
    first = sheet.hands.get(number=1)
    services.correct_hand(first, {**SEED_HANDS[0], "points": 30}, actor=scorer)
    after = assert_as_from_scratch(club)
    assert after.keys() == before.keys() and after != before


def test_delete_restore_and_a_sheet_deleted_rate_as_from_scratch(make_sheet, scorer, manager, club):
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    later = make_sheet(4, date=datetime.date(2026, 4, 1))
    services.record_hand(later, SEED_HANDS[2], actor=scorer)
    key = scopes.club(club.pk)
    whole = ratings_of(key)
    services.delete_hand(sheet.hands.get(number=2), actor=scorer)
    deleted = assert_as_from_scratch(club)
    assert deleted != whole
    services.restore_hand(sheet.hands.get(number=2), actor=scorer)
    assert assert_as_from_scratch(club) == whole
    editing.delete_sheet(later, actor=manager)
    without = assert_as_from_scratch(club)
    editing.restore_sheet(later, actor=manager)
    assert assert_as_from_scratch(club) == whole
    editing.delete_sheet(later, actor=manager)
    assert assert_as_from_scratch(club) == without


def test_a_hand_entered_on_an_earlier_sheet_rates_in_date_order(make_sheet, scorer, club):
    early = make_sheet(4, date=datetime.date(2026, 3, 1))
    late = make_sheet(4, date=datetime.date(2026, 3, 20))
    services.record_hand(late, SEED_HANDS[0], actor=scorer)
    services.record_hand(early, SEED_HANDS[1], actor=scorer)  # after, but dated before
    assert_as_from_scratch(club)
    services.record_hand(late, SEED_HANDS[2], actor=scorer)
    services.record_hand(early, SEED_HANDS[3], actor=scorer)
    assert_as_from_scratch(club)


#: What a random step does: enter a hand on a sheet (by index), correct, delete or
#: restore one of its hands.
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["record", "record", "record", "correct", "delete", "restore"]),
        st.integers(0, 2),
        st.integers(0, len(SEED_HANDS) - 1),
    ),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_whatever_the_writes_the_ratings_are_the_ledger_rated_from_scratch(
    make_sheet, scorer, club, steps
):
    """Hands entered on sheets of three dates in any order, corrected, deleted and
    restored: the ratings and history kept equal the ledger rated from scratch."""
    assert_as_from_scratch(club)  # the earlier examples' sheets are still there
    day = datetime.date(2026, 5, 1)
    sheets = [make_sheet(4, date=day + datetime.timedelta(days=d)) for d in (7, 0, 3)]
    for action, which, data in steps:
        sheet = sheets[which]
        hands = list(sheet.hands.order_by("number"))
        if action == "record":
            services.record_hand(sheet, SEED_HANDS[data], actor=scorer)
        elif hands:
            hand = hands[data % len(hands)]
            if action == "correct" and not hand.is_deleted:
                services.correct_hand(hand, SEED_HANDS[(data + 1) % len(SEED_HANDS)], actor=scorer)
            elif action == "delete" and not hand.is_deleted:
                services.delete_hand(hand, actor=scorer)
            elif action == "restore" and hand.is_deleted:
                services.restore_hand(hand, actor=scorer)
    assert_as_from_scratch(club)


# ---------------------------------------------------------------- the hand post's cost


def test_the_next_hand_of_a_sheet_costs_one_statement_for_the_ratings(
    make_sheet, scorer, club, django_assert_num_queries
):
    """The ratings' share of a hand post: the sheet's first hand reads and writes (and
    moves the rating before into the history), every next one a single UPDATE: the
    post with the ratings is one query more than without (SQLite and PostgreSQL)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoresheet.signals import hand_recorded

    sheet = make_sheet(4)
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)

    def post(data):
        with CaptureQueriesContext(connection) as captured:
            services.record_hand(sheet, data, actor=scorer)
        return len(captured.captured_queries)

    kept = post(SEED_HANDS[1])
    hand_recorded.disconnect(keeping._recorded)
    try:
        without = post(SEED_HANDS[2])
    finally:
        hand_recorded.connect(keeping._recorded)
    keeping.rerate(scopes.club(club.pk))  # (the hand posted without them)
    keeping.rerate(scopes.season(sheet.season_id))
    assert kept == without + 1
    # after a re-rating, the rows are not as this process last wrote them: read and write
    assert post(SEED_HANDS[3]) == without + 2
    assert post(SEED_HANDS[4]) == without + 1
    assert_as_from_scratch(club)


def test_a_row_written_since_sends_the_hand_to_the_read_and_write(make_sheet, scorer, club):
    """The one-statement write checks every row still holds what this process wrote:
    one that does not (another process wrote it) puts back the rows already written,
    and the hand is rated from the rows as they are."""
    from ratings.compute import Rater, State, match_of
    from scoresheet.models import ScoreRow

    sheet = make_sheet(4)
    for data in SEED_HANDS[:2]:
        services.record_hand(sheet, data, actor=scorer)
    key = scopes.club(club.pk)
    anna = sheet.seats.get(player__name="Anna").player_id
    # another process moved Anna's club rating; this process's memory still has the old
    Rating.objects.filter(scope=key, player_id=anna).update(mu=F("mu") + 1)
    rows = {r.player_id: State(r.mu, r.sigma, r.hands) for r in Rating.objects.filter(scope=key)}
    season_key = scopes.season(sheet.season_id)
    season_rows = {
        r.player_id: (r.mu, r.sigma, r.hands) for r in Rating.objects.filter(scope=season_key)
    }
    services.record_hand(sheet, SEED_HANDS[2], actor=scorer)
    seats = ScoreRow.objects.filter(sheet=sheet, number=3).order_by("position")
    match = match_of(
        keeping.kind_of(sheet.rules),
        [(r.player_id, r.role, r.made, r.margin, r.score) for r in seats],
    )
    rater = Rater(rows)
    rater.rate(match)
    got = {r.player_id: (r.mu, r.sigma, r.hands) for r in Rating.objects.filter(scope=key)}
    assert got == {pk: (s.mu, s.sigma, s.hands) for pk in rows for s in [rater.get(pk)]}
    # the season's rows (written by the same statement, then put back) moved once, too
    rater = Rater({pk: State(*v) for pk, v in season_rows.items()})
    rater.rate(match)
    got = {r.player_id: (r.mu, r.sigma, r.hands) for r in Rating.objects.filter(scope=season_key)}
    assert got == {pk: (s.mu, s.sigma, s.hands) for pk in season_rows for s in [rater.get(pk)]}


def test_a_large_correction_is_rated_again_in_the_background(
    make_sheet, scorer, club, settings, django_capture_on_commit_callbacks
):
    """Over ``RATINGS_BACKGROUND_HANDS`` hands to rate, a correction leaves the ratings as
    they were and a ``Recompute`` row naming the scope from the corrected sheet; the
    task, once the write commits, rates it as the corrected ledger from scratch."""
    sheet, _later = two_sheets(make_sheet, scorer)
    key = scopes.club(club.pk)
    before = ratings_of(key)
    settings.RATINGS_BACKGROUND_HANDS = len(SEED_HANDS)  # the two sheets hold more
    with django_capture_on_commit_callbacks() as queued:
        services.correct_hand(
            sheet.hands.get(number=1), {**SEED_HANDS[0], "points": 30}, actor=scorer
        )
    waiting = {r.scope: (r.start_date, r.start_sheet) for r in Recompute.objects.all()}
    assert waiting == {
        key: (sheet.date, sheet.pk),
        scopes.season(sheet.season_id): (sheet.date, sheet.pk),
    }
    assert ratings_of(key) == before  # not yet: the pages say "being recomputed"
    for callback in queued:
        callback()  # the tests' task backend runs the task at once
    assert not Recompute.objects.exists()
    after = assert_as_from_scratch(club)
    assert after != before


def test_a_small_correction_is_rated_again_at_once(make_sheet, scorer, club, settings):
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    key = scopes.club(club.pk)
    before = ratings_of(key)
    settings.RATINGS_BACKGROUND_HANDS = len(SEED_HANDS)  # exactly the sheet's hands
    services.correct_hand(sheet.hands.get(number=1), {**SEED_HANDS[0], "points": 30}, actor=scorer)
    assert not Recompute.objects.exists()
    assert ratings_of(key) != before
    assert_as_from_scratch(club)


def test_a_deferred_scope_keeps_the_earliest_start(make_sheet, scorer, club):
    sheet = make_sheet(4)
    later = make_sheet(4, date=datetime.date(2026, 4, 1))
    key = scopes.club(club.pk)
    keeping.defer(key, (later.date, later.pk))
    keeping.defer(key, (sheet.date, sheet.pk))
    keeping.defer(key, (later.date, later.pk))
    assert list(Recompute.objects.values_list("start_date", "start_sheet")) == [
        (sheet.date, sheet.pk)
    ]
    keeping.defer(key)  # from scratch covers every start
    keeping.defer(key, (sheet.date, sheet.pk))
    assert list(Recompute.objects.values_list("start_date", "start_sheet")) == [(None, None)]
    assert keeping.recompute.call(key) == 0  # no hands: nothing rated, the row gone
    assert not Recompute.objects.exists()


def test_the_pages_say_the_ratings_are_being_recomputed(client, make_sheet, scorer, club):
    """While a ``Recompute`` row names the scope, the club's ratings page, its standings
    and a player's statistics say so; once it is gone, they do not."""
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    player = sheet.seats.first().player
    pages = [
        f"/clubs/{club.slug}/ratings/",
        f"/clubs/{club.slug}/standings/",
        f"/clubs/{club.slug}/players/{player.pk}/",
    ]
    client.force_login(scorer)
    for page in pages:
        assert b"data-ratings-recomputing" not in client.get(page).content, page
    keeping.defer(scopes.club(club.pk), (sheet.date, sheet.pk))
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200
        assert b"data-ratings-recomputing" in response.content, page
