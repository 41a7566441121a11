"""The restore's side of the database: the temporary tables of the file's keys, the
rows written in batches (COPY on PostgreSQL, sent while the next rows are read;
``executemany`` on SQLite), the foreign-key triggers, and the checks that every key
names a row of the file (``check_links``) or of its table (``check_foreign_keys``).

On PostgreSQL the database works while the next rows are read: each batch's COPY is
sent, and its result read only before the connection's next statement (``_collect``;
a refusal then names that batch). Before it, the batch's keys (each value once) are
looked up among the file's keys read so far: when all are found, the COPY's query also
fires the batch's deferred foreign-key triggers (``SET CONSTRAINTS ALL IMMEDIATE``,
then ``DEFERRED`` again), so that neither the links' query per model nor the 2.3
million trigger checks of a 100,000-hand club wait for the end. The first key not
found (a row named before it comes, such as a player merged into a later one, or a row
not in the file) sends every check left to the end: ``check_links`` names the row,
``check_constraints`` fires the triggers. One connection, no thread: a writing thread
cost more CPU in handing the interpreter's lock over than it won
(``benchmarks/HISTORY.md``).
"""

import json
import re

import orjson
from django.db import DatabaseError, connection, transaction
from django.utils.translation import gettext as _
from psycopg import errors as psycopg_errors
from psycopg import generators, pq
from psycopg.copy import LibpqWriter
from psycopg.waiting import Wait

from transfer.backup.refusals import BackupError, refused

#: rows of one COPY or INSERT of a restore
INSERT_BATCH = 5000
#: the temporary tables of a restore: every key of the file (``model``: its place in
#: the file's models), and the keys the rows it does not write (``rebuilt``) name
KEYS_TABLE = "transfer_restore_keys"
REFS_TABLE = "transfer_restore_refs"


class Tables:
    """The database's side of a restore's writer (``transfer.backup.writer.Writer``)."""

    def __init__(self, read_by_orjson=False):
        # a JSON column's value as text for COPY: orjson's for rows orjson read (only
        # what it writes back: no NaN, no integer beyond 64 bits, text keys)
        self.dumps = _orjson_text if read_by_orjson else json.dumps
        self.written = {}  # model → True, in the order written
        self.rows = 0
        self.batch, self.batch_spec, self.refs = [], None, []
        self.failed = None
        self.cursor = connection.cursor()
        self.postgres = connection.vendor == "postgresql"
        self.pending = None  # the connection whose last statement's result is unread
        quote = connection.ops.quote_name
        for name, columns in (
            (KEYS_TABLE, "model integer NOT NULL, id bigint NOT NULL, PRIMARY KEY (model, id)"),
            (
                REFS_TABLE,
                "model integer NOT NULL, id bigint NOT NULL, field varchar(100) NOT NULL, "
                "target integer NOT NULL, target_id bigint NOT NULL",
            ),
        ):
            self.cursor.execute(f"DROP TABLE IF EXISTS {quote(name)}")
            self.cursor.execute(f"CREATE TEMPORARY TABLE {quote(name)} ({columns})")
        # PostgreSQL, where this login may set it (a superuser, or a login granted
        # ``SET ON PARAMETER session_replication_role``): the foreign keys' triggers
        # do not fire while the rows are written; ``check_foreign_keys`` checks them
        self.unchecked = self.postgres and self._triggers_off()
        # PostgreSQL, triggers on: the keys of each batch checked and its foreign
        # keys' deferred triggers fired as it is written (``_known``); False once a
        # batch names a key the file has not given yet: then every check runs at the
        # end, as before
        self.immediate = self.postgres and not self.unchecked

    def _triggers_off(self) -> bool:
        """PostgreSQL: the session in the replica role until ``triggers_on``, for this
        transaction only, when this login may set it; False when it may not (the
        attempt undone by its savepoint)."""
        self.cursor.execute("SELECT current_setting('session_replication_role')")
        self.role = self.cursor.fetchone()[0]
        try:
            with transaction.atomic():
                self.cursor.execute(
                    "SELECT set_config('session_replication_role', 'replica', true)"
                )
        except DatabaseError:
            return False
        return True

    def triggers_on(self) -> None:
        """The session's role as it was: every write after the rows fires its triggers."""
        if self.unchecked:
            self.cursor.execute(
                "SELECT set_config('session_replication_role', %s, true)", [self.role]
            )

    def flush(self) -> None:
        """The batch read so far (and the rebuilt rows' keys) to the database."""
        spec, batch, refs = self.batch_spec, self.batch, self.refs
        if not batch and not refs:
            return
        self.batch, self.refs = [], []
        if batch:
            if not spec.rebuilt:
                self.written[spec.model] = True
            self.rows += len(batch)
        with connection.wrap_database_errors:  # as Django's errors of their kinds
            self._flush(spec, batch, refs, self.cursor.cursor)

    def _flush(self, spec, batch, refs, raw) -> None:
        """Write one batch through ``raw`` (a cursor of the driver): its keys, the
        rebuilt rows' keys, then its rows. On PostgreSQL the rows' COPY is sent
        without waiting for its end (``SentWriter``): the database adds them to its
        indexes and, when every key of the batch names a row of the file read so far
        (``_known``), fires their foreign keys' triggers, while this thread reads the
        next rows; their result is read before the connection's next statement
        (``_collect``), and a refusal then names this batch (``failed``)."""
        self._collect()
        if batch:
            ids = [values[0] for values in batch]
            self.failed = (spec, ids)
            if self.postgres:  # the keys as COPY's text, at once: integers only
                number = spec.number
                self._write_text(
                    KEYS_TABLE, ["model", "id"], "".join(f"{number}\t{pk}\n" for pk in ids), raw
                )
            else:
                self._write(
                    KEYS_TABLE, ["model", "id"], [(spec.number, pk) for pk in ids], None, raw
                )
        if refs:
            self._write(
                REFS_TABLE, ["model", "id", "field", "target", "target_id"], refs, None, raw
            )
        if batch and not spec.rebuilt:
            rows = self._prepared(spec, batch)
            table = spec.model._meta.db_table
            if not self.postgres:
                self._write(table, spec.columns, rows, None, raw)
            else:
                fire = self.immediate and self._known(spec, batch, raw)
                self._write(table, spec.columns, rows, spec.copy_types, raw, fire=fire)
                self.pending = raw.connection
                return  # ``failed`` until its result is read
        self.failed = None

    def where_failed(self, error) -> str | None:
        """The row of the batch the database refused (a value its column refuses, such
        as a NUL in a JSON text): the line PostgreSQL's COPY names, else the batch's
        first and last keys; None when no batch was being written."""
        if self.failed is None:
            return None
        spec, ids = self.failed
        diag = getattr(getattr(error, "__cause__", None), "diag", None)
        line = re.search(r"\bCOPY \S+, line (\d+)", getattr(diag, "context", None) or "")
        if line and 1 <= int(line.group(1)) <= len(ids):
            return f"{spec.lower} {ids[int(line.group(1)) - 1]}"
        return f"{spec.lower} {ids[0]}–{ids[-1]}" if len(ids) > 1 else f"{spec.lower} {ids[0]}"

    def _known(self, spec, batch, raw) -> bool:
        """PostgreSQL: whether every key of the batch's rows (each value once) names a
        key of the file read so far (its own batch's too). Once one does not (a key
        naming a later row, such as a player merged into a later one, or a row not in
        the file), ``immediate`` is False: the checks wait for the end, as before
        (``check_links`` names the row, ``check_constraints`` fires the triggers
        left). While they do, each batch's deferred foreign-key triggers fire as it
        is written, on the database's side while the next rows are read, rather
        than 2.3 million row checks at 100,000 hands after the reading."""
        models_, ids = [], []
        for index, _field, target in spec.links:
            found = {values[index] for values in batch}
            found.discard(None)
            models_ += [self.labels.get(target.lower(), -1)] * len(found)
            ids += found
        if ids:
            raw.execute(
                f"SELECT 1 FROM unnest(%s::integer[], %s::bigint[]) AS v(model, id)"
                f" WHERE NOT EXISTS (SELECT 1 FROM {connection.ops.quote_name(KEYS_TABLE)} k"
                " WHERE k.model = v.model AND k.id = v.id) LIMIT 1",
                [models_, ids],
            )
            if raw.fetchone() is not None:
                self.immediate = False
        return self.immediate

    def _collect(self) -> None:
        """The result of the last batch's COPY (and of its triggers, ``_flush``): read
        before the connection's next statement; its error raised (the driver's)."""
        conn, self.pending = self.pending, None
        if conn is None:
            return
        with conn.lock:
            results = conn.wait(generators.fetch_many(conn.pgconn))
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise psycopg_errors.error_from_result(result, encoding=conn.info.encoding)
        self.failed = None

    def _prepared(self, spec, batch):
        if self.postgres:
            if spec.json:
                # as the text ``Jsonb`` would send (``json.dumps``), its column's COPY
                # type being text (``Columns.copy_types``); orjson's text for values orjson
                # read (``dumps``): the same value once in jsonb, in a tenth of the time
                dumps = self.dumps
                for values in batch:
                    for index in spec.json:
                        value = values[index]
                        if value is not None:
                            values[index] = "[]" if value == [] else dumps(value)
            return batch
        if spec.prepared:
            for values in batch:
                for index, field in spec.prepared:
                    values[index] = field.get_db_prep_save(values[index], connection)
        return batch

    def _write(self, table, columns, rows, types, raw, fire=None) -> None:
        """``rows`` into ``table`` through ``raw`` (a cursor of the driver): COPY on
        PostgreSQL, each column's values formatted for ``types`` when given (psycopg
        then need not find each value's own). ``fire`` (PostgreSQL), not None: the
        COPY's end sent without waiting for its result (``_collect`` reads it), and
        when True, the deferred triggers fired after it in the same query."""
        quote = connection.ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        if self.postgres:
            statement = f"COPY {quote(table)} ({names}) FROM STDIN"
            if fire:
                statement += "; SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED"
            writer = None if fire is None else SentWriter(raw)
            with raw.copy(statement, writer=writer) as copy:
                if types is not None:
                    copy.set_types(types)
                write_row = copy.write_row
                for row in rows:
                    write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            raw.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)

    def _write_text(self, table, columns, text, raw) -> None:
        """PostgreSQL: rows already in COPY's text format into ``table``."""
        quote = connection.ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        statement = f"COPY {quote(table)} ({names}) FROM STDIN"
        with raw.copy(statement) as copy:
            copy.write(text)

    def finish(self) -> None:
        """The last batch written and its result read."""
        self.flush()
        with connection.wrap_database_errors:
            self._collect()

    def stop(self) -> DatabaseError | None:
        """After a refusal: the last batch's result read, so the connection takes the
        rollback; returns its error (Django's), if the database refused that batch:
        its rows came before the refusal's, so it names the first bad row."""
        try:
            with connection.wrap_database_errors:
                self._collect()
        except DatabaseError as error:
            return error
        return None

    def analyse(self) -> None:
        """PostgreSQL: fresh statistics of the tables written (and the temporary ones,
        which autovacuum never reads): the checks that follow join them, and a plan
        made for the empty tables they were would loop over every row.

        Of the tables written, only the key and the foreign keys, which the checks
        and the totals join on (a tenth of the time of every column: 0.6 s against
        5.3 s for 110,000 hands); autovacuum counts the others after the commit."""
        if not self.postgres:
            return
        quote = connection.ops.quote_name
        for model in self.written:
            columns = [f.column for f in model._meta.concrete_fields if f.primary_key]
            columns += [f.column for f in model._meta.concrete_fields if f.is_relation]
            names = ", ".join(quote(column) for column in columns)
            self.cursor.execute(f"ANALYZE {quote(model._meta.db_table)} ({names})")
        for table in (KEYS_TABLE, REFS_TABLE):
            self.cursor.execute(f"ANALYZE {quote(table)}")

    def check_links(self) -> None:
        """Every key of every row names a row of the file: one query per model (and
        one for the rows rebuilt). With one club in the file, every row's path
        (``transfer.backup.rows.paths``) then leads to it: no row names, nor belongs to,
        another club."""
        quote = connection.ops.quote_name
        keys = quote(KEYS_TABLE)
        for spec in self.specs.values():
            if spec.rebuilt or not spec.links or self.immediate:
                # (``immediate``: every batch's keys were found as it was written)
                continue
            self._first_orphan(
                spec,
                [
                    (field, keys, "id", self.labels.get(target.lower(), -1))
                    for _index, field, target in spec.links
                ],
            )
        self.cursor.execute(
            f"SELECT f.model, f.id, f.field FROM {quote(REFS_TABLE)} f WHERE NOT EXISTS"
            f" (SELECT 1 FROM {keys} r WHERE r.model = f.target AND r.id = f.target_id)"
            " ORDER BY f.model, f.id LIMIT 1"
        )
        found = self.cursor.fetchone()
        if found is not None:
            label = self.lowers[found[0]]
            raise refused(f"{label} {found[1]}", found[2], _("a row not in the file"))

    def check_foreign_keys(self) -> None:
        """After rows written with the triggers off (``unchecked``): every foreign key
        of every row written names a row of its table, as the triggers would have
        checked, one query per model. ``check_links`` has named a key naming no row
        of the file already; this one also sees what no check of the file sees (a
        login or a person gone, a key naming a row the restore does not write)."""
        if not self.unchecked:
            return
        quote = connection.ops.quote_name
        for spec in self.specs.values():
            if spec.model not in self.written:
                continue
            targets = []
            for field in spec.fields:
                if field.is_relation and field.db_constraint:
                    target = field.related_model._meta
                    column = target.get_field(field.remote_field.field_name).column
                    targets.append((field, quote(target.db_table), column, None))
            if targets:
                self._first_orphan(spec, targets)

    def _first_orphan(self, spec, targets) -> None:
        """The first row of ``spec`` written by this restore with a key naming no row
        of its target, refused by name. ``targets``: per key field, the table and
        column it must be found in, and the model's number in the file's keys table
        (``None``: another table). One query: a left join per key (each a hash join
        of the restore's rows, rather than a lookup a row)."""
        quote = connection.ops.quote_name
        joins, tests = [], []
        for n, (field, table, column, number) in enumerate(targets):
            on = f"j{n}.{quote(column)} = t.{quote(field.column)}"
            if number is not None:
                on += f" AND j{n}.model = {int(number)}"
            joins.append(f" LEFT JOIN {table} j{n} ON {on}")
            tests.append(f"(t.{quote(field.column)} IS NOT NULL AND j{n}.{quote(column)} IS NULL)")
        pk = quote(spec.pk.column)
        self.cursor.execute(
            f"SELECT t.{pk}, {', '.join(tests)} FROM {quote(KEYS_TABLE)} k"
            f" JOIN {quote(spec.model._meta.db_table)} t ON t.{pk} = k.id{''.join(joins)}"
            f" WHERE k.model = %s AND ({' OR '.join(tests)}) ORDER BY t.{pk} LIMIT 1",
            [spec.number],
        )
        found = self.cursor.fetchone()
        if found is not None:
            field = next(target[0] for target, bad in zip(targets, found[1:]) if bad)
            raise refused(f"{spec.lower} {found[0]}", field.name, _("a row not in the file"))

    def drop(self) -> None:
        for name in (KEYS_TABLE, REFS_TABLE):
            self.cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name(name)}")

    def refuse_held(self, spec, keys) -> None:
        """After a batch refused by the database (the transaction rolled back): a key
        this site holds already refuses the file as ``not_empty``."""
        for start in range(0, len(keys), 900):
            held = spec.model._default_manager.filter(pk__in=keys[start : start + 900])
            first = held.order_by("pk").values_list("pk", flat=True).first()
            if first is not None:
                raise BackupError(
                    "not_empty",
                    _("This site already holds %(model)s %(pk)s: restore into an empty site.")
                    % {"model": spec.label, "pk": first},
                )


class SentWriter(LibpqWriter):
    """How psycopg writes a COPY, but its end sent without waiting for its result (nor
    for the statements after it in the same query): the restore reads it later
    (``Tables._collect``), before the connection's next statement. A COPY failing on
    this side (an error while its rows are sent) ends as psycopg ends it."""

    def finish(self, exc=None):
        if exc:
            return super().finish(exc)
        self.connection.wait(_copy_end_sent(self._pgconn))
        return None


def _copy_end_sent(pgconn):
    """psycopg's ``generators.copy_end`` without reading the result."""
    while pgconn.put_copy_end(None) == 0:
        while not (yield Wait.W):
            continue
    while True:
        while not (yield Wait.W):
            continue
        if pgconn.flush() == 0:
            break


def _orjson_text(value) -> str:
    return orjson.dumps(value).decode()
