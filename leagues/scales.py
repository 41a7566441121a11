"""Placement points: what a rank in an event's field is worth, by the league's scale.

Pure Python, exact (``Fraction``). A scale is JSON, chosen per league season:

``{"kind": "table", "tables": [{"from": 1, "points": [10, 6, 4]}, {"from": 20, "points": [...]}]}``
    points by rank and field size: the table whose ``from`` is the largest not above
    the field's size; rank r earns ``points[r - 1]``, a rank past the end 0;
``{"kind": "proportional", "points": 100}``
    points proportional to the field beaten: ``points × behind / (field − 1)``, where
    ``behind`` counts the entries ranked strictly behind (a lone player earns ``points``).

Ties share a rank (``core.ranking``: 1, 2, 2, 4), so tied players earn the same points:
the rank's in a table, the same ``behind`` in proportion.
"""

from fractions import Fraction

from django.utils.translation import gettext_lazy as _

MAX_POINTS = 100_000


class ScaleError(ValueError):
    def __init__(self, message):
        super().__init__(str(message))
        self.message = str(message)


def _number(value) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ScaleError(_("Points are numbers."))
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ScaleError(_("Points are numbers.")) from None
    if number < 0 or number > MAX_POINTS:
        raise ScaleError(_("Points are between 0 and %(n)d.") % {"n": MAX_POINTS})
    return number


def parse_scale(data) -> dict:
    """The scale checked and normalised (``ScaleError`` with a message otherwise)."""
    if not isinstance(data, dict) or data.get("kind") not in ("table", "proportional"):
        raise ScaleError(_("A scale is a points table or points proportional to the field."))
    if data["kind"] == "proportional":
        return {"kind": "proportional", "points": str(_number(data.get("points", 100)))}
    tables = data.get("tables")
    if not isinstance(tables, list) or not tables:
        raise ScaleError(_("A points table needs at least one row of points."))
    out = []
    for table in tables:
        if not isinstance(table, dict) or not isinstance(table.get("points"), list):
            raise ScaleError(_("A points table needs at least one row of points."))
        start = table.get("from", 1)
        if isinstance(start, bool) or not isinstance(start, int) or start < 1:
            raise ScaleError(_("A field size is a whole number from 1."))
        points = [str(_number(p)) for p in table["points"]]
        if not points:
            raise ScaleError(_("A points table needs at least one row of points."))
        out.append({"from": start, "points": points})
    out.sort(key=lambda t: t["from"])
    if len({t["from"] for t in out}) != len(out):
        raise ScaleError(_("Two rows of the table start at the same field size."))
    return {"kind": "table", "tables": out}


def placement_points(scale: dict, rank: int, field: int, behind: int) -> Fraction:
    """The points of ``rank`` in a field of ``field`` entries, ``behind`` of them ranked
    strictly behind."""
    if scale["kind"] == "proportional":
        top = Fraction(scale["points"])
        if field <= 1:
            return top
        return top * behind / (field - 1)
    table = None
    for candidate in scale["tables"]:
        if candidate["from"] <= field:
            table = candidate
    if table is None or rank > len(table["points"]):
        return Fraction(0)
    return Fraction(table["points"][rank - 1])


def points_of_ranks(scale: dict, ranks: list[int]) -> list[Fraction]:
    """Every entry's points, from the ranks of the whole field (in any order)."""
    field = len(ranks)
    behind_of = {r: sum(1 for other in ranks if other > r) for r in set(ranks)}
    return [placement_points(scale, r, field, behind_of[r]) for r in ranks]
