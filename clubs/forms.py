"""Forms of the managers' pages. They check the shape of the input; the rules
(last manager, dates…) are the services', whose ``ClubError`` lands on the field
it names (``add_error``). A season's house rules are the fields and checks of
``clubs.rules_forms``, the same as a new sheet's "other rules"."""

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Role
from clubs.ranking_rule import MAX_EVENINGS, RankingError, parse_ranking
from clubs.rules_forms import RulesFields
from clubs.services import ClubError
from core.templatetags.french import of_name
from core.widgets import DateInput

VISIBILITY_CHOICES = [("public", _("Public")), ("members", _("Members only"))]


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
    """Invite an email address: its owner becomes a member once they accept."""

    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_(
            "We mail an invitation to this address; its owner joins the club when they "
            "accept it (with their login, or a new one)."
        ),
        widget=forms.EmailInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=Role.choices, initial=Role.MEMBER, widget=forms.RadioSelect
    )


class NewPasswordForm(forms.Form):
    """A new password, twice (an invited address's login here, a sign-up's in
    ``clubs.account_forms``); the two must match."""

    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        one, two = data.get("password1"), data.get("password2")
        if one and two and one != two:
            self.add_error(
                "password2",
                forms.ValidationError(_("The two passwords differ."), code="password_mismatch"),
            )
        return data


class AcceptInvitationForm(NewPasswordForm):
    """A new login for an invited address: its password, twice."""

    def __init__(self, data=None, *, email):
        super().__init__(data)
        self.email = email

    def clean(self):
        data = super().clean()
        one = data.get("password1")
        if one and not self.has_error("password2", "password_mismatch"):
            user = get_user_model()(username=self.email.split("@")[0], email=self.email)
            try:
                password_validation.validate_password(one, user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data


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
        user = getattr(membership, "display_name", "") or membership.user.email
        of_user = of_name(user, "person")
        form_id = f"member-{membership.pk}"
        # A player linked to another login is left out: unlink it there first.
        free = [p.pk for p in players if linked.get(p.pk) in (None, membership.user_id)]
        player = self.fields["player"]
        player.queryset = Player.objects.filter(club_id=membership.club_id, pk__in=free)
        player.widget.attrs.update(
            {"form": form_id, "aria-label": _("Player of %(user)s") % {"user": of_user}}
        )
        self.fields["role"].widget.attrs.update(
            {"form": form_id, "aria-label": _("Role of %(user)s") % {"user": of_user}}
        )


# ---------------------------------------------------------------- seasons


RANKING_CHOICES = [
    ("total", _("Total score")),
    ("hand_average", _("Average per hand played")),
    ("evening_average", _("Average per evening played")),
    ("points", _("Placement points per evening")),
]


class SeasonForm(RulesFields):
    """A season: its name and dates, its house rules (``cleaned_data["rules"]``) and its
    ranking rule (``cleaned_data["ranking"]``, ``clubs.ranking_rule``)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    start_date = forms.DateField(label=_("Start"), widget=DateInput)
    end_date = forms.DateField(label=_("End (optional)"), required=False, widget=DateInput)
    ranking_by = forms.ChoiceField(
        label=_("Rank the players by"),
        choices=RANKING_CHOICES,
        initial="total",
        required=False,  # absent: by total
        widget=forms.RadioSelect,
    )
    ranking_points = forms.CharField(
        label=_("Points of the first, second… of each evening"),
        help_text=_("With placement points: e.g. 10, 7, 5, 3 (the others get nothing)."),
        required=False,
        max_length=200,
    )
    ranking_best = forms.IntegerField(
        label=_("Count only the best evenings"),
        help_text=_("How many of each player's evenings count; empty: all of them."),
        required=False,
        min_value=1,
        max_value=MAX_EVENINGS,
    )
    ranking_min = forms.IntegerField(
        label=_("Evenings needed to be ranked"),
        help_text=_("Players with fewer are listed below, unranked; empty: everyone is ranked."),
        required=False,
        min_value=0,
        max_value=MAX_EVENINGS,
    )

    field_order = ["name", "start_date", "end_date"]
    RANKING_FIELDS = {
        "by": "ranking_by",
        "points": "ranking_points",
        "best": "ranking_best",
        "min_evenings": "ranking_min",
    }

    def clean(self):
        cleaned = super().clean()
        if any(self[name].errors for name in self.RANKING_FIELDS.values()):
            return cleaned
        try:
            ranking = parse_ranking(
                {
                    "by": cleaned.get("ranking_by"),
                    "points": cleaned.get("ranking_points") or "",
                    "best": cleaned.get("ranking_best"),
                    "min_evenings": cleaned.get("ranking_min"),
                }
            )
        except RankingError as error:
            self.add_error(self.RANKING_FIELDS.get(error.field, "ranking_by"), error.message)
        else:
            cleaned["ranking"] = ranking.as_dict()
        return cleaned

    def set_ranking_initial(self, stored) -> None:
        try:
            ranking = parse_ranking(stored)
        except RankingError:
            return
        self.initial.setdefault("ranking_by", ranking.by)
        self.initial.setdefault("ranking_points", ", ".join(map(str, ranking.points)))
        self.initial.setdefault("ranking_best", ranking.best)
        self.initial.setdefault("ranking_min", ranking.min_evenings or None)

    def __init__(self, data=None, *, season=None, rules=None, ranking=None, initial=None):
        """Edit ``season``, or start a new one with ``rules`` (a dict) as house rules
        and ``ranking`` as its ranking rule."""
        initial = dict(initial or {})
        if season is not None:
            initial = {
                "name": season.name,
                "start_date": season.start_date,
                "end_date": season.end_date,
            }
            rules = season.rules
            ranking = season.ranking
        super().__init__(data, initial=initial)
        self.set_rules_initial(rules)
        self.set_ranking_initial(ranking)
