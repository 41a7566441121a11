"""``{% page_url "name" arg… %}``: the URL of a page another app offers (``core.pages``);
empty when nobody offers it."""

from django import template

from core import pages

register = template.Library()


@register.simple_tag
def page_url(name, *args):
    return pages.url(name, *args) or ""
