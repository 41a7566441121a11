"""core.tables2: the callables django-tables2 calls per cell declare their signature
once (``__signature__``), and the tables render as django-tables2 renders them."""

import inspect

import django_tables2 as tables
from django_tables2 import utils

from core import tables2


class Doubled(tables2.Column):
    def render(self, value):
        return value * 2


class Plain(tables2.Table):
    name = tables2.Column()
    twice = Doubled(accessor="n")
    n = tables2.Column(attrs={"td": {"class": tables2.signed(lambda record: f"n{record['n']}")}})

    def render_name(self, value, record):
        return f"{value}:{record['n']}"


class Theirs(tables.Table):
    """The same table from django-tables2's own classes."""

    name = tables.Column()
    twice = tables.Column(accessor="n")
    n = tables.Column(attrs={"td": {"class": lambda record: f"n{record['n']}"}})

    def render_name(self, value, record):
        return f"{value}:{record['n']}"

    def render_twice(self, value):
        return value * 2


ROWS = [{"name": "Anna", "n": 3}, {"name": "Bert", "n": 0}]


def test_the_methods_and_callables_declare_their_signature():
    assert "__signature__" in vars(Plain.render_name)
    assert "__signature__" in vars(Doubled.render)
    assert "__signature__" in vars(tables2.Column.render)
    f = tables2.signed(lambda record, **rest: record)
    assert f.__signature__ == inspect.signature(f)
    # what django-tables2 reads from them: the arguments, the ** catch-all
    assert utils.signature(Plain(ROWS).render_name) == (("value", "record"), None)
    assert utils.signature(f) == (("record",), "rest")


def test_a_table_renders_as_django_tables2s_own(rf):
    request = rf.get("/")
    ours = Plain(ROWS).as_html(request)
    assert ours == Theirs(ROWS).as_html(request)
    assert "Anna:3" in ours and ">6<" in ours and 'class="n3"' in ours and 'class="n0"' in ours
