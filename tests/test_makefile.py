"""`make run PORT=…` serves on the port asked for (8000 by default)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def dry_run(*args):
    # VENV pointed at an existing one and its stamp made up-to-date: nothing is installed
    result = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in result.stdout.splitlines() if "runserver" in line]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_takes_a_port():
    assert dry_run("PORT=8123")[0].endswith("runserver 127.0.0.1:8123")
    assert dry_run()[0].endswith("runserver 127.0.0.1:8000")
