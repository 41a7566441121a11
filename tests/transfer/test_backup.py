"""A whole club's backup restores into a fresh database equal, table by table."""

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from clubs import services as club_services
from clubs.models import AuditEntry, Club, Invitation, Membership, Player, Role, Season
from scoresheet import facts, services
from scoresheet.models import SheetFacts, SheetTotal
from tests.data import NAMES, SEED_HANDS
from tournaments import services as tournament_services
from transfer import backup as backups
from transfer.backup import BackupError, club_paths, club_rows, dump
from transfer.backup.rows import rebuilt as rebuilt_labels

HAND = {"dealer": "Anna", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def build_club():
    """A club with everything: members and roles, two seasons (one ranked), players, sheets
    with hands corrected, deleted and restored, a mouches sheet, the audit trail, an
    invitation, and a tournament with a round played and closed."""
    User = get_user_model()
    boss = User.objects.create_user("boss", "boss@example.org", "pw-backup-1", first_name="Bo")
    scorer = User.objects.create_user("scorer", "scorer@example.org", "pw-backup-2")
    member = User.objects.create_user("member", "", "pw-backup-3")
    club = Club.objects.create(name="Club de la Rive", slug="rive", is_public=False)
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    season = club_services.create_season(
        club,
        "2026",
        datetime.date(2026, 1, 1),
        None,
        "fft",
        actor=boss,
        ranking={"by": "points", "points": [5, 3, 1], "best": 10},
    )
    club_services.create_season(
        club, "2025", datetime.date(2025, 1, 1), None, "mouches", actor=boss
    )
    players = [club_services.create_player(club, name, actor=boss) for name in NAMES]
    club_services.link_player(Membership.objects.get(user=member), players[1], actor=boss)
    sheet = services.create_sheet(
        season=season, players=players[:4], date=datetime.date(2026, 3, 14), table="1", actor=scorer
    )
    hands = [services.record_hand(sheet, data, actor=scorer) for data in SEED_HANDS]
    services.correct_hand(hands[0], dict(SEED_HANDS[0], points=60), actor=scorer)
    services.restore_hand(services.delete_hand(hands[1], actor=scorer), actor=boss)
    services.delete_hand(hands[2], actor=scorer)
    mouches = Season.objects.get(name="2025")
    other = services.create_sheet(
        season=mouches, players=players[2:6], date=datetime.date(2025, 6, 1), actor=scorer
    )
    services.record_hand(other, dict(HAND, dealer="Carl", taker="Carl"), actor=scorer)
    Invitation.objects.create(club=club, email="guest@example.org", token_hash="h" * 64)
    tournament = tournament_services.create_tournament(
        club, name="Open", date=datetime.date(2026, 5, 1), rules="fft", rounds=1, deals_per_round=1
    )
    tournament_services.register(tournament, [("member", p) for p in players[:4]])
    first = tournament.round_set.get()
    tournament_services.draw_round(first)
    tournament_services.start_round(first)
    services.record_hand(first.tables.get().sheet, HAND)
    tournament_services.close_round(first)
    # another club, which the backup leaves out
    stranger = Club.objects.create(name="Other", slug="other")
    Player.objects.create(club=stranger, name="Zoé")
    return club


#: The columns of the totals that a restore counts again rather than copies.
UNKEPT = ("id", "revision")  # a cache key of when they were counted


def snapshot(club):
    """Every table of the club, row by row (all columns), and the logins its rows name."""
    tables = {}
    for model, rows in club_rows(club).items():
        if model is AuditEntry:  # the restore adds its own entry, saying so
            rows = rows.exclude(action=AuditEntry.Action.CLUB_RESTORED)
        rebuilt = model._meta.label in rebuilt_labels()  # counted again: new ids, same rows
        tables[model._meta.label] = sorted(
            (
                tuple(sorted((k, v) for k, v in row.items() if not (rebuilt and k in UNKEPT)))
                for row in rows.values()
            ),
            key=repr,
        )
    users = get_user_model().objects.order_by("username")
    tables["users"] = list(users.values_list("username", "email", "first_name", "is_active"))
    return tables


@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_a_fresh_database_equal_table_by_table(tmp_path):
    club = build_club()
    before = snapshot(club)
    assert {label for label, rows in before.items() if rows} >= {
        "clubs.Club",
        "clubs.Season",
        "clubs.Player",
        "clubs.Membership",
        "clubs.AuditEntry",
        "clubs.Invitation",
        "scoresheet.Sheet",
        "scoresheet.Seat",
        "scoresheet.Hand",
        "scoresheet.ScoreRow",
        "scoresheet.HandRevision",
        "scoresheet.SheetTotal",
        "scoresheet.SeasonTotal",
        "tournaments.Tournament",
        "tournaments.Entry",
        "tournaments.Round",
        "tournaments.RoundTable",
    }
    path = tmp_path / "rive.json"
    call_command("backup_club", club="rive", output=str(path))

    call_command("flush", interactive=False)  # a fresh, empty database
    assert not Club.objects.exists() and not get_user_model().objects.exists()

    call_command("restore_club", str(path), "--every-login")
    restored = Club.objects.get(slug="rive")
    after = snapshot(restored)
    for label in before:
        assert after[label] == before[label], label
    assert not Club.objects.filter(slug="other").exists()
    # logins come back without their password: they reset it
    assert not get_user_model().objects.get(username="boss").has_usable_password()
    # and the ids go on after the restored rows (PostgreSQL sequences)
    assert Player.objects.create(club=restored, name="New").pk > max(
        pk for pk in Player.objects.exclude(name="New").values_list("pk", flat=True)
    )


@pytest.mark.django_db
def test_restore_refuses_a_club_already_here_and_writes_nothing():
    club = build_club()
    text = backups.dumps(club)
    counts = {m._meta.label: m._default_manager.count() for m in club_paths()}
    with pytest.raises(BackupError) as caught:
        backups.restore(text)
    assert caught.value.code == "club_exists"
    club.slug = "elsewhere"
    club.save()
    with pytest.raises(BackupError) as caught:
        backups.restore(text)
    assert caught.value.code == "not_empty"
    assert {m._meta.label: m._default_manager.count() for m in club_paths()} == counts


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    ["", "[]", "{}", '{"format": "x"}', json.dumps({"format": backups.FORMAT, "version": 9})],
)
def test_restore_refuses_what_is_not_a_backup(text):
    with pytest.raises(BackupError) as caught:
        backups.restore(text)
    assert caught.value.code == "backup_invalid"


@pytest.mark.django_db
def test_restore_refuses_rows_of_another_kind():
    data = {
        "format": backups.FORMAT,
        "version": 1,
        "club": "x",
        "users": [],
        "objects": [
            {"model": "auth.user", "pk": 5, "fields": {"username": "root", "password": "x"}}
        ],
    }
    with pytest.raises(BackupError) as caught:
        backups.restore(json.dumps(data))
    assert caught.value.code == "backup_invalid"
    assert not get_user_model().objects.filter(username="root").exists()


@pytest.mark.django_db
def test_the_managers_download_it_from_the_data_page(client):
    club = build_club()
    boss = get_user_model().objects.get(username="boss")
    client.force_login(boss)
    response = client.get(reverse("transfer:backup", args=[club.slug]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    body = response.getvalue()  # streamed: read once
    data = json.loads(body)
    assert data["club"] == "rive"
    assert "password" not in body.decode()
    assert {u["username"] for u in data["users"]} == {"boss", "scorer", "member"}


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_before_the_stored_last_number_numbers_the_next_hand_after_it():
    """Backups written before ``Sheet.last_number`` existed lack it: the restore reads
    it from the hands (deleted ones too), so the next hand does not reuse a number."""
    club = build_club()
    sheet = club.sheets.get(table="1")
    for hand in sheet.hands.filter(is_deleted=False):
        services.delete_hand(hand, actor=None)
    assert sheet.hands.count() == 5 and not sheet.hands.filter(is_deleted=False).exists()
    data = backups.backup(club)
    for row in data["objects"]:
        if row["model"] == "scoresheet.sheet":
            row["fields"].pop("last_number")  # as written before the field existed
    call_command("flush", interactive=False)
    restored = backups.restore(json.dumps(data))
    sheet = restored.sheets.get(table="1")
    assert sheet.last_number == 5
    hand = services.record_hand(sheet, dict(HAND, dealer="Anna", taker="Anna"))
    assert hand.number == 6


@pytest.mark.django_db
def test_restore_looks_for_rows_already_here_per_model_not_per_row(
    django_assert_max_num_queries,
):
    club = build_club()
    data = backups.backup(club)
    data["club"] = "elsewhere"
    # every row but one player under a key this site does not hold: only it is here (a
    # restore reads the rows as a stream, writing them in batches: the database finds
    # the key held, then one lookup among the batch's keys names it)
    held = next(row for row in data["objects"] if row["model"] == "clubs.player")
    for number, row in enumerate(data["objects"], start=10**6):
        if row is not held:
            row["pk"] = number
        if row["model"] == "clubs.club":
            row["fields"]["slug"] = "elsewhere"
    models = len({row["model"] for row in data["objects"]})
    assert len(data["objects"]) > 2 * models  # a query per row would be far above the bound
    # the club check, a lookup per user (all found), a savepoint, its rollback and
    # release, the temporary tables of the file's keys (dropped, made), two statements
    # per model (its rows, their keys: COPY or executemany), the refusal's lookup
    bound = 1 + len(data["users"]) + 3 + 4 + 2 * models + 1
    with django_assert_max_num_queries(bound), pytest.raises(BackupError) as caught:
        backups.restore(data)
    assert caught.value.code == "not_empty", caught.value.message
    assert f"clubs.Player {held['pk']}:" in caught.value.message


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_before_the_facts_counts_them_again_from_the_ledger():
    """Backups written before the sheets' totals kept the statistics' facts have
    SheetTotals of five counters and no SheetFacts: the restore counts the facts
    from the restored ledger, so the statistics read what the hands say."""
    club = build_club()
    kept = {
        "totals": sorted(
            SheetTotal.objects.filter(season__club=club).values_list(
                "sheet_id", "player_id", *facts.NAMES
            )
        ),
        "sheets": sorted(
            SheetFacts.objects.filter(season__club=club).values_list("sheet_id", *facts.SHEET_NAMES)
        ),
    }
    assert kept["totals"] and kept["sheets"]
    data = backups.backup(club)
    old = [row for row in data["objects"] if row["model"] != "scoresheet.sheetfacts"]
    for row in old:
        if row["model"] == "scoresheet.sheettotal":  # as written before the facts
            row["fields"] = {k: v for k, v in row["fields"].items() if k not in facts.NAMES[5:]}
    data["objects"] = old
    data["version"] = 1  # written before the counts, too
    del data["counts"]
    call_command("flush", interactive=False)
    restored = backups.restore(json.dumps(data))
    assert (
        sorted(
            SheetTotal.objects.filter(season__club=restored).values_list(
                "sheet_id", "player_id", *facts.NAMES
            )
        )
        == kept["totals"]
    )
    assert (
        sorted(
            SheetFacts.objects.filter(season__club=restored).values_list(
                "sheet_id", *facts.SHEET_NAMES
            )
        )
        == kept["sheets"]
    )


@pytest.mark.django_db
def test_the_backup_makes_instances_and_text_a_batch_of_rows_at_a_time(monkeypatch):
    """Its memory is a batch's (``BATCH`` rows turned into instances, dicts and text),
    whatever the club's size and the cursor's chunk (``CHUNK``): never a chunk's."""
    club = build_club()
    monkeypatch.setattr(dump, "BATCH", 3)
    sizes = []
    real = dump.serializers.serialize

    def serialize(fmt, rows, **kwargs):
        sizes.append(len(rows))
        return real(fmt, rows, **kwargs)

    monkeypatch.setattr(dump.serializers, "serialize", serialize)
    data = json.loads(backups.dumps(club))
    assert max(sizes) == 3 and sum(sizes) == len(data["objects"]) == sum(data["counts"].values())
