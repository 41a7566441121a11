"""django-tables2's signature lookup, cached per function (``core.tables2``)."""

from django_tables2 import utils

from core import tables2


class Column:
    def render_cell(self, value, record):
        return value

    def render_all(self, value, **kwargs):
        return value


def test_the_cached_lookup_is_installed():
    assert utils.signature is tables2.signature


def test_it_gives_what_django_tables2_gives():
    column = Column()
    for fn in (column.render_cell, column.render_all, lambda record: record, len):
        assert tables2.signature(fn) == tables2._uncached(fn)
    assert tables2.signature(column.render_cell) == (("value", "record"), None)
    assert tables2.signature(column.render_all) == (("value",), "kwargs")


def test_a_method_of_another_instance_reads_the_cache():
    tables2._signature_of.cache_clear()
    tables2.signature(Column().render_cell)
    tables2.signature(Column().render_cell)  # a new table per request
    info = tables2._signature_of.cache_info()
    assert (info.misses, info.hits, info.currsize) == (1, 1, 1)


def test_an_unhashable_callable_is_looked_up_uncached():
    class Unhashable:
        __hash__ = None

        def __call__(self, record):
            return record

    assert tables2.signature(Unhashable()) == (("record",), None)
