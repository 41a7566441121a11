"""What a backup is, on disk, and how a restore refuses one."""

from django.utils.translation import gettext as _

from core.errors import ServiceError

FORMAT = "tarot-ledger-club-backup"
#: 2: the file ends with ``counts``; a file of version 1 (without) is still read.
#: 3: one line per row (the persons in the head): the restore reads it as a stream.
VERSION = 3
VERSIONS = (1, 2, 3)
#: where a head of version 3 ends and its rows begin
OBJECTS = '"objects": ['
#: what a backup keeps of a login (never a password hash)
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active", "date_joined")


class BackupError(ServiceError):
    pass


def invalid(reason) -> BackupError:
    return BackupError("backup_invalid", _("Not a usable backup: %(reason)s") % {"reason": reason})


def refused(row, field, reason) -> BackupError:
    return invalid(
        _("%(row)s, %(field)s: %(reason)s") % {"row": row, "field": field, "reason": reason}
    )


def first_line(error) -> str:
    text = str(getattr(error, "message", None) or error)
    return text.splitlines()[0] if text else type(error).__name__
