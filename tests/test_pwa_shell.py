"""The app shell the service worker keeps (config.pwa.SHELL) holds every style and script
the pages used with no network ask for: the sheet, both hand forms, a table's link and
their layouts. A file left out loads online and fails offline (the Savoyard form's script
did: its Save then posted the plain form and the hand was lost to the network)."""

import re
from pathlib import Path

from config.pwa import SHELL

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
STATIC = re.compile(r"""{%\s*static\s+['"]([^'"]+)['"]\s*%}""")
INCLUDE = re.compile(r"""{%\s*(?:extends|include)\s+['"]([^'"]+)['"]""")

#: The pages a scorer opens with no network (the worker keeps them once opened).
OFFLINE_PAGES = (
    "scoresheet/sheet_detail.html",
    "scoresheet/hand_form.html",
    "scoresheet/savoyard_hand_form.html",
    "tournaments/table_sheet.html",
    "tournaments/table_hand_form.html",
)


def static_files(name, seen=None):
    """The static files a template and the ones it extends or includes ask for."""
    seen = set() if seen is None else seen
    if name in seen or not (TEMPLATES / name).exists():
        return set()
    seen.add(name)
    text = (TEMPLATES / name).read_text()
    found = set(STATIC.findall(text))
    for other in INCLUDE.findall(text):
        found |= static_files(other, seen)
    return found


def test_every_file_an_offline_page_asks_for_is_in_the_shell():
    wanted = set().union(*(static_files(page) for page in OFFLINE_PAGES))
    assert {"js/offline.js", "js/savoyard_form.js", "js/tarot_engine.js"} <= wanted
    assert wanted <= set(SHELL), sorted(wanted - set(SHELL))
