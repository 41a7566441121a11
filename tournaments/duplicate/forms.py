"""Forms of a duplicate event's pages: its settings, the séries, the arbitre's
decisions. They check the shape of the input; the rules are
``tournaments.duplicate.services``'."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tarot.duplicate import SEATS
from tournaments.duplicate.services import MAX_DEALS_PER_SET, MAX_ROUNDS
from tournaments.forms import EventForm
from tournaments.models import Tournament
from tournaments.queries import SEAT_LETTERS

TEAM_CHOICES = [("", _("No teams")), ("3", _("Triplettes (3)")), ("4", _("Quadrettes (4)"))]


class DuplicateForm(EventForm):
    """A duplicate event's settings and its rules (FFT by default)."""

    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=4,
        help_text=_("At most one round per table: each round every table plays another set."),
    )
    deals_per_set = forms.IntegerField(
        label=_("Deals per set (étui)"), min_value=1, max_value=MAX_DEALS_PER_SET, initial=3
    )
    method = forms.ChoiceField(
        label=_("Comparison"),
        choices=Tournament.Method.choices,
        widget=forms.RadioSelect,
        initial=Tournament.Method.MATCHPOINTS,
    )
    team_size = forms.TypedChoiceField(
        label=_("Teams"), choices=TEAM_CHOICES, coerce=int, empty_value=None, required=False
    )

    ERROR_FIELDS = {**EventForm.ERROR_FIELDS, "deals_per_round": "deals_per_set"}

    def initial_of(self, tournament) -> dict:
        return {
            **super().initial_of(tournament),
            "deals_per_set": tournament.deals_per_round,
            "method": tournament.method,
        }

    def settings(self) -> dict:
        data = self.cleaned_data
        return {
            **super().settings(),
            "deals_per_set": data["deals_per_set"],
            "method": data["method"],
        }


class DecisionForm(forms.Form):
    """The arbitre's decision on one deal at one table of one round."""

    KINDS = [("cancel", _("Cancel the deal at this table")), ("arbitral", _("Arbitral score"))]

    kind = forms.ChoiceField(label=_("Decision"), choices=KINDS, widget=forms.RadioSelect)
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=99)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=999)
    deal = forms.IntegerField(label=_("Deal"), min_value=1, max_value=9999)
    seat = forms.ChoiceField(
        label=_("Seat"),
        choices=[("", "—"), *[(s, SEAT_LETTERS[i]) for i, s in enumerate(SEATS)]],
        required=False,
    )
    score = forms.CharField(
        label=_("Arbitral score"),
        max_length=12,
        required=False,
        help_text=_("A percentage under matchpoints, points under the average."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)
