"""Pages offered to the apps below (core.pages): every name asked for is offered by the
app that owns the page, and a name nobody offers gives no link."""

import re
from pathlib import Path

from django.urls import resolve

from core import pages

ROOT = Path(__file__).resolve().parents[2]
ASKED = re.compile(r"""(?:pages\.url\(|page_url\s+)["']([\w]+)["']""")


def asked_names():
    names = set()
    for path in [*ROOT.glob("*/**/*.py"), *ROOT.glob("templates/**/*.html")]:
        if ".venv" in path.parts or "tests" in path.parts or path.name == "pages.py":
            continue  # the mechanism's own docstrings name example pages
        names |= set(ASKED.findall(path.read_text(encoding="utf-8")))
    return names


def test_every_page_asked_for_is_offered_by_the_app_that_owns_it():
    offered = pages.offered()
    asked = asked_names()
    assert asked, "no page is asked for: the scan reads nothing"
    assert asked <= set(offered), asked - set(offered)


def test_a_page_offered_resolves_to_its_view():
    url = pages.url("player_statistics", "rive", 3)
    assert resolve(url).view_name == "stats:player"


def test_a_name_nobody_offers_gives_no_link():
    assert pages.url("no_such_page", "rive") is None
