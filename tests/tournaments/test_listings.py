"""The ranking's exports: RankingTable.as_values gives what django-tables2 gives."""

from decimal import Decimal

import django_tables2 as tables
from django.utils import translation

from tournaments.listings import RankingTable


def exact(values):
    """The rows with each value's type: a spreadsheet gets 4, not 4.0 (4 == Decimal("4.0"))."""
    return [[(type(v).__name__, str(v)) for v in row] for row in values]


def test_the_export_values_are_django_tables2s():
    rows = [
        {
            "rank": 1,
            "number": 3,
            "name": "=HYPERLINK()",
            "club": "Club",
            "licence": "",
            "rounds": [Decimal("12.5"), None, Decimal("4.0")],
            "total": Decimal("16.5"),
            "deals": 8,
        },
        {
            "rank": 2,
            "number": 1,
            "name": "Zoé",
            "club": "",
            "licence": "123456",
            "rounds": [Decimal(0), Decimal("-12.5"), None],
            "total": Decimal("0.0"),
            "deals": 0,
        },
    ]
    with translation.override("fr"):
        table = RankingTable(rows, rounds=3)
        ours = list(table.as_values())
        theirs = list(tables.Table.as_values(table))
        assert exact(ours) == exact(theirs)
        assert ours[0][5:8] == ["Séquence 1", "Séquence 2", "Séquence 3"]
        assert exact(table.as_values(exclude_columns=["licence"])) == exact(
            tables.Table.as_values(table, exclude_columns=["licence"])
        )
    assert exact(ours[1:]) == exact(
        [
            [1, 3, "=HYPERLINK()", "Club", None, Decimal("12.5"), None, 4, Decimal("16.5"), 8],
            [2, 1, "Zoé", None, "123456", 0, Decimal("-12.5"), None, 0, 0],
        ]
    )
