"""Bulk writes rate once: an import (the command's ``import_sheets``, the upload's
``run``) tells the ratings once, from the earliest sheet it wrote, after its last
line, not once a sheet; above ``RATINGS_BACKGROUND_HANDS`` hands, in the background.
And the data migration that rated every scope again with the model of side means."""

import datetime
import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.db import connection, transaction

from clubs.models import Club, Season
from ratings import keeping, scopes
from ratings.models import Rating, Recompute
from scoresheet import importing, services
from scoresheet.signals import ledger_changed
from tests.data import SEED_HANDS
from tests.ratings.test_keeping import assert_as_from_scratch, ratings_of

FOUR = ["Anna", "Bert", "Carl", "Dora"]


def lines(count=6):
    """``count`` sheets, in dates out of order (the earliest is the third line)."""
    days = [datetime.date(2026, 3, 10 + (i * 7) % count) for i in range(count)]
    return [
        json.dumps({"players": FOUR, "hands": SEED_HANDS, "date": day.isoformat()}) for day in days
    ]


@pytest.fixture
def heard():
    """Every ``ledger_changed`` sent: (club id, the sheets' ids)."""
    sent = []

    def listen(sender, club_id, sheets=None, **kwargs):
        sent.append((club_id, None if sheets is None else sorted(s.pk for s in sheets)))

    ledger_changed.connect(listen)
    yield sent
    ledger_changed.disconnect(listen)


def test_an_import_rates_once_from_its_earliest_sheet(club, season, heard, monkeypatch):
    started, reads = [], []

    class Counted(keeping._Rerating):
        def __init__(self, key, start):
            started.append((key, start))
            super().__init__(key, start)

    monkeypatch.setattr(keeping, "_Rerating", Counted)
    real = keeping.rate_rows
    monkeypatch.setattr(keeping, "rate_rows", lambda *a, **k: reads.append(1) or real(*a, **k))
    results = list(importing.import_sheets(club, lines(), season=season))
    assert all(r.ok for r in results)
    written = sorted(r.sheet.pk for r in results)
    assert heard == [(club.pk, written)]  # once, every sheet in it
    earliest = min(results, key=lambda r: (r.sheet.date, r.sheet.pk)).sheet
    assert sorted(started) == [
        (scopes.club(club.pk), (earliest.date, earliest.pk)),
        (scopes.season(season.pk), (earliest.date, earliest.pk)),
    ]
    assert len(reads) == 1  # the club's rows read once for both scopes
    assert_as_from_scratch(club)


def test_a_refused_line_and_an_import_stopped_early_still_rate_what_was_written(
    club, season, heard
):
    bad = json.dumps({"players": FOUR, "hands": [dict(SEED_HANDS[0], points=95)]})
    results = list(importing.import_sheets(club, [bad, *lines(3)], season=season))
    assert [r.ok for r in results] == [False, True, True, True]
    assert heard == [(club.pk, sorted(r.sheet.pk for r in results[1:]))]
    heard.clear()
    stream = importing.import_sheets(club, lines(4), season=season)
    first = next(stream)
    stream.close()  # the caller stopped reading
    assert first.ok and heard and first.sheet.pk in heard[0][1]
    assert_as_from_scratch(club)


def test_an_upload_rates_once(club, season, heard):
    from transfer import upload

    found = upload.chunks("\n".join(lines(4)), "sheets.jsonl")
    outcomes = upload.run(club, found, season=season)
    assert all(o.ok for o in outcomes) and len(heard) == 1 and len(heard[0][1]) == 4
    heard.clear()
    upload.preview(club, found, season=season)  # rolled back: nothing to rate
    assert heard == []
    assert_as_from_scratch(club)


def test_a_large_import_is_rated_in_the_background(
    club, season, settings, django_capture_on_commit_callbacks
):
    settings.RATINGS_BACKGROUND_HANDS = 2 * len(SEED_HANDS)  # less than the 6 sheets
    with django_capture_on_commit_callbacks() as queued:
        results = list(importing.import_sheets(club, lines(), season=season))
    earliest = min(results, key=lambda r: (r.sheet.date, r.sheet.pk)).sheet
    waiting = {r.scope: (r.start_date, r.start_sheet) for r in Recompute.objects.all()}
    assert waiting == {
        scopes.club(club.pk): (earliest.date, earliest.pk),
        scopes.season(season.pk): (earliest.date, earliest.pk),
    }
    assert not Rating.objects.exists()  # not yet: the pages say "being recomputed"
    for callback in queued:
        callback()  # the tests' task backend runs the task at once
    assert not Recompute.objects.exists() and Rating.objects.exists()
    assert_as_from_scratch(club)


def test_the_migration_rates_every_scope_again(make_sheet, scorer, club, settings):
    """Ratings kept by another model (here: spoiled by hand) are rated again by the
    migration: at once for a small scope, in the background above the threshold."""
    migration = importlib.import_module("ratings.migrations.0003_rerate_with_side_means")
    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    key = scopes.club(club.pk)
    right = ratings_of(key)
    Rating.objects.update(mu=0.0, sigma=1.0, ordinal=0.0)
    migration.rerate_every_scope(django_apps, connection.schema_editor())
    assert ratings_of(key) == right and not Recompute.objects.exists()
    Rating.objects.update(mu=0.0)
    settings.RATINGS_BACKGROUND_HANDS = 1
    migration.rerate_every_scope(django_apps, connection.schema_editor())
    assert set(Recompute.objects.values_list("scope", flat=True)) == {
        key,
        scopes.season(sheet.season_id),
    }


def test_the_migration_has_nothing_to_do_on_a_new_database(db):
    migration = importlib.import_module("ratings.migrations.0003_rerate_with_side_means")
    migration.rerate_every_scope(django_apps, connection.schema_editor())
    assert not Recompute.objects.exists()
    assert Club.objects.count() == 0 and Season.objects.count() == 0


def test_the_club_and_its_seasons_rated_over_one_read_are_each_rated_from_scratch(
    club, season, make_sheet, scorer
):
    """Sheets of two seasons, some rated before the import, others imported out of
    order, one into the later season only: every scope as the ledger rated from
    scratch, the club's and each season's, whether from a start or the whole club."""
    autumn = Season.objects.create(club=club, name="2026-27", start_date=datetime.date(2026, 9, 1))
    before = make_sheet(4, date=datetime.date(2026, 3, 5))
    for data in SEED_HANDS[:3]:
        services.record_hand(before, data, actor=scorer)
    days = ["2026-10-04", "2026-03-20", "2026-09-15", "2026-03-07"]
    text = [
        json.dumps({"players": FOUR[::-1] if i % 2 else FOUR, "hands": SEED_HANDS, "date": day})
        for i, day in enumerate(days)
    ]
    results = list(importing.import_sheets(club, text))
    assert all(r.ok for r in results), [r.message for r in results]
    assert {r.sheet.season_id for r in results} == {season.pk, autumn.pk}
    assert_as_from_scratch(club)
    # only the later season's sheets: the club from there, the spring season untouched
    spring = ratings_of(scopes.season(season.pk))
    more = json.dumps({"players": FOUR, "hands": SEED_HANDS[:2], "date": "2026-09-20"})
    assert all(r.ok for r in importing.import_sheets(club, [more]))
    assert ratings_of(scopes.season(season.pk)) == spring
    assert_as_from_scratch(club)
    # a spring sheet and an autumn one: the club from spring, the autumn season from its
    # sheet (its sheet of 15 September, between the two, stays as it was rated)
    both = [
        json.dumps({"players": FOUR, "hands": SEED_HANDS[1:4], "date": "2026-03-25"}),
        json.dumps({"players": FOUR[::-1], "hands": SEED_HANDS[2:], "date": "2026-09-25"}),
    ]
    assert all(r.ok for r in importing.import_sheets(club, both))
    assert_as_from_scratch(club)
    # the whole club (a restore's re-rating): the same
    kept = {key: ratings_of(key) for key in scopes.of_club(club.pk)}
    Rating.objects.update(mu=0.0)
    keeping.rerate_club(club.pk)
    assert {key: ratings_of(key) for key in scopes.of_club(club.pk)} == kept


@pytest.mark.django_db(transaction=True)
def test_several_writers_rate_once_at_the_end(heard):
    """Two writer processes (PostgreSQL): the sheets are written in the children, the
    ratings told once, in the importing process, after the last."""
    if connection.vendor != "postgresql":
        pytest.skip("several writers need PostgreSQL (SQLite writes one at a time)")
    club = Club.objects.create(name="Club", slug="club")
    Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    results = list(importing.import_sheets(club, lines(8), writers=2))
    assert all(r.ok for r in results)
    assert heard == [(club.pk, sorted(r.sheet.pk for r in results))]
    assert Rating.objects.filter(scope=scopes.club(club.pk)).count() == len(FOUR)
    with transaction.atomic():
        assert_as_from_scratch(club)
