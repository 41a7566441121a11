"""The user guide: it builds strictly in both languages, every URL of the site finds a
section of it that exists in both, and every page's help link points there."""

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from config import guide

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The guide built strictly into a directory of its own: {language: {page: ids}}."""
    if not MKDOCS.exists():
        pytest.skip("mkdocs is missing: pip install -e '.[dev]'")
    site = tmp_path_factory.mktemp("guide")
    result = subprocess.run(
        [str(MKDOCS), "build", "--strict", "-f", "docs/mkdocs.yml", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    pages = {}
    for language in guide.LANGUAGES:
        folder = site / guide.language_prefix(language)
        for path in folder.glob("*.html"):
            parser = _Ids()
            parser.feed(path.read_text(encoding="utf-8"))
            pages.setdefault(language, {})[path.name] = parser
    yield pages
    shutil.rmtree(site, ignore_errors=True)


def view_names(resolver=None, namespace=()):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace + ((pattern.namespace,) if pattern.namespace else ())
            yield from view_names(pattern, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield ":".join((*namespace, pattern.name))


def test_every_page_of_the_guide_is_written_in_both_languages():
    sources = ROOT / "docs" / "guide"
    english = {p.name for p in sources.glob("*.md") if not p.name.endswith(".fr.md")}
    french = {p.name.replace(".fr.md", ".md") for p in sources.glob("*.fr.md")}
    assert english == french


def test_the_french_pages_are_french(built):
    for name in built["fr"]:
        if name == "404.html":
            continue
        text = (ROOT / "docs" / "guide" / name.replace(".html", ".fr.md")).read_text()
        # a French page says "le", "la" or "les" somewhere; an English fallback does not
        assert re.search(r"\b(le|la|les)\b", text), name


@pytest.mark.parametrize("language", guide.LANGUAGES)
def test_every_url_of_the_site_has_a_section_of_the_guide(built, language):
    missing = []
    for name in sorted(set(view_names())):
        page, anchor = guide.section(name).split("#")
        parser = built[language].get(page)
        if parser is None or anchor not in parser.ids:
            missing.append(f"{name} → {page}#{anchor}")
    assert not missing, missing


def test_the_language_switch_of_each_page_leads_to_the_same_page(built):
    for name, parser in built["en"].items():
        if name == "404.html":
            continue
        assert f"./fr/{name}" in parser.links, name
    for name, parser in built["fr"].items():
        if name == "404.html":
            continue
        assert f"../{name}" in parser.links, name


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "prefix"), [("en", "/static/guide/"), ("fr", "/static/guide/fr/")]
)
def test_the_help_link_opens_the_section_about_the_page_in_its_language(
    client, make_sheet, language, prefix
):
    sheet = make_sheet(4)
    client.cookies["django_language"] = language
    page = client.get(f"/clubs/{sheet.club.slug}/sheets/{sheet.pk}/")
    assert page.status_code == 200
    [link] = re.findall(r'href="([^"]+)"[^>]*data-help', page.content.decode())
    assert link == f"{prefix}scorer.html#an-evening"
    home = client.get("/", headers={"accept-language": language})
    assert re.search(rf'href="{re.escape(prefix)}index.html#roles"[^>]*data-help', home.text)


def test_the_guide_address_opens_its_first_page_in_the_page_language(client):
    assert client.get("/guide/").url == "/static/guide/index.html"
    client.cookies["django_language"] = "fr"
    assert client.get("/guide/").url == "/static/guide/fr/index.html"


def test_the_api_docs_links_to_the_guide_resolve(built):
    """The schema's description and fields name the guide's pages: each page and anchor
    exists (the docs page at /api/docs shows them)."""
    from api.views import api

    text = json.dumps(api.get_openapi_schema(path_prefix="/api/"))
    links = set(re.findall(r"/static/guide/([\w./-]+\.html)(?:#([\w-]+))?", text))
    assert links, "the API docs name no page of the guide"
    for page, anchor in links:
        parser = built["en"].get(page)
        assert parser is not None, page
        assert not anchor or anchor in parser.ids, (page, anchor)
