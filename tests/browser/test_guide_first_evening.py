"""The guide's "Your first evening" page, followed step by step on a fresh site: the
hands and the scores are read from the page itself, so the guide cannot drift from the
app. The help link of a page opens its section of the guide, in the page's language."""

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scoresheet.models import ScoreRow, Sheet
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"
#: ``GUIDE_SCREENSHOTS=1 make test PYTEST_ARGS=tests/browser/test_guide_first_evening.py``
#: writes the guide's pictures from this walk, so that they follow the pages
PICTURES = GUIDE / "img"


def picture(page, tmp_path, name):
    """A screenshot of the page as the guide shows it (into the guide when asked)."""
    folder = PICTURES if os.environ.get("GUIDE_SCREENSHOTS") else tmp_path
    path = folder / f"{name}.png"
    page.screenshot(path=path)
    assert path.stat().st_size > 0


def numbers(cell):
    return int(cell.replace("−", "-").replace("+", ""))


def guide_table(name, first_header):
    """The rows of the markdown table of ``name`` whose first header is ``first_header``."""
    lines = (GUIDE / name).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, (c.strip() for c in line.strip("|").split("|")))))
    return rows


def tap_choice(page, field, text):
    exact = re.compile(rf"^\s*{re.escape(text)}\s*$")
    page.locator(f"#id_{field} label").filter(has_text=exact).tap()


def enter(page, row):
    if row["dealer"]:
        page.locator("[data-seating] > summary").tap()
        tap_choice(page, "dealer", row["dealer"])
    tap_choice(page, "taker", row["taker"])
    tap_choice(page, "contract", row["contract"])
    tap_choice(page, "bouts", row["bouts"])
    page.locator("#id_points").fill(row["points"])
    more = row["more"]
    if more.startswith("petit au bout: "):
        tap_choice(page, "petit_au_bout", more.split(": ")[1].capitalize())
    elif more.startswith("poignée: "):
        player, size = more.split(": ")[1].split(", ")
        page.locator("[data-extras] > summary").tap()
        page.get_by_role("group", name="Poignées").get_by_label(player, exact=True).select_option(
            size
        )


def test_the_first_evening_of_the_guide_gives_the_scores_it_shows(page, live_server, tmp_path):
    hands = guide_table("first-evening.md", "hand")
    [totals] = guide_table("first-evening.md", "Anna")
    # the French page shows the same numbers
    assert [r["Anna"] for r in guide_table("first-evening.fr.md", "donne")] == [
        r["Anna"] for r in hands
    ]
    assert guide_table("first-evening.fr.md", "Anna") == [totals]

    # 1. the first login: an administrator made by createsuperuser
    get_user_model().objects.create_superuser("admin", "admin@example.org", PASSWORD)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Log in").first.tap()
    page.get_by_label("Username").fill("admin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").tap()
    expect(page.get_by_role("link", name="My account")).to_be_visible()
    # 2. create the club
    page.goto(live_server.url + "/new-club/")
    page.get_by_label("Name of the club").fill("Les Excuses")
    page.get_by_role("button", name="Create the club").tap()
    # 3. open the first season
    expect(page.get_by_role("heading", name="Getting started")).to_be_visible()
    picture(page, tmp_path, "first-evening-season")
    page.get_by_label("Name", exact=True).fill("Printemps")
    page.get_by_role("button", name="Open the season").tap()
    # 4. open a sheet
    page.get_by_role("link", name="Open a sheet").tap()
    page.get_by_label("Table (optional)").fill("1")
    page.get_by_label("New players").fill("Anna, Bert, Carl, Dora")
    page.get_by_role("button", name="Open the sheet").tap()
    # 5. enter the five hands, each previewed as the guide shows before it is saved
    for row in hands:
        page.get_by_role("link", name="Enter a hand").tap()
        expect(page.locator("h1")).to_have_text(f"Hand {row['hand']}")
        enter(page, row)
        for player in ("Anna", "Bert", "Carl", "Dora"):
            shown = page.locator(f'#hand-preview [data-player="{player}"]')
            expect(shown).to_have_text(row[player])
        if row["hand"] == "5":
            picture(page, tmp_path, "first-evening-hand")
        page.get_by_role("button", name="Save", exact=True).tap()
        expect(page.locator(f"#hand-{row['hand']}")).to_be_visible()
    # 6. read the sheet
    picture(page, tmp_path, "first-evening-sheet")
    for player, total in totals.items():
        expect(page.locator(f'[data-totals] [data-player="{player}"]')).to_contain_text(total)
    sheet = Sheet.objects.get()
    stored = {
        name: sum(
            ScoreRow.objects.filter(sheet=sheet, player__name=name).values_list("score", flat=True)
        )
        for name in totals
    }
    assert stored == {name: numbers(total) for name, total in totals.items()}


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_the_help_link_opens_the_guide_in_the_page_language(page, live_server):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Aide").tap()
    expect(page).to_have_url(re.compile(r"/static/guide/fr/index\.html#roles$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Guide de Tarot Ledger")
    page.get_by_role("link", name="English").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Tarot Ledger guide")
