"""French typography in templates: ``{{ name|of_name }}`` is "de Bert" or "d’Hélène" on a
French page (elided before a vowel or a mute h), the name alone on an English one (the
English msgid says "of"; the French msgstr leaves the preposition to this filter)."""

from django import template
from django.utils.translation import get_language

register = template.Library()

#: a name beginning with one of these takes "d’" (names with an aspirated h are rare)
ELIDED = "aeiouyhàâäéèêëîïôöùûüœæ"


@register.filter
def of_name(name) -> str:
    text = str(name)
    if not (get_language() or "").startswith("fr"):
        return text
    return f"d’{text}" if text[:1].lower() in ELIDED else f"de {text}"
