"""The club's ratings (``ratings``): a table per scope, ranked by the rating shown.

``/ratings/`` rates every hand of the club, ``/seasons/<id>/ratings/`` one season on
its own. Two queries whatever the ledger's size (the club, the scope's ratings: one
row per player); ``?_export=csv`` or ``xlsx`` downloads the table (``core.exports``).
The rating (``ratings.compute.shown``: 1000 + 40 (μ − 3σ), a whole number) is what
the table ranks by (``core.ranking``: ties share a rank); beside it the skill's
estimate and its uncertainty on the same scale (1000 + 40μ ± 120σ: the rating is
the estimate less its uncertainty). A player rated under ``MIN_HANDS`` hands is
listed last, "not rated yet", unranked.
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
    return format_number(round(value))


class RatingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM, orderable=False, default="—")
    name = tables.Column(verbose_name=_("Player"), orderable=False)
    ordinal = tables.Column(
        verbose_name=_("Rating"),
        attrs={"th": {"class": "num"}, "td": {"class": "num", "data-rating": True}},
        orderable=False,
    )
    estimate = tables.Column(
        verbose_name=_("Skill estimate ± uncertainty"),
        attrs={"th": {"class": "num"}, "td": {"class": "num", "data-estimate": True}},
        orderable=False,
        exclude_from_export=True,
    )
    # in a file, numbers a spreadsheet reads (a text "1712 ± 84" is neither): the estimate
    # and the two ends of its range
    estimate_value = tables.Column(
        verbose_name=_("Skill estimate"), accessor="estimate", visible=False, orderable=False
    )
    range_low = tables.Column(
        verbose_name=_("Range from (estimate − uncertainty)"),
        accessor="estimate",
        visible=False,
        orderable=False,
    )
    range_high = tables.Column(
        verbose_name=_("Range to (estimate + uncertainty)"),
        accessor="estimate",
        visible=False,
        orderable=False,
    )
    hands = tables.Column(verbose_name=_("Hands rated"), attrs=NUM, orderable=False)

    class Meta:
        attrs = {"class": "table", "data-ratings": ""}

    def render_ordinal(self, value, record):
        if not record.rated:
            return _("not rated yet")
        return _shown(value)

    def render_estimate(self, record):
        return f"{_shown(record.estimate)} ± {_shown(record.spread)}"

    def value_rank(self, value):
        return value

    def value_ordinal(self, value, record):
        return round(value, 4) if record.rated else None

    def value_estimate_value(self, record):
        return round(record.estimate, 4)

    def value_range_low(self, record):
        return round(record.estimate - record.spread, 4)

    def value_range_high(self, record):
        return round(record.estimate + record.spread, 4)


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
            min_hands=queries.MIN_HANDS,
        )
        return context


club_ratings = club_view("read")(RatingsView.as_view())
season_ratings = club_view("read")(RatingsView.as_view())
