"""Real processes on the test database, for the tests of what a request or a worker
does when its process dies or is cut short: ``manage.py db_worker`` and gunicorn,
started with the environment that points them at the test's database and files."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    found = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{found['NAME']}"
    user = found.get("USER") or "postgres"
    password = f":{found['PASSWORD']}" if found.get("PASSWORD") else ""
    host = found.get("HOST") or "127.0.0.1"
    return f"postgres://{user}{password}@{host}:{found.get('PORT') or 5432}/{found['NAME']}"


def environment(**extra) -> dict:
    env = {**os.environ, "DATABASE_URL": database_url()}
    env["DJANGO_FILES_DIR"] = str(settings.FILES_DIR)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.dev"
    env.pop("DJANGO_TEST_DB_NAME", None)
    env.update({key: str(value) for key, value in extra.items()})
    return env


def start_worker(**extra) -> subprocess.Popen:
    """``manage.py db_worker`` as ``make run`` starts it, checking the queue often."""
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"]
    command += ["--interval", "0.2"]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=environment(**extra),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_gunicorn(port, *, timeout, **extra) -> subprocess.Popen:
    """gunicorn as ``make serve`` starts it (development settings: no TLS redirect)."""
    command = [str(Path(sys.executable).with_name("gunicorn")), "config.wsgi"]
    command += ["--workers", "2", "--bind", f"127.0.0.1:{port}", "--timeout", str(timeout)]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=environment(**extra),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError as error:
            if process.poll() is not None:
                raise RuntimeError(process.stderr.read().decode()) from error
            time.sleep(0.2)
    stop(process)
    raise RuntimeError("gunicorn did not start")


def stop(process, sig=signal.SIGTERM) -> None:
    """Stop ``process`` and its children (its own session), by its id."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for(check, *, seconds, every=0.1):
    """Poll ``check()`` until it returns something true (returned), or fail."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"not within {seconds} s")
