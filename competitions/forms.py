"""The competition pages' forms: they validate input; the services write."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs import visibility
from clubs.models import Club, Player
from competitions import services
from competitions.models import LINE_UP, Competition
from competitions.table import HEAD_TO_HEAD, MP_DIFFERENCE, POINTS
from tarot.teammatch import SEATS

TIE_BREAK_CHOICES = [
    (HEAD_TO_HEAD, _("head to head")),
    (MP_DIFFERENCE, _("match points difference")),
    (POINTS, _("total points")),
]
#: what a seat's letter reads as in a form's label
SEAT_LABELS = {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}
MARQUE_LIMIT = 100_000


class CompetitionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    kind = forms.ChoiceField(label=_("Kind"), choices=Competition.Kind.choices)
    season = forms.TypedChoiceField(label=_("Season"), required=False, coerce=int, empty_value=None)
    mode = forms.ChoiceField(label=_("Play"), choices=Competition.Mode.choices)
    deals = forms.IntegerField(label=_("Deals per match"), min_value=1, max_value=48, initial=8)
    win_points = forms.IntegerField(
        max_value=100, label=_("League points for a win"), min_value=0, initial=3
    )
    draw_points = forms.IntegerField(
        max_value=100, label=_("League points for a draw"), min_value=0, initial=1
    )
    loss_points = forms.IntegerField(
        max_value=100, label=_("League points for a loss"), min_value=0, initial=0
    )
    tie_breaks = forms.MultipleChoiceField(
        label=_("Tie-breaks, in this order"),
        choices=TIE_BREAK_CHOICES,
        required=False,
        initial=[c for c, _label in TIE_BREAK_CHOICES],
        widget=forms.CheckboxSelectMultiple,
    )
    double_round = forms.BooleanField(label=_("Home and away"), required=False)
    promoted = forms.IntegerField(
        max_value=100, label=_("Promoted per division"), min_value=0, initial=0
    )
    relegated = forms.IntegerField(
        max_value=100, label=_("Relegated per division"), min_value=0, initial=0
    )

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.seasons = {s.pk: s for s in league.seasons.all()}
        self.fields["season"].choices = [("", "—")] + [
            (pk, s.name) for pk, s in self.seasons.items()
        ]

    def clean_season(self):
        value = self.cleaned_data["season"]
        return None if value is None else self.seasons[value]


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Division"), max_length=80)


class TeamForm(forms.Form):
    #: the league's member clubs, by name (posted as the club's address)
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        to_field_name="slug",
        error_messages={"invalid_choice": _("Choose a club from the list.")},
    )
    name = forms.CharField(label=_("Team name"), max_length=80)
    players = forms.CharField(
        label=_("Squad: the club's players, one a line"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("4 to 8 players; the first is the captain."),
    )
    division = forms.TypedChoiceField(
        label=_("Division"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = Club.objects.filter(
            league_links__league_id=competition.league_id, league_links__accepted_at__isnull=False
        ).order_by("name")
        self.divisions = {d.pk: d for d in competition.divisions.all()}
        if competition.is_cup:
            del self.fields["division"]
        else:
            self.fields["division"].choices = [("", "—")] + [
                (pk, d.name) for pk, d in self.divisions.items()
            ]

    def clean_players(self):
        names = [n.strip() for n in self.cleaned_data["players"].splitlines() if n.strip()]
        return list(dict.fromkeys(names))

    def clean_division(self):
        value = self.cleaned_data.get("division")
        return None if value is None else self.divisions[value]


class MoveTeamForm(forms.Form):
    """A team to another division (before the fixtures)."""

    team = forms.TypedChoiceField(label=_("Team"), coerce=int)
    division = forms.TypedChoiceField(label=_("To the division"), coerce=int)

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.teams = {t.pk: t for t in competition.teams.select_related("division")}
        self.divisions = {d.pk: d for d in competition.divisions.all()}
        self.fields["team"].choices = [
            (pk, f"{t.name} ({t.division.name})" if t.division else t.name)
            for pk, t in self.teams.items()
        ]
        self.fields["division"].choices = [(pk, d.name) for pk, d in self.divisions.items()]

    def clean(self):
        data = super().clean()
        if "team" in data and "division" in data:
            data["team"] = self.teams[data["team"]]
            data["division"] = self.divisions[data["division"]]
        return data


class NextSeasonForm(forms.Form):
    name = forms.CharField(label=_("Name of the next season's championship"), max_length=120)
    ties_confirmed = forms.BooleanField(
        label=_("Teams equal on every tie-break across a line are separated by seed: I confirm."),
        required=False,
    )


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Draw number"),
        required=False,
        min_value=1,
        max_value=999_999,
        help_text=_("Empty: drawn at random. The same number draws the same bracket."),
    )
    seeded = forms.IntegerField(
        label=_("Seeded teams"),
        required=False,
        min_value=0,
        max_value=1000,
        help_text=_("Empty: every team keeps its seed; the others are drawn."),
    )


class MatchEditForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)


def _label(player, named) -> str:
    if named is None or player.pk in named:
        return player.name
    return _("Player no. %(number)s") % {"number": player.pk}


class LineUpForm(forms.Form):
    """The four players of the line-up, in order: 1 and 2 at table 1, 3 and 4 at table 2."""

    def __init__(self, *args, squad, named=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.squad = {p.pk: p for p in squad}
        choices = [("", "—")] + [(p.pk, _label(p, named)) for p in squad]
        for order in range(1, LINE_UP + 1):
            self.fields[f"player_{order}"] = forms.TypedChoiceField(
                label=_("Table %(table)s, player %(order)s")
                % {"table": 1 if order <= 2 else 2, "order": order},
                choices=choices,
                coerce=int,
            )

    @classmethod
    def of(cls, match, team, data=None, *, viewer=None) -> "LineUpForm":
        """The team's line-up form for the match: its squad to choose from, the line-up
        handed in so far as the initial choice (a captain's page, a manager's). With a
        ``viewer`` (a manager's page), a player the viewer may not see named
        (``clubs.visibility``) is offered under their record's number."""
        squad = services.squad_players(team)
        current = {s.order: s.player_id for s in match.line_up.filter(team=team)}
        initial = {f"player_{order}": pk for order, pk in current.items()}
        named = None
        if viewer is not None:
            league = match.competition.league
            named = set(
                Player.objects.filter(pk__in=[p.pk for p in squad])
                .filter(visibility.naming_players(viewer, league))
                .values_list("pk", flat=True)
            )
        return cls(data, initial=initial, squad=squad, named=named)

    def clean(self):
        data = super().clean()
        picked = [data.get(f"player_{order}") for order in range(1, LINE_UP + 1)]
        if None in picked:
            return data
        if len(set(picked)) != LINE_UP:
            raise forms.ValidationError(_("A line-up is four different players."))
        data["players"] = [self.squad[pk] for pk in picked]
        return data


class ResultsForm(forms.Form):
    """Each deal's marques at both tables, by seat (a free-deal match: the totals)."""

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        free = competition.mode == Competition.Mode.FREE
        self.numbers = [0] if free else list(range(1, competition.deals + 1))
        for number in self.numbers:
            for table in (1, 2):
                for seat in SEATS:
                    self.fields[self.key(number, table, seat)] = forms.IntegerField(
                        label=SEAT_LABELS[seat],
                        min_value=-MARQUE_LIMIT,
                        max_value=MARQUE_LIMIT,
                        widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 5}),
                    )

    @staticmethod
    def key(number, table, seat):
        return f"d{number}_t{table}_{seat}"

    def rows(self):
        """For the template: (number, [(table, [bound fields by seat])])."""
        return [
            (
                number,
                [(t, [self[self.key(number, t, seat)] for seat in SEATS]) for t in (1, 2)],
            )
            for number in self.numbers
        ]

    def deals(self):
        data = self.cleaned_data
        return [
            tuple({seat: data[self.key(n, t, seat)] for seat in SEATS} for t in (1, 2))
            for n in self.numbers
        ]

    @classmethod
    def initial_of(cls, sheet):
        initial = {}
        for number, one, two, _home, _away in sheet.deals:
            for table, deal in ((1, one), (2, two)):
                if deal is not None:
                    for seat, value in deal.marques.items():
                        initial[cls.key(number, table, seat)] = value
        return initial
