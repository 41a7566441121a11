"""Forms of sign-up, My account's email address and a new club (``clubs.account_views``).

They check the shape of the input; ``clubs.accounts`` decides, and its
``AccountError`` lands on the field it names."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from clubs.forms import VISIBILITY_CHOICES, NewPasswordForm
from clubs.models import ApiToken, Club

USERNAME_MAX = get_user_model()._meta.get_field("username").max_length
NO_AUTOFILL = {"autocapitalize": "none", "spellcheck": "false"}


def add_account_error(form, error) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, error.message)


class SignUpForm(NewPasswordForm):
    field_order = ["username", "email", "password1", "password2"]

    username = forms.CharField(
        label=_("Username"),
        max_length=USERNAME_MAX,
        help_text=_("What you log in with: letters, digits and @ . + - _"),
        widget=forms.TextInput(attrs={"autocomplete": "username", **NO_AUTOFILL}),
    )
    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_("We mail a link to it: your login works once you have opened it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email", **NO_AUTOFILL}),
    )


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=_("New email address"),
        max_length=254,
        help_text=_("We mail a link to it; the address is yours once you have opened it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email", **NO_AUTOFILL}),
    )


class ResendForm(forms.Form):
    email = forms.EmailField(
        label=_("Your email address"),
        max_length=254,
        help_text=_("The one you signed up with: the link goes to it again."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class NewClubForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=120)
    visibility = forms.ChoiceField(
        label=_("Who may read the club's sheets and standings?"),
        choices=VISIBILITY_CHOICES,
        initial="public",
        widget=forms.RadioSelect,
    )


class TokenForm(forms.Form):
    """A new API token: for one of the user's clubs, named, to read or to write."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=None, empty_label=None)
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("Where the token is used: the club's website, a phone, a script…"),
    )
    scope = forms.ChoiceField(
        label=_("Access"),
        choices=ApiToken.Scope.choices,
        initial=ApiToken.Scope.READ,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = Club.objects.filter(memberships__user=user).order_by("name")
