"""A team captain's pages, reached by their private link to a match (``/captain/<token>/``,
``competitions.links``), no account: the line-up handed in (four players of the squad)
until the match starts, then the result, its confirmation or a claim within 24 hours.

A wrong or revoked token answers 404 (and counts towards the address's limit of wrong
links, as a table's link does). Every write goes through ``competitions.services``,
which refuses a locked line-up or a late claim whatever the page shows.
"""

from functools import wraps

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from competitions import links, queries, services
from competitions.forms import LineUpForm
from competitions.models import CLAIM_WINDOW, MatchClaim
from competitions.privacy import Names, hide_sheet
from competitions.services import CompetitionError
from core.throttle import Limit, private_link
from tournaments import tokens

#: Requests a captain's link may make a minute.
LINK_LIMIT = Limit("captain-link", 120, 60)
#: Wrong or revoked links an address may try in ten minutes before it is refused.
MISS_LIMIT = Limit("captain-link-miss", 30, 600)


def captain_link(view):
    """Find the link (404 when wrong or revoked), count the request, call
    ``view(request, link)``."""

    @private_link(links.find, link_limit=LINK_LIMIT, miss_limit=MISS_LIMIT)
    @wraps(view)
    def wrapped(request, token, link):
        request.captain_token = token
        return view(request, link)

    return wrapped


def _back(request):
    return redirect(reverse("captain:page", args=[request.captain_token]))


@captain_link
@require_http_methods(["GET", "POST"])
def page(request, link):
    match, team = link.match, link.team
    form = LineUpForm.of(match, team, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.submit_line_up(match, team, form.cleaned_data["players"], link=link)
        except CompetitionError as error:
            form.add_error(None, error.message)
            messages.error(request, error.message)
        else:
            messages.success(request, _("The line-up is handed in."))
            return _back(request)
    state = services.result_state(match)
    claims = list(match.claims.filter(team=team))
    context = {
        "link": link,
        "match": match,
        "competition": match.competition,
        "team": team,
        "form": None if match.started else form,
        "sheet": _named_sheet(match, team),
        "state": state,
        "confirmed": link.confirmed_at is not None
        and match.recorded_at is not None
        and link.confirmed_at >= match.recorded_at,
        "claims": claims,
        "claim_open": any(c.state == MatchClaim.State.OPEN for c in claims),
        "claim_until": match.recorded_at + CLAIM_WINDOW if match.recorded_at else None,
        "claim_max": services.CLAIM_TEXT_MAX,
        "table_links": [
            (table, tokens.url(table.round_table, request))
            for table in match.tables.select_related("round_table").order_by("number")
            if table.round_table is not None and not match.played
        ],
        "links": {
            "confirm": reverse("captain:confirm", args=[request.captain_token]),
            "claim": reverse("captain:claim", args=[request.captain_token]),
        },
    }
    return render(request, "competitions/captain.html", context)


def _named_sheet(match, team):
    """The match's sheet as a captain reads it: their own team named, the other as the
    league's pages name it to anybody (``competitions.privacy``)."""
    sheet = hide_sheet(queries.match_sheet(match), Names(match.competition.league, None))
    own = sheet.home_line_up if team.pk == match.home_id else sheet.away_line_up
    for seat in own:
        seat.player.shown = seat.player.name
    return sheet


@captain_link
@require_POST
def confirm(request, link):
    try:
        services.confirm_result(link)
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You confirmed the result. Thank you!"))
    return _back(request)


@captain_link
@require_POST
def claim(request, link):
    try:
        services.file_claim(link, request.POST.get("text", ""))
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your claim is filed: the league's manager decides."))
    return _back(request)
