"""``core.bulk.RowWriter``: plain rows written as the ORM would store them (``COPY`` on
PostgreSQL, ``executemany`` on SQLite), on both databases."""

import datetime
import json
from decimal import Decimal

import pytest

from clubs.models import AuditEntry
from core.bulk import JSONText, RowWriter


@pytest.fixture
def row(club):
    return {
        "club_id": club.pk,
        "actor_id": None,
        "at": datetime.datetime(2026, 3, 14, 20, 30, tzinfo=datetime.UTC),
        "action": "sheet_created",
        "after": {"players": ["Ann", "Bob"], "n": 2},
    }


def test_rows_are_stored_as_the_orm_stores_them_with_defaults_for_missing_columns(row):
    written = RowWriter(AuditEntry).write([row, {**row, "after": None}])
    assert written == 2
    first, second = AuditEntry.objects.order_by("pk")
    assert first.after == {"players": ["Ann", "Bob"], "n": 2}
    assert second.after is None  # SQL NULL, as the ORM writes None
    assert first.at == row["at"]
    field = AuditEntry._meta.get_field("before")
    assert first.before == field.get_default()  # a column left out takes its default


def test_json_text_is_written_as_it_is_not_encoded_again(row):
    text = JSONText.dumps({"hand": {"taker": "Élodie"}, "scores": {"Élodie": 22.5}})
    assert json.loads(text) == {"hand": {"taker": "Élodie"}, "scores": {"Élodie": 22.5}}
    RowWriter(AuditEntry).write([{**row, "after": text}])
    assert AuditEntry.objects.get().after == {
        "hand": {"taker": "Élodie"},
        "scores": {"Élodie": 22.5},
    }


@pytest.mark.parametrize("change", ["missing", "extra"])
def test_a_row_whose_keys_differ_from_the_first_is_refused(row, change):
    other = dict(row)
    if change == "missing":
        del other["action"]
    else:
        other["before"] = None
    with pytest.raises(ValueError, match="keys differ"):
        RowWriter(AuditEntry).write([row, other])


def test_an_unknown_column_is_refused(row):
    with pytest.raises(ValueError, match="no column colour"):
        RowWriter(AuditEntry).write([{**row, "colour": "red"}])


def test_no_rows_write_nothing(db):
    assert RowWriter(AuditEntry).write([]) == 0
    assert not AuditEntry.objects.exists()


def test_json_text_gives_the_values_json_dumps_gives():
    value = {"scores": {"Zoé": -22.5, "Bob": 45}, "counts": {3: 1}, "x": [None, True, "a\tb"]}
    assert json.loads(JSONText.dumps(value)) == json.loads(json.dumps(value))
    with pytest.raises(TypeError):
        JSONText.dumps({"score": Decimal("1.5")})  # as json.dumps: numbers made plain first


@pytest.mark.parametrize("model", ["Hand", "ScoreRow", "HandRevision", "SheetTotal"])
def test_every_column_the_import_copies_has_its_copy_type(model):
    from django.db import connection

    from scoresheet import models

    if connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's")
    writer = RowWriter(getattr(models, model))
    assert writer.copy_types and None not in writer.copy_types.values()


def test_a_value_of_another_type_than_its_column_is_refused_not_converted(row):
    from django.db import DataError, connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("SQLite converts")
    with pytest.raises((TypeError, DataError)), transaction.atomic():
        RowWriter(AuditEntry).write([{**row, "club_id": str(row["club_id"])}])
    assert not AuditEntry.objects.exists()


def _columns(obj):
    """Every stored column of ``obj`` but its key, as read back."""
    model = type(obj)
    names = [f.attname for f in model._meta.concrete_fields if f.attname != "id"]
    return model.objects.filter(pk=obj.pk).values(*names).get()


def test_insert_stores_the_row_save_stores_and_sets_the_key(club):
    from core.bulk import insert

    def entry():
        return AuditEntry(
            club=club, action="sheet_created", object_type="sheet", after={"players": ["Zoé"]}
        )

    saved = entry()
    saved.save()
    inserted = insert(entry())
    assert inserted.pk is not None and inserted.pk != saved.pk
    assert not inserted._state.adding and inserted._state.db == "default"
    assert inserted.at is not None  # auto_now_add, as save() sets it
    stored, expected = _columns(inserted), _columns(saved)
    assert abs(stored.pop("at") - expected.pop("at")).total_seconds() < 60
    assert stored == expected
    assert AuditEntry.objects.get(pk=inserted.pk).after == {"players": ["Zoé"]}


def test_insert_saves_through_the_orm_a_model_someone_listens_to(club):
    from django.db.models.signals import post_save

    from core.bulk import insert

    heard = []

    def listener(sender, instance, created, **kwargs):
        heard.append((instance.pk, created))

    post_save.connect(listener, sender=AuditEntry)
    try:
        entry = insert(AuditEntry(club=club, action="sheet_created"))
    finally:
        post_save.disconnect(listener, sender=AuditEntry)
    assert heard == [(entry.pk, True)]


def test_rows_of_other_keys_are_written_by_a_plan_of_their_own(row):
    RowWriter(AuditEntry).write([row])
    RowWriter(AuditEntry).write([{**row, "before": {"n": 1}}])
    RowWriter(AuditEntry).write([row])
    first, second, third = AuditEntry.objects.order_by("pk")
    field = AuditEntry._meta.get_field("before")
    assert (first.before, second.before, third.before) == (field.get_default(), {"n": 1}, None)
