"""manage.py score_hands: JSON Lines in, one JSON line out per line (no database)."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.core.management import call_command

FOUR = ["Anna", "Bert", "Carl", "Dora"]
GOOD_HAND = {"players": FOUR, "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
# the seed's hand 5: (25 + 4) × 2 + 20 = 78 per defender
POIGNEE_HAND = {
    "players": FOUR,
    "taker": "Dora",
    "contract": "garde",
    "bouts": 3,
    "points": 40,
    "poignees": [{"player": "Anna", "size": "single"}],
}
SHEET = {"rules": "fft", "players": FOUR, "hands": [GOOD_HAND | {"players": FOUR}, {}]}


def run(text, *args):
    out = StringIO()
    call_command("score_hands", *args, stdin=StringIO(text), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_one_output_line_per_input_line_in_order():
    lines = [
        json.dumps(GOOD_HAND),
        '{"players": ["Anna", "Bert", "Carl", "Dora"], "taker": ',  # malformed
        json.dumps(POIGNEE_HAND),
    ]
    out = run("\n".join(lines) + "\n")
    assert len(out) == 3
    assert out[0] == {"scores": {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}}
    assert list(out[1]) == ["error"]
    assert out[1]["error"]["code"] == "json_invalid"
    assert out[2] == {"scores": {"Anna": -78, "Bert": -78, "Carl": -78, "Dora": 234}}


def test_refused_hands_and_blank_lines_keep_their_place():
    lines = [
        json.dumps(GOOD_HAND | {"points": 88}),
        "",
        json.dumps(SHEET),
        json.dumps({"players": FOUR, "hands": [GOOD_HAND, GOOD_HAND | {"bouts": 4}]}),
    ]
    out = run("\n".join(lines))  # no newline after the last line
    assert [next(iter(o)) for o in out] == ["error", "error", "hands", "error"]
    assert out[0]["error"]["code"] == "points_bouts_inconsistent"
    assert out[1]["error"]["code"] == "json_invalid"
    assert "empty line" in out[1]["error"]["message"]
    assert out[2]["totals"] == {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}
    assert out[3]["error"]["hand"] == 2
    assert out[3]["error"]["code"] == "bouts_out_of_range"


def test_explain():
    out = run(json.dumps(POIGNEE_HAND) + "\n" + json.dumps(SHEET) + "\n", "--explain")
    assert out[0]["explanation"] == "(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234"
    assert [h["explanation"] for h in out[1]["hands"]] == [
        "(25 + 15) × 2 = 80 per defender; taker +240",
        "everybody passed",
    ]


def test_without_explain_no_explanation():
    assert "explanation" not in run(json.dumps(POIGNEE_HAND))[0]


def test_empty_input_writes_nothing():
    out = StringIO()
    call_command("score_hands", stdin=StringIO(""), stdout=out)
    assert out.getvalue() == ""


def test_names_and_explanations_are_not_escaped():
    hand = GOOD_HAND | {"players": ["Anaïs", "Béa", "Çelik", "Dörte"], "taker": "Béa"}
    out = StringIO()
    call_command("score_hands", "--explain", stdin=StringIO(json.dumps(hand)), stdout=out)
    text = out.getvalue()
    assert '"Béa": 240' in text
    assert "× 2" in text
    assert "\\u" not in text


def test_half_points_print_as_decimals():
    hand = {
        "rules": {"five_player_split": "equal"},
        "players": [*FOUR, "Emil"],
        "taker": "Anna",
        "partner": "Bert",
        "contract": "prise",
        "bouts": 2,
        "points": 41,
        "petit_au_bout": "defence",
    }
    out = StringIO()
    call_command("score_hands", stdin=StringIO(json.dumps(hand)), stdout=out)
    assert '"Anna": 22.5' in out.getvalue()


def test_real_stdin_streams_and_refuses_bad_utf8():
    """The command as a process: bytes on stdin, a line that is not UTF-8 refused."""
    manage = Path(__file__).resolve().parents[2] / "manage.py"
    data = (
        json.dumps(GOOD_HAND).encode() + b"\n" + b'{"players": ["\xff"]}\n'
        b"\n"
        + json.dumps(
            GOOD_HAND | {"players": ["Zoë", *FOUR[1:]], "taker": "Zoë"}, ensure_ascii=False
        ).encode()
        + b"\r\n"
    )
    done = subprocess.run(
        [sys.executable, str(manage), "score_hands"],
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [next(iter(o)) for o in out] == ["scores", "error", "error", "scores"]
    assert out[1]["error"]["code"] == "json_invalid"
    assert out[2]["error"]["code"] == "json_invalid"
    assert out[3]["scores"]["Zoë"] == 240
