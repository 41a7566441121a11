"""The tournament ranking as a django-tables2 table: the page and its CSV/XLSX exports.

The page does not render this table: its rows are ``display_rows`` (formatted
numbers, links), written by ``tournaments/includes/ranking_rows.html``;
exports (``value_*``) keep plain numbers so a spreadsheet can sum them. The
rounds' columns are added per tournament (``extra_columns``).
"""

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.encoding import force_str
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoresheet.formatting import format_number, format_signed

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def _number(value):
    if value is None:
        return ""
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else value.normalize()


def _score_class(value):
    if value is None:
        return "muted"
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


class RoundColumn(tables.Column):
    def __init__(self, index, **kwargs):
        super().__init__(accessor=tables.A(f"rounds__{index}"), attrs=NUM, **kwargs)
        self.index = index

    def value(self, record, value=None):
        return _number(record["rounds"][self.index])


class RankingTable(tables.Table):
    rank = tables.Column(verbose_name=_("Place"), attrs=NUM, orderable=False)
    number = tables.Column(verbose_name=_("Number"), attrs=NUM, orderable=False)
    name = tables.Column(verbose_name=_("Name"), orderable=False)
    club = tables.Column(verbose_name=_("Club"), orderable=False)
    licence = tables.Column(verbose_name=_("Licence"), orderable=False, visible=False)
    total = tables.Column(verbose_name=_("Total"), attrs=NUM, orderable=False)
    deals = tables.Column(verbose_name=_("Deals"), attrs=NUM, orderable=False)

    class Meta:
        attrs = {"class": "table ranking-table"}
        sequence = ("rank", "number", "name", "club", "licence", "...", "total", "deals")
        empty_text = _("Nobody is entered yet.")

    def __init__(self, data, *, rounds, **kwargs):
        extra = [
            (f"round_{i + 1}", RoundColumn(i, verbose_name=gettext("Round %(n)d") % {"n": i + 1}))
            for i in range(rounds)
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def value_total(self, value):
        return _number(value)

    def as_values(self, exclude_columns=None):
        """The export's header and rows: what django-tables2's ``as_values`` gives (a
        blank cell is None; round and total cells through ``_number``), without its
        per-cell machinery, which inspects each column's ``value`` signature for
        every cell (2,600 at 200 players × 6 rounds: nine tenths of the export)."""
        exclude = set(exclude_columns or ())
        columns = [
            column
            for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in exclude)
        ]
        yield [force_str(column.header, strings_only=True) for column in columns]
        cells = [_export_cell(column.column, column.name) for column in columns]
        for row in self.rows:
            yield [cell(row.record) for cell in cells]


def _export_cell(column, name):
    """A function of a ranking row giving the column's export value."""
    if isinstance(column, RoundColumn):
        index = column.index
        return lambda record: _plain_number(record["rounds"][index])
    if name == "total":
        return lambda record: _plain_number(record["total"])
    return lambda record: None if record[name] in (None, "") else record[name]


def _plain_number(value):
    return None if value is None else _number(value)


def display_rows(rows, *, club, tournament):
    """The ranking's rows as display strings, with a link to each player's page.

    ``cells`` holds (text, class, pending) per round; each distinct score is
    formatted once. ``tournaments/includes/ranking_rows.html`` writes the page's rows
    from these.
    """
    base = reverse("tournaments:detail", args=[club.slug, tournament.pk])
    texts, counts = {}, {}

    def signed(value):
        if value not in texts:
            texts[value] = "—" if value is None else format_signed(value)
        return texts[value]

    def count(value):
        if value not in counts:
            counts[value] = format_number(value)
        return counts[value]

    out = []
    for row in rows:
        scores = row["rounds"]
        pending = row.get("pending") or [False] * len(scores)
        out.append(
            {
                **row,
                "url": f"{base}players/{row['number']}/",
                "cells": [(signed(v), _score_class(v), p) for v, p in zip(scores, pending)],
                "total_text": signed(row["total"]),
                "total_class": _score_class(row["total"]),
                "deals_text": count(row["deals"]),
                "status": _status(row),
            }
        )
    return out


def _status(row):
    adjusted = row.get("adjusted")
    if adjusted:
        note = gettext("adjusted by the arbitre: %(points)s") % {"points": format_signed(adjusted)}
        rest = _presence(row)
        return f"{rest}; {note}" if rest else note
    return _presence(row)


def _presence(row):
    if row["withdrawn_after"] is not None:
        return gettext("withdrew after round %(n)d") % {"n": row["withdrawn_after"]}
    if row["joined_before"] > 1:
        return gettext("joined at round %(n)d") % {"n": row["joined_before"]}
    return ""
