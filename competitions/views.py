"""The team competitions' pages, under ``leagues/<league>/competitions/``: a competition
(its division tables and fixtures, or its bracket), a team, a match's sheet; the league
managers' set-up page and a match's results; a line-up, handed in by a league manager
or the team's club manager.

Views validate, call one service, render; reads come from ``competitions.queries``."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import visibility
from clubs.models import Player
from clubs.permissions import can as can_club
from competitions import bareme as scale_editing
from competitions import bareme_forms, links, promotion, queries, services
from competitions.forms import (
    CompetitionForm,
    DivisionForm,
    DrawForm,
    LineUpForm,
    MatchEditForm,
    MoveTeamForm,
    NextSeasonForm,
    ResultsForm,
    TeamForm,
)
from competitions.models import Competition, Match, MatchClaim, Team
from competitions.privacy import Names, hide_sheet
from competitions.services import CompetitionError
from core.idempotency import idempotent, once
from leagues.permissions import is_manager as is_league_manager
from leagues.permissions import league_view
from tarot.teammatch import Scale
from tournaments import tokens as table_tokens


def _competition(request, competition_id) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("league", "season"),
        pk=competition_id,
        league=request.league,
    )


def _match(competition, match_id) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("home__club", "away__club", "division"),
        pk=match_id,
        competition=competition,
    )
    match.competition = competition
    return match


def _refused(request, error, form=None):
    if form is not None and error.field in form.fields:
        form.add_error(error.field, error.message)
    elif form is not None:
        form.add_error(None, error.message)
    else:
        messages.error(request, error.message)


@league_view("read")
@require_GET
def competition_list(request, league):
    competitions = request.league.competitions.select_related("season").order_by("-created_at")
    return render(
        request,
        "competitions/list.html",
        {"league": request.league, "competitions": competitions},
    )


@league_view("read")
@require_GET
def detail(request, league, competition_id):
    competition = _competition(request, competition_id)
    context = {"league": request.league, "competition": competition}
    if request.league_manager:
        context["open_claims"] = queries.open_claims(competition)
    if competition.is_cup:
        context["rounds"] = queries.cup_rounds(competition)
    else:
        context["divisions"] = queries.championship(competition)
    return render(request, "competitions/detail.html", context)


@league_view("read")
@require_GET
def team(request, league, competition_id, team_id):
    competition = _competition(request, competition_id)
    found = get_object_or_404(
        Team.objects.select_related("club", "captain", "division"),
        pk=team_id,
        competition=competition,
    )
    found.competition = competition
    names = Names(request.league, request.user)
    return render(
        request,
        "competitions/team.html",
        {
            "league": request.league,
            "competition": competition,
            "team": found,
            "squad": names.shown(found.club, services.squad_players(found)),
            "matches": queries.team_matches(found),
            "may_line_up": _may_line_up(request.user, found),
        },
    )


def _may_line_up(user, team) -> bool:
    return user.is_authenticated and (
        is_league_manager(user, team.competition.league) or can_club(user, team.club, "manage")
    )


@league_view("read")
@require_GET
def match(request, league, competition_id, match_id):
    competition = _competition(request, competition_id)
    found = _match(competition, match_id)
    sheet = hide_sheet(queries.match_sheet(found), Names(request.league, request.user))
    return render(
        request,
        "competitions/match.html",
        {
            "league": request.league,
            "competition": competition,
            "match": found,
            "sheet": sheet,
            "line_up_home": _may_line_up(request.user, found.home) and not found.started,
            "line_up_away": _may_line_up(request.user, found.away) and not found.started,
            **_match_links(request, found),
        },
    )


@league_view("manage")
@idempotent
@require_http_methods(["GET", "POST"])
def create(request, league):
    """A new competition, its barème typed as lines (``competitions.bareme_forms``):
    "Preview" converts a few differences without saving; "Create" stores it once (the
    form's idempotency key: a double post makes one competition)."""
    post = request.POST if request.method == "POST" else None
    form = CompetitionForm(post, league=request.league)
    lines = bareme_forms.BaremeFormSet(
        post, initial=bareme_forms.initial_of(Scale.plain().lines), prefix="line"
    )
    shown = Scale.plain().as_data()
    if post is not None and form.is_valid() & lines.is_valid():
        scale = bareme_forms.lines_of(lines)
        if scale is not None:
            shown = scale
            if post.get("action") != "preview":
                try:
                    competition = once(
                        request,
                        lambda: services.create_competition(
                            request.league, **form.cleaned_data, scale=scale, actor=request.user
                        ),
                        url=lambda c: reverse(
                            "competitions:manage", args=[request.league.slug, c.pk]
                        ),
                    )
                except CompetitionError as error:
                    _refused(request, error, form)
                else:
                    messages.success(
                        request,
                        _("%(competition)s is created: add its divisions and teams.")
                        % {"competition": competition.name},
                    )
                    return redirect("competitions:manage", request.league.slug, competition.pk)
    return render(
        request,
        "competitions/create.html",
        {
            "league": request.league,
            "form": form,
            "lines": lines,
            "preview": bareme_forms.preview(shown),
            "previewing": post is not None and post.get("action") == "preview",
        },
    )


@league_view("manage")
@require_http_methods(["GET", "POST"])
def bareme(request, league, competition_id):
    """The competition's barème in the editor of its creation (``bareme_forms``), changed
    while no match is recorded (``competitions.bareme.set_scale``); once one is, the page
    shows the barème and says why it no longer changes."""
    competition = _competition(request, competition_id)
    post = request.POST if request.method == "POST" else None
    lines = bareme_forms.BaremeFormSet(
        post, initial=bareme_forms.initial_of(competition.scale), prefix="line"
    )
    shown = competition.scale
    editable = scale_editing.editable(competition)
    if post is not None and lines.is_valid():
        scale = bareme_forms.lines_of(lines)
        if scale is not None:
            shown = scale
            if post.get("action") != "preview":
                try:
                    scale_editing.set_scale(competition, scale, actor=request.user)
                except scale_editing.BaremeError as error:
                    messages.error(request, error.message)
                    editable = scale_editing.editable(competition)
                else:
                    messages.success(request, _("The barème is saved."))
                    return redirect("competitions:manage", request.league.slug, competition.pk)
    return render(
        request,
        "competitions/bareme.html",
        {
            "league": request.league,
            "competition": competition,
            "lines": lines,
            "editable": editable,
            "preview": bareme_forms.preview(shown),
            "previewing": post is not None and post.get("action") == "preview",
        },
    )


@league_view("manage")
@require_http_methods(["GET", "POST"])
def manage(request, league, competition_id):
    competition = _competition(request, competition_id)
    division_form = DivisionForm(prefix="division")
    team_form = TeamForm(prefix="team", competition=competition)
    draw_form = DrawForm(prefix="draw")
    next_form = NextSeasonForm(prefix="next")
    move_form = MoveTeamForm(prefix="move", competition=competition)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "division":
                division_form = DivisionForm(request.POST, prefix="division")
                if division_form.is_valid():
                    services.add_division(
                        competition, division_form.cleaned_data["name"], actor=request.user
                    )
                    messages.success(request, _("The division is added."))
                    return redirect("competitions:manage", request.league.slug, competition.pk)
            elif action == "team":
                team_form = TeamForm(request.POST, prefix="team", competition=competition)
                if team_form.is_valid() and _enter_team(request, competition, team_form):
                    messages.success(request, _("The team is entered."))
                    return redirect("competitions:manage", request.league.slug, competition.pk)
            elif action == "fixtures":
                division = competition.divisions.filter(pk=_int(request.POST.get("division")))
                division = division.first()
                if division is None:
                    messages.error(request, str(services.error_messages["division_other"]))
                else:
                    services.generate_fixtures(division, actor=request.user)
                    messages.success(request, _("The fixtures are made."))
                    return redirect(competition.get_absolute_url())
            elif action == "draw":
                draw_form = DrawForm(request.POST, prefix="draw")
                if draw_form.is_valid():
                    services.draw_cup(
                        competition,
                        seed=draw_form.cleaned_data["seed"],
                        seeded=draw_form.cleaned_data["seeded"],
                        actor=request.user,
                    )
                    messages.success(request, _("The cup is drawn."))
                    return redirect(competition.get_absolute_url())
            elif action == "move":
                move_form = MoveTeamForm(request.POST, prefix="move", competition=competition)
                if move_form.is_valid():
                    services.move_team(
                        move_form.cleaned_data["team"],
                        move_form.cleaned_data["division"],
                        actor=request.user,
                    )
                    messages.success(request, _("The team is moved."))
                    return redirect("competitions:manage", request.league.slug, competition.pk)
            elif action == "next":
                next_form = NextSeasonForm(request.POST, prefix="next")
                if next_form.is_valid():
                    following = promotion.next_season(
                        competition,
                        name=next_form.cleaned_data["name"],
                        ties_confirmed=next_form.cleaned_data["ties_confirmed"],
                        actor=request.user,
                    )
                    messages.success(request, _("The next season's competition is made."))
                    return redirect("competitions:manage", request.league.slug, following.pk)
        except CompetitionError as error:
            forms = {"division": division_form, "team": team_form, "draw": draw_form}
            form = {**forms, "next": next_form, "move": move_form}.get(action)
            _refused(request, error, form)
    return render(
        request,
        "competitions/manage.html",
        {
            "league": request.league,
            "competition": competition,
            "divisions": competition.divisions.all(),
            "teams": competition.teams.select_related("club", "division"),
            "division_form": division_form,
            "team_form": team_form,
            "draw_form": draw_form,
            "next_form": next_form,
            "move_form": move_form,
            "line_ties": _line_ties(competition),
        },
    )


def _line_ties(competition) -> list[dict]:
    """The ties a line cuts through, once the championship is played (a cup has none)."""
    if competition.is_cup or not (competition.promoted or competition.relegated):
        return []
    if competition.matches.filter(recorded_at__isnull=True).exists():
        return []
    return promotion.ties_at_lines(competition)


def _int(value):
    """An id from a form, or None (anything but 1 to 2³¹ − 1 ASCII digits)."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    number = int(value)
    return number if 0 < number < 2**31 else None


def _enter_team(request, competition, form) -> bool:
    data = form.cleaned_data
    club = data["club"]  # one of the league's member clubs (the form's list)
    found = {
        p.name: p
        for p in Player.objects.filter(club=club, name__in=data["players"], merged_into=None)
    }
    unknown = [name for name in data["players"] if name not in found]
    if unknown:
        form.add_error("players", str(services.error_messages["squad_club"]))
        return False
    players = [found[name] for name in data["players"]]
    services.enter_team(
        competition,
        club,
        name=data["name"],
        players=players,
        captain=players[0] if players else None,
        division=data.get("division"),
        actor=request.user,
    )
    return True


def _line_up_allowed(view):
    """Read the league (a stranger to a members-only league sees 404, as anywhere), then
    only a league manager or the team's club manager; others 403 (anonymous: the login)."""

    @wraps(view)
    def wrapped(request, league, competition_id, match_id, team_id):
        competition = _competition(request, competition_id)
        found = _match(competition, match_id)
        if team_id not in (found.home_id, found.away_id):
            raise Http404
        side = found.home if team_id == found.home_id else found.away
        side.competition = competition
        if not _may_line_up(request.user, side):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        return view(request, competition, found, side)

    return wrapped


@league_view("read")  # a members-only league: 404 to strangers, as an unknown one
@require_http_methods(["GET", "POST"])
@_line_up_allowed
def line_up(request, competition, found, side):
    data = request.POST if request.method == "POST" else None
    form = LineUpForm.of(found, side, data, viewer=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.submit_line_up(found, side, form.cleaned_data["players"], actor=request.user)
            messages.success(request, _("The line-up is handed in."))
            return redirect(found.get_absolute_url())
        except CompetitionError as error:
            _refused(request, error, form)
    return render(
        request,
        "competitions/line_up.html",
        {
            "league": competition.league,
            "competition": competition,
            "match": found,
            "team": side,
            "form": form,
        },
    )


@league_view("manage")
@require_http_methods(["GET", "POST"])
def results(request, league, competition_id, match_id):
    competition = _competition(request, competition_id)
    found = _match(competition, match_id)
    form = ResultsForm(
        initial=ResultsForm.initial_of(queries.match_sheet(found)), competition=competition
    )
    edit = MatchEditForm(initial={"date": found.date, "venue": found.venue}, prefix="edit")
    if request.method == "POST":
        try:
            if request.POST.get("action") == "schedule":
                edit = MatchEditForm(request.POST, prefix="edit")
                if edit.is_valid():
                    services.edit_match(found, **edit.cleaned_data, actor=request.user)
                    messages.success(request, _("The match's date and venue are saved."))
                    return redirect(found.get_absolute_url())
            else:
                form = ResultsForm(request.POST, competition=competition)
                if form.is_valid():
                    services.record_results(found, form.deals(), actor=request.user)
                    messages.success(request, _("The match's results are saved."))
                    return redirect(found.get_absolute_url())
        except CompetitionError as error:
            _refused(request, error, form)
    return render(
        request,
        "competitions/results.html",
        {
            "league": request.league,
            "competition": competition,
            "match": found,
            "form": form,
            "edit": edit,
        },
    )


# ---------------------------------------------------------------- captains' links, tables, claims


def _match_links(request, found) -> dict:
    """What the match page adds for the links (``match_links.html``): the result's state
    for everybody; for a league manager, the captains' links, the tables' links once
    the match has started, and the claims."""
    context = {"result_state": services.result_state(found)}
    if not getattr(request, "league_manager", False):
        return context
    found_links = links.links_of(found)
    captains = [link.team.captain for link in found_links if link.team.captain is not None]
    named = set(
        Player.objects.filter(pk__in=[c.pk for c in captains])
        .filter(visibility.naming_players(request.user, found.competition.league))
        .values_list("pk", flat=True)
    )
    context["captain_links"] = [
        (
            link,
            links.url(link, request),
            link.team.captain.name
            if link.team.captain is not None and link.team.captain.pk in named
            else None,
        )
        for link in found_links
    ]
    context["table_links"] = [
        (table, table_tokens.url(table.round_table, request))
        for table in found.tables.select_related("round_table").order_by("number")
        if table.round_table is not None
    ]
    if context["table_links"]:
        played_at = context["table_links"][0][0].round_table.round
        context["tables_round_url"] = reverse(
            "tournaments:round",
            args=[found.home.club.slug, played_at.tournament_id, played_at.number],
        )
    context["claims"] = list(found.claims.select_related("team", "decided_by"))
    context["may_start"] = not found.started
    return context


def _manager_match(request, competition_id, match_id):
    competition = _competition(request, competition_id)
    return _match(competition, match_id)


@league_view("manage")
@require_POST
def start(request, league, competition_id, match_id):
    found = _manager_match(request, competition_id, match_id)
    try:
        services.start_match(found, actor=request.user)
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("The match has started: each table enters its deals by its link.")
        )
    return redirect(found.get_absolute_url())


@league_view("manage")
@require_POST
def captain_revoke(request, league, competition_id, match_id, team_id):
    found = _manager_match(request, competition_id, match_id)
    if team_id not in (found.home_id, found.away_id):
        raise Http404
    link = links.link_of(found, found.home if team_id == found.home_id else found.away)
    try:
        services.revoke_captain_link(link, actor=request.user)
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("A new link is made: the old one no longer opens."))
    return redirect(found.get_absolute_url())


@league_view("manage")
@require_POST
def claim_decide(request, league, competition_id, match_id, claim_id):
    found = _manager_match(request, competition_id, match_id)
    claim = get_object_or_404(MatchClaim, pk=claim_id, match=found)
    upheld = request.POST.get("decision") == "uphold"
    try:
        services.decide_claim(
            claim, upheld=upheld, decision=request.POST.get("note", ""), actor=request.user
        )
    except CompetitionError as error:
        messages.error(request, error.message)
        return redirect(found.get_absolute_url())
    if upheld:
        messages.success(request, _("The claim is upheld: correct the result."))
        return redirect("competitions:results", league, competition_id, match_id)
    messages.success(request, _("The claim is dismissed."))
    return redirect(found.get_absolute_url())
