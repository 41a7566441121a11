"""The restore's checks per batch: on PostgreSQL a batch's keys are looked up among the
file's keys read so far, and its COPY and its foreign keys' triggers are sent without
waiting, their result read before the connection's next statement (the database
works while the next rows are read). Every file is read in batches of two rows, so
that refusals come from a batch in the middle, one sent and not yet read. Whatever
fails, nothing is written and the refusal names its row. (SQLite writes each batch
at once: the same tests, the simple path.)

On PostgreSQL every test runs twice: as a login that may set
``session_replication_role`` (the suite's superuser: the rows written with the
foreign keys' triggers off, then checked by ``check_foreign_keys``) and as one that
may not (a role of no privilege but the tables': the triggers fire per batch)."""

import datetime
import os

import psycopg
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from clubs.models import Club, Player
from scoresheet.models import Hand, ScoreRow, SeasonTotal, Sheet, SheetFacts, SheetTotal
from scoresheet.totals import rebuild_season_totals
from tests.transfer.doctored import backed_up_then_cleared, copy, counts, rows
from tests.transfer.test_restore_fast import _text
from tests.transfer.test_restore_stream import LinesOnly
from transfer import backup as backups
from transfer.backup import hands as ledger_check
from transfer.backup import writer as backup_writer
from transfer.backup.rows import paths, rebuilt


@pytest.fixture(autouse=True)
def small_batches(monkeypatch):
    monkeypatch.setattr(backup_writer, "INSERT_BATCH", 2)
    # the hands' check: a sheet a batch, the next one's reads sent before it is scored
    monkeypatch.setattr(ledger_check, "CHECK_SHEETS", 1)


@pytest.fixture(
    autouse=True,
    params=["may_set_the_role", "may_not"],
)
def login(request):
    """``may_not``: the test's connection in a role that owns nothing and may not set
    ``session_replication_role`` (created and dropped with the test's transaction)."""
    if request.param == "may_not":
        if connection.vendor != "postgresql":
            pytest.skip("PostgreSQL's roles")
        if request.node.get_closest_marker("django_db").kwargs.get("transaction"):
            pytest.skip("a role made in the test's transaction")
        role = connection.ops.quote_name(f"tarot_restore_{os.getpid()}")
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE ROLE {role} NOLOGIN")
            cursor.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
            cursor.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
            cursor.execute(f"SET ROLE {role}")
    return request.param


@pytest.fixture
def cleared():
    return backed_up_then_cleared()


def _refused(data, *words, code="backup_invalid"):
    before = counts()
    for source in (copy(data), LinesOnly(_text(data).encode())):
        with pytest.raises(backups.BackupError) as caught:
            backups.restore(source)
        assert caught.value.code == code, caught.value.message
        for word in words:
            assert word in caught.value.message, caught.value.message
        assert counts() == before


@pytest.mark.django_db
def test_a_club_restores_in_batches_of_two(cleared):
    data, _ids = cleared
    club = backups.restore(LinesOnly(_text(data).encode()))
    assert club.slug == "rive"
    hands = rows(data, "scoresheet.hand")
    assert len(hands) > 2 * backup_writer.INSERT_BATCH
    assert Hand.objects.filter(sheet__club=club).count() == len(hands)


@pytest.mark.django_db
def test_a_key_naming_a_later_row_of_the_file_is_not_refused(cleared):
    """A player merged into a player that comes later in the file (another batch):
    its key names no row read yet, so that batch's foreign keys wait for the end
    (fired then, with the keys checked against the whole file), as before."""
    data, _ids = cleared
    players = rows(data, "clubs.player")
    assert len(players) > 3
    players[0]["fields"]["merged_into"] = players[-1]["pk"]
    club = backups.restore(copy(data))
    assert Player.objects.get(pk=players[0]["pk"]).merged_into_id == players[-1]["pk"]
    assert club.players.count() == len(players)


@pytest.mark.django_db
def test_a_key_naming_another_clubs_row_in_a_middle_batch_is_refused(cleared):
    """The row exists (the database's foreign key would take it): only the file's keys
    refuse it, found missing from a batch's keys, then named by ``check_links``."""
    data, ids = cleared
    hands = rows(data, "scoresheet.hand")
    hand = hands[len(hands) // 2]
    hand["fields"]["sheet"] = ids["sheet"]
    _refused(data, f"scoresheet.hand {hand['pk']}", "sheet", "not in the file")


@pytest.mark.django_db
def test_a_bad_row_read_while_batches_are_written_is_refused(cleared):
    data, _ids = cleared
    row = rows(data, "scoresheet.scorerow")[-1]
    row["fields"]["role"] = "emperor"
    _refused(data, f"scoresheet.scorerow {row['pk']}", "role")


@pytest.mark.django_db
def test_a_key_held_here_refuses_the_file_from_a_batch_sent_earlier(cleared):
    """The database refuses a batch (a score row's key held by the other club), read
    when the next batch is written: the refusal names the key."""
    data, _ids = cleared
    other = Club.objects.get(slug="other")
    held = ScoreRow.objects.filter(hand__sheet__club=other).values_list("pk", flat=True)[0]
    score_rows = rows(data, "scoresheet.scorerow")
    row = score_rows[len(score_rows) // 2]
    assert not any(r["pk"] == held for r in score_rows)
    row["pk"] = held
    _refused(data, f"{held}", code="not_empty")


@pytest.mark.django_db
def test_a_batch_refused_by_the_database_is_named_before_a_later_bad_row(cleared):
    """A batch the database refuses (a key held by the other club), its answer not read
    yet when a row of the next batch is refused in Python: the first bad row, the held
    key, is the one named (``Writer.stop`` returns the earlier batch's refusal)."""
    data, _ids = cleared
    other = Club.objects.get(slug="other")
    held = ScoreRow.objects.filter(hand__sheet__club=other).values_list("pk", flat=True)[0]
    score_rows = rows(data, "scoresheet.scorerow")
    index = (len(score_rows) // 2) & ~1  # the first row of a batch of two
    assert not any(r["pk"] == held for r in score_rows)
    score_rows[index]["pk"] = held
    # the keys after it still rise (a key below the last one read would look the
    # keys up, which reads the sent batch's answer first)
    for offset in (1, 2):
        score_rows[index + offset]["pk"] = held + 10_000 + offset
    score_rows[index + 2]["fields"]["role"] = "emperor"  # the next batch's first row
    _refused(data, f"{held}", code="not_empty")


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="only jsonb refuses a NUL")
def test_a_value_the_database_refuses_names_its_row(cleared):
    """A NUL in a hand's JSON column: PostgreSQL's COPY refuses it (a batch sent, its
    answer read later); the refusal names the hand, from the line COPY names."""
    data, _ids = cleared
    hands = rows(data, "scoresheet.hand")
    for hand in hands[len(hands) // 2 : len(hands) // 2 + 2]:  # each place in a batch of two
        name = next(k for k, v in hand["fields"].items() if isinstance(v, list))
        saved, hand["fields"][name] = hand["fields"][name], ["a\x00b"]
        _refused(data, f"scoresheet.hand {hand['pk']}:")
        hand["fields"][name] = saved


def _writers(monkeypatch) -> list:
    """The restore's writers, kept as they are made."""
    made = []
    init = backup_writer.Writer.__init__

    def keep(self, *args):
        init(self, *args)
        made.append(self)

    monkeypatch.setattr(backup_writer.Writer, "__init__", keep)
    return made


def _role() -> str | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('session_replication_role')")
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_the_triggers_are_off_only_where_the_login_may_and_only_for_the_rows(
    cleared, login, monkeypatch
):
    data, _ids = cleared
    writers = _writers(monkeypatch)
    roles = []  # the session's role once the rows are written
    triggers_on = backup_writer.Writer.triggers_on
    monkeypatch.setattr(
        backup_writer.Writer, "triggers_on", lambda self: (roles.append(_role()), triggers_on(self))
    )
    backups.restore(copy(data))
    may = connection.vendor == "postgresql" and login == "may_set_the_role"
    assert [w.unchecked for w in writers] == [may]
    assert [w.immediate for w in writers] == [connection.vendor == "postgresql" and not may]
    assert roles == (
        ["replica"] if may else ["origin"] if connection.vendor == "postgresql" else [None]
    )
    if connection.vendor == "postgresql":
        assert _role() == "origin"  # set back: the club's later writes fire their triggers


@pytest.mark.django_db
def test_a_key_naming_no_row_at_all_is_refused_whichever_check_sees_it(cleared, login, monkeypatch):
    """A hand's sheet naming no row anywhere, the file's own check (``check_links``)
    left out: the triggers refuse it, or with them off ``check_foreign_keys``, which
    names it; nothing written, the session's role set back."""
    data, _ids = cleared
    monkeypatch.setattr(backup_writer.Writer, "check_links", lambda self: None)
    hands = rows(data, "scoresheet.hand")
    hand = hands[len(hands) // 2]
    hand["fields"]["sheet"] = 987_654_321
    before = counts()
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(copy(data))
    assert caught.value.code == "backup_invalid"
    if connection.vendor == "postgresql":
        if login == "may_set_the_role":  # named by ``check_foreign_keys``
            assert f"scoresheet.hand {hand['pk']}, sheet:" in caught.value.message
        assert _role() == "origin"
    assert counts() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's row locks")
def test_a_login_the_rows_name_cannot_be_deleted_while_they_are_written(login, monkeypatch):
    """The triggers off, no trigger locks the rows the restore's keys name: the logins
    the file names are locked as a trigger would (``logins.hold``), so that another
    connection deleting one waits for the restore instead of orphaning its rows."""
    data, _ids = backed_up_then_cleared()
    boss = get_user_model().objects.get(username="boss")
    assert any(u["username"] == "boss" for u in data["users"])
    settings = connection.settings_dict
    waited = []

    def delete_boss(self):
        with psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"] or None,
            host=settings["HOST"] or None,
            port=settings["PORT"] or None,
            autocommit=True,
        ) as other:
            other.execute("SET lock_timeout = '300ms'")
            try:
                other.execute("DELETE FROM auth_user WHERE id = %s", [boss.pk])
            except psycopg.errors.LockNotAvailable:
                waited.append(True)
            except psycopg.errors.IntegrityError:
                waited.append(False)  # not locked: only another row naming it refused
            else:
                waited.append(False)
        return finish(self)

    finish = backup_writer.Writer.finish
    monkeypatch.setattr(backup_writer.Writer, "finish", delete_boss)
    backups.restore(copy(data))
    assert waited == [True]
    assert get_user_model().objects.filter(pk=boss.pk).exists()


@pytest.mark.django_db
def test_a_hand_refused_while_the_next_sheets_reads_are_sent_names_itself(cleared):
    """The hands' check reads a sheet at a time, the next sheet's queries sent before
    this one is scored (PostgreSQL's pipeline mode): a score row broken on a middle
    sheet refuses its hand by name, the queries in flight are ended with the
    refusal, and nothing is written."""
    data, _ids = cleared
    live = {h["pk"]: h for h in rows(data, "scoresheet.hand") if not h["fields"]["is_deleted"]}
    sheets = sorted({h["fields"]["sheet"] for h in live.values()})
    assert len(sheets) >= 3
    middle = sheets[len(sheets) // 2]
    row = next(
        r
        for r in rows(data, "scoresheet.scorerow")
        if live.get(r["fields"]["hand"], {}).get("fields", {}).get("sheet") == middle
    )
    row["fields"]["score"] = str(float(row["fields"]["score"]) + 1)
    _refused(data, f"scoresheet.hand {row['fields']['hand']}", "not what the engine gives")


@pytest.mark.django_db
def test_every_sheet_is_checked_when_read_a_sheet_at_a_time(cleared, monkeypatch):
    """Each batch scored once, in order, whichever way it is read."""
    data, _ids = cleared
    checked = []
    check = ledger_check._check_sheet_hands
    monkeypatch.setattr(
        ledger_check,
        "_check_sheet_hands",
        lambda *args: (checked.append(args[4]["sheet_id"]), check(*args))[1],
    )
    club = backups.restore(copy(data))
    assert checked == sorted(Sheet.objects.filter(club=club).values_list("pk", flat=True))


@pytest.mark.django_db
def test_the_totals_counted_a_sheet_at_a_time_are_the_seasons_recount(cleared):
    """The sheets' totals and facts are counted beside each batch's reads (the next
    batch's, sent before this one is scored): the same rows as the whole season's
    recount, and the sheets' stored counts too."""
    data, _ids = cleared
    club = backups.restore(copy(data))

    def kept():
        return {
            model.__name__: sorted(
                tuple(v for k, v in row.items() if k not in ("id", "revision"))
                for row in model.objects.filter(season__club=club).values()
            )
            for model in (SheetTotal, SheetFacts, SeasonTotal)
        } | {
            "sheets": sorted(
                club.sheets.values_list("pk", "seat_count", "hand_count", "last_number")
            )
        }

    counted = kept()
    assert counted["SheetTotal"] and counted["SheetFacts"] and counted["SeasonTotal"]
    for season in club.seasons.all():
        rebuild_season_totals(season)
    assert kept() == counted


@pytest.mark.django_db
@pytest.mark.parametrize("check_sheets", [1, 50])
def test_a_score_row_of_another_date_is_refused_by_the_check_naming_its_hand(
    cleared, monkeypatch, check_sheets
):
    """A batch's totals are counted only once the batch is checked: a score row the
    engine would not give (here its date a day later) is refused by the check, which
    names its hand, before the totals' constraints see it (found by review: counted
    with the batch's reads, a SheetTotal constraint refused it first, naming none)."""
    monkeypatch.setattr(ledger_check, "CHECK_SHEETS", check_sheets)
    data, _ids = cleared
    live = {h["pk"] for h in rows(data, "scoresheet.hand") if not h["fields"]["is_deleted"]}
    seen = {}
    for row in rows(data, "scoresheet.scorerow"):
        if row["fields"]["hand"] in live:
            seen.setdefault((row["fields"]["sheet"], row["fields"]["player"]), []).append(row)
    row = next(found for found in seen.values() if len(found) >= 2)[-1]
    day = datetime.date.fromisoformat(row["fields"]["date"]) + datetime.timedelta(days=1)
    row["fields"]["date"] = day.isoformat()
    _refused(data, f"scoresheet.hand {row['fields']['hand']}", "not what the engine gives")
    assert _role() in (None, "origin")


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's triggers")
def test_the_replica_role_turns_off_no_trigger_but_the_foreign_keys(login):
    """In the replica role every trigger is off, not only the foreign keys' (which
    ``check_foreign_keys`` stands in for): a table the restore writes with any other
    trigger (a deferrable unique constraint's recheck, a trigger of a migration's)
    would go unchecked. None has one; this fails the day one does."""
    tables = [apps.get_model(label)._meta.db_table for label in paths() if label not in rebuilt()]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, t.tgname, p.proname FROM pg_trigger t"
            " JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid"
            " WHERE c.relname = ANY(%s) AND p.proname NOT LIKE 'RI\\_FKey\\_%%'",
            [tables],
        )
        assert cursor.fetchall() == []
        cursor.execute(
            "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE c.relname = ANY(%s)",
            [tables],
        )
        assert cursor.fetchone()[0] > 0  # the query sees the foreign keys' triggers
