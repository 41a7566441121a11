"""The repository speaks of the project alone: no file, file name, comment, test name,
migration name or document mentions a work session, a helper or a tracker's issue
number (a reader has neither); measurements live in benchmarks/HISTORY.md, dated."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WORD = "sess" + "ion"  # spelled in two so that this file does not name itself
MENTIONS = re.compile(
    rf"\b{WORD}s? \d+|\b{WORD} \d+'s|\bissues? #?\d+\b|\bhelpers? [a-z]*\d+\b",
    re.IGNORECASE,
)
#: a migration, a module or a folder named for the sitting that made it
TAGGED_NAME = re.compile(r"_(s|h)\d{2}_")
SKIPPED = (".po", ".mo", ".png", ".ico", ".gz", ".lock", ".min.js")


def tracked():
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in out.splitlines() if not name.endswith(SKIPPED)]


def mentions(text):
    return [m.group(0) for m in MENTIONS.finditer(text)]


def test_no_file_mentions_a_work_sitting_or_an_issue_number():
    found = []
    for name in tracked():
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        found += [f"{name}: {word}" for word in mentions(text)]
    assert not found, "\n".join(found[:20])


def test_no_file_name_carries_a_sitting_tag():
    assert [name for name in tracked() if TAGGED_NAME.search(name)] == []


def test_the_checks_see_each_kind_of_mention():
    issue = "iss" + "ue"
    assert mentions(f"as in {WORD} 13's run") and mentions(f"see ({issue} 27)")
    assert mentions(f"{issue.title()} 34, a club evening") and mentions("help" + "er h26")
    assert not mentions("the session cookie") and not mentions("session_replication_role")
    assert TAGGED_NAME.search("0002_s13_recompute.py")
    assert not TAGGED_NAME.search("0002_recompute.py")
