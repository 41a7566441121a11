"""A club's sheets: the list, opening a sheet, the sheet as the paper feuille de marque,
and its export in the JSON format of HAND_FORMAT.md.

The sheet page reads the ledger, never the engine: a constant number of queries
(the sheet, its seats, its hands, its score rows), running totals summed in Python.
"""

import json
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.permissions import can, club_view
from clubs.rules_forms import describe_rules
from core import pages
from core.idempotency import idempotent, once
from core.jsonnumbers import json_number
from core.paging import BoundedRequestConfig
from core.text import short_names
from scoresheet import services
from scoresheet.filters import SheetFilter
from scoresheet.forms.sheets import SheetForm
from scoresheet.handmap import sheet_json
from scoresheet.listings import SheetTable
from scoresheet.models import Contract, ScoreRow, Sheet
from scoresheet.sheet_rows import hand_rows
from scoresheet.vocabulary import POIGNEE_LABELS, Chelem, chelem_code

PER_PAGE = 25


# ---------------------------------------------------------------- list


@club_view("read")
def sheet_list(request, slug):
    club = request.club
    data = request.GET.copy()
    data.setdefault("players", "")
    sheets = Sheet.objects.live().filter(club=club).with_counts()
    sheet_filter = SheetFilter(data, queryset=sheets, request=request)
    table = SheetTable(sheet_filter.qs, club=club)
    BoundedRequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(
        request,
        "scoresheet/sheet_list.html",
        {
            "club": club,
            "filter": sheet_filter,
            "table": table,
            "may_score": can(request.user, club, "score"),
            "may_manage": can(request.user, club, "manage"),
        },
    )


# ---------------------------------------------------------------- create


@club_view("score")
@idempotent
def sheet_create(request, slug):
    club = request.club
    has_season = club.seasons.regular().exists()
    form = SheetForm(request.POST or None, club=club)
    if request.method == "POST" and has_season and form.is_valid():
        try:
            data = form.cleaned_data
            sheet = once(
                request,
                lambda: services.open_sheet(
                    season=data["season"],
                    seated=data["seated"],
                    date=data["date"],
                    table=data["table"].strip(),
                    rules=data["rules"],  # None: the season's house rules
                    actor=request.user,
                ),
                url=_sheet_url,
            )
        except services.LedgerError as error:
            form.add_error(form.field_for_error(error.field), error.message)
        else:
            messages.success(request, _("Sheet opened. Enter the first hand when it is played."))
            return redirect("scoresheet:sheet", club.slug, sheet.pk)
    return render(
        request,
        "scoresheet/sheet_form.html",
        {"club": club, "form": form, "has_season": has_season},
    )


def _sheet_url(sheet):
    return reverse("scoresheet:sheet", args=[sheet.club.slug, sheet.pk])


# ---------------------------------------------------------------- the sheet


@dataclass
class Cell:
    score: Decimal
    running: Decimal


@dataclass
class HandLine:
    """One row of the feuille de marque, everything the template shows."""

    hand: object
    dealer: str = ""
    taker: str = ""
    partner: str = ""
    sits_out: str = ""
    contract: str = ""
    made: bool | None = None
    bonuses: list = field(default_factory=list)  # (css class, text)
    cells: list = field(default_factory=list)  # a Cell per seat, in dealing order
    pools: list = field(default_factory=list)
    pool_total: int = 0
    balanced: bool = True


def _bonuses(hand, name):
    """Petit au bout, poignées, chelem, misères: short words for the row."""
    out = []
    if hand.petit_au_bout:
        side = _("attack") if hand.petit_au_bout == "attack" else _("defence")
        out.append(("pab", _("petit au bout: %(side)s") % {"side": side}))
    for poignee in hand.poignees:
        size = POIGNEE_LABELS.get(poignee["size"], poignee["size"])
        out.append(
            (
                "poignee",
                _("%(size)s poignée: %(player)s")
                % {"size": size, "player": name(poignee["player"])},
            )
        )
    # the whole phrase is translated: French puts a space before the colon
    for words, chelem in (
        (_("chelem: %(value)s"), hand.chelem),
        (_("petit chelem: %(value)s"), hand.petit_chelem),
    ):
        if chelem:
            out.append(("chelem", words % {"value": _chelem_words(chelem)}))
    for player_id in hand.miseres:
        out.append(("misere", _("misère: %(player)s") % {"player": name(player_id)}))
    return out


def _chelem_words(chelem):
    code = chelem_code(chelem)
    return Chelem(code).label if code else ""


def _next_dealer(lines, names):
    """The seat after the last live hand's dealer, in dealing order; the first seat
    before any hand. The same rule as the hand form's ``forms.suggested_dealer``,
    computed from the hands already loaded (no query)."""
    if not names:
        return ""
    for line in reversed(lines):
        if not line.hand.is_deleted and line.dealer in names:
            return names[(names.index(line.dealer) + 1) % len(names)]
    return names[0]


def _sheet_lines(table, hands, rows, has_pools):
    """Each hand's line with running totals, from the ledger rows (no scoring here)."""
    seats = len(table.names)

    def name(player_id):
        player = table.by_id.get(player_id)
        return player.name if player else ""

    scores = {}  # hand id → [score per position]
    made = {}
    for hand_id, position, score, hand_made in rows:
        scores.setdefault(hand_id, [Decimal(0)] * seats)[position] = score
        made[hand_id] = hand_made
    running = [Decimal(0)] * seats
    pools_before = 0
    lines = []
    contracts = dict(Contract.choices)  # (``Contract.values`` builds a list each call)
    for hand in hands:
        line = HandLine(
            hand=hand,
            dealer=name(hand.dealer_id),
            taker=name(hand.taker_id),
            partner=(
                _("alone")
                if hand.partner_id and hand.partner_id == hand.taker_id
                else name(hand.partner_id)
            ),
            sits_out=name(hand.sits_out_id),
            contract=contracts.get(hand.contract, ""),
            bonuses=_bonuses(hand, name),
        )
        if not hand.is_deleted:
            row = scores.get(hand.pk, [Decimal(0)] * seats)
            running = [total + score for total, score in zip(running, row)]
            line.cells = [Cell(score, total) for score, total in zip(row, running)]
            line.made = made.get(hand.pk) if hand.contract else None
            pools_after = sum(hand.pools or ()) if has_pools else 0
            line.pools = list(hand.pools or ())
            line.pool_total = pools_after
            line.balanced = sum(row) + pools_after - pools_before == 0
            pools_before = pools_after
        lines.append(line)
    return lines, running, pools_before


def _sheet_context(request, sheet):
    """What the sheet page and its printed feuille de marque show (4 queries: the seats
    with their players, the hands, the score rows; the sheet is loaded by the caller)."""
    club = request.club
    table = services.Table.of(sheet)
    # what a line shows: not the game fields, the note or who entered it and when
    unshown = ("extra", "note", "entered_by", "entered_at", "updated_at")
    hands = list(sheet.hands.order_by("number").defer(*unshown))
    rows = ScoreRow.objects.filter(sheet=sheet).values_list("hand_id", "position", "score", "made")
    ruleset = sheet.ruleset
    has_pools = ruleset.has_pools
    lines, totals, pools = _sheet_lines(table, hands, rows, has_pools)
    live = [line for line in lines if not line.hand.is_deleted]
    names = list(table.names)
    show_partner = len(names) >= 5
    show_sits_out = any(line.sits_out for line in lines)
    show_bonuses = any(line.bonuses for line in lines)
    # after the scores: dealer, [partner], [sits out], bouts, points, [bonuses]
    detail_columns = 3 + show_partner + show_sits_out + show_bonuses
    return {
        "club": club,
        "sheet": sheet,
        "rules_text": describe_rules(ruleset),
        "names": names,
        # narrow score columns on a phone: a short label, the full name on tap
        "heads": list(zip(names, short_names(names))),
        "lines": lines,
        "live_count": len(live),
        "deleted_count": len(lines) - len(live),
        "totals": totals,
        "standings": [
            (name, total, _player_url(club, table.by_name[name].pk, sheet.season_id))
            for name, total in zip(names, totals)
        ],
        "has_pools": has_pools,
        "pools": pools,
        "balanced": sum(totals) + pools == 0,
        "show_partner": show_partner,
        "show_sits_out": show_sits_out,
        "show_bonuses": show_bonuses,
        "detail_columns": detail_columns,
        "pools_col": int(has_pools),
        "next_dealer": _next_dealer(lines, names),
    }


#: The cookie in which ``hand_create`` leaves the number of the hand just saved: the
#: sheet page then offers to undo it, once. A signed cookie on the sheet's path, not
#: the session: saving a hand writes no session row.
UNDO_COOKIE = "undo_hand"
#: Seconds the offer waits for the sheet page (the redirect right after the save).
UNDO_MAX_AGE = 600


def offer_undo(response, request, sheet_id, number):
    """Let the sheet page offer to undo hand ``number``, once (``_undo_offer``)."""
    response.set_signed_cookie(
        UNDO_COOKIE,
        f"{request.user.pk}:{sheet_id}:{number}",
        salt=UNDO_COOKIE,
        max_age=UNDO_MAX_AGE,
        path=reverse("scoresheet:sheet", args=[request.club.slug, sheet_id]),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def _undo_offer(request, sheet):
    """The hand this user just saved on this sheet, to offer its undo."""
    value = request.get_signed_cookie(
        UNDO_COOKIE, default="", salt=UNDO_COOKIE, max_age=UNDO_MAX_AGE
    )
    user_id, _sep, rest = value.partition(":")
    sheet_id, _sep, number = rest.partition(":")
    if user_id != str(request.user.pk) or sheet_id != str(sheet.pk) or not number.isdecimal():
        return None
    return int(number)


def _undo_read(request, response):
    """The offer is read once: the sheet page drops the cookie."""
    if UNDO_COOKIE in request.COOKIES:
        response.delete_cookie(UNDO_COOKIE, path=request.path, samesite="Lax")
    return response


@club_view("read")
def sheet_detail(request, slug, sheet_id):
    club = request.club
    sheet = get_object_or_404(Sheet.objects.live().select_related("season"), club=club, pk=sheet_id)
    context = _sheet_context(request, sheet)
    may_score = can(request.user, club, "score")
    undo = _undo_offer(request, sheet) if may_score else None
    if undo is not None and not any(
        line.hand.number == undo and not line.hand.is_deleted for line in context["lines"]
    ):
        undo = None
    context.update(may_score=may_score, undo_number=undo)
    context["hand_rows"] = hand_rows(context)
    return _undo_read(request, render(request, "scoresheet/sheet_detail.html", context))


#: Empty lines on a blank feuille de marque: an evening's hands at a table.
BLANK_LINES = 24


@club_view("read")
def sheet_print(request, slug, sheet_id, blank=False):
    """The feuille de marque to print (A4): every hand with its details, the running
    totals, the zero-sum check and the signatures; ``blank``: the same sheet with empty
    lines, to fill in by hand at the table."""
    club = request.club
    sheet = get_object_or_404(Sheet.objects.live().select_related("season"), club=club, pk=sheet_id)
    context = _sheet_context(request, sheet)
    names = context["names"]
    # a blank sheet has a column for who sits out only where somebody must: more seats
    # than a hand's players (six seats, or three at the two-player rules)
    must_sit_out = len(names) > max(sheet.ruleset.ruleset.player_counts)
    sits_out = context["show_sits_out"] or (blank and must_sit_out)
    context.update(
        blank=blank,
        blank_lines=range(1, BLANK_LINES + 1) if blank else (),
        print_sits_out=sits_out,
        # before the players: number, dealer, taker, contract, [partner], [sits out],
        # bouts, points, bonuses
        lead_columns=7 + context["show_partner"] + sits_out,
        # names shortened as on the phone sheet (the full ones above the table)
        shorts=dict(context["heads"]),
        seats=len(names),
    )
    return render(request, "scoresheet/sheet_print.html", context)


# ---------------------------------------------------------------- export


@club_view("read")
def sheet_export(request, slug, sheet_id):
    """One JSON line: ``manage.py import_sheets`` reads the file back as it is."""
    sheet = get_object_or_404(Sheet.objects.live(), club=request.club, pk=sheet_id)
    text = json.dumps(sheet_json(sheet), ensure_ascii=False, default=json_number)
    response = HttpResponse(text + "\n", content_type="application/json; charset=utf-8")
    label = slugify(f"{request.club.slug} {sheet.date.isoformat()} {sheet.table}")
    response["Content-Disposition"] = f'attachment; filename="{label}-{sheet.pk}.json"'
    return response


def _player_url(club, player_id, season_id):
    """A player's statistics for the season (a link from the sheet's totals)."""
    return pages.url("player_season_statistics", club.slug, player_id, season_id)
