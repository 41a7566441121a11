from decimal import Decimal

import pytest
from django.db.models import Sum

from core.explain_json import terms_from_json
from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow
from tests.data import SEED_HANDS, SEED_TOTALS


def totals(sheet):
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    return {r["player__name"]: r["t"] for r in rows}


def test_seed_sheet_ledger_totals(make_sheet, scorer):
    sheet = make_sheet()
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    assert totals(sheet) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert ScoreRow.objects.filter(sheet=sheet).count() == 5 * 4


def test_record_hand_writes_rows_roles_and_history(make_sheet, scorer):
    sheet = make_sheet(5)
    hand = services.record_hand(
        sheet,
        {
            "dealer": "Emil",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": Decimal("45.5"),
            "poignees": [{"player": "Bert", "size": "double"}],
        },
        actor=scorer,
    )
    rows = {r.player.name: r for r in hand.scores.select_related("player")}
    # margin 4.5 -> 5; (25 + 5) × 2 + 30 poignée (to the winners) = 90 per defender
    assert {n: r.score for n, r in rows.items()} == {
        "Anna": 180,
        "Bert": -90,
        "Carl": 90,
        "Dora": -90,
        "Emil": -90,
    }
    assert rows["Anna"].role == "taker" and rows["Carl"].role == "partner"
    assert rows["Bert"].poignee == "double" and rows["Bert"].role == "defender"
    assert rows["Anna"].made is True and rows["Anna"].margin == 5
    assert hand.points == Decimal("45.5") and hand.entered_by == scorer
    revision = hand.revisions.get()
    assert revision.action == "created" and revision.user == scorer
    assert revision.after["scores"]["Anna"] == 180
    assert str(terms_from_json(hand.explanation)) == (
        "(25 + 5) × 2 + 30 poignée = 90 per defender; taker +180, partner +90"
    )


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        (
            {"taker": "Zoe", "contract": "garde", "bouts": 1, "points": 60},
            "player_not_at_table",
            "taker",
        ),
        (
            {"taker": "Anna", "contract": "pousse", "bouts": 1, "points": 60},
            "contract_unknown",
            "contract",
        ),
        (
            {"taker": "Anna", "contract": "garde", "bouts": 1, "points": 90},
            "points_bouts_inconsistent",
            "points",
        ),
        (
            {
                "taker": "Anna",
                "contract": "garde",
                "bouts": 1,
                "points": 53,
                "chelem": {"announced": False, "made_by": "attack"},
            },
            "chelem_points_inconsistent",
            "chelem",
        ),
        (
            {"taker": "Anna", "contract": "garde", "partner": "Bert", "bouts": 1, "points": 60},
            "partner_not_five",
            "partner",
        ),
    ],
)
def test_refused_hand_stores_nothing(make_sheet, scorer, data, code, field):
    sheet = make_sheet()
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    counts = (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count())
    with pytest.raises(services.LedgerError) as info:
        services.record_hand(sheet, data, actor=scorer)
    assert info.value.code == code
    assert info.value.field == field
    assert (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count()) == counts


def test_correct_hand_rescores_and_keeps_history(make_sheet, scorer):
    sheet = make_sheet()
    hands = [services.record_hand(sheet, d, actor=scorer) for d in SEED_HANDS]
    # hand 5 was entered with the poignée forgotten... then corrected to be without it
    corrected = dict(SEED_HANDS[4], poignees=[])
    services.correct_hand(hands[4], corrected, actor=scorer)
    assert totals(sheet) == {"Anna": 128, "Bert": 192, "Carl": -360, "Dora": 40}
    revision = hands[4].revisions.order_by("-id").first()
    assert revision.action == "corrected"
    assert revision.before["scores"]["Dora"] == 234
    assert revision.after["scores"]["Dora"] == 174
    assert revision.before["hand"]["poignees"] == [{"player": "Anna", "size": "single"}]
    # the other hands' rows were not rewritten
    assert ScoreRow.objects.filter(hand=hands[0]).count() == 4


def test_correct_refused_keeps_hand(make_sheet, scorer):
    sheet = make_sheet()
    hand = services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    with pytest.raises(services.LedgerError) as info:
        services.correct_hand(hand, dict(SEED_HANDS[0], bouts=5), actor=scorer)
    assert info.value.code == "bouts_out_of_range"
    assert totals(sheet)["Anna"] == 240
    assert hand.revisions.count() == 1


def test_delete_and_restore(make_sheet, scorer):
    sheet = make_sheet()
    hands = [services.record_hand(sheet, d, actor=scorer) for d in SEED_HANDS]
    services.delete_hand(hands[0], actor=scorer)
    assert totals(sheet)["Anna"] == 108 - 240
    with pytest.raises(services.LedgerError) as info:
        services.delete_hand(hands[0], actor=scorer)
    assert info.value.code == "hand_deleted"
    with pytest.raises(services.LedgerError) as info:
        services.correct_hand(hands[0], SEED_HANDS[0], actor=scorer)
    assert info.value.code == "hand_deleted"
    services.restore_hand(hands[0], actor=scorer)
    assert totals(sheet) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    with pytest.raises(services.LedgerError) as info:
        services.restore_hand(hands[0], actor=scorer)
    assert info.value.code == "hand_not_deleted"
    actions = list(hands[0].revisions.values_list("action", flat=True))
    assert actions == ["created", "deleted", "restored"]
    # a new hand after a deletion takes the next number, never a deleted one's
    services.delete_hand(hands[4], actor=scorer)
    new = services.record_hand(sheet, SEED_HANDS[4], actor=scorer)
    assert new.number == 6


MOUCHES = [
    {"dealer": "Anna"},  # everybody passed: antes 40, Anna stakes 5 -> pool 45
    {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 1, "points": 40},
    {"dealer": "Carl", "taker": "Dora", "contract": "garde", "bouts": 2, "points": 50},
]


def test_mouches_pools_carry_and_correction_rescores_later_hands(make_sheet, scorer):
    sheet = make_sheet(rules="mouches")
    hands = [services.record_hand(sheet, d, actor=scorer) for d in MOUCHES]
    hands = list(sheet.hands.order_by("number"))
    # hand 2: Bert stakes 5 (pool 50); Carl fails by 11 (11 each) and pays 50 -> [50, 50]
    # hand 3: Carl stakes 5 on the oldest largest (55, 50); Dora makes by 9 (18 each), takes 55
    assert [h.pools for h in hands] == [[45], [50, 50], [50]]
    assert sum(totals(sheet).values()) + sum(hands[-1].pools) == 0
    assert totals(sheet) == {
        "Anna": Decimal(-10 - 5 + 11 - 18),
        "Bert": Decimal(-10 - 5 + 11 - 18),
        "Carl": Decimal(-10 - 33 - 50 - 5 - 18),
        "Dora": Decimal(-10 + 11 + 54 + 55),
    }
    # Carl's hand corrected to made: he takes the pool, so hand 3 finds no pool
    services.correct_hand(hands[1], dict(MOUCHES[1], points=60), actor=scorer)
    hands = list(sheet.hands.order_by("number"))
    # hand 2: made by 9: 9 each; Carl takes 50 -> no pool
    # hand 3: antes 40 -> pool 40, Carl stakes 5 -> 45, Dora takes 45
    assert [h.pools for h in hands] == [[45], [], []]
    assert sum(totals(sheet).values()) == 0
    assert totals(sheet)["Dora"] == Decimal(-10 - 9 - 10 + 54 + 45)


def test_mouches_delete_rescores_later(make_sheet, scorer):
    sheet = make_sheet(rules="mouches")
    hands = [services.record_hand(sheet, d, actor=scorer) for d in MOUCHES]
    services.delete_hand(hands[1], actor=scorer)
    live = list(sheet.hands.live().order_by("number"))
    # without hand 2: hand 3 finds the 45 pool, Carl stakes 5, Dora takes 50
    assert live[-1].pools == []
    assert sum(totals(sheet).values()) == 0


def test_create_sheet_refusals(season, players, scorer, club):
    import datetime

    from clubs.models import Club, Player

    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(season=season, players=players[:1], date=datetime.date.today())
    assert info.value.code == "seat_count"
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(
            season=season, players=[players[0], players[0], players[1]], date=datetime.date.today()
        )
    assert info.value.code == "duplicate_player"
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, name="X")
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(
            season=season, players=[*players[:3], stranger], date=datetime.date.today()
        )
    assert info.value.code == "player_not_in_club"
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(
            season=season, players=players[:4], date=datetime.date.today(), rules="belote"
        )
    assert info.value.code == "rules_invalid"


def test_sheet_rules_are_frozen(make_sheet, season, scorer):
    sheet = make_sheet()
    season.rules = {"preset": "fft", "rounding": 10}
    season.save()
    hand = services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    assert {r.score for r in hand.scores.all()} == {240, -80}
