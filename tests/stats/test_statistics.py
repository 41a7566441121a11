"""Season statistics: every figure on a ledger computed by hand, the pages, their gate
and their query counts.

The ledger (``ledger`` fixture), season "2026", four players at one table:

14 March, the seed's five hands (RULES §1; tests/scoresheet/conftest.py), all gardes:
  1 Anna  2 bouts 56: made by 15, (25+15)×2 = 80 a defender   Anna +240, others −80
  2 Bert  3 bouts 49, petit au bout attack: made by 13, 76+20  Bert +288, others −96
  3 Carl  2 bouts 40, petit au bout defence: failed by 1, 52+20 Carl −216, others +72
  4 Carl  2 bouts 41, petit au bout defence: made by 0, 50−20  Carl +90, others −30
  5 Dora  3 bouts 40, Anna (defence) shows a single poignée:
          made by 4, 58+20                                      Dora +234, others −78
  totals: Anna 108, Bert 172, Carl −380, Dora 100

21 March (SECOND_EVENING), Anna takes four times:
  1 Anna prise 2 bouts 45: made by 4, 29                       Anna +87, others −29
  2 Anna garde 1 bout 51: made by 0, 25×2 = 50                  Anna +150, others −50
  3 Anna prise 0 bouts 50: failed by 6, 31                      Anna −93, others +31
  4 everybody passed                                            0
  5 Anna garde sans 3 bouts 36: made by 0, 25×4 = 100           Anna +300, others −100
  totals: Anna 444, the others −148 each

Season: Anna 552 (1st), Bert 24 (2nd), Dora −48 (3rd), Carl −528 (4th).
"""

import datetime
import pickle
from decimal import Decimal

import pytest
from django.db.models import Count, Q
from django.urls import reverse

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import editing, handmap, services
from scoresheet.models import ScoreRow, SheetFacts, SheetTotal
from scoresheet.vocabulary import Role as ScoreRole
from stats import queries as stats
from tests.data import SEED_HANDS, SEED_TOTALS
from tests.stats import ledger_reference as reference

pytestmark = pytest.mark.django_db

MARCH_14, MARCH_21, MARCH_28 = (datetime.date(2026, 3, d) for d in (14, 21, 28))

SECOND_EVENING = [
    {"dealer": "Bert", "taker": "Anna", "contract": "prise", "bouts": 2, "points": 45},
    {"dealer": "Carl", "taker": "Anna", "contract": "garde", "bouts": 1, "points": 51},
    {"dealer": "Dora", "taker": "Anna", "contract": "prise", "bouts": 0, "points": 50},
    {"dealer": "Anna", "taker": None},
    {"dealer": "Bert", "taker": "Anna", "contract": "garde_sans", "bouts": 3, "points": 36},
]
SECOND_TOTALS = {"Anna": 444, "Bert": -148, "Carl": -148, "Dora": -148}

#: Five at the table (28 March):
#:  1 Bert garde, calls Anna, 2 bouts 51: made by 10, 70    Bert +140, Anna +70, others −70
#:  2 Carl prise, calls Anna, 1 bout 45.5: failed by 6, 31   Carl −62, Anna −31, others +31
#:  3 Dora garde, calls herself, 3 bouts 40: made by 4, 58  Dora +232, others −58
FIVE = [
    {
        "dealer": "Emil",
        "taker": "Bert",
        "contract": "garde",
        "partner": "Anna",
        "bouts": 2,
        "points": 51,
    },
    {
        "dealer": "Anna",
        "taker": "Carl",
        "contract": "prise",
        "partner": "Anna",
        "bouts": 1,
        "points": Decimal("45.5"),
    },
    {
        "dealer": "Bert",
        "taker": "Dora",
        "contract": "garde",
        "partner": "Dora",
        "bouts": 3,
        "points": 40,
    },
]
#: Six seated, the dealer Fred sits out; Anna garde, calls Bert, 2 bouts 51: 70 a defender.
SIX = {
    "dealer": "Fred",
    "sits_out": "Fred",
    "taker": "Anna",
    "contract": "garde",
    "partner": "Bert",
    "bouts": 2,
    "points": 51,
}


def record(sheet, hands, user):
    for data in hands:
        services.record_hand(sheet, data, actor=user)
    return sheet


@pytest.fixture
def ledger(make_sheet, scorer):
    """The two evenings of the module docstring; returns the two sheets."""
    first = record(make_sheet(4, date=MARCH_14), SEED_HANDS, scorer)
    second = record(make_sheet(4, date=MARCH_21), SECOND_EVENING, scorer)
    return first, second


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


def d(value):
    return Decimal(str(value))


def scope(player, season=None):
    """A player's ledger rows and sheet totals (in a season, or all seasons)."""
    return ScoreRow.objects.of_player(player, season), SheetTotal.objects.of_player(player, season)


def sheets_scope(player, season=None):
    """A player's ledger rows and sheets (``stats.player_sheets``)."""
    rows, totals = scope(player, season)
    return rows, stats.player_sheets(totals)


# ---------------------------------------------------------------- a player's figures


def test_the_ledger_is_the_one_computed_by_hand(ledger, by_name, season):
    for name, total in SEED_TOTALS.items():
        figures = stats.player_summary(SheetTotal.objects.of_player(by_name[name], season))
        assert figures["total"] == total + SECOND_TOTALS[name]


def test_anna_summary(ledger, by_name, season):
    s = stats.player_summary(SheetTotal.objects.of_player(by_name["Anna"], season))
    assert s["total"] == 552
    assert (s["seated"], s["played"], s["passed"]) == (10, 10, 1)
    assert (s["evenings"], s["sheets"]) == (2, 2)
    assert (s["taken"], s["made"], s["failed"], s["made_pct"]) == (5, 4, 1, 80)
    # 240 + 87 + 150 − 93 + 300 = 684 over five takes
    assert s["taker_score"] == 684
    assert s["taker_average"] == d("136.8")
    # margins 15, 4, 0, −6, 0; bouts 2, 2, 1, 0, 3
    assert s["margin_average"] == d("2.6")
    assert s["bouts_average"] == d("1.6")
    assert [b["count"] for b in s["bouts"]] == [1, 1, 2, 1]
    assert {m["key"]: m["count"] for m in s["margins"]} == {
        "failed_21": 0,
        "failed_11": 0,
        "failed_1": 1,
        "made_0": 3,
        "made_11": 1,
        "made_21": 0,
    }
    assert [m["width"] for m in s["margins"]] == [0, 0, 33, 100, 33, 0]
    # in defence: the attack's petit au bout in hand 2, the defence's in hands 3 and 4
    assert s["petit_au_bout"] == {
        "attack_won": 0,
        "attack_lost": 0,
        "defence_won": 2,
        "defence_lost": 1,
    }
    assert [(p["size"], p["attack"], p["defence"]) for p in s["poignees"]] == [
        ("single", 0, 1),
        ("double", 0, 0),
        ("triple", 0, 0),
    ]
    assert s["poignees_total"] == 1
    assert s["chelems"] == []
    assert s["miseres"] == 0
    assert s["five"]["played"] == 0
    assert s["five"]["called"] == 0


def test_carl_as_taker(ledger, by_name, season):
    """Carl fails a garde by 1 then makes one by 0, the petit lost at the end both times."""
    rows, totals = scope(by_name["Carl"], season)
    s = stats.player_summary(totals)
    assert s["total"] == -528
    assert (s["taken"], s["made"], s["made_pct"]) == (2, 1, 50)
    assert s["margin_average"] == d("-0.5")
    assert s["taker_average"] == d("-63.0")  # (−216 + 90) / 2
    assert {m["key"]: m["count"] for m in s["margins"] if m["count"]} == {
        "failed_1": 1,
        "made_0": 1,
    }
    assert s["petit_au_bout"] == {
        "attack_won": 0,
        "attack_lost": 2,
        "defence_won": 0,
        "defence_lost": 1,
    }
    streak = stats.taker_streak(rows, stats.player_sheets(totals))
    assert streak["length"] == 1
    assert (
        streak["first"]
        == streak["last"]
        == {"date": MARCH_14, "sheet_id": ledger[0].pk, "number": 4}
    )
    assert streak["current"] == 1


def test_contracts_of_a_player(ledger, by_name, season):
    rows = stats.contracts(SheetTotal.objects.of_player(by_name["Anna"], season))
    assert [(r["contract"], r["taken"], r["made"], r["failed"], r["made_pct"]) for r in rows] == [
        ("prise", 2, 1, 1, 50),
        ("garde", 2, 2, 0, 100),
        ("garde_sans", 1, 1, 0, 100),
    ]
    # prise: (87 − 93) / 2, margins (4 − 6) / 2; garde: (240 + 150) / 2, (15 + 0) / 2
    assert [(r["score_average"], r["margin_average"]) for r in rows] == [
        (d("-3.0"), d("-1.0")),
        (d("195.0"), d("7.5")),
        (d("300.0"), d("0.0")),
    ]
    assert rows[0]["label"] == "prise" and rows[2]["label"] == "garde sans"


def test_evenings_of_a_player(ledger, by_name, season):
    rows = stats.evenings(
        stats.player_sheets(SheetTotal.objects.of_player(by_name["Anna"], season))
    )
    assert [
        (r["date"], r["played"], r["taken"], r["made"], r["total"], r["running"]) for r in rows
    ] == [
        (MARCH_14, 5, 1, 1, 108, 108),
        (MARCH_21, 5, 4, 3, 444, 552),
    ]
    assert [(r["sheets"], r["sheet_id"]) for r in rows] == [(1, ledger[0].pk), (1, ledger[1].pk)]


def test_running_total_by_hand(ledger, by_name, season):
    rows, totals = scope(by_name["Anna"], season)
    sheets = stats.player_sheets(totals)
    assert [(e["sheet_id"], e["rows"], e["running"]) for e in sheets] == [
        (ledger[0].pk, 5, 108),
        (ledger[1].pk, 10, 552),
    ]
    ends = stats.SheetEnds.of(sheets)
    # kept as integers (the statistics cache pickles them), read back exactly
    assert ends == ((5, 10), (ledger[0].pk, ledger[1].pk), ends.days, (1080, 5520))
    assert ends.before(7) == (MARCH_21, ledger[1].pk, 5, 108)
    hands = stats.hands_from(rows, ends, 0, 10)
    assert [r["running"] for r in hands] == [240, 144, 216, 186, 108, 195, 345, 252, 252, 552]
    assert [r["score"] for r in hands] == [240, -96, 72, -30, -78, 87, 150, -93, 0, 300]
    assert [(r["date"], r["number"]) for r in hands[4:6]] == [(MARCH_14, 5), (MARCH_21, 1)]
    assert hands[0]["role"] == "taker" and hands[8]["role"] == "passed"
    # a page starting inside a sheet, one starting on a sheet's first hand, one past the end
    assert [r["running"] for r in stats.hands_from(rows, ends, 3, 4)] == [186, 108, 195, 345]
    assert [r["number"] for r in stats.hands_from(rows, ends, 5, 3)] == [1, 2, 3]
    assert [r["running"] for r in stats.hands_from(rows, ends, 8, 5)] == [252, 552]
    assert stats.hands_from(rows, ends, 10, 5) == []


def test_best_and_worst_hands(ledger, by_name, season):
    rows, totals = scope(by_name["Anna"], season)
    first, second = ledger
    best = stats.best_hands(rows, stats.player_sheets(totals))
    assert [(h["score"], h["sheet_id"], h["number"]) for h in best] == [
        (300, second.pk, 5),
        (240, first.pk, 1),
        (150, second.pk, 2),
        (87, second.pk, 1),
        (72, first.pk, 3),
    ]
    assert (best[0]["contract_label"], best[0]["made"], best[0]["by"]) == ("garde sans", True, 0)
    worst = stats.worst_hands(rows, stats.player_sheets(totals))
    assert [(h["score"], h["sheet_id"], h["number"]) for h in worst] == [
        (-96, first.pk, 2),
        (-93, second.pk, 3),
        (-78, first.pk, 5),
        (-30, first.pk, 4),
        (0, second.pk, 4),
    ]
    assert (worst[1]["role"], worst[1]["made"], worst[1]["by"]) == ("taker", False, 6)


def test_longest_winning_streak_runs_across_evenings(ledger, by_name, season):
    """Anna: made (14/3 #1), made (21/3 #1), made (#2), failed (#3), made (#5)."""
    first, second = ledger
    streak = stats.taker_streak(*sheets_scope(by_name["Anna"], season))
    assert streak == {
        "length": 3,
        "first": {"date": MARCH_14, "sheet_id": first.pk, "number": 1},
        "last": {"date": MARCH_21, "sheet_id": second.pk, "number": 2},
        "current": 1,
    }


def test_a_streak_is_zero_without_a_contract_made(make_sheet, scorer, by_name, season):
    record(make_sheet(4), [SEED_HANDS[2]], scorer)  # Carl fails
    assert stats.taker_streak(*sheets_scope(by_name["Carl"], season)) == {
        "length": 0,
        "first": None,
        "last": None,
        "current": 0,
    }
    assert stats.taker_streak(*sheets_scope(by_name["Anna"], season))["length"] == 0


def test_at_five_partner_and_alone(make_sheet, scorer, by_name, season):
    record(make_sheet(5, date=MARCH_28), FIVE, scorer)
    record(make_sheet(6, date=MARCH_28, table="2"), [SIX], scorer)
    anna = stats.player_summary(SheetTotal.objects.of_player(by_name["Anna"], season))
    assert anna["total"] == 70 - 31 - 58 + 140
    assert anna["five"] == {
        "played": 4,
        "called": 2,
        "called_made": 1,
        "called_failed": 1,
        "called_pct": 50,
        "called_score": 39,
        "called_average": d("19.5"),
        "alone": 0,
        "alone_made": 0,
    }
    dora = stats.player_summary(SheetTotal.objects.of_player(by_name["Dora"], season))
    assert (dora["five"]["alone"], dora["five"]["alone_made"], dora["five"]["called"]) == (1, 1, 0)
    bert = stats.player_summary(SheetTotal.objects.of_player(by_name["Bert"], season))
    assert (bert["five"]["called"], bert["five"]["called_score"]) == (1, 70)
    fred = stats.player_summary(SheetTotal.objects.of_player(by_name["Fred"], season))
    assert (fred["seated"], fred["played"], fred["total"], fred["five"]["played"]) == (1, 0, 0, 0)
    # the running total of a player who sat out still has the hand (0)
    fred_rows, fred_totals = scope(by_name["Fred"])
    ends = stats.SheetEnds.of(stats.player_sheets(fred_totals))
    assert [r["running"] for r in stats.hands_from(fred_rows, ends, 0, 25)] == [0]


def test_chelems_on_both_sides(make_sheet, scorer, by_name, season):
    """An unannounced chelem: garde, 91 points with 3 bouts, made by 55: (25 + 55) × 2 + 200."""
    sheet = make_sheet(4)
    record(
        sheet,
        [
            {
                "dealer": "Dora",
                "taker": "Anna",
                "contract": "garde",
                "bouts": 3,
                "points": 91,
                "chelem": {"announced": False, "made_by": "attack"},
            }
        ],
        scorer,
    )
    anna = stats.player_summary(SheetTotal.objects.of_player(by_name["Anna"], season))
    assert anna["total"] == 3 * 360
    assert [(c["code"], c["attack"], c["defence"]) for c in anna["chelems"]] == [("made", 1, 0)]
    assert anna["margins"][-1]["count"] == 1  # made by 21 or more
    bert = stats.player_summary(SheetTotal.objects.of_player(by_name["Bert"], season))
    assert [(c["code"], c["attack"], c["defence"]) for c in bert["chelems"]] == [("made", 0, 1)]
    club = stats.season_summary(SheetFacts.objects.filter(season=season), season)
    assert [(c["code"], c["count"]) for c in club["chelems"]] == [("made", 1)]


def test_all_seasons_and_season_ranks(ledger, make_sheet, scorer, club, players, by_name, season):
    """A second season where Bert wins: Anna is 1st of 4 in 2026 and 2nd of 4 in 2027."""
    later = Season.objects.create(club=club, name="2027", start_date=datetime.date(2027, 1, 1))
    sheet = services.create_sheet(
        season=later, players=players[:4], date=datetime.date(2027, 2, 1), actor=scorer
    )
    record(sheet, [SEED_HANDS[1]], scorer)  # Bert +288, others −96
    anna = by_name["Anna"]
    assert stats.player_summary(SheetTotal.objects.of_player(anna))["total"] == 552 - 96
    ranks = stats.season_ranks(club, anna)
    assert [(r["name"], r["total"], r["rank"], r["players"], r["played"]) for r in ranks] == [
        ("2027", -96, 2, 4, 1),
        ("2026", 552, 1, 4, 10),
    ]
    assert (ranks[1]["taken"], ranks[1]["made"], ranks[1]["made_pct"]) == (5, 4, 80)
    assert stats.season_ranks(club, by_name["Emil"]) == []


def test_all_seasons_leave_out_the_clubs_tournaments(
    client, ledger, scorer, club, players, by_name
):
    """A tournament's tables are kept in a season of their own (kind tournament): a
    player's all-seasons page counts the club's seasons only, its chart and lists too."""
    cup = Season.objects.create(
        club=club, name="Cup", start_date=datetime.date(2026, 5, 1), kind=Season.Kind.TOURNAMENT
    )
    sheet = services.create_sheet(
        season=cup, players=players[:4], date=datetime.date(2026, 5, 2), actor=scorer
    )
    record(sheet, SEED_HANDS[:2], scorer)
    context = client.get(player_url(club, by_name["Anna"])).context
    assert (context["summary"]["played"], context["summary"]["total"]) == (10, 552)
    assert [e["date"] for e in context["evenings"]] == [MARCH_14, MARCH_21]
    # the tournament's own page still has them
    context = client.get(player_url(club, by_name["Anna"], cup)).context
    assert context["summary"]["played"] == 2


def test_ties_share_a_season_rank(make_sheet, scorer, club, by_name):
    """Carl's failed garde: the three defenders each +72, tied 1st; Carl 4th."""
    record(make_sheet(4), [SEED_HANDS[2]], scorer)
    ranks = {
        name: stats.season_ranks(club, by_name[name])[0]["rank"]
        for name in ("Anna", "Bert", "Carl", "Dora")
    }
    assert ranks == {"Anna": 1, "Bert": 1, "Dora": 1, "Carl": 4}


def test_running_totals_of_several_players_by_evening(ledger, by_name, season):
    ids = [by_name[n].pk for n in ("Anna", "Bert", "Emil")]
    running = stats.running_by_evening(ScoreRow.objects.of_season(season), ids)
    assert running["dates"] == [MARCH_14, MARCH_21]
    assert running["series"] == {ids[0]: [108, 552], ids[1]: [172, 24], ids[2]: [0, 0]}


def test_a_player_who_misses_an_evening_keeps_their_total(
    ledger, make_sheet, scorer, by_name, season, players
):
    sheet = services.create_sheet(
        season=season, players=[players[0], players[4], players[5]], date=MARCH_28, actor=scorer
    )
    # three players: Anna garde 2 bouts 56 → (25+15)×2 = 80 a defender, Anna +160
    record(
        sheet,
        [{"dealer": "Emil", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}],
        scorer,
    )
    ids = [by_name["Anna"].pk, by_name["Bert"].pk, by_name["Emil"].pk]
    running = stats.running_by_evening(ScoreRow.objects.of_season(season), ids)
    assert running["dates"] == [MARCH_14, MARCH_21, MARCH_28]
    assert running["series"][ids[0]] == [108, 552, 712]
    assert running["series"][ids[1]] == [172, 24, 24]
    assert running["series"][ids[2]] == [0, 0, -80]


# ---------------------------------------------------------------- a club's season


def test_season_summary(ledger, season):
    s = stats.season_summary(SheetFacts.objects.filter(season=season), season)
    assert (s["hands"], s["sheets"], s["evenings"], s["players"]) == (10, 2, 2, 4)
    assert (s["passed"], s["passed_pct"]) == (1, 10)
    # made: 14/3 #1 #2 #4 #5, 21/3 #1 #2 #5; failed: 14/3 #3, 21/3 #3
    assert (s["taken"], s["made"], s["made_pct"]) == (9, 7, 78)
    assert s["petit_au_bout"] == {"attack": 1, "defence": 2, "total": 3}
    assert [(p["size"], p["count"]) for p in s["poignees"]] == [
        ("single", 1),
        ("double", 0),
        ("triple", 0),
    ]
    assert (s["chelems"], s["miseres"], s["five"]) == ([], 0, {"hands": 0, "called": 0, "alone": 0})


def test_season_contracts(ledger, season):
    rows = stats.contracts(SheetFacts.objects.filter(season=season), hands=10)
    assert [(r["contract"], r["taken"], r["share"], r["made"], r["made_pct"]) for r in rows] == [
        ("prise", 2, 20, 1, 50),
        ("garde", 6, 60, 5, 83),
        ("garde_sans", 1, 10, 1, 100),
    ]
    # garde margins 15, 13, −1, 0, 4, 0; the takers' scores 240, 288, −216, 90, 234, 150
    assert (rows[1]["margin_average"], rows[1]["score_average"]) == (d("5.2"), d("131.0"))


def test_table_sizes_and_evenings(ledger, make_sheet, scorer, season):
    record(make_sheet(5, date=MARCH_28), FIVE, scorer)
    record(make_sheet(6, date=MARCH_28, table="2"), [SIX], scorer)
    sheets = SheetFacts.objects.filter(season=season)
    assert stats.table_sizes(sheets) == [
        {"seats": 4, "playing": 4, "sheets": 2, "hands": 10},
        {"seats": 5, "playing": 5, "sheets": 1, "hands": 3},
        {"seats": 6, "playing": 5, "sheets": 1, "hands": 1},
    ]
    evenings = stats.season_evenings(sheets)
    assert [evening["players"] for evening in evenings] == [None, None, None]
    assert stats.add_players(evenings, SheetTotal.objects.of_season(season)) == [
        {"date": MARCH_14, "sheets": 1, "players": 4, "hands": 5, "passed": 0},
        {"date": MARCH_21, "sheets": 1, "players": 4, "hands": 5, "passed": 1},
        {"date": MARCH_28, "sheets": 2, "players": 6, "hands": 4, "passed": 0},
    ]
    five = stats.season_summary(sheets, season)["five"]
    assert five == {"hands": 4, "called": 3, "alone": 1}


def test_season_figures_from_the_summaries_equal_the_ledger_counts(
    ledger, make_sheet, scorer, season
):
    """The season page counts sheets, evenings, hands and players from the stored sheet
    counts and totals (no distinct count over the ledger): the same figures, with a
    deleted hand, a deleted sheet, a sheet whose only hand was deleted, somebody who
    sits out and everybody passing."""
    record(make_sheet(5, date=MARCH_28), FIVE, scorer)
    six = record(make_sheet(6, date=MARCH_28, table="2"), [SIX], scorer)
    emptied = record(make_sheet(4, date=MARCH_28, table="3"), SEED_HANDS[:1], scorer)
    services.delete_hand(emptied.hands.get(number=1), actor=scorer)
    first, _second = ledger
    services.delete_hand(first.hands.get(number=2), actor=scorer)
    gone = record(make_sheet(4, date=datetime.date(2026, 4, 4), table="9"), SEED_HANDS, scorer)
    editing.delete_sheet(gone, actor=None)  # a manager, or a command
    rows = ScoreRow.objects.of_season(season)
    # the ledger's own answers: one row per seated player per live hand, the first
    # seat's once per hand
    first_seat = Count("pk", filter=Q(position=0))
    from_ledger = rows.aggregate(
        hands=first_seat,
        sheets=Count("sheet_id", distinct=True),
        evenings=Count("date", distinct=True),
        players=Count("player_id", distinct=True),
    )
    assert from_ledger == {"hands": 13, "sheets": 4, "evenings": 3, "players": 6}
    summary = stats.season_summary(SheetFacts.objects.filter(season=season), season)
    assert {key: summary[key] for key in from_ledger} == from_ledger
    evenings = rows.values("date").annotate(
        sheets=Count("sheet_id", distinct=True),
        players=Count("player_id", distinct=True),
        hands=first_seat,
        passed=Count("pk", filter=Q(position=0, role=ScoreRole.PASSED)),
    )
    from_totals = stats.add_players(
        stats.season_evenings(SheetFacts.objects.filter(season=season)),
        SheetTotal.objects.of_season(season),
    )
    assert from_totals == list(evenings.order_by("date"))
    # the top players' chart reads the sheets' totals: the ledger's figures
    ids = list(six.seats.values_list("player_id", flat=True))
    totals = SheetTotal.objects.filter(season=season)
    assert stats.running_by_evening(totals, ids) == stats.running_by_evening(rows, ids)
    assert len(stats.running_by_evening(totals, ids)["dates"]) == 3


def test_a_deleted_hand_leaves_the_statistics(ledger, by_name, season, scorer):
    first, _second = ledger
    services.delete_hand(first.hands.get(number=1), actor=scorer)  # Anna's +240
    s = stats.player_summary(SheetTotal.objects.of_player(by_name["Anna"], season))
    assert (s["total"], s["taken"], s["played"]) == (552 - 240, 4, 9)


def test_mouches_everybody_passed_counts_as_passed(make_sheet, scorer, by_name, season):
    """Under mouches, a hand where all passed still costs the ante (10) and the dealer's stake."""
    sheet = make_sheet(4, rules={"preset": "mouches"})
    record(sheet, [{"dealer": "Anna", "taker": None}], scorer)
    s = stats.season_summary(SheetFacts.objects.filter(season=season), season)
    assert (s["hands"], s["passed"], s["taken"]) == (1, 1, 0)
    anna = stats.player_summary(SheetTotal.objects.of_player(by_name["Anna"], season))
    assert (anna["passed"], anna["total"], anna["pools"]) == (1, -15, -15)


# ---------------------------------------------------------------- the pages


def player_url(club, player, season=None):
    if season is None:
        return reverse("stats:player", args=[club.slug, player.pk])
    return reverse("stats:player_season", args=[club.slug, player.pk, season.pk])


def season_url(club, season):
    return reverse("stats:season", args=[club.slug, season.pk])


def test_player_season_page(client, ledger, club, season, by_name):
    response = client.get(player_url(club, by_name["Anna"], season))
    assert response.status_code == 200
    context = response.context
    assert context["standing"]["total"] == 552
    assert (context["standing"]["rank"], context["ranked"], context["tied"]) == (1, 4, False)
    assert context["running_points"] == 10
    chart = context["running_chart"]
    assert chart["datasets"][0]["data"] == [240, 144, 216, 186, 108, 195, 345, 252, 252, 552]
    assert chart["labels"][0] == "1" and len(chart["titles"]) == 10
    top = context["top"]
    assert [p["name"] for p in top["players"]] == ["Anna", "Bert", "Dora", "Carl"]
    assert [ds["data"] for ds in top["chart"]["datasets"]] == [
        [108, 552],
        [172, 24],
        [100, -48],
        [-380, -528],
    ]
    assert [ds["main"] for ds in top["chart"]["datasets"]] == [True, False, False, False]
    html = response.content.decode()
    assert 'data-stat="total">+552<' in html
    assert 'id="chart-running-data"' in html and 'id="chart-top-data"' in html
    assert "vendor/chartjs/chart.umd.js" in html and "js/charts.js" in html
    first, second = ledger
    hand_url = reverse("scoresheet:hand", args=[club.slug, second.pk, 5])
    assert f'href="{hand_url}"' in html  # the best hand
    assert reverse("scoresheet:sheet", args=[club.slug, first.pk]) in html  # an evening


def test_player_rank_is_shown_with_ties(client, make_sheet, scorer, club, season, by_name):
    record(make_sheet(4), [SEED_HANDS[2]], scorer)
    response = client.get(player_url(club, by_name["Anna"], season))
    assert (response.context["standing"]["rank"], response.context["tied"]) == (1, True)
    assert "tied" in response.content.decode()


def test_the_top_chart_adds_the_player_when_not_among_the_top(
    client, make_sheet, scorer, club, season, players
):
    """Seven players: the top five and, sixth line, the player whose page it is."""
    others = [Player.objects.create(club=club, name=n) for n in ("Gus", "Hans")]
    record(make_sheet(4, date=MARCH_14), SEED_HANDS, scorer)
    sheet = services.create_sheet(
        season=season, players=[players[4], players[5], *others], date=MARCH_21, actor=scorer
    )
    # Emil takes a garde made by 15: +240, the others −80 each
    record(
        sheet,
        [{"dealer": "Gus", "taker": "Emil", "contract": "garde", "bouts": 2, "points": 56}],
        scorer,
    )
    hans = others[1]
    response = client.get(player_url(club, hans, season))
    top = response.context["top"]
    assert [p["name"] for p in top["players"]] == ["Emil", "Bert", "Anna", "Dora", "Fred", "Hans"]
    assert top["count"] == 5
    assert top["chart"]["datasets"][-1] == {"label": "5. Hans", "data": [0, -80], "main": True}


def test_player_all_seasons_page(client, ledger, club, season, by_name):
    response = client.get(player_url(club, by_name["Anna"]))
    assert response.status_code == 200
    context = response.context
    assert context["season"] is None
    assert (context["standing"]["total"], context["standing"]["rank"]) == (552, 1)
    # by evening: the totals after 14 and 21 March
    assert context["running_chart"]["datasets"][0]["data"] == [108, 552]
    assert context["running_points"] == 2
    assert [(r["name"], r["rank"]) for r in context["season_ranks"]] == [("2026", 1)]
    assert player_url(club, by_name["Anna"], season) in response.content.decode()


def test_player_without_hands(client, ledger, club, season, by_name):
    response = client.get(player_url(club, by_name["Emil"], season))
    assert response.status_code == 200
    assert response.context["standing"] is None
    html = response.content.decode()
    assert "No hand played in this season." in html
    assert "chart.umd.js" not in html


def test_season_page(client, ledger, club, season, by_name):
    response = client.get(season_url(club, season))
    assert response.status_code == 200
    context = response.context
    assert context["summary"]["hands"] == 10
    assert [c["contract"] for c in context["contracts"]] == ["prise", "garde", "garde_sans"]
    assert [(p["name"], p["rank"], p["total"]) for p in context["ranking"]] == [
        ("Anna", 1, 552),
        ("Bert", 2, 24),
        ("Dora", 3, -48),
        ("Carl", 4, -528),
    ]
    assert context["top"]["points"] == 2
    assert all(not ds["main"] for ds in context["top"]["chart"]["datasets"])
    evenings = context["tables"]["evenings"]  # one page: every evening, its players counted
    assert [(r.record["date"], r.record["players"]) for r in evenings.paginated_rows] == [
        (MARCH_14, 4),
        (MARCH_21, 4),
    ]
    html = response.content.decode()
    assert 'data-stat="passed">1<' in html
    assert player_url(club, by_name["Carl"], season) in html


def test_empty_season_page(client, club, season):
    response = client.get(season_url(club, season))
    assert response.status_code == 200
    assert "No hand played in this season." in response.content.decode()


def test_in_french(client, ledger, club, season, by_name):
    client.cookies["django_language"] = "fr"
    response = client.get(player_url(club, by_name["Anna"], season), HTTP_ACCEPT_LANGUAGE="fr")
    html = response.content.decode()
    assert "Total cumulé" in html
    assert "Chelems" in html or "Chelem" in html
    response = client.get(season_url(club, season), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Tout le monde passe" in response.content.decode()


# ---------------------------------------------------------------- the gate


@pytest.fixture
def other_club(db):
    club = Club.objects.create(name="Autre club", slug="autre")
    season = Season.objects.create(club=club, name="Autre", start_date=datetime.date(2026, 1, 1))
    player = Player.objects.create(club=club, name="Zoé")
    return club, season, player


def test_public_club_is_readable_by_anyone(client, ledger, club, season, by_name):
    for url in (
        player_url(club, by_name["Anna"]),
        player_url(club, by_name["Anna"], season),
        season_url(club, season),
    ):
        assert client.get(url).status_code == 200


def test_members_only_club(client, make_user, ledger, club, season, by_name):
    club.is_public = False
    club.save()
    urls = (
        player_url(club, by_name["Anna"]),
        player_url(club, by_name["Anna"], season),
        season_url(club, season),
    )
    for url in urls:
        assert client.get(url).status_code == 404
    stranger = make_user("stranger")
    client.force_login(stranger)
    for url in urls:
        assert client.get(url).status_code == 404
    Membership.objects.create(club=club, user=stranger, role=Role.MEMBER)
    for url in urls:
        assert client.get(url).status_code == 200


def test_another_clubs_player_or_season_is_not_found(
    client, ledger, club, season, by_name, other_club
):
    _club, other_season, other_player = other_club
    anna = by_name["Anna"]
    assert client.get(player_url(club, other_player)).status_code == 404
    assert client.get(player_url(club, other_player, season)).status_code == 404
    assert client.get(player_url(club, anna, other_season)).status_code == 404
    assert client.get(season_url(club, other_season)).status_code == 404
    assert client.get(f"/clubs/{club.slug}/players/999999/").status_code == 404
    assert client.get(f"/clubs/{club.slug}/seasons/999999/statistics/").status_code == 404
    assert client.get(f"/clubs/nowhere/players/{anna.pk}/").status_code == 404


def test_every_statistics_view_goes_through_the_gate():
    from stats import views

    for view in (views.player_statistics, views.season_statistics):
        assert view.club_level == "read"


# ---------------------------------------------------------------- query counts

#: club, player, seasons, standings, the cache stamp (SeasonTotal revisions), then
#: the figures: the summary with the contracts (sums of the player's sheet totals),
#: the player's sheets (the evenings, the runs of contracts made, where the best and
#: worst hands are), the top players' running totals, the takes that find the
#: longest run's hands, the best hands, the worst; on a season's page the hands for
#: the chart while they are at most CHART_POINTS (the per-hand table's page is
#: among them), on all seasons' the season ranks. A page whose season changed since
#: it was last computed (the stamp is one query more than before the cache).
#: (each player page adds 2: the player's rating history, ``ratings.queries.history``,
#: and whether it is being recomputed, ``ratings.queries.recomputing``)
PLAYER_QUERIES = {"season": 14, "all": 14}
#: a season's page once its hands outnumber CHART_POINTS: the chart at the sheets'
#: ends names their tables (one query), the per-hand table's page is read.
PLAYER_QUERIES_THINNED = 15
#: club, seasons, standings, the cache stamp, the season's sheet facts by evening
#: and table size (summary, contracts, table sizes and evenings are folded from
#: them), the season's players, the top players, the players of the evenings shown.
SEASON_QUERIES = 8
#: From the cache (the season unchanged): club, player, seasons, standings, the
#: stamp, and on a season's page the page of the per-hand table.
PLAYER_CACHED = {"season": 8, "all": 7}  # the rating history (and recomputing?) is not cached
SEASON_CACHED = 4
#: a logged-in member adds the session and the user (the membership comes with the
#: club: ``clubs.permissions``).
LOGGED_IN = 2


def more_hands(make_sheet, scorer):
    """Another evening at five and one at six: more hands, players and tables."""
    record(make_sheet(5, date=MARCH_28), FIVE * 4, scorer)
    record(make_sheet(6, date=MARCH_28, table="2"), [SIX] * 3, scorer)


@pytest.mark.parametrize("scope", ["season", "all"])
def test_player_page_queries_do_not_grow_with_the_hands(
    client, django_assert_num_queries, ledger, make_sheet, scorer, club, season, by_name, scope
):
    url = player_url(club, by_name["Anna"], season if scope == "season" else None)
    with django_assert_num_queries(PLAYER_QUERIES[scope]):
        assert client.get(url).status_code == 200
    more_hands(make_sheet, scorer)
    with django_assert_num_queries(PLAYER_QUERIES[scope]):
        response = client.get(url)
    assert response.context["summary"]["played"] == 10 + 12 + 3


def test_a_thinned_chart_costs_the_same_queries_whatever_the_hands(
    client,
    django_assert_num_queries,
    ledger,
    make_sheet,
    scorer,
    club,
    season,
    by_name,
    monkeypatch,
):
    """Over CHART_POINTS hands the season's chart is drawn at the sheets' ends, each
    titled with its evening and table."""
    from stats import views

    monkeypatch.setattr(views, "CHART_POINTS", 4)  # Anna's 10 hands, then 25
    url = player_url(club, by_name["Anna"], season)
    with django_assert_num_queries(PLAYER_QUERIES_THINNED):
        assert client.get(url).status_code == 200
    more_hands(make_sheet, scorer)
    with django_assert_num_queries(PLAYER_QUERIES_THINNED):
        response = client.get(url)
    chart = response.context["running_chart"]
    assert chart["labels"] == ["5", "10", "22", "25"]  # Anna's rows at each sheet's end
    assert [title.split(", ")[1:] for title in chart["titles"]] == [
        ["table 1", "end of the sheet"],
        ["table 1", "end of the sheet"],
        ["table 1", "end of the sheet"],
        ["table 2", "end of the sheet"],
    ]


def test_season_page_queries_do_not_grow_with_the_hands(
    client, django_assert_num_queries, ledger, make_sheet, scorer, club, season
):
    url = season_url(club, season)
    with django_assert_num_queries(SEASON_QUERIES):
        assert client.get(url).status_code == 200
    more_hands(make_sheet, scorer)
    with django_assert_num_queries(SEASON_QUERIES):
        response = client.get(url)
    assert response.context["summary"]["hands"] == 10 + 12 + 3


def test_queries_of_a_logged_in_member(
    client, django_assert_num_queries, make_user, ledger, club, season, by_name
):
    club.is_public = False
    club.save()
    member = make_user("member")
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    client.force_login(member)
    with django_assert_num_queries(PLAYER_QUERIES["season"] + LOGGED_IN):
        assert client.get(player_url(club, by_name["Anna"], season)).status_code == 200
    with django_assert_num_queries(SEASON_QUERIES + LOGGED_IN):
        assert client.get(season_url(club, season)).status_code == 200


@pytest.mark.parametrize("scope", ["season", "all"])
def test_player_page_reads_its_figures_from_the_cache_until_a_hand_changes(
    client, django_assert_num_queries, ledger, scorer, club, season, by_name, scope
):
    url = player_url(club, by_name["Anna"], season if scope == "season" else None)
    assert client.get(url).context["summary"]["played"] == 10
    with django_assert_num_queries(PLAYER_CACHED[scope]):
        assert client.get(url).context["summary"]["played"] == 10
    first, _second = ledger
    services.delete_hand(first.hands.get(number=1), actor=scorer)  # the season changes
    assert client.get(url).context["summary"]["played"] == 9


def test_season_page_reads_its_figures_from_the_cache_until_a_hand_changes(
    client, django_assert_num_queries, ledger, scorer, club, season
):
    url = season_url(club, season)
    assert client.get(url).context["summary"]["hands"] == 10
    with django_assert_num_queries(SEASON_CACHED):
        assert client.get(url).context["summary"]["hands"] == 10
    first, _second = ledger
    hand = first.hands.get(number=1)
    data = handmap.hand_data(hand, handmap.Table.of(first))
    services.correct_hand(hand, {**data, "points": data["points"] + 1}, actor=scorer)
    assert client.get(url).context["summary"]["hands"] == 10
    services.delete_hand(hand, actor=scorer)
    assert client.get(url).context["summary"]["hands"] == 9


def _cached_values(value):
    """Every value inside what the statistics cache holds (dicts, lists, tuples walked)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _cached_values(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _cached_values(item)
    else:
        yield value


def test_the_cache_keeps_translated_text_and_plain_numbers(client, ledger, club, season, by_name):
    """The cached figures are text already translated (one entry per language), not
    lazy translations that would be rebuilt on every read, and the sheets' ends are
    integers."""
    from django.core.cache import caches
    from django.utils.functional import Promise

    cache = caches["stats"]
    url = player_url(club, by_name["Anna"], season)
    client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    client.get(season_url(club, season), HTTP_ACCEPT_LANGUAGE="fr")
    entries = {key: pickle.loads(value) for key, value in list(cache._cache.items())}
    assert len(entries) == 4  # the season page: its figures and its evenings' players
    for key, figures in entries.items():
        assert not [v for v in _cached_values(figures) if isinstance(v, Promise)], key
    english, french = (
        next(
            f
            for k, f in entries.items()
            if k.startswith("tarot-stats:1:player:") and f":{language}:" in k
        )
        for language in ("en", "fr")
    )
    assert english["summary"]["poignees"][0]["label"] != french["summary"]["poignees"][0]["label"]
    ends = english["sheet_ends"]
    assert isinstance(ends, stats.SheetEnds)
    assert all(type(v) is int for column in ends for v in column)


def test_the_per_hand_table_is_paged_and_the_chart_thinned(
    client, make_sheet, scorer, club, season, by_name, monkeypatch
):
    from stats import views

    monkeypatch.setattr(views, "HANDS_PER_PAGE", 4)
    monkeypatch.setattr(views, "CHART_POINTS", 6)
    record(make_sheet(4, date=MARCH_14), SEED_HANDS * 2, scorer)  # 10 hands
    url = player_url(club, by_name["Anna"], season)
    context = client.get(url).context
    assert context["running_points"] == 10
    data = context["running_chart"]["datasets"][0]["data"]
    assert len(data) <= 7 and data[-1] == context["summary"]["total"]
    pager = context["hands_pager"]
    assert (pager["number"], pager["pages"], pager["first"], pager["last"]) == (3, 3, 9, 10)
    last_page = [h["running"] for h in context["hands"]]
    assert last_page[-1] == context["summary"]["total"]
    context = client.get(url + "?hands=2").context
    middle = context["hands"]
    assert [h["counter"] for h in middle] == [5, 6, 7, 8]
    every = reference.running_by_hand(ScoreRow.objects.of_player(by_name["Anna"], season))
    assert [h["running"] for h in middle] == [h["running"] for h in every[4:8]]
    # from the cache now
    for number, expected in ((1, every[0:4]), (3, every[8:10])):
        context = client.get(url + f"?hands={number}").context
        assert [(h["sheet_id"], h["number"], h["running"]) for h in context["hands"]] == [
            (h["sheet_id"], h["number"], h["running"]) for h in expected
        ]
    assert client.get(url + "?hands=x").status_code == 200


@pytest.mark.parametrize("page", ["player", "season"])
def test_the_evening_tables_are_paged_the_latest_first(
    client, ledger, make_sheet, scorer, club, season, by_name, monkeypatch, page
):
    """Tables that grow with the evenings show a page of them, the latest by default,
    with links to the others that keep the rest of the query string."""
    from stats import listings

    monkeypatch.setattr(listings, "ROWS_PER_PAGE", 2)
    more_hands(make_sheet, scorer)  # a third evening: 14, 21 and 28 March
    if page == "player":
        url = player_url(club, by_name["Anna"], season)
    else:
        url = season_url(club, season)
    table = client.get(url).context["tables"]["evenings"]
    assert [row.record["date"] for row in table.paginated_rows] == [MARCH_28]
    assert table.pager == {"previous": "?table-evenings=1#table-evenings", "next": None}
    html = client.get(url).content.decode()
    assert 'href="?table-evenings=1#table-evenings"' in html
    if page == "season":  # who played is counted for the evenings shown, cached too
        assert [row.record["players"] for row in table.paginated_rows] == [6]
    table = client.get(url + "?hands=1&table-evenings=1").context["tables"]["evenings"]
    assert [row.record["date"] for row in table.paginated_rows] == [MARCH_14, MARCH_21]
    assert table.pager["next"] == "?hands=1&table-evenings=2#table-evenings"
    if page == "season":
        assert [row.record["players"] for row in table.paginated_rows] == [4, 4]
        again = client.get(url + "?table-evenings=1").context["tables"]["evenings"]  # cached
        assert [row.record["players"] for row in again.paginated_rows] == [4, 4]
    for wrong in ("0", "99", "x", "٣"):  # bounded: never a 500
        assert client.get(url, {"table-evenings": wrong}).status_code == 200
