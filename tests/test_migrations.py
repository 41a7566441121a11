"""The suite's databases are made from the models (``--no-migrations``, pyproject):
the migrations must make the same schema, so a model changed without its migration
fails here. CI's wheel check (``.ci/wheel``) applies the migrations themselves to a
fresh PostgreSQL database."""

import io

import pytest
from django.core.management import call_command
from django.test import override_settings


@pytest.mark.django_db
@override_settings(MIGRATION_MODULES={})  # the apps' own migrations, not --no-migrations' none
def test_the_migrations_make_the_models_schema():
    out = io.StringIO()
    try:
        call_command("makemigrations", check=True, dry_run=True, stdout=out, stderr=out)
    except SystemExit as exit_:  # --check exits 1 when a migration is missing
        pytest.fail(f"a model changed without its migration (exit {exit_.code}):\n{out.getvalue()}")
