"""The hand form's save, measured: queries, time and engine calls of one post.

Run on demand (skipped otherwise), on SQLite or PostgreSQL (``DATABASE_URL``)::

    MEASURE_HAND_POST=50 pytest -s tests/benchmarks/test_measure_hand_post.py

It posts the same hand ``MEASURE_HAND_POST`` times to one sheet through the test
client, as the page does (with an idempotency key), and prints the median of the
queries and of the time per post, and how many times the engine scored a hand per post.
``MEASURE_HAND_POST_RATINGS=0`` measures it without the ratings kept on write (their
receiver disconnected), to compare.
"""

import os
import statistics
import sys
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import tarot
from core.idempotency import new_key
from ratings import keeping
from scoresheet.models import Hand
from scoresheet.signals import hand_recorded

POSTS = int(os.environ.get("MEASURE_HAND_POST", "0") or 0)
HAND = {"dealer": "3", "taker": "0", "contract": "garde", "bouts": "2", "points": "56"}

pytestmark = pytest.mark.skipif(not POSTS, reason="set MEASURE_HAND_POST=<posts> to measure")


@pytest.fixture
def engine_calls(monkeypatch):
    """Count every call of the engine's ``score_hand``, whichever module imported it."""
    original = tarot.score_hand
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "score_hand", None) is original:
            monkeypatch.setattr(module, "score_hand", counted)
    return calls


@pytest.fixture
def ratings_kept(monkeypatch):
    """Disconnect the ratings' receiver when ``MEASURE_HAND_POST_RATINGS=0``."""
    kept = os.environ.get("MEASURE_HAND_POST_RATINGS", "1") != "0"
    if not kept:
        hand_recorded.disconnect(keeping._recorded)
    yield kept
    if not kept:
        hand_recorded.connect(keeping._recorded)


def test_measure_the_hand_post(client, scorer, make_sheet, engine_calls, ratings_kept):
    sheet = make_sheet(4)
    client.force_login(scorer)
    url = reverse("scoresheet:hand_create", args=[sheet.club.slug, sheet.pk])
    client.post(url, {**HAND, "action": "save", "idempotency_key": new_key()})  # warm up
    queries, times, scored = [], [], []
    for _ in range(POSTS):
        post = {**HAND, "action": "save", "idempotency_key": new_key()}
        engine_calls.clear()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.post(url, post)
            times.append(time.perf_counter() - start)
        assert response.status_code == 302, response.content[:500]
        queries.append(len(captured.captured_queries))
        scored.append(len(engine_calls))
    assert Hand.objects.filter(sheet=sheet).count() == POSTS + 1
    print(
        f"\n{connection.vendor} (ratings {'kept' if ratings_kept else 'off'}): {POSTS} posts, "
        f"median {statistics.median(queries)} queries "
        f"(min {min(queries)}, max {max(queries)}), median "
        f"{statistics.median(times) * 1000:.2f} ms, engine scored the hand "
        f"{statistics.median(scored)} times a post (min {min(scored)}, max {max(scored)})"
    )
    if os.environ.get("MEASURE_HAND_POST_SQL"):
        for query in captured.captured_queries:
            print(query["sql"][:160])
