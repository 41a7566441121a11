"""Forms of the tournament pages. They check the shape of the input; the rules (rounds
started, players already entered…) are ``tournaments.services``', whose
``TournamentError`` lands on the field it names."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.rules_forms import RulesFields
from core.widgets import DateInput
from tournaments.models import Tournament
from tournaments.services import MAX_DEALS, MAX_ROUNDS

LENGTH_CHOICES = [("deals", _("A number of deals")), ("time", _("A time"))]
TEAM_CHOICES = [("", _("No teams")), ("2", _("Teams of 2")), ("4", _("Teams of 4"))]


class EventForm(RulesFields):
    """What a free-deal tournament's settings and a duplicate event's share: the name,
    the date, the rules (the fields of a season's house rules), the rounds, the teams
    and how a table's sheet is confirmed. A subclass gives ``rounds`` and
    ``team_size`` (their bounds and choices differ), its own fields, and adds them
    to ``initial_of`` and ``settings``."""

    name = forms.CharField(label=_("Name"), max_length=80)
    date = forms.DateField(label=_("Date"), widget=DateInput())
    confirm_by = forms.ChoiceField(
        label=_("A table's sheet is confirmed by a second entry of"),
        choices=Tournament.ConfirmBy.choices,
        widget=forms.RadioSelect,
        initial=Tournament.ConfirmBy.TOTALS,
        required=False,
    )

    ERROR_FIELDS = {**RulesFields.ERROR_FIELDS, "rules": "preset"}

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournament is not None:
            self.initial.update(self.initial_of(tournament))
            self.set_rules_initial(tournament.rules)

    def initial_of(self, tournament) -> dict:
        return {
            "name": tournament.name,
            "date": tournament.date,
            "rounds": tournament.rounds,
            "team_size": str(tournament.team_size or ""),
            "confirm_by": tournament.confirm_by,
        }

    def settings(self) -> dict:
        """The keyword arguments of the service that creates or updates the event."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "date": data["date"],
            "rules": data["rules"],
            "rounds": data["rounds"],
            "team_size": data.get("team_size"),
            "confirm_by": data.get("confirm_by") or Tournament.ConfirmBy.TOTALS,
        }


class TournamentForm(EventForm):
    """A free-deal tournament's settings and its rules."""

    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        help_text=_("The séquences (or positions) everybody plays."),
    )
    length = forms.ChoiceField(
        label=_("Each round lasts"),
        choices=LENGTH_CHOICES,
        widget=forms.RadioSelect,
        initial="deals",
    )
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"),
        min_value=1,
        max_value=MAX_DEALS,
        required=False,
        initial=5,
        help_text=_(
            "At tables of 4; a table of 3 or 5 plays it rounded up to a multiple of "
            "its seats, so everybody deals as often."
        ),
    )
    minutes_per_round = forms.IntegerField(
        label=_("Minutes per round"),
        min_value=5,
        max_value=240,
        required=False,
        initial=45,
        help_text=_("Deals are played until the time is up."),
    )
    five_tables = forms.ChoiceField(
        label=_("Tables of five play"),
        choices=Tournament.FiveTables.choices,
        widget=forms.RadioSelect,
        initial=Tournament.FiveTables.FIVE,
    )
    draw_rule = forms.ChoiceField(
        label=_("The draw puts first"),
        choices=[
            (
                Tournament.DrawRule.END,
                _("fair by the end: after the last round, everybody's tables of 5 within one"),
            ),
            (
                Tournament.DrawRule.ROUND,
                _("fair every round: nobody sits at a table of 5 twice before everybody has once"),
            ),
            (
                Tournament.DrawRule.MEETINGS,
                _("fewer repeated meetings: some players sit at a table of 5 more often"),
            ),
        ],
        required=False,  # a form posted without it: fair by the end
        widget=forms.RadioSelect,
        initial=Tournament.DrawRule.END,
        help_text=_(
            "With few tables, fair seats cost repeated meetings: 18 players over 5 rounds "
            "meet again at least 14 times with fair seats, 11 without."
        ),
    )

    team_size = forms.TypedChoiceField(
        label=_("Teams"),
        choices=TEAM_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_("Teammates never sit at the same table; a team ranking adds their totals."),
    )

    def initial_of(self, tournament) -> dict:
        return {
            **super().initial_of(tournament),
            "length": "time" if tournament.is_timed else "deals",
            "deals_per_round": tournament.deals_per_round or 5,
            "minutes_per_round": tournament.minutes_per_round or 45,
            "five_tables": tournament.five_tables,
            "draw_rule": tournament.draw_rule,
        }

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("length") == "time":
            if not cleaned.get("minutes_per_round"):
                self.add_error("minutes_per_round", _("Give the minutes of a round."))
            cleaned["deals_per_round"] = None
        else:
            if not cleaned.get("deals_per_round"):
                self.add_error("deals_per_round", _("Give the deals of a round."))
            cleaned["minutes_per_round"] = None
        return cleaned

    def settings(self) -> dict:
        data = self.cleaned_data
        return {
            **super().settings(),
            "deals_per_round": data["deals_per_round"],
            "minutes_per_round": data["minutes_per_round"],
            "five_tables": data["five_tables"],
            "draw_rule": data["draw_rule"] or Tournament.DrawRule.END,
        }


class MembersForm(forms.Form):
    """Club players to enter, ticked in a list."""

    players = forms.ModelMultipleChoiceField(
        label=_("Players of the club"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = players


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=60)
    club = forms.CharField(label=_("Their club"), max_length=60, required=False)
    licence = forms.CharField(label=_("FFT licence (optional)"), max_length=20, required=False)


class BulkForm(forms.Form):
    names = forms.CharField(
        label=_("Paste a list"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=20000,
        help_text=_(
            "One player a line: a name of the club's players enters that member; "
            "“Name; Club; Licence” enters a guest (the club and licence may be left out)."
        ),
    )


class SwapForm(forms.Form):
    a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    b = forms.TypedChoiceField(label=_("Swap with"), coerce=int)

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(e.number, f"{e.number}. {e.name}") for e in entries]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices


class TeamForm(forms.Form):
    """A team: its name and its players, one a line (a club player's name, or
    "Name; Club; Licence" for a guest)."""

    team = forms.CharField(label=_("Team name"), max_length=60)
    names = forms.CharField(
        label=_("Its players"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=2000,
        help_text=_("One player a line, as in the pasted list."),
    )


class AdjustmentForm(forms.Form):
    """The arbitre's penalty or adjustment to one player in one round."""

    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    points = forms.CharField(
        label=_("Points (negative for a penalty)"),
        max_length=12,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    reason = forms.CharField(
        label=_("Reason (arbitration code article, or the club's rule)"), max_length=200
    )

    def __init__(self, *args, rounds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].choices = [(n, n) for n in rounds]
