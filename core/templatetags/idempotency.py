"""``{% idempotency_field %}``: the hidden key of a create form (``core.idempotency``).

A new random key when the form is first shown; the posted key when the form is
shown again after an error, so the corrected post is still the same attempt.
"""

from django import template
from django.utils.html import format_html

from core.idempotency import FIELD_NAME, new_key, posted_key

register = template.Library()


@register.simple_tag(takes_context=True)
def idempotency_field(context):
    key = posted_key(context.get("request")) or new_key()
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD_NAME, key)
