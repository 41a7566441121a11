"""A club's tournaments: set-up, players, the draw, the rounds' tables, the ranking and
the printed material (table cards, route cards; the ranking prints as it is).

Every page goes through ``club_view``: reading is the club's ("read": public
clubs to anyone, members-only clubs to members), setting up and drawing is its
managers' ("manage"). Deals are entered on the table sheets' own pages, which
scorers and managers may use. Every write is a POST calling
``tournaments.services``; a refusal shows as a message or on the form's field.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2.export import TableExport

from clubs.permissions import can, club_view
from clubs.rules_forms import describe_rules
from tournaments import queries, services
from tournaments.filters import RankingFilter
from tournaments.forms import (
    BulkForm,
    GuestForm,
    MembersForm,
    SwapForm,
    TournamentForm,
    add_error,
)
from tournaments.models import Entry, Round, Tournament
from tournaments.services import TournamentError
from tournaments.tables import RankingTable, display_rows

GET_POST = require_http_methods(["GET", "POST"])
EXPORTS = (TableExport.CSV, TableExport.XLSX)


def _tournament(request, tournament_id) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("season", "club"), club=request.club, pk=tournament_id
    )


def _round(tournament, number) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _context(request, tournament, section, **more):
    return {
        "club": request.club,
        "tournament": tournament,
        "section": section,
        "may_manage": can(request.user, request.club, "manage"),
        "may_score": can(request.user, request.club, "score"),
        "rules_text": describe_rules(tournament.rules),
        **more,
    }


def _refused(request, error):
    messages.error(request, error.message)


# ---------------------------------------------------------------- list, set-up


@club_view("read")
def tournament_list(request, slug):
    club = request.club
    tournaments = list(club.tournaments.order_by("-date", "-pk"))
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "tournaments": tournaments,
            "may_manage": can(request.user, club, "manage"),
        },
    )


@club_view("manage")
@GET_POST
def tournament_create(request, slug):
    club = request.club
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            tournament = services.create_tournament(club, **form.settings(), by=request.user)
        except TournamentError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Tournament created. Enter its players."))
            return redirect("tournaments:players", club.slug, tournament.pk)
    return render(request, "tournaments/form.html", {"club": club, "form": form})


@club_view("manage")
@GET_POST
def tournament_edit(request, slug, tournament_id):
    tournament = _tournament(request, tournament_id)
    form = TournamentForm(request.POST if request.method == "POST" else None, tournament=tournament)
    if form.is_bound and form.is_valid():
        try:
            services.update_tournament(tournament, **form.settings(), by=request.user)
        except TournamentError as error:
            add_error(form, error)
        else:
            messages.success(request, _("The tournament's settings are saved."))
            return redirect("tournaments:detail", request.club.slug, tournament.pk)
    context = _context(request, tournament, "edit", form=form)
    return render(request, "tournaments/form.html", context)


@club_view("read")
def tournament_detail(request, slug, tournament_id):
    tournament = _tournament(request, tournament_id)
    rounds = list(tournament.round_set.order_by("number"))
    entries = list(tournament.entries.all())
    for rnd in rounds:
        rnd.players = sum(1 for e in entries if e.plays_in(rnd.number))
    context = _context(
        request,
        tournament,
        "detail",
        rounds=rounds,
        entries_count=len(entries),
        guests_count=sum(e.is_guest for e in entries),
        undrawn=[r.number for r in rounds if r.state == Round.State.PLANNED],
        open_rounds=[r for r in rounds if r.is_open],
    )
    return render(request, "tournaments/detail.html", context)


# ---------------------------------------------------------------- players


@club_view("manage")
@GET_POST
def players(request, slug, tournament_id):
    tournament = _tournament(request, tournament_id)
    club = request.club
    entered = tournament.entries.values("player_id")
    candidates = club.players.exclude(pk__in=entered).order_by("name")
    post = request.POST if request.method == "POST" else None
    action = post.get("action") if post else None
    members_form = MembersForm(post if action == "members" else None, players=candidates)
    guest_form = GuestForm(post if action == "guest" else None)
    bulk_form = BulkForm(post if action == "bulk" else None)
    forms = {"members": members_form, "guest": guest_form, "bulk": bulk_form}
    form = forms.get(action)
    if form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            if action == "members":
                items = [("member", p) for p in data["players"]]
                entries = services.register(tournament, items, by=request.user)
            elif action == "guest":
                guest = (data["name"], data["club"], data["licence"])
                entries = services.register(tournament, [("guest", guest)], by=request.user)
            else:
                entries = services.register_bulk(tournament, data["names"], by=request.user)
        except TournamentError as error:
            add_error(form, error)
        else:
            messages.success(
                request,
                _("Entered: %(names)s.")
                % {"names": ", ".join(f"{e.number}. {e.name}" for e in entries)},
            )
            return redirect("tournaments:players", club.slug, tournament.pk)
    entries = list(tournament.entries.all())
    context = _context(
        request,
        tournament,
        "players",
        entries=entries,
        members_form=members_form,
        guest_form=guest_form,
        bulk_form=bulk_form,
        has_candidates=candidates.exists(),
        joining=next((r.number for r in tournament.round_set.all() if r.is_open), None),
    )
    return render(request, "tournaments/players.html", context)


@club_view("manage")
@require_POST
def entry_withdraw(request, slug, tournament_id, number):
    tournament = _tournament(request, tournament_id)
    entry = get_object_or_404(Entry, tournament=tournament, number=number)
    try:
        kept = services.withdraw(entry, by=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        if kept is None:
            text = _("%(name)s is no longer entered.")
        else:
            text = _("%(name)s withdrew after round %(round)d.")
        values = {"name": entry.name, "round": kept.withdrawn_after_round if kept else 0}
        messages.success(request, text % values)
    return redirect("tournaments:players", request.club.slug, tournament.pk)


@club_view("read")
def entry_detail(request, slug, tournament_id, number):
    """One player's tournament: their table and seat each round, their sheets, scores."""
    tournament = _tournament(request, tournament_id)
    entry = get_object_or_404(Entry, tournament=tournament, number=number)
    route = queries.routes(tournament, {entry.number: entry})[0]
    row = next(r for r in queries.ranking(tournament) if r["number"] == number)
    stops = []
    for stop, score in zip(route["stops"], row["rounds"]):
        stops.append({"stop": stop, "score": score})
    context = _context(request, tournament, "ranking", entry=entry, stops=stops, row=row)
    return render(request, "tournaments/entry.html", context)


# ---------------------------------------------------------------- the draw


@club_view("manage")
@require_POST
def schedule(request, slug, tournament_id):
    tournament = _tournament(request, tournament_id)
    try:
        drawn = services.draw_schedule(tournament, by=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("Rounds %(rounds)s are drawn.") % {"rounds": ", ".join(map(str, drawn))},
        )
    return redirect("tournaments:detail", request.club.slug, tournament.pk)


@club_view("read")
def round_detail(request, slug, tournament_id, round_number):
    tournament = _tournament(request, tournament_id)
    rounds = list(tournament.round_set.order_by("number"))
    rnd = next((r for r in rounds if r.number == round_number), None)
    if rnd is None:
        raise Http404
    entries = queries.entries_by_number(tournament)
    tables = queries.round_tables(tournament, rnd, entries)
    may_manage = can(request.user, request.club, "manage")
    present = [e for e in entries.values() if e.plays_in(rnd.number)]
    repeats = []
    if rnd.is_drawn:
        history = services.history(tournament, rnd.number)
        seats = [view.table.seats for view in tables]
        repeats = queries.repeated_meetings(history, seats, entries)
    swap_form = None
    if may_manage and rnd.state == Round.State.DRAWN:
        swap_form = SwapForm(entries=present)
    context = _context(
        request,
        tournament,
        f"round{rnd.number}",
        round=rnd,
        rounds=rounds,
        tables=tables,
        present=len(present),
        repeats=repeats,
        swap_form=swap_form,
        complete=sum(t.state == "complete" for t in tables),
    )
    return render(request, "tournaments/round.html", context)


def _round_action(request, tournament_id, round_number, action, done):
    tournament = _tournament(request, tournament_id)
    rnd = _round(tournament, round_number)
    try:
        action(rnd)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(request, done % {"n": rnd.number})
    return redirect("tournaments:round", request.club.slug, tournament.pk, rnd.number)


@club_view("manage")
@require_POST
def round_draw(request, slug, tournament_id, round_number):
    def act(rnd):
        services.draw_round(rnd, by=request.user)

    return _round_action(request, tournament_id, round_number, act, _("Round %(n)d is drawn."))


@club_view("manage")
@require_POST
def round_swap(request, slug, tournament_id, round_number):
    tournament = _tournament(request, tournament_id)
    rnd = _round(tournament, round_number)
    present = [e for e in tournament.entries.all() if e.plays_in(rnd.number)]
    form = SwapForm(request.POST, entries=present)
    if not form.is_valid():
        messages.error(request, _("Choose two players of this round."))
    else:
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        try:
            services.swap_players(rnd, a, b, by=request.user)
        except TournamentError as error:
            _refused(request, error)
        else:
            messages.success(request, _("Players %(a)d and %(b)d swapped.") % {"a": a, "b": b})
    return redirect("tournaments:round", request.club.slug, tournament.pk, rnd.number)


@club_view("manage")
@require_POST
def round_start(request, slug, tournament_id, round_number):
    def act(rnd):
        services.start_round(rnd, by=request.user)

    done = _("Round %(n)d has started: each table has its sheet.")
    return _round_action(request, tournament_id, round_number, act, done)


@club_view("manage")
@require_POST
def round_close(request, slug, tournament_id, round_number):
    def act(rnd):
        services.close_round(rnd, by=request.user)

    return _round_action(request, tournament_id, round_number, act, _("Round %(n)d is closed."))


# ---------------------------------------------------------------- printed material


@club_view("read")
def table_cards(request, slug, tournament_id, round_number):
    """A card per table of the round (A4, one a page): seats and a blank score grid."""
    tournament = _tournament(request, tournament_id)
    rnd = _round(tournament, round_number)
    tables = queries.round_tables(tournament, rnd)
    context = _context(request, tournament, f"round{rnd.number}", round=rnd, tables=tables)
    return render(request, "tournaments/table_cards.html", context)


@club_view("read")
def route_cards(request, slug, tournament_id):
    """Each player's card: their table and seat in every drawn round."""
    tournament = _tournament(request, tournament_id)
    routes = queries.routes(tournament)
    context = _context(request, tournament, "routes", routes=routes)
    return render(request, "tournaments/route_cards.html", context)


# ---------------------------------------------------------------- ranking


@club_view("read")
def ranking(request, slug, tournament_id):
    tournament = _tournament(request, tournament_id)
    club = request.club
    ranking_filter = RankingFilter(request.GET, request=request)
    rows = ranking_filter.filter_rows(queries.ranking(tournament))
    export = request.GET.get("_export")
    if TableExport.is_valid_format(export) and export in EXPORTS:
        table = RankingTable(rows, rounds=tournament.rounds)
        exporter = TableExport(export, table, dataset_kwargs={"title": _("Ranking")})
        filename = f"ranking-{club.slug}-{slugify(tournament.name)}.{export}"
        return exporter.response(filename=filename)
    context = _context(
        request,
        tournament,
        "ranking",
        rows=display_rows(rows, club=club, tournament=tournament),
        filter=ranking_filter,
        round_numbers=range(1, tournament.rounds + 1),
    )
    return render(request, "tournaments/ranking.html", context)
