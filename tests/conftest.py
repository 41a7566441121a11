"""Fixtures shared by the whole suite. Browser fixtures live in tests/browser/conftest.py.

A club "rive" with a season "2026" (FFT rules), six players (``tests.data.NAMES``),
a scorer, a manager, and ``make_sheet(n, rules=None, date=…, table=…)`` that opens a sheet of
the first n players. A module that defines a fixture of the same name keeps its own.
Shared constants (the seed's hands, form posts) live in ``tests/data.py``.
"""

import datetime

import pytest
from django.core.cache import caches
from django.utils import translation

from clubs.models import Club, Membership, Player, Role, Season
from ratings import keeping
from scoresheet import services
from tests.data import NAMES, SEED_HANDS

#: Test files of pure code (the engine, the draw, the movements, the pure halves of the
#: apps): the same result on either database.
PURE = (
    "tests/tarot/",
    "tests/tournaments/test_draw.py",
    "tests/tournaments/test_duplicate.py",
    "tests/competitions/test_bracket.py",
    "tests/competitions/test_fixtures.py",
    "tests/competitions/test_table.py",
    "tests/clubs/test_refusals.py",
    "tests/clubs/test_rules_forms.py",
    "tests/leagues/test_scales.py",
    "tests/ratings/test_compute.py",
    "tests/core/test_jsonnumbers.py",
    "tests/scoresheet/test_templatetags.py",
    "tests/test_browser_selectors.py",
    "tests/test_layers.py",
    "tests/test_guide.py",
    "tests/test_readme.py",
    "tests/core/test_pages.py",
    "tests/test_repository_words.py",
    "tests/core/test_xlsx.py",
    "tests/benchmarks/test_bench_backup.py",  # its own SQLite database, whatever the suite's
)


#: Test files whose database work is the same on either database: the permission matrix
#: (every URL as every role: status codes decided in Python; PostgreSQL's own answers to
#: hostile input are the fuzzers', which CI runs there), the migrations' check.
EITHER = (
    "tests/test_permissions.py",
    "tests/test_migrations.py",
    # the privacy matrix: every URL as every reader, whose names each body holds
    "tests/clubs/test_privacy_matrix.py",
)

#: Test files of the code that speaks to each database its own way (``connection.vendor``
#: branches, raw SQL: COPY against executemany, the facts rebuilt in SQL, the rankings'
#: and ratings' statements, commits without waiting, a backup's snapshot), of what runs
#: on SQLite on a developer's machine (``make run``'s demo, the benchmarks) and the
#: ledger's writes themselves: CI runs them on both databases. CI runs every other database test on
#: PostgreSQL, the production database, and the browser tests (the whole app, its
#: raw SQL included, served on SQLite as ``make run`` serves it) on SQLite.
BOTH = (
    "tests/benchmarks/",
    "tests/core/test_bulk.py",
    "tests/core/test_db.py",
    "tests/leagues/test_ranking.py",
    "tests/ratings/test_bulk_rating.py",
    "tests/ratings/test_keeping.py",
    "tests/scoresheet/test_facts.py",
    "tests/scoresheet/test_import_and_demo.py",
    "tests/scoresheet/test_import_pipeline.py",
    "tests/scoresheet/test_services.py",
    "tests/standings/",
    "tests/stats/test_facts_match_the_ledger.py",
    "tests/test_makefile.py",
    "tests/transfer/test_backup.py",
    "tests/transfer/test_restore_checks.py",
    "tests/transfer/test_restore_consent.py",
    "tests/transfer/test_restore_parallel.py",
    "tests/transfer/test_restore_stream.py",
    "tests/transfer/test_round_trip.py",
    "tests/transfer/test_snapshot.py",
)


def pytest_collection_modifyitems(items):
    """Mark where CI runs each test (``.ci/run``): ``either_db`` the tests of ``PURE``
    files that reach no database (no ``django_db`` mark, no fixture leading to
    ``django_db_setup``) and those of ``EITHER`` (its SQLite pass only), ``both_db``
    those of ``BOTH`` (both passes). The browser tests run in its SQLite pass, every
    other test in its PostgreSQL pass. ``make test`` runs them all."""
    for item in items:
        path = item.nodeid.split("::")[0]
        pure = (
            path.startswith(PURE)
            and item.get_closest_marker("django_db") is None
            and "django_db_setup" not in getattr(item, "fixturenames", ())
        )
        if pure or path.startswith(EITHER):
            item.add_marker(pytest.mark.either_db)
        elif path.startswith(BOTH):
            item.add_marker(pytest.mark.both_db)


@pytest.fixture(autouse=True)
def _each_test_in_the_default_language():
    """A request in French leaves French active in the test's thread
    (``LocaleMiddleware`` activates it; a server's next request would choose
    again): each test starts in the default language, whichever test ran before
    it on the same worker."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _an_empty_statistics_cache():
    """The statistics cache (``CACHES["stats"]``) outlives a test's database: each
    test starts with it empty, so no figure computed for another test's ledger is
    read back."""
    caches["stats"].clear()
    yield
    caches["stats"].clear()


@pytest.fixture(autouse=True)
def _no_ratings_remembered():
    """``ratings.keeping`` remembers the ratings this process wrote last (a sheet's next
    hand updates them in one statement): each test starts as a new process would, so
    no row of another test's database (its ids reused) is taken for one of its own."""
    keeping._known.clear()
    keeping.forget_club()  # nor another test's clubs' leagues


#: The password of every user made by ``make_user``.
PASSWORD = "correct-horse-battery-42"


@pytest.fixture
def make_user(django_user_model):
    """Create a user: ``make_user("alice", email=..., is_staff=True)``; password ``PASSWORD``."""

    def make(username="alice", password=PASSWORD, **fields):
        fields.setdefault("email", f"{username}@example.org")
        return django_user_model.objects.create_user(username, password=password, **fields)

    return make


@pytest.fixture
def user(make_user):
    """A plain user "alice" (alice@example.org) with the password ``PASSWORD``."""
    return make_user()


@pytest.fixture
def club(db):
    return Club.objects.create(name="Club de la Rive", slug="rive")


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )


@pytest.fixture
def players(club):
    return [Player.objects.create(club=club, name=name) for name in NAMES]


@pytest.fixture
def scorer(django_user_model, club):
    """A user with the scorer role in ``club``."""
    user = django_user_model.objects.create_user("scorer", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    return user


@pytest.fixture
def manager(django_user_model, club):
    """A user with the manager role in ``club`` (reopens, deletes and restores sheets)."""
    user = django_user_model.objects.create_user("manager", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


@pytest.fixture
def seeded(make_sheet, scorer):
    """A four-seat sheet holding the hands of ``tests.data.SEED_HANDS``."""
    sheet = make_sheet()
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    return sheet


@pytest.fixture
def make_sheet(season, players, scorer):
    def make(n=4, rules=None, **kwargs):
        return services.create_sheet(
            season=season,
            players=players[:n],
            date=kwargs.pop("date", datetime.date(2026, 3, 14)),
            table=kwargs.pop("table", "1"),
            rules=rules,
            actor=scorer,
        )

    return make
