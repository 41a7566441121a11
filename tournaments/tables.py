"""The tournament ranking as a django-tables2 table: the page and its CSV/XLSX exports.

The page writes its cells itself from ``display_rows`` (formatted numbers, links);
exports (``value_*``) keep plain numbers so a spreadsheet can sum them. The
rounds' columns are added per tournament (``extra_columns``).
"""

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.formatting import format_number, format_signed

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


def display_rows(rows, *, club, tournament):
    """The ranking's rows as display strings, with a link to each player's page."""
    base = reverse("tournaments:detail", args=[club.slug, tournament.pk])
    formatted = {}

    def signed(value):
        if value not in formatted:
            formatted[value] = format_signed(value)
        return formatted[value]

    out = []
    for row in rows:
        out.append(
            {
                **row,
                "url": f"{base}players/{row['number']}/",
                "cells": [
                    (signed(v) if v is not None else "—", _score_class(v), pending)
                    for v, pending in zip(
                        row["rounds"], row.get("pending") or [False] * len(row["rounds"])
                    )
                ],
                "total_text": signed(row["total"]),
                "total_class": _score_class(row["total"]),
                "deals_text": format_number(row["deals"]),
                "status": _status(row),
            }
        )
    return out


def _status(row):
    if row["withdrawn_after"] is not None:
        return gettext("withdrew after round %(n)d") % {"n": row["withdrawn_after"]}
    if row["joined_before"] > 1:
        return gettext("joined at round %(n)d") % {"n": row["joined_before"]}
    return ""
