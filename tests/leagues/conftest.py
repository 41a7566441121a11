"""League fixtures (``tests.leagues.fixtures``, shared with the team competitions' tests):
a league "comite" managed by "boss", two member clubs (A public, B members-only) each
with a manager, a season, and ``event(name, date)`` making a tournament of A."""

from tests.leagues.fixtures import boss, clubs, event, league, lseason  # noqa: F401 (fixtures)
