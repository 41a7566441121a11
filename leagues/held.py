"""The licence lines held for a league's managers (``HeldLicence``): a club manager's
line whose licence was new to them (``leagues.licences``). The league's managers list
the pending lines with what confirming each would do, confirm them or dismiss them.

Confirming is the league manager's own import of those lines (``import_licences`` with
``commit``, the same reading, writes and audit entry, which says it confirmed them):
there is no second way of creating a person here. The import settles the pending line
of each club and licence it imported, so a line confirmed twice (a double post, two
tabs) is imported once: the second finds it decided. Dismissing a line writes a league
audit entry. The club's manager who sent a line is told nothing of either: their own
import answers as it did.
"""

import csv
import io

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit
from core.errors import ServiceError
from leagues import licences, permissions
from leagues.licences import Preview
from leagues.models import HeldLicence, LeagueAuditEntry

error_messages = {
    "none": _lazy("Choose the held lines to confirm."),
    "unknown": _lazy("This held line is not one of the league's."),
    "decided": _lazy("This held line was already confirmed or dismissed."),
}


class HeldError(ServiceError):
    error_messages = error_messages


#: the header of the lines a confirmation imports (``leagues.licences.HEADERS``)
HEADER = ("licence", "name", "club", "serie")


def pending(league):
    """The league's pending held lines, the oldest first, with their club and sender."""
    return (
        HeldLicence.objects.filter(league=league, status=HeldLicence.Status.PENDING)
        .select_related("club", "sent_by")
        .order_by("sent_at", "pk")
    )


def text_of(rows) -> str:
    """The held lines as a licence list, each line's club by its name (the import
    reads a club's name before its address, so another club's name cannot stand for it)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(HEADER)
    for row in rows:
        writer.writerow((row.licence, row.name, row.club.name, row.serie))
    return out.getvalue()


def batches(rows) -> list[list]:
    """``rows`` in as few lists as no licence is twice in one (two clubs may hold the
    same licence: the import refuses a licence on two lines of one list)."""
    out, seen = [], []
    for row in rows:
        index = next((i for i, s in enumerate(seen) if row.licence not in s), len(out))
        if index == len(out):
            out.append([])
            seen.append(set())
        out[index].append(row)
        seen[index].add(row.licence)
    return out


def preview(league, rows, *, actor) -> dict:
    """What confirming each of ``rows`` would do now (``licences.Line`` by held line's
    id): the league manager's import's preview, which writes nothing."""
    permissions.require(actor, league, HeldError)
    lines = {}
    for batch in batches(rows):
        done = licences.import_licences(league, text_of(batch), actor=actor)
        for row, line in zip(batch, done.lines, strict=True):
            lines[row.pk] = line
    return lines


def confirm(league, ids, *, actor) -> Preview:
    """Import the pending held lines ``ids`` as the league manager ``actor``'s own import
    of them (one audit entry a batch, ``held_confirmed``); lines decided meanwhile are
    left out. Returns what the import did (a refused line stays pending)."""
    permissions.require(actor, league, HeldError)
    ids = {int(pk) for pk in ids}
    if not ids:
        raise HeldError("none")
    with transaction.atomic():
        rows = list(
            HeldLicence.objects.select_for_update(of=("self",))  # not the clubs' rows
            .filter(league=league, pk__in=ids)
            .select_related("club")
            .order_by("sent_at", "pk")
        )
        if not rows:
            raise HeldError("unknown")
        rows = [row for row in rows if row.status == HeldLicence.Status.PENDING]
        if not rows:
            raise HeldError("decided")
        done = Preview([], committed=True)
        for batch in batches(rows):
            imported = licences.import_licences(
                league, text_of(batch), actor=actor, commit=True, confirming=True
            )
            done.lines += imported.lines
    return done


def dismiss(league, held_id, *, actor) -> HeldLicence:
    """Set a pending held line aside without importing it, with a league audit entry."""
    permissions.require(actor, league, HeldError)
    with transaction.atomic():
        row = (
            HeldLicence.objects.select_for_update(of=("self",))  # its sender may be gone
            .select_related("club", "sent_by")
            .filter(league=league, pk=held_id)
            .first()
        )
        if row is None:
            raise HeldError("unknown")
        if row.status != HeldLicence.Status.PENDING:
            raise HeldError("decided")
        row.status = HeldLicence.Status.DISMISSED
        row.decided_by, row.decided_at = audit.actor_of(actor), timezone.now()
        row.save(update_fields=["status", "decided_by", "decided_at"])
        line = ";".join((row.licence, row.name, row.club.name, row.serie))
        LeagueAuditEntry.objects.create(
            league=league,
            actor=audit.actor_of(actor),
            action=LeagueAuditEntry.Action.HELD_DISMISSED,
            label=line[:200],
            after={
                "held_line": line,
                "sent_by": row.sent_by.get_username() if row.sent_by else None,
            },
        )
    return row
