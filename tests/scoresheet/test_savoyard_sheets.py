"""Savoyard sheets on the ledger: storage, score rows, corrections, import, export
and ``score_hands`` (SAVOYARD.md §6)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.urls import reverse

from clubs.models import Club
from scoresheet import services
from scoresheet.importing import import_sheet_line
from scoresheet.models import Hand, HandRevision, ScoreRow

SAVOYARD = {"preset": "savoyard", "deck": 78, "count": "classic", "baga": 10}
# At five (Anna … Emil): total 68, tie 34.
CALL = {
    "dealer": "Anna",
    "mode": "call",
    "partner": "Dora",
    "count": 40,
    "baga": {"to": "declarers", "announced": False},
}
SOLO = {"dealer": "Bert", "mode": "solo", "declarer": "Carl", "cards_asked": 0, "count": 52}
TIE = {"dealer": "Carl", "mode": "call", "partner": "Anna", "count": 34}


@pytest.fixture
def sheet(make_sheet):
    return make_sheet(5, rules=SAVOYARD)


def rows(hand):
    return {r.player.name: r for r in ScoreRow.objects.filter(hand=hand).select_related("player")}


def test_a_call_is_stored_with_its_fields_and_rows(sheet):
    hand = services.record_hand(sheet, CALL)
    hand.refresh_from_db()
    assert hand.extra == {
        "mode": "call",
        "partner": hand.partner_id,
        "count": 40,
        "baga": {"to": "declarers", "announced": False},
    }
    assert hand.contract == "call" and hand.points == 40 and hand.petit_au_bout == "attack"
    assert hand.taker.name == "Anna" and hand.partner.name == "Dora"
    table = services.Table.of(sheet)
    assert services.hand_data(hand, table) == {"sits_out": None, **CALL}
    by_name = rows(hand)
    # |40 − 34| = 6: three pay 6, 9 and 9; baga 10: three pay 10, 15 and 15
    assert {n: int(r.score) for n, r in by_name.items()} == {
        "Anna": 24,
        "Bert": -16,
        "Carl": -16,
        "Dora": 24,
        "Emil": -16,
    }
    assert [by_name[n].role for n in ("Anna", "Dora", "Bert")] == ["taker", "partner", "defender"]
    assert {r.contract for r in by_name.values()} == {"call"}
    assert all(r.made is True and r.margin == 6 and r.factor == 1 for r in by_name.values())
    assert all(r.cards_asked is None and r.bouts is None for r in by_name.values())
    assert hand.explanation  # stored terms
    revision = HandRevision.objects.get(hand=hand)
    assert revision.after["hand"]["mode"] == "call"
    assert revision.after["scores"]["Anna"] == 24


def test_a_solo_as_dealt_and_a_tie(sheet):
    solo = services.record_hand(sheet, SOLO)
    by_name = rows(solo)
    # |52 − 34| = 18 × 8 = 144 from each, the soloist 576
    assert int(by_name["Carl"].score) == 576 and by_name["Carl"].role == "taker"
    assert by_name["Carl"].cards_asked == 0 and by_name["Carl"].factor == 8
    tie = services.record_hand(sheet, TIE)
    assert all(r.made is None and r.score == 0 and r.margin == 0 for r in rows(tie).values())
    totals = ScoreRow.objects.filter(sheet=sheet).aggregate(s=Sum("score"))["s"]
    assert totals == 0


def test_each_for_himself_at_three(make_sheet):
    sheet = make_sheet(3, rules="savoyard")
    counts = {"Anna": 37, "Bert": 29, "Carl": 12}
    hand = services.record_hand(sheet, {"dealer": "Carl", "mode": "each", "counts": counts})
    by_name = rows(hand)
    assert {n: int(r.score) for n, r in by_name.items()} == {"Anna": 22, "Bert": 6, "Carl": -28}
    assert {n: r.margin for n, r in by_name.items()} == {"Anna": 11, "Bert": 3, "Carl": -14}
    assert all(r.role == "defender" and r.made is None for r in by_name.values())
    assert services.hand_data(hand, services.Table.of(sheet))["counts"] == counts


def test_six_seated_one_sits_out(make_sheet):
    sheet = make_sheet(6, rules="savoyard")
    hand = services.record_hand(
        sheet,
        {"dealer": "Anna", "sits_out": "Fred", **{k: v for k, v in SOLO.items() if k != "dealer"}},
    )
    by_name = rows(hand)
    assert by_name["Fred"].role == "out" and by_name["Fred"].score == 0


def test_a_refused_hand_names_its_field_and_writes_nothing(sheet):
    with pytest.raises(services.LedgerError) as caught:
        services.record_hand(sheet, {**CALL, "partner": "Anna"})
    assert caught.value.code == "partner_is_dealer"
    with pytest.raises(services.LedgerError) as caught:
        services.record_hand(sheet, {**CALL, "count": 69})
    assert caught.value.code == "count_out_of_range"
    with pytest.raises(services.LedgerError) as caught:
        services.record_hand(sheet, {**CALL, "bouts": 2})
    assert caught.value.code == "invalid_field"
    assert not Hand.objects.filter(sheet=sheet).exists()
    assert not ScoreRow.objects.filter(sheet=sheet).exists()


def test_correct_delete_restore_and_preview(sheet):
    hand = services.record_hand(sheet, CALL)
    preview = services.preview_hand(sheet, SOLO)
    assert preview.detail.factor == 8
    assert Hand.objects.filter(sheet=sheet).count() == 1  # a preview writes nothing
    services.correct_hand(hand, SOLO)
    hand.refresh_from_db()
    assert hand.extra["mode"] == "solo" and "partner" not in hand.extra
    assert int(rows(hand)["Carl"].score) == 576
    corrected = HandRevision.objects.get(hand=hand, action="corrected")
    assert corrected.before["hand"]["mode"] == "call"
    assert corrected.after["hand"]["declarer"] == "Carl"
    services.delete_hand(hand)
    assert not ScoreRow.objects.filter(hand=hand).exists()
    services.restore_hand(hand)
    assert int(rows(hand)["Carl"].score) == 576


def test_export_then_import_gives_the_same_sheet(client, scorer, sheet, season):
    services.record_hand(sheet, CALL)
    services.record_hand(sheet, SOLO)
    services.record_hand(sheet, TIE)
    client.force_login(scorer)
    response = client.get(reverse("scoresheet:sheet_export", args=["rive", sheet.pk]))
    assert response.status_code == 200
    data = json.loads(response.content)
    assert data["rules"] == SAVOYARD
    assert data["hands"][0] == CALL
    assert data["hands"][1] == SOLO
    copy = import_sheet_line(Club.objects.get(slug="rive"), json.dumps(data), season=season)
    assert copy.rules == SAVOYARD
    mine = list(ScoreRow.objects.filter(sheet=sheet).values_list("hand__number", "player", "score"))
    theirs = list(
        ScoreRow.objects.filter(sheet=copy).values_list("hand__number", "player", "score")
    )
    assert sorted(mine) == sorted(theirs)


def test_import_refuses_a_bad_savoyard_hand_and_keeps_nothing(club, season, players):
    line = {
        "rules": "savoyard",
        "players": ["Anna", "Bert", "Carl", "Dora"],
        "hands": [
            {"dealer": "Anna", "mode": "partners", "count": 50},
            {"dealer": "Anna", "mode": "each"},
        ],
    }
    with pytest.raises(services.LedgerError) as caught:
        import_sheet_line(club, json.dumps(line), season=season)
    assert (caught.value.code, caught.value.hand) == ("mode_not_played", 2)
    assert not Hand.objects.exists()


def test_score_hands_command_scores_savoyard_lines():
    line = {
        "rules": SAVOYARD,
        "players": ["A", "B", "C", "D", "E"],
        **CALL,
        "partner": "D",
        "dealer": "A",
    }
    out = StringIO()
    call_command("score_hands", "--explain", stdin=StringIO(json.dumps(line) + "\n"), stdout=out)
    result = json.loads(out.getvalue())
    assert result["scores"] == {"A": 24, "B": -16, "C": -16, "D": 24, "E": -16}
    assert result["explanation"].startswith("|40 − 34| = 6 × 1; three pay 6")


def test_the_demo_club_has_a_savoyard_season(db):
    call_command("load_demo", stdout=StringIO())
    club = Club.objects.get(slug="demo")
    season = club.seasons.get(name="Chambéry 1902")
    assert season.rules == {"preset": "savoyard"}
    hands = Hand.objects.filter(sheet__season=season)
    assert {s.seats.count() for s in season.sheets.all()} == {3, 5}
    modes = set(hands.values_list("contract", flat=True))
    assert {"call", "solo"} <= modes
    assert hands.filter(extra__cards_asked=0).exists()  # a solo as dealt
    assert hands.exclude(petit_au_bout="").exists()  # a baga
    rows = ScoreRow.objects.filter(season=season)
    assert rows.filter(made__isnull=True, contract="call").exists()  # a tie
    assert rows.aggregate(s=Sum("score"))["s"] == 0
    # the French Tarot season is untouched: no Savoyard mode in it
    assert (
        not ScoreRow.objects.filter(sheet__club=club, season__name="2026–2027")
        .filter(contract__in=("solo", "call", "partners", "each"))
        .exists()
    )
