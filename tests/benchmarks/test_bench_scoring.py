"""manage.py bench_scoring: runs, prints its figures, and is reproducible.

No timing is asserted: speed depends on the machine.
"""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from benchmarks.management.commands.bench_scoring import generate
from tarot import PRESETS, score_hand, score_sheet


def test_bench_prints_its_figures():
    out = StringIO()
    call_command("bench_scoring", "--hands", "2000", "--seed", "3", stdout=out)
    text = out.getvalue()
    assert "2,000 random valid hands, seed 3" in text
    assert re.search(r"^generation: [\d.]+ s", text, re.M)
    assert re.search(r"^scoring: [\d,]+ hands/s overall on one core", text, re.M)
    for preset in PRESETS:
        assert re.search(rf"^  {preset} +[\d,]+ hands.* [\d,]+ hands/s$", text, re.M), preset
    assert re.search(r"^peak memory \(ru_maxrss\): [\d,.]+ MB after generation", text, re.M)
    assert "split: generation" in text
    counts = [int(m.replace(",", "")) for m in re.findall(r"^  \S+ +([\d,]+) hands", text, re.M)]
    assert sum(counts) == 2000


def test_same_seed_same_hands_all_valid():
    first, counts = generate(600, seed=11, sheet_size=7)
    second, _ = generate(600, seed=11, sheet_size=7)
    assert first == second
    assert sum(counts.values()) == 600
    assert sum(len(s.hands) for s in first["mouches"]) == counts["mouches"]
    assert all(len(s.hands) <= 7 for s in first["mouches"])
    for preset in PRESETS:
        if preset == "mouches":
            for sheet in first[preset]:
                score_sheet(sheet)  # raises ScoringError on an invalid hand
        else:
            for rules, hand in first[preset]:
                assert rules.preset == preset
                score_hand(rules, hand)
    assert generate(600, seed=12, sheet_size=7)[0] != first


def test_bench_refuses_nonsense():
    with pytest.raises(CommandError):
        call_command("bench_scoring", "--hands", "0", stdout=StringIO())
