"""``bench_backup`` runs every step in a child process and prints its figures: a
run at two tiny sizes (SQLite, a database of its own), the restore included."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

from benchmarks.management.commands.bench_backup import STEPS, peak_mib


def bench_backup(tmp_path, *args):
    """``manage.py bench_backup *args`` as a developer runs it: its own SQLite database
    (``--database-name``), beside none of the suite's."""
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings.dev")
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'unused.sqlite3'}"
    command = [sys.executable, "manage.py", "bench_backup", "-v", "0"]
    command += ["--database-name", "bench_backup_test", *args]
    done = subprocess.run(
        command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.slow
def test_bench_backup_prints_time_and_peak_memory_of_each_step(tmp_path):
    """Two tiny sizes, every step; ``--keep-backup`` keeps each size's file, and
    ``--restore-file`` times its restore again without loading a club."""
    kept = tmp_path / "kept"
    kept.mkdir()
    report = bench_backup(tmp_path, "--hands", "60", "120", "--keep-backup", str(kept))
    for step in STEPS:
        assert report.count(f" {step} ") >= 2, (step, report)
    restored = [line for line in report.splitlines() if line.split()[1:2] == ["restore"]]
    assert len(restored) == 2 and all(float(line.split()[3]) > 0 for line in restored)
    assert "peak memory at 120 hands against 60" in report

    assert (kept / "backup-60.json").stat().st_size > 0
    again = bench_backup(tmp_path, "--restore-file", str(kept / "backup-60.json"))
    restored = [line for line in again.splitlines() if " restore " in line]
    assert len(restored) == 1 and restored[0].split()[0] == "60", again


def test_the_peak_is_this_processs_own():
    assert 10 < peak_mib() < 100_000


def test_the_database_name_comes_from_the_environment(monkeypatch):
    """Two runs at once (from two worktrees) each name their own database."""
    from benchmarks.management.commands.bench_backup import Command

    monkeypatch.setenv("BENCH_BACKUP_DATABASE", "bench_backup_mine")
    parser = Command().create_parser("manage.py", "bench_backup")
    assert parser.parse_args([]).database_name == "bench_backup_mine"
    assert parser.parse_args(["--database-name", "other"]).database_name == "other"
