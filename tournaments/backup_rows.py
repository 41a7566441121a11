"""The club's tournaments in a club's backup (``core.backup_rows``), registered in
``TournamentsConfig.ready()``: their rows, and the check that a table's seats are entry
numbers of its own tournament."""

from django.utils.translation import gettext as _

from clubs.backup_rows import check_rules
from core.backup_rows import Refused, Registration, Rows, register
from tournaments.models import (
    Adjustment,
    DealDecision,
    Entry,
    Round,
    RoundTable,
    TableResult,
    TableTotal,
    Team,
    Tournament,
)

ROUNDS = Rows(Round, "tournament__club", keep=("tournament_id",))
ENTRIES = Rows(Entry, "tournament__club", person="person_id", keep=("tournament_id", "number"))
TABLES = Rows(RoundTable, "round__tournament__club", keep=("round_id", "seats"))


def check_seats(kept) -> None:
    """Every table's seats are entry numbers of its round's tournament."""
    rounds = {pk: tournament for _where, pk, tournament in kept[ROUNDS]}
    entries = {}
    for _where, _pk, tournament, number in kept[ENTRIES]:
        entries.setdefault(tournament, set()).add(number)
    for where, _pk, round_id, seats in kept[TABLES]:
        numbers = entries.get(rounds.get(round_id), set())
        if not isinstance(seats, list) or not all(type(n) is int and n in numbers for n in seats):
            raise Refused("seats", _("not entries of its tournament"), where=where)


def register_rows() -> None:
    register(
        Registration(
            app="tournaments",
            rows=(
                Rows(Tournament, "club", check=check_rules),
                Rows(Team, "tournament__club"),
                ENTRIES,
                ROUNDS,
                TABLES,
                Rows(TableResult, "round_table__round__tournament__club"),
                Rows(Adjustment, "entry__tournament__club"),
                Rows(TableTotal, "round_table__round__tournament__club"),
                Rows(DealDecision, "round_table__round__tournament__club"),
            ),
            finish=check_seats,
        )
    )
