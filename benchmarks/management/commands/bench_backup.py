"""Time and peak memory of a club's backup and restore and of a season's exports.

    DATABASE_URL=postgres://… manage.py bench_backup --hands 100000 1000000

In a database of its own (created and dropped like ``bench_standings``, whose bulk
loader it reuses: real engine hands copied onto generated sheets), a club of each
size is loaded; then each step runs in a process of its own (``manage.py
bench_backup --step …``), so its peak memory is its own (the child's ``VmHWM``,
its resident memory's high-water mark), not what an earlier step left behind:

* ``baseline``: the process with Django loaded and a query made, nothing else;
* ``backup``: ``transfer.backup.write`` to a file (as the job and the download do);
* ``restore``: that file restored (read as a stream, as the job and the command
  read it) into an empty copy of the database (PostgreSQL: ``CREATE DATABASE …
  TEMPLATE``, taken before any club was loaded; SQLite: a copy of the file), every
  check included; hands per second, and the share of the ratings' recompute the
  restore asks for (``signals.changed``, another app's work) printed apart;
* ``jsonl``, ``xlsx``, ``csv``: the season's exports (``transfer.streams``) to a file.

Printed per size and step: seconds (inside the child, Django's start-up left out),
peak resident memory in MiB, the file's size; then each step's memory at the
largest size against the smallest.
"""

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

from benchmarks.database import own_database
from benchmarks.management.commands import bench_standings
from clubs.models import Club
from scoresheet import signals
from scoresheet.models import Hand
from transfer import backup as backups
from transfer import streams
from transfer.named import EVERY_LOGIN


def peak_mib() -> float:
    """This process's peak resident memory (``VmHWM``): the high-water mark of its own
    memory since it started (``ru_maxrss`` would count the parent's too, kept across
    the ``exec`` that started it)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


STEPS = ("baseline", "backup", "restore", "jsonl", "xlsx", "csv")


class Command(bench_standings.Command):
    help = "Time and peak memory of backup, restore and season exports at N hands."

    def add_arguments(self, parser):
        parser.add_argument("--hands", type=int, nargs="+", default=[10_000, 100_000])
        parser.add_argument("--players", type=int, default=60)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--steps", nargs="+", choices=STEPS, default=list(STEPS))
        # one step, in a child process (internal)
        parser.add_argument("--step", choices=STEPS, help="(internal) run one step here")
        parser.add_argument("--club", help="(internal) the club's slug")
        parser.add_argument("--file", help="(internal) the file written or read")
        # two runs at once must not share a database (own_database drops it at the end)
        parser.add_argument(
            "--database-name",
            default=os.environ.get("BENCH_BACKUP_DATABASE", "bench_backup"),
            help="the benchmark database suffix (default bench_backup; $BENCH_BACKUP_DATABASE)",
        )
        parser.add_argument(
            "--keep-backup", help="a folder where each size's backup file is kept (backup-N.json)"
        )
        parser.add_argument(
            "--restore-file",
            help="restore this backup file only (no club loaded): to time the restore again",
        )

    def handle(self, *args, hands, players, seed, steps, step, club, file, **options):
        self.verbosity = options["verbosity"]
        if step:
            return self.run_step(step, club, file)
        vendor = connection.vendor
        rng = random.Random(seed)
        results = []
        name = options["database_name"]
        self.keep = options["keep_backup"]
        with own_database(name, log=self.log), tempfile.TemporaryDirectory() as tmp:
            empty = self.snapshot_empty(tmp)
            if options["restore_file"]:
                try:
                    result = self.restore_only(options["restore_file"], tmp, empty)
                finally:
                    self.drop_empty(empty)
                results.append((result["hands"], {"restore": result}))
                self.report(vendor, results)
                return
            templates = self.record_templates(rng)
            try:
                for n_hands in sorted(hands):
                    found, season, load = self.fill_club(n_hands, players, templates, rng)
                    self.analyse()
                    results.append((n_hands, self.measure_steps(found, steps, tmp, empty)))
                    if self.keep and Path(tmp, "backup.json").exists():
                        shutil.copyfile(
                            Path(tmp, "backup.json"), Path(self.keep, f"backup-{n_hands}.json")
                        )
                    Path(tmp, "backup.json").unlink(missing_ok=True)
            finally:
                self.drop_empty(empty)
        self.report(vendor, results)

    # ------------------------------------------------------------ the parent

    def url_of(self, name_or_path) -> str:
        db = connection.settings_dict
        if connection.vendor == "sqlite":
            return f"sqlite:///{name_or_path}"
        user = db.get("USER") or ""
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        host = db.get("HOST") or "127.0.0.1"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgres://{user}{password}@{host}{port}/{name_or_path}"

    def current(self) -> str:
        return connection.settings_dict["NAME"]

    def snapshot_empty(self, tmp):
        """An empty, migrated copy of the benchmark database: the restore's target."""
        if connection.vendor == "sqlite":
            target = str(Path(tmp, "empty.sqlite3"))
            connection.close()
            shutil.copyfile(self.current(), target)
            return target
        target = f"{self.current()}_empty"
        connection.close()
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{target}"')
            cursor.execute(f'CREATE DATABASE "{target}" TEMPLATE "{self.current()}"')
        return target

    def fresh_target(self, empty, tmp):
        """A copy of the empty database for one restore; returns (its URL, its name)."""
        if connection.vendor == "sqlite":
            target = str(Path(tmp, "restore.sqlite3"))
            shutil.copyfile(empty, target)
            return self.url_of(target), target
        target = f"{empty}_restore"
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{target}"')
            cursor.execute(f'CREATE DATABASE "{target}" TEMPLATE "{empty}"')
        return self.url_of(target), target

    def drop(self, name):
        if connection.vendor == "sqlite":
            Path(name).unlink(missing_ok=True)
            return
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')

    def drop_empty(self, empty):
        if connection.vendor != "sqlite":
            self.drop(empty)

    def measure_steps(self, club, steps, tmp, empty) -> dict:
        out = {}
        backup_file = str(Path(tmp, "backup.json"))
        here = self.url_of(self.current())
        for step in STEPS:
            if step not in steps and not (step == "backup" and "restore" in steps):
                continue
            url, target = here, None
            if step == "restore":
                url, target = self.fresh_target(empty, tmp)
            name = backup_file if step in ("backup", "restore") else str(Path(tmp, f"out.{step}"))
            self.log(f"{club.slug}: {step} …")
            try:
                out[step] = self.child(step, club.slug, name, url)
                # as it comes: a long run stopped half-way keeps what it measured
                self.log(f"{club.slug}: {step} {json.dumps(out[step])}")
            finally:
                if target is not None:
                    self.drop(target)
            if step not in ("backup", "restore"):
                Path(name).unlink(missing_ok=True)
        return out

    def restore_only(self, file, tmp, empty) -> dict:
        url, target = self.fresh_target(empty, tmp)
        self.log(f"{file}: restore …")
        try:
            return self.child("restore", "", file, url)
        finally:
            self.drop(target)

    def child(self, step, slug, file, url) -> dict:
        connection.close()  # the restore's copy is made from a template nobody uses
        env = dict(os.environ, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings.dev")
        env.pop("DJANGO_TEST_DB_NAME", None)
        command = [sys.executable, "manage.py", "bench_backup", "--step", step]
        command += ["--club", slug, "--file", file]
        process = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE, text=True
        )
        output = process.stdout.read()
        process.wait()
        if process.returncode != 0:
            raise RuntimeError(f"step {step} failed ({process.returncode}): {output[-2000:]}")
        return json.loads(output.strip().splitlines()[-1])

    # ------------------------------------------------------------ the child

    def run_step(self, step, slug, file):
        club = Club.objects.get(slug=slug) if step not in ("restore", "baseline") else None
        if step == "baseline":
            Club.objects.exists()
        backend = self.backend_cpu()
        started, cpu = time.perf_counter(), time.process_time()
        result = {}
        if step == "backup":
            with open(file, "wb") as out:
                counts, _digest = backups.write(club, out)
            result["hands"] = counts["scoresheet.hand"]
        elif step == "restore":
            # the ratings' recompute the restore asks for (``signals.changed``), timed apart
            changed, spent = signals.changed, [0.0]

            def timed_changed(*args, **kwargs):
                begun = time.perf_counter()
                changed(*args, **kwargs)
                spent[0] += time.perf_counter() - begun

            signals.changed = timed_changed
            try:
                with open(file, "rb") as source:
                    # a stream, as the job and the command read it; every login kept
                    backups.restore(source, logins=EVERY_LOGIN)
            finally:
                signals.changed = changed
            result["ratings_seconds"] = spent[0]
        elif step in ("jsonl", "csv"):
            season = club.seasons.order_by("-start_date").first()
            chunks = (
                streams.season_jsonl_chunks(season)
                if step == "jsonl"
                else streams.csv_chunks(season)
            )
            with open(file, "w", encoding="utf-8") as out:
                for text in chunks:
                    out.write(text)
        elif step == "xlsx":
            season = club.seasons.order_by("-start_date").first()
            streams.write_xlsx(season, file)
        result["seconds"] = time.perf_counter() - started
        # this process's own CPU time (the database's not counted): on a shared machine
        # the wall-clock seconds also count the time others took
        result["cpu_seconds"] = time.process_time() - cpu
        if backend is not None:  # and its PostgreSQL backend's (same machine only)
            after = self.backend_cpu()
            if after is not None:
                result["db_cpu_seconds"] = after - backend
        if step == "restore":
            result["hands"] = Hand.objects.count()  # outside the timing
        if file and os.path.exists(file) and step != "baseline":
            result["bytes"] = os.path.getsize(file)
        result["peak_mib"] = peak_mib()
        self.stdout.write(json.dumps(result))

    def backend_cpu(self):
        """The CPU seconds (user + system) of this connection's PostgreSQL backend, read
        from ``/proc`` (None on SQLite, or when the server is on another machine)."""
        if connection.vendor != "postgresql":
            return None
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    # ------------------------------------------------------------ the report

    def report(self, vendor, results):
        w = self.stdout.write
        w(f"\nbench_backup on {vendor} (each step in a process of its own; peak = VmHWM)")
        head = f"{'hands':>10} {'step':<9} {'seconds':>8} {'peak MiB':>9} {'file MiB':>9}"
        w(f"{head} {'hands/s':>9}")
        for n_hands, steps in results:
            for step, r in steps.items():
                size = f"{r['bytes'] / 2**20:9.1f}" if "bytes" in r else " " * 9
                rate = ""
                if step in ("backup", "restore") and r.get("seconds"):
                    rate = f"{r.get('hands', n_hands) / r['seconds']:9,.0f}"
                line = f"{n_hands:>10,} {step:<9} {r['seconds']:8.1f} {r['peak_mib']:9.1f}"
                if "cpu_seconds" in r:
                    rate += f"  (cpu {r['cpu_seconds']:.1f} s)"
                if "db_cpu_seconds" in r:
                    rate += f"  (database cpu {r['db_cpu_seconds']:.1f} s)"
                if "ratings_seconds" in r:  # the ratings' share (signals.changed)
                    rate += f"  (ratings recompute {r['ratings_seconds']:.1f} s of it)"
                w(f"{line} {size} {rate}")
        for n_hands, steps in results:  # the spreadsheet's cost against the CSV's, same rows
            if "cpu_seconds" in steps.get("xlsx", {}) and steps.get("csv", {}).get("cpu_seconds"):
                ratio = steps["xlsx"]["cpu_seconds"] / steps["csv"]["cpu_seconds"]
                w(f"{n_hands:>10,} xlsx/csv cpu {ratio:.2f}")
        if len(results) > 1:
            (small, first), (big, last) = results[0], results[-1]
            w(f"\npeak memory at {big:,} hands against {small:,}:")
            for step in last:
                if step in first:
                    ratio = last[step]["peak_mib"] / first[step]["peak_mib"]
                    w(f"  {step:<9} {ratio - 1:+.1%}")
