"""The sheet fixtures (club "rive", season "2026", players, scorer, make_sheet) for the
statistics tests, until they move to tests/conftest.py."""

from tests.scoresheet.conftest import club, make_sheet, players, scorer, season  # noqa: F401
