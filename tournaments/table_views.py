"""A table's own pages, reached by its private link (``/table/<token>/``), no account:
the table's sheet, the hand form to enter and correct its deals, handing the sheet
in, and the second player's independent entry that confirms it.

The link shows that table and nothing else of the tournament. A wrong or revoked
token answers 404 (and counts towards the address's limit of wrong links); a link
whose round or tournament is closed answers 410. Every write goes through
``scoresheet.services`` (the deals, on the table's sheet only) or
``tournaments.services`` (handing in, checking), which refuse a handed-in, closed
or confirmed sheet on the server whatever the page shows.
"""

from functools import wraps

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.idempotency import idempotent, once
from core.text import short_names
from core.throttle import Limit, private_link
from scoresheet import services as sheets
from scoresheet.hand_forms import (
    form_class_for,
    preview_context,
    preview_response,
    queue_refusal,
    queued,
)
from scoresheet.models import Hand
from tournaments import queries, services, tokens
from tournaments.duplicate import deals as duplicate_deals
from tournaments.models import Round, RoundTable, TableResult, Tournament, deals_for_table
from tournaments.services import TournamentError

#: Requests a table's link may make a minute (a table enters a deal every few minutes).
LINK_LIMIT = Limit("table-link", 240, 60)
#: Wrong or revoked links an address may try in ten minutes before it is refused.
MISS_LIMIT = Limit("table-link-miss", 30, 600)
SESSION_KEY = "tournament_tables_submitted"  # the tables this browser handed in

GET_POST = require_http_methods(["GET", "POST"])


def table_link(view):
    """Find the link's table (404 when wrong or revoked, 410 when its round or its
    tournament is closed), count the request, and call ``view(request, table, …)``."""

    @private_link(tokens.find, link_limit=LINK_LIMIT, miss_limit=MISS_LIMIT)
    @wraps(view)
    def wrapped(request, token, table, *args, **kwargs):
        rnd, tournament = table.round, table.round.tournament
        if tournament.state == Tournament.State.CLOSED or rnd.state == Round.State.CLOSED:
            context = {"table": table, "round": rnd, "tournament": tournament}
            if tournament.state != Tournament.State.CLOSED:  # where each player goes next
                context["next_seats"] = _next_seats(table)
            return render(request, "tournaments/table_gone.html", context, status=410)
        request.table_token = token
        # one phone per table: this browser's device id (a cookie, set on first sight)
        raw = request.COOKIES.get(tokens.DEVICE_COOKIE, "")
        fresh = tokens.device_of(raw) == ""
        if fresh:
            raw = tokens.new_device()
        request.table_device = tokens.device_of(raw)
        response = view(request, table, *args, **kwargs)
        if fresh:
            response.set_cookie(
                tokens.DEVICE_COOKIE,
                raw,
                max_age=400 * 24 * 3600,
                path="/table/",
                secure=request.is_secure(),
                httponly=True,
                samesite="Lax",
            )
        return response

    return wrapped


def _url(request, name, *args):
    return reverse(f"table:{name}", args=[request.table_token, *args])


def _seated(table):
    entries = {e.number: e for e in table.round.tournament.entries.filter(number__in=table.seats)}
    return [(letter, entries.get(n)) for letter, n in zip(queries.SEAT_LETTERS, table.seats)]


def _heads(seated):
    """The score columns' heads: each entry and its short name, as on a club sheet."""
    entries = [entry for _letter, entry in seated]
    return list(zip(entries, short_names([e.name if e else "?" for e in entries])))


def _kept_key(table) -> str:
    return f"table-check-{table.pk}"


def _check_fields(request, table, seated, rows: int) -> dict:
    """The second entry's fields with the values of a refused try (kept once)."""
    kept = request.session.pop(_kept_key(table), {}) if request.method == "GET" else {}
    return {
        "check_grid": [
            (
                row,
                [
                    (f"deal_{row - 1}_{k}", kept.get(f"deal_{row - 1}_{k}", ""), entry)
                    for k, (_letter, entry) in enumerate(seated)
                ],
            )
            for row in range(1, rows + 1)
        ],
        "check_totals": [
            (k, entry, kept.get(f"score_{k}", "")) for k, (_letter, entry) in enumerate(seated)
        ],
        "check_name": kept.get("by_name", ""),
    }


@table_link
def table_sheet(request, table):
    """The table's sheet: its deals while it enters them; the forms of its state."""
    seated = _seated(table)
    deals, totals = [], []
    if table.sheet_id:
        totals_by_number, deal_rows = services.snapshot(table)
        numbers = list(table.sheet.hands.live().order_by("number").values_list("number", flat=True))
        deals = [{"number": n, "scores": row} for n, row in zip(numbers, deal_rows)]
        totals = [totals_by_number.get(str(n)) for n in table.seats]
    submitted = services.last_result(table, TableResult.Kind.SUBMITTED)
    mine = table.pk in request.session.get(SESSION_KEY, [])
    tournament = table.round.tournament
    context = {
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "seated": seated,
        "heads": _heads(seated),
        "deals": deals,
        "totals": totals,
        "played": len(deals),
        "wanted": services.wanted_deals(table),
        "submitted": submitted,
        "submitted_here": mine,
        "by_deals": tournament.confirm_by == Tournament.ConfirmBy.DEALS,
        "differences": services.differences(table)
        if table.state == RoundTable.State.DISPUTED
        else None,
        "links": {
            name: _url(request, name) for name in ("sheet", "hand_create", "submit", "check")
        },
        "started": table.round.state == Round.State.STARTED and table.sheet_id is not None,
        "duplicate": (
            duplicate_deals.next_deal(table, len(deals)) if tournament.is_duplicate else None
        ),
    }
    if table.state == RoundTable.State.SUBMITTED:
        context.update(_check_fields(request, table, seated, services.wanted_deals(table)))
    # one phone per table: the first to save a deal holds it, another reads only;
    # opening the link (a chat app's preview) claims nothing
    context["holds_table"] = _holds(table, request)
    context["unclaimed"] = not table.device
    context["links"]["take_over"] = _url(request, "take_over")
    context["links"]["heartbeat"] = _url(request, "heartbeat")
    return render(request, "tournaments/table_sheet.html", context)


def _form_page(request, table, form, hand=None):
    return hand_form_page(
        request,
        table,
        form,
        hand,
        preview_url=_url(request, "hand_preview"),
        back_url=_url(request, "sheet"),
    )


def hand_form_page(request, table, form, hand=None, *, preview_url, back_url):
    """The hand form of a table's sheet (a new deal, or ``hand``'s correction) with its
    preview: for the table's link, and for the organiser's correction
    (``views.table_hand``), which differ by where the preview and "back" lead."""
    sheet = table.sheet
    if hand is not None:
        preview_url += f"?hand={hand.number}"
        next_number = None
    else:
        last = sheet.hands.order_by("-number").values_list("number", flat=True).first()
        next_number = (last or 0) + 1
    template = getattr(form, "page_template", None) or "tournaments/table_hand_form.html"
    return render(
        request,
        template,
        {
            "sheet": sheet,
            "hand": hand,
            "form": form,
            "preview": preview_context(form) if form.is_bound else None,
            "preview_url": preview_url,
            "names": form.table.names,
            "next_number": next_number,
            "table": table,
            "back_url": back_url,
            "tournament": table.round.tournament,
        },
    )


def table_hand_form(round_table, /, *args, hand=None, **kwargs):
    """The hand form of a table's sheet (``form_class_for``; ``table=``: the sheet's
    seating); at a duplicate table with the dealer fixed by the deal
    (``duplicate_deals.fix_dealer``), not asked."""
    sheet = round_table.sheet
    form = form_class_for(sheet)(*args, sheet=sheet, hand=hand, **kwargs)
    if round_table.round.tournament.is_duplicate:
        duplicate_deals.fix_dealer(form, round_table, hand)
    return form


def live_hand(table, number) -> Hand:
    """Deal ``number`` of the table's sheet, not deleted (404 otherwise, or without a sheet)."""
    if table.sheet_id is None:
        raise Http404
    return get_object_or_404(Hand, sheet=table.sheet, number=number, is_deleted=False)


def _writable_or_back(request, table):
    try:
        services.writable(table)
        _held_here(table, request)
    except TournamentError as error:
        messages.error(request, error.message)
        return redirect(_url(request, "sheet"))
    return None


def _holds(table, request) -> bool:
    """This phone may enter the table's deals (a GET claims nothing; the phone holding
    the table is heard of)."""
    if table.device and services.holds(table, request.table_device):
        return services.claim_table(table, device=request.table_device)
    return services.holds(table, request.table_device)


def _held_here(table, request) -> None:
    """Refuse (``table_held``) a phone other than the one holding the table; a deal
    posted by a phone while nobody holds the table claims it (an explicit tap)."""
    if request.method == "POST":
        held = services.claim_table(table, device=request.table_device)
    else:
        held = _holds(table, request)
    if not held:
        raise TournamentError("table_held")


@table_link
@idempotent
@GET_POST
def table_hand_create(request, table):
    refused = _writable_or_back(request, table)
    if refused:
        return refused
    wanted = deals_for_table(table.round.tournament, len(table.seats))
    if request.method == "GET" and wanted and table.sheet.hands.live().count() >= wanted:
        messages.info(request, TournamentError("deals_complete", n=wanted).message)
        return redirect(_url(request, "sheet"))
    seating = sheets.Table.of(table.sheet)
    if request.method == "POST":
        save = request.POST.get("action") == "save"
        form = table_hand_form(table, request.POST, table=seating, previews=not save)
        if save and form.is_valid():
            back = _url(request, "sheet")
            try:
                hand = once(
                    request,
                    lambda: services.record_table_hand(table, form.hand_data, seating=seating),
                    url=lambda hand: f"{back}#deal-{hand.number}",
                )
            except TournamentError as error:
                form.add_ledger_error(error)
            else:
                target = f"{back}#deal-{hand.number}"
                if request.headers.get("X-Requested-With") == "fetch":
                    return JsonResponse({"saved": hand.number, "url": target})
                messages.success(request, _("Deal %(n)d saved.") % {"n": hand.number})
                return redirect(target)
        if save and queued(request):  # a deal from the phone's queue: why, for the queue
            return queue_refusal(form)
    else:
        form = table_hand_form(table, table=seating)
    return _form_page(request, table, form)


@table_link
@require_POST
def table_hand_preview(request, table):
    """The live preview of the table's hand form (as ``scoresheet``'s, for this sheet)."""
    if table.sheet_id is None:
        raise Http404
    sheet = table.sheet
    hand = None
    param = request.GET.get("hand", "")
    if param:
        if not param.isascii() or not param.isdigit() or len(param) > 9:
            return JsonResponse({"errors": {"__all__": [_("Unknown hand.")]}}, status=404)
        hand = get_object_or_404(Hand, sheet=sheet, number=int(param))
    return preview_response(request, table_hand_form(table, request.POST, hand=hand))


@table_link
@idempotent
@GET_POST
def table_hand_edit(request, table, number):
    """A deal's correction, once per form key (``once``: from the phone's queue, it may
    arrive twice)."""
    hand = live_hand(table, number)
    refused = _writable_or_back(request, table)
    if refused:
        return refused
    seating = sheets.Table.of(table.sheet)
    if request.method == "POST":
        save = request.POST.get("action") == "save"
        form = table_hand_form(table, request.POST, table=seating, hand=hand, previews=not save)
        if save and form.is_valid():
            target = _url(request, "sheet") + f"#deal-{hand.number}"
            try:
                once(
                    request,
                    lambda: services.edit_table_hand(table, hand, form.hand_data, seating=seating),
                    url=target,
                )
            except TournamentError as error:
                form.add_ledger_error(error)
            else:
                if request.headers.get("X-Requested-With") == "fetch":
                    return JsonResponse({"saved": hand.number, "url": target})
                messages.success(request, _("Deal %(n)d corrected.") % {"n": hand.number})
                return redirect(target)
        if save and queued(request):  # a correction from the phone's queue: why
            return queue_refusal(form)
    else:
        form = table_hand_form(table, table=seating, hand=hand)
    return _form_page(request, table, form, hand)


@table_link
@require_POST
def table_hand_delete(request, table, number):
    hand = live_hand(table, number)
    refused = _writable_or_back(request, table)
    if refused:
        return refused
    try:
        services.delete_table_hand(table, hand)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Deal %(n)d deleted.") % {"n": hand.number})
    return redirect(_url(request, "sheet"))


@table_link
@require_POST
def table_submit(request, table):
    name = request.POST.get("by_name", "")
    try:
        if table.state == RoundTable.State.OPEN:
            _held_here(table, request)
        services.submit_table(table, by_name=name)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        done = request.session.get(SESSION_KEY, [])
        request.session[SESSION_KEY] = [*done, table.pk][-50:]
        messages.success(
            request,
            _(
                "The sheet is handed in. Another player of the table now enters the result "
                "again from the paper sheet, on their own phone."
            ),
        )
    return redirect(_url(request, "sheet"))


@table_link
@require_POST
def table_check(request, table):
    """The second, independent entry: never from the browser that handed the sheet in."""
    if table.pk in request.session.get(SESSION_KEY, []):
        messages.error(
            request,
            _(
                "This phone handed the sheet in: the second entry must come from another player's "
                "phone."
            ),
        )
        return redirect(_url(request, "sheet"))
    seats = len(table.seats)
    post = request.POST
    try:
        if table.round.tournament.confirm_by == Tournament.ConfirmBy.DEALS:
            rows = services.wanted_deals(table)
            played = len(services.snapshot(table)[1])
            rows = max(rows, played)
            deals = [[post.get(f"deal_{i}_{k}", "") for k in range(seats)] for i in range(rows)]
            deals = [row for row in deals if any(v.strip() for v in row)]
            services.refuse_unbalanced(table, deals=deals)
            result = services.check_table(table, deals=deals, by_name=post.get("by_name", ""))
        else:
            totals = [post.get(f"score_{k}", "") for k in range(seats)]
            services.refuse_unbalanced(table, totals=totals)
            result = services.check_table(table, totals=totals, by_name=post.get("by_name", ""))
    except TournamentError as error:
        messages.error(request, error.message)
        # the values typed come back in their fields, to be corrected rather than typed again
        request.session[_kept_key(table)] = {
            k: v[:20] for k, v in post.items() if k.startswith(("deal_", "score_", "by_name"))
        }
    else:
        if result.confirmed:
            messages.success(request, _("Both entries agree: the sheet is confirmed. Thank you!"))
            _notices(request, result)
        else:
            messages.warning(
                request,
                _("The two entries differ: the organiser will check the paper sheet."),
            )
    return redirect(_url(request, "sheet"))


def _notices(request, result) -> None:
    """What the confirmation's follow-ups said (a team match recorded or refused)."""
    for notice in getattr(result, "notices", ()):
        (messages.error if notice.refused else messages.info)(request, notice.message)


# ---------------------------------------------------------------- one phone per table


@table_link
@require_POST
def table_take_over(request, table):
    """Another phone takes the table over with the organiser's code (services.take_over_table)."""
    try:
        services.take_over_table(
            table, device=request.table_device, code=request.POST.get("code", "")
        )
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("This phone now enters the table's deals."))
    return redirect(_url(request, "sheet"))


@table_link
@require_POST
def table_heartbeat(request, table):
    """The phone holding the table is online and says how many deals it holds unsent
    (static/js/offline.js, every half minute): {"held": true|false}."""
    try:
        waiting = int(request.POST.get("waiting", "0"))
    except ValueError:
        return JsonResponse({"errors": ["waiting: a whole number"]}, status=400)
    held = services.report_device(table, device=request.table_device, waiting=waiting)
    return JsonResponse({"held": held})


def _next_seats(table):
    """Where each player of this table sits in the next round, once it is drawn:
    [(entry, table number, seat letter)]; [] before the draw."""
    nxt = (
        Round.objects.filter(tournament_id=table.round.tournament_id, number=table.round.number + 1)
        .prefetch_related("tables")
        .first()
    )
    if nxt is None:
        return []
    entries = {
        e.number: e
        for e in table.round.tournament.entries.filter(number__in=[n for n in table.seats if n])
    }
    where = {}
    for other in nxt.tables.all():
        for letter, number in zip(queries.SEAT_LETTERS, other.seats):
            where[number] = (other.number, letter)
    return [(entries[n], *where[n]) for n in table.seats if n in entries and n in where]
