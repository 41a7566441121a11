"""French typography in templates: ``{{ name|of_name }}`` is the name with the French "of"
in front of it on a French page ("de Bert", "d’Annecy", "du Cercle de Tarot"), the name
alone on an English one (the English msgid says "of"; the French msgstr leaves the
preposition to this filter). ``{{ name|to_name }}`` is the same with the French "to" or
"at" ("à Bonneville", "au Club de démonstration", "aux Rois de Vienne").
``{{ name|of_name:"person" }}`` for a person's name."""

import re

from django import template
from django.utils.translation import get_language

register = template.Library()

#: a name beginning with one of these takes "d’"
ELIDED = "aeiouyhàâäéèêëîïôöùûüœæ"
#: words with an aspirated h, which take "de" (« de Haute-Savoie », « de Hauts-de-France »)
ASPIRATED = ("haut", "hall", "hameau", "hangar", "hasard", "hêtre", "holland", "hongr", "huit")

#: a name's leading article, in any case: "les ", "le ", "la " or "l’" (or "l'")
ARTICLE = re.compile(
    r"^(?:(?P<plural>les)\s+|(?P<masculine>le)\s+|(?P<feminine>la)\s+|l['’])(?=\S)", re.I
)

#: "de" and "à" contracted with the article of each form ("le", "la", "l’", "les")
OF = {"masculine": "du", "feminine": "de la", "elided": "de l’", "plural": "des"}
TO = {"masculine": "au", "feminine": "à la", "elided": "à l’", "plural": "aux"}

#: common nouns a club, a team, a league or an event is named with, by the form of the
#: article French gives them ("les joueurs du Club de démonstration", "bienvenue au Club
#: de démonstration"); one beginning with a vowel takes "l’" whatever its gender
NOUNS = {
    **dict.fromkeys(
        (
            "cercle",
            "challenge",
            "championnat",
            "club",
            "collectif",
            "comité",
            "critérium",
            "district",
            "festival",
            "foyer",
            "groupe",
            "groupement",
            "racing",
            "sporting",
            "stade",
            "tarot-club",
            "tournoi",
            "trophée",
        ),
        "masculine",
    ),
    **dict.fromkeys(
        (
            "coupe",
            "division",
            "fédération",
            "ligue",
            "maison",
            "poule",
            "section",
            "sélection",
            "société",
        ),
        "feminine",
    ),
    **dict.fromkeys(
        (
            "académie",
            "alliance",
            "amicale",
            "association",
            "atelier",
            "entente",
            "espace",
            "open",
            "olympique",
            "union",
            "équipe",
            "école",
        ),
        "elided",
    ),
    **dict.fromkeys(("amis", "interclubs", "masters"), "plural"),
}


def _article(text: str) -> tuple[str, str] | None:
    """The form of the article a name is used with, and the name after that article:
    its own leading article (dropped: « Le Cercle » is ("masculine", "Cercle")), or the
    article of the common noun it begins with (« Club de démonstration » is
    ("masculine", "Club de démonstration")); None for any other name."""
    article = ARTICLE.match(text)
    if article:
        form = next((form for form in ("plural", "masculine", "feminine") if article[form]), None)
        return form or "elided", text[article.end() :]
    first = text.split(maxsplit=1)[0].casefold() if text.strip() else ""
    if first in NOUNS:
        return NOUNS[first], text
    return None


def _joined(preposition: str, rest: str) -> str:
    return f"{preposition}{rest}" if preposition.endswith("’") else f"{preposition} {rest}"


@register.filter
def of_name(name, kind: str = "") -> str:
    """The name after the French "of", on a French page; the name alone on any other.

    The rule, for the name of a club, a team, a league or an event:

    - a leading article contracts with "de": « Le Cercle de Tarot » → « du Cercle de
      Tarot », « Les Rois de Vienne » → « des Rois de Vienne », « La Dame de Cœur » →
      « de la Dame de Cœur », « L’Excuse » (or « L'Excuse ») → « de l’Excuse »; the
      article is written in small letters and the word after it keeps the name's own case
      (so a town's « La Rochelle » gives « de la Rochelle », where a gazetteer keeps « de
      La Rochelle »: a name does not say whether it is a town's);
    - a name that begins with a common noun (``NOUNS``: « Club », « Cercle »,
      « Association »…) is used with that noun's article, as French writers do: « du Club
      de démonstration », « de la Ligue de Savoie », « de l’Association des tarotistes »,
      « des Amis du Tarot »;
    - any other name takes « de », elided before a vowel or a mute h: « de Bonneville »,
      « d’Annecy », « d’Hélène 1 », but « de Haute-Savoie » (an aspirated h, ``ASPIRATED``).

    ``kind="person"``: a person's name takes only « de » or « d’ »; the article of a
    surname is not contracted (« de Le Goff », « de La Fontaine »).
    """
    text = str(name).strip()
    if not (get_language() or "").startswith("fr"):
        return text
    article = _article(text) if kind != "person" else None
    if article:
        return _joined(OF[article[0]], article[1])
    elided = text[:1] and text[:1].lower() in ELIDED
    if elided and text.casefold().startswith(ASPIRATED):
        elided = False
    return f"d’{text}" if elided else f"de {text}"


@register.filter
def to_name(name, kind: str = "") -> str:
    """The name after the French "to" or "at" (« à »), on a French page; the name alone on
    any other (the English msgid says "to": "Welcome to %(club)s").

    The same rule as ``of_name``'s, with « à »: « Le Cercle de Tarot » → « au Cercle de
    Tarot », « Les Rois de Vienne » → « aux Rois de Vienne », « La Dame de Cœur » → « à la
    Dame de Cœur », « L’Excuse » → « à l’Excuse »; « Club de démonstration » → « au Club de
    démonstration », « Ligue de Savoie » → « à la Ligue de Savoie », « Association des
    tarotistes » → « à l’Association des tarotistes », « Amis du Tarot » → « aux Amis du
    Tarot »; any other name « à Bonneville », « à Annecy » (« à » is never elided).

    ``kind="person"``: « à » alone, the article of a surname kept (« à Le Goff »).
    """
    text = str(name).strip()
    if not (get_language() or "").startswith("fr"):
        return text
    article = _article(text) if kind != "person" else None
    if article:
        return _joined(TO[article[0]], article[1])
    return f"à {text}"
