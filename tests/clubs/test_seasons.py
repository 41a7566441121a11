"""Seasons as the pages and imports look them up: newest first, the one covering a date."""

import datetime

from clubs.models import Season, current_season


def test_current_season(club):
    assert current_season(club) is None
    old = Season.objects.create(
        club=club,
        name="old",
        start_date=datetime.date(2024, 1, 1),
        end_date=datetime.date(2024, 12, 31),
    )
    later = Season.objects.create(club=club, name="later", start_date=datetime.date(2027, 1, 1))
    # nothing covers the day: the latest season
    assert current_season(club, today=datetime.date(2025, 6, 1)) == later
    assert current_season(club, today=datetime.date(2024, 6, 1)) == old
    open_ended = Season.objects.create(club=club, name="now", start_date=datetime.date(2025, 1, 1))
    assert current_season(club, today=datetime.date(2025, 6, 1)) == open_ended


def test_seasons_already_fetched_give_the_same_answer_without_a_query(
    club, django_assert_num_queries
):
    Season.objects.create(club=club, name="old", start_date=datetime.date(2024, 1, 1))
    Season.objects.create(club=club, name="new", start_date=datetime.date(2025, 1, 1))
    seasons = list(club.seasons.newest_first())
    assert [s.name for s in seasons] == ["new", "old"]
    for day in (datetime.date(2023, 6, 1), datetime.date(2024, 6, 1), datetime.date(2025, 6, 1)):
        with django_assert_num_queries(1):
            expected = club.seasons.covering(day)
        with django_assert_num_queries(0):
            assert current_season(club, today=day, seasons=seasons) == expected
    assert club.seasons.covering(datetime.date(2024, 6, 1)).name == "old"
    # before every season: the newest one
    assert club.seasons.covering(datetime.date(2023, 6, 1)).name == "new"
