"""The league's pages: home, ranking (CSV/XLSX), an event's results, a person's season,
the managers' pages, the season's exports, My account's links and a club's league page.

Views validate, call one service, render; reads come from ``leagues.season_standings`` and the
stored per-event results, and a person's statistics from each linked club's stored
totals (``SeasonTotal``), shown only for the clubs the reader may read."""

import io
import json
import tempfile

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubhouse.history import describe_change
from clubs import visibility
from clubs.models import Club, Person, Player
from clubs.permissions import can as can_club
from clubs.permissions import club_view
from core import exports, xlsx
from core.exports import bad_request, csv_text, neutralise
from core.idempotency import idempotent, once
from core.paging import MAX_PAGE, bounded_int
from core.templatetags.french import of_name
from leagues import exports as league_exports
from leagues import licences, queries, scale_forms, season_standings, services
from leagues import rating_scope as league_ratings
from leagues.forms import (
    CountForm,
    InviteForm,
    LeagueForm,
    LicenceFileForm,
    LinkForm,
    NewSeasonForm,
    PersonForm,
    SeasonForm,
    SeriesForm,
)
from leagues.models import (
    League,
    LeagueAuditEntry,
    LeagueClub,
    LeagueEvent,
    LeagueSeason,
    LinkClaim,
)
from leagues.permissions import can as can_league
from leagues.permissions import league_view
from leagues.services import LeagueError
from tournaments import services as tournament_services
from tournaments.models import Tournament


def _season(request, season_id) -> LeagueSeason:
    return get_object_or_404(
        LeagueSeason.objects.select_related("league"), pk=season_id, league=request.league
    )


@require_GET
def league_list(request):
    leagues = [
        league
        for league in League.objects.all()
        if league.is_public or (request.user.is_authenticated and _readable(request, league))
    ]
    return render(
        request,
        "leagues/list.html",
        {"leagues": leagues, "may_create": services.may_create_league(request.user)},
    )


@idempotent
@require_http_methods(["GET", "POST"])
def league_create(request):
    """A new league, its creator its manager: superusers, and every logged-in user where
    the site allows it (``settings.ALLOW_LEAGUE_CREATION``); the same to others as a page
    that does not exist."""
    if not (settings.ALLOW_LEAGUE_CREATION or request.user.is_superuser):
        raise Http404  # the same to everybody while the site does not allow it
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = LeagueForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            league = once(
                request,
                lambda: services.create_league(
                    form.cleaned_data["name"],
                    is_public=form.cleaned_data["visibility"] == "public",
                    actor=request.user,
                ),
                url=lambda league: reverse("leagues:manage", args=[league.slug]),
            )
        except LeagueError as error:
            form.add_error("name" if error.field in ("name", "slug") else None, error.message)
        else:
            messages.success(
                request,
                _("%(league)s is created: you manage it. Invite its clubs.") % {"league": league},
            )
            return redirect("leagues:manage", league.slug)
    return render(request, "leagues/create.html", {"form": form})


def _readable(request, league):
    return can_league(request.user, league, "read")


CALENDAR, LATEST = 20, 8


@league_view("read")
@require_GET
def home(request, league):
    league = request.league
    clubs = (
        LeagueClub.objects.filter(league=league, accepted_at__isnull=False)
        .select_related("club")
        .order_by("club__name")
    )
    seasons = list(league.seasons.all())
    counted = LeagueEvent.objects.filter(
        season__league=league, withdrawn_at__isnull=True
    ).select_related("tournament__club", "season")
    # the calendar: the next events (the last ones played when the season is over)
    events = (
        list(
            counted.filter(tournament__date__gte=timezone.localdate()).order_by(
                "tournament__date", "pk"
            )[:CALENDAR]
        )
        or list(counted.order_by("-tournament__date", "-pk")[:CALENDAR])[::-1]
    )
    latest = list(
        counted.filter(results_at__isnull=False).order_by("-tournament__date", "-pk")[:LATEST]
    )
    return render(
        request,
        "leagues/home.html",
        {"league": league, "clubs": clubs, "seasons": seasons, "events": events, "latest": latest},
    )


#: ranking rows a page (the exports carry them all)
PER_PAGE = 100


@league_view("read")
@require_GET
def ratings_page(request, league):
    """The league's ratings (``leagues.rating_scope``): its persons ranked by the rating
    (``ratings.compute.shown``: 1000 + 40 (μ − 3σ)) over every hand of its member clubs,
    the skill estimate and its uncertainty on the same scale, the hands rated;
    under ``ratings.queries.MIN_HANDS`` hands left out, as the club's standings do;
    a members-only club's player named only as the league's ranking would.
    ``?_export=csv`` or ``xlsx`` downloads the table as shown (the same rows, names
    and left-out players), as the club's ratings table does."""
    league = request.league
    export = request.GET.get("_export")
    if export and export not in ("csv", "xlsx"):
        return bad_request(request)
    rows, left_out = league_ratings.league_rows(league, viewer=request.user)
    if export:
        return _ratings_export(league, rows, export)
    return render(
        request,
        "leagues/ratings.html",
        {
            "league": league,
            "rows": rows,
            "left_out": left_out,
            "min_hands": league_ratings.queries.MIN_HANDS,
            "ratings_recomputing": league_ratings.queries.recomputing(
                league_ratings.key(league.pk)
            ),
        },
    )


@league_view("read")
@require_GET
def season_ranking(request, league, season_id):
    season = _season(request, season_id)
    serie = request.GET.get("serie") or None
    if serie is not None and serie not in season.league.series:
        serie = None
    club_id, club_text, club_matches = _club_filter(season.league, request.GET.get("club"))
    order = request.GET.get("sort") or "rank"
    if order not in season_standings.ORDERS:
        order = "rank"
    if order == "rank" and serie:
        order = "serie"  # within one série: its own ranks, in order
    viewer = request.user
    filters = {"serie": serie, "club_id": club_id, "order": order}
    export = request.GET.get("_export")
    if export:
        if export not in ("csv", "xlsx"):
            return bad_request(request)
        rows = season_standings.season_ranking(season, viewer=viewer, **filters)
        return _ranking_export(season, rows, export)
    number = bounded_int(request.GET.get("page"), 1, 1, MAX_PAGE)
    rows, count = season_standings.ranked(
        season, **filters, limit=PER_PAGE, offset=(number - 1) * PER_PAGE
    )
    pages = max(1, -(-count // PER_PAGE))
    if number > pages:
        number = pages
        rows, count = season_standings.ranked(
            season, **filters, limit=PER_PAGE, offset=(number - 1) * PER_PAGE
        )
    season_standings.name_rows(season, rows, viewer)
    page = Paginator(range(count), PER_PAGE).page(number) if count else None
    return render(
        request,
        "leagues/ranking.html",
        {
            "league": season.league,
            "season": season,
            "rows": rows,
            "page": page,
            "count": count,
            "serie": serie,
            "club_id": club_id,
            "club_text": club_text,
            "club_matches": club_matches,
            "order": order,
        },
    )


#: member clubs offered when a typed club name matches several
CLUB_MATCHES = 20


def _club_filter(league, value):
    """``?club=``: a member club's id (the club links of the rows), or a name typed in
    the filter (a part of it): ``(club_id, the text to show, the clubs to choose from
    when several match)``. One query, none without a filter (no list of every club: a
    federation has hundreds)."""
    text = "".join(ch for ch in str(value or "") if ch.isprintable()).strip()[:80]
    if not text:
        return None, "", []
    members = Club.objects.filter(
        league_links__league=league, league_links__accepted_at__isnull=False
    )
    if text.isascii() and text.isdigit():
        found = list(members.filter(pk=int(text)).values_list("pk", "name")[:1])
    else:
        found = list(
            members.filter(name__icontains=text)
            .order_by("name")
            .values_list("pk", "name")[: CLUB_MATCHES + 1]
        )
        exact = [c for c in found if c[1].casefold() == text.casefold()]
        found = exact or found
    if len(found) == 1:
        return found[0][0], found[0][1], []
    return None, text, [{"id": pk, "name": name} for pk, name in found[:CLUB_MATCHES]]


def _ranking_cells(rows):
    header = [_("Rank"), _("Série rank"), _("Name"), _("Licence"), _("Série"), _("Clubs")]
    header += [_("Points"), _("Events counted"), _("Events played"), _("Qualified")]
    body = [
        [
            r["rank"],
            r["serie_rank"],
            r["name"] or _("A player of a members-only club"),
            r["licence"] or "",
            r["serie"],
            ", ".join(c["name"] for c in r["clubs"]),
            r["total"],
            r["counted"],
            r["played"],
            _("yes") if r["qualified"] else "",
        ]
        for r in rows
    ]
    return header, body


def _csv(header, body, name):
    """Through ``core.exports.csv_text``, as every CSV: the page language's separator and
    decimal mark (French: "10,5" after ";"), numbers as numbers, formulas neutralised."""
    response = HttpResponse(csv_text(header, body), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


def _ratings_export(league, rows, export):
    """The ratings page's table (``ratings_page``) as a file, to four decimals: σ as a
    number where the page shows the uncertainty on the rating's scale (a number is what a
    spreadsheet reads)."""
    header = [_("Rank"), _("Name"), _("Rating"), "μ", "σ", _("Hands rated")]
    body = [
        [
            r["rating"].rank,
            r["name"] or _("A player of a members-only club"),
            round(r["rating"].ordinal, 4),
            round(r["rating"].mu, 4),
            round(r["rating"].sigma, 4),
            r["rating"].hands,
        ]
        for r in rows
    ]
    name = f"ratings-{league.slug}"
    if export == "csv":
        return exports.download(csv_text(header, body), f"{name}.csv")
    book = exports.workbook([exports.sheet(_("Ratings"), header, body)])
    return exports.download(book, f"{name}.xlsx")


#: the kind of each column of ``_ranking_cells`` in the spreadsheet
RANKING_KINDS = (xlsx.NUMBER, xlsx.NUMBER) + (xlsx.TEXT,) * 4 + (xlsx.NUMBER,) * 3 + (xlsx.TEXT,)


def _ranking_export(season, rows, export):
    header, body = _ranking_cells(rows)
    name = f"ranking-{season.league.slug}-{season.pk}"
    if export == "csv":
        return _csv(header, body, name)
    # a federation's ranking (thousands of persons) in constant memory, each column
    # written by its kind (``core.xlsx``), several times faster than a whole workbook
    out = io.BytesIO()
    cells = ([neutralise(c) for c in row] for row in body)
    with tempfile.TemporaryDirectory() as tmpdir:
        xlsx.write_rows(out, _("Ranking")[:31], header, RANKING_KINDS, cells, tmpdir)
    response = HttpResponse(
        out.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
    return response


@league_view("read")
@require_GET
def event(request, league, event_id):
    event = get_object_or_404(
        LeagueEvent.objects.select_related("tournament__club", "season"),
        pk=event_id,
        season__league=request.league,
    )
    club_readable = event.tournament.club.is_public or can_club(
        request.user, event.tournament.club, "read"
    )
    results = queries.event_results(
        event, request.league, viewer=request.user, club_readable=club_readable
    )
    return render(
        request,
        "leagues/event.html",
        {"league": request.league, "event": event, "results": results},
    )


@require_GET
def person(request, person_id):
    """A person's season across clubs and events: each linked club's stored totals (the
    clubs the reader may read, or all of them for the person themself) and their league
    results (the leagues the reader may read)."""
    person = get_object_or_404(Person, pk=person_id)
    if not visibility.is_named(request.user, person):
        raise Http404  # a hidden person answers as an unknown one
    me = request.user.is_authenticated and person.user_id == request.user.pk
    clubs, results = queries.person_season(
        person,
        me=me,
        may_read_club=lambda club: can_club(request.user, club, "read"),
        may_read_league=lambda league: _readable(request, league),
    )
    if not clubs and not results and not me:
        raise Http404
    return render(
        request,
        "leagues/person.html",
        {"person": person, "clubs": clubs, "results": results, "me": me},
    )


# ---------------------------------------------------------------- managers


def _refused(request, error):
    messages.error(request, error.message)


def _manage_post(request, league, invite, series, season_form):
    """One of the managers' forms posted: its service called, a message said; the form
    back when it is refused (None when done)."""
    action = request.POST.get("action")
    if action == "invite" and invite.is_valid():
        club = invite.cleaned_data["club"]
        services.invite_club(league, club, actor=request.user)
        messages.success(request, _("%(club)s is invited.") % {"club": club.name})
        return None
    if action == "cancel":
        link = get_object_or_404(LeagueClub, pk=_int(request.POST.get("link")), league=league)
        services.cancel_invitation(link, actor=request.user)
        messages.success(
            request,
            _("The invitation of %(club)s is cancelled.") % {"club": of_name(link.club.name)},
        )
        return None
    if action == "series" and series.is_valid():
        services.set_series(league, series.cleaned_data["series"], actor=request.user)
        messages.success(request, _("The séries are saved."))
        return None
    if action == "season" and season_form.is_valid():
        season = services.save_season(league, **season_form.cleaned_data, actor=request.user)
        messages.success(
            request,
            _("The season %(season)s is created: set its placement scale.")
            % {"season": season.name},
        )
        return season
    return False


@league_view("manage")
@require_http_methods(["GET", "POST"])
def manage(request, league):
    league = request.league
    query = request.GET.get("q", "")[:80].strip()
    post = request.POST if request.method == "POST" else None
    action = post.get("action") if post else None
    invite = InviteForm(post if action == "invite" else None, league=league, query=query)
    series = SeriesForm(
        post if action == "series" else None, initial={"series": "\n".join(league.series)}
    )
    season_form = NewSeasonForm(post if action == "season" else None)
    if post is not None:
        try:
            done = _manage_post(request, league, invite, series, season_form)
        except LeagueError as error:
            form = {"invite": invite, "series": series, "season": season_form}.get(action)
            if form is not None and error.field in form.fields:
                form.add_error(error.field, error.message)
            else:
                _refused(request, error)
        else:
            if isinstance(done, LeagueSeason):
                return redirect("leagues:season_edit", league.slug, done.pk)
            if done is None:
                return redirect("leagues:manage", league.slug)
    return render(
        request,
        "leagues/manage.html",
        {
            "league": league,
            "links": league.club_links.select_related("club").order_by("club__name"),
            "seasons": league.seasons.all(),
            "invite": invite,
            "q": query,
            "series": series,
            "season_form": season_form,
            "link_form": LinkForm(prefix="link", league=league),
            "events": LeagueEvent.objects.filter(season__league=league).select_related(
                "tournament__club", "season"
            ),
        },
    )


@league_view("manage")
@require_http_methods(["GET", "POST"])
def season_edit(request, league, season_id):
    """A season's settings and its placement scale's editor: "Preview" shows what each
    place earns without saving; "Save" saves and says so."""
    season = _season(request, season_id)
    post = request.POST if request.method == "POST" else None
    kind, rows_initial = scale_forms.initial_of(season.scale)
    form = SeasonForm(post, initial=SeasonForm.initial_of(season))
    scale_form = scale_forms.ScaleForm(post, initial=kind, prefix="scale")
    rows = scale_forms.ScaleRowFormSet(post, initial=rows_initial, prefix="row")
    shown = season.scale
    if post is not None and form.is_valid() & scale_form.is_valid() & rows.is_valid():
        scale = scale_forms.scale_of(scale_form, rows)
        if scale is not None:
            shown = scale
            if post.get("action") != "preview" and _save_season(request, season, form, scale):
                messages.success(
                    request, _("The season %(season)s is saved.") % {"season": season.name}
                )
                return redirect("leagues:season_edit", request.league.slug, season.pk)
    return render(
        request,
        "leagues/season_edit.html",
        {
            "league": request.league,
            "season": season,
            "form": form,
            "scale_form": scale_form,
            "rows": rows,
            "preview": scale_forms.preview(shown),
            "previewing": post is not None and post.get("action") == "preview",
        },
    )


def _save_season(request, season, form, scale) -> bool:
    try:
        services.save_season(
            request.league, season=season, scale=scale, **form.cleaned_data, actor=request.user
        )
    except LeagueError as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return False
    return True


@league_view("manage")
@require_POST
def link(request, league):
    form = LinkForm(request.POST, prefix="link", league=request.league)
    if form.is_valid():
        data = form.cleaned_data
        player = Player.objects.filter(club=data["club"], name=data["player"]).first()
        if player is None:
            messages.error(request, _("No player of this name in this club."))
        else:
            try:
                person = services.link_by_licence(
                    request.league, player, data["licence"], serie=data["serie"], actor=request.user
                )
                messages.success(
                    request,
                    _("%(player)s is linked to %(person)s.")
                    % {"player": player.name, "person": person},
                )
            except LeagueError as error:
                _refused(request, error)
    else:
        messages.error(request, _("Give the club, the player and the licence."))
    return redirect("leagues:manage", request.league.slug)


@league_view("manage")
@require_POST
def event_edit(request, league, event_id):
    event = get_object_or_404(LeagueEvent, pk=event_id, season__league=request.league)
    try:
        if request.POST.get("action") == "withdraw":
            services.withdraw_event(event, actor=request.user)
            messages.success(request, _("The event is withdrawn from the season."))
        else:
            services.set_coefficient(event, request.POST.get("coefficient", ""), actor=request.user)
            messages.success(request, _("The coefficient is saved."))
    except LeagueError as error:
        _refused(request, error)
    return redirect("leagues:manage", request.league.slug)


@league_view("manage")
@require_http_methods(["GET", "POST"])
def licence_import(request, league):
    """A licence list (CSV) uploaded, previewed line by line (what each line creates or
    updates, or why it is refused), then imported (``leagues.licences``): the preview
    carries the file's text to the confirmation."""
    league = request.league
    form, preview, text = LicenceFileForm(), None, ""
    if request.method == "POST":
        commit = request.POST.get("action") == "commit"
        try:
            if commit:
                text = request.POST.get("text", "")
            else:
                form = LicenceFileForm(request.POST, request.FILES)
                if form.is_valid():
                    text = licences.decode(form.cleaned_data["file"].read(licences.MAX_BYTES + 1))
            if text:
                preview = licences.import_licences(league, text, actor=request.user, commit=commit)
                if commit:
                    counts = preview.counts
                    messages.success(
                        request,
                        _(
                            "Licence list imported: %(create)s created, %(update)s updated, "
                            "%(linked)s linked, %(refused)s refused."
                        )
                        % counts,
                    )
                    return redirect("leagues:manage", league.slug)
        except licences.LicenceError as error:
            form = LicenceFileForm().refuse(error.message)
            preview = None
    return render(
        request,
        "leagues/licences.html",
        {
            "league": league,
            "form": form,
            "preview": preview,
            "counts": preview.counts if preview else None,
            "text": text,
        },
    )


#: audit entries a page of the league's history
HISTORY_PER_PAGE = 50


@league_view("manage")
@require_GET
def history(request, league):
    """The league's audit trail for its managers, newest first, a page at a time: who
    changed what (clubs, séries, seasons, events, links, persons' licences)."""
    entries = (
        LeagueAuditEntry.objects.filter(league=request.league)
        .select_related("actor")
        .order_by("-at", "-pk")
    )
    number = bounded_int(request.GET.get("page"), 1, 1, MAX_PAGE)
    page = Paginator(entries, HISTORY_PER_PAGE).get_page(number)
    hide = queries.hider(request.user, request.league)
    rows = [
        {"entry": entry, "label": hide(entry.label), "details": [hide(d) for d in _details(entry)]}
        for entry in page.object_list
    ]
    return render(
        request,
        "leagues/history.html",
        {"league": request.league, "page": page, "rows": rows},
    )


def _details(entry) -> list[str]:
    """The entry's change in short lines ("field: before → after", as a club's history)."""
    after = entry.after if isinstance(entry.after, dict) else {}
    if set(after) == {"before", "after"}:  # a change with what was
        was, now = after["before"] or {}, after["after"] or {}
    else:
        was, now = {}, _licence_lines(after)
    return describe_change({"kind": entry.action, "was": was, "now": now})


def _licence_lines(after) -> dict:
    """The licence lines an import held, confirmed or dismissed, named in the page's
    language, each line's "licence;name;club;série" written "licence · name · club"."""
    labels = {
        "held_lines": _("held lines"),
        "confirmed_lines": _("confirmed lines"),
        "held_line": _("held line"),
        "sent_by": _("sent by"),
    }

    def shown(line):
        return " · ".join(part for part in str(line).split(";") if part)

    out = {}
    for key, value in after.items():
        if key in labels and isinstance(value, list):
            value = [shown(line) for line in value]
        elif key in labels and isinstance(value, str) and ";" in value:
            value = shown(value)
        out[labels.get(key, key)] = value
    return out


# ---------------------------------------------------------------- exports


@league_view("read")
@require_GET
def season_json(request, league, season_id):
    season = _season(request, season_id)
    text = json.dumps(league_exports.season_document(season), ensure_ascii=False, indent=1)
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = (
        f'attachment; filename="league-{season.league.slug}-{season.pk}.json"'
    )
    return response


@league_view("read")
@require_GET
def season_csv(request, league, season_id):
    """Every stored result of the season, one line each, with licence numbers."""
    season = _season(request, season_id)
    header, body = league_exports.results_table(season)
    return _csv(header, body, f"league-{season.league.slug}-{season.pk}-results")


# ---------------------------------------------------------------- My account, a club's page


@login_required
@require_http_methods(["GET", "POST"])
def mine(request):
    """My account's persons part: my licence and série, and claiming my clubs' players."""
    person = Person.objects.filter(user=request.user).first()
    form = PersonForm(
        initial={"name": person.name, "licence": person.licence, "serie": person.serie}
        if person
        else {"name": request.user.get_full_name() or request.user.username}
    )
    if request.method == "POST":
        try:
            if request.POST.get("action") == "claim":
                player = get_object_or_404(
                    Player,
                    pk=request.POST.get("player")
                    if str(request.POST.get("player", "")).isdigit()
                    else 0,
                    club__memberships__user=request.user,
                    person__isnull=True,
                )
                services.claim_player(player, actor=request.user)
                messages.success(request, _("Claimed: the club's manager will confirm."))
                return redirect("leagues:mine")
            form = PersonForm(request.POST)
            if form.is_valid():
                services.set_person(request.user, **form.cleaned_data, actor=request.user)
                messages.success(request, _("Your licence and série are saved."))
                return redirect("leagues:mine")
        except LeagueError as error:
            _refused(request, error)
    claimed = set(LinkClaim.objects.filter(user=request.user).values_list("player_id", flat=True))
    players = (
        Player.objects.filter(club__memberships__user=request.user, merged_into__isnull=True)
        .select_related("club")
        .order_by("club__name", "sort_key")
    )
    return render(
        request,
        "leagues/mine.html",
        {"person": person, "form": form, "players": players, "claimed": claimed},
    )


@club_view("manage")
@require_http_methods(["GET", "POST"])
def club_leagues(request, slug):
    """A club's manager: the league invitations, naming consent, claims to confirm, and
    which of the club's tournaments count in which league season."""
    club = request.club
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action in ("accept", "decline", "leave"):
                _answer_invitation(request, club, action)
            elif action in ("confirm", "reject"):
                claim = get_object_or_404(
                    LinkClaim, pk=_int(request.POST.get("claim")), player__club=club
                )
                verb = services.confirm_claim if action == "confirm" else services.reject_claim
                verb(claim, actor=request.user)
                messages.success(
                    request,
                    _("The claim is confirmed.")
                    if action == "confirm"
                    else _("The claim is refused."),
                )
            elif action == "count":
                form = CountForm(request.POST)
                if not form.is_valid():
                    messages.error(request, _("Choose a tournament and a coefficient."))
                else:
                    data = form.cleaned_data
                    season = get_object_or_404(
                        LeagueSeason,
                        pk=data["season"],
                        league__club_links__club=club,
                        league__club_links__accepted_at__isnull=False,
                    )
                    tournament = get_object_or_404(Tournament, pk=data["tournament"], club=club)
                    services.register_event(
                        season, tournament, coefficient=data["coefficient"], actor=request.user
                    )
                    messages.success(
                        request,
                        _("%(tournament)s counts in %(season)s.")
                        % {"tournament": tournament.name, "season": season},
                    )
            elif action == "withdraw":
                event = get_object_or_404(
                    LeagueEvent, pk=_int(request.POST.get("event")), tournament__club=club
                )
                services.withdraw_event(event, actor=request.user)
                messages.success(request, _("The event is withdrawn from the season."))
            return redirect(_back(request, club))
        except LeagueError as error:
            _refused(request, error)
    links = list(club.league_links.select_related("league"))
    seasons = LeagueSeason.objects.filter(
        league__club_links__club=club, league__club_links__accepted_at__isnull=False
    ).select_related("league")
    return render(
        request,
        "leagues/club.html",
        {
            "club": club,
            "links": links,
            "seasons": seasons,
            "claims": LinkClaim.objects.filter(player__club=club).select_related("player", "user"),
            "tournaments": club.tournaments.filter(team_match=False).order_by("-date"),
            "events": LeagueEvent.objects.filter(tournament__club=club).select_related(
                "season__league", "tournament"
            ),
        },
    )


def _answer_invitation(request, club, action):
    """Join or decline a league's invitation, or leave a league the club is in."""
    link = get_object_or_404(
        LeagueClub.objects.select_related("league"), pk=_int(request.POST.get("link")), club=club
    )
    if action == "accept":
        services.accept_invitation(
            link, names_players=bool(request.POST.get("names_players")), actor=request.user
        )
        messages.success(
            request,
            _("%(club)s joined %(league)s.") % {"club": club.name, "league": link.league.name},
        )
    elif action == "leave":
        services.leave_league(link, actor=request.user)
        messages.success(
            request,
            _("%(club)s left %(league)s.") % {"club": club.name, "league": link.league.name},
        )
    else:
        services.decline_invitation(link, actor=request.user)
        messages.success(
            request,
            _("The invitation of %(league)s is declined.") % {"league": of_name(link.league.name)},
        )


def _back(request, club):
    """The page the form was posted from (the club's home or manage page), else the club's
    league page."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}
    ) and target.startswith("/"):
        return target
    return reverse("league_club:leagues", args=[club.slug])


def _int(value):
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() else 0


@club_view("manage")
@require_http_methods(["GET", "POST"])
def guests(request, slug, tournament_id):
    """Tournament registration: a guest found across the club's leagues by licence or
    name (no retyping), entered linked to their person."""
    tournament = get_object_or_404(Tournament, pk=tournament_id, club=request.club)
    if request.method == "POST":
        found = services.find_persons(
            request.club, request.POST.get("q", ""), 50, viewer=request.user
        )
        person = next((p for p in found if p.pk == _int(request.POST.get("person"))), None)
        if person is None:
            messages.error(request, _("Nobody of the league's clubs answers to this."))
            return redirect("league_club:guests", request.club.slug, tournament.pk)
        home = (
            person.players.exclude(club=request.club)
            .select_related("club")
            .order_by("club__name")
            .first()
        )
        guest = (
            person.name[:60],
            home.club.name[:60] if home else "",
            person.licence or "",
            person,
        )
        try:
            entries = tournament_services.register(
                tournament, [("guest", guest)], actor=request.user
            )
        except tournament_services.TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _("Entered: %(names)s.") % {"names": f"{entries[0].number}. {entries[0].name}"},
            )
            return redirect("tournaments:players", request.club.slug, tournament.pk)
    query = request.GET.get("q", "")[:80]
    found = services.find_persons(request.club, query, viewer=request.user)
    return render(
        request,
        "leagues/guests.html",
        {"club": request.club, "tournament": tournament, "q": query, "found": found},
    )
