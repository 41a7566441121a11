"""The table terminal as production serves it: gunicorn under ``config.settings.production``
(collected, hashed static files in the manifest storage, WhiteNoise, DEBUG off). The
service worker installs, keeps the sheet and the hand form, and the hands entered with
no network, through a reload, are stored once the network is back.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.production_site import ProductionSite
from tests.browser.test_terminal import (
    HANDS,
    enter,
    expected_halves,
    offline,
    patient_expect,  # noqa: F401 (an autouse fixture: the queue's steps on a loaded machine)
    queue_empty,
    works_offline,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path):
    site = ProductionSite(tmp_path)
    yield site
    site.stop()


def test_the_worker_installs_and_hands_go_offline_under_production_settings(site, new_context):
    facts = site.start(seats=4)
    context = new_context()
    context.add_cookies([{"name": facts["cookie"], "value": facts["session"], "url": site.url}])
    page = context.new_page()
    sheet_url, form_url = site.url + facts["sheet"], site.url + facts["form"]

    worker = page.request.get(site.url + "/sw.js")
    assert worker.status == 200, worker.status
    page.goto(sheet_url)
    # the app shell's hashed names: the manifest storage is the one serving
    assert page.locator('script[src*="/static/js/offline."]').count() == 1
    works_offline(page, sheet_url, form_url)

    offline(page.context)
    for number, (taps, _data) in enumerate(HANDS[:3], start=1):
        page.goto(sheet_url)  # from the service worker
        page.get_by_role("link", name="Enter a hand").tap()
        page.wait_for_url(form_url)
        enter(page, taps)
        expect(page.locator("#hand-preview [data-offline-preview]")).to_have_attribute(
            "data-offline-preview", "scored"
        )
        page.get_by_role("button", name="Save", exact=True).tap()
        expect(page.locator("[data-offline]")).to_be_visible()
        expect(page.locator("[data-queue-count]")).to_have_text(f"Waiting to be sent: {number}")
    page.goto(sheet_url)
    page.reload()  # still offline: the worker answers
    expect(page.locator("[data-queue-sheet] [data-queue-state='waiting']")).to_have_count(3)
    assert site.child("hands")["hands"] == []

    offline(page.context, False)
    queue_empty(page)
    stored = site.child("hands")["hands"]
    assert [hand["number"] for hand in stored] == [1, 2, 3]
    assert [hand["halves"] for hand in stored] == [expected_halves(d) for _, d in HANDS[:3]]
    assert [hand["dealer"] for hand in stored] == ["Anna", "Bert", "Carl"]
