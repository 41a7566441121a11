"""The new-password pair shared by sign-up and an invitation's new login."""

import pytest

from clubs.account_forms import SignUpForm
from clubs.forms import AcceptInvitationForm

SIGN_UP = {"username": "lea", "email": "lea@example.org"}


@pytest.mark.parametrize(
    "make",
    [
        lambda data: SignUpForm({**SIGN_UP, **data}),
        lambda data: AcceptInvitationForm(data, email="lea@example.org"),
    ],
    ids=["sign-up", "invitation"],
)
def test_the_two_passwords_must_match(make):
    form = make({"password1": "a-fresh-passphrase-9", "password2": "a-fresh-passphrase-8"})
    assert not form.is_valid()
    assert form.errors["password2"] == ["The two passwords differ."]
    assert "password1" not in form.errors
    assert make(
        {"password1": "a-fresh-passphrase-9", "password2": "a-fresh-passphrase-9"}
    ).is_valid()


@pytest.mark.django_db
def test_an_invitation_password_is_validated_only_once_both_match():
    form = AcceptInvitationForm({"password1": "short", "password2": "short"}, email="x@example.org")
    assert not form.is_valid() and "password1" in form.errors
    form = AcceptInvitationForm({"password1": "short", "password2": "other"}, email="x@example.org")
    assert not form.is_valid() and list(form.errors) == ["password2"]
