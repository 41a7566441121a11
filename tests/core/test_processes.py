"""``core.processes.ProcessPool``: items worked on in forked child processes."""

import os
import time

import pytest
from django.utils import translation

from core.processes import ProcessPool, WorkFailed


def pid_and_square(x):
    return os.getpid(), x * x


def test_each_result_comes_back_by_its_key_from_child_processes():
    with ProcessPool(2, pid_and_square) as pool:
        for i in range(20):
            pool.submit(i, i)
        results = [pool.result(i) for i in reversed(range(20))]
    assert [square for _pid, square in results] == [i * i for i in reversed(range(20))]
    pids = {pid for pid, _square in results}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_prepare_runs_in_the_child_before_the_work_and_setup_once_per_child():
    seen = []

    def setup():
        seen.append("setup")  # in the child's memory: the work reports it

    def prepare(x):
        return (os.getpid(), x + 1)

    def work(prepared):
        pid, y = prepared
        return pid == os.getpid(), y * 10, seen.count("setup")

    with ProcessPool(2, work, prepare=prepare, setup=setup) as pool:
        for i in range(6):
            pool.submit(i, i)
        results = [pool.result(i) for i in range(6)]
    assert results == [(True, (i + 1) * 10, 1) for i in range(6)]
    assert seen == []  # the parent never ran setup


class Refusal(Exception):
    pass


def refuse_odd(x):
    if x % 2:
        raise Refusal(f"odd {x}")
    return x


def test_the_exception_of_an_item_is_raised_for_that_item_only():
    with ProcessPool(2, refuse_odd) as pool:
        for i in range(4):
            pool.submit(i, i)
        assert pool.result(0) == 0
        with pytest.raises(Refusal, match="odd 1"):
            pool.result(1)
        assert pool.result(2) == 2
        with pytest.raises(Refusal, match="odd 3"):
            pool.result(3)


class Unpicklable(Exception):
    def __init__(self, code, detail):
        super().__init__(code)  # its args cannot rebuild it
        self.detail = detail


def test_an_error_that_cannot_travel_back_is_a_work_failed_with_its_traceback():
    def work(x):
        if x == 1:
            raise Unpicklable("bad", "detail")
        return lambda: x  # a result that cannot be pickled at all

    with ProcessPool(1, work) as pool:
        pool.submit(0, 0)
        pool.submit(1, 1)
        with pytest.raises(WorkFailed, match="in a worker process"):
            pool.result(0)
        with pytest.raises(WorkFailed):
            pool.result(1)


def test_a_child_that_dies_is_a_work_failed_not_a_hang():
    def work(x):
        os._exit(3)

    with pytest.raises(WorkFailed, match="exit code 3"), ProcessPool(1, work) as pool:
        pool.submit(0, 0)
        pool.result(0)


def test_the_callers_language_goes_with_the_work():
    word = "Player"  # a message of the catalogue (a variable: not extracted again)

    def work(_x):
        return translation.get_language(), translation.gettext(word)

    with translation.override("fr"), ProcessPool(1, work) as pool:
        pool.submit(0, 0)
        language, word = pool.result(0)
    assert language == "fr" and word == "Joueur"


def test_leaving_early_skips_the_items_left(tmp_path):
    path = tmp_path / "done"

    def work(x):
        time.sleep(0.01)
        with open(path, "a") as f:
            f.write(f"{x}\n")
        return x

    with pytest.raises(KeyError), ProcessPool(1, work) as pool:
        pool.submit(0, 0)
        assert pool.result(0) == 0
        for i in range(1, 200):
            pool.submit(i, i)
        raise KeyError("the caller stops")
    done = path.read_text().split()
    assert done[0] == "0" and len(done) < 50  # 199 items would take 2 s


@pytest.mark.django_db(transaction=True)
def test_a_child_opens_its_own_connection_and_leaves_the_parents_alone():
    from django.db import connection

    def backend(_x):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT 1"
            )
            return cursor.fetchone()[0]

    if connection.vendor != "postgresql":
        pytest.skip("a server connection per process: PostgreSQL")
    parent = backend(None)
    with ProcessPool(2, backend) as pool:
        for i in range(4):
            pool.submit(i, i)
        children = {pool.result(i) for i in range(4)}
    assert parent not in children
    assert backend(None)  # the parent's connection still works (opened again)
