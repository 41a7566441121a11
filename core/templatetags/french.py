"""French typography in templates: ``{{ name|of_name }}`` is the name with the French "of"
in front of it on a French page ("de Bert", "d’Annecy", "du Cercle de Tarot"), the name
alone on an English one (the English msgid says "of"; the French msgstr leaves the
preposition to this filter). ``{{ name|of_name:"person" }}`` for a person's name."""

import re

from django import template
from django.utils.translation import get_language

register = template.Library()

#: a name beginning with one of these takes "d’" (names with an aspirated h are rare)
ELIDED = "aeiouyhàâäéèêëîïôöùûüœæ"

#: a name's leading article, in any case: "les ", "le ", "la " or "l’" (or "l'")
ARTICLE = re.compile(
    r"^(?:(?P<plural>les)\s+|(?P<masculine>le)\s+|(?P<feminine>la)\s+|l['’])(?=\S)", re.I
)

#: common nouns a club, a team, a league or an event is named with, by the article French
#: gives them ("les joueurs du Club de démonstration"); one beginning with a vowel takes
#: "de l’" whatever its gender
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
        "du",
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
        "de la",
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
        "de l’",
    ),
    **dict.fromkeys(("amis", "interclubs", "masters"), "des"),
}


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
      « d’Annecy », « d’Hélène 1 ».

    ``kind="person"``: a person's name takes only « de » or « d’ »; the article of a
    surname is not contracted (« de Le Goff », « de La Fontaine »).
    """
    text = str(name)
    if not (get_language() or "").startswith("fr"):
        return text
    if kind != "person":
        article = ARTICLE.match(text)
        if article:
            rest = text[article.end() :]
            if article["plural"]:
                return f"des {rest}"
            if article["masculine"]:
                return f"du {rest}"
            return f"de la {rest}" if article["feminine"] else f"de l’{rest}"
        first = text.split(maxsplit=1)[0].casefold() if text.strip() else ""
        if first in NOUNS:
            joined = NOUNS[first]
            return f"{joined}{text}" if joined.endswith("’") else f"{joined} {text}"
    elided = text[:1] and text[:1].lower() in ELIDED
    return f"d’{text}" if elided else f"de {text}"
