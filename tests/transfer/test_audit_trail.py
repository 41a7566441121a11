"""The club's data moving in and out leaves audit entries: uploads, backups, restores."""

import hashlib
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs.models import AuditEntry, Membership, Role
from tests.transfer.doctored import backed_up_then_cleared
from tests.transfer.test_upload import BAD, GOOD, jsonl, post_file
from transfer import backup as backups
from transfer.named import EVERY_LOGIN

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(make_user, club):
    user = make_user("boss")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


def test_an_upload_says_who_uploaded_which_file_and_how_many_sheets(client, manager, season):
    client.force_login(manager)
    text = jsonl(GOOD, BAD, GOOD | {"table": "3"})
    preview = post_file(client, season.club, text, name="soirée.jsonl")
    assert not AuditEntry.objects.filter(action="sheets_uploaded").exists()  # not the preview
    client.post(
        reverse("transfer:import", args=[season.club.slug]),
        {"step": "import", "digest": preview.context["digest"]},
    )
    entry = AuditEntry.objects.get(action="sheets_uploaded")
    assert entry.club == season.club and entry.actor == manager
    assert entry.object_label == "soirée.jsonl"
    assert entry.after == {
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "sheets": 2,
        "hands": 4,
        "refused": 1,
    }


def test_a_backup_download_says_who_took_the_club_and_which_file(client, manager, season):
    client.force_login(manager)
    response = client.get(reverse("transfer:backup", args=[season.club.slug]))
    body = response.getvalue()  # streamed: read once
    entry = AuditEntry.objects.get(action="backup_downloaded")
    assert entry.actor == manager and entry.club == season.club
    assert entry.after["sha256"] == hashlib.sha256(body).hexdigest()
    assert entry.after["counts"] == json.loads(body)["counts"]
    assert entry.object_label in response["Content-Disposition"]


def test_a_restore_is_in_the_restored_clubs_trail():
    data, _ids = backed_up_then_cleared()
    text = json.dumps(data)
    club = backups.restore(text, logins=EVERY_LOGIN)
    entry = AuditEntry.objects.get(club=club, action="club_restored")
    assert entry.actor is None  # the command's: an operator
    assert entry.after["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert entry.after["rows"] == len(data["objects"])


def test_the_backup_command_says_what_it_wrote_and_leaves_an_audit_entry(tmp_path, season):
    path = tmp_path / "club.json"
    out = io.StringIO()
    call_command("backup_club", club=season.club.slug, output=str(path), stdout=out)
    body = path.read_bytes()
    entry = AuditEntry.objects.get(action="backup_downloaded")
    assert entry.actor is None and entry.club == season.club  # the command's: an operator
    assert entry.after["sha256"] == hashlib.sha256(body).hexdigest()
    assert entry.after["counts"] == json.loads(body)["counts"]
    assert entry.object_label == str(path)
    said = out.getvalue()
    assert str(path) in said and "1 club" in said and entry.after["sha256"][:16] in said


def test_the_backup_command_to_standard_output_reports_on_standard_error(season):
    out, err = io.StringIO(), io.StringIO()
    call_command("backup_club", club=season.club.slug, stdout=out, stderr=err)
    data = json.loads(out.getvalue())
    entry = AuditEntry.objects.get(action="backup_downloaded")
    assert entry.after["counts"] == data["counts"] and entry.after["to"] == "standard output"
    assert "standard output" in err.getvalue()
