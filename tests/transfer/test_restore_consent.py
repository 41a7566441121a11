"""A doctored backup may not borrow this site's people: a person is reused only when
the licence and the name both match, and the logins the file names get a role in the
restored club (or their player) only when the site administrator confirms each one on
the preview, before which nothing is written."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club, Membership, Person, Player, Role
from tests.transfer.doctored import add, backed_up_then_cleared, clear, counts, rows
from transfer import backup as backups
from transfer.models import Job

pytestmark = pytest.mark.django_db


@pytest.fixture
def cleared():
    """The backup of ``rive`` (cleared) whose first player is the person ``Anna Roux``
    (licence 111), and ``Olga`` of the members-only club ``other``, licence 222."""
    data, ids = backed_up_then_cleared()
    olga = Player.objects.get(pk=ids["player"])
    olga.person = Person.objects.create(name="Olga Petrova", licence="222")
    olga.save()
    data["persons"] = [{"id": 90, "name": "Anna Roux", "licence": "111", "serie": ""}]
    rows(data, "clubs.player")[0]["fields"]["person"] = 90
    ids["olga_person"] = olga.person_id
    return data, ids


@pytest.fixture
def root(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")


def everything():
    found = counts()
    found["persons"] = sorted(Person.objects.values_list("pk", "name", "licence"))
    found["clubs"] = sorted(Club.objects.values_list("slug", flat=True))
    return found


def test_another_clubs_person_named_by_licence_alone_is_refused(cleared):
    data, ids = cleared
    data["persons"][0]["licence"] = "222"  # Olga's licence, under the file's name
    before = everything()
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(data)
    assert "person 90" in caught.value.message and "222" in caught.value.message
    assert "Olga" not in caught.value.message  # the other person is not named
    assert everything() == before
    assert Player.objects.get(pk=ids["player"]).person_id == ids["olga_person"]


def test_a_person_of_the_same_licence_and_name_is_reused(cleared):
    data, ids = cleared
    data["persons"][0].update(licence="222", name="olga  PETROVA")
    club = backups.restore(data)
    assert Person.objects.count() == 1
    assert club.players.get(pk=rows(data, "clubs.player")[0]["pk"]).person_id == ids["olga_person"]


def test_a_person_of_a_new_licence_is_created(cleared):
    data, _ids = cleared
    club = backups.restore(data)
    assert club.players.filter(person__licence="111", person__name="Anna Roux").exists()


def membership_for(data, user, role="manager"):
    data["users"].append({"id": user.pk + 5000, "username": user.username, "is_active": True})
    club = rows(data, "clubs.club")[0]["pk"]
    row = {"model": "clubs.membership", "pk": 9999}
    row["fields"] = {"club": club, "user": user.pk + 5000, "role": role}
    row["fields"]["created_at"] = "2026-01-01T00:00:00+00:00"
    add(data, row)


def test_the_superuser_is_made_manager_only_when_confirmed(cleared, root):
    data, _ids = cleared
    membership_for(data, root)
    club = backups.restore(json.loads(json.dumps(data)))
    assert not Membership.objects.filter(user=root).exists()
    # no login of the file has a role nor, existing before, its player
    assert not club.memberships.exists()
    assert not club.players.exclude(user=None).exists()
    entry = club.audit_entries.get(action="club_restored")
    assert entry.after["logins_left_out"] == ["boss", "member", "root", "scorer"]


def test_confirmed_logins_keep_their_roles_and_players(cleared, root):
    data, _ids = cleared
    membership_for(data, root)
    club = backups.restore(data, logins={"root", "member"})
    assert set(club.memberships.values_list("user__username", "role")) == {
        ("root", Role.MANAGER),
        ("member", Role.MEMBER),
    }
    assert club.players.exclude(user=None).get().user.username == "member"
    assert club.audit_entries.get(action="club_restored").after["logins_left_out"] == [
        "boss",
        "scorer",
    ]


def test_the_command_confirms_by_login(cleared, root, tmp_path):
    data, _ids = cleared
    membership_for(data, root)
    path = tmp_path / "rive.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("restore_club", str(path), "--login", "boss", stdout=out)
    club = Club.objects.get(slug="rive")
    assert list(club.memberships.values_list("user__username", flat=True)) == ["boss"]
    assert "left out (not confirmed with --login): member, root, scorer" in out.getvalue()


def upload(client, data):
    file = SimpleUploadedFile("backup.json", json.dumps(data).encode())
    return client.post(reverse("restore"), {"file": file})


def test_the_preview_lists_the_logins_and_writes_nothing_until_confirmed(client, cleared, root):
    data, _ids = cleared
    membership_for(data, root)
    client.force_login(root)
    before = everything()
    response = upload(client, data)
    assert response.status_code == 302
    assert everything() == before  # the file read, nothing of it written
    page = client.get(response["Location"]).content.decode()
    assert 'name="login" value="root"' in page and "the site's superuser" in page
    assert 'name="login" value="boss"' in page
    assert "checked" not in page.split('id="restore-logins"')[1].split("</fieldset>")[0]
    job = Job.objects.get(kind="restore")
    listed = {row["username"]: row for row in job.options["preview"]["logins"]}
    assert listed["root"]["superuser"] and listed["root"]["role"] == "manager"
    assert listed["member"]["player"] and listed["member"]["exists"]
    client.post(response["Location"], {"login": ["boss", "nobody"]})
    job.refresh_from_db()
    assert job.state == "done", job.error
    assert job.options["logins"] == ["boss"]  # only what the preview listed
    club = Club.objects.get(slug="rive")
    assert list(club.memberships.values_list("user__username", flat=True)) == ["boss"]
    assert not Membership.objects.filter(user=root).exists()


def test_the_preview_refuses_another_clubs_person(client, cleared, root):
    data, _ids = cleared
    data["persons"][0]["licence"] = "222"
    client.force_login(root)
    before = everything()
    response = upload(client, data)
    assert response.status_code == 400
    assert "person 90" in response.content.decode()
    assert everything() == before and not Job.objects.exists()


def test_a_stream_is_previewed_up_to_its_memberships(cleared, root):
    data, _ids = cleared
    membership_for(data, root)
    club = backups.restore(data, logins={"root"})
    text = backups.dumps(club)  # version 3: a row a line
    clear(club)
    found = backups.preview(io.BytesIO(text.encode()))
    assert [row["username"] for row in found["logins"]] == ["root"]
