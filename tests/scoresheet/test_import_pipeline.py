"""``importing.import_sheets``' pipeline: lines read and scored ahead in a thread
(``_prepare``), written on the caller's connection (``_write``), or on several at
once (``writers``, PostgreSQL). What a line gives must not depend on it: the same
refusal in the same order of checks, the stored names in the history, the
caller's language, the lines' order, and totals equal to a rebuild from the ledger.
"""

import datetime
import json

import pytest
from django.db import connection
from django.utils import translation

from clubs.models import Club, Player, Season
from core.db import flush_to_disk
from ratings import keeping
from scoresheet import importing, totals
from scoresheet.models import HandRevision, ScoreRow, SeasonTotal, Sheet, SheetTotal
from tests.data import NAMES

GOOD_HAND = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
FOUR = ["Anna", "Bert", "Carl", "Dora"]


def line(players=FOUR, hands=(GOOD_HAND,), **fields):
    return json.dumps({"players": list(players), "hands": list(hands), **fields})


def test_a_bad_name_is_refused_before_a_bad_hand_as_the_services_check(club, season, players):
    """The players are checked before the hands (``players_by_names``, then
    ``create_sheet``, then the hands), though the hands are scored first, ahead."""
    bad_hand = dict(GOOD_HAND, points=95)
    [empty_name] = importing.import_sheets(
        club, [line(players=["Anna", "", "Carl", "Dora"], hands=[bad_hand])], season=season
    )
    [seated_twice] = importing.import_sheets(
        club, [line(players=["Anna", "Anna", "Carl", "Dora"], hands=[bad_hand])], season=season
    )
    [bad_rules] = importing.import_sheets(
        club, [line(hands=[bad_hand], rules={"preset": "no such"})], season=season
    )
    [hand] = importing.import_sheets(club, [line(hands=[GOOD_HAND, bad_hand])], season=season)
    assert (empty_name.code, empty_name.hand) == ("name_required", None)
    assert (seated_twice.code, seated_twice.hand) == ("duplicate_player", None)
    assert bad_rules.code and bad_rules.hand is None
    assert hand.code and hand.hand == 2
    assert not Sheet.objects.exists()


def test_names_written_otherwise_are_stored_as_the_club_spells_them_in_the_history(
    club, season, players
):
    hands = [dict(GOOD_HAND, dealer="Dora", taker="anna")]  # as the line names them
    [result] = importing.import_sheets(
        club, [line(players=["anna", "bert", "CARL", "Dora"], hands=hands)], season=season
    )
    assert result.ok
    after = HandRevision.objects.get().after
    assert after["hand"]["taker"] == "Anna" and after["hand"]["dealer"] == "Dora"
    assert set(after["scores"]) == set(FOUR)
    assert set(ScoreRow.objects.values_list("player__name", flat=True)) == set(FOUR)


def test_the_club_players_are_read_once_for_lines_that_seat_known_players(
    club, season, players, monkeypatch
):
    """An import's writer reads the club's players for its first line and matches
    the next ones against them; a line naming someone new reads them again (and
    creates the player), and so does the line after it. (The ratings, re-rated after
    each sheet, are left out: their queries depend on what was rated before.)"""
    monkeypatch.setattr(keeping, "rerate_club", lambda club_id, sheets=None: None)
    lines = [
        line(),
        line(),
        line(players=["Anna", "Bert", "Carl", "Zoé"], hands=[dict(GOOD_HAND, dealer="Zoé")]),
        line(),
    ]
    first, known, new, after_new = importing.import_sheets(club, lines, season=season)
    assert all(r.ok for r in (first, known, new, after_new))
    # the same sheet written again, without the query of the club's players
    assert known.queries == first.queries - 1
    assert after_new.queries == first.queries
    assert Player.objects.filter(club=club, name="Zoé").count() == 1


def test_refusals_are_in_the_callers_language(club, season, players):
    bad = line(hands=[5])
    with translation.override("fr"):
        [french] = importing.import_sheets(club, [bad], season=season)
    with translation.override("en"):
        [english] = importing.import_sheets(club, [bad], season=season)
    assert english.message == "A hand must be an object."
    assert french.message == "Une donne doit être un objet."


def test_each_line_finds_its_season_by_name_or_by_date(club, season, players):
    autumn = Season.objects.create(
        club=club,
        name="2025",
        start_date=datetime.date(2025, 9, 1),
        end_date=datetime.date(2025, 12, 31),
    )
    lines = [
        line(date="2025-10-02"),
        line(date="2026-02-02"),
        line(date="2026-02-03", season="2025"),
        line(date="2026-02-04", season="no such season"),
    ]
    results = list(importing.import_sheets(club, lines))
    assert [r.sheet.season_id for r in results[:3]] == [autumn.pk, season.pk, autumn.pk]
    assert results[3].code == "season_unknown"


@pytest.mark.django_db(transaction=True)
def test_several_writers_give_each_line_its_result_in_order_and_the_same_totals():
    """Two writers (PostgreSQL): lines that create players are written alone, the
    others two at a time; the results come in the lines' order, refused lines
    included, and the season's totals equal a rebuild from the ledger."""
    if connection.vendor != "postgresql":
        pytest.skip("several writers need PostgreSQL (SQLite writes one at a time)")
    club = Club.objects.create(name="Club", slug="club")
    season = Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    Player.objects.create(club=club, name=NAMES[0])
    names = [*NAMES, "Zoé", "Yann"]
    lines = []
    for i in range(24):
        seated = [names[(i + k) % len(names)] for k in range(4 + i % 2)]
        hands = [
            {
                "dealer": seated[-1],
                "taker": seated[h % len(seated)],
                "contract": "garde",
                "bouts": 2,
                "points": 40 + h,
            }
            for h in range(6)
        ]
        if i == 7:
            hands[3]["points"] = 95  # refused: more than 91 points
        lines.append(line(players=seated, hands=hands, date="2026-03-14"))
    results = list(importing.import_sheets(club, lines, season=season, writers=2))
    assert [r.line for r in results] == list(range(1, 25))
    assert [r.ok for r in results] == [i != 7 for i in range(24)]
    assert results[7].code and results[7].hand == 4
    assert Sheet.objects.count() == 23 and all(r.hands == 6 for r in results if r.ok)
    assert Player.objects.filter(club=club).count() == len(names)
    kept = sorted(SeasonTotal.objects.values_list("player_id", "seated", "hands", "score"))
    sheets = sorted(SheetTotal.objects.values_list("sheet_id", "player_id", "score"))
    totals.rebuild_season_totals(season)
    assert sorted(SeasonTotal.objects.values_list("player_id", "seated", "hands", "score")) == kept
    assert sorted(SheetTotal.objects.values_list("sheet_id", "player_id", "score")) == sheets


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("last_refused", [False, True])
def test_with_several_writers_every_line_written_is_on_disk_when_the_import_ends(
    last_refused, monkeypatch
):
    """The writers' commits do not wait for the disk; once every line is written,
    and before the import gives its last result, the WAL is flushed
    (``core.db.flush_to_disk``, whose own test shows it flushes at once)."""
    if connection.vendor != "postgresql":
        pytest.skip("several writers need PostgreSQL (SQLite writes one at a time)")
    club = Club.objects.create(name="Club", slug="club")
    season = Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    lines = [line(hands=[GOOD_HAND] * 3, date="2026-03-14") for _ in range(7)]
    if last_refused:
        lines.append(line(hands=[dict(GOOD_HAND, points=95)], date="2026-03-14"))
    else:
        lines.append(line(hands=[GOOD_HAND], date="2026-03-14"))
    events = []

    def flush(*args, **kwargs):
        events.append(("flush", Sheet.objects.count()))  # every line is written by now
        return flush_to_disk(*args, **kwargs)

    monkeypatch.setattr(importing, "flush_to_disk", flush)
    results = []
    for result in importing.import_sheets(club, lines, season=season, writers=3):
        events.append(("result", result.line))
        results.append(result)
    assert events[-2:] == [("flush", 7 + (not last_refused)), ("result", 8)]
    assert [e for e in events if e[0] == "flush"] == [events[-2]]  # once
    assert [r.ok for r in results] == [True] * 7 + [not last_refused]
    assert all(r.queries > 0 for r in results)
    assert Sheet.objects.count() == 7 + (not last_refused)
