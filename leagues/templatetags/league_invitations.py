"""``{% league_invitations club %}``: a club's pending league invitations, with "Join" and
"Decline", on the club's home and manage pages (for its managers; the club's apps sit
below the leagues and do not read them)."""

from django import template

from clubs.permissions import can
from leagues.models import LeagueClub

register = template.Library()


@register.inclusion_tag("leagues/includes/invitations.html", takes_context=True)
def league_invitations(context, club):
    request = context.get("request")
    user = getattr(request, "user", None)
    pending = []
    if user is not None and user.is_authenticated and can(user, club, "manage"):
        pending = list(
            LeagueClub.objects.filter(club=club, accepted_at__isnull=True)
            .select_related("league")
            .order_by("invited_at", "pk")
        )
    return {
        "club": club,
        "pending": pending,
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }
