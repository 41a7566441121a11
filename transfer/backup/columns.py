"""What the restore does with one model's rows, made once per model (``Columns``): each
column's converter, default and checks, what its key names, and how a row's values are
taken from the file (``Columns.fill``).

A row's columns are filled in order, the first bad one named: a value of its field's
plain type within its bounds and choices (``as_is``), a JSON column's list or object, a
date and time written as the backup writes it, or a date or decimal remembered by its
text is taken as it is; any other (missing, None where a value is due, another type,
out of bounds, a login or person key, a key of a rebuilt row) goes through the
writer's ``value``, which converts, checks and names the refusal.

``fill`` takes a row's values at once (``operator.itemgetter``) and follows a plan made
once for each combination of the values' types the model's rows show (``_plan``): the
values of the columns with bounds or choices are looked up together among the values of
their column seen passing (a set a column: few distinct values fill most rows; a value
not seen yet is checked, then remembered); a row any check refuses is filled again
column by column (``fill_in_order``), which names the first bad one as ``value`` words
it. (Python code written out per model and compiled did the same a column at a time.)
"""

import datetime
from operator import contains, itemgetter

from django.contrib.auth import get_user_model
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import connection, models
from django.utils.translation import gettext as _

from core.bulk import _copy_type
from transfer.backup.refusals import refused

#: field classes whose values SQLite takes through ``get_db_prep_save`` (text dates,
#: JSON text, decimals); the others go as they are
_PREPARED_ON_SQLITE = (
    models.DateTimeField,
    models.DateField,
    models.DecimalField,
    models.JSONField,
    models.UUIDField,
    models.TimeField,
)
#: field classes whose converted and checked values the restore remembers by their
#: text (a sheet's date, a score): the same few values on many rows
_CACHED = (models.DecimalField, models.DateField)
#: values remembered per field at most
CACHE_SIZE = 4096
_BOUNDS = (MinValueValidator, MaxValueValidator)
MISSING = object()
_NONE = type(None)

# how a column's value is taken when the file gives it (``Columns.modes``)
JSON = "json"  # a list or object as it is
STAMP = "stamp"  # a date and time with its offset, from its text
TEST = "test"  # its plain type, within bounds and choices
CACHE = "cache"  # its text remembered with its value
SLOW = "slow"  # through ``value``


class Columns:
    """A model's columns as the restore reads them (see the module)."""

    def __init__(self, rows, number):
        meta = rows.model._meta
        self.model, self.number, self.registered = rows.model, number, rows
        self.label, self.lower = meta.label, meta.label_lower
        self.rebuilt, self.check = rows.rebuilt, rows.check
        self.pk = meta.pk
        self.fields = list(meta.concrete_fields)
        self.columns = [f.column for f in self.fields]
        self.index = {column: i for i, column in enumerate(self.columns)}
        self.m2m = {f.name for f in meta.many_to_many}
        self.links = []  # (index, field, target label): keys naming rows of the file
        self.json, self.prepared = [], []
        self.slots = [self._slot(i, f) for i, f in enumerate(self.fields) if not f.primary_key]
        self.modes = [self._mode(slot) for slot in self.slots]
        self.names = {field.name for field in self.fields}
        self.allowed = self.names | self.m2m
        self.is_club = rows.path == "pk"
        self.keep = [self.index[column] for column in rows.keep]
        self.login = None  # (index of the login's key, "row" or "link", index of the club)
        if rows.login is not None:
            column, cost = rows.login
            club = self.index.get("club_id") if rows.path == "club" else None
            self.login = (self.index[column], cost, club)
        # the fast way needs the key first and every other column after it, in order
        self.getter = None
        if self.fields[0].primary_key and len(self.slots) > 1:
            self.getter = itemgetter(*(slot[1] for slot in self.slots))
        self.plans = {}
        # position → the values of a checked column seen passing its bounds and choices
        # (of its plain type: a plan is made per combination of types)
        self.passed = {}
        # PostgreSQL: the type COPY formats each column's values as (JSON: the text
        # the writer makes of it); None when one is unknown
        self.copy_types = None
        if connection.vendor == "postgresql":
            types = [_copy_type(field, connection) for field in self.fields]
            self.copy_types = types if None not in types else None

    def _slot(self, index, field) -> tuple:
        """``(index, name, field, kind, convert, null, choices, blank, validators,
        plain, low, high, cache)`` of a column (the writer's ``value`` reads it)."""
        kind, convert, target = "value", field.to_python, None
        if field.is_relation:
            target = field.remote_field.model._meta.get_field(field.remote_field.field_name)
            convert = target.to_python
            if field.related_model is get_user_model():
                kind = "user"
            elif field.attname == self.registered.person:
                kind = "person"
            else:
                kind = "link"
                self.links.append((index, field, field.related_model._meta.label))
        elif isinstance(field, models.JSONField):
            self.json.append(index)
        if not field.is_relation and isinstance(field, _PREPARED_ON_SQLITE):
            self.prepared.append((index, field))
        choices = None
        if kind == "value" and field.choices:
            choices = {choice for choice, _label in field.flatchoices}
        validators = field.validators if kind == "value" and field.validators else None
        plain, low, high = as_is(field, kind, target)
        cache = {} if kind == "value" and type(field) in _CACHED else None
        head = (index, field.name, field, kind, convert, field.null, choices, field.blank)
        return (*head, validators, plain, low, high, cache)

    def _mode(self, slot) -> tuple:
        """``(skipped, none, mode)`` of a column: not read at all (a rebuilt row's
        value: only its keys are checked); None taken as NULL; how a value is taken."""
        _index, _name, field, kind, convert, null, choices, _blank, validators, plain = slot[:10]
        cache = slot[12]
        skipped = self.rebuilt and kind == "value"
        none = null and convert(None) is None
        if kind == "value" and validators is None and choices is None:
            if isinstance(field, models.JSONField):
                return skipped, none, JSON
            if type(field) is models.DateTimeField:
                return skipped, none, STAMP
        if plain is not None and (kind == "value" or (kind == "link" and not self.rebuilt)):
            return skipped, none, TEST
        if cache is not None and choices is None and not self.rebuilt:
            return skipped, none, CACHE
        return skipped, none, SLOW

    def fill(self, given, pk, where, value) -> list:
        """A row's column values (its key first) from ``given`` (its fields), each
        taken as it is or through ``value(columns, slot, given, where, pk)``."""
        getter = self.getter
        if getter is None:
            return self.fill_in_order(given, pk, where, value)
        try:
            found = getter(given)
        except KeyError:  # a field missing: its default, through ``value``
            return self.fill_in_order(given, pk, where, value)
        if len(given) != len(found):  # more fields than its columns
            self.refuse_unknown(given, where)
        shape = tuple(map(type, found))
        plan = self.plans.get(shape)
        if plan is None:
            plan = self.plans[shape] = self._plan(shape)
        picked, known, learning, stamps, cached, slow = plan
        if (
            picked is not None
            and not all(map(contains, known, picked(found)))
            and not _learn(found, learning)
        ):
            return self.fill_in_order(given, pk, where, value)
        values = [pk, *found]
        for position in stamps:
            stamp = aware(found[position])
            if stamp is None:
                return self.fill_in_order(given, pk, where, value)
            values[position + 1] = stamp
        for position, cache in cached:
            known = cache.get(found[position])
            if known is None:
                return self.fill_in_order(given, pk, where, value)
            values[position + 1] = known
        for position, slot in slow:
            values[position + 1] = value(self, slot, given, where, pk)
        return values

    def _plan(self, shape) -> tuple:
        """How a row whose values have these types is checked: the columns whose
        values must pass their bounds or choices (``picked``, each with the values of
        the column seen passing, ``known``), the dates and times read from their text,
        the values remembered by their text, and the columns that go through
        ``value`` (in order)."""
        picked, known, learning, stamps, cached, slow = [], [], [], [], [], []
        for position, (slot, kind, mode) in enumerate(zip(self.slots, shape, self.modes)):
            skipped, none, how = mode
            if skipped or (kind is _NONE and none):
                continue
            plain, low, _high, cache = slot[9:]
            if how == JSON and kind in (list, dict):
                continue
            if how == STAMP and kind is str:
                stamps.append(position)
            elif how == TEST and kind is plain:
                if slot[3] == "value" and (low is not None or slot[6] is not None):
                    seen = self.passed.setdefault(position, set())
                    picked.append(position)
                    known.append(seen)
                    learning.append((position, slot, seen))
            elif how == CACHE and kind is str:
                cached.append((position, cache))
            else:
                slow.append((position, slot))
        return _getter(picked), known, learning, stamps, cached, slow

    def refuse_unknown(self, given, where) -> None:
        """A field the model does not have refuses the row (before any value)."""
        if not given.keys() <= self.allowed:
            for name in given:
                if name not in self.allowed:
                    raise refused(where, name, _("not a field"))

    def fill_in_order(self, given, pk, where, value) -> list:
        """``fill`` a column at a time, in order: the way of any row ``fill``'s groups
        refuse (the first bad column is named, as ``value`` words it)."""
        self.refuse_unknown(given, where)
        values = [None] * len(self.fields)
        values[0] = pk
        for slot, (skipped, none, how) in zip(self.slots, self.modes):
            if skipped:
                continue
            index = slot[0]
            v = given.get(slot[1], MISSING)
            if v is None and none:
                values[index] = None
            elif how == JSON and type(v) in (list, dict):
                values[index] = v
            elif how == STAMP and type(v) is str and (stamp := aware(v)) is not None:
                values[index] = stamp
            elif how == TEST and _passes(slot, v):
                values[index] = v
            elif how == CACHE and type(v) is str and v in slot[12]:
                values[index] = slot[12][v]
            else:
                values[index] = value(self, slot, given, where, pk)
        return values


def _passes(slot, v) -> bool:
    """A value of the column's plain type within its bounds and choices."""
    plain, low, high = slot[9:12]
    if type(v) is not plain:
        return False
    if slot[3] != "value":
        return True
    if low is not None and not low <= (len(v) if plain is str else v) <= high:
        return False
    choices = slot[6]
    return choices is None or v in choices or (slot[7] and v == "")


def _learn(found, learning) -> bool:
    """Whether each checked value passes its column's bounds and choices (those not
    seen before); each one passing is remembered (up to ``CACHE_SIZE`` a column)."""
    for position, slot, seen in learning:
        v = found[position]
        if v in seen:
            continue
        if not _passes(slot, v):
            return False
        if len(seen) < CACHE_SIZE:
            seen.add(v)
    return True


def _getter(positions):
    """The values at ``positions`` of a row's values, as a tuple (None: none)."""
    if not positions:
        return None
    if len(positions) == 1:
        only = positions[0]
        return lambda found: (found[only],)
    return itemgetter(*positions)


def as_is(field, kind, target):
    """``(type, low, high)``: a value of exactly that Python type that ``field`` takes
    as it is (``to_python`` gives it back unchanged) and that passes every validator
    of the field when ``low <= value <= high`` (an integer) or ``low <= len(value)
    <= high`` (a text); ``low`` None: no validator to pass. ``(None, None, None)``:
    every value goes through ``to_python`` and the validators."""
    if kind != "value":  # a key: the validators are not run, the value is an id
        if isinstance(target, models.IntegerField):
            return int, None, None
        return None, None, None
    validators = field.validators
    if isinstance(field, models.IntegerField):
        low, high = None, None
        for validator in validators:
            limit = validator.limit_value if type(validator) in _BOUNDS else None
            if type(limit) is not int:
                return None, None, None
            if type(validator) is MinValueValidator:
                low = limit if low is None else max(low, limit)
            else:
                high = limit if high is None else min(high, limit)
        if (low is None) != (high is None):
            low = -(2**63) if low is None else low
            high = 2**63 - 1 if high is None else high
        return int, low, high
    if type(field) in (models.CharField, models.TextField):
        high = None
        for validator in validators:
            if type(validator) is not MaxLengthValidator or type(validator.limit_value) is not int:
                return None, None, None
            high = validator.limit_value if high is None else min(high, validator.limit_value)
        return str, (None if high is None else 0), high
    if type(field) is models.BooleanField and not validators:
        return bool, None, None
    return None, None, None


def aware(text):
    """A date and time with its offset read from ISO 8601 text, as Django's
    ``parse_datetime`` reads it first; None for any other text (``value`` reads it,
    or names the refusal)."""
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else None
