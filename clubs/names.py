"""The names pages show for logins: never a username.

A login is shown by the name of the player it is linked to in the club, else
by its full name, else by a neutral word the caller gives ("a scorer").
"""

from clubs.models import Player


def display_names(club, users, *, fallback: str) -> dict:
    """``{user.pk: name}`` for ``users`` in ``club`` (one query)."""
    users = [u for u in users if u is not None]
    linked = dict(
        Player.objects.filter(club=club, user__in=[u.pk for u in users]).values_list(
            "user_id", "name"
        )
    )
    return {u.pk: display_name(u, linked.get(u.pk), fallback=fallback) for u in users}


def display_name(user, player_name, *, fallback: str) -> str:
    """The name of ``user`` whose linked player (if any) is called ``player_name``."""
    return player_name or user.get_full_name().strip() or fallback
