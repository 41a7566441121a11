"""``core.ranking``: the ORM window, the SQL fragment and the Python twin rank alike.

The ORM and SQL faces run on a small table made for the test (a model of no installed
app, its table created inside the test's transaction, so it goes with the rollback).
"""

import pytest
from django.db import connection, models
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.ranking import rank, rank_sql, rank_window


class Score(models.Model):
    group = models.IntegerField()
    score = models.IntegerField(null=True)
    second = models.IntegerField(null=True)

    class Meta:
        app_label = "core_ranking_tests"  # no installed app: no migration is ever made
        db_table = "core_ranking_tests_score"
        managed = False

    def __str__(self):
        return f"{self.group}: {self.score}, {self.second}"


@pytest.fixture
def table(db):
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {Score._meta.db_table} (id integer PRIMARY KEY, "
            '"group" integer NOT NULL, score integer NULL, second integer NULL)'
        )
    return Score


def fill(rows):
    Score.objects.all().delete()
    Score.objects.bulk_create(
        Score(id=i, group=g, score=s, second=t) for i, (g, s, t) in enumerate(rows, start=1)
    )


def orm_ranks(*keys, partition_by=None):
    found = Score.objects.annotate(place=rank_window(*keys, partition_by=partition_by))
    return dict(found.values_list("id", "place"))


def sql_ranks(*keys, partition_by=()):
    window = rank_sql(*keys, partition_by=partition_by)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, {window} FROM {Score._meta.db_table}")
        return dict(cursor.fetchall())


def python_ranks(rows, key, partition=None):
    numbered = list(enumerate(rows, start=1))
    groups = {}
    for number, row in numbered:
        groups.setdefault(partition(row) if partition else None, []).append((number, row))
    out = {}
    for members in groups.values():
        for place, (number, _row) in rank(members, key=lambda nr: key(nr[1])):
            out[number] = place
    return out


def test_the_rule_by_hand(table):
    # scores 20, 20, 10, 5, missing, missing: 1, 1, 3, 4 and the missing ones last, tied
    rows = [(1, 10, None), (1, None, None), (1, 20, None), (1, 5, None), (1, 20, None)]
    rows.append((1, None, None))
    fill(rows)
    expected = {1: 3, 2: 5, 3: 1, 4: 4, 5: 1, 6: 5}
    assert orm_ranks("score") == expected
    assert sql_ranks("score") == expected
    assert python_ranks(rows, key=lambda r: r[1]) == expected


def test_ties_keep_the_order_they_came_in():
    rows = [("b", 5), ("a", 7), ("c", 5), ("d", 7), ("e", None), ("f", 1)]
    ranked = [(place, name) for place, (name, _) in rank(rows, key=lambda r: r[1])]
    assert ranked == [(1, "a"), (1, "d"), (3, "b"), (3, "c"), (5, "f"), (6, "e")]
    assert rank([], key=lambda r: r) == []


def test_the_sql_fragment_reads_plainly():
    assert rank_sql("t.score") == "RANK() OVER (ORDER BY t.score DESC NULLS LAST)"
    assert rank_sql("a", "b", partition_by="p") == (
        "RANK() OVER (PARTITION BY p ORDER BY a DESC NULLS LAST, b DESC NULLS LAST)"
    )


def test_the_direction_is_the_rules():
    with pytest.raises(TypeError):
        rank_window(models.F("score").asc())
    with pytest.raises(ValueError):
        rank_window()
    with pytest.raises(ValueError):
        rank_sql()


SCORES = st.one_of(st.none(), st.integers(-3, 3))  # a narrow range: many ties
ROWS = st.lists(st.tuples(st.integers(1, 3), SCORES, SCORES), max_size=25)
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(rows=ROWS)
def test_one_key_ranks_alike_in_the_orm_sql_and_python(table, rows):
    fill(rows)
    expected = python_ranks(rows, key=lambda r: r[1])
    assert orm_ranks("score") == expected
    assert sql_ranks("score") == expected


@SETTINGS
@given(rows=ROWS)
def test_partitions_and_two_keys_rank_alike_in_the_orm_sql_and_python(table, rows):
    fill(rows)
    by_group = python_ranks(rows, key=lambda r: r[1], partition=lambda r: r[0])
    assert orm_ranks("score", partition_by="group") == by_group
    assert sql_ranks("score", partition_by='"group"') == by_group
    two_keys = python_ranks(rows, key=lambda r: (r[1], r[2]))
    assert orm_ranks("score", "second") == two_keys
    assert sql_ranks("score", "second") == two_keys
