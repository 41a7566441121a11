"""What a table's confirmation and a tournament's closing do next in the apps above the
tournaments (a team match recorded, a league's results stored), which the tournaments
never import: each app registers its follow-up here once (its ``ready()``), and the
tournaments' services call them by name, in the write's transaction, after their own
work. Signals (``tournaments.signals``) are for extensions and are sent after commit.

A follow-up of a confirmation returns a notice for whoever confirmed (``None``: nothing
to say) or raises a ``ServiceError``: its work is rolled back to its savepoint, the
confirmation stands, and the refusal is logged and returned as a notice, never dropped.
A follow-up of a closing that raises rolls the closing back (the caller's message)."""

import logging
from dataclasses import dataclass

from django.db import transaction

from core.errors import ServiceError

log = logging.getLogger(__name__)

_confirmed = []
_closed = []


@dataclass(frozen=True)
class Notice:
    message: str
    refused: bool = False


def on_table_confirmed(function) -> None:
    if function not in _confirmed:
        _confirmed.append(function)


def on_tournament_closed(function) -> None:
    if function not in _closed:
        _closed.append(function)


def table_confirmed(table) -> list[Notice]:
    notices = []
    for function in _confirmed:
        try:
            with transaction.atomic():
                said = function(table)
        except ServiceError as error:
            log.warning(
                "table %s confirmed; %s refused: %s (%s)",
                table.pk,
                function.__qualname__,
                error.message,
                error.code,
            )
            notices.append(Notice(str(error.message), refused=True))
        else:
            if said:
                notices.append(Notice(str(said)))
    return notices


def tournament_closed(tournament, ranking) -> None:
    for function in _closed:
        function(tournament, ranking)
