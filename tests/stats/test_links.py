"""The statistics pages are reached from the pages players read."""

from django.urls import reverse

from scoresheet import services
from tests.data import SEED_HANDS


def test_pages_link_to_player_and_season_statistics(client, make_sheet, players, season, club):
    sheet = make_sheet()
    for data in SEED_HANDS:
        services.record_hand(sheet, data)
    anna = players[0]
    season_stats = reverse("stats:player_season", args=[club.slug, anna.pk, season.pk])

    page = client.get(reverse("scoresheet:sheet", args=[club.slug, sheet.pk])).content.decode()
    assert f'href="{season_stats}"' in page

    page = client.get(reverse("standings:season", args=[club.slug, season.pk])).content.decode()
    assert f'href="{season_stats}"' in page
    page = client.get(reverse("standings:club", args=[club.slug])).content.decode()
    assert f'href="{reverse("stats:player", args=[club.slug, anna.pk])}"' in page

    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert f'href="{reverse("stats:season", args=[club.slug, season.pk])}"' in page
    assert f'href="{reverse("standings:club", args=[club.slug])}"' in page


def test_chart_dates_are_abbreviated_in_the_page_language():
    """French chart labels read "4 sept.", not "4 Sep"."""
    import datetime

    from django.utils import translation

    from stats.views import _short_date

    day = datetime.date(2026, 9, 4)
    with translation.override("fr"):
        assert _short_date(day) == "4 sept."
    with translation.override("en"):
        assert _short_date(day) == "4 Sept."
