"""Bulk inserts of plain rows, without model instances: ``COPY`` on PostgreSQL.

``bulk_create`` builds a model per row and compiles every value through its
field (``get_db_prep_save``), then sends a multi-row ``INSERT``; for the import
of thousands of hands that costs far more than the database's own work.
``RowWriter(Model)`` takes rows as dicts of field attnames (``player_id``) with
plain Python values, all built alike (the same keys in the same order), and
writes them with one ``COPY … FROM STDIN`` on PostgreSQL, one ``executemany``
``INSERT`` elsewhere (SQLite).

Values are stored as the model would store them: a column missing from a row
takes the field's default (``auto_now`` fields have none: give them), JSON columns
are dumped with the field's encoder (``None`` is SQL NULL, as the ORM writes it;
a ``JSONText`` is JSON encoded already), dates and datetimes go through the
backend's adapters. Nothing is validated: the caller writes what it checked.

On PostgreSQL each column's values are formatted for its own type (the
``COPY``'s ``set_types``, from the field's column type: a JSON column as the text
it is already): psycopg then need not look up how to send each value, which
halves the formatting time. A value of another Python type than its column's
(a ``str`` for an integer) is then a ``TypeError`` or ``DataError``, not a
conversion: rows are built by code that checked them.

The ``COPY`` runs through the connection's ``execute_wrapper``s and, when
queries are logged (``django_assert_num_queries``, ``DEBUG``), into
``connection.queries``, so query counts include it.
"""

import functools
import itertools
import json
import operator
import time
from dataclasses import dataclass

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.signals import post_save, pre_save


@dataclass(frozen=True)
class _Plan:
    """How ``RowWriter`` writes rows of some keys: every column's name (the rows' keys
    first), the values of the columns the rows leave out (``callable_tail``: made
    again for each write), the converters by key index, the getter of the keys'
    values, the statement and the ``COPY``'s type numbers (PostgreSQL; None: psycopg
    finds each value's own)."""

    names: tuple
    tail: tuple
    callable_tail: bool
    converters: tuple
    picked: object
    sql: str
    types: tuple | None


#: The plans of ``RowWriter``, per (table, database alias), per row keys.
_PLANS: dict = {}


class RowWriter:
    """Insert rows into ``model``'s table: ``RowWriter(Model).write(rows)``.

    Each row is a dict of field attnames; the rows of one ``write`` have the same
    keys in the same order (as one function builds them), checked row by row.
    """

    def __init__(self, model, *, using: str = DEFAULT_DB_ALIAS):
        self.connection = connection = connections[using]
        self.fields, self.converters, self.copy_types, self.table = _columns(
            model, using, connection.vendor
        )

    def write(self, rows) -> int:
        """Insert ``rows`` (an iterable of dicts); return how many."""
        rows = iter(rows)
        first = next(rows, None)
        if first is None:
            return 0
        keys = tuple(first)
        plan = self._plan(keys)
        picked, converters, tail, size = plan.picked, plan.converters, plan.tail, len(keys)
        if plan.callable_tail:
            tail = tuple(
                self._convert(name, self.fields[name].get_default()) for name in plan.names[size:]
            )

        def values(row: dict):
            # the row's values in the first row's key order (a missing key is a
            # KeyError, an extra one changes the length)
            try:
                if len(row) != size:
                    raise KeyError
                out = picked(row)
            except KeyError:
                raise ValueError(
                    f"{self.table}: a row's keys differ from the first row's"
                ) from None
            if converters:
                out = list(out)
                for index, convert in converters:
                    if out[index] is not None:
                        out[index] = convert(out[index])
                out.extend(tail)
                return out
            return out + tail if tail else out

        all_rows = itertools.chain((first,), rows)
        if self.connection.vendor == "postgresql":
            return self._copy(plan.sql, map(values, all_rows), plan.types)
        params = list(map(values, all_rows))
        with self.connection.cursor() as cursor:
            cursor.executemany(plan.sql, params)
        return len(params)

    def _plan(self, keys: tuple) -> "_Plan":
        """How rows with these keys are written: worked out once per table and keys (an
        import writes the same five tables with the same keys for every sheet; at 20
        hands a sheet, working it out each time was most of a small table's write)."""
        plans = _PLANS.setdefault((self.table, self.connection.alias), {})
        plan = plans.get(keys)
        if plan is None:
            plan = plans[keys] = self._new_plan(keys)
        return plan

    def _new_plan(self, keys: tuple) -> "_Plan":
        unknown = set(keys) - set(self.fields)
        if unknown:
            raise ValueError(f"{self.table}: no column {', '.join(sorted(unknown))}")
        names = (*keys, *(name for name in self.fields if name not in keys))
        rest = [self.fields[name] for name in names[len(keys) :]]
        # a default made by a function (a date, a new dict) is made again for each write
        callable_tail = any(field.has_default() and callable(field.default) for field in rest)
        tail = (
            ()
            if callable_tail
            else tuple(self._convert(field.attname, field.get_default()) for field in rest)
        )
        converters = tuple(
            (i, self.converters[k]) for i, k in enumerate(keys) if k in self.converters
        )
        picked = operator.itemgetter(*keys) if len(keys) > 1 else (lambda row: (row[keys[0]],))
        quote = self.connection.ops.quote_name
        columns = ", ".join(quote(self.fields[name].column) for name in names)
        types = None
        if self.connection.vendor == "postgresql":
            sql = f"COPY {self.table} ({columns}) FROM STDIN"
            named = [self.copy_types[name] for name in names]
            if None not in named:
                # as numbers: psycopg looks a name up on every COPY (the builtin
                # types' numbers are the same on every server)
                from psycopg.postgres import types as registry

                types = tuple(registry.get_oid(name) for name in named)
        else:
            marks = ", ".join(["%s"] * len(names))
            sql = f"INSERT INTO {self.table} ({columns}) VALUES ({marks})"
        return _Plan(names, tail, callable_tail, converters, picked, sql, types)

    def _convert(self, name, value):
        convert = self.converters.get(name)
        return convert(value) if convert is not None and value is not None else value

    def _copy(self, sql, rows, types=None) -> int:
        connection = self.connection
        written = 0

        def copy(_sql, _params, _many, context):
            nonlocal written
            with context["cursor"].cursor.copy(sql) as stream:
                if types is not None:
                    stream.set_types(types)
                write_row = stream.write_row
                for row in rows:
                    write_row(row)
                    written += 1

        with connection.cursor() as cursor:
            executor = copy
            for wrapper in reversed(connection.execute_wrappers):
                executor = functools.partial(wrapper, executor)
            started = time.monotonic()
            with connection.wrap_database_errors:
                executor(sql, None, False, {"connection": connection, "cursor": cursor})
            if connection.queries_logged:
                duration = time.monotonic() - started
                connection.queries_log.append({"sql": sql, "time": f"{duration:.3f}"})
        return written


class JSONText(str):
    """A JSON column's value encoded already (``JSONText.dumps(value)``): written as it
    is, not encoded again (a caller that encodes ahead, in another thread).

    Encoded by orjson, a tenth of ``json.dumps``' time (the import encodes two
    values per hand): the same JSON values (keys that are not text become text, as
    ``json.dumps`` makes them), written compactly and in UTF-8 rather than with
    escapes for accented letters, which both databases read back alike."""

    __slots__ = ()

    @classmethod
    def dumps(cls, value) -> "JSONText":
        return cls(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode())


@functools.cache
def _columns(model, using, vendor):
    """What ``RowWriter`` needs of ``model``'s columns, worked out once per model (a
    writer is made per sheet and table): the fields by attname, the converters of
    the values, the ``COPY`` types (PostgreSQL), the quoted table name."""
    connection = connections[using]
    ops = connection.ops
    # every column but a generated key (a one-to-one key is the caller's to give)
    fields = {
        f.attname: f
        for f in model._meta.concrete_fields
        if not isinstance(f, models.fields.AutoFieldMixin)
    }
    converters = {}
    adapts_dates = vendor != "postgresql"  # psycopg sends dates as they are
    for name, field in fields.items():
        if isinstance(field, models.JSONField):
            converters[name] = functools.partial(_json, cls=field.encoder)
        elif isinstance(field, models.DateTimeField) and adapts_dates:
            converters[name] = ops.adapt_datetimefield_value
        elif isinstance(field, models.DateField) and adapts_dates:
            converters[name] = ops.adapt_datefield_value
    copy_types = (
        {name: _copy_type(field, connection) for name, field in fields.items()}
        if vendor == "postgresql"
        else {}
    )
    return fields, converters, copy_types, ops.quote_name(model._meta.db_table)


#: psycopg's type for a column type of PostgreSQL (``Field.db_type``, without its
#: size): what ``COPY`` formats that column's values as. JSON columns are sent as
#: the text ``_json`` made of them, which PostgreSQL reads as JSON.
COPY_TYPES = {
    "bigint": "int8",
    "integer": "int4",
    "smallint": "int2",
    "boolean": "bool",
    "varchar": "text",
    "text": "text",
    "numeric": "numeric",
    "date": "date",
    "timestamp with time zone": "timestamptz",
    "jsonb": "text",
}


def _copy_type(field, connection):
    """The psycopg type ``COPY`` formats ``field``'s values as, or None (unknown:
    then psycopg finds each value's own)."""
    db_type = field.db_type(connection) or ""
    return COPY_TYPES.get(db_type.split("(")[0].strip())


def _json(value, cls=None) -> str:
    if type(value) is JSONText:
        return value
    if value == [] and cls is None:  # most JSON columns of a hand: no poignée, no misère
        return "[]"
    return json.dumps(value, cls=cls)


def batches(iterable, size: int):
    """Lists of ``size`` items of ``iterable`` in order (the last one shorter), read as
    they are needed (``itertools.batched`` from Python 3.12)."""
    batch = []
    for item in iterable:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def insert(obj, *, using: str = DEFAULT_DB_ALIAS):
    """Insert ``obj``, a new model instance, as ``obj.save()`` would: its fields' values
    made as the ORM makes them for an INSERT (``pre_save``: ``auto_now_add`` is set;
    ``get_db_prep_save``), its key read back (``RETURNING``) and set; ``obj`` is
    returned. The statement is written once per model: ``save()`` compiles it for
    every object, about 0.35 ms of CPU, most of a small row's insert (an import's
    sheet and audit entry). It goes through the connection's cursor, so it is counted
    and logged as any query.

    A model with ``pre_save`` or ``post_save`` receivers, a proxy, inherited tables or
    columns the database fills (``db_default``, generated), an object with its key
    given, or a value that is an expression, is saved by ``save()`` instead (the
    same row)."""
    model = type(obj)
    plan = _insert_plan(model, using)
    listened = pre_save.has_listeners(model) or post_save.has_listeners(model)
    if plan is None or listened or obj.pk is not None:
        obj.save(force_insert=True, using=using)
        return obj
    obj._prepare_related_fields_for_save(operation_name="save")
    connection = connections[using]
    values = []
    for field in plan.fields:
        value = field.pre_save(obj, True)
        if hasattr(value, "resolve_expression"):
            obj.save(force_insert=True, using=using)
            return obj
        values.append(field.get_db_prep_save(value, connection))
    with connection.cursor() as cursor:
        cursor.execute(plan.sql, values)
        if plan.returning:
            key = cursor.fetchone()[0]
        else:
            key = connection.ops.last_insert_id(cursor, plan.table, plan.pk_column)
    setattr(obj, model._meta.pk.attname, key)
    obj._state.adding = False
    obj._state.db = using
    return obj


@dataclass(frozen=True)
class _Insert:
    fields: tuple
    sql: str
    returning: bool
    table: str
    pk_column: str


@functools.cache
def _insert_plan(model, using) -> "_Insert | None":
    """``insert``'s statement for ``model`` (None: ``save()`` inserts it)."""
    meta = model._meta
    connection = connections[using]
    auto = meta.auto_field
    if auto is None or meta.proxy or meta.parents or meta.db_returning_fields != [auto]:
        return None
    fields = tuple(f for f in meta.local_concrete_fields if f is not auto)
    if any(f.has_db_default() or f.generated for f in fields):
        return None
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    table = meta.db_table
    sql = f"INSERT INTO {quote(table)} ({columns}) VALUES ({marks})"
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += f" RETURNING {quote(table)}.{quote(auto.column)}"
    return _Insert(fields, sql, returning, table, auto.column)
