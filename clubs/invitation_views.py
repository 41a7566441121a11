"""The page an invitation's link opens (``invitation``, outside any club): accept it.

Logged in: one button joins the club with that login. Anonymous, for an address
no login uses: choose a password, which makes the login, joins and logs in.
Anonymous, for an address a login uses: log in first (the page links to the
login page and back). An unknown, used or expired link: 404, the same for all.
Requests are limited per client address (``TOKEN_ADDRESS``): a 429 page past it.
"""

from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import invitations
from clubs.forms import AcceptInvitationForm
from clubs.services import ClubError
from core.templatetags.french import to_name
from core.throttle import Limit, client_address, limited

TOKEN_ADDRESS = Limit("invitation-address", 30, 3600)


@require_http_methods(["GET", "POST"])
def invitation(request, token):
    if not TOKEN_ADDRESS.hit(client_address(request)):
        return limited(request)
    invitation = invitations.find(token)
    if invitation is None:
        raise Http404
    user = request.user if request.user.is_authenticated else None
    needs_login = user is None and invitations.needs_login(invitation)
    form = None
    if user is None and not needs_login:
        form = AcceptInvitationForm(
            request.POST if request.method == "POST" else None, email=invitation.email
        )
    if request.method == "POST" and not needs_login and (form is None or form.is_valid()):
        password = form.cleaned_data["password1"] if form is not None else None
        try:
            membership = invitations.accept(token, user=user, password=password)
        except ClubError as error:
            if form is None:
                raise Http404 from None
            form.add_error(None, error.message)
        else:
            if user is None:
                login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
            username = membership.user.get_username()
            messages.success(
                request,
                _("Welcome to %(club)s. Your username is %(username)s.")
                % {"club": to_name(membership.club.name), "username": username},
            )
            return redirect(membership.club)
    context = {"invitation": invitation, "form": form, "needs_login": needs_login}
    if form is not None:  # the login the password makes: its username, shown before
        context["new_username"] = invitations.free_username(invitation.email)
    return render(request, "clubs/invitation.html", context)
