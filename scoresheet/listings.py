"""The club's sheets as a django-tables2 table.

It reads ``Sheet.objects.with_counts()``, which annotates the counts and prefetches
the seats' players, so neither the ``render_*`` methods nor the templates query the
database per row.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from scoresheet.models import Sheet


class SheetTable(tables.Table):
    date = tables.Column(verbose_name=_("Date"), order_by=("date", "table", "pk"))
    table = tables.Column(verbose_name=_("Table"), empty_values=("",), default="—")
    players = tables.Column(
        verbose_name=_("Players"),
        accessor="seat_count",
        order_by=("seat_count", "-date"),
        attrs={"td": {"class": "wrap"}},
    )
    hands = tables.Column(
        verbose_name=_("Hands"),
        accessor="hand_count",
        order_by=("hand_count", "-date"),
        attrs={"th": {"class": "num"}, "td": {"class": "num"}},
    )
    season = tables.Column(verbose_name=_("Season"), accessor="season__name")

    class Meta:
        model = Sheet
        fields = ("date", "table", "hands", "players", "season")
        sequence = fields
        order_by = ("-date",)
        attrs = {"class": "table sheet-list", "data-sheets": ""}
        empty_text = _("No sheet yet.")

    def __init__(self, *args, club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def _url(self, record):
        return reverse("scoresheet:sheet", args=[self.club.slug, record.pk])

    def render_date(self, value, record):
        return format_html(
            '<a class="sheet-link" href="{}">{}</a>',
            self._url(record),
            date_format(value, "SHORT_DATE_FORMAT"),
        )

    def render_players(self, record):
        names = format_html_join(", ", "{}", ((seat.player.name,) for seat in record.seated))
        return format_html('<span class="badge">{}</span> {}', record.seat_count, names)
