"""The team competitions' room and download pages: a match day's projector screen (the
tournaments' screen frame, ``templates/includes/screen_page.html``, and its script) and
a competition's exports (``competitions.exports``). Read where the league's pages are
read (``league_view("read")``)."""

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from competitions import exports, matchday
from competitions.models import Competition
from core.exports import bad_request
from leagues.permissions import league_view

#: seconds a page of the screen stays (``?page=``): 3 to 60
PAGE_SECONDS = 12


def _competition(request, competition_id) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("league", "season"),
        pk=competition_id,
        league=request.league,
    )


def _day(request, competition):
    """``?day=`` when it is one of the competition's days, else the current one; a
    malformed or unknown day: ``False`` (a 400)."""
    text = request.GET.get("day", "")
    if not text:
        return matchday.current_day(competition)
    if not (text.isascii() and text.isdigit() and len(text) < 6):
        return False
    day = int(text)
    return day if day in matchday.days_of(competition) else False


def _screen_context(request, competition, day):
    return {
        "league": request.league,
        "competition": competition,
        "day": day,
        "dates": matchday.day_dates(competition, day) if day else [],
        "parts": matchday.screen_parts(competition, day) if day else [],
    }


@league_view("read")
@require_GET
def screen(request, league, competition_id):
    """A match day's screen for the room: each division's matches of the day with their
    state and score beside its table (a cup: the round's ties), paged by the screen's
    script, its live part fetched again every ten seconds (``screen_live``)."""
    competition = _competition(request, competition_id)
    day = _day(request, competition)
    if day is False:
        return bad_request(request)
    context = _screen_context(request, competition, day)
    live = reverse("competitions:screen_live", args=[request.league.slug, competition.pk])
    context["live_url"] = f"{live}?day={day}" if day else live
    seconds = request.GET.get("page", "")
    context["page_seconds"] = (
        min(60, max(3, int(seconds)))
        if seconds.isascii() and seconds.isdigit() and len(seconds) < 4
        else PAGE_SECONDS
    )
    return render(request, "competitions/screen.html", context)


@league_view("read")
@require_GET
def screen_live(request, league, competition_id):
    """The screen's live part, an HTML fragment (polled)."""
    competition = _competition(request, competition_id)
    day = _day(request, competition)
    if day is False:
        return bad_request(request)
    response = render(
        request,
        "competitions/includes/screen_live.html",
        _screen_context(request, competition, day),
    )
    response["Cache-Control"] = "no-store"
    return response


@league_view("read")
@require_GET
def export(request, league, competition_id):
    """``?format=json`` (the default: everything), ``xlsx`` (a sheet a part) or ``csv``
    with ``?part=`` (``exports.PARTS``: a championship's ``table`` by default, a cup's
    ``bracket``); anything else is a 400."""
    competition = _competition(request, competition_id)
    response = exports.response(
        competition,
        request.GET.get("format", "json"),
        request.GET.get("part") or None,
        request.user,
    )
    return response if response is not None else bad_request(request)
