"""The ``of_name`` and ``to_name`` filters: the French "of" and "to" before a name — "de"
elided, "de" and "à" contracted with the name's article, or with the article of the common
noun the name begins with."""

import pytest
from django.template import Context, Template
from django.utils import translation

from core.templatetags.french import NOUNS, of_name, to_name

CASES = [
    # a plain name: "de", elided before a vowel or a mute h
    ("Bonneville", "de Bonneville"),
    ("Annecy", "d’Annecy"),
    ("Hélène 1", "d’Hélène 1"),
    ("A1", "d’A1"),
    # an aspirated h is not elided
    ("Haute-Savoie", "de Haute-Savoie"),
    ("Hongrie", "de Hongrie"),
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


def test_a_name_typed_with_spaces_around_reads_as_the_name():
    with translation.override("fr"):
        assert of_name("  Annecy ") == "d’Annecy"
        assert of_name(" Le Cercle") == "du Cercle"
        assert to_name(" Le Cercle ") == "au Cercle"


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


TO_CASES = [
    # a plain name: "à", never elided
    ("Bonneville", "à Bonneville"),
    ("Annecy", "à Annecy"),
    ("Hélène 1", "à Hélène 1"),
    # the name's own article contracts: à + le → au, à + les → aux; à la, à l’
    ("Le Cercle de Tarot", "au Cercle de Tarot"),
    ("le cercle de tarot", "au cercle de tarot"),
    ("LE CERCLE", "au CERCLE"),
    ("Les Rois de Vienne", "aux Rois de Vienne"),
    ("La Dame de Cœur", "à la Dame de Cœur"),
    ("L’Excuse", "à l’Excuse"),
    ("L'Excuse", "à l’Excuse"),
    # a name that begins with a common noun takes that noun's article
    ("Club de démonstration", "au Club de démonstration"),
    ("Cercle de Tarot", "au Cercle de Tarot"),
    ("Ligue de Savoie", "à la Ligue de Savoie"),
    ("Association des tarotistes", "à l’Association des tarotistes"),
    ("Amis du Tarot", "aux Amis du Tarot"),
    # words that only begin like an article or a noun
    ("Laval", "à Laval"),
    ("Lesneven", "à Lesneven"),
    ("Clubland", "à Clubland"),
    ("Le", "à Le"),
]


@pytest.mark.parametrize(("name", "french"), TO_CASES)
def test_to_a_name_in_french(name, french):
    with translation.override("fr"):
        assert to_name(name) == french


@pytest.mark.parametrize(("name", "french"), TO_CASES)
def test_an_english_page_has_the_name_alone_after_to(name, french):
    with translation.override("en"):
        assert to_name(name) == name


@pytest.mark.parametrize(
    ("name", "french"),
    [("Le Goff", "à Le Goff"), ("Les Bleus", "à Les Bleus"), ("Union", "à Union")],
)
def test_a_person_s_article_is_not_contracted_after_to(name, french):
    with translation.override("fr"):
        assert to_name(name, "person") == french


@pytest.mark.parametrize("noun", sorted(NOUNS))
def test_each_noun_takes_the_same_article_after_of_and_to(noun):
    """The one table gives "de" and "à" their article: a noun that takes "du" takes "au"…"""
    name = f"{noun.capitalize()} de Savoie"
    with translation.override("fr"):
        of, to = of_name(name), to_name(name)
    pairs = {"du ": "au ", "de la ": "à la ", "de l’": "à l’", "des ": "aux "}
    assert any(of == f"{d}{name}" and to == f"{a}{name}" for d, a in pairs.items()), (of, to)


def test_the_filter_in_a_template():
    template = Template(
        '{% load french %}{{ club|of_name }} · {{ player|of_name:"person" }}'
        ' · {{ club|to_name }} · {{ player|to_name:"person" }}'
    )
    with translation.override("fr"):
        text = template.render(Context({"club": "Le Cercle", "player": "Le Goff"}))
    assert text == "du Cercle · de Le Goff · au Cercle · à Le Goff"
