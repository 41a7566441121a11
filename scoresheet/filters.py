"""Filters of the club's sheets list: season, a date range, the number of players."""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

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

    class Meta:
        model = Sheet
        fields = ()

    @property
    def is_active(self):
        """Whether any filter narrows the list (the filter panel then starts open)."""
        form = self.form
        return form.is_valid() and any(v not in (None, "") for v in form.cleaned_data.values())
