"""The league pages' forms: they validate input; the services write."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from leagues.models import LeagueSeason


class SeasonForm(forms.Form):
    """A season's dates and counts; its placement scale has its own editor
    (``leagues.scale_forms``)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    start_date = forms.DateField(label=_("Start"), widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(
        label=_("End"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    best_events = forms.IntegerField(label=_("Events counted"), required=False, min_value=1)
    qualified = forms.IntegerField(label=_("Qualified per série"), required=False, min_value=1)

    @classmethod
    def initial_of(cls, season: LeagueSeason) -> dict:
        return {
            "name": season.name,
            "start_date": season.start_date,
            "end_date": season.end_date,
            "best_events": season.best_events,
            "qualified": season.qualified,
        }


NewSeasonForm = SeasonForm


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    visibility = forms.ChoiceField(
        label=_("Who may read it"),
        choices=[("public", _("Anyone")), ("private", _("Its clubs' members only"))],
        initial="public",
        widget=forms.RadioSelect,
    )


#: clubs a search of the invitation form lists at most
CLUB_CHOICES = 50


class InviteForm(forms.Form):
    """A club chosen by name from a list, narrowed by the search above it (no JS)."""

    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        empty_label=None,
        error_messages={"invalid_choice": _("Choose a club from the list.")},
    )

    def __init__(self, *args, league, query="", **kwargs):
        super().__init__(*args, **kwargs)
        clubs = Club.objects.exclude(league_links__league=league).order_by("name")
        if query:
            clubs = clubs.filter(name__icontains=query)
        field = self.fields["club"]
        field.queryset = clubs
        if not self.is_bound:  # a post may choose any club not invited (the list is a view)
            field.queryset = clubs[:CLUB_CHOICES]


class SeriesForm(forms.Form):
    series = forms.CharField(
        label=_("Séries, one a line"), widget=forms.Textarea(attrs={"rows": 4})
    )


class LinkForm(forms.Form):
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        to_field_name="slug",
        error_messages={"invalid_choice": _("Choose a club from the list.")},
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = Club.objects.filter(
            league_links__league=league, league_links__accepted_at__isnull=False
        ).order_by("name")

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
