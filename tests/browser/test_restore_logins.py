"""A site administrator restores a club's backup: the preview lists the logins the
file names, the superuser flagged; only the ticked ones get their role in the club."""

import json

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Club, Membership
from tests.transfer.doctored import backed_up_then_cleared

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_preview_lists_the_logins_and_keeps_only_those_ticked(
    page, live_server, log_in, tmp_path
):
    data, _ids = backed_up_then_cleared()
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    club = next(row for row in data["objects"] if row["model"] == "clubs.club")["pk"]
    data["users"].append({"id": 4242, "username": "root", "is_active": True})
    data["objects"].append(
        {
            "model": "clubs.membership",
            "pk": 4242,
            "fields": {
                "club": club,
                "user": 4242,
                "role": "manager",
                "created_at": "2026-01-01T00:00:00+00:00",
            },
        }
    )
    data["counts"]["clubs.membership"] += 1
    path = tmp_path / "rive.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    log_in(page, root)
    page.goto(live_server.url + "/site/restore/")
    page.locator('input[type="file"]').set_input_files(str(path))
    page.locator('input[type="file"]').evaluate("input => input.form.requestSubmit()")
    logins = page.locator("#restore-logins")
    expect(logins).to_contain_text("the site's superuser")
    expect(logins.get_by_role("checkbox")).to_have_count(4)
    assert not Club.objects.filter(slug="rive").exists()  # nothing written yet
    logins.get_by_label("boss").check()
    page.get_by_role("button", name="Restore this club").click()
    expect(page.locator("[data-job-club]")).to_be_visible()
    restored = Club.objects.get(slug="rive")
    assert list(restored.memberships.values_list("user__username", flat=True)) == ["boss"]
    assert not Membership.objects.filter(user=root).exists()
