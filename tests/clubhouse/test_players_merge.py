"""Merging two players into one (``clubhouse.players``): everything moves in one
transaction, every total equals a rebuild from the ledger, standings are unchanged
but for the merge, and the merge can be undone until a later change touches it."""

import datetime
from decimal import Decimal

import pytest

from clubhouse.players import club_players, merge_players, undo_blocker, undo_merge
from clubs.models import AuditEntry, Player
from clubs.services import rename_player
from scoresheet import editing, facts, services
from scoresheet.models import Hand, ScoreRow, SeasonTotal, Seat, SheetFacts, SheetTotal
from scoresheet.totals import rebuild_season_totals
from tests.data import SEED_HANDS

COUNTERS = ("seated", "hands", "taken", "made", "score")
#: Every column a SheetTotal counts: the standings' counters and the statistics' facts.
FACTS = facts.NAMES


def _totals():
    """Both summary tables, without the revision stamps."""
    sheets = sorted(
        SheetTotal.objects.values_list("sheet_id", "player_id", "season_id", "date", *FACTS)
    )
    seasons = sorted(SeasonTotal.objects.values_list("season_id", "player_id", "sheets", *COUNTERS))
    sheet_facts = sorted(
        SheetFacts.objects.values_list("sheet_id", "season_id", "date", *facts.SHEET_NAMES)
    )
    return sheets, seasons, sheet_facts


def _assert_totals_match_the_ledger(season):
    kept = _totals()
    rebuild_season_totals(season)
    assert _totals() == kept


@pytest.fixture
def helene(club, season, players):
    """A sheet seating "Helene" (a second player for Anna's table-mate typed without
    accents), with a poignée shown by Helene, beside a sheet of the real "Hélène"."""
    real = Player.objects.create(club=club, name="Hélène")
    typo = Player.objects.create(club=club, name="Helen")
    a, b, c = players[:3]
    first = services.create_sheet(
        season=season, players=[a, b, c, real], date=datetime.date(2026, 3, 1)
    )
    second = services.create_sheet(
        season=season, players=[a, b, c, typo], date=datetime.date(2026, 3, 8)
    )
    for sheet, name in ((first, "Hélène"), (second, "Helen")):
        services.record_hand(
            sheet, {"dealer": "Anna", "taker": name, "contract": "garde", "bouts": 2, "points": 56}
        )
        services.record_hand(
            sheet,
            {
                "dealer": name,
                "taker": "Bert",
                "contract": "prise",
                "bouts": 1,
                "points": 50,
                "poignees": [{"player": name, "size": "single"}],
            },
        )
    return real, typo, first, second


def test_merging_moves_everything_and_keeps_totals_equal_to_the_ledger(season, helene, scorer):
    real, typo, first, second = helene
    others_before = {row[1]: row for row in _totals()[1] if row[1] not in (real.pk, typo.pk)}
    real_total = SeasonTotal.objects.get(player=real).score
    typo_total = SeasonTotal.objects.get(player=typo).score

    entry = merge_players(real, typo, actor=scorer)

    assert not Seat.objects.filter(player=typo).exists()
    assert not ScoreRow.objects.filter(player=typo).exists()
    assert not SheetTotal.objects.filter(player=typo).exists()
    assert not SeasonTotal.objects.filter(player=typo).exists()
    assert not Hand.objects.filter(taker=typo).exists()
    assert not Hand.objects.filter(dealer=typo).exists()
    hand = second.hands.get(number=2)
    assert hand.poignees == [{"player": real.pk, "size": "single"}]
    merged_total = SeasonTotal.objects.get(player=real)
    assert merged_total.score == real_total + typo_total
    assert merged_total.sheets == 2
    # the other players' standings are unchanged
    assert {
        row[1]: row for row in _totals()[1] if row[1] not in (real.pk, typo.pk)
    } == others_before
    _assert_totals_match_the_ledger(season)
    typo.refresh_from_db()
    assert typo.merged_into == real and not typo.is_active
    assert entry.action == AuditEntry.Action.PLAYERS_MERGED
    assert entry.after["_sheets"] == [second.pk]
    assert entry.after["_merged_id"] == typo.pk
    # the sheet still scores: a hand after the merge names the kept player
    services.record_hand(
        second, {"dealer": "Anna", "taker": "Hélène", "contract": "garde", "bouts": 2, "points": 60}
    )
    _assert_totals_match_the_ledger(season)


def test_undo_moves_everything_back(season, helene, scorer):
    real, typo, first, second = helene
    before = _totals()
    hands_before = list(
        Hand.objects.order_by("pk").values_list("pk", "dealer", "taker", "poignees")
    )
    merge_players(real, typo, actor=scorer)
    assert undo_blocker(AuditEntry.objects.first()) is None
    undo_merge(typo, actor=scorer)
    assert _totals() == before
    assert (
        list(Hand.objects.order_by("pk").values_list("pk", "dealer", "taker", "poignees"))
        == hands_before
    )
    typo.refresh_from_db()
    assert typo.merged_into is None and typo.is_active
    assert AuditEntry.objects.first().action == AuditEntry.Action.MERGE_UNDONE
    _assert_totals_match_the_ledger(season)


@pytest.mark.parametrize("later", ["hand", "rename", "sheet"])
def test_a_later_change_blocks_the_undo(season, helene, scorer, later):
    real, typo, first, second = helene
    merge_players(real, typo, actor=scorer)
    if later == "hand":
        services.record_hand(
            second,
            {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 60},
        )
    elif later == "rename":
        rename_player(real, "Hélène B.", actor=None)
    else:
        editing.update_sheet(
            second, date=datetime.date(2026, 3, 9), table="2", season=season, actor=scorer
        )
    with pytest.raises(services.LedgerError) as refused:
        undo_merge(typo, actor=scorer)
    assert refused.value.code == "merge_changed"
    typo.refresh_from_db()
    assert typo.merged_into == real


def test_a_change_elsewhere_does_not_block_the_undo(season, helene, scorer, make_sheet):
    real, typo, first, second = helene
    merge_players(real, typo, actor=scorer)
    services.record_hand(
        first, {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 60}
    )
    undo_merge(typo, actor=scorer)
    _assert_totals_match_the_ledger(season)


def test_players_who_sat_together_are_not_merged(helene, players):
    real, typo, first, second = helene
    before = _totals()
    with pytest.raises(services.LedgerError) as refused:
        merge_players(real, players[0])
    assert refused.value.code == "players_share_sheet"
    assert _totals() == before
    assert not Player.objects.filter(merged_into__isnull=False).exists()


def test_merge_refusals(club, helene, django_user_model):
    real, typo, first, second = helene
    with pytest.raises(services.LedgerError) as refused:
        merge_players(real, real)
    assert refused.value.code == "merge_same"
    real.user = django_user_model.objects.create_user("h1")
    real.save()
    typo.user = django_user_model.objects.create_user("h2")
    typo.save()
    with pytest.raises(services.LedgerError) as refused:
        merge_players(real, typo)
    assert refused.value.code == "both_linked"
    typo.user = None
    typo.save()
    merge_players(real, typo)
    with pytest.raises(services.LedgerError) as refused:
        merge_players(typo, real)
    assert refused.value.code == "player_merged"


def test_the_merged_players_login_moves_and_comes_back(helene, django_user_model):
    real, typo, first, second = helene
    login = django_user_model.objects.create_user("helene")
    typo.user = login
    typo.save()
    merge_players(real, typo)
    real.refresh_from_db()
    assert real.user == login
    undo_merge(typo)
    real.refresh_from_db()
    typo.refresh_from_db()
    assert real.user is None and typo.user == login


def test_a_deleted_sheet_merges_and_restores_under_the_kept_player(season, helene):
    real, typo, first, second = helene
    editing.delete_sheet(second)
    merge_players(real, typo)
    editing.restore_sheet(second)
    assert set(ScoreRow.objects.filter(sheet=second).values_list("player_id", flat=True)) == {
        p.pk for p in [*Player.objects.filter(name__in=["Anna", "Bert", "Carl"]), real]
    }
    _assert_totals_match_the_ledger(season)


def test_the_player_list_counts_hands_and_evenings(club, helene, django_assert_num_queries):
    real, typo, first, second = helene
    merge_players(real, typo)
    with django_assert_num_queries(2):
        listed = {p.name: p for p in club_players(club)}
    assert "Helen" not in listed  # merged into Hélène
    assert listed["Hélène"].hands == 4
    assert listed["Hélène"].first == datetime.date(2026, 3, 1)
    assert listed["Hélène"].last == datetime.date(2026, 3, 8)
    assert listed["Anna"].hands == 4
    assert listed["Emil"].hands == 0 and listed["Emil"].first is None


def test_seed_sheet_merge_keeps_the_sum(season, players, club):
    """A player of the seed sheet merged into one who never played: totals identical."""
    alias = Player.objects.create(club=club, name="Annabel")
    sheet = services.create_sheet(
        season=season, players=players[:4], date=datetime.date(2026, 2, 2)
    )
    for hand in SEED_HANDS:
        services.record_hand(sheet, hand)
    anna = SeasonTotal.objects.get(player=players[0])
    merge_players(alias, players[0])
    moved = SeasonTotal.objects.get(player=alias)
    assert (moved.score, moved.hands, moved.taken) == (anna.score, anna.hands, anna.taken)
    assert moved.score == Decimal(108)
    _assert_totals_match_the_ledger(season)
