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
    return {u.pk: linked.get(u.pk) or u.get_full_name().strip() or fallback for u in users}
