"""A former player erased at their request (RGPD): ``erase_player``.

Their name, licence, e-mail and login leave the site; every figure stays. The
``Player`` row keeps its id (the ledger's rows, totals, rankings and ratings point at
it) under "Ancien joueur N" (``rights.ERASED_NAME``, numbered per club); the person it
is linked to keeps its id too (the league's standings point at it) under the same
name, without licence nor login. The texts that named them are rewritten with the new
name (``Scrubber``): the club's audit entries and hand revisions, its tournaments'
entries and final rankings, the table results' names, sheets' and hands' notes, the
league results and the league audit entries of the club's leagues; the club's licence
lines held for its leagues that name them are removed. The club's rows
that pointed at their login (who opened a sheet, entered a hand, did a change) point
at nobody, so a backup made afterwards holds neither the login nor its e-mail, and
the files of the club's finished jobs (backups, exports made before) are removed. The
login itself is the person's account on the site, not the club's: it stays, unlinked
(its owner closes it, or the site's administrator does).

Refused, writing nothing (``RightsError``): for a player whose login is still a member
(``still_member``: erasure is for a former player), a player linked by their licence to
players of other clubs (``plays_elsewhere``: a club's manager erases what their club
holds; each club erases its own), a player merged into another (``merged``), or erased
already (``erased``).
"""

import re
import time

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from clubs import audit
from clubs.models import AuditEntry, Club, Invitation, Membership, Player
from clubs.permissions import require
from leagues.models import EventResult, HeldLicence, LeagueAuditEntry, LinkClaim
from leagues.rights import ERASED_NAME, RightsError
from scoresheet.models import Hand, HandRevision, SeasonTotal, Sheet
from tournaments.models import Entry, TableResult, Tournament
from transfer import jobs
from transfer.backup import club_paths

#: rows of the club read and rewritten at a time
BATCH = 500


class Scrubber:
    """Rewrites texts: each of ``words`` (names, licences, e-mails) standing as a word,
    in any case, becomes ``name``, and so does a whole text that is one of ``exact``
    (usernames: "member" stays a role where it is not a whole label); in JSON, keys
    and values alike."""

    def __init__(self, words, name, exact=()):
        words = sorted({w.strip() for w in words if w and w.strip()}, key=len, reverse=True)
        self.exact = {w.casefold() for w in exact if w}
        self.name = name
        self.pattern = (
            re.compile(
                r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.IGNORECASE
            )
            if words
            else None
        )

    def text(self, value):
        if self.pattern is None or not isinstance(value, str):
            return value
        if value.casefold() in self.exact:
            return self.name
        return self.pattern.sub(self.name, value)

    def json(self, value):
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.json(v) for k, v in value.items()}
        return value

    def rows(self, queryset, text_fields=(), json_fields=()) -> int:
        """Rewrite the rows of ``queryset`` whose fields change; returns how many."""
        if self.pattern is None:
            return 0
        fields = list(text_fields) + list(json_fields)
        changed = []
        for row in queryset.only("pk", *fields).iterator(chunk_size=BATCH):
            dirty = False
            for name in text_fields:
                old = getattr(row, name)
                new = self.text(old)
                if new != old:
                    setattr(row, name, new)
                    dirty = True
            for name in json_fields:
                old = getattr(row, name)
                new = self.json(old)
                if new != old:
                    setattr(row, name, new)
                    dirty = True
            if dirty:
                changed.append(row)
        for start in range(0, len(changed), BATCH):
            queryset.model.objects.bulk_update(changed[start : start + BATCH], fields)
        return len(changed)


def erase_player(player: Player, *, actor) -> Player:
    """Erase a former player of the club (``player``, with the players merged into it)
    at their request; returns the player, renamed. One transaction, an audit entry
    that does not name them."""
    club = player.club
    require(actor, club, "manage", RightsError)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one erasure at a time
        player = Player.objects.select_related("person", "user").get(pk=player.pk)
        players = [player, *Player.objects.filter(merged_into=player).order_by("pk")]
        ids = [p.pk for p in players]
        _check(player, ids)
        person = player.person
        logins = _logins(player, players, person)
        name = _new_name(club)
        words = {p.name for p in players} | _past_names(club, ids)
        words |= set(Entry.objects.filter(player__in=ids).values_list("name", flat=True))
        words |= set(Entry.objects.filter(player__in=ids).values_list("licence", flat=True))
        if person is not None:
            words |= {person.name, person.licence or ""}
        for user in logins:
            words |= {user.email, user.get_full_name()}
        scrub = Scrubber(words, name, exact={u.get_username() for u in logins})
        _rewrite(club, ids, person, scrub, name)
        _unlink(club, logins, ids, person)
        for index, each in enumerate(players):
            each.name = name if index == 0 else f"{name} ({index + 1})"
            each.user, each.is_active = None, False
            each.save(update_fields=["name", "user", "is_active"])
        if person is not None:
            person.name, person.licence, person.user = name, None, None
            person.save(update_fields=["name", "licence", "user"])
        audit.record(club, actor, audit.Action.PLAYER_ERASED, player, label=name)
        # a new revision of the club's summaries: the statistics cached under the old
        # one (names of the best hands' tables) are not read again
        SeasonTotal.objects.filter(season__club=club).update(revision=time.time_ns() // 1000)
        jobs.expire_club_files(club)  # the backups and exports made before name them
    return player


def _check(player, ids) -> None:
    if player.merged_into_id is not None:
        raise RightsError("merged")
    if AuditEntry.objects.filter(
        club=player.club_id, action=audit.Action.PLAYER_ERASED, object_id=player.pk
    ).exists():
        raise RightsError("erased")
    users = {player.user_id, player.person.user_id if player.person else None} - {None}
    if users and Membership.objects.filter(club=player.club_id, user__in=users).exists():
        raise RightsError("still_member", player=player.name)
    if player.person_id is not None:
        elsewhere = Player.objects.filter(person=player.person_id).exclude(pk__in=ids)
        if elsewhere.exists():
            raise RightsError("plays_elsewhere")


def _logins(player, players, person) -> list:
    """The logins that were this player: linked, the person's, a claim's, or named by
    the club's audit entry of the membership removed from them."""
    User = get_user_model()
    ids = {p.user_id for p in players if p.user_id}
    if person is not None and person.user_id:
        ids.add(person.user_id)
    claims = LinkClaim.objects.filter(player__in=[p.pk for p in players])
    ids |= set(claims.values_list("user", flat=True))
    names = set()
    removed = AuditEntry.objects.filter(
        club=player.club_id, action=audit.Action.MEMBER_REMOVED
    ).values_list("before", flat=True)
    for before in removed:
        if isinstance(before, dict) and before.get("player") in {p.name for p in players}:
            names.add(before.get("user"))
    return list(User.objects.filter(Q(pk__in=ids) | Q(username__in=names)))


def _past_names(club, ids) -> set:
    """The names these players had before a rename (the club's audit entries)."""
    names = set()
    for before, after in AuditEntry.objects.filter(
        club=club, object_type="player", object_id__in=ids
    ).values_list("before", "after"):
        for value in (before, after):
            if isinstance(value, dict) and isinstance(value.get("name"), str):
                names.add(value["name"])
    return names


def _new_name(club) -> str:
    """ "Ancien joueur N": N the club's erasures so far plus one, past any name taken."""
    number = AuditEntry.objects.filter(club=club, action=audit.Action.PLAYER_ERASED).count() + 1
    taken = set(Player.objects.filter(club=club).values_list("name", flat=True))
    while ERASED_NAME % {"n": number} in taken:
        number += 1
    return ERASED_NAME % {"n": number}


def _rewrite(club, ids, person, scrub, name) -> None:
    """Every text of the club (and of its leagues) that may name them, rewritten."""
    scrub.rows(AuditEntry.objects.filter(club=club), ["object_label"], ["before", "after"])
    sheets = Sheet.objects.filter(club=club, seats__player__in=ids).values("pk")
    scrub.rows(HandRevision.objects.filter(hand__sheet__in=sheets), (), ["before", "after"])
    scrub.rows(Hand.objects.filter(sheet__in=sheets).exclude(note=""), ["note"])
    scrub.rows(Sheet.objects.filter(club=club).exclude(note=""), ["note"])
    scrub.rows(Tournament.objects.filter(club=club), ["name"], ["final_ranking"])
    scrub.rows(
        TableResult.objects.filter(round_table__round__tournament__club=club).exclude(by_name=""),
        ["by_name"],
    )
    Entry.objects.filter(player__in=ids).update(name=name, licence="")
    results = Q(player__in=ids) | (Q(person=person) if person is not None else Q(pk__in=[]))
    EventResult.objects.filter(results).update(name=name)
    leagues = club.league_links.values("league")
    scrub.rows(LeagueAuditEntry.objects.filter(league__in=leagues), ["label"], ["after"])
    # the club's licence lines held for its leagues that name them go (a pending one
    # confirmed would make their person again)
    held = HeldLicence.objects.filter(club=club).only("pk", "licence", "name")
    naming = [
        h.pk for h in held if scrub.text(h.name) != h.name or scrub.text(h.licence) != h.licence
    ]
    HeldLicence.objects.filter(pk__in=naming).delete()


def _unlink(club, logins, ids, person) -> None:
    """The club's rows that pointed at their logins point at nobody; their claims and
    the club's invitations to their e-mail go."""
    if not logins:
        return
    User = get_user_model()
    user_ids = [u.pk for u in logins]
    for model, path in club_paths().items():
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is User and field.null:
                model._default_manager.filter(
                    **{path: club.pk, f"{field.name}__in": user_ids}
                ).update(**{field.name: None})
    # the licence lines they sent the club's leagues (a league's rows, not the club's)
    HeldLicence.objects.filter(club=club, sent_by__in=user_ids).update(sent_by=None)
    emails = [u.email for u in logins if u.email]
    Invitation.objects.filter(club=club).filter(
        Q(email__in=emails) | Q(accepted_by__in=user_ids)
    ).delete()
    LinkClaim.objects.filter(Q(player__in=ids) | Q(user__in=user_ids, player__club=club)).delete()
