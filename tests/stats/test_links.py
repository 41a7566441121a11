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
