"""The README is for a newcomer: short, the two commands first, the first steps early,
no run times or benchmark figures (they live in benchmarks/HISTORY.md) and no history."""

import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
LINES = README.splitlines()


def test_the_readme_is_short_with_the_two_commands_first():
    assert len(LINES) <= 250
    commands = [i for i, line in enumerate(LINES) if line.startswith(("make run", "make test"))]
    assert commands[:2] == [3, 4]


def test_the_first_steps_come_within_the_first_120_lines():
    heading = LINES.index("## Your first steps")
    assert heading < 120
    assert any("createsuperuser" in line for line in LINES[heading:120])


def test_the_readme_carries_no_run_time_nor_benchmark_figure():
    figures = re.compile(
        r"\b\d[\d,.]*\s?(ms|s|min|MiB|MB|GB|hands/s|requests/s)\b|\b\d+ min \d+ s\b"
    )
    assert [line for line in LINES if figures.search(line)] == []
