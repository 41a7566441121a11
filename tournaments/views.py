"""A club's tournaments: set-up, players, the draw, the rounds' tables, the ranking and
the printed material (table cards, route cards; the ranking prints as it is).

Every page goes through ``club_view``: reading is the club's ("read": public
clubs to anyone, members-only clubs to members), setting up and drawing is its
managers' ("manage"). Deals are entered on the table sheets' own pages, which
scorers and managers may use. Every write is a POST calling
``tournaments.services``; a refusal shows as a message or on the form's field.
"""

import datetime
import json
from functools import partial

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2.export import TableExport

from clubs.forms import add_club_error
from clubs.permissions import can, club_view
from clubs.rules_forms import describe_rules
from clubs.services import name_key
from core.exports import SafeTableExport, bad_request
from core.idempotency import idempotent, once
from core.jsonnumbers import json_number
from scoresheet.hand_forms import queue_refusal, queued
from scoresheet.handmap import Table, sheet_json
from tournaments import guests, queries, services, tokens
from tournaments.filters import RankingFilter
from tournaments.forms import (
    AdjustmentForm,
    BulkForm,
    GuestForm,
    MembersForm,
    SwapForm,
    TeamForm,
    TournamentForm,
)
from tournaments.listings import RankingTable, display_rows
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.services import TournamentError
from tournaments.table_views import hand_form_page, live_hand, table_hand_form

GET_POST = require_http_methods(["GET", "POST"])
EXPORTS = (TableExport.CSV, TableExport.XLSX)


def tournament_of(request, tournament_id, **kind) -> Tournament:
    """The club's tournament ``tournament_id`` (404 otherwise); ``kind=``: only of that
    kind (the duplicate pages')."""
    return get_object_or_404(
        Tournament.objects.select_related("season", "club"),
        club=request.club,
        pk=tournament_id,
        **kind,
    )


def _round(tournament, number) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def page_context(request, tournament, section, **more):
    """What every page of a tournament (free-deal or duplicate) gives its template."""
    return {
        "club": request.club,
        "tournament": tournament,
        "section": section,
        "may_manage": can(request.user, request.club, "manage"),
        "may_score": can(request.user, request.club, "score"),
        "rules_text": describe_rules(tournament.rules),
        **more,
    }


def settings_page(
    request, form_class, save, *, tournament=None, template, done, then, section="edit"
):
    """A tournament's settings form (new when ``tournament`` is None): valid, it calls
    ``save(**form.settings(), actor=…)`` (a service creating or updating the event),
    says ``done`` and goes to the page ``then`` of the saved event; refused, the
    error lands on its field."""
    post = request.POST if request.method == "POST" else None
    form = form_class(post, tournament=tournament)
    if form.is_bound and form.is_valid():
        try:
            if tournament is None:  # a creation: stored once per form (``core.idempotency``)
                saved = once(
                    request,
                    lambda: save(**form.settings(), actor=request.user),
                    url=lambda t: reverse(then, args=[request.club.slug, t.pk]),
                )
            else:
                saved = save(**form.settings(), actor=request.user)
        except TournamentError as error:
            add_club_error(form, error, form_class.ERROR_FIELDS)
        else:
            messages.success(request, done)
            return redirect(then, request.club.slug, saved.pk)
    if tournament is None:
        context = {"club": request.club, "form": form}
    else:
        context = page_context(request, tournament, section, form=form)
    return render(request, template, context)


def _refused(request, error):
    messages.error(request, error.message)


# ---------------------------------------------------------------- list, set-up


@club_view("read")
def tournament_list(request, slug):
    club = request.club
    # a team match's two tables are the match's, not one of the club's tournaments
    tournaments = list(club.tournaments.filter(team_match=False).order_by("-date", "-pk"))
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
@idempotent
@GET_POST
def tournament_create(request, slug):
    return settings_page(
        request,
        TournamentForm,
        partial(services.create_tournament, request.club),
        template="tournaments/form.html",
        done=_("Tournament created. Enter its players."),
        then="tournaments:players",
    )


@club_view("manage")
@GET_POST
def tournament_edit(request, slug, tournament_id):
    tournament = tournament_of(request, tournament_id)
    if tournament.is_duplicate:  # its own settings: tournaments.duplicate.views
        return redirect("tournaments:duplicate_edit", request.club.slug, tournament.pk)
    return settings_page(
        request,
        TournamentForm,
        partial(services.update_tournament, tournament),
        tournament=tournament,
        template="tournaments/form.html",
        done=_("The tournament's settings are saved."),
        then="tournaments:detail",
    )


@club_view("read")
def tournament_detail(request, slug, tournament_id):
    tournament = tournament_of(request, tournament_id)
    if tournament.is_duplicate:  # its movement is its overview: tournaments.duplicate.views
        return redirect("tournaments:duplicate", request.club.slug, tournament.pk)
    rounds = list(tournament.round_set.order_by("number"))
    entries = list(tournament.entries.all())
    for rnd in rounds:
        rnd.players = sum(1 for e in entries if e.plays_in(rnd.number))
    context = page_context(
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
    tournament = tournament_of(request, tournament_id)
    club = request.club
    entered = tournament.entries.values("player_id")
    candidates = (
        club.players.filter(is_guest=False).exclude(pk__in=entered).order_by("sort_key", "name")
    )
    post = request.POST if request.method == "POST" else None
    action = post.get("action") if post else None
    members_form = MembersForm(post if action == "members" else None, players=candidates)
    guest_form = GuestForm(post if action == "guest" else None)
    bulk_form = BulkForm(post if action == "bulk" else None)
    team_form = TeamForm(post if action == "team" else None) if tournament.team_size else None
    forms = {"members": members_form, "guest": guest_form, "bulk": bulk_form, "team": team_form}
    if action == "link":
        return _link_entry(request, tournament)
    form = forms.get(action)
    if form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            if action == "members":
                items = [("member", p) for p in data["players"]]
                entries = services.register(tournament, items, actor=request.user)
            elif action == "team":
                items = services.parse_bulk(club, data["names"])
                team = services.register_team(tournament, data["team"], items, actor=request.user)
                entries = list(team.members.order_by("number"))
            elif action == "guest":
                guest = (data["name"], data["club"], data["licence"])
                entries = services.register(tournament, [("guest", guest)], actor=request.user)
            else:
                entries = services.register_bulk(tournament, data["names"], actor=request.user)
        except TournamentError as error:
            add_club_error(form, error)
        else:
            messages.success(
                request,
                _("Entered: %(names)s.")
                % {"names": ", ".join(f"{e.number}. {e.name}" for e in entries)},
            )
            return redirect("tournaments:players", club.slug, tournament.pk)
    entries = list(tournament.entries.select_related("team"))
    # A team event: the players still playing without a team (a warning, not a refusal).
    teamless = [
        e
        for e in entries
        if tournament.team_size and e.team_id is None and e.withdrawn_after_round is None
    ]
    context = page_context(
        request,
        tournament,
        "players",
        teamless=teamless,
        team_form=team_form,
        entries=entries,
        members_form=members_form,
        guest_form=guest_form,
        bulk_form=bulk_form,
        has_candidates=candidates.exists(),
        proposals=guests.licence_proposals(tournament, request.user),
        joining=next((r.number for r in tournament.round_set.all() if r.is_open), None),
    )
    return render(request, "tournaments/players.html", context)


def _link_entry(request, tournament):
    """The organiser confirms that a guest typed with a licence is the person holding it
    (``tournaments.guests.licence_proposals``): the entry reaches the league's ranking."""
    proposals = dict(guests.licence_proposals(tournament, request.user))
    entry = next((e for e in proposals if str(e.pk) == request.POST.get("entry")), None)
    if entry is None:
        messages.error(request, _("This guest is linked already, or has no such licence."))
    else:
        try:
            services.link_entry(entry, proposals[entry], actor=request.user)
        except TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _("%(name)s is entered as %(person)s.")
                % {"name": entry.name, "person": proposals[entry]},
            )
    return redirect("tournaments:players", request.club.slug, tournament.pk)


@club_view("manage")
@require_http_methods(["GET", "POST"])
def entry_withdraw(request, slug, tournament_id, number):
    """A withdrawal, confirmed: the page says what happens to the later rounds (those
    drawn keep their draw, re-balanced only where the player sat, unless the
    organiser has them drawn again)."""
    tournament = tournament_of(request, tournament_id)
    entry = get_object_or_404(Entry, tournament=tournament, number=number)
    if request.method == "POST":
        redraw = request.POST.get("later") == "redraw"
        try:
            kept = services.withdraw_player(entry, redraw=redraw, actor=request.user)
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
    if entry.withdrawn_after_round is not None:
        messages.error(request, _("This player has already withdrawn."))
        return redirect("tournaments:players", request.club.slug, tournament.pk)
    effect = services.withdrawal_effect(entry)
    context = page_context(request, tournament, "players", entry=entry, effect=effect)
    return render(request, "tournaments/withdraw.html", context)


@club_view("read")
@require_http_methods(["GET", "POST"])
def entry_detail(request, slug, tournament_id, number):
    """One player's tournament: their table and seat each round, their sheets, scores."""
    tournament = tournament_of(request, tournament_id)
    entry = get_object_or_404(Entry, tournament=tournament, number=number)
    route = queries.routes(tournament, {entry.number: entry})[0]
    row = next(r for r in queries.ranking(tournament) if r["number"] == number)
    stops = []
    for stop, score in zip(route["stops"], row["rounds"]):
        stops.append({"stop": stop, "score": score})
    adjustments = list(entry.adjustments.all())
    adjust_form = None
    if can(request.user, request.club, "manage") and not tournament.is_closed:
        played = [
            r.number
            for r in tournament.round_set.order_by("number")
            if r.state in (Round.State.STARTED, Round.State.CLOSED) and entry.plays_in(r.number)
        ]
        if played:
            post = request.POST if request.method == "POST" else None
            adjust_form = AdjustmentForm(post, rounds=played)
            if post is not None and adjust_form.is_valid():
                data = adjust_form.cleaned_data
                try:
                    services.adjust_score(
                        entry, data["round"], data["points"], data["reason"], actor=request.user
                    )
                except TournamentError as error:
                    add_club_error(adjust_form, error)
                else:
                    messages.success(request, _("The adjustment is recorded."))
                    return redirect("tournaments:entry", request.club.slug, tournament.pk, number)
    context = page_context(
        request,
        tournament,
        "ranking",
        entry=entry,
        stops=stops,
        row=row,
        adjustments=adjustments,
        adjust_form=adjust_form,
    )
    return render(request, "tournaments/entry.html", context)


# ---------------------------------------------------------------- the draw


def _ask_redraw(request, tournament, drawn, action, back):
    """Drawing again rounds already drawn asks first, naming them."""
    context = page_context(request, tournament, "overview", redrawn=drawn, action=action, back=back)
    return render(request, "tournaments/redraw.html", context)


@club_view("manage")
@require_POST
def schedule(request, slug, tournament_id):
    tournament = tournament_of(request, tournament_id)
    drawn = [r.number for r in tournament.round_set.order_by("number") if r.state == "drawn"]
    if drawn and not request.POST.get("confirm"):
        back = reverse("tournaments:detail", args=[request.club.slug, tournament.pk])
        return _ask_redraw(request, tournament, drawn, request.path, back)
    try:
        drawn = services.draw_schedule(tournament, actor=request.user)
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
    tournament = tournament_of(request, tournament_id)
    rounds = list(tournament.round_set.order_by("number"))
    rnd = next((r for r in rounds if r.number == round_number), None)
    if rnd is None:
        raise Http404
    entries = queries.entries_by_number(tournament)
    tables = queries.round_tables(tournament, rnd, entries)
    may_manage = can(request.user, request.club, "manage")
    present = [e for e in entries.values() if e.plays_in(rnd.number)]
    repeats, meetings = [], None
    if rnd.is_drawn and not tournament.is_duplicate:  # a movement's meetings: its own page
        history = services.history(tournament, rnd.number)
        seats = [view.table.seats for view in tables]
        repeats = queries.repeated_meetings(history, seats, entries)
        meetings = queries.draw_meetings(history, seats, tournament.rounds)
    if may_manage and rnd.is_drawn and rnd.state != Round.State.CLOSED:
        queries.forecast_tables(request.club.pk, tables)  # what the ratings expect
    swap_form = None
    if may_manage and rnd.state == Round.State.DRAWN and not tournament.is_duplicate:
        swap_form = SwapForm(entries=present)
    context = page_context(
        request,
        tournament,
        f"round{rnd.number}",
        round=rnd,
        rounds=rounds,
        tables=tables,
        present=len(present),
        repeats=repeats,
        meetings=meetings,
        swap_form=swap_form,
        complete=sum(t.state == "complete" for t in tables),
        reprint=sum(t.table.changed for t in tables) if rnd.state == Round.State.DRAWN else 0,
    )
    if may_manage and rnd.state == Round.State.STARTED:  # one phone per table
        context["takeover_code"] = tokens.takeover_code(rnd)
        context["devices"] = table_devices([t.table for t in tables])
    return render(request, "tournaments/round.html", context)


#: A table's phone not heard of for this long is shown offline (it reports every 30 s).
OFFLINE_AFTER = datetime.timedelta(seconds=90)


def table_devices(tables) -> list[dict]:
    """Each table's phone as the organiser sees it: none yet, online, or offline since."""
    now = timezone.now()
    out = []
    for table in tables:
        seen = table.device_seen_at
        if not table.device:
            state = "none"
        elif seen is not None and now - seen <= OFFLINE_AFTER:
            state = "online"
        else:
            state = "offline"
        out.append(
            {"number": table.number, "state": state, "seen": seen, "waiting": table.device_waiting}
        )
    return out


def _round_action(request, tournament_id, round_number, action, done):
    tournament = tournament_of(request, tournament_id)
    rnd = _round(tournament, round_number)
    try:
        action(rnd, actor=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(request, done % {"n": rnd.number})
    return redirect("tournaments:round", request.club.slug, tournament.pk, rnd.number)


@club_view("manage")
@require_POST
def round_draw(request, slug, tournament_id, round_number):
    tournament = tournament_of(request, tournament_id)
    rounds = tournament.round_set.filter(number__gte=round_number, state="drawn")
    drawn = [r.number for r in rounds.order_by("number")]
    if drawn and not request.POST.get("confirm"):
        back = reverse("tournaments:round", args=[request.club.slug, tournament.pk, round_number])
        return _ask_redraw(request, tournament, drawn, request.path, back)
    done = _("Round %(n)d is drawn.")
    return _round_action(request, tournament_id, round_number, services.draw_round, done)


@club_view("manage")
@require_POST
def round_swap(request, slug, tournament_id, round_number):
    tournament = tournament_of(request, tournament_id)
    rnd = _round(tournament, round_number)
    present = [e for e in tournament.entries.all() if e.plays_in(rnd.number)]
    form = SwapForm(request.POST, entries=present)
    if not form.is_valid():
        messages.error(request, _("Choose two players of this round."))
    else:
        a, b = form.cleaned_data["a"], form.cleaned_data["b"]
        try:
            services.swap_players(rnd, a, b, actor=request.user)
        except TournamentError as error:
            _refused(request, error)
        else:
            messages.success(request, _("Players %(a)d and %(b)d swapped.") % {"a": a, "b": b})
    return redirect("tournaments:round", request.club.slug, tournament.pk, rnd.number)


@club_view("manage")
@require_POST
def round_start(request, slug, tournament_id, round_number):
    done = _("Round %(n)d has started: each table has its sheet.")
    return _round_action(request, tournament_id, round_number, services.start_round, done)


@club_view("manage")
@require_POST
def round_close(request, slug, tournament_id, round_number):
    done = _("Round %(n)d is closed.")
    return _round_action(request, tournament_id, round_number, services.close_round, done)


# ---------------------------------------------------------------- printed material


@club_view("read")
def table_cards(request, slug, tournament_id, round_number):
    """A card per table of the round (A4, one a page): seats and a blank score grid."""
    tournament = tournament_of(request, tournament_id)
    rnd = _round(tournament, round_number)
    tables = queries.round_tables(tournament, rnd)
    if request.GET.get("changed"):  # only the cards a withdrawal changed, to print again
        tables = [view for view in tables if view.table.changed]
    if can(request.user, request.club, "manage") and not tournament.is_closed:
        # the private links (secrets): only the organiser's cards carry them
        for view in tables:
            view.link = tokens.url(view.table, request)
            view.qr = tokens.qr_svg(view.link)
    context = page_context(request, tournament, f"round{rnd.number}", round=rnd, tables=tables)
    return render(request, "tournaments/table_cards.html", context)


@club_view("read")
def route_cards(request, slug, tournament_id):
    """Each player's card: their table and seat in every drawn round."""
    tournament = tournament_of(request, tournament_id)
    routes = queries.routes(tournament)
    context = page_context(request, tournament, "routes", routes=routes)
    return render(request, "tournaments/route_cards.html", context)


# ---------------------------------------------------------------- ranking


@club_view("read")
def ranking(request, slug, tournament_id):
    tournament = tournament_of(request, tournament_id)
    if tournament.is_duplicate:  # the barometer: tournaments.duplicate.views
        return redirect("tournaments:duplicate_ranking", request.club.slug, tournament.pk)
    club = request.club
    ranking_filter = RankingFilter(request.GET, request=request)
    export = request.GET.get("_export")
    if export and export not in EXPORTS:
        return bad_request(request)  # an unknown format is refused, as on every export
    # each licence number only where the reader may see the person (clubs.visibility)
    all_rows = queries.with_licences(
        queries.ranking(tournament), queries.licences(tournament, request.user)
    )
    rows = ranking_filter.filter_rows(all_rows)
    if export:
        table = RankingTable(rows, rounds=tournament.rounds)
        # formula-like names neutralised; CSV with a BOM and the language's separator
        exporter = SafeTableExport(export, table, dataset_kwargs={"title": _("Ranking")})
        filename = f"ranking-{club.slug}-{slugify(tournament.name)}.{export}"
        return exporter.response(filename=filename)
    pending = [] if tournament.is_closed else queries.unconfirmed(tournament)
    queries.mark_provisional(all_rows, pending)
    teams = queries.team_ranking(tournament, all_rows) if tournament.team_size else []
    display = display_rows(rows, club=club, tournament=tournament)
    context = page_context(
        request,
        tournament,
        "ranking",
        rows=display,
        filter=ranking_filter,
        round_numbers=range(1, tournament.rounds + 1),
        pending=pending,
        provisional=bool(pending),
        teams=teams,
        show_licences=any(row["licence"] for row in display),
        may_close=tournament.state == Tournament.State.FINISHED and not pending,
    )
    return render(request, "tournaments/ranking.html", context)


# ---------------------------------------------------------------- tournament day: tables


def _table(tournament, round_number, table_number) -> RoundTable:
    return get_object_or_404(
        RoundTable.objects.select_related("round__tournament__club", "sheet"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )


@club_view("manage")
def table_detail(request, slug, tournament_id, round_number, table_number):
    """The organiser's view of one table: its deals, its entries and their differences,
    its link and QR code, and what to do (confirm, send back, correct a deal, new link)."""
    tournament = tournament_of(request, tournament_id)
    table = _table(tournament, round_number, table_number)
    entries = queries.entries_by_number(tournament)
    seated = [(letter, entries.get(n)) for letter, n in zip(queries.SEAT_LETTERS, table.seats)]
    deals, totals = [], []
    if table.sheet_id:
        by_number, rows = services.snapshot(table)
        numbers = table.sheet.hands.live().order_by("number").values_list("number", flat=True)
        deals = [{"number": n, "scores": row} for n, row in zip(numbers, rows)]
        totals = [by_number.get(str(n)) for n in table.seats]
    link = tokens.url(table, request)
    context = page_context(
        request,
        tournament,
        f"round{round_number}",
        table=table,
        round=table.round,
        seated=seated,
        deals=deals,
        totals=totals,
        results=list(table.results.select_related("by").order_by("at", "pk")),
        differences=services.differences(table),
        link=link,
        qr=tokens.qr_svg(link),
        frozen=tournament.is_closed,
    )
    return render(request, "tournaments/table_detail.html", context)


def _table_action(request, tournament_id, round_number, table_number, action, done):
    tournament = tournament_of(request, tournament_id)
    table = _table(tournament, round_number, table_number)
    try:
        result = action(table, actor=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(request, done)
        # what the confirmation's follow-ups said (a team match recorded or refused)
        for notice in getattr(result, "notices", ()):
            (messages.error if notice.refused else messages.info)(request, notice.message)
    return redirect(
        "tournaments:table", request.club.slug, tournament.pk, round_number, table_number
    )


@club_view("manage")
@require_POST
def table_confirm(request, slug, tournament_id, round_number, table_number):
    done = _("The sheet is confirmed.")
    return _table_action(
        request, tournament_id, round_number, table_number, services.confirm_table, done
    )


@club_view("manage")
@require_POST
def table_reopen(request, slug, tournament_id, round_number, table_number):
    done = _("The sheet is back with the table: it may correct its deals and hand it in again.")
    return _table_action(
        request, tournament_id, round_number, table_number, services.reopen_table, done
    )


def _back_to_round(request, tournament, round_number, table_number):
    url = reverse("tournaments:round", args=[request.club.slug, tournament.pk, round_number])
    return redirect(f"{url}#table-{table_number}")


@club_view("manage")
@require_POST
def table_totals(request, slug, tournament_id, round_number, table_number):
    """The organiser types a table's totals alone (the table could not use its link)."""
    tournament = tournament_of(request, tournament_id)
    table = _table(tournament, round_number, table_number)
    values = [request.POST.get(f"total_{k}", "") for k in range(len(table.seats))]
    try:
        services.enter_table_totals(table, values, actor=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request, _("Table %(n)d's totals are entered and confirmed.") % {"n": table.number}
        )
    return _back_to_round(request, tournament, round_number, table_number)


@club_view("manage")
@require_POST
def table_totals_cancel(request, slug, tournament_id, round_number, table_number):
    tournament = tournament_of(request, tournament_id)
    table = _table(tournament, round_number, table_number)
    try:
        services.cancel_table_totals(table, actor=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("Table %(n)d's totals are cancelled: the table is open again.") % {"n": table.number},
        )
    return _back_to_round(request, tournament, round_number, table_number)


@club_view("manage")
@require_POST
def table_revoke(request, slug, tournament_id, round_number, table_number):
    done = _("The table has a new link: the old one no longer works. Print its card again.")
    return _table_action(
        request, tournament_id, round_number, table_number, services.revoke_link, done
    )


@club_view("manage")
@idempotent
@GET_POST
def table_hand(request, slug, tournament_id, round_number, table_number, number):
    """The organiser's correction of one deal of a table (handed in, disputed or
    confirmed): the hand form, then ``services.correct_table_hand``, once per form key
    (``once``: saved with no network, it waits in the phone's queue)."""
    tournament = tournament_of(request, tournament_id)
    table = _table(tournament, round_number, table_number)
    hand = live_hand(table, number)
    back = reverse(
        "tournaments:table", args=[request.club.slug, tournament.pk, round_number, table_number]
    )
    if tournament.is_closed:
        messages.error(request, _("The tournament is closed: its final ranking is frozen."))
        return redirect(back)
    sheet = table.sheet
    seating = Table.of(sheet)
    if request.method == "POST":
        save = request.POST.get("action") == "save"
        form = table_hand_form(table, request.POST, table=seating, hand=hand, previews=not save)
        if save and form.is_valid():
            try:
                once(
                    request,
                    lambda: services.correct_table_hand(
                        table, hand, form.hand_data, actor=request.user, seating=seating
                    ),
                    url=back,
                )
            except TournamentError as error:
                add_club_error(form, error)
            else:
                messages.success(request, _("Deal %(n)d corrected.") % {"n": hand.number})
                if request.headers.get("X-Requested-With") == "fetch":
                    return JsonResponse({"saved": hand.number, "url": back})
                return redirect(back)
        if save and queued(request):  # a correction from the phone's queue: why
            return queue_refusal(form)
    else:
        form = table_hand_form(table, table=seating, hand=hand)
    preview_url = reverse("scoresheet:hand_preview", args=[request.club.slug, sheet.pk])
    return hand_form_page(request, table, form, hand, preview_url=preview_url, back_url=back)


# ---------------------------------------------------------------- closing, exports


@club_view("manage")
@require_POST
def tournament_close(request, slug, tournament_id):
    tournament = tournament_of(request, tournament_id)
    try:
        services.close_tournament(tournament, actor=request.user)
    except TournamentError as error:
        _refused(request, error)
    else:
        messages.success(request, _("The tournament is closed: its final ranking is frozen."))
    if tournament.is_duplicate:
        return redirect("tournaments:duplicate_ranking", request.club.slug, tournament.pk)
    return redirect("tournaments:ranking", request.club.slug, tournament.pk)


@club_view("read")
def export_json(request, slug, tournament_id):
    """The whole tournament as JSON: settings, rankings (players, teams), every round's
    tables with their state and their sheet in HAND_FORMAT.md's sheet format."""
    tournament = tournament_of(request, tournament_id)
    if tournament.final_ranking:
        players, teams = tournament.final_ranking["players"], tournament.final_ranking["teams"]
    else:
        rows = queries.ranking(tournament)
        players = queries.json_ranking(rows)
        teams = queries.json_ranking(queries.team_ranking(tournament, rows))
    # the licences the reader may see, the frozen ranking's too (clubs.visibility)
    players = queries.with_licences(
        [dict(row) for row in players], queries.licences(tournament, request.user)
    )
    rounds = []
    tables = (
        RoundTable.objects.filter(round__tournament=tournament)
        .select_related("round", "sheet")
        .order_by("round__number", "number")
    )
    by_round: dict[int, list] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(
            {
                "table": table.number,
                "seats": table.seats,
                "state": table.state,
                "sheet": sheet_json(table.sheet) if table.sheet_id else None,
            }
        )
    for rnd in tournament.round_set.order_by("number"):
        rounds.append(
            {"round": rnd.number, "state": rnd.state, "tables": by_round.get(rnd.number, [])}
        )
    data = {
        "tournament": {
            "name": tournament.name,
            "club": tournament.club.name,
            "date": tournament.date.isoformat(),
            "state": tournament.state,
            "official": tournament.is_closed or not queries.unconfirmed(tournament),
            "rules": tournament.rules,
            "rounds": tournament.rounds,
            "deals_per_round": tournament.deals_per_round,
            "minutes_per_round": tournament.minutes_per_round,
            "team_size": tournament.team_size,
            "closed_at": tournament.closed_at.isoformat() if tournament.closed_at else None,
        },
        "ranking": players,
        "teams": teams,
        "rounds": rounds,
    }
    text = json.dumps(data, ensure_ascii=False, indent=1, default=json_number)
    response = HttpResponse(text + "\n", content_type="application/json; charset=utf-8")
    filename = f"tournament-{request.club.slug}-{slugify(tournament.name)}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# ---------------------------------------------------------------- the room: screen, find my table


def _current_round(rounds):
    """The round the room cares about: the one under way, else the next drawn one, else
    the last closed one."""
    for state in (Round.State.STARTED, Round.State.DRAWN):
        found = next((r for r in rounds if r.state == state), None)
        if found is not None:
            return found
    closed = [r for r in rounds if r.state == Round.State.CLOSED]
    return closed[-1] if closed else None


def _screen_context(request, tournament):
    rounds = list(tournament.round_set.order_by("number"))
    rnd = _current_round(rounds)
    entries = queries.entries_by_number(tournament)
    rows = queries.ranking(tournament)
    pending = queries.unconfirmed(tournament)
    queries.mark_provisional(rows, pending)
    playing, done = [], []
    if rnd is not None and rnd.state == Round.State.STARTED:
        for t in queries.round_tables(tournament, rnd, entries):
            finished = t.table.state == RoundTable.State.CONFIRMED
            (done if finished else playing).append(t)
    return {
        "done": done,
        "club": request.club,
        "tournament": tournament,
        "round": rnd,
        "rows": display_rows(rows, club=request.club, tournament=tournament),
        "teams": queries.team_ranking(tournament, rows),
        "playing": playing,
        "provisional": bool(pending) and not tournament.is_closed,
    }


@club_view("read")
def screen(request, slug, tournament_id):
    """The room's screen, a page of its own: the ranking in large type, paged, the team
    ranking in turn, the round's tables still playing; a script
    (``tournament_screen.js``) pages it and refreshes the live part every ten seconds."""
    tournament = tournament_of(request, tournament_id)
    if tournament.is_duplicate:  # the barometer's screen: tournaments.duplicate.views
        return redirect("tournaments:duplicate_screen", request.club.slug, tournament.pk)
    context = _screen_context(request, tournament)
    context["live_url"] = reverse(
        "tournaments:screen_live", args=[request.club.slug, tournament.pk]
    )
    # Seconds a page of the ranking stays (?page=5 for a quicker turn; 3 to 60).
    seconds = request.GET.get("page", "")
    context["page_seconds"] = (
        min(60, max(3, int(seconds))) if seconds.isascii() and seconds.isdigit() else 12
    )
    return render(request, "tournaments/screen.html", context)


@club_view("read")
def screen_live(request, slug, tournament_id):
    """The screen's live part, an HTML fragment (polled)."""
    tournament = tournament_of(request, tournament_id)
    response = render(
        request, "tournaments/includes/screen_live.html", _screen_context(request, tournament)
    )
    response["Cache-Control"] = "no-store"
    return response


@club_view("read")
def find_table(request, slug, tournament_id):
    """A player finds their table for the round under way or the next one, by their
    number or their name."""
    tournament = tournament_of(request, tournament_id)
    query = (request.GET.get("q") or "").strip()[:80]
    rounds = list(tournament.round_set.order_by("number"))
    rnd = _current_round(rounds)
    found = []
    if query and rnd is not None:
        entries = list(tournament.entries.all())
        if query.isascii() and query.isdigit():  # "²".isdigit() is true
            matches = [e for e in entries if e.number == int(query)]
        else:
            key = name_key(query)
            matches = [e for e in entries if key in name_key(e.name)]
        where = {}
        for table in rnd.tables.order_by("number"):
            for position, number in enumerate(table.seats):
                where[number] = (table.number, queries.SEAT_LETTERS[position])
        for entry in matches[:10]:
            found.append({"entry": entry, "where": where.get(entry.number)})
    context = page_context(
        request, tournament, "find", round=rnd, query=query, found=found, searched=bool(query)
    )
    return render(request, "tournaments/find.html", context)
