"""django-tables2 works out a callable's signature on every call: cached here.

Each cell of a table calls its column's callables (``attrs`` lambdas, ``render_*``
methods) through ``django_tables2.utils.call_with_appropriate``, which asks
``inspect.signature`` every time: on a statistics page of ~500 cells that was
a third of the rendering (60 ms). The signature of a function never changes, so
it is cached per function (a bound method by its function, so tables made per
request do not fill the cache).
"""

import functools
import inspect

from django_tables2 import utils

_uncached = utils.signature


@functools.lru_cache(maxsize=4096)
def _signature_of(function, bound: bool):
    args, keywords = _uncached(function)
    return (args[1:] if bound else args), keywords


def signature(fn):
    """``django_tables2.utils.signature``, cached: ``(arguments, the ** catch-all)``."""
    function = getattr(fn, "__func__", None)
    if function is not None and inspect.ismethod(fn):
        return _signature_of(function, True)
    try:
        return _signature_of(fn, False)
    except TypeError:  # an unhashable callable
        return _uncached(fn)


def install():
    utils.signature = signature
