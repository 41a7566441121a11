"""Forms of the managers' pages. They check the shape of the input; the rules
(last manager, dates, house rules…) are the services', whose ``ClubError`` lands
on the field it names (``add_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Role
from clubs.services import ClubError
from scoresheet.scoring.errors import ScoringError
from scoresheet.scoring.jsonformat import parse_rules
from scoresheet.scoring.rules import Rules

PRESET_CHOICES = [
    ("fft", _("FFT: the official rules")),
    ("pousse", _("With the pousse bid")),
    ("contre5", _("Garde contre ×5, petit chelem")),
    ("fixed", _("Fixed scores: garde 80, 160, 320")),
    ("mouches", _("Mouches: with pools")),
    ("two_players", _("Two players")),
]
ROUNDING_CHOICES = [(1, _("None")), (5, _("To 5")), (10, _("To 10"))]
SPLIT_CHOICES = [
    ("two_to_one", _("Taker 2 shares, partner 1")),
    ("equal", _("Taker and partner alike")),
]
VISIBILITY_CHOICES = [("public", _("Public")), ("members", _("Members only"))]
DEFAULTS = Rules()


def add_club_error(form: forms.Form, error: ClubError, fields: dict | None = None) -> None:
    """Put a service's refusal on the form field it names (or on the whole form)."""
    field = (fields or {}).get(error.field, error.field)
    form.add_error(field if field in form.fields else None, error.message)


# ---------------------------------------------------------------- the club


class ClubSettingsForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=120)
    visibility = forms.ChoiceField(
        label=_("Who may read the club's sheets and standings?"),
        help_text=_(
            "Public: anyone, without logging in. Members only: its members; to everybody "
            "else the club does not exist."
        ),
        choices=VISIBILITY_CHOICES,
        widget=forms.RadioSelect,
    )

    @classmethod
    def for_club(cls, club, data=None):
        initial = {"name": club.name, "visibility": "public" if club.is_public else "members"}
        return cls(data, initial=initial)

    @property
    def is_public(self) -> bool:
        return self.cleaned_data["visibility"] == "public"


# ---------------------------------------------------------------- members


class AddMemberForm(forms.Form):
    username_or_email = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        help_text=_(
            "An email address nobody uses here creates a login and mails it an "
            "invitation to choose a password."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=Role.choices, initial=Role.MEMBER, widget=forms.RadioSelect
    )


class MemberForm(forms.Form):
    """One row of the members table: its controls carry ``form="member-<id>"``."""

    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
    player = forms.ModelChoiceField(
        label=_("Player"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("— none —"),
    )

    def __init__(self, data=None, *, membership, players, linked):
        """``players``: the club's players; ``linked``: player id → the user id linked to it."""
        self.membership = membership
        self.current_player = next(
            (p for p in players if linked.get(p.pk) == membership.user_id), None
        )
        super().__init__(
            data,
            prefix=f"m{membership.pk}",
            initial={"role": membership.role, "player": self.current_player},
        )
        user = membership.user.get_username()
        form_id = f"member-{membership.pk}"
        # A player linked to another login is left out: unlink it there first.
        free = [p.pk for p in players if linked.get(p.pk) in (None, membership.user_id)]
        player = self.fields["player"]
        player.queryset = Player.objects.filter(club_id=membership.club_id, pk__in=free)
        player.widget.attrs.update(
            {"form": form_id, "aria-label": _("Player of %(user)s") % {"user": user}}
        )
        self.fields["role"].widget.attrs.update(
            {"form": form_id, "aria-label": _("Role of %(user)s") % {"user": user}}
        )


# ---------------------------------------------------------------- seasons


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


class SeasonForm(forms.Form):
    """A season: its name and dates, and its house rules field by field."""

    name = forms.CharField(label=_("Name"), max_length=80)
    start_date = forms.DateField(label=_("Start"), widget=DateInput)
    end_date = forms.DateField(label=_("End (optional)"), required=False, widget=DateInput)
    preset = forms.ChoiceField(label=_("Scoring rules"), choices=PRESET_CHOICES)
    rounding = forms.TypedChoiceField(
        label=_("Rounding of each score"),
        choices=ROUNDING_CHOICES,
        coerce=int,
        widget=forms.RadioSelect,
    )
    poignee_single = forms.IntegerField(label=_("Single"), min_value=0, max_value=9999)
    poignee_double = forms.IntegerField(label=_("Double"), min_value=0, max_value=9999)
    poignee_triple = forms.IntegerField(label=_("Triple"), min_value=0, max_value=9999)
    misere = forms.IntegerField(
        label=_("Misère"), min_value=0, max_value=9999, help_text=_("0: no misère.")
    )
    no_prise = forms.BooleanField(label=_("No prise: the lowest bid is garde"), required=False)
    five_player_split = forms.ChoiceField(
        label=_("At five, the attack's share"), choices=SPLIT_CHOICES, widget=forms.RadioSelect
    )
    ante = forms.IntegerField(
        label=_("Ante"),
        min_value=0,
        max_value=9999,
        required=False,
        help_text=_("Each player pays it into a new pool."),
    )
    dealer_stake = forms.IntegerField(
        label=_("Dealer's stake"),
        min_value=0,
        max_value=9999,
        required=False,
        help_text=_("The dealer adds it to the largest pool."),
    )

    POIGNEE = ("poignee_single", "poignee_double", "poignee_triple")
    MOUCHES = ("ante", "dealer_stake")
    #: A service error's field → the form field that shows it.
    ERROR_FIELDS = {"rules": "preset", "poignee": "poignee_single"}

    def __init__(self, data=None, *, season=None, rules=None):
        """Edit ``season``, or start a new one with ``rules`` (a dict) as house rules."""
        initial = {}
        if season is not None:
            initial = {
                "name": season.name,
                "start_date": season.start_date,
                "end_date": season.end_date,
            }
            rules = season.rules
        initial.update(rules_initial(rules))
        super().__init__(data, initial=initial)

    def rules(self) -> dict:
        """The house rules in the JSON form of HAND_FORMAT.md (validated by the service)."""
        data = self.cleaned_data
        return {
            "preset": data["preset"],
            "rounding": data["rounding"],
            "poignee": [data[name] for name in self.POIGNEE],
            "misere": data["misere"],
            "no_prise": data["no_prise"],
            "five_player_split": data["five_player_split"],
            "ante": DEFAULTS.ante if data["ante"] is None else data["ante"],
            "dealer_stake": (
                DEFAULTS.dealer_stake if data["dealer_stake"] is None else data["dealer_stake"]
            ),
        }

    def poignee_fields(self):
        return [self[name] for name in self.POIGNEE]

    def mouches_fields(self):
        return [self[name] for name in self.MOUCHES]

    def other_rule_fields(self):
        return [self[name] for name in ("misere", "no_prise", "five_player_split")]


def ruleset_of(rules) -> Rules:
    """The ruleset of stored rules; the defaults if they no longer parse."""
    try:
        return parse_rules(rules)
    except ScoringError:
        return DEFAULTS


def rules_initial(rules) -> dict:
    ruleset = ruleset_of(rules)
    single, double, triple = ruleset.poignee
    return {
        "preset": ruleset.preset,
        "rounding": ruleset.rounding,
        "poignee_single": single,
        "poignee_double": double,
        "poignee_triple": triple,
        "misere": ruleset.misere,
        "no_prise": ruleset.no_prise,
        "five_player_split": ruleset.five_player_split,
        "ante": ruleset.ante,
        "dealer_stake": ruleset.dealer_stake,
    }


def describe_rules(rules) -> list[str]:
    """House rules in a few words each, for lists and confirmations."""
    ruleset = ruleset_of(rules)
    out = [str(dict(PRESET_CHOICES)[ruleset.preset])]
    if ruleset.rounding != 1:
        out.append(_("rounded to %(n)d") % {"n": ruleset.rounding})
    if ruleset.preset != "two_players":
        out.append(_("poignées %(values)s") % {"values": "/".join(map(str, ruleset.poignee))})
    if ruleset.misere:
        out.append(_("misère %(n)d") % {"n": ruleset.misere})
    if ruleset.no_prise:
        out.append(str(_("no prise")))
    if ruleset.five_player_split == "equal":
        out.append(str(_("taker and partner alike at five")))
    if ruleset.has_pools:
        out.append(_("ante %(n)d") % {"n": ruleset.ante})
        out.append(_("dealer's stake %(n)d") % {"n": ruleset.dealer_stake})
    return out
