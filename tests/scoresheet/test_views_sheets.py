"""The club's sheets: list, opening a sheet, the feuille de marque, the JSON export."""

import datetime
import json
import re
from decimal import Decimal
from urllib.parse import urljoin

import pytest
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.importing import import_sheet_line
from scoresheet.models import ScoreRow, Sheet
from tests.data import RULES_POST, SEED_HANDS, SEED_TOTALS

MINUS = "\u2212"


def url(name, *args):
    return reverse(f"scoresheet:{name}", args=args)


def totals(sheet):
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    return {r["player__name"]: r["t"] for r in rows}


def strip_totals(html):
    """The totals above the sheet: {name: text}."""
    found = re.findall(
        r'data-player="([^"]+)">.*?class="totals-score[^"]*"[^>]*>([^<]+)</span>', html, re.S
    )
    return dict(found)


def links(html, page):
    """Every link of ``html`` (the page at ``page``), resolved as a browser does."""
    return {urljoin(page, href) for href in re.findall(r'<a href="([^"]+)"', html)}


@pytest.fixture
def member(django_user_model, club):
    user = django_user_model.objects.create_user("member", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


@pytest.fixture
def other_club(db):
    club = Club.objects.create(name="Les Excusés", slug="excuses")
    Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
    return club


# ---------------------------------------------------------------- the sheet page


def test_sheet_page_shows_the_feuille_de_marque(client, seeded):
    response = client.get(url("sheet", "rive", seeded.pk))
    assert response.status_code == 200
    html = response.content.decode()
    assert strip_totals(html) == {
        "Anna": "+108",
        "Bert": "+172",
        "Carl": f"{MINUS}380",
        "Dora": "+100",
    }
    assert "Club de la Rive" in html and "FFT" in html and "2026" in html
    # one row per hand, each with its explanation one tap away
    assert html.count('class="hand-row') == 5
    assert html.count('<details class="explain">') == 5
    assert "(25 + 15) × 2 = 80 per defender; taker +240" in html
    # the running totals under the scores end on the totals; every row sums to zero
    assert html.count("sums to zero") >= 6
    assert "≠ 0" not in html
    # hand 5 was dealt by Dora: Anna deals next
    assert "Next dealer: <strong>Anna</strong>" in html
    # hand links to the hand pages (relative to the sheet's: shorter)
    page = url("sheet", "rive", seeded.pk)
    assert {url("hand", "rive", seeded.pk, n) for n in range(1, 6)} <= links(html, page)


def test_sheet_page_poignee_petit_au_bout_shown_compactly(client, seeded):
    html = client.get(url("sheet", "rive", seeded.pk)).content.decode()
    assert "petit au bout: attack" in html
    assert "petit au bout: defence" in html
    assert "single poignée: Anna" in html


def test_the_made_and_failed_marks_are_read_out_in_the_pages_language(client, seeded):
    made = ScoreRow.objects.filter(sheet=seeded, role="taker", made=True).exists()
    failed = ScoreRow.objects.filter(sheet=seeded, role="taker", made=False).exists()
    assert made and failed  # the seed has both
    url = reverse("scoresheet:sheet", args=[seeded.club.slug, seeded.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'aria-label="made"' in english and 'aria-label="failed"' in english
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'aria-label="faite"' in french and 'aria-label="chutée"' in french


def test_enter_a_hand_only_for_scorers(client, seeded, scorer, member):
    create = url("hand_create", "rive", seeded.pk)
    assert create not in client.get(url("sheet", "rive", seeded.pk)).content.decode()
    client.force_login(member)
    assert create not in client.get(url("sheet", "rive", seeded.pk)).content.decode()
    client.force_login(scorer)
    html = client.get(url("sheet", "rive", seeded.pk)).content.decode()
    assert f'href="{create}"' in html


def test_deleted_hand_struck_through_and_not_counted(client, seeded, scorer):
    services.delete_hand(seeded.hands.get(number=2), actor=scorer)
    html = client.get(url("sheet", "rive", seeded.pk)).content.decode()
    row = re.search(r'<tr id="hand-2" class="([^"]+)"', html)
    assert row and "hand-deleted" in row.group(1)
    assert "1 deleted hand is not counted." in html
    expected = {k: Decimal(v) for k, v in totals(seeded).items()}
    shown = strip_totals(html)
    assert {k: Decimal(v.replace(MINUS, "-")) for k, v in shown.items()} == expected
    # the deleted hand keeps its link and its folded details, but no explanation
    assert url("hand", "rive", seeded.pk, 2) in links(html, url("sheet", "rive", seeded.pk))
    assert html.count('<details class="explain">') == 5
    assert html.count('<p class="explanation" data-explanation>') == 4


def test_next_dealer_skips_deleted_hands_and_starts_at_first_seat(client, make_sheet, scorer):
    sheet = make_sheet()
    html = client.get(url("sheet", "rive", sheet.pk)).content.decode()
    assert "Next dealer: <strong>Anna</strong>" in html
    assert "No hand yet." in html
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)  # Dora deals
    second = services.record_hand(sheet, SEED_HANDS[1], actor=scorer)  # Anna deals
    services.delete_hand(second, actor=scorer)
    html = client.get(url("sheet", "rive", sheet.pk)).content.decode()
    assert "Next dealer: <strong>Anna</strong>" in html


def test_mouches_sheet_shows_the_pools_and_sums_with_them(client, make_sheet, scorer):
    sheet = make_sheet(rules={"preset": "mouches"})
    services.record_hand(sheet, {"dealer": "Anna", "taker": None}, actor=scorer)
    services.record_hand(
        sheet,
        {"dealer": "Bert", "taker": "Carl", "contract": "garde", "bouts": 2, "points": 30},
        actor=scorer,
    )
    response = client.get(url("sheet", "rive", sheet.pk))
    html = response.content.decode()
    pools = response.context["pools"]
    assert pools > 0
    assert sum(response.context["totals"]) + pools == 0
    assert ">Pools<" in html
    assert "≠ 0" not in html
    assert all(line.balanced for line in response.context["lines"])


def test_five_players_show_partner_and_half_points(client, make_sheet, scorer):
    sheet = make_sheet(5)
    services.record_hand(
        sheet,
        {
            "dealer": "Emil",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": Decimal("45.5"),
        },
        actor=scorer,
    )
    html = client.get(url("sheet", "rive", sheet.pk)).content.decode()
    assert ">Partner<" in html and ">Carl<" in html
    assert "45.5" in html


@pytest.mark.parametrize("hands", [2, 30])
def test_sheet_page_query_count_is_constant(
    client, make_sheet, scorer, hands, django_assert_num_queries
):
    sheet = make_sheet()
    for i in range(hands):
        services.record_hand(sheet, SEED_HANDS[i % len(SEED_HANDS)], actor=scorer)
    services.delete_hand(sheet.hands.get(number=2), actor=scorer)
    # club, sheet (with its season), seats with players, hands, score rows
    with django_assert_num_queries(5):
        response = client.get(url("sheet", "rive", sheet.pk))
    assert response.status_code == 200
    client.force_login(scorer)
    # + the session and the user (the scorer's membership comes with the club)
    with django_assert_num_queries(7):
        assert client.get(url("sheet", "rive", sheet.pk)).status_code == 200


# ---------------------------------------------------------------- the list


def test_sheet_list_table_and_counts(client, seeded, make_sheet):
    make_sheet(5, table="2")
    response = client.get(url("sheets", "rive"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Anna, Bert, Carl, Dora" in html
    assert "Anna, Bert, Carl, Dora, Emil" in html
    rows = {r.pk: r for r in response.context["table"].data.data}
    assert rows[seeded.pk].hand_count == 5 and rows[seeded.pk].seat_count == 4
    assert url("sheet", "rive", seeded.pk) in html


def test_sheet_list_counts_live_hands_only(client, seeded, scorer):
    services.delete_hand(seeded.hands.get(number=1), actor=scorer)
    response = client.get(url("sheets", "rive"))
    row = next(iter(response.context["table"].data.data))
    assert row.hand_count == 4


def test_sheet_list_filters(client, club, season, make_sheet):
    old = Season.objects.create(club=club, name="2025", start_date=datetime.date(2025, 1, 1))
    a = make_sheet(4, date=datetime.date(2026, 3, 1), table="A")
    b = make_sheet(5, date=datetime.date(2026, 4, 1), table="B")
    c = make_sheet(3, date=datetime.date(2026, 5, 1), table="C")
    c.season = old
    c.save()

    def shown(**params):
        response = client.get(url("sheets", "rive"), params)
        assert response.status_code == 200
        return {row.pk for row in response.context["table"].data.data}

    assert shown() == {a.pk, b.pk, c.pk}
    assert shown(players="5") == {b.pk}
    assert shown(date_from="2026-03-15") == {b.pk, c.pk}
    assert shown(date_from="2026-03-15", date_to="2026-04-30") == {b.pk}
    assert shown(season=old.pk) == {c.pk}
    # a season of another club is not a choice
    other = Club.objects.create(name="Autre", slug="autre")
    foreign = Season.objects.create(club=other, name="X", start_date=datetime.date(2026, 1, 1))
    response = client.get(url("sheets", "rive"), {"season": foreign.pk})
    assert response.context["filter"].form.errors


def test_sheet_list_paginates_with_constant_queries(
    client, make_sheet, django_assert_max_num_queries
):
    for day in range(1, 28):
        make_sheet(date=datetime.date(2026, 2, day))
    with django_assert_max_num_queries(5):  # club, count, page, prefetched seats, seasons
        response = client.get(url("sheets", "rive"))
    assert len(response.context["table"].page.object_list) == 25
    response = client.get(url("sheets", "rive"), {"page": 2})
    assert len(response.context["table"].page.object_list) == 2


def test_sheets_of_another_club_are_not_listed(client, seeded, other_club):
    assert client.get(url("sheets", "excuses")).context["table"].paginator.count == 0


# ---------------------------------------------------------------- permissions


def test_anonymous_reads_a_public_club(client, seeded):
    assert client.get(url("sheets", "rive")).status_code == 200
    assert client.get(url("sheet", "rive", seeded.pk)).status_code == 200
    assert client.get(url("sheet_export", "rive", seeded.pk)).status_code == 200


def test_members_only_club_is_404_for_anonymous_and_strangers(
    client, club, seeded, member, django_user_model
):
    club.is_public = False
    club.save()
    for name, args in [
        ("sheets", ("rive",)),
        ("sheet", ("rive", seeded.pk)),
        ("sheet_export", ("rive", seeded.pk)),
    ]:
        assert client.get(url(name, *args)).status_code == 404
    stranger = django_user_model.objects.create_user("stranger", password="a-long-passphrase-1")
    client.force_login(stranger)
    assert client.get(url("sheet", "rive", seeded.pk)).status_code == 404
    client.force_login(member)
    assert client.get(url("sheet", "rive", seeded.pk)).status_code == 200


def test_sheet_create_needs_a_login_then_the_scorer_role(client, club, season, member):
    response = client.get(url("sheet_create", "rive"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    client.force_login(member)
    assert client.get(url("sheet_create", "rive")).status_code == 403
    assert client.post(url("sheet_create", "rive"), {}).status_code == 403
    assert not Sheet.objects.exists()


def test_no_sheet_reachable_through_another_clubs_slug(client, seeded, other_club, scorer):
    Membership.objects.create(club=other_club, user=scorer, role=Role.SCORER)
    client.force_login(scorer)
    for name in ("sheet", "sheet_export"):
        assert client.get(url(name, "excuses", seeded.pk)).status_code == 404
    assert client.get(url("sheet", "nope", seeded.pk)).status_code == 404


# ---------------------------------------------------------------- creating a sheet


def post_sheet(client, **data):
    data.setdefault("season", Season.objects.get(club__slug="rive", name="2026").pk)
    data.setdefault("date", "2026-03-20")
    return client.post(url("sheet_create", "rive"), data)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def test_sheet_form_defaults_to_the_current_season_and_today(scorer_client, club, season):
    today = timezone.localdate()
    covering = Season.objects.create(
        club=club, name="now", start_date=today - datetime.timedelta(days=10), rules="fixed"
    )
    Season.objects.create(club=club, name="next", start_date=today + datetime.timedelta(days=30))
    response = scorer_client.get(url("sheet_create", "rive"))
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["season"] == covering.pk
    assert form.initial["date"] == today
    assert form.initial["preset"] == "fixed"
    html = response.content.decode()
    assert "now — Fixed scores: garde 80, 160, 320" in html


def test_create_sheet_with_players_and_new_names(scorer_client, club, season, players):
    anna, bert, carl = players[:3]
    response = post_sheet(
        scorer_client,
        table="3",
        seat_1=anna.pk,
        seat_3=carl.pk,
        seat_4=bert.pk,
        new_players="Zoé,  yann  ",
    )
    sheet = Sheet.objects.get()
    assert response.status_code == 302
    assert response.url == url("sheet", "rive", sheet.pk)
    seated = list(sheet.seats.order_by("position").values_list("player__name", flat=True))
    # new names take the empty seats in order: Zoé seat 2, then after the last seat
    assert seated == ["Anna", "Zoé", "Carl", "Bert", "yann"]
    assert sheet.rules == {"preset": "fft"}
    assert sheet.table == "3" and sheet.date == datetime.date(2026, 3, 20)
    assert Player.objects.filter(club=club, name="Zoé").exists()
    page = scorer_client.get(response.url).content.decode()
    for name in seated:
        assert name in page


def test_a_typed_name_the_club_knows_is_that_player(scorer_client, club, season, players):
    post_sheet(scorer_client, seat_1=players[0].pk, new_players="bert, carl, DORA")
    sheet = Sheet.objects.get()
    assert list(sheet.players.order_by("seats__position")) == players[:4]
    assert Player.objects.filter(club=club).count() == len(players)


def test_create_sheet_with_other_rules(scorer_client, season, players):
    post_sheet(
        scorer_client,
        **{f"seat_{i + 1}": p.pk for i, p in enumerate(players[:4])},
        custom_rules="on",
        preset="fft",
        rounding="10",
        poignee_single="10",
        poignee_double="20",
        poignee_triple="40",
        misere="10",
        five_player_split="two_to_one",
        ante="10",
        dealer_stake="5",
    )
    sheet = Sheet.objects.get()
    assert sheet.rules == {"preset": "fft", "rounding": 10, "misere": 10, "poignee": [10, 20, 40]}
    html = scorer_client.get(url("sheet", "rive", sheet.pk)).content.decode()
    assert "FFT: the official rules, rounded to 10, poignées 10/20/40, misère 10" in html


def test_unticked_custom_rules_keep_the_seasons_house_rules(scorer_client, season, players):
    season.rules = {"preset": "fft", "rounding": 10}
    season.save()
    # rule fields sent with nonsense are ignored while "other rules" is unticked
    post_sheet(
        scorer_client,
        seat_1=players[0].pk,
        seat_2=players[1].pk,
        seat_3=players[2].pk,
        preset="mouches",
        misere="oops",
    )
    assert Sheet.objects.get().rules == {"preset": "fft", "rounding": 10}


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"seat_1": 0}, None, "Seat at least 2 players."),
        ({"seat_1": 0, "seat_2": 0}, "seat_2", "Anna is seated twice."),
        ({"seat_1": 0, "new_players": "Zoé, zoé"}, "new_players", "A new name is typed twice."),
        (
            {"seat_1": 0, "seat_2": 1, "new_players": "A, B, C, D, E"},
            None,
            "A table seats at most 6 players; 7 are named.",
        ),
        ({"seat_1": 0, "seat_2": 1}, None, "Two players play the two-player rules"),
        (
            {
                "seat_1": 0,
                "seat_2": 1,
                "seat_3": 2,
                "seat_4": 3,
                "custom_rules": "on",
                "preset": "two_players",
            },
            None,
            "The two-player rules seat 2 players",
        ),
        (
            {"seat_1": 0, "seat_2": 1, "seat_3": 2, "custom_rules": "on", "misere": "-1"},
            "misere",
            "Ensure this value is greater than or equal to 0.",
        ),
        ({"seat_1": 0, "seat_2": 1, "seat_3": 2, "date": "14/03"}, "date", "Enter a valid date."),
    ],
)
def test_create_sheet_form_errors_store_nothing(
    scorer_client, club, season, players, data, field, message
):
    data = {k: players[v].pk if k.startswith("seat_") else v for k, v in data.items()}
    if data.get("custom_rules"):
        data = {**RULES_POST, **data}
    response = post_sheet(scorer_client, **data)
    assert response.status_code == 200
    form = response.context["form"]
    errors = form.errors.get(field or "__all__", [])
    assert any(message in e for e in errors), form.errors
    assert message.split(":")[0] in response.content.decode().replace("&#x27;", "'")
    assert not Sheet.objects.exists()
    assert Player.objects.filter(club=club).count() == len(players)


def test_ledger_error_shows_on_its_field_and_rolls_back_new_players(
    scorer_client, club, season, players, monkeypatch
):
    def refuse(**kwargs):
        raise services.LedgerError(
            "rules_invalid", "rules: rounding must be 1, 5 or 10", "rounding"
        )

    monkeypatch.setattr(services, "create_sheet", refuse)
    response = post_sheet(
        scorer_client, seat_1=players[0].pk, seat_2=players[1].pk, new_players="Zoé"
    )
    assert response.status_code == 200
    assert response.context["form"].errors["rounding"] == ["rules: rounding must be 1, 5 or 10"]
    assert not Player.objects.filter(name="Zoé").exists()

    def refuse_players(**kwargs):
        raise services.LedgerError(
            "player_not_in_club", "Every player must be of this club.", "players"
        )

    monkeypatch.setattr(services, "create_sheet", refuse_players)
    response = post_sheet(
        scorer_client, seat_1=players[0].pk, seat_2=players[1].pk, seat_3=players[2].pk
    )
    assert response.context["form"].non_field_errors() == ["Every player must be of this club."]


def test_players_of_another_club_cannot_be_seated(scorer_client, season, players, other_club):
    stranger = Player.objects.create(club=other_club, name="Loup")
    response = post_sheet(
        scorer_client, seat_1=players[0].pk, seat_2=stranger.pk, seat_3=players[1].pk
    )
    assert "seat_2" in response.context["form"].errors
    assert not Sheet.objects.exists()


def test_a_season_of_another_club_cannot_be_chosen(scorer_client, season, players, other_club):
    response = post_sheet(
        scorer_client,
        season=other_club.seasons.get().pk,
        **{f"seat_{i + 1}": p.pk for i, p in enumerate(players[:3])},
    )
    assert "season" in response.context["form"].errors
    assert not Sheet.objects.exists()


def test_sheet_form_without_a_season(scorer_client, club):
    response = scorer_client.get(url("sheet_create", "rive"))
    assert response.status_code == 200
    assert "no season yet" in response.content.decode()
    response = scorer_client.post(url("sheet_create", "rive"), {"date": "2026-03-20"})
    assert response.status_code == 200
    assert not Sheet.objects.exists()


# ---------------------------------------------------------------- export


def test_export_is_a_json_download_in_the_hand_format(client, seeded):
    response = client.get(url("sheet_export", "rive", seeded.pk))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment; filename=")
    text = response.content.decode()
    assert text.count("\n") == 1  # one line: import_sheets reads it back as it is
    data = json.loads(text)
    assert data["rules"] == {"preset": "fft"}
    assert data["players"] == ["Anna", "Bert", "Carl", "Dora"]
    assert data["date"] == "2026-03-14" and data["table"] == "1"
    assert data["hands"][0] == SEED_HANDS[0]
    assert data["hands"][1]["petit_au_bout"] == "attack"
    assert data["hands"][4]["poignees"] == [{"player": "Anna", "size": "single"}]


@pytest.mark.parametrize(
    ("seats", "rules", "hands"),
    [
        (4, None, SEED_HANDS),
        (
            5,
            {"preset": "mouches", "misere": 10, "rounding": 5},
            [
                {"dealer": "Anna", "taker": None},
                {
                    "dealer": "Bert",
                    "taker": "Carl",
                    "partner": "Anna",
                    "contract": "garde",
                    "bouts": 2,
                    "points": Decimal("45.5"),
                    "miseres": ["Dora"],
                },
                {
                    "dealer": "Carl",
                    "taker": "Emil",
                    "partner": "Emil",
                    "contract": "garde_sans",
                    "bouts": 3,
                    "points": 91,
                    "chelem": {"announced": False, "made_by": "attack"},
                },
            ],
        ),
        (
            6,
            None,
            [
                {
                    "dealer": "Fred",
                    "sits_out": "Fred",
                    "taker": "Anna",
                    "partner": "Bert",
                    "contract": "prise",
                    "bouts": 1,
                    "points": Decimal("50.5"),
                }
            ],
        ),
    ],
)
def test_export_imports_back_to_the_same_totals(
    client, make_sheet, scorer, club, seats, rules, hands
):
    sheet = make_sheet(seats, rules=rules)
    for data in hands:
        services.record_hand(sheet, data, actor=scorer)
    services.record_hand(sheet, hands[0], actor=scorer)
    services.delete_hand(sheet.hands.order_by("-number").first(), actor=scorer)
    text = client.get(url("sheet_export", "rive", sheet.pk)).content.decode()
    copy = import_sheet_line(club, text, actor=scorer)
    assert copy.pk != sheet.pk
    assert totals(copy) == totals(sheet)
    assert copy.rules == sheet.rules and copy.date == sheet.date and copy.table == sheet.table
    assert copy.hands.count() == len(hands)
    if rules and rules["preset"] == "mouches":
        last = list(sheet.hands.live().order_by("number"))[-1]
        assert copy.hands.order_by("number").last().pools == last.pools


def test_export_seed_totals(client, seeded, club, scorer):
    text = client.get(url("sheet_export", "rive", seeded.pk)).content.decode()
    copy = import_sheet_line(club, text, actor=scorer)
    assert totals(copy) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
