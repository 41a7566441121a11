"""manage.py check_hands: the stored hands today's rules refuse or score otherwise."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow

GARDE = {"dealer": "Anna", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def run(**options):
    out = StringIO()
    call_command("check_hands", stdout=out, **options)
    return out.getvalue()


def test_a_clean_ledger_lists_nothing(make_sheet):
    sheet = make_sheet(4)
    for _ in range(3):
        services.record_hand(sheet, GARDE)
    assert run().splitlines() == ["checked 3 hands: 0 to look at"]


def test_an_impossible_chelem_and_a_stale_score_are_listed(make_sheet):
    sheet = make_sheet(4)
    services.record_hand(sheet, GARDE)
    chelem = services.record_hand(sheet, GARDE)
    stale = services.record_hand(sheet, GARDE)
    # As stored before RULES §5 refused it: a chelem made by the attack with 53 points.
    Hand.objects.filter(pk=chelem.pk).update(
        points=Decimal(53), chelem={"announced": False, "made_by": "attack"}
    )
    ScoreRow.objects.filter(hand=stale, player__name="Anna").update(score=Decimal(200))
    revisions, rows = HandRevision.objects.count(), list(ScoreRow.objects.values_list("score"))

    lines = run(club=sheet.club.slug).splitlines()

    assert len(lines) == 3
    assert lines[0].startswith(f"rive · sheet {sheet.pk} (2026-03-14, table 1) · hand 2: refused")
    assert "87" in lines[0]  # the engine's reason: a chelem means every trick
    assert lines[1] == (
        f"rive · sheet {sheet.pk} (2026-03-14, table 1) · hand 3: scores differ: "
        "stored Anna +200, Bert -80, Carl -80, Dora -80; "
        "now Anna +240, Bert -80, Carl -80, Dora -80"
    )
    assert lines[2] == "checked 3 hands: 2 to look at"
    # It changes nothing.
    assert HandRevision.objects.count() == revisions
    assert list(ScoreRow.objects.values_list("score")) == rows


def test_an_unknown_club_is_an_error(db):
    with pytest.raises(CommandError, match="No club"):
        run(club="nowhere")
