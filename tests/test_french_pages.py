# ruff: noqa: F811 (the league and competition fixtures, imported)
"""The pages a scorer and a manager go through at a club evening, rendered in French:
no sentence of the English catalogue left (in the text, the labels screen readers speak,
and the data-* texts the page's scripts show), and French typography — a no-break space
before ":;!?", "d’" before a vowel (never "de Hélène"), the singular after 1 (never
"1 refusées", "chacune de 1 soirées").
"""

import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from scoresheet import services
from tests.competitions.conftest import championship, clubs  # noqa: F401 (fixtures)
from tests.leagues.fixtures import boss, league  # noqa: F401 (fixtures)
from tests.scoresheet.test_views_hands import SEED_POSTS

PO = Path(__file__).resolve().parents[1] / "locale/fr/LC_MESSAGES/django.po"
#: attributes whose words a person reads or hears
SPOKEN = {"aria-label", "title", "placeholder", "alt", "value"}


class Words(HTMLParser):
    """The page's words: text (not scripts nor styles) and the spoken attributes, plus
    the data-* texts the scripts put on the page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            spoken = name in SPOKEN or name.startswith("data-")
            # a JSON payload (the form's rules, names) is no text
            if spoken and value and " " in value.strip() and value.lstrip()[:1] not in "{[":
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data)


def words(html: str) -> list[str]:
    parser = Words()
    parser.feed(html)
    return [re.sub(r"[ \t\r\n]+", " ", part).strip(" \t\r\n") for part in parser.parts]


def _unquote(text):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text)).replace('\\"', '"')


@lru_cache(maxsize=1)
def english_sentences() -> tuple[str, ...]:
    """Fragments of the catalogue's English that the French differs from: each msgid's
    text between its placeholders, when it is a phrase of two words or more."""
    text = PO.read_text(encoding="utf-8")
    out = set()
    for block in text.split("\n\n"):
        match = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        if not match:
            continue
        msgid = _unquote(match.group(1))
        strs = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block, re.M)
        french = " ".join(_unquote(s) for s in strs)
        if not msgid or not french.strip() or french == msgid:
            continue
        for piece in re.split(r"%\(\w+\)[sd]|%[sd]|\{\{.*?\}\}|<[^>]+>", msgid):
            piece = piece.strip(" .,:;·—–-()")
            if len(piece) >= 12 and piece.count(" ") >= 1 and piece not in french:
                out.add(piece)
    return tuple(sorted(out))


def slips(parts: list[str]) -> list[str]:
    """French typography broken in the page's words."""
    found = []
    for part in parts:
        if re.search(r"[\w»)][:;!?](\s|$)", part) and not re.search(r"\d:\d|https?:", part):
            found.append(f"no space before the sign: {part!r}")
        if re.search(r" [:;!?]", part):
            found.append(f"a plain space before the sign (a no-break one): {part!r}")
        if re.search(r"\b[dD]e [AEIOUYÉÈÊHÂÎaeiouyéèêâî]\w", part) and "de haut" not in part:
            found.append(f"de before a vowel: {part!r}")
        for word in re.findall(r"(?<![\d,.])\b1 (\w+s)\b", part):
            if word not in ("fois", "mois", "pas"):
                found.append(f"plural after 1: {part!r}")
        if re.search(r"chacune? de \d", part):
            found.append(f"'chacune de' a number: {part!r}")
    return found


def english_in(parts: list[str]) -> list[str]:
    page = " \n ".join(parts)
    return [sentence for sentence in english_sentences() if sentence in page]


@pytest.fixture
def french(client):
    client.cookies["django_language"] = "fr"
    return client


def pages_of_an_evening(french, make_sheet, scorer, manager):
    """(name, html) of the pages the terminal's browser tests visit, in French."""
    sheet = make_sheet(4)
    for post in SEED_POSTS[:3]:
        data = {
            "dealer": "Anna",
            "taker": "Bert",
            "contract": post["contract"],
            "bouts": int(post["bouts"]),
            "points": int(post["points"]),
        }
        services.record_hand(sheet, data, actor=scorer)
    args = [sheet.club.slug, sheet.pk]
    new = reverse("scoresheet:hand_create", args=args)
    french.force_login(scorer)
    pages = [
        ("the sheet", french.get(reverse("scoresheet:sheet", args=args))),
        ("the hand form", french.get(new)),
        ("a hand", french.get(reverse("scoresheet:hand", args=[*args, 1]))),
        ("a correction", french.get(reverse("scoresheet:hand_edit", args=[*args, 1]))),
        ("a clash", french.post(new, {**SEED_POSTS[0], "after": "1", "action": "save"})),
    ]
    closed = make_sheet(4, table="2")
    services.close_sheet(closed, actor=scorer)
    pages.append(
        (
            "a closed sheet",
            french.get(reverse("scoresheet:hand_create", args=[sheet.club.slug, closed.pk])),
        )
    )
    pages.append(
        (
            "the closed sheet",
            french.get(reverse("scoresheet:sheet", args=[sheet.club.slug, closed.pk])),
        )
    )
    french.force_login(manager)
    pages.append(
        ("the club's history", french.get(reverse("clubhouse:history", args=[sheet.club.slug])))
    )
    player = sheet.seats.order_by("position").first().player
    pages.append(
        (
            "a player's statistics",
            french.get(reverse("stats:player", args=[sheet.club.slug, player.pk])),
        )
    )
    for name, response in pages:
        assert response.status_code in (200, 409), (name, response.status_code)
    return [(name, response.content.decode()) for name, response in pages]


@pytest.mark.django_db
def test_the_evening_s_pages_are_in_french(french, make_sheet, scorer, manager):
    problems = []
    for name, html in pages_of_an_evening(french, make_sheet, scorer, manager):
        parts = words(html)
        problems += [f"{name}: English left: {s!r}" for s in english_in(parts)]
        problems += [f"{name}: {slip}" for slip in slips(parts)]
    assert not problems, "\n".join(problems)


def test_the_checks_see_a_slip():
    """Each check finds what it is for (so a page that passes is not passing by blindness)."""
    assert slips(["Donneur: Anna"]) and slips(["Donneur : Anna"])
    assert not slips(["Donneur\u00a0: Anna", "Total 12:30"])
    assert slips(["Total cumulé de Hélène"]) and not slips(["Total cumulé d’Hélène"])
    assert slips(["1 refusées"]) and not slips(["1 refusée", "2 refusées"])
    assert slips(["après chacune de 1 soirées"])
    assert english_in(["Waiting to be sent: 3"])
    assert not english_in(["En attente d’envoi\u00a0: 3"])


def league_pages(french, championship, boss, clubs):
    """A league's and its team competition's pages, in French, with names that begin with
    a vowel or a mute h (the clubs "Annecy" and "Hélène", the teams "A1", "Hélène 1"…),
    where a "de" must become "d’"."""
    from clubs.models import Club  # noqa: PLC0415
    from competitions import links  # noqa: PLC0415
    from leagues import licences  # noqa: PLC0415
    from tests.competitions.conftest import line_ups  # noqa: PLC0415

    Club.objects.filter(pk=clubs["a"].pk).update(name="Annecy")
    Club.objects.filter(pk=clubs["b"].pk).update(name="Hélène")
    competition, division, teams = championship()
    for team in teams:
        if team.name.startswith("B"):
            team.name = team.name.replace("B", "Hélène ")
            team.save(update_fields=["name"])
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    slug = competition.league.slug
    one = {"league": slug, "competition_id": competition.pk}
    # a line of Annecy's manager held for the league's managers
    licences.import_licences(
        competition.league,
        "Licence;Nom;Club\n9002;Yves Neuf;Annecy\n",
        actor=clubs["a_manager"],
        commit=True,
    )
    french.force_login(boss)
    urls = {
        "the leagues": reverse("leagues:list"),
        "the league": reverse("leagues:home", kwargs={"league": slug}),
        "the league's management": reverse("leagues:manage", kwargs={"league": slug}),
        "the league's history": reverse("leagues:history", kwargs={"league": slug}),
        "the held licence lines": reverse("leagues:held_licences", kwargs={"league": slug}),
        "the league's ratings": reverse("leagues:ratings", kwargs={"league": slug}),
        "the competitions": reverse("competitions:list", kwargs={"league": slug}),
        "a competition": reverse("competitions:detail", kwargs=one),
        "its management": reverse("competitions:manage", kwargs=one),
        "its barème": reverse("competitions:bareme", kwargs=one),
        "a club's players": reverse("clubhouse:players", args=[clubs["a"].slug]),
        "a club's sheets": reverse("scoresheet:sheets", args=[clubs["a"].slug]),
        "a club's tournaments": reverse("tournaments:list", args=[clubs["a"].slug]),
        "a team": reverse("competitions:team", kwargs={**one, "team_id": match.home_id}),
        "a match": reverse("competitions:match", kwargs={**one, "match_id": match.pk}),
        "its results": reverse("competitions:results", kwargs={**one, "match_id": match.pk}),
        "a line-up": reverse(
            "competitions:line_up",
            kwargs={**one, "match_id": match.pk, "team_id": match.home_id},
        ),
        "a captain's page": reverse(
            "captain:page", args=[links.token(links.link_of(match, match.home))]
        ),
    }
    pages = []
    for name, url in urls.items():
        response = french.get(url)
        assert response.status_code == 200, (name, response.status_code)
        pages.append((name, response.content.decode()))
    return pages


@pytest.mark.django_db
def test_the_league_s_pages_are_in_french(french, championship, boss, clubs):
    problems = []
    pages = league_pages(french, championship, boss, clubs)
    for name, html in pages:
        parts = words(html)
        problems += [f"{name}: English left: {s!r}" for s in english_in(parts)]
        problems += [f"{name}: {slip}" for slip in slips(parts)]
    assert not problems, "\n".join(problems)
    # the names that take "d’" were on the pages the slips were looked for in
    seen = " ".join(" ".join(words(html)) for _name, html in pages)
    assert "d’Hélène 1" in seen or "d’A1" in seen, seen[:2000]
    # a club's own pages name it with the same elision
    titled = {name: html for name, html in pages if name.startswith("a club's")}
    for name, title in (
        ("players", "Joueurs"),
        ("sheets", "Feuilles"),
        ("tournaments", "Tournois"),
    ):
        assert f"{title} d’Annecy" in titled[f"a club's {name}"], name
