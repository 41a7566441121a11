"""A manager follows a background job: the progress bar moves as the worker counts,
then the download link appears (static/js/jobs.js polling the job's status)."""

import json

import pytest
from django.test import override_settings
from playwright.sync_api import expect

from clubs.models import Membership, Role
from scoresheet import services
from scoresheet.models import Sheet
from tests.data import SEED_HANDS
from transfer import jobs
from transfer.models import Job

pytestmark = pytest.mark.browser


@pytest.fixture
def boss(make_user, club):
    user = make_user("marie")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


def test_the_job_page_follows_the_progress_and_offers_the_file(
    page, live_server, log_in, boss, season
):
    job = Job.objects.create(
        kind=Job.Kind.SEASON_CSV,
        club=season.club,
        season=season,
        user=boss,
        state=Job.State.RUNNING,
        done=2,
        total=10,
    )
    log_in(page, boss)
    page.goto(f"{live_server.url}/clubs/{season.club.slug}/manage/data/jobs/{job.pk}/")
    expect(page.locator('[data-job-field="done"]')).to_have_text("2")
    expect(page.locator("[data-job-download]")).to_be_hidden()
    Job.objects.filter(pk=job.pk).update(done=6)  # the worker counts on
    expect(page.locator('[data-job-field="done"]')).to_have_text("6")
    expect(page.locator("progress")).to_have_attribute("value", "60")
    path = jobs.path_of(f"{job.pk.hex}.csv")
    path.write_text("Date,Table\n", encoding="utf-8")
    Job.objects.filter(pk=job.pk).update(
        done=10, state=Job.State.DONE, file=path.name, download_name="season.csv"
    )
    expect(page.locator("[data-job-download]")).to_be_visible()
    expect(page.locator("progress")).to_have_attribute("value", "100")
    with page.expect_download() as download:
        page.locator("[data-job-download]").click()
    assert download.value.suggested_filename == "season.csv"


def test_a_large_uploads_check_runs_in_the_background_then_shows_its_preview(
    page, live_server, log_in, boss, season, monkeypatch
):
    """More sheets than ``BACKGROUND_SHEETS``: the check is a job (its page, its progress),
    then its preview page; "Import" starts the import job, whose page lists the sheets."""
    monkeypatch.setattr(jobs, "BACKGROUND_SHEETS", 2)
    good = {"players": ["Anna", "Bert", "Carl", "Dora"], "date": "2026-03-14"}
    text = "".join(json.dumps(dict(good, table=str(t), hands=SEED_HANDS[:1])) + "\n" for t in "123")
    log_in(page, boss)
    waiting = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    with override_settings(TASKS=waiting):  # queued, run below as the worker would
        page.goto(f"{live_server.url}/clubs/{season.club.slug}/manage/data/")
        page.get_by_label("File").set_input_files(
            files=[{"name": "big.jsonl", "mimeType": "application/jsonl", "buffer": text.encode()}]
        )
        page.get_by_role("button", name="Check the file").click()
        expect(page.locator("#job progress")).to_be_visible()
        checked = Job.objects.get(kind="upload_preview")
        jobs.run_job.call(str(checked.pk))
        expect(page.locator("#upload-summary")).to_contain_text("3 sheets can be imported")
        assert Sheet.objects.count() == 0
        page.get_by_role("button", name="Import 3 sheets").click()
        expect(page.locator("#job progress")).to_be_visible()
        jobs.run_job.call(str(Job.objects.get(kind="upload").pk))
        expect(page.locator('#upload-lines tr[data-outcome="ok"]')).to_have_count(3)
    assert Sheet.objects.count() == 3


def test_a_manager_clicking_a_large_seasons_link_follows_its_job_then_starts_a_dead_one_again(
    page, live_server, log_in, boss, season, make_sheet, scorer, settings
):
    """Above ``DOWNLOAD_MAX_HANDS`` the data page's export link leads to the job's page
    (its progress, then its file); a job whose worker died says so and starts again."""
    sheet = make_sheet(table="1")
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    settings.DOWNLOAD_MAX_HANDS = 1
    log_in(page, boss)
    page.goto(f"{live_server.url}/clubs/{season.club.slug}/manage/data/")
    page.get_by_role("link", name="scores (CSV)").click()
    expect(page.locator("#job")).to_be_visible()
    job = Job.objects.get(kind="season_csv")
    assert page.url.endswith(f"/manage/data/jobs/{job.pk}/")
    expect(page.locator("[data-job-download]")).to_be_visible()  # the test runs it at once
    with page.expect_download() as download:
        page.locator("[data-job-download]").click()
    assert download.value.suggested_filename.endswith(".csv")

    dead = Job.objects.create(kind="season_csv", club=season.club, season=season, user=boss)
    Job.objects.filter(pk=dead.pk).update(
        state="failed", error=str(jobs.error_messages["worker_stopped"])
    )
    page.goto(f"{live_server.url}/clubs/{season.club.slug}/manage/data/jobs/{dead.pk}/")
    expect(page.locator('[data-job-field="error"]')).to_contain_text("stopped before the end")
    page.get_by_role("button", name="Start it again").click()
    again = Job.objects.exclude(pk__in=[job.pk, dead.pk]).get()
    expect(page).to_have_url(
        f"{live_server.url}/clubs/{season.club.slug}/manage/data/jobs/{again.pk}/"
    )
    expect(page.locator("[data-job-download]")).to_be_visible()
