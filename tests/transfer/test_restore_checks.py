"""A restore is a validated import: a doctored backup is refused whole, naming the
first bad row, and writes nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from clubs.models import Membership
from scoresheet.models import SeasonTotal
from tests.transfer.doctored import add, backed_up_then_cleared, copy, counts, rows
from transfer import backup as backups


@pytest.fixture
def cleared():
    return backed_up_then_cleared()


def refused(data, *words):
    before = counts()
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(data)
    assert caught.value.code == "backup_invalid", caught.value.message
    for word in words:
        assert word in caught.value.message
    assert counts() == before
    return caught.value.message


@pytest.mark.django_db
def test_the_untouched_backup_restores(cleared):
    data, _ids = cleared
    club = backups.restore(copy(data))
    assert club.slug == "rive" and club.sheets.count() == 3


@pytest.mark.django_db
def test_a_membership_in_another_club_is_refused(cleared):
    data, ids = cleared
    add(
        data,
        {
            "model": "clubs.membership",
            "pk": 9999,
            "fields": {"club": ids["club"], "user": ids["boss"], "role": "manager"},
        },
    )
    refused(data, "clubs.membership 9999", "club")
    assert not Membership.objects.filter(club_id=ids["club"], user_id=ids["boss"]).exists()


@pytest.mark.django_db
def test_a_row_moved_to_another_club_is_refused(cleared):
    data, ids = cleared
    membership = rows(data, "clubs.membership")[0]
    membership["fields"]["club"] = ids["club"]
    refused(data, f"clubs.membership {membership['pk']}")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("model", "field", "target"),
    [
        ("scoresheet.hand", "taker", "player"),
        ("scoresheet.seat", "player", "player"),
        ("scoresheet.sheet", "season", "season"),
        ("scoresheet.scorerow", "player", "player"),
        ("clubs.player", "club", "club"),
        ("clubs.auditentry", "club", "club"),
        ("tournaments.roundtable", "sheet", "sheet"),
    ],
)
def test_a_row_naming_another_clubs_rows_is_refused(cleared, model, field, target):
    data, ids = cleared
    row = rows(data, model)[-1]
    row["fields"][field] = ids[target]
    refused(data, f"{model} {row['pk']}", field)


@pytest.mark.django_db
def test_an_unknown_taker_is_refused(cleared):
    data, _ids = cleared
    hand = rows(data, "scoresheet.hand")[0]
    hand["fields"]["taker"] = 987654
    refused(data, f"scoresheet.hand {hand['pk']}", "taker")


@pytest.mark.django_db
def test_a_broken_zero_sum_is_refused(cleared):
    data, _ids = cleared
    row = rows(data, "scoresheet.scorerow")[0]
    row["fields"]["score"] = str(int(float(row["fields"]["score"])) + 10)
    refused(data, f"scoresheet.hand {row['fields']['hand']}", "score rows")


@pytest.mark.django_db
def test_a_score_row_for_a_deleted_hand_is_refused(cleared):
    data, _ids = cleared
    deleted = next(h for h in rows(data, "scoresheet.hand") if h["fields"]["is_deleted"])
    row = copy(rows(data, "scoresheet.scorerow")[0])
    row["pk"] = 99999
    row["fields"]["hand"] = deleted["pk"]
    add(data, row)
    refused(data, "scoresheet.scorerow 99999")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("model", "rules"),
    [("clubs.season", "poker"), ("scoresheet.sheet", {"preset": "nope"})],
)
def test_rules_the_engine_cannot_read_are_refused(cleared, model, rules):
    data, _ids = cleared
    row = rows(data, model)[0]
    row["fields"]["rules"] = rules
    refused(data, f"{model} {row['pk']}", "rules")


@pytest.mark.django_db
def test_a_role_that_is_not_one_is_refused(cleared):
    data, _ids = cleared
    row = rows(data, "clubs.membership")[0]
    row["fields"]["role"] = "owner"
    refused(data, f"clubs.membership {row['pk']}", "role")


@pytest.mark.django_db
def test_a_login_not_in_the_file_is_refused(cleared):
    data, ids = cleared
    data["users"] = [u for u in data["users"] if u["username"] != "scorer"]
    refused(data, "user")


@pytest.mark.django_db
def test_a_second_club_is_refused(cleared):
    data, _ids = cleared
    club = copy(rows(data, "clubs.club")[0])
    club["pk"] = 4242
    club["fields"]["slug"] = "another"
    add(data, club)
    refused(data, "one club")


@pytest.mark.django_db
def test_logins_come_without_privileges(cleared):
    data, _ids = cleared
    data["users"].append(
        {"id": 777, "username": "mallory", "email": "m@example.org", "is_active": True}
        | {"is_staff": True, "is_superuser": True}
    )
    row = rows(data, "clubs.membership")[0]
    row["fields"]["user"] = 777
    backups.restore(data)
    mallory = get_user_model().objects.get(username="mallory")
    assert not mallory.is_staff and not mallory.is_superuser
    assert not mallory.has_usable_password()


@pytest.mark.django_db
def test_the_totals_are_counted_from_the_ledger_not_read_from_the_file(cleared):
    data, _ids = cleared
    for row in rows(data, "scoresheet.seasontotal") + rows(data, "scoresheet.sheettotal"):
        row["fields"]["score"] = "1000.0"
    club = backups.restore(data)
    assert not SeasonTotal.objects.filter(season__club=club, score=1000).exists()


@pytest.mark.django_db
def test_a_deeply_nested_file_is_refused_cleanly(tmp_path):
    text = '{"format": "tarot-ledger-club-backup", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(text)
    assert caught.value.code == "backup_invalid"
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(CommandError, match="backup_invalid"):
        call_command("restore_club", str(path))


@pytest.mark.django_db
@pytest.mark.parametrize("seats", [[1, 2, 3, 999], "1,2,3,4", [1, 2, 3, "4"]])
def test_a_tables_seats_must_be_entries_of_its_tournament(cleared, seats):
    data, _ids = cleared
    table = rows(data, "tournaments.roundtable")[0]
    table["fields"]["seats"] = seats
    refused(data, f"tournaments.roundtable {table['pk']}", "seats")


@pytest.mark.django_db
def test_a_tournament_table_seating_an_entry_of_another_tournament_is_refused(cleared):
    """The check the tournaments app registers with its rows (``Registration.finish``):
    a table's seats are entry numbers of its own tournament."""
    data, _ids = cleared
    table = rows(data, "tournaments.roundtable")[0]
    numbers = {e["fields"]["number"] for e in rows(data, "tournaments.entry")}
    table["fields"]["seats"] = [*table["fields"]["seats"][:-1], max(numbers) + 1]
    refused(data, f"tournaments.roundtable {table['pk']}", "seats")
