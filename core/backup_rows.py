"""The rows of a club each app keeps, registered by the app itself for the club's backup.

A club's backup (``transfer.backup``) holds every row of the club in the apps that keep
its data. ``transfer`` may not name a peer's models (``tournaments``), and the lower apps
may not import ``transfer``; so each app registers its own rows here, in its
``AppConfig.ready()`` (``register``), and the backup reads what was registered
(``registered``). This module knows no app: a registration names its models, how each
reaches its club, and the checks its rows need beyond their fields' own.

A check refuses a row by raising ``Refused(field, reason)`` (``where``: the row, when a
check of the whole file names one); the backup names the row and the field.
"""

from collections.abc import Callable
from dataclasses import dataclass


class Refused(Exception):
    """A row of a backup a registered check refuses: the field, the reason (for a
    person), and the row (``where``) when the check did not read it row by row."""

    def __init__(self, field: str, reason: str, where: str | None = None):
        super().__init__(reason)
        self.field, self.reason, self.where = field, reason, where


@dataclass(frozen=True)
class Rows:
    """One model's rows of a club."""

    #: the model
    model: type
    #: the lookup from its rows to their club through foreign keys that are never null
    #: (``"pk"``: the club itself): a row reached through an optional key would be left
    #: out of the backup when the key is empty
    path: str
    #: counted again from the ledger by the restore, not written from the file (its
    #: keys are checked all the same)
    rebuilt: bool = False
    #: the key (attname) naming a person several clubs share (``Registration.shared``)
    person: str | None = None
    #: ``check(value_of)`` of each row as the restore reads it (``value_of(column)``: the
    #: row's value of a column, converted): raises ``Refused``
    check: Callable | None = None
    #: the key (attname) naming a login whose role in the club the site administrator
    #: must confirm on a restore, and what an unconfirmed one costs: ``"row"`` (the row
    #: left out) or ``"link"`` (the key emptied when the login existed before)
    login: tuple[str, str] | None = None
    #: columns the restore keeps of every row, for ``Registration.finish``
    keep: tuple[str, ...] = ()


@dataclass(frozen=True)
class Registration:
    """What one app keeps of a club."""

    app: str
    #: its models' rows, a row's targets in its app before it
    rows: tuple[Rows, ...]
    #: its models several clubs share, carried beside the rows (not as rows of the club)
    shared: tuple[type, ...] = ()
    #: its models a backup leaves out on purpose (a login's credentials)
    left_out: tuple[type, ...] = ()
    #: ``finish(kept)`` once every row is read: ``kept`` maps each of its ``Rows`` with
    #: ``keep`` to a list of ``(where, pk, *kept columns)``; raises ``Refused`` (with
    #: ``where``)
    finish: Callable | None = None


_REGISTERED: dict[str, Registration] = {}


def register(registration: Registration) -> None:
    """An app's rows (in its ``AppConfig.ready()``); registering again replaces them."""
    _REGISTERED[registration.app] = registration


def registered() -> list[Registration]:
    """The registrations, in the order the apps registered."""
    return list(_REGISTERED.values())
