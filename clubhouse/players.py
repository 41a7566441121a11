"""A club's players on the ledger: the player list, and merging two players into one.

Merging moves every seat, hand, score row and total of one player (``merged``)
to another (``kept``) in one transaction; the merged player stays, inactive,
with ``merged_into`` set, so the merge can be undone. The audit entry
(``players_merged``) keeps what moved: the sheets, seats and hands. A merge can
be undone (``undo_merge``) while no later change touched them: no hand
revision on those sheets, no audit entry on those sheets or on either player
since the merge.

Codes (``LedgerError``): ``merge_same``, ``merge_other_club``, ``player_merged``,
``players_share_sheet``, ``both_linked``, ``player_elsewhere``, ``merge_unknown``,
``merge_changed``.
"""

from django.db import transaction
from django.db.models import Max, Min, Sum
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import AuditEntry, Player, Season
from core.db import retry_on_conflict
from scoresheet import signals
from scoresheet.models import Hand, HandRevision, ScoreRow, Seat, Sheet, SheetTotal
from scoresheet.services import LedgerError
from scoresheet.totals import refresh_sheet_totals

#: The hand's columns that name a player.
HAND_PLAYER_FIELDS = ("dealer", "taker", "partner", "sits_out")
#: The models a merge moves (any other model pointing at the merged player refuses it).
MOVED = (Seat, ScoreRow)


# ---------------------------------------------------------------- the list


def club_players(club, *, tournaments=False):
    """The club's players with ``hands`` (hands played), ``first`` and ``last`` (the
    dates of their first and last sheet), from the standings summary; two queries.
    The tournaments' tables count only with ``tournaments=True``.

    Merged players are left out (their rows are the kept player's), and so are the
    records of guests who play for another club (``Player.is_guest``)."""
    players = list(
        Player.objects.filter(club=club, merged_into__isnull=True, is_guest=False)
        .select_related("user")
        .order_by("sort_key", "name")
    )
    totals = SheetTotal.objects.filter(season__club=club)
    if not tournaments:
        totals = totals.exclude(season__kind=Season.Kind.TOURNAMENT)
    facts = {
        row["player_id"]: row
        for row in totals.values("player_id")
        .annotate(hands=Sum("hands"), first=Min("date"), last=Max("date"))
        .order_by()
    }
    for player in players:
        row = facts.get(player.pk, {})
        player.hands = row.get("hands") or 0
        player.first = row.get("first")
        player.last = row.get("last")
    return players


# ---------------------------------------------------------------- merging


@retry_on_conflict
def merge_players(kept: Player, merged: Player, *, actor=None) -> AuditEntry:
    """Move everything of ``merged`` to ``kept``; returns the audit entry of the merge.

    Refused when they sat at the same sheet (two people, then), when both are
    linked to logins, when ``merged`` appears anywhere a merge does not move
    (a tournament's entries), and for a player already merged.
    """
    if kept.pk == merged.pk:
        raise LedgerError("merge_same", _("Choose two different players."), "into")
    if kept.club_id != merged.club_id:
        raise LedgerError("merge_other_club", _("Both players must be of this club."), "into")
    with transaction.atomic():
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update()
            .filter(pk__in=[kept.pk, merged.pk])
            .order_by("pk")
        }
        kept, merged = locked[kept.pk], locked[merged.pk]
        if kept.merged_into_id is not None or merged.merged_into_id is not None:
            raise LedgerError(
                "player_merged", _("This player was already merged into another."), "into"
            )
        _check_elsewhere(merged)
        sheet_ids = sorted(Seat.objects.filter(player=merged).values_list("sheet_id", flat=True))
        shared = Seat.objects.filter(player=kept, sheet_id__in=sheet_ids)
        if shared.exists():
            raise LedgerError(
                "players_share_sheet",
                _("%(a)s and %(b)s sat at the same table: they are two different players.")
                % {"a": kept.name, "b": merged.name},
                "into",
            )
        if kept.user_id and merged.user_id and kept.user_id != merged.user_id:
            raise LedgerError(
                "both_linked",
                _("Both players are linked to a login: unlink one of them first."),
                "into",
            )
        sheets = list(Sheet.objects.select_for_update().filter(pk__in=sheet_ids).order_by("pk"))
        seat_ids = sorted(Seat.objects.filter(player=merged).values_list("pk", flat=True))
        Seat.objects.filter(pk__in=seat_ids).update(player=kept)
        hands = {}
        for name in HAND_PLAYER_FIELDS:
            ids = sorted(
                Hand.objects.filter(sheet_id__in=sheet_ids, **{name: merged}).values_list(
                    "pk", flat=True
                )
            )
            if ids:
                Hand.objects.filter(pk__in=ids).update(**{name: kept})
                hands[name] = ids
        hands["fields"] = _swap_in_hand_fields(sheet_ids, merged.pk, kept.pk)
        rows = ScoreRow.objects.filter(player=merged).update(player=kept)
        for sheet in sheets:
            refresh_sheet_totals(sheet)
        signals.changed(kept.club_id)  # one player's hands become another's
        user_moved = merged.user_id is not None and kept.user_id is None
        if user_moved:
            kept.user_id, merged.user_id = merged.user_id, None
            merged.save(update_fields=["user"])
            kept.save(update_fields=["user"])
        was_active = merged.is_active
        merged.merged_into = kept
        merged.is_active = False
        merged.save(update_fields=["merged_into", "is_active"])
        return audit.record(
            kept.club_id,
            actor,
            audit.Action.PLAYERS_MERGED,
            kept,
            label=f"{merged.name} → {kept.name}",
            before={"kept": kept.name, "merged": merged.name},
            # what moved, for the undo ("_" keys: kept out of the history page's lines)
            after={
                "rows": rows,
                "_kept_id": kept.pk,
                "_merged_id": merged.pk,
                "_sheets": sheet_ids,
                "_seats": seat_ids,
                "_hands": hands,
                "_user_moved": user_moved,
                "_was_active": was_active,
            },
        )


def merge_of(merged: Player) -> AuditEntry | None:
    """The audit entry of the merge that made ``merged`` part of another player."""
    if merged.merged_into_id is None:
        return None
    return (
        AuditEntry.objects.filter(
            club_id=merged.club_id,
            action=audit.Action.PLAYERS_MERGED,
            object_id=merged.merged_into_id,
            after___merged_id=merged.pk,
        )
        .order_by("-id")
        .first()
    )


def undo_blocker(entry: AuditEntry) -> str | None:
    """Why the merge of ``entry`` can no longer be undone (a later change), or None."""
    after = entry.after or {}
    sheets = after.get("_sheets", [])
    players = [after.get("_kept_id"), after.get("_merged_id")]
    later = AuditEntry.objects.filter(club_id=entry.club_id, pk__gt=entry.pk)
    touched = (
        later.filter(object_type="sheet", object_id__in=sheets).exists()
        or later.filter(object_type="player", object_id__in=players).exists()
        or later.filter(action=audit.Action.PLAYERS_MERGED, after___merged_id=players[0]).exists()
    )
    if touched or HandRevision.objects.filter(hand__sheet_id__in=sheets, at__gt=entry.at).exists():
        return _("A later change touched these players or their sheets.")
    return None


@retry_on_conflict
def undo_merge(merged: Player, *, actor=None) -> Player:
    """Move back what the merge of ``merged`` moved, while no later change touched it."""
    with transaction.atomic():
        merged = Player.objects.select_for_update().get(pk=merged.pk)
        entry = merge_of(merged)
        if entry is None:
            raise LedgerError("merge_unknown", _("This player was not merged into another."))
        after = entry.after
        kept = Player.objects.select_for_update().get(pk=after["_kept_id"])
        sheet_ids = after["_sheets"]
        sheets = list(Sheet.objects.select_for_update().filter(pk__in=sheet_ids).order_by("pk"))
        blocker = undo_blocker(entry)
        if blocker:
            raise LedgerError("merge_changed", blocker)
        Seat.objects.filter(pk__in=after["_seats"]).update(player=merged)
        hands = after.get("_hands", {})
        for name in HAND_PLAYER_FIELDS:
            if hands.get(name):
                Hand.objects.filter(pk__in=hands[name]).update(**{name: merged})
        _swap_in_hand_fields(sheet_ids, kept.pk, merged.pk, only=hands.get("fields"))
        # The merged player's sheets seated only them of the two: every row of the
        # kept player there was theirs.
        ScoreRow.objects.filter(sheet_id__in=sheet_ids, player=kept).update(player=merged)
        for sheet in sheets:
            refresh_sheet_totals(sheet)
        signals.changed(kept.club_id)  # one player's hands become another's
        if after.get("_user_moved") and kept.user_id is not None:
            merged.user_id, kept.user_id = kept.user_id, None
            kept.save(update_fields=["user"])
        merged.merged_into = None
        merged.is_active = after.get("_was_active", True)
        merged.save(update_fields=["merged_into", "is_active", "user"])
        audit.record(
            merged.club_id,
            actor,
            audit.Action.MERGE_UNDONE,
            merged,
            label=f"{merged.name} ← {kept.name}",
            before={"kept": kept.name, "merged": merged.name},
            after={"_merge": entry.pk},
        )
    return merged


# ---------------------------------------------------------------- internals


def _check_elsewhere(player: Player) -> None:
    """Refuse a merge that would leave rows behind (a model a merge does not move)."""
    for relation in Player._meta.related_objects:
        model = relation.related_model
        if relation.many_to_many or model in MOVED or model is Player:
            continue
        if model._default_manager.filter(**{relation.field.name: player}).exists():
            raise LedgerError(
                "player_elsewhere",
                _("%(name)s is also in %(what)s: a merge cannot move that.")
                % {"name": player.name, "what": model._meta.verbose_name_plural},
                "into",
            )


def _swap_in_hand_fields(sheet_ids, old: int, new: int, only=None) -> list[int]:
    """Replace player id ``old`` by ``new`` in the hands' JSON fields (poignées, misères,
    a ruleset's own fields) on those sheets; the ids of the hands changed."""
    changed = []
    hands = Hand.objects.filter(sheet_id__in=sheet_ids)
    if only is not None:
        hands = hands.filter(pk__in=only)
    for hand in hands.only("pk", "poignees", "miseres", "extra"):
        poignees = [
            {**p, "player": new if p.get("player") == old else p.get("player")}
            for p in hand.poignees or []
        ]
        miseres = [new if pk == old else pk for pk in hand.miseres or []]
        extra = _swap_extra(hand.extra, old, new)
        if (poignees, miseres, extra) != (hand.poignees or [], hand.miseres or [], hand.extra):
            Hand.objects.filter(pk=hand.pk).update(poignees=poignees, miseres=miseres, extra=extra)
            changed.append(hand.pk)
    return changed


def _swap_extra(extra, old: int, new: int):
    """A Savoyard hand's own fields with player ``old`` replaced by ``new``."""
    if not extra:
        return extra
    out = dict(extra)
    for key in ("declarer", "partner"):
        if out.get(key) == old:
            out[key] = new
    if isinstance(out.get("counts"), dict):
        out["counts"] = {
            (str(new) if key == str(old) else key): count for key, count in out["counts"].items()
        }
    return out
