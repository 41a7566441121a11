"""The rows of a backup, checked one by one (``Writer.add``) and written in batches
(``transfer.backup.database.Tables``).

Without model instances: each row becomes a list of column values (converters and
checks made once per model, ``transfer.backup.columns.Columns``), written with its key,
in the file's order. Every row must belong to the file's club: each of its keys names a
row of the file (or one of its logins, or persons), and the file holds one club. The
checks an app registered with its rows (``core.backup_rows``) run as the rows are read
(``Rows.check``) and once every row is in (``Registration.finish``).
"""

from django.core.exceptions import ValidationError
from django.db import connection
from django.utils.translation import gettext as _

from core.backup_rows import Refused
from transfer.backup.columns import CACHE_SIZE, Columns
from transfer.backup.database import INSERT_BATCH, KEYS_TABLE, Tables
from transfer.backup.refusals import invalid, refused
from transfer.backup.rows import registrations


class Writer(Tables):
    """The rows of a backup, checked one by one and written in batches."""

    def __init__(self, slug, user_ids, users, persons, read_by_orjson=False):
        super().__init__(read_by_orjson)
        self.slug, self.user_ids, self.users, self.persons = slug, user_ids, users, persons
        self.registrations = registrations()
        every = [rows for reg in self.registrations for rows in reg.rows]
        self.registered = {rows.model._meta.label_lower: rows for rows in every}
        self.lowers = list(self.registered)
        self.labels = {label: number for number, label in enumerate(self.lowers)}
        self.specs = {}
        self.found = {}  # label → rows read
        self.last = {}  # label → the last key read (keys rise within a model)
        self.club_pk = self.club_slug = None
        self.kept_rows = {rows: [] for rows in every if rows.keep}
        self.guarded, self.kept, self.known, self.left_out = {}, set(), set(), set()

    def confirm(self, users, logins, existing) -> None:
        """The logins the site administrator confirmed (usernames): the others' rows
        registered with a ``login`` are held back (``_guard``)."""
        names = {self.users[row["id"]]: row["username"] for row in users}
        self.kept = {pk for pk, username in names.items() if username in logins}
        self.known = set(existing) - self.kept
        self.names = names

    def spec(self, label):
        spec = self.specs.get(label)
        if spec is None:
            spec = self.specs[label] = Columns(self.registered[label], self.labels[label])
        return spec

    def _guard(self, spec, values) -> bool:
        """False: the row is left out (a membership of a login not confirmed); a
        player's link to a login that existed here and was not confirmed is emptied."""
        index, cost, club = spec.login
        user = values[index]
        if user is None or user in self.kept:
            return True
        if cost == "row":
            if club is not None and values[club] != self.club_pk:
                return True  # refused by the links' check, naming the row
            self.left_out.add(self.names[user])
            return False
        if user in self.known:
            self.left_out.add(self.names[user])
            values[index] = None
        return True

    def add(self, number, row) -> None:
        if not isinstance(row, dict) or not isinstance(row.get("fields"), dict):
            raise invalid(_("row %(n)s is not a row of a model") % {"n": number})
        label = row.get("model")
        if label not in self.labels:
            raise invalid(_("%(model)s is not club data") % {"model": label})
        self.found[label] = self.found.get(label, 0) + 1
        spec = self.spec(label)
        given = row["fields"]
        pk = row.get("pk")
        if type(pk) is not int:
            try:
                pk = spec.pk.to_python(pk)
            except ValidationError:
                pk = None
        where = f"{label} {row.get('pk')}"
        last = self.last.get(label)
        if pk is None or (last is not None and pk <= last and self._read(spec, pk)):
            raise invalid(_("%(row)s: its key is missing or twice") % {"row": where})
        if last is None or pk > last:
            self.last[label] = pk
        values = spec.fill(given, pk, where, self._value)
        if spec.login is not None and not self._guard(spec, values):
            return
        if spec.check is not None:
            self._check(spec, where, values)
        if spec.is_club:
            if self.club_pk is not None:
                raise invalid(_("the file must hold one club, %(slug)s") % {"slug": self.slug})
            self.club_pk, self.club_slug = pk, given.get("slug")
        if spec.keep:
            self.kept_rows[spec.registered].append((where, pk, *(values[i] for i in spec.keep)))
        if spec is not self.batch_spec:
            self.flush()
            self.batch_spec = spec
        self.batch.append(values)
        if len(self.batch) >= INSERT_BATCH or len(self.refs) >= INSERT_BATCH:
            self.flush()

    def _value(self, spec, slot, given, where, pk):
        """One column's value of a row: converted, checked (null, choices, validators;
        a key names a login, a person, a row of the file). The way every value went
        before ``Columns.fill``, which takes this one for any value but the usual ones."""
        index, name, field, kind, convert, null, choices, blank = slot[:8]
        validators, plain, low, high, cache = slot[8:]
        rebuilt = spec.rebuilt
        checked, text = False, None
        if name in given:
            value = given[name]
            if type(value) is plain:
                # taken as it is (``to_python`` gives it back); its validators
                # passed when within its bounds, else run below for their message
                checked = low is None or low <= (len(value) if plain is str else value) <= high
            elif cache is not None and type(value) is str and value in cache:
                value, checked = cache[value], True
            else:
                text = value
                try:
                    value = convert(value)
                except ValidationError as error:
                    raise refused(where, name, " ".join(error.messages)) from None
        else:
            value = field.get_default()
        if value is None:
            if not null:
                raise refused(where, name, _("empty"))
        elif kind == "user":
            if value not in self.user_ids:
                raise refused(where, name, _("a login not in the file"))
            value = self.users[value]
        elif kind == "person":
            if value not in self.persons:
                raise refused(where, "person", _("a row not in the file"))
            value = self.persons[value]
        elif kind == "link":
            if rebuilt:
                target = self.labels.get(field.related_model._meta.label_lower, -1)
                self.refs.append((spec.number, pk, name, target, value))
        elif not rebuilt and (checked or not hasattr(value, "resolve_expression")):
            if choices is not None and value not in choices and not (blank and value == ""):
                raise refused(where, name, _("not one of its choices"))
            if validators is not None and not checked:
                try:
                    field.run_validators(value)
                except ValidationError as error:
                    raise refused(where, name, " ".join(error.messages)) from None
            if cache is not None and type(text) is str and len(cache) < CACHE_SIZE:
                cache[text] = value  # converted and checked: the next rows take it
        return value

    def _read(self, spec, pk) -> bool:
        """Whether the file had a row of ``spec`` under ``pk`` already: asked only of
        a key below the model's last (a backup writes them rising)."""
        self.flush()
        with connection.wrap_database_errors:
            self._collect()
        self.cursor.execute(
            f"SELECT 1 FROM {connection.ops.quote_name(KEYS_TABLE)} WHERE model = %s AND id = %s",
            [spec.number, pk],
        )
        return self.cursor.fetchone() is not None

    def _check(self, spec, where, values) -> None:
        """The check its app registered for the row (``Rows.check``)."""
        index = spec.index
        try:
            spec.check(lambda column: values[index[column]])
        except Refused as refusal:
            raise refused(where, refusal.field, refusal.reason) from None

    def check(self) -> None:
        """After the rows (and their counts): the file's one club, then the checks the
        apps registered for the whole file (``Registration.finish``: a tournament
        table's seats are entry numbers of its own tournament)."""
        if self.club_pk is None or self.club_slug != self.slug:
            raise invalid(_("the file must hold one club, %(slug)s") % {"slug": self.slug})
        for reg in self.registrations:
            if reg.finish is not None:
                kept = {rows: self.kept_rows[rows] for rows in reg.rows if rows.keep}
                try:
                    reg.finish(kept)
                except Refused as refusal:
                    raise refused(refusal.where, refusal.field, refusal.reason) from None
