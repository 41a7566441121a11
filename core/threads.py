"""``read_ahead``: run a generator a few items ahead, in a thread of its own.

For work without the database (reading and scoring an import's lines) that can
go on while the caller's thread waits for the database on the previous items:
psycopg lets other threads run while it waits, so the two overlap. The queue is
bounded (memory: ``depth`` items, whatever the input's length); an exception of
the generator is raised in the caller's thread where the item would have come;
the active language goes with the work (translated messages are the caller's).
If the caller stops early (closes the iterator), the thread stops at its next item.
"""

import queue
import threading

from django.utils import translation

_DONE = object()


class _Raised:
    def __init__(self, error: BaseException):
        self.error = error


def read_ahead(items, depth: int = 2):
    """Yield what ``items`` yields, computed up to ``depth`` items ahead in a thread."""
    ahead: queue.Queue = queue.Queue(maxsize=max(1, depth))
    stop = threading.Event()
    language = translation.get_language()

    def put(value) -> bool:
        while not stop.is_set():
            try:
                ahead.put(value, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def work():
        with translation.override(language):
            try:
                for item in items:
                    if not put(item):
                        return
            except BaseException as error:  # noqa: BLE001 — raised in the caller's thread
                put(_Raised(error))
                return
            put(_DONE)

    worker = threading.Thread(target=work, name="read_ahead", daemon=True)
    worker.start()
    try:
        while True:
            item = ahead.get()
            if item is _DONE:
                return
            if isinstance(item, _Raised):
                raise item.error
            yield item
    finally:
        stop.set()
        worker.join(timeout=5)
