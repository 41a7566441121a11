"""Browser tests: Debian's Chromium driven by Playwright's sync API against ``live_server``.

Fixtures:
    browser          session-wide Chromium (headless, no network side traffic)
    browser_locale   the page's locale, "en-GB"; override it with
                     ``@pytest.mark.parametrize("browser_locale", ["fr-FR"])``
    new_context      factory: ``new_context(locale="fr-FR")``, a fresh phone-sized context
    page             a page in a fresh phone-sized context (390×844, touch)
    log_in           ``log_in(page, user)``: a session cookie, no trip through the login form

Mark each module ``pytestmark = pytest.mark.browser``; ``-m "not browser"`` skips them.
Without /usr/bin/chromium the browser tests skip, except under CI (env CI set) where they fail.
"""

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
#: how long a page's action or a check waits: a passing test never waits it out, and a
#: loaded 2-core CI machine (two suites' workers, their browsers) once took 10 s for a
#: redirect and 5 s (``expect``'s default) for the API's documentation to render
TIMEOUT_MS = 20_000


def _expect_waits_as_long():
    try:
        from playwright.sync_api import expect
    except ImportError:  # the browser tests skip themselves (``_unavailable``)
        return
    expect.set_options(timeout=TIMEOUT_MS)


_expect_waits_as_long()


def _unavailable(reason):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so this fails instead of skipping)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def _playwright():
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing: install Debian's chromium to run browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing: pip install -e '.[dev]'")
    # Playwright's sync API keeps an asyncio loop in this thread, which makes Django
    # refuse ORM calls from the test body (creating users, pytest-django's flush).
    # Allow them for as long as Playwright runs, then put the environment back.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        yield playwright
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session")
def browser(_playwright):
    browser = _playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture
def browser_locale():
    return "en-GB"


#: the pages axe-core already audited this run: (locale, path with its numbers as "N")
AUDITED = set()


def _audit_key(url, locale):
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    return (locale, re.sub(r"[0-9]+", "N", parts.path))


def _audit_on_load(page, locale, found):
    """axe-core on every page a browser test opens, as it loads (once per page of the
    app and locale in a run): its serious or critical violations go to ``found``."""

    def on_load(_page):
        key = _audit_key(page.url, locale)
        if key is None or key in AUDITED:
            return
        try:
            if page.evaluate("() => document.contentType") != "text/html":
                return
            if not page.evaluate("() => typeof window.axe === 'object'"):
                page.evaluate(AXE.read_text(encoding="utf-8"))
            violations = page.evaluate(AXE_AUTO)
        except Exception:  # the page went on (navigated, closed) under the audit
            return
        AUDITED.add(key)
        for v in violations:
            if v["impact"] in AXE_BLOCKING:
                found.append(
                    f"{page.url} ({locale}): {v['impact']} {v['id']} ({v['help']}):\n    "
                    + "\n    ".join(v["nodes"])
                )

    page.on("load", on_load)


@pytest.fixture
def new_context(browser):
    """Browser contexts; any Content-Security-Policy violation on their pages fails the
    test, and so does any serious or critical axe-core violation of a page they load."""
    contexts = []
    violations = []
    inaccessible = []

    def watch(page, locale):
        def on_console(message):
            if message.type == "error" and "Content Security Policy" in message.text:
                violations.append(f"{page.url}: {message.text}")

        page.on("console", on_console)
        _audit_on_load(page, locale, inaccessible)

    def make(locale="en-GB", **options):
        context = browser.new_context(**{**PHONE, "locale": locale, **options})
        context.set_default_timeout(TIMEOUT_MS)
        context.on("page", lambda page: watch(page, locale))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not violations, "Content-Security-Policy violations:\n" + "\n".join(violations)
    assert not inaccessible, "axe-core on the pages loaded:\n" + "\n".join(inaccessible)


@pytest.fixture
def page(new_context, browser_locale):
    return new_context(locale=browser_locale).new_page()


@pytest.fixture
def log_in(live_server):
    """``log_in(page, user)`` gives the page's context a logged-in session cookie."""
    from django.conf import settings
    from django.test import Client

    def log_in(page, user):
        client = Client()
        client.force_login(user)
        name = settings.SESSION_COOKIE_NAME
        page.context.add_cookies(
            [{"name": name, "value": client.cookies[name].value, "url": live_server.url}]
        )

    return log_in


#: axe-core 4.14.1 (npm registry, MPL-2.0), kept for the tests only: never served
AXE = Path(__file__).with_name("vendor") / "axe.min.js"
#: the impacts a page may not have
AXE_BLOCKING = ("serious", "critical")
#: the audit as a page loads: once its live preview has come (faded while on its way)
AXE_AUTO = """() => (window.axeAudit = (async () => {
    for (let i = 0; i < 40 && document.querySelector("[aria-busy=true]"); i++) {
        await new Promise((done) => setTimeout(done, 50));
    }
    const result = await axe.run(document, {resultTypes: ["violations"]});
    return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " — " + n.failureSummary)}));
})())"""
AXE_RUN = """async () => {
    // after the audit the page's load started, if it is still running (one run at a time)
    await Promise.resolve(window.axeAudit).catch(() => null);
    const result = await axe.run(document, {resultTypes: ["violations"]});
    return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " — " + n.failureSummary)}));
}"""


@pytest.fixture
def axe_check():
    """``axe_check(page)``: axe-core's audit of the page as it shows now; fails on any
    serious or critical violation, naming the rule and the elements. Injected through
    the DevTools protocol (the pages' Content-Security-Policy allows no inline script)."""
    source = AXE.read_text(encoding="utf-8")

    def check(page, what=""):
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(source)
        violations = [v for v in page.evaluate(AXE_RUN) if v["impact"] in AXE_BLOCKING]
        lines = [
            f"{v['impact']} {v['id']} ({v['help']}):\n    " + "\n    ".join(v["nodes"])
            for v in violations
        ]
        assert not violations, f"axe-core on {what or page.url}:\n" + "\n".join(lines)

    return check
