"""The benchmarks' own database: its tables made from the models, dropped afterwards."""

import os
import tempfile
from contextlib import contextmanager

from django.db import connection


@contextmanager
def own_database(name, log=None):
    """Run the block in a database of its own: a temporary SQLite file, or
    ``<NAME>_<name>`` on PostgreSQL; dropped (and the settings put back) afterwards.
    ``log``, when given, hears the database's name before its (slow) creation."""
    old_name = connection.settings_dict["NAME"]
    test_settings = connection.settings_dict.setdefault("TEST", {})
    saved_test_name = test_settings.get("NAME")
    saved_migrate = test_settings.get("MIGRATE", True)
    # tables made from the models, not through the 58 migrations (36 s on SQLite): a
    # benchmark measures the app on the schema the migrations make (tests/test_migrations.py)
    test_settings["MIGRATE"] = False
    tmpdir = None
    if connection.vendor == "sqlite":
        tmpdir = tempfile.TemporaryDirectory(prefix=f"{name}_")
        test_settings["NAME"] = os.path.join(tmpdir.name, "bench.sqlite3")
    else:
        test_settings["NAME"] = f"{old_name}_{name}"
    if log is not None:
        log(f"creating the benchmark database {test_settings['NAME']} …")
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)
        test_settings["NAME"] = saved_test_name
        test_settings["MIGRATE"] = saved_migrate
        if tmpdir is not None:
            tmpdir.cleanup()
