"""``core.threads.read_ahead``: a generator run ahead in a thread of its own."""

import threading
import time

import pytest
from django.utils import translation

from core.threads import read_ahead


def test_every_item_comes_in_order():
    assert list(read_ahead(iter(range(50)), depth=3)) == list(range(50))


def test_the_work_runs_in_another_thread_at_most_depth_items_ahead():
    made = []

    def items():
        for i in range(10):
            made.append((i, threading.current_thread().name))
            yield i

    it = read_ahead(items(), depth=2)
    assert next(it) == 0
    time.sleep(0.3)  # time for the thread to run ahead as far as it may
    # item 0 taken, 2 in the queue, one more made and waiting for room
    assert len(made) <= 4
    assert {name for _i, name in made} == {"read_ahead"}
    assert list(it) == list(range(1, 10))


def test_an_error_of_the_generator_is_raised_where_its_item_would_have_come():
    def items():
        yield 1
        yield 2
        raise OSError("the file went away")

    it = read_ahead(items())
    assert next(it) == 1
    assert next(it) == 2
    with pytest.raises(OSError, match="went away"):
        next(it)


def test_the_callers_language_goes_with_the_work():
    def items():
        yield translation.get_language()

    with translation.override("fr"):
        assert list(read_ahead(items())) == ["fr"]
    with translation.override("en"):
        assert list(read_ahead(items())) == ["en"]


def test_closing_early_stops_the_thread():
    def items():
        i = 0
        while True:  # endless: only the stop can end it
            yield i
            i += 1

    before = threading.active_count()
    it = read_ahead(items(), depth=2)
    assert next(it) == 0
    it.close()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() == before
