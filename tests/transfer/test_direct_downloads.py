"""A direct download link gives its file whole, with its length, up to
``settings.DOWNLOAD_MAX_HANDS`` hands; above it, the background job of the same file
(one already waiting is reused) and its page, for every reader the link serves."""

import pytest
from django.urls import reverse

from scoresheet import services
from tests.data import SEED_HANDS
from transfer.models import Job

pytestmark = pytest.mark.django_db

LINKS = ("season_jsonl", "season_csv", "season_xlsx")


@pytest.fixture
def sheets(make_sheet, scorer):
    made = []
    for table in ("1", "2"):
        sheet = make_sheet(table=table)
        for data in SEED_HANDS:
            services.record_hand(sheet, data, actor=scorer)
        made.append(sheet)
    return made


def url(name, season):
    args = [season.club.slug] + ([season.pk] if name != "backup" else [])
    return reverse(f"transfer:{name}", args=args)


@pytest.mark.parametrize("name", LINKS + ("backup",))
def test_below_the_bound_the_file_comes_whole_with_its_length(
    client, manager, season, sheets, settings, name
):
    settings.DOWNLOAD_MAX_HANDS = 2 * len(SEED_HANDS)  # the club's hands: at the bound
    client.force_login(manager)
    response = client.get(url(name, season))
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert int(response["Content-Length"]) == len(body) > 0
    assert "attachment" in response["Content-Disposition"]
    assert not Job.objects.exists()


@pytest.mark.parametrize("name", LINKS + ("backup",))
def test_above_the_bound_the_link_starts_the_job_and_shows_its_page(
    client, manager, season, sheets, settings, name
):
    settings.DOWNLOAD_MAX_HANDS = 2 * len(SEED_HANDS) - 1
    client.force_login(manager)
    response = client.get(url(name, season))
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("transfer:job", args=[season.club.slug, job.pk])
    assert job.kind == ("backup" if name == "backup" else name) and job.state == "done"
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Download the file" in page.content.decode()


def test_a_job_already_waiting_for_the_same_file_is_reused(client, season, sheets, settings):
    """A public club's reader (anonymous here) clicking twice, or two readers: one job."""
    settings.DOWNLOAD_MAX_HANDS = 1
    waiting = Job.objects.create(
        kind="season_csv",
        club=season.club,
        season=season,
        state="queued",
        options={"language": "en"},
    )
    response = client.get(url("season_csv", season), HTTP_ACCEPT_LANGUAGE="en")
    assert response["Location"] == reverse("transfer:job", args=[season.club.slug, waiting.pk])
    assert Job.objects.count() == 1
    page = client.get(response["Location"])  # its page, to a reader who is no manager
    assert page.status_code == 200 and 'id="job"' in page.content.decode()
    assert "Back to the data page" not in page.content.decode()
    assert client.get(url("season_jsonl", season)).status_code == 302
    assert Job.objects.count() == 2  # another file: its own job


def test_a_reader_sees_no_backup_job(client, season, sheets, settings, manager):
    settings.DOWNLOAD_MAX_HANDS = 1
    client.force_login(manager)
    backup = Job.objects.get(pk=client.get(url("backup", season))["Location"].split("/")[-2])
    client.logout()
    page = reverse("transfer:job", args=[season.club.slug, backup.pk])
    response = client.get(page)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
