"""The standings' filters: season (on the club's page), a date range, the table size.

The filter set validates the query string; ``filter_queryset`` hands the
values to ``scoresheet.summaries.standings``, which picks the summary table that
answers them (the season totals, or the sheet totals of the matching sheets).
"""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from core.widgets import DateInput
from ratings import queries as ratings
from ratings import scopes
from scoresheet.models import SeasonTotal
from scoresheet.summaries import standings
from standings.queries import pools_held

#: A table seats 2 to 6 players (at six the dealer sits out each hand).
TABLE_SIZES = [(str(n), str(n)) for n in range(2, 7)]


class StandingsFilter(django_filters.FilterSet):
    """``StandingsFilter(request.GET, club=club, seasons=[…], season=None)``.

    ``seasons`` (already loaded by the view: no query here) are the season
    filter's choices; with ``season`` set (a season's own page) that filter
    is left out.
    """

    season = django_filters.ChoiceFilter(label=_("Season"), empty_label=_("All seasons"))
    date_from = django_filters.DateFilter(label=_("From"), widget=DateInput())
    date_to = django_filters.DateFilter(label=_("To"), widget=DateInput())
    seats = django_filters.ChoiceFilter(
        label=_("Players at the table"),
        choices=TABLE_SIZES,
        empty_label=_("Any"),
        widget=forms.RadioSelect,
    )

    class Meta:
        model = SeasonTotal
        fields = ()

    def __init__(self, data=None, *, club, seasons, season=None, **kwargs):
        data = data.copy() if data is not None else {}  # always bound: no filter, all rows
        data.setdefault("seats", "")  # "Any" shows as chosen
        super().__init__(data, queryset=SeasonTotal.objects.none(), **kwargs)
        self.club = club
        self.season = season
        self.seasons = {str(s.pk): s for s in seasons}
        if season is None:
            self.filters["season"].extra["choices"] = [
                (pk, s.name) for pk, s in self.seasons.items()
            ]
        else:
            del self.filters["season"]

    def scope(self):
        """The sheets the standings count: season, date_from, date_to, seats."""
        data = self.form.cleaned_data
        season = self.season or self.seasons.get(data.get("season") or "")
        return {
            "season": season,
            "date_from": data.get("date_from"),
            "date_to": data.get("date_to"),
            "seats": int(data["seats"]) if data.get("seats") else None,
        }

    def rating_scope(self) -> str:
        """The ratings the table shows: the season's own (the season shown) or the
        club's. A date range or a table size narrows the totals, not the ratings."""
        season = self.selected_season
        return scopes.season(season.pk) if season is not None else scopes.club(self.club.pk)

    def filter_queryset(self, queryset):
        # each player's rating (``compute.shown``): a subquery of the same query, sortable
        rows = standings(self.club, **self.scope())
        return rows.annotate(rating=ratings.shown_ordinal(self.rating_scope()))

    def pools_held(self):
        """What the pools of those sheets hold (mouches): their totals sum to minus it."""
        if not self.form.is_valid():
            return 0
        return pools_held(self.club, **self.scope())

    @property
    def is_active(self):
        """Whether a filter narrows the standings (the filter panel then starts open)."""
        form = self.form
        if not form.is_valid():
            return True
        return any(v not in (None, "") for v in form.cleaned_data.values())

    @property
    def selected_season(self):
        """The season shown: the page's, or the one chosen in the filter, else None."""
        if self.season is not None:
            return self.season
        if self.form.is_valid():
            return self.seasons.get(self.form.cleaned_data.get("season") or "")
        return None
