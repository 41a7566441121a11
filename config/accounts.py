"""The account pages of ``django.contrib.auth``, with limits against guessing and flooding.

* Log in: django-axes locks a username from one address after
  ``AXES_FAILURE_LIMIT`` failures; on top of that one address may fail
  ``LOGIN_ADDRESS`` times an hour whatever the usernames (password spraying).
  A username longer than the field is a form error, not a database error.
* Change my password: ``PASSWORD_CHANGE`` wrong current passwords an hour per user.
* Reset my password: ``RESET_ADDRESS`` requests an hour per address and
  ``RESET_EMAIL`` per email address, so a loop cannot flood a mailbox.
* The set-password link (a token): ``TOKEN_ADDRESS`` requests an hour per address.

Every refusal is the translated 429 page (``core.throttle.limited``).
"""

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_post_parameters

from clubs.accounts import PENDING_SESSION_KEY, pending_sign_up, signup_allowed
from core.throttle import Limit, client_address, limited

LOGIN_ADDRESS = Limit("login-address", 20, 3600)
PASSWORD_CHANGE = Limit("password-change", 5, 3600)
RESET_ADDRESS = Limit("reset-address", 5, 3600)
RESET_EMAIL = Limit("reset-email", 3, 3600)
TOKEN_ADDRESS = Limit("token-address", 30, 3600)

USERNAME_MAX = get_user_model()._meta.get_field("username").max_length


class LoginForm(auth_forms.AuthenticationForm):
    """Django's login form whose username has its length checked (Django sets
    ``max_length`` after the field is built, so no validator enforces it). A login
    signed up but not confirmed, with its right password, is told to open the link
    mailed to it (and offered to have it sent again), not that the password is wrong."""

    error_messages = {
        **auth_forms.AuthenticationForm.error_messages,
        "unconfirmed": _(
            "Your login is not confirmed yet: open the link we mailed you when you signed up."
        ),
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(USERNAME_MAX))
        self.unconfirmed = False

    def clean(self):
        # Asked before the login is tried: a tried login that fails counts as a failure
        # (django-axes, and the address's limit), and the right password of a login not
        # confirmed yet is no wrong guess (five of them locked the login for an hour).
        data = self.cleaned_data
        credentials = {"username": data.get("username")}
        if self.request is not None and not AxesProxyHandler.is_allowed(self.request, credentials):
            return super().clean()  # locked out (by wrong passwords): nothing said of the login
        pending = pending_sign_up(data.get("username"), data.get("password"))
        if pending is None:
            return super().clean()
        self.unconfirmed = True
        if self.request is not None:
            self.request.session[PENDING_SESSION_KEY] = pending.pk
        raise ValidationError(self.error_messages["unconfirmed"], code="unconfirmed")


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def get_context_data(self, **kwargs):
        # the way in for a visitor without a login, when the operator allows sign-up
        signup_open = signup_allowed() and not self.request.user.is_authenticated
        return super().get_context_data(**kwargs, signup_open=signup_open)

    def post(self, request, *args, **kwargs):
        if LOGIN_ADDRESS.exceeded(client_address(request)):
            return limited(request)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if not form.unconfirmed:  # a wrong password, not a login still to confirm
            LOGIN_ADDRESS.hit(client_address(self.request))
        return super().form_invalid(form)


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    def clean_old_password(self):
        try:
            return super().clean_old_password()
        except auth_forms.ValidationError:
            PASSWORD_CHANGE.hit(self.user.pk)
            raise


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm

    def post(self, request, *args, **kwargs):
        if PASSWORD_CHANGE.exceeded(request.user.pk):
            return limited(request)
        return super().post(request, *args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    def post(self, request, *args, **kwargs):
        email = str(request.POST.get("email", ""))[:254]
        within = RESET_ADDRESS.hit(client_address(request))
        if not within or (email and not RESET_EMAIL.hit(email)):
            return limited(request)
        return super().post(request, *args, **kwargs)


@method_decorator(sensitive_post_parameters(), name="dispatch")
class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def dispatch(self, request, *args, **kwargs):
        if not TOKEN_ADDRESS.hit(client_address(request)):
            return limited(request)
        return super().dispatch(request, *args, **kwargs)
