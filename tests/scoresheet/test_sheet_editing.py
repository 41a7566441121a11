"""Changing a sheet after it is opened (``scoresheet.editing``): date, table, season and
seating; notes; closing; deleting and restoring the whole sheet. Totals always equal
a rebuild from the ledger."""

import datetime

import pytest

from clubs.models import AuditEntry, Season
from scoresheet import editing, facts, services
from scoresheet.models import (
    Hand,
    HandRevision,
    ScoreRow,
    SeasonTotal,
    Seat,
    SheetFacts,
    SheetTotal,
)
from scoresheet.totals import rebuild_season_totals
from tests.data import SEED_HANDS, SEED_TOTALS

COUNTERS = ("seated", "hands", "taken", "made", "score")
#: Every column a SheetTotal counts: the standings' counters and the statistics' facts.
FACTS = facts.NAMES


def _totals():
    return (
        sorted(
            SheetTotal.objects.values_list("sheet_id", "player_id", "season_id", "date", *FACTS)
        ),
        sorted(SeasonTotal.objects.values_list("season_id", "player_id", "sheets", *COUNTERS)),
        sorted(SheetFacts.objects.values_list("sheet_id", "season_id", "date", *facts.SHEET_NAMES)),
    )


def _matches_ledger(*seasons):
    kept = _totals()
    for season in seasons:
        rebuild_season_totals(season)
    return _totals() == kept


@pytest.fixture
def seed_sheet(make_sheet):
    sheet = make_sheet(4)
    for hand in SEED_HANDS:
        services.record_hand(sheet, hand)
    return sheet


@pytest.fixture
def autumn(club):
    return Season.objects.create(
        club=club, name="2026 autumn", start_date=datetime.date(2026, 9, 1)
    )


def _season_scores(season):
    return {
        t.player.name: t.score
        for t in SeasonTotal.objects.filter(season=season).select_related("player")
    }


def test_moving_a_sheet_to_another_season_moves_its_totals(season, autumn, seed_sheet, scorer):
    editing.update_sheet(
        seed_sheet, date=datetime.date(2026, 9, 12), table="3", season=autumn, actor=scorer
    )
    seed_sheet.refresh_from_db()
    assert (seed_sheet.date, seed_sheet.table, seed_sheet.season) == (
        datetime.date(2026, 9, 12),
        "3",
        autumn,
    )
    assert _season_scores(season) == {}
    assert _season_scores(autumn) == SEED_TOTALS
    assert set(ScoreRow.objects.filter(sheet=seed_sheet).values_list("date", "season_id")) == {
        (datetime.date(2026, 9, 12), autumn.pk)
    }
    assert _matches_ledger(season, autumn)
    entry = AuditEntry.objects.first()
    assert entry.action == AuditEntry.Action.SHEET_UPDATED
    assert entry.before["season"] == "2026" and entry.after["season"] == "2026 autumn"


def test_seating_changes_only_before_the_first_hand(make_sheet, players, season, scorer):
    sheet = make_sheet(4)
    new = [players[4], players[1], players[2], players[0], players[5]]
    editing.update_sheet(sheet, date=sheet.date, table="", season=season, players=new)
    assert list(sheet.seats.order_by("position").values_list("player__name", flat=True)) == [
        "Emil",
        "Bert",
        "Carl",
        "Anna",
        "Fred",
    ]
    sheet.refresh_from_db()
    assert sheet.seat_count == 5
    services.record_hand(
        sheet,
        {
            "dealer": "Emil",
            "taker": "Bert",
            "contract": "garde",
            "bouts": 2,
            "points": 56,
            "partner": "Carl",
        },
    )
    before = list(Seat.objects.filter(sheet=sheet).values_list("player_id", "position"))
    with pytest.raises(services.LedgerError) as refused:
        editing.update_sheet(sheet, date=sheet.date, table="", season=season, players=players[:4])
    assert refused.value.code == "seating_has_hands"
    assert list(Seat.objects.filter(sheet=sheet).values_list("player_id", "position")) == before


def test_a_tournament_sheet_is_refused(make_sheet, club, season):
    cup = Season.objects.create(
        club=club, name="Cup", kind=Season.Kind.TOURNAMENT, start_date=season.start_date
    )
    sheet = make_sheet(4)
    sheet.season = cup
    sheet.save()
    for write in (
        lambda: editing.update_sheet(sheet, date=sheet.date, table="x", season=season),
        lambda: editing.delete_sheet(sheet),
        lambda: editing.close(sheet),
    ):
        with pytest.raises(services.LedgerError) as refused:
            write()
        assert refused.value.code == "tournament_sheet"
    with pytest.raises(services.LedgerError) as refused:
        editing.update_sheet(make_sheet(4), date=sheet.date, table="", season=cup)
    assert refused.value.code == "season_other_club"


def test_deleting_a_sheet_takes_it_out_of_every_total_and_restoring_puts_it_back(
    season, seed_sheet, make_sheet, manager
):
    other = make_sheet(4, date=datetime.date(2026, 3, 21))
    services.record_hand(other, SEED_HANDS[0])
    before = _totals()
    hands = list(Hand.objects.filter(sheet=seed_sheet).values_list("pk", "is_deleted"))
    revisions = HandRevision.objects.count()

    editing.delete_sheet(seed_sheet, actor=manager)
    seed_sheet.refresh_from_db()
    assert seed_sheet.deleted_at is not None
    assert not ScoreRow.objects.filter(sheet=seed_sheet).exists()
    assert not SheetTotal.objects.filter(sheet=seed_sheet).exists()
    assert _matches_ledger(season)
    # kept with its history
    assert list(Hand.objects.filter(sheet=seed_sheet).values_list("pk", "is_deleted")) == hands
    assert HandRevision.objects.count() == revisions
    # no hand while deleted, nor a second deletion
    with pytest.raises(services.LedgerError) as refused:
        services.record_hand(seed_sheet, SEED_HANDS[0])
    assert refused.value.code == "sheet_deleted"
    with pytest.raises(services.LedgerError) as refused:
        editing.delete_sheet(seed_sheet)
    assert refused.value.code == "sheet_deleted"

    editing.restore_sheet(seed_sheet, actor=manager)
    assert _totals() == before
    seed_sheet.refresh_from_db()
    assert seed_sheet.deleted_at is None and seed_sheet.hand_count == len(SEED_HANDS)
    assert [e.action for e in AuditEntry.objects.all()[:2]] == ["sheet_restored", "sheet_deleted"]
    with pytest.raises(services.LedgerError) as refused:
        editing.restore_sheet(seed_sheet)
    assert refused.value.code == "sheet_not_deleted"


def test_a_mouches_sheet_restores_with_its_pools(make_sheet, season):
    sheet = make_sheet(4, rules="mouches")
    services.record_hand(
        sheet, {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 40}
    )
    services.record_hand(
        sheet, {"dealer": "Bert", "taker": "Carl", "contract": "garde", "bouts": 2, "points": 60}
    )
    rows = sorted(
        ScoreRow.objects.filter(sheet=sheet).values_list("hand_id", "player_id", "score", "pool")
    )
    editing.delete_sheet(sheet)
    editing.restore_sheet(sheet)
    assert (
        sorted(
            ScoreRow.objects.filter(sheet=sheet).values_list(
                "hand_id", "player_id", "score", "pool"
            )
        )
        == rows
    )
    assert _matches_ledger(season)


def test_closing_and_reopening_are_audited(make_sheet, scorer, manager):
    sheet = make_sheet(4)
    editing.close(sheet, actor=scorer)
    editing.close(sheet, actor=scorer)  # closing a closed sheet changes nothing
    sheet.refresh_from_db()
    assert sheet.is_closed
    with pytest.raises(services.LedgerError) as refused:
        services.record_hand(sheet, SEED_HANDS[0])
    assert refused.value.code == "sheet_closed"
    with pytest.raises(services.LedgerError) as refused:
        editing.reopen(sheet, actor=scorer)  # a manager reopens a sheet
    assert refused.value.code == "forbidden"
    editing.reopen(sheet, actor=manager)
    sheet.refresh_from_db()
    assert not sheet.is_closed
    assert [e.action for e in AuditEntry.objects.all()[:3]] == [
        "sheet_reopened",
        "sheet_closed",
        "sheet_created",
    ]


def test_notes(seed_sheet, scorer):
    editing.set_sheet_note(seed_sheet, "  Played at Dora's.  ", actor=scorer)
    seed_sheet.refresh_from_db()
    assert seed_sheet.note == "Played at Dora's."
    hand = seed_sheet.hands.get(number=2)
    editing.set_hand_note(hand, "Bert forgot his poignée", actor=scorer)
    hand.refresh_from_db()
    assert hand.note == "Bert forgot his poignée"
    assert AuditEntry.objects.filter(action="note_changed").count() == 2
    with pytest.raises(services.LedgerError) as refused:
        editing.set_sheet_note(seed_sheet, "x" * 2001)
    assert refused.value.code == "note_too_long"
