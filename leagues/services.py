"""Every write to a league, its events and the links of players to persons.

Verb functions, one transaction each, ``actor=`` keyword, ``LeagueError`` from
``error_messages``. League-side changes are ``LeagueAuditEntry`` rows; a change to a
club's side (joining, counting a tournament, linking a player) is also the club's
audit entry (``clubs.audit``).

Per-event results are stored once (``store_results``): when a closed tournament is
counted, or when a counted tournament closes (``leagues.receivers``), from the
tournament's ranking (``tournaments.queries.ranking``, read from its stored totals).
"""

import datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit, visibility
from clubs.models import Club, Person, Player
from clubs.permissions import require as require_club
from core.errors import ServiceError
from core.text import sort_key
from leagues import permissions, scales, season_standings
from leagues.models import (
    EventResult,
    League,
    LeagueAuditEntry,
    LeagueClub,
    LeagueEvent,
    LeagueManager,
    LeagueSeason,
    LinkClaim,
)
from tournaments import published
from tournaments.models import Tournament

error_messages = {
    "name_required": _lazy("A name is required."),
    "slug_taken": _lazy("Another league already has this address."),
    "already_invited": _lazy("%(club)s is already invited to this league."),
    "not_invited": _lazy("This club is not invited to this league."),
    "not_member": _lazy("%(club)s is not a member club of this league."),
    "season_name_taken": _lazy("The league already has a season of this name."),
    "dates_inverted": _lazy("A season ends after it starts."),
    "scale_invalid": _lazy("%(message)s"),
    "count_invalid": _lazy("Type a whole number from 1, or leave it empty."),
    "series_invalid": _lazy("Give one to twenty séries, each named once."),
    "coefficient_invalid": _lazy("A coefficient is a number above 0 and at most 100."),
    "already_counted": _lazy("This tournament already counts in this season."),
    "outside_season": _lazy("This tournament is not played within the season's dates."),
    "withdrawn": _lazy("This event was withdrawn from the season."),
    "licence_required": _lazy("Type a licence number."),
    "licence_taken": _lazy("The licence %(licence)s is another person's."),
    "player_linked": _lazy("%(player)s is already linked to another person."),
    "not_league_player": _lazy("This player is not of a member club of the league."),
    "already_claimed": _lazy("You have already claimed this player."),
    "merged_player": _lazy("This player was merged into another."),
    "not_yours": _lazy("Only this login may change its own licence."),
    "login_required": _lazy("Log in to claim a player."),
    "creation_closed": _lazy("This site does not let its users create leagues."),
    "already_member": _lazy("%(club)s is a member of this league already."),
}


class LeagueError(ServiceError):
    error_messages = error_messages


def _record(league, actor, action, label="", after=None):
    LeagueAuditEntry.objects.create(
        league=league,
        actor=audit.actor_of(actor),
        action=action,
        label=str(label)[:200],
        after=after,
    )


def _leagues_of_clubs(club_ids) -> list[League]:
    """The leagues any of ``club_ids`` is a member of (one query)."""
    return list(
        League.objects.filter(
            club_links__club_id__in=list(club_ids), club_links__accepted_at__isnull=False
        ).distinct()
    )


def _name(value, code="name_required", field="name", max_length=80) -> str:
    value = (value or "").strip()
    if not value:
        raise LeagueError(code, field=field)
    return value[:max_length]


# ---------------------------------------------------------------- the league


def may_create_league(user) -> bool:
    """A superuser always; any logged-in user where the site allows it
    (``settings.ALLOW_LEAGUE_CREATION``)."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or bool(getattr(settings, "ALLOW_LEAGUE_CREATION", False))


def _free_slug(name, slug) -> str:
    """``slug`` (or the name's), numbered when another league has it."""
    base = slugify(slug or name)[:55] or "league"
    if base == "new":  # the creation page's address
        base = "new-league"
    taken = set(League.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def create_league(name, slug="", *, is_public=True, managers=(), actor=None) -> League:
    """A new league, ``actor`` (and ``managers``) its managers. Commands (``actor`` None),
    superusers, and logged-in users where the site allows it. A ``slug`` given is
    refused when taken; without one, the name's is numbered until free. Two creations
    racing for one address: the second is refused (``slug_taken``), never a 500."""
    if actor is not None and not may_create_league(actor):
        raise LeagueError("creation_closed")
    name = _name(name)
    with transaction.atomic():
        if slug and League.objects.filter(slug=slug).exists():
            raise LeagueError("slug_taken", field="slug")
        try:
            with transaction.atomic():  # a savepoint: the race's loser is refused cleanly
                league = League.objects.create(
                    name=name, slug=slug or _free_slug(name, slug), is_public=is_public
                )
        except IntegrityError:
            raise LeagueError("slug_taken", field="slug") from None
        for user in {*managers, *([actor] if actor is not None else [])}:
            LeagueManager.objects.create(league=league, user=user)
        _record(league, actor, "league_created", name)
    return league


def set_series(league, series, *, actor=None) -> League:
    """The league's categories, in order (a person's série outside them ranks overall)."""
    permissions.require(actor, league, LeagueError)
    if isinstance(series, str):
        series = [s.strip() for s in series.replace(",", "\n").splitlines()]
    series = [s.strip()[:30] for s in series if s and s.strip()]
    if not 1 <= len(series) <= 20 or len(set(series)) != len(series):
        raise LeagueError("series_invalid", field="series")
    with transaction.atomic():
        league.series = series
        league.save(update_fields=["series"])
        _record(league, actor, "series_changed", ", ".join(series), {"series": series})
    return league


def invite_club(league, club, *, actor=None) -> LeagueClub:
    """A league manager invites a club; it is a member once its manager accepts. A club
    that declined may be invited again."""
    permissions.require(actor, league, LeagueError)
    with transaction.atomic():
        if LeagueClub.objects.filter(league=league, club=club).exists():
            raise LeagueError("already_invited", field="club", club=club.name)
        try:
            with transaction.atomic():
                link = LeagueClub.objects.create(league=league, club=club)
        except IntegrityError:  # the same club invited twice at once
            raise LeagueError("already_invited", field="club", club=club.name) from None
        _record(league, actor, "club_invited", club.name, {"club": club.slug})
        audit.record(
            club,
            actor,
            audit.Action.LEAGUE_INVITED,
            label=league.name,
            after={"league": league.name},
        )
    return link


def _pending(link) -> LeagueClub:
    link = LeagueClub.objects.select_for_update().select_related("league", "club").get(pk=link.pk)
    if link.accepted_at is not None:
        raise LeagueError("already_member", club=link.club.name)
    return link


def cancel_invitation(link: LeagueClub, *, actor=None) -> None:
    """A league manager takes back an invitation not accepted yet."""
    permissions.require(actor, link.league, LeagueError)
    _withdraw(link, actor, "invitation_cancelled", audit.Action.LEAGUE_INVITATION_CANCELLED)


def decline_invitation(link: LeagueClub, *, actor=None) -> None:
    """The club's manager declines its league's invitation (the league may invite again)."""
    require_club(actor, link.club, "manage", LeagueError)
    _withdraw(link, actor, "invitation_declined", audit.Action.LEAGUE_DECLINED)


def _withdraw(link, actor, league_action, club_action) -> None:
    """An invitation not accepted goes, written in the league's and the club's history."""
    with transaction.atomic():
        link = _pending(link)
        _record(link.league, actor, league_action, link.club.name)
        audit.record(
            link.club,
            actor,
            club_action,
            label=link.league.name,
            before={"league": link.league.name},
        )
        link.delete()


def accept_invitation(link: LeagueClub, *, names_players=False, actor=None) -> LeagueClub:
    """The club's manager accepts its league's invitation."""
    require_club(actor, link.club, "manage", LeagueError)
    with transaction.atomic():
        link = LeagueClub.objects.select_for_update().get(pk=link.pk)
        if link.accepted_at is None:
            link.accepted_at = timezone.now()
        link.names_players = bool(names_players)
        link.save(update_fields=["accepted_at", "names_players"])
        audit.record(
            link.club,
            actor,
            audit.Action.LEAGUE_JOINED,
            label=link.league.name,
            after={"league": link.league.name, "names_players": link.names_players},
        )
        _record(link.league, actor, "club_joined", link.club.name)
    return link


def leave_league(link: LeagueClub, *, actor=None) -> None:
    """The club leaves (its manager) or is removed (a league manager); stored results stay
    with their events, which stop counting only if withdrawn."""
    if not permissions.is_manager(actor, link.league) or actor is None:
        require_club(actor, link.club, "manage", LeagueError)
    with transaction.atomic():
        _record(link.league, actor, "club_left", link.club.name)
        link.delete()


# ---------------------------------------------------------------- seasons


def _count(value, field):
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise LeagueError("count_invalid", field=field) from None
    if not 1 <= number <= 1000:
        raise LeagueError("count_invalid", field=field)
    return number


def _scale(scale):
    try:
        return scales.parse_scale(scale)
    except scales.ScaleError as error:
        raise LeagueError("scale_invalid", field="scale", message=error.message) from None


def save_season(
    league,
    *,
    name,
    start_date,
    end_date=None,
    scale=None,
    best_events=None,
    qualified=None,
    season=None,
    actor=None,
) -> LeagueSeason:
    """Create (``season`` None) or change a league season. A changed scale recomputes the
    stored points of its events (from their stored ranks: no ledger read)."""
    permissions.require(actor, league, LeagueError)
    name = _name(name)
    if not isinstance(start_date, datetime.date):
        raise LeagueError("dates_inverted", field="start_date")
    if end_date is not None and end_date < start_date:
        raise LeagueError("dates_inverted", field="end_date")
    scale = _scale(scale if scale is not None else {"kind": "proportional", "points": 100})
    best_events, qualified = _count(best_events, "best_events"), _count(qualified, "qualified")
    with transaction.atomic():
        clash = LeagueSeason.objects.filter(league=league, name=name)
        if season is not None:
            clash = clash.exclude(pk=season.pk)
        if clash.exists():
            raise LeagueError("season_name_taken", field="name")
        if season is None:
            season = LeagueSeason(league=league)
        rescore = season.pk is not None and season.scale != scale
        resum = season.pk is not None and (rescore or season.best_events != best_events)
        season.name, season.start_date, season.end_date = name, start_date, end_date
        season.scale, season.best_events, season.qualified = scale, best_events, qualified
        season.save()
        if rescore:
            for event in season.events.all():
                _rescore(event, season)
        if resum:
            season_standings.restand(season)
        _record(
            league,
            actor,
            "season_saved",
            name,
            {"scale": scale, "best_events": best_events, "qualified": qualified},
        )
    return season


# ---------------------------------------------------------------- events


def _coefficient(value) -> Decimal:
    try:
        number = Decimal(str(value).replace(",", ".").strip())
    except (InvalidOperation, ValueError):
        raise LeagueError("coefficient_invalid", field="coefficient") from None
    if not number.is_finite() or number <= 0 or number > 100:
        raise LeagueError("coefficient_invalid", field="coefficient")
    return number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _member_link(league, club):
    link = LeagueClub.objects.filter(league=league, club=club, accepted_at__isnull=False).first()
    if link is None:
        raise LeagueError("not_member", field="club", club=club.name)
    return link


def register_event(season, tournament: Tournament, *, coefficient=1, actor=None) -> LeagueEvent:
    """The club's manager counts one of its tournaments in a season of a league the club
    belongs to. A tournament already closed has its results stored now."""
    require_club(actor, tournament.club, "manage", LeagueError)
    coefficient = _coefficient(coefficient)
    with transaction.atomic():
        tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
        _member_link(season.league, tournament.club)
        if season.start_date > tournament.date or (
            season.end_date is not None and tournament.date > season.end_date
        ):
            raise LeagueError("outside_season", field="tournament")
        if LeagueEvent.objects.filter(season=season, tournament=tournament).exists():
            raise LeagueError("already_counted", field="tournament")
        event = LeagueEvent.objects.create(
            season=season, tournament=tournament, coefficient=coefficient
        )
        if tournament.is_closed:
            store_results(event, published.ranking(tournament))
        audit.record(
            tournament.club,
            actor,
            audit.Action.LEAGUE_EVENT,
            tournament,
            after={
                "league": season.league.name,
                "season": season.name,
                "coefficient": str(coefficient),
            },
        )
        _record(
            season.league, actor, "event_added", tournament.name, {"coefficient": str(coefficient)}
        )
    return event


def _event_actor(event, actor):
    """A league manager, or the manager of the event's club."""
    if actor is None or permissions.is_manager(actor, event.season.league):
        return
    require_club(actor, event.tournament.club_id, "manage", LeagueError)


def set_coefficient(event: LeagueEvent, coefficient, *, actor=None) -> LeagueEvent:
    _event_actor(event, actor)
    coefficient = _coefficient(coefficient)
    with transaction.atomic():
        event = LeagueEvent.objects.select_for_update().get(pk=event.pk)
        event.coefficient = coefficient
        event.save(update_fields=["coefficient"])
        _rescore(event, event.season)
        season_standings.restand(event.season, _event_persons(event))
        _record(
            event.season.league,
            actor,
            "coefficient_changed",
            event.tournament.name,
            {"coefficient": str(coefficient)},
        )
    return event


def withdraw_event(event: LeagueEvent, *, actor=None) -> LeagueEvent:
    """The event stops counting (its stored results stay, for the record)."""
    _event_actor(event, actor)
    with transaction.atomic():
        event = LeagueEvent.objects.select_for_update().get(pk=event.pk)
        if event.withdrawn_at is not None:
            raise LeagueError("withdrawn")
        event.withdrawn_at = timezone.now()
        event.save(update_fields=["withdrawn_at"])
        season_standings.restand(event.season, _event_persons(event))
        audit.record(
            event.tournament.club_id,
            actor,
            audit.Action.LEAGUE_EVENT,
            event.tournament,
            after={"league": event.season.league.name, "withdrawn": True},
        )
        _record(event.season.league, actor, "event_withdrawn", event.tournament.name)
    return event


def _quantize(value) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.001"), rounding=ROUND_HALF_UP
    )


def _event_persons(event) -> set:
    return set(event.results.values_list("person_id", flat=True))


def store_results(event: LeagueEvent, ranking: list[dict]) -> list[EventResult]:
    """The event's per-entry results, from its tournament's ranking rows (``player_id``,
    ``name``, ``rank``, ``total``): placement points from the season's scale. Called in
    the caller's transaction (counting a closed tournament, closing a counted one)."""
    persons = dict(
        Player.objects.filter(pk__in=[row["player_id"] for row in ranking]).values_list(
            "pk", "person_id"
        )
    )
    points = scales.points_of_ranks(event.season.scale, [row["rank"] for row in ranking])
    before = set(EventResult.objects.filter(event=event).values_list("person_id", flat=True))
    EventResult.objects.filter(event=event).delete()
    results = [
        EventResult(
            event=event,
            season_id=event.season_id,
            player_id=row["player_id"],
            person_id=persons.get(row["player_id"]),
            name=row["name"][:80],
            rank=row["rank"],
            total=row.get("total"),
            points=_quantize(p),
            weighted=_quantize(p * _fraction(event.coefficient)),
            exact=str(p * _fraction(event.coefficient)),
        )
        for row, p in zip(ranking, points, strict=True)
    ]
    EventResult.objects.bulk_create(results)
    event.field_size = len(ranking)
    event.results_at = timezone.now()
    event.save(update_fields=["field_size", "results_at"])
    season_standings.restand(event.season, before | {r.person_id for r in results})
    return results


def _fraction(decimal):
    return Fraction(str(decimal))


def _rescore(event, season):
    """Points and weighted points again from the stored ranks (a new scale or coefficient)."""
    results = list(event.results.all())
    points = scales.points_of_ranks(season.scale, [r.rank for r in results])
    for result, p in zip(results, points, strict=True):
        result.points = _quantize(p)
        result.weighted = _quantize(p * _fraction(event.coefficient))
        result.exact = str(p * _fraction(event.coefficient))
    EventResult.objects.bulk_update(results, ["points", "weighted", "exact"])


# ---------------------------------------------------------------- persons


def _relink_results(player, person):
    """Stored results follow the player's link, and their seasons' sums (kept on write)."""
    results = EventResult.objects.filter(player=player)
    seasons = set(results.values_list("season_id", "person_id"))
    results.update(person=person)
    for season in LeagueSeason.objects.filter(pk__in={s for s, _ in seasons}):
        season_standings.restand(season, {p for s, p in seasons if s == season.pk} | {person.pk})


def _link(player, person, actor, action=audit.Action.PERSON_LINKED, **after):
    if player.merged_into_id is not None:
        raise LeagueError("merged_player", field="player")
    if player.person_id not in (None, person.pk):
        raise LeagueError("player_linked", field="player", player=player.name)
    player.person = person
    player.save(update_fields=["person"])
    _relink_results(player, person)
    audit.record(
        player.club_id,
        actor,
        action,
        player,
        after={"person": person.name, "licence": person.licence, **after},
    )


def link_player(player: Player, person: Person, *, actor=None) -> None:
    """Link ``player`` (read under its lock by the caller) to ``person``, in the caller's
    transaction (``leagues.licences``' import): the club's audit entry, the results'
    sums. The caller checked the actor's rights."""
    _link(player, person, actor)


def link_by_licence(league, player: Player, licence, *, name="", serie="", actor=None) -> Person:
    """A league manager links a member club's player to the person of ``licence``
    (created, named after the player, when the licence is new)."""
    permissions.require(actor, league, LeagueError)
    licence = (licence or "").strip()[:20]
    if not licence:
        raise LeagueError("licence_required", field="licence")
    with transaction.atomic():
        if not LeagueClub.objects.filter(
            league=league, club_id=player.club_id, accepted_at__isnull=False
        ).exists():
            raise LeagueError("not_league_player", field="player")
        player = Player.objects.select_for_update().get(pk=player.pk)
        person = Person.objects.filter(licence=licence).first()
        if person is None:
            try:
                with transaction.atomic():
                    person = Person.objects.create(
                        licence=licence, name=(name or player.name).strip()[:80], serie=serie[:30]
                    )
            except IntegrityError:  # created meanwhile (an import, another link): theirs
                person = Person.objects.get(licence=licence)
        if serie and person.serie != serie[:30]:
            person.serie = serie[:30]
            person.save(update_fields=["serie"])
            season_standings.rerank_persons([person.pk])  # the série's ranks are kept
        _link(player, person, actor)
        _record(league, actor, "player_linked", f"{player.name} → {person}")
    return person


PERSON_FIELDS = ("name", "licence", "serie")


def set_person(user, *, name, licence="", serie="", actor=None) -> Person:
    """My account: the login's own person (its name, licence and série), created once.

    ``actor``: the login themself (``None``: code). A change is an audit entry of each
    club holding one of the person's players (``PERSON_CHANGED``, before and after) and
    of each league those clubs belong to, since the licence and the série are what the
    league reads; a person linked to no player yet is in no club's or league's data,
    so nothing of theirs is recorded until a link is (``PERSON_LINKED``, with the licence)."""
    if actor is not None and actor.pk != user.pk and not actor.is_superuser:
        raise LeagueError("not_yours", field="licence")
    name = _name(name)
    licence = (licence or "").strip()[:20] or None
    with transaction.atomic():
        person = Person.objects.select_for_update().filter(user=user).first()
        if licence and Person.objects.filter(licence=licence).exclude(user=user).exists():
            raise LeagueError("licence_taken", field="licence", licence=licence)
        if person is None:
            person = Person(user=user)
        before = {f: getattr(person, f) for f in PERSON_FIELDS} if person.pk else None
        person.name, person.licence, person.serie = name, licence, (serie or "").strip()[:30]
        after = {f: getattr(person, f) for f in PERSON_FIELDS}
        if before == after:
            return person
        try:
            with transaction.atomic():
                person.save()
        except IntegrityError:  # the licence given to another person meanwhile
            if licence and Person.objects.filter(licence=licence).exclude(user=user).exists():
                raise LeagueError("licence_taken", field="licence", licence=licence) from None
            raise
        if before is not None:
            _record_person_change(person, before, after, actor)
            if before["serie"] != after["serie"]:
                season_standings.rerank_persons([person.pk])  # the série's ranks are kept
    return person


def _record_person_change(person, before, after, actor):
    changed = [f for f in PERSON_FIELDS if before[f] != after[f]]
    before = {f: before[f] for f in changed}
    after = {f: after[f] for f in changed}
    clubs = set(person.players.values_list("club_id", flat=True))
    for club_id in sorted(clubs):
        audit.record(
            club_id,
            actor,
            audit.Action.PERSON_CHANGED,
            person,
            label=str(person),
            before=before,
            after=after,
        )
    for league in _leagues_of_clubs(clubs):
        _record(league, actor, "person_changed", str(person), {"before": before, "after": after})


def claim_player(player: Player, *, actor) -> LinkClaim:
    """The login claims one of a club's players as theirs; the club's manager confirms.
    The claim is an entry of the club's audit (``CLAIM_MADE``)."""
    if actor is None or not actor.is_authenticated:
        raise LeagueError("login_required", field="player")
    if player.merged_into_id is not None:
        raise LeagueError("merged_player", field="player")
    with transaction.atomic():
        if LinkClaim.objects.filter(player=player, user=actor).exists():
            raise LeagueError("already_claimed", field="player")
        claim = LinkClaim.objects.create(player=player, user=actor)
        audit.record(
            player.club_id,
            actor,
            audit.Action.CLAIM_MADE,
            player,
            after={"login": actor.get_username()},
        )
    return claim


def confirm_claim(claim: LinkClaim, *, actor=None) -> Person:
    """The club's manager confirms a claim: the player is linked to the claimant's person
    (made from the login's name when they have none yet). The club's audit entry is the
    link's (``CLAIM_ACCEPTED``, naming the login); each of the club's leagues records it
    too, since the player's stored results now count for that person."""
    require_club(actor, claim.player.club_id, "manage", LeagueError)
    with transaction.atomic():
        person = Person.objects.filter(user=claim.user).first()
        if person is None:
            person = Person.objects.create(
                user=claim.user, name=claim.user.get_full_name() or claim.player.name
            )
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        _link(player, person, actor, audit.Action.CLAIM_ACCEPTED, login=claim.user.get_username())
        for league in _leagues_of_clubs([player.club_id]):
            _record(league, actor, "claim_accepted", f"{player.name} → {person}")
        claim.delete()
    return person


def reject_claim(claim: LinkClaim, *, actor=None) -> None:
    """The club's manager refuses a claim (``CLAIM_REFUSED`` in the club's audit)."""
    require_club(actor, claim.player.club_id, "manage", LeagueError)
    with transaction.atomic():
        audit.record(
            claim.player.club_id,
            actor,
            audit.Action.CLAIM_REFUSED,
            claim.player,
            after={"login": claim.user.get_username()},
        )
        claim.delete()


def find_persons(club, text, limit=20, *, viewer=None) -> list[Person]:
    """Tournament registration: persons of every league ``club`` belongs to, by licence
    (exact) or name (contains), for entering a guest without retyping; only those named
    to ``viewer`` (``clubs.visibility``; ``None``: as to an anonymous reader). Characters
    nobody types (a NUL, which PostgreSQL refuses in text) are left out of the search."""
    text = "".join(ch for ch in (text or "") if ch.isprintable()).strip()
    if not text:
        return []
    leagues = League.objects.filter(club_links__club=club, club_links__accepted_at__isnull=False)
    clubs = Club.objects.filter(
        league_links__league__in=leagues, league_links__accepted_at__isnull=False
    )
    persons = (
        visibility.visible_persons(viewer)
        .filter(players__club__in=clubs, players__is_guest=False)
        .distinct()
    )
    found = list(persons.filter(licence=text)[:limit])
    if not found:
        found = list(persons.filter(sort_key__contains=sort_key(text))[:limit])
    return found
