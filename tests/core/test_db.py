"""``core.db``'s bulk-load helpers: commits that do not wait for the disk, the one
that does, and waiting until the disk holds every commit."""

import pytest
from django.db import connection, transaction

from core.db import commit_waits_for_disk, commit_without_waiting, wait_for_disk


def synchronous_commit():
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_connection_stops_waiting_but_one_transaction_can_wait_again():
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is PostgreSQL's")
    commit_without_waiting()
    try:
        assert synchronous_commit() == "off"
        with transaction.atomic():
            commit_waits_for_disk()
            assert synchronous_commit() == "on"
        assert synchronous_commit() == "off"  # SET LOCAL: that transaction only
        assert wait_for_disk(timeout=5)
    finally:
        connection.close()  # the next test's connection waits again


@pytest.mark.django_db
def test_elsewhere_nothing_changes_and_there_is_nothing_to_wait_for():
    if connection.vendor == "postgresql":
        pytest.skip("the other databases' behaviour")
    commit_without_waiting()
    with transaction.atomic():
        commit_waits_for_disk()
    assert wait_for_disk(timeout=0)
