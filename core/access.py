"""The one decision of a view's access gate, whatever the thing guarded (a club, a
league): ``clubs.permissions.club_view`` and ``leagues.permissions.league_view`` read
their object and their permissions, and let this decide what the request meets.
"""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404


def refusal(request, found, level: str, can, *, login_for_hidden_writes: bool):
    """None when the request may go in, else the answer to give it.

    ``found``: the object guarded (None: no such slug); ``can(user, found, level)``:
    its permission. What may not be read answers as an unknown slug does (404), so its
    existence is not revealed; with ``login_for_hidden_writes``, an anonymous user on a
    URL above "read" meets the login page instead (an unknown slug too). What may be
    read but not at ``level``: the login page for an anonymous user, 403 for another.
    """
    user = request.user
    if found is not None and can(user, found, level):
        return None
    if found is None or not can(user, found, "read"):
        if login_for_hidden_writes and level != "read" and not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied
