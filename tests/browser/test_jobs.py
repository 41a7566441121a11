"""A manager follows a background job: the progress bar moves as the worker counts,
then the download link appears (static/js/jobs.js polling the job's status)."""

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Role
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
