"""The club's standings: all seasons (with a season filter) and one season's.

A constant number of queries whatever the size of the ledger: the club (the
permission gate), its seasons (the season links and filter choices, loaded
once) and the page's rows from the summary tables (``scoresheet.summaries``),
which carry the number of players for the pagination (no COUNT query). ``?_export=csv`` or ``xlsx``
downloads every row (not just the page), filtered and sorted as shown, through
``core.exports`` (formulas neutralised; any other format: 400); ``?page=`` and
``?per_page=`` are bounded by ``core.paging``.
"""

from django.http import Http404
from django.utils.functional import cached_property
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin
from django_tables2.export import TableExport

from clubs.permissions import club_view
from clubs.ranking_rule import ranking_words
from core.exports import SafeExportMixin
from core.paging import BoundedTableMixin
from ratings import queries as ratings
from standings.by_rule import RankedStandingsTable, ranked_rows, season_ranking
from standings.filters import StandingsFilter
from standings.listings import StandingsPaginator, StandingsTable

PER_PAGE = 50


class StandingsView(SafeExportMixin, BoundedTableMixin, SingleTableMixin, TemplateView):
    template_name = "standings/standings.html"
    table_class = StandingsTable
    table_pagination = {"per_page": PER_PAGE, "paginator_class": StandingsPaginator}
    export_formats = (TableExport.CSV, TableExport.XLSX)

    def get(self, request, *args, season_id=None, **kwargs):
        club = request.club
        self.seasons = list(club.seasons.regular().newest_first())
        season = None
        if season_id is not None:
            season = next((s for s in self.seasons if s.pk == season_id), None)
            if season is None:
                raise Http404
        self.filter = StandingsFilter(
            request.GET, club=club, seasons=self.seasons, season=season, request=request
        )
        return super().get(request, *args, **kwargs)

    def exporting(self):
        return self.export_format() is not None

    def get_table_data(self):
        # a season ranked by its own rule (clubs.ranking_rule): rows from the ranked query
        if self.ranking is not None:
            return ranked_rows(self.filter, self.ranking)
        return self.filter.qs

    def get_table_class(self):
        return RankedStandingsTable if self.ranking is not None else super().get_table_class()

    def get_table_kwargs(self):
        kwargs = super().get_table_kwargs()
        if self.ranking is not None:
            kwargs["ranking"] = self.ranking
        return kwargs

    @cached_property
    def ranking(self):
        """The shown season's ranking rule, unless it is the plain total (None)."""
        return season_ranking(self.filter.selected_season)

    def get_table_pagination(self, table):
        # An export takes every row; the page it was asked from needs no count.
        return False if self.exporting() else super().get_table_pagination(table)

    def get_export_filename(self, export_format):
        season = self.filter.selected_season
        label = slugify(season.name) if season else "all-seasons"
        return f"standings-{self.request.club.slug}-{label}.{export_format}"

    def get_dataset_kwargs(self):
        return {"title": str(_("Standings"))}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # (an export has no room for it, and spares the query)
        held = 0 if self.exporting() else self.filter.pools_held()
        context.update(
            club=self.request.club,
            seasons=self.seasons,
            season=self.filter.selected_season,
            season_page=self.filter.season is not None,
            filter=self.filter,
            export_formats=self.export_formats,
            # mouches: what the pools hold, which the players' totals sum to minus
            pools_held=held,
            pools_sum=-held,
        )
        context["rating_min_hands"] = ratings.MIN_HANDS
        if not self.exporting():
            context["ratings_recomputing"] = ratings.recomputing(self.filter.rating_scope())
        context["ranking_words"] = ranking_words(self.ranking) if self.ranking else []
        return context


club_standings = club_view("read")(StandingsView.as_view())
season_standings = club_view("read")(StandingsView.as_view())
