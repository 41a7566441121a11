"""Who may read and write a club's data. Every view goes through ``club_view``.

Levels: "read" (a public club: anyone; a members-only club: its members),
"score" (sheets and hands: scorers and managers), "manage" (members, seasons,
house rules: managers). Superusers may do everything.

Authorisation, the one way: a view lets a request in through ``club_view(level)``;
every service verb takes the acting user as ``actor`` and checks it again with
``require(actor, club, level, error)`` before it writes (free after ``club_view``:
the user's role was read with the club). ``actor=None`` is code that runs without a
user — a command, an import, the shell, a tournament table's private link (its view
checked the token) — and passes.
"""

from functools import cache, wraps

from django.db import connection
from django.utils.translation import gettext_lazy

from clubs.models import Club, Membership, Role
from core.access import refusal

LEVELS = {
    "read": {Role.MEMBER, Role.SCORER, Role.MANAGER},
    "score": {Role.SCORER, Role.MANAGER},
    "manage": {Role.MANAGER},
}


#: What a service says to an actor lacking the level (``require``), by level.
error_messages = {
    "score": gettext_lazy("Only a scorer or a manager of the club may do this."),
    "manage": gettext_lazy("Only a manager of the club may do this."),
}


def role_of(user, club) -> str | None:
    """The user's role in ``club`` (a club or its id), read once per user and club."""
    if not user.is_authenticated:
        return None
    club_id = getattr(club, "pk", club)
    cache = getattr(user, "_club_roles", None)
    if cache is None:
        cache = user._club_roles = {}
    if club_id not in cache:
        cache[club_id] = (
            Membership.objects.filter(user=user, club_id=club_id)
            .values_list("role", flat=True)
            .first()
        )
    return cache[club_id]


def require(actor, club, level: str, error) -> None:
    """Refuse ``actor`` unless they hold ``level`` ("score" or "manage") in ``club`` (a
    club or its id): ``error("forbidden", message)``, the calling service's error class.
    ``actor=None`` (code without a user) passes; a superuser always does."""
    if level not in ("score", "manage"):
        raise ValueError(level)
    if actor is None or (actor.is_authenticated and actor.is_superuser):
        return
    if role_of(actor, club) not in LEVELS[level]:
        raise error("forbidden", str(error_messages[level]))


def can(user, club, level: str) -> bool:
    if level not in LEVELS:
        raise ValueError(level)
    if user.is_authenticated and user.is_superuser:
        return True
    if level == "read" and club.is_public:
        return True
    return role_of(user, club) in LEVELS[level]


def _club_with_role(slug, user):
    """The club by its slug, with the user's role in it read in the same query (a
    subquery) and kept where ``role_of`` looks first.

    Its SQL is written once (``_club_with_role_sql``): every club page runs it, and the
    ORM took three times the query's own time to compile its subquery."""
    member = user.pk if user.is_authenticated else None  # no one: no role
    found = list(Club.objects.raw(_club_with_role_sql(), [member, slug]))
    club = found[0] if found else None
    if club is not None and member is not None:
        if getattr(user, "_club_roles", None) is None:
            user._club_roles = {}
        user._club_roles[club.pk] = club.user_role
    return club


#: The club by its slug with the user's role read in the same query (the API's gate).
club_with_role = _club_with_role


@cache
def _club_with_role_sql() -> str:
    """``SELECT club.*, (the user's role in it) AS user_role … WHERE slug = %s``."""
    quote = connection.ops.quote_name
    club, membership = quote(Club._meta.db_table), quote(Membership._meta.db_table)
    columns = ", ".join(f"{club}.{quote(f.column)}" for f in Club._meta.concrete_fields)
    role = (
        f"SELECT {quote('role')} FROM {membership} WHERE {membership}.{quote('club_id')} = "
        f"{club}.{quote('id')} AND {membership}.{quote('user_id')} = %s LIMIT 1"
    )
    return f"SELECT {columns}, ({role}) AS user_role FROM {club} WHERE {quote('slug')} = %s"


def club_view(level: str):
    """Decorate a view taking ``slug``: sets ``request.club`` and checks ``level``.

    A members-only club, to anyone but its members, answers as an unknown slug
    does: 404 for a logged-in stranger and for reads, the login page for an
    anonymous user on a score or manage URL (its existence is not revealed). A
    public club: the login page for an anonymous user who needs more than read;
    403 for a logged-in user lacking the role.
    """

    def decorator(view):
        @wraps(view)
        def wrapped(request, slug, *args, **kwargs):
            club = _club_with_role(slug, request.user)
            # an unknown slug answers as a members-only club does (anonymous writes:
            # the login page), so a private club is not revealed to strangers
            refused = refusal(request, club, level, can, login_for_hidden_writes=True)
            if refused is not None:
                return refused
            request.club = club
            request.club_role = role_of(request.user, club)
            return view(request, slug, *args, **kwargs)

        wrapped.club_level = level
        return wrapped

    return decorator
