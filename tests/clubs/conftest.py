"""The sheet fixtures (club "rive", season "2026", players, scorer, make_sheet) for club tests.

Modules here that define their own ``club`` (and so on) keep theirs: a module's
fixture wins over a conftest's.
"""

from tests.scoresheet.conftest import club, make_sheet, players, scorer, season  # noqa: F401
