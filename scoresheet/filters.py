"""Filters of the club's sheets list: season, a date range, the number of players, and
whether the tournaments' tables are listed (left out unless asked for)."""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Season
from core.widgets import DateInput
from scoresheet.models import Sheet


def _seasons(request):
    return request.club.seasons.regular().order_by("-start_date", "-pk")


class SheetFilter(django_filters.FilterSet):
    """Filters the sheets (``seat_count``: the stored count of seats)."""

    season = django_filters.ModelChoiceFilter(
        label=_("Season"), queryset=_seasons, empty_label=_("All seasons")
    )
    date_from = django_filters.DateFilter(
        label=_("From"), field_name="date", lookup_expr="gte", widget=DateInput()
    )
    date_to = django_filters.DateFilter(
        label=_("To"), field_name="date", lookup_expr="lte", widget=DateInput()
    )
    players = django_filters.ChoiceFilter(
        label=_("Players"),
        field_name="seat_count",
        choices=[(str(n), str(n)) for n in range(2, 7)],
        empty_label=_("Any"),
        widget=forms.RadioSelect,
    )

    tournaments = django_filters.BooleanFilter(
        label=_("Include the tournaments' tables"),
        widget=forms.CheckboxInput,
        method="with_tournaments",
    )

    class Meta:
        model = Sheet
        fields = ()

    def with_tournaments(self, queryset, name, value):
        return queryset  # the tournaments' tables are left out in filter_queryset

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if not self.form.cleaned_data.get("tournaments"):
            queryset = queryset.exclude(season__kind=Season.Kind.TOURNAMENT)
        return queryset

    @property
    def is_active(self):
        """Whether any filter changes the list (the filter panel then starts open)."""
        form = self.form
        return form.is_valid() and any(
            v not in (None, "", False) for v in form.cleaned_data.values()
        )
