"""The direct download links as a client sees them from gunicorn with a short
``--timeout``: above ``DJANGO_DOWNLOAD_MAX_HANDS`` (lowered for the test) each link
answers with its job's page, never a file; at or below it each file comes whole, with
its length, the same as the job's file of the same data."""

import datetime
import io
import json
import urllib.request

import openpyxl
import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from tests.data import SEED_HANDS
from tests.transfer import processes
from transfer import jobs
from transfer.models import Job

pytestmark = pytest.mark.django_db(transaction=True)  # gunicorn reads what the test wrote

QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
BOUND = 2  # hands: a season or club of two hands is at the bound, of more above it


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def small_club(scorer):
    club = Club.objects.create(name="Petit", slug="petit")
    Membership.objects.create(club=club, user=scorer, role=Role.MANAGER)
    season = Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=club, name=n) for n in ("Anna", "Bert", "Carl", "Dora")]
    sheet = services.create_sheet(
        season=season, players=players, date=datetime.date(2026, 3, 14), table="1", actor=scorer
    )
    for data in SEED_HANDS[:BOUND]:
        services.record_hand(sheet, data, actor=scorer)
    return club, season


def job_file(kind, club, season=None) -> bytes:
    """The file the background job writes of the same data (in the server's language)."""
    with override_settings(TASKS=QUEUE), translation.override("en"):
        job = jobs.start(kind, club=club, season=season, actor=None)
        call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    job.refresh_from_db()
    assert job.state == "done", job.error
    return jobs.path_of(job.file).read_bytes()


def cells(book: bytes):
    return list(openpyxl.load_workbook(io.BytesIO(book)).active.values)


def test_under_gunicorn_a_link_gives_a_whole_file_or_its_job(
    client, season, make_sheet, scorer, manager
):
    big = make_sheet(table="1")  # the season "2026" of "rive": above the bound
    for data in SEED_HANDS:
        services.record_hand(big, data, actor=scorer)
    small, small_season = small_club(scorer)
    Membership.objects.create(club=small, user=manager, role=Role.MANAGER)
    client.force_login(manager)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    expected = {
        "export.jsonl": job_file(Job.Kind.SEASON_JSONL, small, small_season),
        "export.csv": job_file(Job.Kind.SEASON_CSV, small, small_season),
        "export.xlsx": job_file(Job.Kind.SEASON_XLSX, small, small_season),
        "backup.json": job_file(Job.Kind.BACKUP, small),
    }
    before = set(Job.objects.values_list("pk", flat=True))
    port = processes.free_port()
    server = processes.start_gunicorn(port, timeout=5, DJANGO_DOWNLOAD_MAX_HANDS=BOUND)
    opener = urllib.request.build_opener(NoRedirect)

    def get(path):
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
        request.add_header("Cookie", cookie)
        request.add_header("Accept-Language", "en")
        try:
            with opener.open(request, timeout=30) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:  # a redirect not followed
            return error.code, error.headers, b""

    def link(club, name, season=None):
        if name == "backup.json":
            return f"/clubs/{club.slug}/manage/data/backup.json"
        return f"/clubs/{club.slug}/seasons/{season.pk}/{name}"

    try:
        for name in expected:
            status, headers, body = get(link(season.club, name, season))
            assert status == 302, (name, status)  # above the bound: never a file
            assert "/manage/data/jobs/" in headers["Location"] and not body
            status, headers, body = get(link(small, name, small_season))
            assert status == 200, (name, status)
            assert int(headers["Content-Length"]) == len(body)
            assert headers.get("Transfer-Encoding") is None  # a known length, not chunks
            if name.endswith(".xlsx"):  # its zip's dates differ: the same cells
                assert cells(body) == cells(expected[name])
            else:
                assert body == expected[name], name
    finally:
        processes.stop(server)
    started = Job.objects.exclude(pk__in=before)
    assert sorted(started.values_list("kind", flat=True)) == sorted(
        ["season_jsonl", "season_csv", "season_xlsx", "backup"]
    )
    assert set(started.values_list("club__slug", flat=True)) == {"rive"}
    json.loads(expected["backup.json"])  # the job's backup is whole JSON
