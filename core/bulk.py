"""Bulk inserts of plain rows, without model instances: ``COPY`` on PostgreSQL.

``bulk_create`` builds a model per row and compiles every value through its
field (``get_db_prep_save``), then sends a multi-row ``INSERT``; for the import
of thousands of hands that costs far more than the database's own work.
``RowWriter(Model)`` takes rows as dicts of field attnames (``player_id``) with
plain Python values and writes them with one ``COPY … FROM STDIN`` on
PostgreSQL, one ``executemany`` ``INSERT`` elsewhere (SQLite).

Values are stored as the model would store them: a column missing from a row
takes the field's default (``auto_now`` fields have none: give them), JSON columns
are dumped with the field's encoder (``None`` is SQL NULL, as the ORM writes
it), dates and datetimes go through the backend's adapters. Nothing is
validated: the caller writes what it checked.

The ``COPY`` runs through the connection's ``execute_wrapper``s and, when
queries are logged (``django_assert_num_queries``, ``DEBUG``), into
``connection.queries``, so query counts include it.
"""

import functools
import json
import time

from django.db import DEFAULT_DB_ALIAS, connections, models


class RowWriter:
    """Insert rows into ``model``'s table: ``writer.write(rows)``, each row a dict."""

    def __init__(self, model, *, using: str = DEFAULT_DB_ALIAS):
        self.connection = connection = connections[using]
        ops = connection.ops
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self.names = [f.attname for f in fields]
        self.defaults = {}
        self.converters = []  # (index, function) for the columns that need one
        for index, field in enumerate(fields):
            self.defaults[field.attname] = field.get_default()
            if isinstance(field, models.JSONField):
                convert = functools.partial(_json, cls=field.encoder)
            elif isinstance(field, models.DateTimeField):
                convert = ops.adapt_datetimefield_value
            elif isinstance(field, models.DateField):
                convert = ops.adapt_datefield_value
            else:
                convert = None
            if convert is not None:
                self.converters.append((index, convert))
        quote = ops.quote_name
        self.table = quote(model._meta.db_table)
        self.columns = ", ".join(quote(f.column) for f in fields)

    def values(self, row: dict) -> list:
        """The row as database values in column order."""
        defaults = self.defaults
        values = [row[name] if name in row else defaults[name] for name in self.names]
        for index, convert in self.converters:
            if values[index] is not None:
                values[index] = convert(values[index])
        return values

    def write(self, rows) -> int:
        """Insert ``rows`` (an iterable of dicts); return how many."""
        if self.connection.vendor == "postgresql":
            return self._copy(rows)
        params = [self.values(row) for row in rows]
        if params:
            marks = ", ".join(["%s"] * len(self.names))
            sql = f"INSERT INTO {self.table} ({self.columns}) VALUES ({marks})"
            with self.connection.cursor() as cursor:
                cursor.executemany(sql, params)
        return len(params)

    def _copy(self, rows) -> int:
        connection = self.connection
        sql = f"COPY {self.table} ({self.columns}) FROM STDIN"
        written = 0

        def copy(_sql, _params, _many, context):
            nonlocal written
            with context["cursor"].cursor.copy(sql) as stream:
                for row in rows:
                    stream.write_row(self.values(row))
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


def _json(value, cls=None) -> str:
    return json.dumps(value, cls=cls)
