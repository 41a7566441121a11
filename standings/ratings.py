"""The club's ratings (``ratings``): a table per scope, ranked by the ordinal μ − 3σ.

``/ratings/`` rates every hand of the club, ``/seasons/<id>/ratings/`` one season on
its own. Two queries whatever the ledger's size (the club, the scope's ratings: one
row per player); ``?_export=csv`` or ``xlsx`` downloads the table (``core.exports``).
σ is shown as the range μ ± 3σ (where the player's skill lies, nearly surely); the
ordinal, its low end, is what the table ranks by (``core.ranking``: ties share a
rank).
"""

import django_tables2 as tables
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin
from django_tables2.export import TableExport

from clubs.permissions import club_view
from core.exports import SafeExportMixin
from ratings import queries, scopes
from scoresheet.formatting import format_number

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def _shown(value) -> str:
    return format_number(round(value, 2))


class RatingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM, orderable=False)
    name = tables.Column(verbose_name=_("Player"), orderable=False)
    ordinal = tables.Column(verbose_name=_("Rating"), attrs=NUM, orderable=False)
    mu = tables.Column(verbose_name="μ", attrs=NUM, orderable=False)
    spread = tables.Column(
        verbose_name=_("Range (μ ± 3σ)"),
        accessor="low",
        attrs=NUM,
        orderable=False,
        exclude_from_export=True,
    )
    # the range in a file: its two ends as numbers a spreadsheet reads (a text "−1.2 – 3.4"
    # began with a minus, so it was neutralised as a formula, with decimal points)
    range_low = tables.Column(
        verbose_name=_("Range from (μ − 3σ)"), accessor="low", visible=False, orderable=False
    )
    range_high = tables.Column(
        verbose_name=_("Range to (μ + 3σ)"), accessor="high", visible=False, orderable=False
    )
    hands = tables.Column(verbose_name=_("Hands rated"), attrs=NUM, orderable=False)

    class Meta:
        attrs = {"class": "table", "data-ratings": ""}

    def render_ordinal(self, value):
        return _shown(value)

    def render_mu(self, value):
        return _shown(value)

    def render_spread(self, record):
        return f"{_shown(record.low)} – {_shown(record.high)}"

    def value_ordinal(self, value):
        return round(value, 4)

    def value_mu(self, value):
        return round(value, 4)

    def value_range_low(self, value):
        return round(value, 4)

    def value_range_high(self, value):
        return round(value, 4)


class RatingsView(SafeExportMixin, SingleTableMixin, TemplateView):
    template_name = "standings/ratings.html"
    table_class = RatingsTable
    table_pagination = False
    export_formats = (TableExport.CSV, TableExport.XLSX)

    def get(self, request, *args, season_id=None, **kwargs):
        club = request.club
        self.season = None
        if season_id is not None:
            self.season = club.seasons.filter(pk=season_id).first()
            if self.season is None:
                raise Http404
        self.key = scopes.season(season_id) if self.season else scopes.club(club.pk)
        return super().get(request, *args, **kwargs)

    def get_table_data(self):
        return queries.scope_rows(self.key)

    def get_export_filename(self, export_format):
        label = f"season-{self.season.pk}" if self.season else "club"
        return f"ratings-{self.request.club.slug}-{label}.{export_format}"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            club=self.request.club,
            season=self.season,
            export_formats=self.export_formats,
            ratings_recomputing=queries.recomputing(self.key),
        )
        return context


club_ratings = club_view("read")(RatingsView.as_view())
season_ratings = club_view("read")(RatingsView.as_view())
