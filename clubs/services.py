"""Every write to a club's members, settings and seasons: verb functions, one transaction each.

Each raises ``ClubError`` (with a machine-readable ``code``) and writes nothing
when it refuses. ``actor`` is the user acting, authorised the one way
(``clubs.permissions.require``): a manager of the club for every verb but
``create_player`` (a scorer too: the sheet form names new players), or a
superuser; ``None`` only from code that runs without a request (commands, the
shell). Writes that touch the managers of a club lock the club's row first, so
two managers demoting each other at once cannot leave the club without one.

Codes: ``forbidden``, ``role_invalid``, ``last_manager``, ``not_a_member``,
``player_not_in_club``, ``player_taken``, ``already_member``, ``email_invalid``,
``mail_failed`` (these three raised by ``clubs.invitations``),
``name_required``, ``name_too_long``, ``season_name_taken``, ``date_required``,
``dates_inverted``, ``rules_invalid`` (from ``parse_rules``, with its field),
``name_invalid``, ``player_exists``, ``ranking_invalid``, ``player_merged``.

Every change is an ``AuditEntry`` (``clubs.audit.record``) written in the
change's transaction: who, when, the object before and after.
"""

import logging
import re
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit, refusals
from clubs.models import Club, Membership, Player, Role, Season
from clubs.permissions import require
from clubs.ranking_rule import RankingError, parse_ranking
from core.errors import ServiceError
from core.text import edit_distance, looks_alike, loose_key, name_key  # noqa: F401 (re-exported)
from tarot import ScoringError
from tarot.jsonformat import parse_rules

log = logging.getLogger("clubs.audit")

NAME_MAX = {"club": Club._meta.get_field("name").max_length}
NAME_MAX["season"] = Season._meta.get_field("name").max_length
NAME_MAX["player"] = Player._meta.get_field("name").max_length


#: The refusals of this module, by code (``core.errors``); a code worded two ways has
#: its second wording under ``code.variant`` (raised with ``wording=``). ``forbidden``
#: is worded by ``clubs.permissions``; ``rules_invalid`` and ``ranking_invalid`` come
#: from the rules' and the ranking's parsers with their own messages.
error_messages = {
    "not_a_member": _lazy("%(user)s is not a member of this club."),
    "not_a_member.which_club": _lazy("Say which club to unlink from."),
    "player_not_in_club": _lazy("This player is not of this club."),
    "player_taken": _lazy("%(player)s is already linked to %(user)s."),
    "player_exists": _lazy("The club already has a player called %(name)s."),
    "player_exists.merge": _lazy(
        "The club already has a player called %(name)s: merge them instead."
    ),
    "player_merged": _lazy(
        "This player was merged into another: undo the merge to bring them back."
    ),
    "name_invalid": _lazy("A player's name cannot hold control characters."),
    "name_invalid.not_text": _lazy("A player's name must be text."),
    "role_invalid": _lazy("Choose manager, scorer or member."),
    "last_manager": _lazy("A club keeps at least one manager: make somebody else manager first."),
    "name_required": _lazy("Give it a name."),
    "name_too_long": _lazy("At most %(n)d characters."),
    "date_required": _lazy("A season needs a start date."),
    "dates_inverted": _lazy("The end comes before the start."),
    "season_name_taken": _lazy("The club already has a season of this name."),
}


class ClubError(ServiceError):
    """A write to a club, its members or seasons refused (``code``, ``message``, ``field``)."""

    error_messages = error_messages
    #: a season's rules the engine refuses, in the page's language
    scoring_wording = staticmethod(refusals.message_of)

    def __repr__(self) -> str:
        return f"ClubError({self.code!r}, {self.message!r}, field={self.field!r})"


# ---------------------------------------------------------------- members


def change_role(membership: Membership, role: str, *, actor) -> Membership:
    """Make a member manager, scorer or member. A club keeps at least one manager."""
    require(actor, membership.club, "manage", ClubError)
    _check_role(role)
    with transaction.atomic():
        _lock(membership.club)
        membership = Membership.objects.select_for_update().get(pk=membership.pk)
        if membership.role == role:
            return membership
        if membership.role == Role.MANAGER:
            _keep_a_manager(membership, "role")
        old, membership.role = membership.role, role
        membership.save(update_fields=["role"])
        audit.record(
            membership.club_id,
            actor,
            audit.Action.ROLE_CHANGED,
            membership,
            label=membership.user.get_username(),
            before={"role": old},
            after={"role": role},
        )
    _forget_roles(membership.user, actor)
    log.info(
        "%s changed %s in %s from %s to %s", actor, membership.user, membership.club.slug, old, role
    )
    return membership


def remove_member(membership: Membership, *, actor) -> None:
    """Take a login out of the club (and off the player it was linked to there).

    Their players and every hand stay on the ledger; only the login's access goes.
    """
    require(actor, membership.club, "manage", ClubError)
    with transaction.atomic():
        _lock(membership.club)
        membership = Membership.objects.select_for_update().get(pk=membership.pk)
        if membership.role == Role.MANAGER:
            _keep_a_manager(membership, None)
        linked = Player.objects.filter(club_id=membership.club_id, user_id=membership.user_id)
        before = {
            "user": membership.user.get_username(),
            "role": membership.role,
            "player": next(iter(linked.values_list("name", flat=True)), None),
        }
        linked.update(user=None)
        audit.record(
            membership.club_id,
            actor,
            audit.Action.MEMBER_REMOVED,
            membership,
            label=membership.user.get_username(),
            before=before,
        )
        membership.delete()
    _forget_roles(membership.user, actor)
    log.info("%s removed %s from %s", actor, membership.user, membership.club.slug)


def link_player(target, player: Player | None, *, actor, club: Club | None = None):
    """Link a member's login to one player of the club (``player=None`` unlinks).

    ``target`` is a ``Membership`` or a user; with a user and no player, pass
    ``club``. A login is linked to at most one player per club: linking another
    moves the link. Returns the player linked (or ``None``).
    """
    if isinstance(target, Membership):
        user, club = target.user, target.club
    else:
        user = target
        club = club or (player.club if player is not None else None)
        if club is None:
            raise ClubError("not_a_member", field="player", wording="not_a_member.which_club")
    require(actor, club, "manage", ClubError)
    if player is not None and player.club_id != club.pk:
        raise ClubError("player_not_in_club", field="player")
    with transaction.atomic():
        _lock(club)
        if not Membership.objects.filter(club=club, user=user).exists():
            raise ClubError("not_a_member", field="player", user=user.get_username())
        if player is not None:
            player = Player.objects.select_for_update().get(pk=player.pk)
            if player.user_id not in (None, user.pk):
                raise ClubError(
                    "player_taken",
                    field="player",
                    player=player.name,
                    user=player.user.get_username(),
                )
        current = Player.objects.filter(club=club, user=user)
        was = next(iter(current.values_list("name", flat=True)), None)
        if player is not None:
            current = current.exclude(pk=player.pk)
        current.update(user=None)
        if player is not None and player.user_id != user.pk:
            player.user = user
            player.save(update_fields=["user"])
        now = player.name if player is not None else None
        if now != was:
            audit.record(
                club,
                actor,
                audit.Action.PLAYER_LINKED,
                player,
                label=user.get_username(),
                before={"user": user.get_username(), "player": was},
                after={"user": user.get_username(), "player": now},
            )
    log.info("%s linked %s in %s to %s", actor, user, club.slug, player)
    return player


def update_member(membership: Membership, *, role: str, player: Player | None, actor) -> Membership:
    """A row of the members' table: the member's role and the player their login is
    linked to, changed together in one transaction (both or neither); either is
    left alone when it does not change."""
    with transaction.atomic():
        if role != membership.role:
            change_role(membership, role, actor=actor)
        linked = Player.objects.filter(club_id=membership.club_id, user_id=membership.user_id)
        if player != linked.first():
            link_player(membership, player, actor=actor)
    return membership


# ---------------------------------------------------------------- the club


def update_club(club: Club, name: str, is_public: bool, *, actor) -> Club:
    """Rename the club and make it public or members-only. The slug (its URLs) stays."""
    require(actor, club, "manage", ClubError)
    name = _name(name, NAME_MAX["club"])
    with transaction.atomic():
        club = _lock(club)
        before = {"name": club.name, "public": club.is_public}
        club.name = name
        club.is_public = bool(is_public)
        club.save(update_fields=["name", "is_public"])
        after = {"name": club.name, "public": club.is_public}
        if after != before:
            audit.record(club, actor, audit.Action.CLUB_UPDATED, club, before=before, after=after)
    log.info("%s updated %s: name=%r public=%s", actor, club.slug, name, club.is_public)
    return club


# ---------------------------------------------------------------- seasons


def create_season(
    club: Club, name: str, start_date, end_date, rules, *, actor, ranking=None
) -> Season:
    """A new season with its house rules (a preset name or options dict; ``None``: fft)
    and its ranking rule (``clubs.ranking_rule``; ``None``: by total).

    The rules are validated by the scoring engine and stored in their short form.
    """
    require(actor, club, "manage", ClubError)
    name, rules = _season_fields(name, start_date, end_date, rules)
    ranking = _ranking(ranking)
    with transaction.atomic():
        club = _lock(club)
        _unique_season_name(club, name, None)
        season = Season.objects.create(
            club=club,
            name=name,
            start_date=start_date,
            end_date=end_date,
            rules=rules,
            ranking=ranking,
        )
        audit.record(club, actor, audit.Action.SEASON_CREATED, season, after=_season_state(season))
    log.info("%s created season %r of %s with %s", actor, name, club.slug, rules)
    return season


def update_season(
    season: Season, name: str, start_date, end_date, rules, *, actor, ranking=None
) -> Season:
    """Rename a season, move its dates, change its house rules and ranking rule
    (``ranking=None`` keeps it).

    Sheets already created keep the rules frozen on them: new rules apply to
    the sheets opened from now on. A new ranking rule ranks the whole season.
    """
    require(actor, season.club, "manage", ClubError)
    name, rules = _season_fields(name, start_date, end_date, rules)
    ranking = None if ranking is None else _ranking(ranking)
    with transaction.atomic():
        _lock(season.club)
        season = Season.objects.select_for_update().get(pk=season.pk)
        _unique_season_name(season.club, name, season.pk)
        before = _season_state(season)
        season.name = name
        season.start_date = start_date
        season.end_date = end_date
        season.rules = rules
        if ranking is not None:
            season.ranking = ranking
        season.save(update_fields=["name", "start_date", "end_date", "rules", "ranking"])
        after = _season_state(season)
        if after != before:
            audit.record(
                season.club_id,
                actor,
                audit.Action.SEASON_UPDATED,
                season,
                before=before,
                after=after,
            )
    log.info("%s updated season %s of %s: %r %s", actor, season.pk, season.club.slug, name, rules)
    return season


# ---------------------------------------------------------------- players


def create_player(club: Club, name: str, *, actor=None) -> Player:
    """A new player of the club (scorers create them when they open a sheet).

    The name is trimmed (inner spaces collapsed), must not be empty, nor longer
    than the column, nor hold control characters, nor be a name the club already
    has in another case or with other accents (``name_key``).
    """
    require(actor, club, "score", ClubError)
    name = player_name(name)
    with transaction.atomic():
        taken = _name_taken(club.pk, name)
        if taken:
            raise ClubError("player_exists", field="name", name=taken)
        player = Player.objects.create(club=club, name=name)
        audit.record(club, actor, audit.Action.PLAYER_CREATED, player, after={"name": name})
    return player


def rename_player(player: Player, name: str, *, actor) -> Player:
    """Give a player another name (a typo fixed); their hands and totals stay theirs.

    The name is checked as ``create_player`` checks it; a name another player of
    the club has (ignoring case and accents) is refused: merge them instead.
    """
    require(actor, player.club, "manage", ClubError)
    name = player_name(name)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.name == name:
            return player
        taken = _name_taken(player.club_id, name, other_than=player.pk)
        if taken:
            raise ClubError(
                "player_exists", field="name", wording="player_exists.merge", name=taken
            )
        old, player.name = player.name, name
        player.save(update_fields=["name"])
        audit.record(
            player.club_id,
            actor,
            audit.Action.PLAYER_RENAMED,
            player,
            before={"name": old},
            after={"name": name},
        )
    log.info("%s renamed player %s from %r to %r", actor, player.pk, old, name)
    return player


def _name_taken(club_id, name: str, *, other_than=None) -> str | None:
    """The name of a player of the club (but ``other_than``) who is ``name`` under
    ``name_key`` (case, accents and spaces ignored), or None."""
    players = Player.objects.filter(club_id=club_id)
    if other_than is not None:
        players = players.exclude(pk=other_than)
    key = name_key(name)
    return next((n for n in players.values_list("name", flat=True) if name_key(n) == key), None)


def set_player_active(player: Player, active: bool, *, actor) -> Player:
    """Make a player inactive (left out of the pickers, kept in every total) or active again.

    A player merged into another stays inactive (``player_merged``): undo the merge.
    """
    require(actor, player.club, "manage", ClubError)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.merged_into_id is not None:
            raise ClubError("player_merged")
        active = bool(active)
        if player.is_active == active:
            return player
        player.is_active = active
        player.save(update_fields=["is_active"])
        audit.record(
            player.club_id,
            actor,
            audit.Action.PLAYER_ACTIVE,
            player,
            before={"active": not active},
            after={"active": active},
        )
    return player


def player_name(value) -> str:
    """A player's name as stored, or ``ClubError`` (``name_required``, ``name_too_long``,
    ``name_invalid``)."""
    if not isinstance(value, str):
        raise ClubError("name_invalid", field="name", wording="name_invalid.not_text")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value if c not in "\t\n\r "):
        raise ClubError("name_invalid", field="name")
    return _name(value, NAME_MAX["player"])


def similar_players(name: str, players) -> list:
    """Of ``players``, those whose name looks like ``name`` but is not the same player's
    (``core.text.looks_alike``: equal but for spaces and hyphens, or a small typing
    distance away: 1 letter for a name of up to 5 letters, 2 beyond)."""
    return [player for player in players if looks_alike(name, player.name)]


# ---------------------------------------------------------------- internals


def absolute_link(request, path: str) -> str:
    """The full address of ``path`` for a mail: the request's own host, else (a
    command) the first concrete host of ALLOWED_HOSTS over https."""
    if request is not None:
        return request.build_absolute_uri(path)
    host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
    return f"https://{host.lstrip('.')}{path}"


def _check_role(role) -> None:
    if role not in Role.values:
        raise ClubError("role_invalid", field="role")


def _lock(club: Club) -> Club:
    """Serialise the writes to one club's members and seasons."""
    return Club.objects.select_for_update().get(pk=club.pk)


def _keep_a_manager(membership: Membership, field) -> None:
    others = (
        Membership.objects.filter(club_id=membership.club_id, role=Role.MANAGER)
        .exclude(pk=membership.pk)
        .exists()
    )
    if not others:
        raise ClubError("last_manager", field=field)


def _forget_roles(*users) -> None:
    """Drop the roles ``clubs.permissions`` cached on these user objects."""
    for user in users:
        if hasattr(user, "_club_roles"):
            del user._club_roles


def _name(value, max_length: int) -> str:
    name = " ".join((value or "").split())
    if not name:
        raise ClubError("name_required", field="name")
    if len(name) > max_length:
        raise ClubError("name_too_long", field="name", n=max_length)
    return name


def _season_state(season: Season) -> dict:
    """A season as its audit entries keep it."""
    return {
        "name": season.name,
        "start": season.start_date.isoformat() if season.start_date else None,
        "end": season.end_date.isoformat() if season.end_date else None,
        "rules": season.rules,
        **({"ranking": season.ranking} if season.ranking else {}),
    }


def _ranking(value) -> dict:
    """A ranking rule validated (``ranking_invalid``) and in its short form."""
    try:
        return parse_ranking(value).as_dict()
    except RankingError as error:
        raise ClubError(error.code, error.message, error.field) from None


def _season_fields(name, start_date, end_date, rules):
    name = _name(name, NAME_MAX["season"])
    if start_date is None:
        raise ClubError("date_required", field="start_date")
    if end_date is not None and end_date < start_date:
        raise ClubError("dates_inverted", field="end_date")
    try:
        ruleset = parse_rules("fft" if rules is None else rules)
    except ScoringError as error:
        raise ClubError.from_scoring(error) from None
    return name, ruleset.as_dict()


def _unique_season_name(club: Club, name: str, pk) -> None:
    if Season.objects.filter(club=club, name__iexact=name).exclude(pk=pk).exists():
        raise ClubError("season_name_taken", field="name")


def mail(subject_template: str, body_template: str, context: dict, email: str) -> bool:
    """Mail the two templates rendered (the subject on one line) to ``email``; whether it
    left: a mail server down is logged here, and each caller says what it means."""
    subject = " ".join(render_to_string(subject_template, context).split())
    body = render_to_string(body_template, context)
    try:
        send_mail(subject, body, None, [email])
    except Exception:
        log.exception("mail %s to %s failed", body_template, email)
        return False
    return True


def free_username(email: str) -> str:
    """A username no login has yet (case ignored), made of the address's local part:
    "dora.l@…" → "dora.l", else "dora.l2", "dora.l3"…"""
    User = get_user_model()
    base = re.sub(r"[^\w.+-]", "", email.split("@")[0])[:140] or "player"
    username, n = base, 1
    while User.objects.filter(username__iexact=username).exists():
        n += 1
        username = f"{base}{n}"
    return username
