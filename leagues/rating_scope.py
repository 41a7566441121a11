"""A league's ratings: the ``league:<id>`` scope of ``ratings``, added from above.

``ratings`` may not read a league's clubs, so this module registers the kind in the
app's ``ready()`` (``ratings.scopes.register``): the rows of a league are every
ledger row of its member clubs' sheets (tournament deals included: they are club
sheets), and a row is rated under its player's **person**, across clubs: under the
person's first player record (the smallest id) in the member clubs, or the player
itself when linked to no person. So ``Rating`` and ``RatingPoint`` stay keyed by a
player, with no migration.

Kept on write by ``ratings.keeping`` (a new hand is added to the league's ratings of
its players' persons, as to their club's: ``_identity_of`` maps the hand's players;
a correction, deletion, restore, import or merge re-rates from the first sheet
changed); and rated again from scratch here, in the write's transaction, when a
club joins or leaves the league (a ``LeagueClub`` accepted or deleted) or a player's
person link changes (a ``Player`` saved with ``update_fields`` naming ``person``).
"""

from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from clubs.models import Player
from leagues import queries as league_queries
from leagues.models import League, LeagueClub
from ratings import keeping, queries, scopes
from ratings.compute import State
from ratings.models import Rating

KIND = "league"


def key(league_id) -> str:
    return f"{KIND}:{league_id}"


def _member_clubs(league_id):
    return LeagueClub.objects.filter(league_id=league_id, accepted_at__isnull=False).values(
        "club_id"
    )


def _rows(league_id) -> Q:
    return Q(sheet__club_id__in=_member_clubs(league_id))


def _sheets(league_id) -> Q:
    return Q(club_id__in=_member_clubs(league_id))


def _of_club(club_id) -> list[str]:
    return [
        key(pk)
        for pk in LeagueClub.objects.filter(club_id=club_id, accepted_at__isnull=False)
        .order_by("league_id")
        .values_list("league_id", flat=True)
    ]


def _identity(league_id) -> dict:
    """{player id: the player the row is rated under} for the member clubs' players
    linked to a person (one query): the person's smallest player id there."""
    players = Player.objects.filter(
        club_id__in=_member_clubs(league_id), person__isnull=False
    ).values_list("pk", "person_id")
    first = {}
    pairs = list(players)
    for pk, person in pairs:
        if person not in first or pk < first[person]:
            first[person] = pk
    return {pk: first[person] for pk, person in pairs if first[person] != pk}


def _identity_of(league_id, players) -> dict:
    """``_identity`` for a few players (a new hand's), in one query: {player id: the
    player it is rated under} for those of ``players`` in a member club now (a player
    of a club that left is missing); the other member clubs' players of their persons
    are read to find each person's smallest id."""
    asked = set(players)
    persons = Player.objects.filter(pk__in=asked, person__isnull=False).values("person_id")
    found = list(
        Player.objects.filter(club_id__in=_member_clubs(league_id))
        .filter(Q(pk__in=asked) | Q(person_id__in=persons))
        .values_list("pk", "person_id")
    )
    first = {}
    for pk, person in found:
        if person is not None and (person not in first or pk < first[person]):
            first[person] = pk
    return {pk: pk if person is None else first[person] for pk, person in found if pk in asked}


def _lock(league_id) -> None:
    """The league's row, locked: two re-ratings of its scope (hands of two member clubs
    posted at once) take turns, the second reading the history the first wrote."""
    list(League.objects.select_for_update().filter(pk=league_id).values_list("pk"))


def register() -> None:
    scopes.register(
        KIND,
        scopes.Kind(
            rows=_rows,
            sheets=_sheets,
            of_club=_of_club,
            identity=_identity,
            lock=_lock,
            identity_of=_identity_of,
        ),
    )


def rerate_league(league_id) -> None:
    """Rate the league's scope again from scratch (its members or identities changed), in
    the caller's transaction or one of its own (a receiver of a save made outside one);
    over ``keeping.BACKGROUND_HANDS`` hands, by the background task (a club of 1,000,000
    hands joining took 126 s at load 6 in the request)."""
    with transaction.atomic():
        keeping.rerate_or_defer(key(league_id))


@receiver(post_save, sender=LeagueClub, dispatch_uid="leagues.rating_scope.club_saved")
def _club_saved(sender, instance, created, **kwargs):
    keeping.forget_club(instance.club_id)
    if instance.accepted_at is not None:  # joined (or its options changed: cheap enough)
        rerate_league(instance.league_id)


@receiver(post_delete, sender=LeagueClub, dispatch_uid="leagues.rating_scope.club_left")
def _club_deleted(sender, instance, **kwargs):
    keeping.forget_club(instance.club_id)
    # (the instance deleted may be one read before it was accepted: rated again anyway)
    rerate_league(instance.league_id)


@receiver(post_save, sender=Player, dispatch_uid="leagues.rating_scope.person_linked")
def _player_saved(sender, instance, created, update_fields=None, **kwargs):
    if created or not update_fields or "person" not in update_fields:
        return
    for scope in keeping.registered_of_club(instance.club_id):
        if scopes.parse(scope)[0] == KIND:
            rerate_league(scopes.parse(scope)[1])


# ---------------------------------------------------------------- the page's rows


def league_rows(league, *, viewer=None) -> tuple[list[dict], int]:
    """The league's ratings ranked by ordinal (``ratings.queries.rated_rows``): the
    persons (or unlinked players) rated ``MIN_HANDS`` hands or more, and how many are
    left out under it. Each row: ``rating`` (a ``RatedRow``), ``person_id`` and
    ``name``: the person's (the unlinked player's), None where the league may not name
    them as its ranking does (``queries.named_persons``: a public member club, a
    members-only one allowing it, the reader themself; an unlinked player by their
    own club). Three queries."""
    rated = list(
        Rating.objects.filter(scope=key(league.pk)).values_list(
            "player_id",
            "player__name",
            "player__person_id",
            "player__person__name",
            "player__club_id",
            "mu",
            "sigma",
            "hands",
        )
    )
    shown = [r for r in rated if r[7] >= queries.MIN_HANDS]
    persons = {r[2] for r in shown if r[2] is not None}
    named = league_queries.named_persons(league, persons, viewer) if persons else set()
    naming_clubs = set(
        LeagueClub.objects.filter(league=league, accepted_at__isnull=False)
        .filter(Q(club__is_public=True) | Q(names_players=True))
        .values_list("club_id", flat=True)
    )
    by_player = {}
    for player, name, person, person_name, club, _mu, _sigma, _hands in shown:
        may_name = person in named if person is not None else club in naming_clubs
        by_player[player] = (person, (person_name or name) if may_name else None)
    ranked = queries.rated_rows(
        (person_name or name, State(mu, sigma, hands), player)
        for player, name, _person, person_name, _club, mu, sigma, hands in shown
    )
    rows = [
        {"rating": r, "person_id": by_player[r.player_id][0], "name": by_player[r.player_id][1]}
        for r in ranked
    ]
    return rows, len(rated) - len(shown)
