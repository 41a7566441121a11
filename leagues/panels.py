"""What the leagues show on lower apps' pages (``core.pages`` panels): a club's pending
league invitations, with "Join" and "Decline", in the ``club_notices`` slot of the club's
home and manage pages (for its managers; the club's apps sit below the leagues and do
not read them)."""

from django.template.loader import render_to_string

from clubs.permissions import can
from leagues.models import LeagueClub


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
    if not pending:
        return ""
    data = {
        "club": club,
        "pending": pending,
        "next": request.get_full_path() if request is not None else "",
    }
    return render_to_string("leagues/includes/invitations.html", data, request=request)
