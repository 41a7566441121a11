"""Player names are user input: every page that shows them must escape them."""

import datetime

import pytest
from django.urls import reverse

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services

EVIL = '<img src=x onerror="alert(1)">'


@pytest.fixture
def evil_sheet(db, django_user_model):
    club = Club.objects.create(name="Club <b>bold</b>", slug="c")
    season = Season.objects.create(club=club, name="<i>S</i>", start_date=datetime.date(2026, 1, 1))
    names = [EVIL, "Bert", "Carl", "Dora"]
    players = [Player.objects.create(club=club, name=n) for n in names]
    sheet = services.create_sheet(
        season=season,
        players=players,
        date=season.start_date,
        table="<script>x</script>",
        rules={"preset": "fft", "misere": 10},
    )
    services.record_hand(
        sheet,
        {
            "dealer": "Bert",
            "taker": EVIL,
            "contract": "garde",
            "bouts": 2,
            "points": 50,
            "miseres": ["Carl"],
            "poignees": [{"player": EVIL, "size": "single"}],
        },
    )
    services.record_hand(
        sheet,
        {
            "dealer": "Carl",
            "taker": "Bert",
            "contract": "garde",
            "bouts": 2,
            "points": 50,
            "miseres": [EVIL],
        },
    )
    user = django_user_model.objects.create_user("s", password="pw-escape-1")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    return club, season, sheet, players[0], user


def test_names_are_escaped_everywhere(client, evil_sheet):
    club, season, sheet, evil, user = evil_sheet
    client.force_login(user)
    urls = [
        reverse("home"),
        reverse("clubs:detail", args=[club.slug]),
        reverse("scoresheet:sheets", args=[club.slug]),
        reverse("scoresheet:sheet", args=[club.slug, sheet.pk]),
        reverse("scoresheet:hand", args=[club.slug, sheet.pk, 1]),
        reverse("scoresheet:hand", args=[club.slug, sheet.pk, 2]),
        reverse("scoresheet:hand_create", args=[club.slug, sheet.pk]),
        reverse("scoresheet:hand_edit", args=[club.slug, sheet.pk, 1]),
        reverse("standings:club", args=[club.slug]),
        reverse("standings:season", args=[club.slug, season.pk]),
        reverse("stats:player", args=[club.slug, evil.pk]),
        reverse("stats:player_season", args=[club.slug, evil.pk, season.pk]),
        reverse("stats:season", args=[club.slug, season.pk]),
    ]
    for url in urls:
        page = client.get(url).content.decode()
        assert EVIL not in page, url
        assert "<b>bold</b>" not in page and "<script>x</script>" not in page, url
        assert "<i>S</i>" not in page, url
    # the name does show, escaped, where it belongs
    page = client.get(reverse("scoresheet:sheet", args=[club.slug, sheet.pk])).content.decode()
    assert "&lt;img src=x" in page


def test_live_preview_html_is_escaped(client, evil_sheet):
    club, season, sheet, evil, user = evil_sheet
    client.force_login(user)
    page = client.get(reverse("scoresheet:hand_create", args=[club.slug, sheet.pk])).content
    assert EVIL.encode() not in page
    response = client.post(
        reverse("scoresheet:hand_preview", args=[club.slug, sheet.pk]),
        {"taker": "0", "contract": "garde", "bouts": "2", "points": "50", "dealer": "1"},
    )
    assert response.status_code == 200
    html = response.json()["html"]
    assert "&lt;img src=x" in html  # the taker's name is in the preview, escaped
    assert EVIL not in html
