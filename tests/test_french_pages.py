# ruff: noqa: F811 (the league and competition fixtures, imported)
"""The pages a scorer and a manager go through at a club evening, rendered in French:
no sentence of the English catalogue left (in the text, the labels screen readers speak,
and the data-* texts the page's scripts show), and French typography — a no-break space
before ":;!?", "d’" before a vowel (never "de Hélène"), "de" contracted with a club's article
or its leading noun ("du Cercle", "du Club", never "de Le Cercle"), the singular after 1
(never "1 refusées", "chacune de 1 soirées").
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
#: elements whose text is no French sentence: scripts, styles, and what a program reads
#: or a person types as it stands (a header, a file's syntax: "Anna single; Bert double")
UNSPOKEN = {"script", "style", "code", "pre", "kbd", "samp"}


class Words(HTMLParser):
    """The page's words: text (not scripts, styles nor code) and the spoken attributes,
    plus the data-* texts the scripts put on the page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in UNSPOKEN:
            self.skip += 1
        for name, value in attrs:
            spoken = name in SPOKEN or name.startswith("data-")
            # a JSON payload (the form's rules, names) is no text
            if spoken and value and " " in value.strip() and value.lstrip()[:1] not in "{[":
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in UNSPOKEN:
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
        # a time (12:30) or an address (https://) has no space after its colon: not a sign
        if re.search(r"[\w»)][:;!?](\s|$)", part):
            found.append(f"no space before the sign: {part!r}")
        # a text that begins with the sign follows an element (« <strong>Rejetée</strong>: »)
        if re.match(r"[:;!?](\s|$)", part):
            found.append(f"no space before the sign, after an element: {part!r}")
        if re.search(r" [:;!?]", part):
            found.append(f"a plain space before the sign (a no-break one): {part!r}")
        if re.search(r"\b[dD]e [AEIOUYÉÈÊHÂÎaeiouyéèêâî]\w", part) and "de haut" not in part:
            found.append(f"de before a vowel: {part!r}")
        if re.search(r"\b[dD]e (?:Les? |La |L[’']\w|Club\b)", part):
            found.append(f"de before an article or « Club » (du, des, de la, de l’): {part!r}")
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
    # Carl's one contract, made with three bonuses: « 1 faite », a streak, « chelem : … »,
    # and the printed sheet's list of bonuses
    carl = {"dealer": "Bert", "taker": "Carl", "contract": "garde", "bouts": 3, "points": 91}
    carl |= {"petit_au_bout": "attack", "poignees": [{"player": "Carl", "size": "single"}]}
    carl |= {"chelem": {"announced": False, "made_by": "attack"}}
    services.record_hand(sheet, carl, actor=scorer)
    args = [sheet.club.slug, sheet.pk]
    new = reverse("scoresheet:hand_create", args=args)
    french.force_login(scorer)
    pages = [
        ("the sheet", french.get(reverse("scoresheet:sheet", args=args))),
        ("the hand form", french.get(new)),
        ("a hand", french.get(reverse("scoresheet:hand", args=[*args, 1]))),
        ("a chelem", french.get(reverse("scoresheet:hand", args=[*args, 4]))),
        ("the printed sheet", french.get(reverse("scoresheet:sheet_print", args=args))),
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
    for name, seat in (("a player's statistics", 0), ("the taker's statistics", 2)):
        player = sheet.seats.get(position=seat).player
        pages.append((name, french.get(reverse("stats:player", args=[sheet.club.slug, player.pk]))))
    pages.append(("the club's data", french.get(reverse("transfer:data", args=[sheet.club.slug]))))
    for name, response in pages:
        assert response.status_code in (200, 409), (name, response.status_code)
    return [(name, response.content.decode()) for name, response in pages]


@pytest.mark.django_db
def test_the_evening_s_pages_are_in_french(french, make_sheet, scorer, manager):
    problems, seen = [], {}
    htmls = dict(pages_of_an_evening(french, make_sheet, scorer, manager))
    for name, html in htmls.items():
        parts = words(html)
        problems += [f"{name}: English left: {s!r}" for s in english_in(parts)]
        problems += [f"{name}: {slip}" for slip in slips(parts)]
        seen[name] = " ".join(parts)
    assert not problems, "\n".join(problems)
    # the words the slips were looked for in were on the pages
    for name, text in (
        ("the taker's statistics", "1 faite (100\u00a0%)"),
        ("the taker's statistics", "contrats faits d’affilée\u00a0:"),
        ("a chelem", "chelem\u00a0: réussi sans annonce"),
        ("the printed sheet", "attaque\u202f; poignée simple\u00a0: Carl\u202f; chelem\u00a0:"),
        ("the club's data", "2026\u00a0:"),
    ):
        assert text in seen[name], (name, text, seen[name][:3000])
    # the file's syntax is code, which keeps its own punctuation
    assert "par exemple <code>Anna single; Bert double</code>" in htmls["the club's data"]


def test_the_checks_see_a_slip():
    """Each check finds what it is for (so a page that passes is not passing by blindness)."""
    assert slips(["Donneur: Anna"]) and slips(["Donneur : Anna"])
    assert not slips(["Donneur\u00a0: Anna", "Total 12:30", "https://example.org"])
    # each sign, after a word, a number or a closing mark, in a part that has a time too
    for slip in ("contrats faits d’affilée:", "Chambéry 1902:", "2026–2027:", "Quitter ?"):
        assert slips([slip]), slip
    assert slips(["attaque; poignée simple\u00a0: Carl"]) and slips(["Prêt!"])
    assert slips(["Pourquoi? Donne 1"]) and slips(["à 12:30 (« Bert »): 4"])
    assert slips(["Rejetée", ": la feuille dit prise"]) and slips([";", "Carl"])
    assert not slips(["Rejetée", "\u00a0: la feuille dit prise"])
    assert not slips(["attaque\u202f; poignée", "Prêt\u202f!", "Pourquoi\u202f? Donne 1"])
    assert slips(["Total cumulé de Hélène"]) and not slips(["Total cumulé d’Hélène"])
    assert slips(["Joueurs de Le Cercle"]) and slips(["Joueurs de Les Rois"])
    assert slips(["Joueurs de La Dame"]) and slips(["Joueurs de L’Excuse"])
    assert slips(["Joueurs de Club de démonstration"])
    assert not slips(["Joueurs du Cercle", "Joueurs des Rois", "Joueurs de la Dame"])
    assert not slips(["Joueurs de l’Excuse", "avant de le tirer", "Joueurs de Clubland"])
    assert slips(["1 refusées"]) and not slips(["1 refusée", "2 refusées"])
    assert slips(["1 faites (50\u00a0%)"]) and not slips(["1 faite (50\u00a0%)"])
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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "of"),
    [
        ("Le Cercle de Tarot", "du Cercle de Tarot"),
        ("Les Rois de Vienne", "des Rois de Vienne"),
        ("La Dame de Cœur", "de la Dame de Cœur"),
        ("L'Excuse", "de l’Excuse"),
        ("Club de démonstration", "du Club de démonstration"),
        ("Association des tarotistes", "de l’Association des tarotistes"),
        ("Bonneville", "de Bonneville"),
    ],
)
def test_a_club_s_titles_take_its_article(french, club, season, manager, name, of):
    """A club's own pages name it after "de" as French does: contracted with the name's
    article, with the article of the noun it begins with, or elided."""
    club.name = name
    club.save(update_fields=["name"])
    french.force_login(manager)
    for url, title in (
        ("clubhouse:players", "Joueurs"),
        ("scoresheet:sheets", "Feuilles"),
        ("tournaments:list", "Tournois"),
    ):
        html = french.get(reverse(url, args=[club.slug])).content.decode()
        assert f"<h1>{title} {of}</h1>" in html, (url, re.findall(r"<h1>.*?</h1>", html))
        assert not slips(words(html)), url


@pytest.mark.django_db
def test_a_player_s_surname_keeps_its_article(french, make_sheet, scorer, manager):
    """A person's name takes "de" alone: the article of a surname is not contracted."""
    sheet = make_sheet(4)
    for post in SEED_POSTS[:2]:
        data = {"dealer": "Anna", "taker": "Bert", "contract": post["contract"]}
        data |= {"bouts": int(post["bouts"]), "points": int(post["points"])}
        services.record_hand(sheet, data, actor=scorer)
    player = sheet.seats.order_by("position").first().player
    player.name = "Le Goff"
    player.save(update_fields=["name"])
    french.force_login(manager)
    html = french.get(reverse("stats:player", args=[sheet.club.slug, player.pk])).content.decode()
    assert "Total cumulé de Le Goff" in html, re.findall(r"Total cumulé[^\"<]*", html)
    assert "du Goff" not in html
