"""Every kind of data a club holds backs up and restores equal, row by row."""

import pytest
from django.core.management import call_command

from clubs.models import Club
from scoresheet.models import Hand, HandRevision, Sheet
from tarot.rulesets import PRESETS
from tests.transfer.doctored import clear, counts, rows
from tests.transfer.full_club import build_full_club
from tests.transfer.test_backup import snapshot
from tournaments.models import RoundTable, TableResult, Team, Tournament
from transfer import backup as backups


@pytest.mark.django_db(transaction=True)
def test_every_kind_of_data_comes_back_equal_row_by_row(tmp_path):
    club = build_full_club()
    # the fixture holds what it promises
    assert set(club.seasons.values_list("rules__preset", flat=True)) >= set(PRESETS)
    hands = Hand.objects.filter(sheet__club=club)
    assert hands.filter(dealer=None).exists() and hands.exclude(dealer=None).exists()
    assert hands.filter(is_deleted=True).exists()
    assert hands.exclude(extra={}).exclude(extra=None).exists()  # Savoyard
    assert hands.exclude(pools=None).exists()  # mouches
    assert HandRevision.objects.filter(hand__sheet__club=club, caused_by__isnull=False).exists()
    assert Sheet.objects.filter(club=club, deleted_at__isnull=False).exists()
    assert club.players.exclude(merged_into=None).exists()
    assert set(Tournament.objects.filter(club=club).values_list("state", flat=True)) >= {
        "setup",
        "running",
        "closed",
    }
    tables = RoundTable.objects.filter(round__tournament__club=club)
    assert {"open", "confirmed", "disputed"} <= set(tables.values_list("state", flat=True))
    assert tables.filter(sheet=None).exists()
    assert TableResult.objects.filter(round_table__round__tournament__club=club).exists()
    assert Team.objects.filter(tournament__club=club).exists()
    assert club.invitations.exists() and club.audit_entries.exists()
    before = snapshot(club)
    assert all(before.values()), [label for label, rows in before.items() if not rows]

    path = tmp_path / "pleine.json"
    call_command("backup_club", club=club.slug, output=str(path))
    call_command("flush", interactive=False)
    call_command("restore_club", str(path), "--every-login")
    after = snapshot(Club.objects.get(slug="pleine"))
    for label in before:
        extra = [r for r in after[label] if r not in before[label]]
        gone = [r for r in before[label] if r not in after[label]]
        assert after[label] == before[label], f"{label}: {extra} {gone}"


@pytest.mark.django_db
def test_a_backup_whose_mouches_pools_were_changed_is_refused():
    """The pools a mouches hand carries are the engine's, scored again along its sheet:
    a file whose pools were changed on one live hand is refused, naming the hand, and
    nothing is written."""
    club = build_full_club()
    data = backups.backup(club)
    clear(club)
    live = {row["pk"] for row in rows(data, "scoresheet.sheet") if not row["fields"]["deleted_at"]}
    hand = next(
        row
        for row in rows(data, "scoresheet.hand")
        if row["fields"]["pools"]
        and not row["fields"]["is_deleted"]
        and row["fields"]["sheet"] in live
    )
    pools = hand["fields"]["pools"]
    hand["fields"]["pools"] = [pools[0] + 1, *pools[1:]]
    before = counts()
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(data)
    assert f"scoresheet.hand {hand['pk']}: its pools" in caught.value.message
    assert counts() == before
