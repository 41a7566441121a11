"""``{% page_url "name" arg… %}``: the URL of a page another app offers (``core.pages``);
empty when nobody offers it. ``{% panels "slot" arg… %}``: what the apps above added to
the page's slot."""

from django import template
from django.utils.safestring import mark_safe

from core import pages

register = template.Library()


@register.simple_tag
def page_url(name, *args):
    return pages.url(name, *args) or ""


@register.simple_tag(takes_context=True)
def panels(context, slot, *args):
    return mark_safe("".join(str(render(context, *args)) for render in pages.panels(slot)))  # noqa: S308 -- each renderer returns safe HTML
