"""A duplicate event's pages: set-up, the movement and its printed cards, the deal
sheets for the étuis, the barometer and final ranking (overall, per série, teams),
the travellers, each player's sheet, the projector screen, the arbitre's decisions
and the exports (JSON for ``score_duplicate`` with the hand records, CSV, XLSX).

Reading is the club's (``club_view("read")``), setting up and deciding is its
managers'; the deal sheets (the cards, before play) are the managers' until the
event is finished. Every write is a POST calling ``tournaments.duplicate.services``.
The tables' own pages are the tournament's (``tournaments.table_views``).
"""

from fractions import Fraction
from functools import partial
from html import escape

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.permissions import can, club_view
from core.exports import bad_request, download
from core.idempotency import idempotent
from scoresheet.vocabulary import Contract
from tarot.cards import deal_cards
from tarot.duplicate import SEATS, dealer_seat
from tournaments import queries
from tournaments.duplicate import exports
from tournaments.duplicate import results as duplicate_results
from tournaments.duplicate import services as duplicate_services
from tournaments.duplicate.exports import rounded_score, score_places
from tournaments.duplicate.forms import DecisionForm, DuplicateForm
from tournaments.duplicate.movement import CYCLIC, FEWEST, ROTATION, MovementError
from tournaments.duplicate.services import SERIES
from tournaments.models import DealDecision, Round, RoundTable, Tournament
from tournaments.queries import SEAT_LETTERS
from tournaments.services import TournamentError
from tournaments.views import page_context, settings_page, tournament_of

GET_POST = require_http_methods(["GET", "POST"])

#: the movements' names on the choice page (``movement.KINDS``)
MOVEMENT_NAMES = {
    FEWEST: gettext_lazy("Fewest repeated meetings (route cards)"),
    ROTATION: gettext_lazy("Plain rotation: East moves one table, South two, West three"),
    CYCLIC: gettext_lazy("Fixed moves: each orientation moves the same tables every round"),
}


def _event(request, tournament_id) -> Tournament:
    return tournament_of(request, tournament_id, kind=Tournament.Kind.DUPLICATE)


def _plan(tournament):
    try:
        return duplicate_services.event_plan(tournament)
    except MovementError:
        return None


# ---------------------------------------------------------------- set-up


@club_view("manage")
@idempotent
@GET_POST
def create(request, slug):
    return settings_page(
        request,
        DuplicateForm,
        partial(duplicate_services.create_duplicate, request.club),
        template="tournaments/duplicate/form.html",
        done=_("Duplicate event created. Enter its players."),
        then="tournaments:players",
    )


@club_view("manage")
@GET_POST
def edit(request, slug, tournament_id):
    event = _event(request, tournament_id)
    return settings_page(
        request,
        DuplicateForm,
        partial(duplicate_services.update_duplicate, event),
        tournament=event,
        template="tournaments/duplicate/form.html",
        done=_("The tournament's settings are saved."),
        then="tournaments:duplicate",
        section="duplicate",
    )


@club_view("read")
def overview(request, slug, tournament_id):
    """The event's movement: each round's tables with their set, the byes, the repeated
    meetings; for the organiser, drawing it and the printed material."""
    event = _event(request, tournament_id)
    rounds = list(event.round_set.order_by("number"))
    tables = list(
        RoundTable.objects.filter(round__tournament=event)
        .select_related("round")
        .order_by("round__number", "number")
    )
    entries = {e.number: e for e in event.entries.all()}
    drawn = bool(tables)
    plan = _plan(event) if drawn else None
    by_round = {r.number: [] for r in rounds}
    for table in tables:
        table.players = [(SEATS[i], entries.get(n)) for i, n in enumerate(table.seats)]
        by_round[table.round.number].append(table)
    movement_rounds = [
        {
            "round": r,
            "tables": by_round[r.number],
            "byes": [entries[n] for n in (plan.byes[r.number - 1] if plan else []) if n in entries],
        }
        for r in rounds
    ]
    context = page_context(
        request,
        event,
        "duplicate",
        rounds=movement_rounds,
        drawn=drawn,
        plan=plan,
        entries_count=len(entries),
        table_count=-(-len(entries) // 4),
        may_draw=all(r.is_open for r in rounds),
        open_rounds=[r for r in rounds if r.state != Round.State.CLOSED],
        open_tables=[t for t in tables if t.state != RoundTable.State.CONFIRMED],
    )
    return render(request, "tournaments/duplicate/overview.html", context)


@club_view("manage")
@require_POST
def draw(request, slug, tournament_id):
    event = _event(request, tournament_id)
    try:
        plan = duplicate_services.draw_movement(event, actor=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("The movement is drawn: %(tables)d tables, %(repeated)d repeated meetings.")
            % {"tables": plan.tables, "repeated": plan.repeated},
        )
    return redirect("tournaments:duplicate", request.club.slug, event.pk)


def _moves(chosen) -> str:
    """How the players of a cyclic movement move, for the choice page ("" for route cards)."""
    if chosen.shifts is None:
        return ""
    letters = [str(letter) for letter in SEAT_LETTERS[:4]]
    moves = " · ".join(f"{letter} +{shift}" for letter, shift in zip(letters, chosen.shifts))
    return _("%(moves)s; étuis +%(step)d") % {"moves": moves, "step": chosen.step}


@club_view("manage")
@GET_POST
def movement_choice(request, slug, tournament_id):
    """The movements that fit the players entered, each with its repeated meetings, the
    players resting and how the players move; the organiser chooses one."""
    event = _event(request, tournament_id)
    back = redirect("tournaments:duplicate_movement", request.club.slug, event.pk)
    if request.method == "POST":
        try:
            plan = duplicate_services.choose_movement(
                event, request.POST.get("movement", ""), actor=request.user
            )
        except TournamentError as error:
            messages.error(request, error.message)
            return back
        messages.success(
            request,
            ngettext(
                "Movement chosen: %(repeated)d repeated meeting.",
                "Movement chosen: %(repeated)d repeated meetings.",
                plan.repeated,
            )
            % {"repeated": plan.repeated},
        )
        return redirect("tournaments:duplicate", request.club.slug, event.pk)
    try:
        options = duplicate_services.movement_options(event)
    except MovementError:
        options = []
    numbers = [e.number for e in event.entries.all() if e.withdrawn_after_round is None]
    chosen = next((o for o in options if o.kind == event.movement), None)
    chosen = chosen or next((o for o in options if o.preselected), None)
    rows = []
    for option in options:
        fewest, most = option.rounds_played(numbers)
        rows.append(
            {
                "option": option,
                "name": MOVEMENT_NAMES[option.kind],
                "checked": option is chosen,
                "moves": _moves(option.movement),
                "deals": (fewest * event.deals_per_round, most * event.deals_per_round),
            }
        )
    context = page_context(
        request,
        event,
        "duplicate",
        rows=rows,
        may_choose=all(r.is_open for r in event.round_set.all()) and not event.is_closed,
        table_count=options[0].plan.tables if options else 0,
    )
    return render(request, "tournaments/duplicate/movement_choice.html", context)


@club_view("manage")
@GET_POST
def series(request, slug, tournament_id):
    """Each player's série (Open, 1ère, 2ème, Promotion or the club's own)."""
    event = _event(request, tournament_id)
    entries = list(event.entries.all())
    if request.method == "POST":
        values = {e.number: request.POST.get(f"series_{e.number}", e.series) for e in entries}
        try:
            changed = duplicate_services.set_series(event, values, actor=request.user)
        except TournamentError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Séries saved (%(n)d changed).") % {"n": changed})
            return redirect("tournaments:duplicate_series", request.club.slug, event.pk)
    context = page_context(request, event, "duplicate", entries=entries, series_choices=SERIES)
    return render(request, "tournaments/duplicate/series.html", context)


# ---------------------------------------------------------------- printed material


def _drawn_plan(request, event):
    if not RoundTable.objects.filter(round__tournament=event).exists():
        return None
    return _plan(event)


@club_view("read")
def route_cards(request, slug, tournament_id):
    """Each player's route card: round → table and orientation (or a bye)."""
    event = _event(request, tournament_id)
    plan = _drawn_plan(request, event)
    cards = []
    if plan is not None:
        for entry in event.entries.all():
            cards.append({"entry": entry, "route": plan.route(entry.number)})
    context = page_context(request, event, "duplicate", cards=cards, plan=plan)
    return render(request, "tournaments/duplicate/route_cards.html", context)


@club_view("read")
def table_cards(request, slug, tournament_id):
    """Each table's card: round → the set it receives (and from which table) and the
    table it passes the étui to."""
    event = _event(request, tournament_id)
    plan = _drawn_plan(request, event)
    cards = []
    if plan is not None:
        k = event.deals_per_round
        for number in range(1, plan.tables + 1):
            lines = []
            for r, tables in enumerate(plan.rounds, 1):
                here = next((t for t in tables if t.table == number), None)
                if here is None:
                    lines.append({"round": r, "bye": True})
                    continue
                before = plan.set_table(r - 1, here.set) if r > 1 else None
                lines.append(
                    {
                        "round": r,
                        "set": here.set,
                        "deals": f"{(here.set - 1) * k + 1}–{here.set * k}",
                        "from": before,
                        "to": plan.passes(r, number),
                    }
                )
            cards.append({"table": number, "lines": lines})
    context = page_context(request, event, "duplicate", cards=cards, plan=plan)
    return render(request, "tournaments/duplicate/table_cards.html", context)


@club_view("read")
def etuis(request, slug, tournament_id):
    """The étui labels: a label per set, its deals with their dealer, its way round."""
    event = _event(request, tournament_id)
    plan = _drawn_plan(request, event)
    labels = []
    if plan is not None:
        k = event.deals_per_round
        for s in range(1, plan.tables + 1):
            deals = [
                {"deal": d, "dealer": SEATS[dealer_seat(d)]}
                for d in range((s - 1) * k + 1, s * k + 1)
            ]
            way = [{"round": r, "table": plan.set_table(r, s)} for r in range(1, event.rounds + 1)]
            labels.append({"set": s, "deals": deals, "way": way})
    context = page_context(request, event, "duplicate", labels=labels, plan=plan)
    return render(request, "tournaments/duplicate/etuis.html", context)


def _cards_public(request, event) -> bool:
    """The cards are the organiser's until the event is finished; then published."""
    finished = event.state in (Tournament.State.FINISHED, Tournament.State.CLOSED)
    return finished or can(request.user, request.club, "manage")


@club_view("manage")
def deal_sheets(request, slug, tournament_id):
    """One sheet per deal for whoever prepares the étuis: each seat's cards by suit,
    the chien, the dealer. Printed from the event's seed."""
    event = _event(request, tournament_id)
    plan = _drawn_plan(request, event)
    count = (plan.tables if plan else -(-event.entries.count() // 4)) * event.deals_per_round
    deals = [_deal_view(deal_cards(d, event.draw_seed)) for d in range(1, count + 1)]
    context = page_context(request, event, "duplicate", deals=deals)
    return render(request, "tournaments/duplicate/deal_sheets.html", context)


SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _card_text(card) -> str:
    if card == "EX":
        return "Exc"
    if card.startswith("T"):
        return card[1:]
    return card[:-1]


def _deal_view(deal):
    """A deal as the sheet shows it: per seat, its cards grouped by suit, trumps last."""
    seats = []
    for seat, hand in zip(SEATS, deal.hands):
        seats.append({"seat": seat, "groups": _groups(hand)})
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "seats": seats,
        "chien": _groups(deal.chien),
    }


def _groups(cards):
    groups = []
    for suit, symbol in SUIT_NAMES.items():
        ranks = [
            _card_text(c) for c in cards if not c.startswith("T") and c != "EX" and c[-1] == suit
        ]
        groups.append({"suit": suit, "symbol": symbol, "cards": ranks})
    trumps = [_card_text(c) for c in cards if c.startswith("T") or c == "EX"]
    groups.append({"suit": "T", "symbol": _("Trumps"), "cards": trumps})
    return groups


@club_view("manage")
@require_POST
def etuis_by_hand(request, slug, tournament_id):
    event = _event(request, tournament_id)
    by_hand = request.POST.get("by_hand") == "1"
    try:
        duplicate_services.set_etuis_by_hand(event, by_hand, actor=request.user)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Recorded: the étuis were dealt by hand.")
            if by_hand
            else _("Recorded: the étuis are dealt from the printed sheets."),
        )
    return redirect("tournaments:duplicate", request.club.slug, event.pk)


# ---------------------------------------------------------------- results


def _until(request, event):
    value = request.GET.get("round", "")
    if value and value.isascii() and value.isdigit() and 1 <= int(value) <= event.rounds:
        return int(value)
    return None


def _score_text(score, method) -> str:
    """A score shown in the page's language: a percentage to two decimals, points to one
    with their sign ("62,50", "+3,5" in French)."""
    places = score_places(method)
    value = rounded_score(score, places)
    text = number_format(value, places)
    if method != Tournament.Method.MATCHPOINTS and value >= 0:
        return f"+{text}"
    return text


def _number(value) -> str:
    """Card points or a marque in the page's language: whole, or to the half ("40,5")."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return number_format(rounded_score(value, 1), 1)


def _ranking_context(request, event, until=None, *, licences=False):
    loaded = duplicate_results.load(event, until_round=until)
    rows = duplicate_results.barometer(loaded)
    # each licence number only where the reader may see the person (clubs.visibility)
    found = queries.licences(event, request.user) if licences else {}
    for row in rows:
        row["shown"] = _score_text(row["score"], event.method)
        row["licence"] = found.get(row["player"], "")
    series_rows = duplicate_results.by_series(loaded, rows)
    for ranked in series_rows.values():
        for row in ranked:
            row["shown"] = _score_text(row["score"], event.method)
    teams = duplicate_results.teams(loaded)
    for row in teams:
        row["shown"] = _score_text(row["score"], event.method)
        row["members"] = [loaded.entries[n] for n in row["players"]]
    played = sorted({t.round.number for t in loaded.tables})
    return {
        "rows": rows,
        "series_rows": series_rows,
        "teams": teams,
        "provisional": loaded.provisional,
        "until": until,
        "rounds_in": played,
        "final": event.is_closed,
        "percent": event.method == Tournament.Method.MATCHPOINTS,
        "show_licences": bool(found),
    }


@club_view("read")
def ranking(request, slug, tournament_id):
    """The barometer as tables come in (provisional until the round is confirmed), the
    final ranking once closed, per série and for the teams; ``?round=N``: after round N."""
    event = _event(request, tournament_id)
    until = _until(request, event)
    context = page_context(
        request,
        event,
        "ranking",
        **_ranking_context(request, event, until, licences=True),
        round_choices=range(1, event.rounds + 1),
    )
    return render(request, "tournaments/duplicate/ranking.html", context)


@club_view("read")
def screen(request, slug, tournament_id):
    """The room's screen in the tournaments' shared design: the barometer, each série,
    the teams, each paged in turn (``?page=5``: seconds a page stays, 3 to 60); the
    live part comes again every ten seconds (``screen_live``)."""
    event = _event(request, tournament_id)
    context = page_context(request, event, "screen", **_ranking_context(request, event))
    context["live_url"] = reverse("tournaments:duplicate_screen_live", args=[slug, event.pk])
    seconds = request.GET.get("page", "")
    context["page_seconds"] = (
        min(60, max(3, int(seconds))) if seconds.isascii() and seconds.isdigit() else 12
    )
    response = render(request, "tournaments/duplicate/screen.html", context)
    response["Cache-Control"] = "no-store"
    return response


@club_view("read")
def screen_live(request, slug, tournament_id):
    """The screen's live part, an HTML fragment (polled)."""
    event = _event(request, tournament_id)
    context = page_context(request, event, "screen", **_ranking_context(request, event))
    response = render(request, "tournaments/duplicate/screen_live.html", context)
    response["Cache-Control"] = "no-store"
    return response


def _traveller_rows(event, loaded, only=None):
    """The travellers with each one's rows rendered here, once (every name escaped, the
    body marked safe once): a traveller page has a row per table of every deal and a
    cell per seat (384 rows and 1,536 cells at 64 players over 8 rounds of 3 deals),
    which the template language renders several times slower than this."""
    travellers = duplicate_results.travellers(loaded)
    if only is not None:
        travellers = [t for t in travellers if t["deal"] == only]
    method = event.method
    shown = {}  # score → its text (a few distinct values recur across the page)
    names = {}  # entry number → the escaped name
    cancelled = escape(_("cancelled by the arbitre"))
    contracts = {c: escape(str(label)) for c, label in Contract.choices}
    seats = {s: escape(str(SEAT_LETTERS[i])) for i, s in enumerate(SEATS)}
    # deal 0's address less its "0/": each deal's link without a reverse() each
    base = reverse("tournaments:duplicate_traveller", args=[event.club.slug, event.pk, 0])[:-2]
    for traveller in travellers:
        traveller["url"] = f"{base}{traveller['deal']}/"
        body = []
        for row in traveller["tables"]:
            cells = []
            for seat in row["seats"]:
                score = seat["score"]
                text = shown.get(score)
                if text is None:
                    text = shown[score] = _score_text(score, method)
                entry = seat["entry"]
                if entry is None:
                    name = ""
                else:
                    name = names.get(entry.number)
                    if name is None:
                        name = names[entry.number] = escape(entry.name)
                marque = "" if seat["marque"] is None else _number(seat["marque"])
                arbitral = " A" if seat["arbitral"] else ""
                cells.append(
                    f'<td class="num" title="{name}" data-seat="{seat["seat"]}" '
                    f'data-marque="{marque}">{marque} '
                    f'<span class="muted">({text}{arbitral})</span></td>'
                )
            if row["cancelled"]:
                middle = f'<td colspan="4">{cancelled}</td>'
            else:
                points = "" if row["points"] is None else _number(row["points"])
                bouts = "" if row["bouts"] is None or not row["contract"] else row["bouts"]
                contract = contracts.get(row["contract"], "—") if row["contract"] else "—"
                taker = seats.get(row["taker"], "—")
                middle = (
                    f'<td data-contract="{row["contract"] or ""}">{contract}</td>'
                    f'<td data-taker="{row["taker"] or ""}">{taker}</td>'
                    f'<td class="num" data-bouts="{bouts}">{bouts}</td>'
                    f'<td class="num" data-points="{points}">{points}</td>'
                )
            body.append(
                f'<tr data-table="{row["table"]}"><td>{row["table"]}</td>{middle}'
                f"{''.join(cells)}</tr>"
            )
        traveller["body"] = mark_safe("\n".join(body))  # noqa: S308 (escaped above)
    return travellers


@club_view("read")
def travellers(request, slug, tournament_id):
    """Every deal's traveller: each table's contract, taker's seat, points, marques and
    each seat's score."""
    event = _event(request, tournament_id)
    loaded = duplicate_results.load(event, hands=True)
    context = page_context(
        request,
        event,
        "travellers",
        travellers=_traveller_rows(event, loaded),
        provisional=loaded.provisional,
    )
    return render(request, "tournaments/duplicate/travellers.html", context)


@club_view("read")
def traveller(request, slug, tournament_id, deal):
    """One deal's traveller and, once published, its cards."""
    event = _event(request, tournament_id)
    count = -(-event.entries.count() // 4) * event.deals_per_round
    if not 1 <= deal <= max(count, 1):
        raise Http404
    loaded = duplicate_results.load(event, hands=True)
    rows = _traveller_rows(event, loaded, only=deal)
    cards = None
    if _cards_public(request, event) and not event.etuis_by_hand:
        cards = _deal_view(deal_cards(deal, event.draw_seed))
    context = page_context(
        request,
        event,
        "travellers",
        deal=deal,
        traveller=rows[0] if rows else None,
        cards=cards,
        provisional=loaded.provisional,
    )
    return render(request, "tournaments/duplicate/traveller.html", context)


@club_view("read")
def player(request, slug, tournament_id, number):
    """A player's sheet: each deal's round, table, orientation, partners and opponents,
    marque and score; their route."""
    event = _event(request, tournament_id)
    entry = get_object_or_404(event.entries, number=number)
    loaded = duplicate_results.load(event)
    lines = duplicate_results.player_sheet(loaded, number)
    for line in lines:
        line["shown"] = _score_text(line["score"], event.method)
        line["marque_shown"] = "" if line["marque"] is None else f"{float(line['marque']):g}"
    total = loaded.comparison.totals.get(number)
    context = page_context(
        request,
        event,
        "ranking",
        entry=entry,
        lines=lines,
        total=None if total is None else _score_text(total, event.method),
        provisional=loaded.provisional,
    )
    return render(request, "tournaments/duplicate/player.html", context)


# ---------------------------------------------------------------- the arbitre


@club_view("manage")
@GET_POST
def arbitre(request, slug, tournament_id):
    """Cancel a deal at one table, or give one seat an arbitral score (§3); every
    decision listed with who and why."""
    event = _event(request, tournament_id)
    form = DecisionForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        table = RoundTable.objects.filter(
            round__tournament=event, round__number=data["round"], number=data["table"]
        ).first()
        if table is None:
            form.add_error("table", _("No such table in this round."))
        else:
            try:
                if data["kind"] == "cancel":
                    duplicate_services.cancel_deal(
                        table, data["deal"], data["reason"], actor=request.user
                    )
                else:
                    duplicate_services.give_arbitral_score(
                        table,
                        data["deal"],
                        data["seat"],
                        data["score"],
                        data["reason"],
                        actor=request.user,
                    )
            except TournamentError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, _("The arbitre's decision is recorded."))
                return redirect("tournaments:duplicate_arbitre", request.club.slug, event.pk)
    decisions = list(
        DealDecision.objects.filter(round_table__round__tournament=event)
        .select_related("round_table__round", "by")
        .order_by("-at", "-pk")
    )
    entries = {e.number: e for e in event.entries.all()}
    for decision in decisions:
        if decision.seat is not None:
            decision.seat_letter = SEATS[decision.seat]
            decision.entry = entries.get(decision.round_table.seats[decision.seat])
            decision.shown = _score_text(decision.score, event.method)
    context = page_context(
        request,
        event,
        "duplicate",
        form=form,
        decisions=decisions,
        may_remove=not event.is_closed,
    )
    return render(request, "tournaments/duplicate/arbitre.html", context)


@club_view("manage")
@require_POST
def remove_decision(request, slug, tournament_id, decision_id):
    """Take back one of the arbitre's decisions (asked to confirm on the page)."""
    event = _event(request, tournament_id)
    decision = get_object_or_404(
        DealDecision.objects.select_related("round_table__round__tournament"),
        round_table__round__tournament=event,
        pk=decision_id,
    )
    try:
        duplicate_services.remove_decision(decision, actor=request.user)
    except TournamentError as error:  # the event closed, or the decision gone meanwhile
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("The decision on deal %(deal)d at table %(table)d is removed.")
            % {"deal": decision.deal, "table": decision.round_table.number},
        )
    return redirect("tournaments:duplicate_arbitre", request.club.slug, event.pk)


# ---------------------------------------------------------------- exports


@club_view("read")
def export(request, slug, tournament_id):
    """``?format=json`` (default): the event in ``score_duplicate``'s input (§5), with
    the players' licence numbers where they have one, the ranking as the page shows
    it and, once published, the hand records (each deal's cards). ``csv``: the
    ranking; ``xlsx``: the ranking, the travellers and the hand records
    (``tournaments.duplicate.exports``)."""
    event = _event(request, tournament_id)
    fmt = request.GET.get("format", "json")
    if fmt not in exports.FORMATS:
        return bad_request(request)
    content = exports.export(
        event,
        fmt,
        with_cards=_cards_public(request, event),
        licences=queries.licences(event, request.user),  # those the reader may see
    )
    return download(content, f"duplicate-{request.club.slug}-{slugify(event.name)}.{fmt}")
