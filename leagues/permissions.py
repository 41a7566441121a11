"""Who may read and manage a league. Every league view goes through ``league_view``.

"read": anyone for a public league; for a members-only league, its managers and the
members of its member clubs. "manage": the league's managers (and superusers). A
league manager manages the league (clubs, seasons, scales, séries, events, links by
licence), never its clubs' ledgers; a club's manager decides which of the club's
tournaments count (``clubs.permissions.require(actor, club, "manage")``).
"""

from functools import wraps

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy

from clubs.models import Membership
from core.access import refusal
from leagues.models import League, LeagueManager

error_messages = {"manage": gettext_lazy("Only a manager of the league may do this.")}


def is_manager(user, league) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    cache = getattr(user, "_league_managed", None)
    if cache is None:
        cache = user._league_managed = {}
    if league.pk not in cache:
        cache[league.pk] = LeagueManager.objects.filter(league=league, user=user).exists()
    return cache[league.pk]


def is_member(user, league) -> bool:
    """A member of one of the league's member clubs."""
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(
        user=user,
        club__league_links__league=league,
        club__league_links__accepted_at__isnull=False,
    ).exists()


def can(user, league, level: str) -> bool:
    if level == "manage":
        return is_manager(user, league)
    if level != "read":
        raise ValueError(level)
    return league.is_public or is_manager(user, league) or is_member(user, league)


def require(actor, league, error) -> None:
    """Refuse ``actor`` unless they manage ``league`` (``None``: code without a user)."""
    if actor is None:
        return
    if not is_manager(actor, league):
        raise error("forbidden", str(error_messages["manage"]))


def league_view(level: str):
    """Decorate a view taking ``league``'s slug: sets ``request.league``, checks ``level``.
    A members-only league is not revealed to strangers (404), as a club is not."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, league, *args, **kwargs):
            found = get_object_or_404(League, slug=league)
            # a members-only league is not revealed to strangers: 404 as an unknown one
            refused = refusal(request, found, level, can, login_for_hidden_writes=False)
            if refused is not None:
                return refused
            request.league = found
            request.league_manager = is_manager(request.user, found)
            return view(request, league, *args, **kwargs)

        wrapped.league_level = level
        return wrapped

    return decorator
