"""The club's rows of the ledger in a club's backup (``core.backup_rows``), registered in
``ScoresheetConfig.ready()``. The totals and facts are counted again from the ledger on a
restore (``rebuilt``), never read from the file."""

from clubs.backup_rows import check_rules
from core.backup_rows import Registration, Rows, register
from scoresheet.models import (
    Hand,
    HandRevision,
    ScoreRow,
    SeasonTotal,
    Seat,
    Sheet,
    SheetFacts,
    SheetTotal,
)


def register_rows() -> None:
    register(
        Registration(
            app="scoresheet",
            rows=(
                Rows(Sheet, "club", check=check_rules),
                Rows(Seat, "sheet__club"),
                Rows(Hand, "sheet__club"),
                Rows(ScoreRow, "hand__sheet__club"),
                Rows(HandRevision, "hand__sheet__club"),
                Rows(SheetTotal, "sheet__club", rebuilt=True),
                Rows(SheetFacts, "sheet__club", rebuilt=True),
                Rows(SeasonTotal, "season__club", rebuilt=True),
            ),
        )
    )
