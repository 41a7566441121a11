"""The audit trail: ``record`` writes one ``AuditEntry`` in the caller's transaction.

Every service that changes a club's data calls it (``clubs.services``,
``scoresheet.services``); hands keep their own history (``HandRevision``).
``before`` and ``after`` are small JSON dicts of the fields that matter (names,
not ids, so the entry reads the same after the object is gone).
"""

from clubs.models import AuditEntry
from core.bulk import insert

Action = AuditEntry.Action
LABEL_MAX = AuditEntry._meta.get_field("object_label").max_length


def actor_of(user):
    """The user to record: ``None`` for commands, the shell and anonymous users."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user


def record(club, by, action, obj=None, *, label=None, before=None, after=None) -> AuditEntry:
    """One audit entry: ``by`` did ``action`` to ``obj`` (its type, id and label)."""
    # ``insert``: the statement made once, not compiled for each entry (an import
    # writes one a sheet)
    entry = AuditEntry(
        club_id=getattr(club, "pk", club),
        actor=actor_of(by),
        action=action,
        object_type=obj._meta.model_name if obj is not None else "",
        object_id=obj.pk if obj is not None else None,
        object_label=str(label if label is not None else (obj or ""))[:LABEL_MAX],
        before=before,
        after=after,
    )
    return insert(entry)
