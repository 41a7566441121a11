"""Pages an app offers to the apps below it, by a plain name.

A lower app may not name a higher app's URL (``tests/test_layers.py``): the sheet page
(``scoresheet``) may not ``reverse("stats:player")``. Yet a player's name on the sheet
links to their statistics. So the app that owns a page offers it under a plain name in
its ``AppConfig.ready()`` (``pages.offer("player_statistics", "stats:player")``), and
the lower app asks for that name (``pages.url("player_statistics", slug, pk)``, or
``{% page_url "player_statistics" slug pk %}`` in a template). A name nobody offers
gives no link (``None``, or ``""`` in a template), as a missing app would.

A panel is the same for a piece of a page: a higher app adds what it shows in a slot of
a lower app's page (``pages.add_panel("club_notices", "league_invitations", render)``,
``render(context, *args)`` giving safe HTML), and the page renders the slot
(``{% panels "club_notices" club %}``) whatever fills it.
"""

from django.urls import reverse

_OFFERED: dict[str, str] = {}
_PANELS: dict[str, dict] = {}


def offer(name: str, url_name: str) -> None:
    """The owner of ``url_name`` offers it to the apps below as ``name``."""
    _OFFERED[name] = url_name


def offered() -> dict[str, str]:
    return dict(_OFFERED)


def url(name: str, *args) -> str | None:
    """The URL of the page offered as ``name``; ``None`` when nobody offers it."""
    url_name = _OFFERED.get(name)
    return reverse(url_name, args=args) if url_name else None


def add_panel(slot: str, name: str, render) -> None:
    """A higher app shows ``render(context, *args)`` (safe HTML) in the pages' ``slot``."""
    _PANELS.setdefault(slot, {})[name] = render


def panels(slot: str) -> list:
    """The renderers added to ``slot``, in the order they were added."""
    return list(_PANELS.get(slot, {}).values())
