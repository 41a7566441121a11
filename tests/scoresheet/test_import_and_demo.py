import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum

from clubs.models import Club, Player
from scoresheet.demo import random_hand
from scoresheet.models import Hand, ScoreRow, Sheet
from tests.data import SEED_HANDS, SEED_TOTALS


def write_lines(tmp_path, lines):
    path = tmp_path / "sheets.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_import_sheets_all_or_nothing_per_line(tmp_path, club, season, players):
    good = {
        "rules": "fft",
        "players": ["Anna", "Bert", "Carl", "Dora"],
        "date": "2026-03-14",
        "table": "2",
        "hands": SEED_HANDS,
    }
    new_players = (
        '{"players": ["Anna", "Zoé", "Yann"], "hands": '
        '[{"taker": "Zoé", "contract": "prise", "bouts": 1, "points": 51.5}]}'
    )
    bad_hand = {
        "players": ["Anna", "Bert", "Carl", "Dora"],
        "hands": [SEED_HANDS[0], dict(SEED_HANDS[1], points=95)],
    }
    path = write_lines(tmp_path, [json.dumps(good), "{not json", json.dumps(bad_hand), new_players])
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError):
        call_command("import_sheets", "--club", "rive", path, stdout=out, stderr=err)
    assert "imported 2 sheets (6 hands), refused 2 lines" in out.getvalue()
    assert "line 2: refused: json_invalid" in err.getvalue()
    assert "line 3: refused (hand 2): points_out_of_range" in err.getvalue()
    assert Sheet.objects.count() == 2  # line 3 left nothing behind
    assert Hand.objects.count() == 6
    sheet = Sheet.objects.get(table="2")
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    assert {r["player__name"]: r["t"] for r in rows} == SEED_TOTALS
    # players matched by name, new ones created in the club
    assert set(Player.objects.filter(club=club).values_list("name", flat=True)) >= {"Zoé", "Yann"}
    assert Player.objects.filter(club=club, name="Anna").count() == 1


def test_import_sheets_unknown_club(tmp_path, db):
    with pytest.raises(CommandError, match="No club"):
        call_command("import_sheets", "--club", "nope", write_lines(tmp_path, ["{}"]))


def test_load_demo_is_reproducible_and_covers_every_bonus(db):
    call_command("load_demo", stdout=StringIO())
    club = Club.objects.get(slug="demo")
    rows = ScoreRow.objects.filter(sheet__club=club)
    first = list(
        rows.order_by(
            "hand__sheet__date", "hand__sheet__table", "hand__number", "position"
        ).values_list("score", flat=True)
    )
    pools = [
        sheet.hands.live().exclude(pools=None).order_by("-number").first().pools
        for sheet in Sheet.objects.filter(club=club, rules__preset="mouches")
    ]
    assert len(pools) == 1
    assert sum(first) + sum(pools[0]) == 0  # every point is with a player or in a pool
    seats = {s.seats.count() for s in Sheet.objects.filter(club=club)}
    assert {3, 4, 5, 6} <= seats
    hands = Hand.objects.filter(sheet__club=club)
    assert hands.filter(petit_au_bout="attack").exists()
    assert hands.filter(petit_au_bout="defence").exists()
    for size in ("single", "double", "triple"):
        assert rows.filter(poignee=size).exists(), size
    for chelem in ("announced_made", "made", "defence"):
        assert rows.filter(chelem=chelem).exists(), chelem
    assert rows.filter(misere=True).exists()
    assert hands.filter(taker__isnull=True).exists()
    assert hands.exclude(pools=None).exists()
    assert hands.filter(sits_out__isnull=False).exists()
    # idempotent, and the same seed rebuilds the same ledger
    call_command("load_demo", stdout=StringIO())
    assert Club.objects.filter(slug="demo").count() == 1
    call_command("load_demo", "--reset", stdout=StringIO())
    again = list(
        ScoreRow.objects.filter(sheet__club__slug="demo")
        .order_by("hand__sheet__date", "hand__sheet__table", "hand__number", "position")
        .values_list("score", flat=True)
    )
    assert again == first


@pytest.mark.parametrize(
    ("rules", "sits_out"),
    [
        ("fft", "Bert"),  # French Tarot at six: the dealer sits out
        ("savoyard", "Anna"),  # the Savoyard rules at six: the dealer's left (before him)
    ],
)
def test_demo_hand_at_a_table_of_one_more_sits_out_whom_the_rules_say(rules, sits_out):
    names = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
    for seed in range(5):
        hand = random_hand(random.Random(seed), names, rules, "Bert")
        assert (hand["dealer"], hand["sits_out"]) == ("Bert", sits_out)
