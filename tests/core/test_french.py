"""The ``of_name`` filter: the French "of" before a name — elided, contracted with the
name's article, or with the article of the common noun the name begins with."""

import pytest
from django.template import Context, Template
from django.utils import translation

from core.templatetags.french import of_name

CASES = [
    # a plain name: "de", elided before a vowel or a mute h
    ("Bonneville", "de Bonneville"),
    ("Annecy", "d’Annecy"),
    ("Hélène 1", "d’Hélène 1"),
    ("A1", "d’A1"),
    # the name's own article contracts; the noun after it keeps the name's case
    ("Le Cercle de Tarot", "du Cercle de Tarot"),
    ("le cercle de tarot", "du cercle de tarot"),
    ("LE CERCLE", "du CERCLE"),
    ("Les Rois de Vienne", "des Rois de Vienne"),
    ("La Dame de Cœur", "de la Dame de Cœur"),
    ("L’Excuse", "de l’Excuse"),
    ("L'Excuse", "de l’Excuse"),
    ("Le Club des Amis", "du Club des Amis"),
    # a name that begins with a common noun takes that noun's article
    ("Club de démonstration", "du Club de démonstration"),
    ("Club de la Rive", "du Club de la Rive"),
    ("Cercle de Tarot", "du Cercle de Tarot"),
    ("Ligue de Savoie", "de la Ligue de Savoie"),
    ("Association des tarotistes", "de l’Association des tarotistes"),
    ("Amis du Tarot", "des Amis du Tarot"),
    ("Tournoi de Pâques", "du Tournoi de Pâques"),
    # words that only begin like an article or a noun
    ("Laval", "de Laval"),
    ("Lesneven", "de Lesneven"),
    ("Léa", "de Léa"),
    ("Clubland", "de Clubland"),
    ("Le", "de Le"),
]


@pytest.mark.parametrize(("name", "french"), CASES)
def test_of_a_name_in_french(name, french):
    with translation.override("fr"):
        assert of_name(name) == french


@pytest.mark.parametrize(("name", "french"), CASES)
def test_an_english_page_has_the_name_alone(name, french):
    with translation.override("en"):
        assert of_name(name) == name


@pytest.mark.parametrize(
    ("name", "french"),
    [
        ("Le Goff", "de Le Goff"),
        ("La Fontaine", "de La Fontaine"),
        ("Hélène", "d’Hélène"),
        ("Claude", "de Claude"),
        ("Union", "d’Union"),
    ],
)
def test_a_person_s_article_is_not_contracted(name, french):
    with translation.override("fr"):
        assert of_name(name, "person") == french


def test_the_filter_in_a_template():
    template = Template('{% load french %}{{ club|of_name }} · {{ player|of_name:"person" }}')
    with translation.override("fr"):
        text = template.render(Context({"club": "Le Cercle", "player": "Le Goff"}))
    assert text == "du Cercle · de Le Goff"
