"""Work on items in child processes while the caller goes on: ``ProcessPool``.

For work that needs the CPU as much as it waits for the database (the import of
sheets: reading, scoring and formatting rows in Python, then the database's
part): threads run Python on one core at a time, processes on all of them, and
each one waits for its own database connection while the others work.

The children are forked, so they start with the parent's code, settings (a
test's database too) and objects: ``work`` and what it refers to are not
pickled, only the items sent and the results returned. The parent's database
connections are closed before the fork (a child must never share the parent's
socket): the parent reconnects when it next needs one, so the pool must not be
opened inside a transaction. Each child opens its own connections and closes
them when it stops.

Items go to whichever child is free (``submit(key, item)``); ``result(key)``
waits for that item's result, or raises the exception its work raised (a
``WorkFailed`` naming it when the exception cannot travel back). Each child runs
``setup()`` (optional) first, then ``prepare`` (optional, no database) one item
ahead of ``work``, in a thread of its own, so a child reads the next item while
its connection waits; a child holds at most those two items, the others wait
for whichever child is free first. The active language goes with the work. A
child that dies (killed, out of memory) is a ``WorkFailed`` for whoever waits, never a hang.
Leaving the pool early (an exception, the caller closing its generator) lets
every child finish the item in hand, skip the rest, and stop.
"""

import gc
import multiprocessing
import pickle
import queue
import traceback
from concurrent.futures import ThreadPoolExecutor

from django.db import connections
from django.utils import translation

_STOP = None


class WorkFailed(RuntimeError):
    """A child process died, or its work raised an exception that could not be
    sent back (the text says which, with the child's traceback)."""


class ProcessPool:
    def __init__(self, count: int, work, *, prepare=None, setup=None, name: str = "worker"):
        self.count = max(1, count)
        self.name = name
        self.setup = setup
        self.work = work
        self.prepare = prepare
        self.results = {}

    def __enter__(self):
        context = multiprocessing.get_context("fork")
        self.jobs = context.Queue()
        self.done = context.Queue()
        self.stopping = context.Event()
        connections.close_all()  # never a socket shared with a child
        language = translation.get_language()
        # what the parent holds now (modules, settings, …) is never collected in a
        # child: its collector does not walk it, nor copy it page by page
        gc.freeze()
        self.children = [
            context.Process(
                target=self._child, args=(language,), name=f"{self.name}-{i}", daemon=True
            )
            for i in range(self.count)
        ]
        try:
            for child in self.children:
                child.start()
        finally:
            gc.unfreeze()
        return self

    def __exit__(self, kind, error, tb):
        if kind is not None:
            self.stopping.set()  # the items still queued are skipped
        for _child in self.children:
            self.jobs.put(_STOP)
        for child in self.children:
            child.join(timeout=30)
            if child.is_alive():
                child.terminate()
                child.join()
        self.jobs.close()
        self.done.close()
        return False

    def submit(self, key, item) -> None:
        self.jobs.put((key, item))

    def ready(self, key) -> bool:
        """Whether ``key``'s result has come back (without waiting)."""
        while key not in self.results:
            try:
                got, ok, payload = self.done.get_nowait()
            except queue.Empty:
                return False
            self.results[got] = (ok, payload)
        return True

    def result(self, key):
        """``key``'s result (waiting for it), or the exception its work raised."""
        while key not in self.results:
            try:
                got, ok, payload = self.done.get(timeout=0.5)
            except queue.Empty:
                dead = [c for c in self.children if c.exitcode not in (None, 0)]
                if dead:
                    raise WorkFailed(
                        f"a worker process stopped (exit code {dead[0].exitcode})"
                    ) from None
                continue
            self.results[got] = (ok, payload)
        ok, payload = self.results.pop(key)
        try:
            value = pickle.loads(payload)
        except Exception as error:  # noqa: BLE001 — e.g. an exception class that
            # cannot be rebuilt from its arguments
            raise WorkFailed(f"a worker's result could not be read back: {error!r}") from None
        if not ok:
            raise value
        return value

    # ------------------------------------------------------------------ in the child

    def _child(self, language):
        _forget_the_parents_connections()
        try:
            with translation.override(language), ThreadPoolExecutor(1) as ahead:
                if self.setup is not None:
                    self.setup()

                def take():  # the next item, prepared (in the thread, as the parent speaks)
                    with translation.override(language):
                        return self._take()

                coming = ahead.submit(take)
                while (job := coming.result()) is not _STOP:
                    # one item prepared while this one is worked on, never more: the
                    # others stay in the queue for whichever child is free first
                    coming = ahead.submit(take)
                    key, prepared = job
                    if self.stopping.is_set():
                        continue
                    if isinstance(prepared, _Failed):
                        self._send(key, False, prepared.error)
                        continue
                    try:
                        self._send(key, True, self.work(prepared))
                    except Exception as error:  # noqa: BLE001 — raised in the parent
                        self._send(key, False, error)
        finally:
            connections.close_all()
            self.done.close()
            self.done.join_thread()  # every result sent before the child exits

    def _take(self):
        job = self.jobs.get()
        if job is _STOP:
            return _STOP
        key, item = job
        if self.prepare is None:
            return key, item
        try:
            return key, self.prepare(item)
        except Exception as error:  # noqa: BLE001 — its work's result
            return key, _Failed(error)

    def _send(self, key, ok, value):
        # pickled here, not in the queue's thread, where a failure would lose it
        try:
            payload = pickle.dumps(value)
        except Exception as error:  # noqa: BLE001 — anything that cannot travel
            shown = value if not ok else error
            text = "".join(traceback.format_exception(shown))
            ok, payload = (
                False,
                pickle.dumps(WorkFailed(f"{type(shown).__name__} in a worker process:\n{text}")),
            )
        self.done.put((key, ok, payload))


#: The parent's database connections as a child inherited them: kept, so that they
#: are never closed (which would end the parent's session), and never used.
_PARENTS = []


def _forget_the_parents_connections():
    """In a child just forked: its database connections start afresh. Closing them
    in the parent first is not enough: Django keeps connections per context, and
    the child may run in one the parent did not close (a test run's, with
    Playwright's greenlets), holding the parent's open socket."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None:
            _PARENTS.append(conn.connection)
            conn.connection = None
        # as ``connect()`` leaves them, before the first statement reaches it
        conn.in_atomic_block = False
        conn.savepoint_ids = []
        conn.atomic_blocks = []
        conn.needs_rollback = False
        conn.closed_in_transaction = False
        conn.run_on_commit = []


class _Failed:
    def __init__(self, error):
        self.error = error
