"""Who may see a person named: the one rule every page, export, API answer, screen
and search asks.

A person (or a player linked to one) is named to a reader only when the reader may
read one of the clubs the person plays for (a public club: anyone; a members-only
club: its members), or one of those clubs lets a league the reader may read name its
players (``LeagueClub.names_players``). The person themself and a superuser always
see them. A guest's record in another club (``Player.is_guest``: a team match's away
player, a guest found across a league) does not make its person a player of that
club, so a members-only club's player entered as a guest of a public club stays
hidden; such a guest is entered there under a number (``tournaments.services.unnamed``),
so the other club's stored names, exports and backups never hold theirs.

A reader through an API token of one club (``reading_for``, set by ``api.auth``) is
asked as a member of that club would be: a token made for club A names what a member
of A may read (public clubs, club A while the user is still its member, the leagues
open to club A), never what its user reads through another club, a league they
manage elsewhere or a superuser's rights.

The leagues' tables are read through the reverse relations' names (``league_links``)
so that ``clubs`` imports nothing above it.
"""

from django.db.models import Q

from clubs.models import Person, Player


def reading_for(user, club_id):
    """``user`` reading through a token of the club ``club_id``: the rule asks as a
    member of that club (the same user object, marked; returned)."""
    user.visibility_club_id = club_id
    return user


def _token_club(user):
    """The club a token's reader reads for (``reading_for``), or ``None``."""
    return getattr(user, "visibility_club_id", None)


def _league_readable(user, prefix: str) -> Q:
    """``prefix`` + a league the user may read (public, managed, or a member club's);
    through a token: public, or one its club is a member of."""
    readable = Q(**{f"{prefix}is_public": True})
    club_id = _token_club(user)
    if club_id is not None:
        readable |= Q(
            **{
                f"{prefix}club_links__club_id": club_id,
                f"{prefix}club_links__club__memberships__user": user,
                f"{prefix}club_links__accepted_at__isnull": False,
            }
        )
    elif user is not None and user.is_authenticated:
        readable |= Q(**{f"{prefix}managers__user": user})
        readable |= Q(
            **{
                f"{prefix}club_links__club__memberships__user": user,
                f"{prefix}club_links__accepted_at__isnull": False,
            }
        )
    return readable


def naming_players(user, league=None) -> Q:
    """The condition on ``Player`` rows that name their person to ``user``: a player
    (not a guest's record) of a club the user may read, or of a club that lets a league
    the user may read (``league``: that league only) name its players."""
    clubs = Q(club__is_public=True)
    club_id = _token_club(user)
    if club_id is not None:  # through a token: its club only, while a member of it
        clubs |= Q(club_id=club_id, club__memberships__user=user)
    elif user is not None and user.is_authenticated:
        clubs |= Q(club__memberships__user=user)
    naming = Q(
        club__league_links__names_players=True, club__league_links__accepted_at__isnull=False
    )
    if league is not None:
        naming &= Q(club__league_links__league=league)
    else:
        naming &= _league_readable(user, "club__league_links__league__")
    return Q(is_guest=False) & (clubs | naming)


def _sees_all(user) -> bool:
    """A superuser on the site's pages (not through a token: it reads as its club's)."""
    return (
        user is not None
        and user.is_authenticated
        and user.is_superuser
        and _token_club(user) is None
    )


def _own(user):
    """The person that is ``user`` (its id), or ``None``."""
    if user is None or not user.is_authenticated:
        return None
    if not hasattr(user, "_own_person"):
        user._own_person = Person.objects.filter(user=user).values_list("pk", flat=True).first()
    return user._own_person


def named_person_ids(user, person_ids, *, league=None) -> set[int]:
    """Of ``person_ids``, those named to ``user`` (``None``: an anonymous reader)."""
    person_ids = {p for p in person_ids if p is not None}
    if not person_ids:
        return set()
    if _sees_all(user):
        return person_ids
    named = set(
        Player.objects.filter(person_id__in=person_ids)
        .filter(naming_players(user, league))
        .values_list("person_id", flat=True)
        .distinct()
    )
    own = _own(user)
    if own in person_ids:
        named.add(own)
    return named


def visible_persons(user):
    """Every person named to ``user``, as a queryset (searches, autocompletes)."""
    if _sees_all(user):
        return Person.objects.all()
    named = Player.objects.filter(naming_players(user)).values("person_id")
    found = Q(pk__in=named)
    if user is not None and user.is_authenticated:
        found |= Q(user=user)
    return Person.objects.filter(found)


def is_named(user, person) -> bool:
    """``person`` (a person or its id) is named to ``user``."""
    pk = getattr(person, "pk", person)
    return pk in named_person_ids(user, {pk})


def named_to_everyone(person) -> bool:
    """``person`` is named to an anonymous reader (what a public page may print)."""
    return is_named(None, person)
