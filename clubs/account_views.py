"""Getting started without a shell (``clubs.accounts``): sign up and confirm, a new club,
and My account's email address. Outside any club.

* ``signup`` (when ``settings.ALLOW_SIGNUP``; else 404): a login made inactive,
  and a confirmation link mailed. ``signup_confirm``: the link's page; its
  button (a POST: mail scanners that open links change nothing) activates the
  login, logs in and goes on to create a club (when allowed) or home.
* ``signup_resend``: the confirmation link mailed again, for a login that tried to
  log in (with its right password) before confirming; the address typed again.
* ``club_create`` (logged in, ``settings.ALLOW_CLUB_CREATION`` or a superuser;
  else 404): the club, its creator as manager, then its first season
  (``manage:welcome``).
* ``token_create``, ``token_revoke`` (logged in, POST): a personal API token
  (``clubs.tokens``), whose text My account shows once, when it is made.
* ``email_change`` (logged in, POST): mail a link to the new address;
  ``email_confirm``: the link's page, whose button sets it.

Requests that send mail or read a token are limited per client address
(``core.throttle``): the 429 page past it.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import accounts, tokens
from clubs.account_forms import (
    EmailForm,
    NewClubForm,
    ResendForm,
    SignUpForm,
    TokenForm,
    add_account_error,
)
from clubs.accounts import AccountError
from clubs.views import profile_page
from core.idempotency import idempotent, once
from core.throttle import Limit, client_address, limited

GET_POST = require_http_methods(["GET", "POST"])
SIGNUP_ADDRESS = Limit("signup-address", 10, 3600)
EMAIL_USER = Limit("email-change", 5, 3600)
LINK_ADDRESS = Limit("account-link-address", 30, 3600)
TOKEN_USER = Limit("api-token-create", 20, 3600)
BACKEND = "django.contrib.auth.backends.ModelBackend"


@GET_POST
def signup(request):
    if not accounts.signup_allowed():
        raise Http404
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        if not SIGNUP_ADDRESS.hit(client_address(request)):
            return limited(request)
        data = form.cleaned_data
        try:
            accounts.sign_up(data["username"], data["email"], data["password1"], request=request)
        except AccountError as error:
            add_account_error(form, error)
        else:
            return render(request, "registration/signup_sent.html", {"email": data["email"]})
    return render(request, "registration/signup.html", {"form": form})


@GET_POST
def signup_confirm(request, token):
    if not LINK_ADDRESS.hit(client_address(request)):
        return limited(request)
    error = None
    if request.method == "POST":
        try:
            user = accounts.confirm_sign_up(token)
        except AccountError as refused:
            error = refused.message
        else:
            login(request, user, backend=BACKEND)
            messages.success(
                request,
                _("Welcome, %(username)s: your login works.") % {"username": user.get_username()},
            )
            return redirect("club_create" if accounts.club_creation_allowed(user) else "home")
    return render(request, "registration/signup_confirm.html", {"error": error})


@GET_POST
def signup_resend(request):
    """The confirmation link sent again, for the login that just tried to log in with its
    right password before confirming (``accounts.PENDING_SESSION_KEY``); else the login
    page."""
    user_id = request.session.get(accounts.PENDING_SESSION_KEY)
    if user_id is None:
        return redirect("login")
    form = ResendForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        if not SIGNUP_ADDRESS.hit(client_address(request)):
            return limited(request)
        try:
            email = accounts.resend_sign_up(user_id, form.cleaned_data["email"], request=request)
        except AccountError as error:
            add_account_error(form, error)
        else:
            request.session.pop(accounts.PENDING_SESSION_KEY, None)
            return render(request, "registration/signup_sent.html", {"email": email})
    return render(request, "registration/signup_resend.html", {"form": form})


@GET_POST
def club_create(request):
    if not (settings.ALLOW_CLUB_CREATION or request.user.is_superuser):
        raise Http404  # the same to everybody while the operator does not allow it
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = NewClubForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            club = accounts.create_club(
                form.cleaned_data["name"],
                is_public=form.cleaned_data["visibility"] == "public",
                actor=request.user,
            )
        except AccountError as error:
            add_account_error(form, error)
        else:
            messages.success(request, _("%(club)s is created: you manage it.") % {"club": club})
            return redirect("manage:welcome", club.slug)
    return render(request, "clubs/club_create.html", {"form": form})


@require_POST
@login_required
def email_change(request):
    form = EmailForm(request.POST)
    if form.is_valid():
        if not EMAIL_USER.hit(request.user.pk):
            return limited(request)
        try:
            email = accounts.request_email(
                request.user, form.cleaned_data["email"], request=request
            )
        except AccountError as error:
            add_account_error(form, error)
        else:
            messages.success(
                request,
                _("A link went to %(email)s: open it to make it your address.") % {"email": email},
            )
            return redirect("profile")
    return profile_page(request, email_form=form, status=400)


@GET_POST
def email_confirm(request, token):
    if not LINK_ADDRESS.hit(client_address(request)):
        return limited(request)
    try:
        user, email = accounts.email_link_target(token)
    except AccountError as error:
        return render(request, "registration/email_confirm.html", {"error": error.message})
    if request.method == "POST":
        try:
            accounts.confirm_email(token)
        except AccountError as error:
            return render(request, "registration/email_confirm.html", {"error": error.message})
        messages.success(request, _("Your email address is now %(email)s.") % {"email": email})
        return redirect("profile" if request.user.is_authenticated else "login")
    context = {"email": email, "username": user.get_username()}
    return render(request, "registration/email_confirm.html", context)


@require_POST
@login_required
@idempotent
def token_create(request):
    """A new API token: My account again, showing its text this once (never stored)."""
    form = TokenForm(request.POST, user=request.user)
    if form.is_valid():
        if not TOKEN_USER.hit(request.user.pk):
            return limited(request)
        data = form.cleaned_data
        try:
            # stored once per form: a double post makes one token (``core.idempotency``);
            # the repeat goes back to My account, the text shown to the first answer only
            token, text = once(
                request,
                lambda: tokens.create_token(
                    club=data["club"], name=data["name"], scope=data["scope"], actor=request.user
                ),
                url=reverse("profile"),
            )
        except tokens.TokenError as error:
            add_account_error(form, error)
        else:
            page = profile_page(request, new_token={"token": token, "text": text})
            page["Cache-Control"] = "no-store"  # the token's text: never kept by a cache
            return page
    return profile_page(request, token_form=form, status=400)


@require_POST
@login_required
def token_revoke(request, token_id):
    token = get_object_or_404(request.user.api_tokens.live(), pk=token_id)
    tokens.revoke_token(token, actor=request.user)
    messages.success(request, _("The token %(name)s is revoked.") % {"name": token.name})
    return redirect("profile")
