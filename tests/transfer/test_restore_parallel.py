"""The restore's writing thread and its checks per batch (PostgreSQL): a batch's keys
are looked up among the file's keys read so far and its foreign keys' triggers fired
as it is written, on a thread of its own, while the next rows are read. Every file
is read both ways (``WRITING_THREAD``: by that thread, or between the reading
thread's batches) in batches of a few rows, so the writing thread is busy while
the rows are read, and refusals come from a batch in the middle. Whatever fails,
nothing is written, the refusal names its row, and no thread is left running."""

import threading

import pytest
from django.db import connection

from clubs.models import Club, Player
from tests.transfer.doctored import backed_up_then_cleared, copy, counts, rows
from tests.transfer.test_restore_fast import _text
from tests.transfer.test_restore_stream import LinesOnly
from transfer import backup as backups

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the writing thread and the checks per batch"
)


@pytest.fixture(params=[True, False], ids=["thread", "inline"])
def writing(request, monkeypatch):
    monkeypatch.setattr(backups, "WRITING_THREAD", request.param)
    monkeypatch.setattr(backups, "INSERT_BATCH", 2)
    return request.param


@pytest.fixture
def cleared():
    return backed_up_then_cleared()


def _no_thread_left():
    assert not [t for t in threading.enumerate() if t.name == "restore-writes"]


def _refused(data, *words, code="backup_invalid"):
    before = counts()
    for source in (copy(data), LinesOnly(_text(data).encode())):
        with pytest.raises(backups.BackupError) as caught:
            backups.restore(source)
        assert caught.value.code == code, caught.value.message
        for word in words:
            assert word in caught.value.message, caught.value.message
        assert counts() == before
        _no_thread_left()


@pytest.mark.django_db
def test_a_club_restores_in_batches_of_two(cleared, writing):
    data, _ids = cleared
    club = backups.restore(LinesOnly(_text(data).encode()))
    _no_thread_left()
    assert club.slug == "rive"
    hands = rows(data, "scoresheet.hand")
    assert len(hands) > 2 * backups.INSERT_BATCH
    assert backups.Hand.objects.filter(sheet__club=club).count() == len(hands)


@pytest.mark.django_db
def test_a_key_naming_a_later_row_of_the_file_is_not_refused(cleared, writing):
    """A player merged into a player that comes later in the file (another batch):
    its key names no row read yet, so that batch's foreign keys wait for the end
    (fired then, with the keys checked against the whole file), as before."""
    data, _ids = cleared
    players = rows(data, "clubs.player")
    assert len(players) > 3
    players[0]["fields"]["merged_into"] = players[-1]["pk"]
    club = backups.restore(copy(data))
    _no_thread_left()
    assert Player.objects.get(pk=players[0]["pk"]).merged_into_id == players[-1]["pk"]
    assert club.players.count() == len(players)


@pytest.mark.django_db
def test_a_key_naming_another_clubs_row_in_a_middle_batch_is_refused(cleared, writing):
    """The row exists (the database's foreign key would take it): only the file's keys
    refuse it, found missing from a batch's keys, then named by ``check_links``."""
    data, ids = cleared
    hands = rows(data, "scoresheet.hand")
    hand = hands[len(hands) // 2]
    hand["fields"]["sheet"] = ids["sheet"]
    _refused(data, f"scoresheet.hand {hand['pk']}", "sheet", "not in the file")


@pytest.mark.django_db
def test_a_bad_row_read_while_batches_are_written_is_refused(cleared, writing):
    data, _ids = cleared
    row = rows(data, "scoresheet.scorerow")[-1]
    row["fields"]["role"] = "emperor"
    _refused(data, f"scoresheet.scorerow {row['pk']}", "role")


@pytest.mark.django_db
def test_a_key_held_here_refuses_the_file_from_the_writing_thread(cleared, writing):
    """The database refuses a batch (a score row's key held by the other club): the
    refusal reaches the reading thread, which stops, and names the key."""
    data, _ids = cleared
    other = Club.objects.get(slug="other")
    held = backups.ScoreRow.objects.filter(hand__sheet__club=other).values_list("pk", flat=True)[0]
    score_rows = rows(data, "scoresheet.scorerow")
    row = score_rows[len(score_rows) // 2]
    assert not any(r["pk"] == held for r in score_rows)
    row["pk"] = held
    _refused(data, f"{held}", code="not_empty")
