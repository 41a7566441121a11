"""The ranking's filter: everybody, the club's members or the guests.

It filters the rows of ``tournaments.queries.ranking`` (already ranked over the
whole tournament), so a guest ranked 5th stays 5th among the guests.
"""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry

KIND_CHOICES = [("members", _("Members of the club")), ("guests", _("Guests"))]


class RankingFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(
        label=_("Players"),
        choices=KIND_CHOICES,
        empty_label=_("Everybody"),
        widget=forms.RadioSelect,
        method="by_kind",
    )

    class Meta:
        model = Entry
        fields = ()

    def __init__(self, data=None, **kwargs):
        data = data.copy() if data is not None else {}
        data.setdefault("kind", "")
        super().__init__(data, queryset=Entry.objects.none(), **kwargs)

    def by_kind(self, queryset, name, value):
        return queryset  # the rows are filtered by ``filter_rows``

    def filter_rows(self, rows):
        kind = self.form.cleaned_data.get("kind") if self.form.is_valid() else ""
        if kind == "members":
            return [row for row in rows if not row["is_guest"]]
        if kind == "guests":
            return [row for row in rows if row["is_guest"]]
        return rows

    @property
    def selected_kind(self):
        return self.form.cleaned_data.get("kind", "") if self.form.is_valid() else ""
