"""The league pages' forms: they validate input; the services write."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from leagues.models import LeagueSeason


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    start_date = forms.DateField(label=_("Start"), widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(
        label=_("End"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    scale = forms.CharField(
        label=_("Placement scale (JSON)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        initial='{"kind": "table", "tables": [{"from": 1, "points": [10, 6, 4, 2]}]}',
        help_text=_(
            'A points table by rank and field size, or {"kind": "proportional", "points": 100}.'
        ),
    )
    best_events = forms.IntegerField(label=_("Events counted"), required=False, min_value=1)
    qualified = forms.IntegerField(label=_("Qualified per série"), required=False, min_value=1)

    def clean_scale(self):
        try:
            return json.loads(self.cleaned_data["scale"])
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            raise forms.ValidationError(_("The scale is not JSON.")) from None

    @classmethod
    def of(cls, season: LeagueSeason):
        return cls(
            initial={
                "name": season.name,
                "start_date": season.start_date,
                "end_date": season.end_date,
                "scale": json.dumps(season.scale, ensure_ascii=False),
                "best_events": season.best_events,
                "qualified": season.qualified,
            }
        )


class InviteForm(forms.Form):
    club = forms.SlugField(label=_("Club (its address)"))


class SeriesForm(forms.Form):
    series = forms.CharField(
        label=_("Séries, one a line"), widget=forms.Textarea(attrs={"rows": 4})
    )


class LinkForm(forms.Form):
    club = forms.SlugField(label=_("Club (its address)"))
    player = forms.CharField(label=_("Player"), max_length=80)
    licence = forms.CharField(label=_("Licence"), max_length=20)
    serie = forms.CharField(label=_("Série"), max_length=30, required=False)


class PersonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    licence = forms.CharField(label=_("Licence"), max_length=20, required=False)
    serie = forms.CharField(label=_("Série"), max_length=30, required=False)


class CountForm(forms.Form):
    season = forms.IntegerField()
    tournament = forms.IntegerField(label=_("Tournament"))
    coefficient = forms.CharField(label=_("Coefficient"), initial="1", max_length=8)


class LicenceFileForm(forms.Form):
    file = forms.FileField(
        label=_("Licence list (CSV)"),
        help_text=_(
            "First line: the columns' names — licence, name (or surname and given name), "
            "club, série."
        ),
    )

    def refuse(self, message):
        """This form, the file's refusal above it (the import's ``LicenceError``); an
        unbound form has cleaned nothing, and ``add_error`` reads what it cleaned."""
        if not hasattr(self, "cleaned_data"):
            self.cleaned_data = {}
        self.add_error(None, message)
        return self
