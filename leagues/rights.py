"""A member's rights over what the site holds about them (RGPD): their data as JSON,
and a former player's erasure.

``personal_data`` is everything the site holds about a login (My account: their
person, every player of theirs in every club) or about one player (their club's
manager: that club's player, the person it is linked to, the league's rows of that
person); streamed as readable JSON (``chunks``), every hand with its score row.

``leagues.erasure.erase_player`` takes a former player's name, licence, e-mail and login out of the
site and keeps every figure: the ``Player`` row (and the person it is linked to) stays,
under "Ancien joueur N" (numbered per club, in French as every stored name is: the
name is data, not a label of the page), so that the ledger's rows keep their player
ids and every score, total, ranking, league total and rating is what it was. The
texts that named them (audit entries, hand revisions, tournament entries and rankings,
league results, notes) are rewritten with the new name; the club's rows that pointed
at their login point at nobody, so a backup made afterwards names neither.
"""

import datetime
import json
import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit
from clubs.models import ApiToken, AuditEntry, Club, Invitation, Membership, Person, Player
from clubs.permissions import require
from core.errors import ServiceError
from leagues.models import EventResult, HeldLicence, LinkClaim, Standing
from ratings.models import Rating
from scoresheet.models import ScoreRow, SeasonTotal
from tournaments.models import Entry

log = logging.getLogger(__name__)

FORMAT = "tarot-ledger-personal-data"
#: the stored name of an erased player, numbered per club (French, as stored)
ERASED_NAME = "Ancien joueur %(n)d"

error_messages = {
    "forbidden": _lazy("Only a manager of the club may do this."),
    "still_member": _lazy(
        "%(player)s's login is still a member of the club: remove them from the members "
        "first; erasure is for a former player."
    ),
    "plays_elsewhere": _lazy(
        "This player's licence links them to players of other clubs too: each club's "
        "manager erases their own player, and the licence goes with the last."
    ),
    "merged": _lazy("This player was merged into another: erase that one."),
    "erased": _lazy("This player was erased already."),
}


class RightsError(ServiceError):
    error_messages = error_messages


# -- the data: what the site holds about a login or a player --------------------------


def _when(value):
    return value.isoformat() if isinstance(value, (datetime.date, datetime.datetime)) else value


def _plain(row: dict) -> dict:
    return {key: _plain_value(value) for key, value in row.items()}


def _plain_value(value):
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, (int, float, str, bool, type(None), list, dict)):
        return value
    return str(value)  # Decimal, Fraction: exact as text


def _login(user) -> dict:
    return {
        "username": user.get_username(),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_active": user.is_active,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
    }


def _person(person) -> dict:
    return {
        "name": person.name,
        "licence": person.licence,
        "serie": person.serie,
        "since": _when(person.created_at),
    }


class Subject:
    """Whose data: a login (every club) or a player (their club only)."""

    def __init__(self, *, user=None, player=None):
        self.user, self.player = user, player
        if player is not None:
            self.person = player.person
            self.players = list(
                Player.objects.filter(Q(pk=player.pk) | Q(merged_into=player)).select_related(
                    "club"
                )
            )
            self.clubs = [player.club]
            logins = {p.user for p in self.players if p.user is not None}
            if self.person is not None and self.person.user is not None:
                logins.add(self.person.user)
            self.logins = sorted(logins, key=lambda u: u.pk)
        else:
            self.person = Person.objects.filter(user=user).first()
            mine = Q(user=user) | (Q(person=self.person) if self.person else Q(pk__in=[]))
            self.players = list(Player.objects.filter(mine).select_related("club").order_by("pk"))
            club_ids = {p.club_id for p in self.players}
            club_ids |= set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
            self.clubs = list(Club.objects.filter(pk__in=club_ids).order_by("pk"))
            self.logins = [user]

    @property
    def scope(self) -> str:
        return "account" if self.player is None else f"club:{self.player.club.slug}"


def head(subject: Subject) -> dict:
    """Everything but the players' hands (``chunks`` streams those)."""
    club_ids = [c.pk for c in subject.clubs]
    users = subject.logins
    user_ids = [u.pk for u in users]
    player_ids = [p.pk for p in subject.players]
    memberships = Membership.objects.filter(user__in=user_ids)
    tokens = ApiToken.objects.filter(user__in=user_ids)
    if subject.player is not None:
        memberships, tokens = (
            memberships.filter(club__in=club_ids),
            tokens.filter(club__in=club_ids),
        )
    emails = [u.email for u in users if u.email]
    invitations = Invitation.objects.filter(club__in=club_ids).filter(
        Q(email__in=emails) | Q(accepted_by__in=user_ids)
    )
    mentions = Q(object_type="player", object_id__in=player_ids) | Q(actor__in=user_ids)
    mentions |= Q(object_type="membership", object_id__in=memberships.values("pk"))
    entries = AuditEntry.objects.filter(mentions, club__in=club_ids).order_by("at", "pk")
    results = EventResult.objects.filter(
        Q(player__in=player_ids) | (Q(person=subject.person) if subject.person else Q(pk__in=[]))
    )
    if subject.player is not None:  # the league's rows of this club's player only
        results = results.filter(player__in=player_ids)
    return {
        "format": FORMAT,
        "made_at": timezone.now().isoformat(),
        "scope": subject.scope,
        "logins": [_login(u) for u in users],
        "person": _person(subject.person) if subject.person else None,
        "memberships": [
            {"club": m.club.name, "role": m.role, "since": _when(m.created_at)}
            for m in memberships.select_related("club").order_by("pk")
        ],
        "api_tokens": [
            {
                "name": t.name,
                "club": t.club.name,
                "scope": t.scope,
                "created_at": _when(t.created_at),
                "revoked_at": _when(t.revoked_at),
            }
            for t in tokens.select_related("club").order_by("pk")
        ],
        "invitations": [
            {"club": i.club.name, "email": i.email, "role": i.role, "at": _when(i.created_at)}
            for i in invitations.select_related("club").order_by("pk")
        ],
        "league": {
            "claims": [
                {"player": c.player.name, "club": c.player.club.name, "at": _when(c.created_at)}
                for c in LinkClaim.objects.filter(
                    Q(user__in=user_ids) | Q(player__in=player_ids)
                ).select_related("player__club")
            ],
            "results": [
                {
                    "league": r.event.season.league.name,
                    "season": r.event.season.name,
                    "event": str(r.event),
                    "name": r.name,
                    "rank": r.rank,
                    "total": _plain_value(r.total),
                    "points": _plain_value(r.points),
                    "weighted": _plain_value(r.weighted),
                }
                for r in results.select_related("event__season__league", "event__tournament")
            ],
            "held_licence_lines": _held_lines(subject, club_ids),
            "standings": [
                {
                    "league": s.season.league.name,
                    "season": s.season.name,
                    "total": _plain_value(s.total),
                    "counted": s.counted,
                    "played": s.played,
                    "place": s.place,
                    "serie_place": s.serie_place,
                }
                for s in (
                    Standing.objects.filter(person=subject.person).select_related("season__league")
                    if subject.person and subject.player is None
                    else ()
                )
            ],
        },
        "audit_entries": [_entry(e, subject, user_ids) for e in entries],
    }


def _entry(entry, subject: Subject, user_ids) -> dict:
    """A history entry naming them, as the download writes it."""
    club = entry.club_id and next(c.name for c in subject.clubs if c.pk == entry.club_id)
    return {
        "club": club,
        "at": _when(entry.at),
        "action": entry.action,
        "by_them": entry.actor_id in user_ids,
        "label": entry.object_label,
        "before": entry.before,
        "after": entry.after,
    }


def _held_lines(subject: Subject, club_ids) -> list[dict]:
    """Their clubs' licence lines sent to a league that name them: by their licence, or
    by a player's name in that player's club where the line's licence is no one else's."""
    naming = Q(pk__in=[])
    for player in subject.players:
        naming |= Q(club=player.club_id, name=player.name)
    others = Person.objects.exclude(licence=None)
    if subject.person is not None:
        others = others.exclude(pk=subject.person.pk)
    naming &= ~Q(licence__in=others.values("licence"))
    if subject.person is not None and subject.person.licence:
        naming |= Q(licence=subject.person.licence)
    held = HeldLicence.objects.filter(naming, club__in=club_ids).select_related("league", "club")
    return [
        {
            "league": h.league.name,
            "club": h.club.name,
            "licence": h.licence,
            "name": h.name,
            "serie": h.serie,
            "sent_at": _when(h.sent_at),
            "status": h.status,
        }
        for h in held.order_by("sent_at", "pk")
    ]


def _player(player) -> dict:
    return {
        "club": player.club.name,
        "name": player.name,
        "active": player.is_active,
        "merged_into": player.merged_into_id,
        "season_totals": [
            _plain({"season": t.pop("season__name"), **t})
            for t in SeasonTotal.objects.filter(player=player)
            .order_by("season__start_date")
            .values("season__name", "seated", "sheets", "hands", "taken", "made", "score")
        ],
        "ratings": [
            _plain(r)
            for r in Rating.objects.filter(player=player)
            .order_by("scope")
            .values("scope", "mu", "sigma", "ordinal", "hands", "last_date")
        ],
        "tournament_entries": [
            _plain({"tournament": e.pop("tournament__name"), **e})
            for e in Entry.objects.filter(player=player)
            .order_by("pk")
            .values("tournament__name", "number", "name", "licence", "series", "is_guest")
        ],
    }


HAND_FIELDS = (
    "date",
    "sheet_id",
    "number",
    "seats",
    "position",
    "role",
    "contract",
    "made",
    "margin",
    "bouts",
    "petit_au_bout",
    "poignee",
    "misere",
    "chelem",
    "score",
    "pool",
)


def chunks(subject: Subject):
    """The data as readable JSON text, in chunks: every hand of each player (its score
    row) read from the cursor, never all in memory."""
    text = json.dumps(head(subject), ensure_ascii=False, indent=1)
    yield text[: -len("\n}")] + ',\n "players": ['
    for index, player in enumerate(subject.players):
        data = json.dumps(_player(player), ensure_ascii=False, indent=1)
        yield ("," if index else "") + "\n" + data[: -len("\n}")] + ',\n "hands": ['
        rows = (
            ScoreRow.objects.filter(player=player)
            .order_by("date", "sheet_id", "number")
            .values_list(*HAND_FIELDS)
        )
        first = True
        for row in rows.iterator(chunk_size=2000):
            line = json.dumps(dict(zip(HAND_FIELDS, map(_plain_value, row), strict=True)))
            yield ("\n  " if first else ",\n  ") + line
            first = False
        yield "\n ]\n}"
    yield "\n]\n}\n"


def record_download(subject: Subject, *, actor) -> None:
    """An audit entry in each club whose data the download holds (by whom, of whom); a
    login of no club has no club's history to write it in: the log has it."""
    log.info("%s downloaded the data of %s", actor, subject.player or subject.user)
    with transaction.atomic():
        for club in subject.clubs:
            if subject.player is not None:
                require(actor, club, "manage", RightsError)
                obj, label = subject.player, subject.player.name
            else:
                obj, label = None, subject.user.get_username()
            by = "self" if subject.player is None else "manager"
            audit.record(
                club, actor, audit.Action.DATA_DOWNLOADED, obj, label=label, after={"by": by}
            )
