"""Site-wide views that belong to no app."""

from django.db.models import Q
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from clubs.accounts import club_creation_allowed, signup_allowed
from clubs.models import Club, Membership, Role


def home(request):
    """The landing page: the clubs this user may read (public ones and their own)."""
    user = request.user
    clubs = Club.objects.all()
    roles = {}
    if user.is_authenticated:
        roles = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
        if not user.is_superuser:
            clubs = clubs.filter(Q(is_public=True) | Q(pk__in=roles))
    else:
        clubs = clubs.filter(is_public=True)
    clubs = list(clubs.order_by("name"))
    for club in clubs:
        club.role = Role(roles[club.pk]).label if club.pk in roles else ""
        club.members_only = not club.is_public
    context = {
        "clubs": clubs,
        # getting started without a shell (clubs.accounts): when the operator allows it
        "signup_open": signup_allowed() and not user.is_authenticated,
        "can_create_club": club_creation_allowed(user),
    }
    return render(request, "home.html", context)


@require_GET
def favicon(request):
    """``/favicon.ico``, which browsers ask for whatever ``base.html`` links: the
    site's icon (its static address read now: the manifest's, in production). Not
    the 404 page, whose logout form would give a browser without a CSRF cookie a
    new one, racing the page it had just loaded, whose form would then fail."""
    return redirect(static("img/icon.svg"))
