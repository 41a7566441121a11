"""Entering, reading, correcting, deleting and restoring one hand of a sheet.

Every write goes through ``scoresheet.services``; a refusal (``LedgerError``)
becomes a form error on the field at fault, or a message, never a 500.
"""

import re
from decimal import Decimal

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Season
from clubs.names import display_names
from clubs.permissions import can, club_view
from core.idempotency import idempotent, once
from scoresheet import services
from scoresheet.formatting import format_number
from scoresheet.forms.hands import seating_words
from scoresheet.forms.savoyard import describe_savoyard
from scoresheet.hand_forms import (
    form_class_for,
    preview_context,
    preview_response,
    queue_refusal,
    queued,
    seated_sheet,
)
from scoresheet.models import Contract, Hand, Role, Sheet
from scoresheet.views.sheets import offer_undo
from scoresheet.vocabulary import POIGNEE_LABELS, SIDE_LABELS, Chelem, chelem_code
from tarot import ScoringError, score_hand
from tarot.jsonformat import parse_hand


def _sheet(request, sheet_id):
    sheets = Sheet.objects.live().select_related("season")
    return get_object_or_404(sheets, pk=sheet_id, club=request.club)


def _hand(sheet, number):
    return get_object_or_404(Hand, sheet=sheet, number=number)


def _form_page(request, sheet, form, hand=None, clash=None, closed=None, status=200):
    """The hand form (new or correction), with the scores previewed when it is valid;
    ``clash``: the hands another phone stored first (``_clash``); ``closed``: the sheet
    closed under the scorer's Save (``_closed_form``)."""
    table = form.table
    preview_url = _preview_url(request, sheet, hand)
    return render(
        request,
        getattr(form, "page_template", "scoresheet/hand_form.html"),
        {
            "sheet": sheet,
            "hand": hand,
            "form": form,
            "preview": preview_context(form) if form.is_bound else None,
            "preview_url": preview_url,
            "names": table.names,
            "next_number": None if hand else services.next_number(sheet),
            "clash": clash,
            "closed": closed,
        },
        status=status,
    )


def _preview_url(request, sheet, hand):
    url = reverse("scoresheet:hand_preview", args=[request.club.slug, sheet.pk])
    return f"{url}?hand={hand.number}" if hand is not None else url


def _save_requested(request) -> bool:
    return request.POST.get("action") == "save"


@club_view("score")
@idempotent
def hand_create(request, slug, sheet_id):
    """The new hand's form; saved (``services.record_hand``) when posted with "save",
    shown again with its preview otherwise.

    The form checks the entries' shape only; the service scores the hand once, under
    the sheet's lock, in one transaction with the form's idempotency key (``once``),
    and its refusal comes back on the fields at fault."""
    sheet, table = seated_sheet(request.club, sheet_id)
    form_class = form_class_for(sheet)
    if sheet.is_closed:
        if request.method == "POST" and not _scripted(request):
            return _closed_form(request, sheet, form_class(request.POST, sheet=sheet, table=table))
        return closed_refusal(request, sheet)
    if request.method != "POST":
        return _form_page(request, sheet, form_class(sheet=sheet, table=table))
    save = _save_requested(request)
    # a post without "save": the form with its preview
    form = form_class(request.POST, sheet=sheet, table=table, previews=not save)
    if save and form.is_valid():
        sheet_url = reverse("scoresheet:sheet", args=[request.club.slug, sheet.pk])
        try:
            after = form.cleaned_data.get("after")
            hand = once(
                request,
                lambda: services.record_hand(
                    sheet, form.hand_data, actor=request.user, table=table, after=after
                ),
                url=lambda hand: f"{sheet_url}#hand-{hand.number}",
            )
        except Sheet.DoesNotExist:
            raise Http404 from None
        except services.LedgerError as error:
            if error.code == "hand_clash":
                return _clash(request, sheet, form, error)
            if error.code == "sheet_closed" and not _scripted(request):
                return _closed_form(request, sheet, form)
            form.add_ledger_error(error)
        else:
            target = f"{sheet_url}#hand-{hand.number}"
            if request.headers.get("X-Requested-With") == "fetch":
                # hand_form.js saved it (a retry after the network came back)
                response = JsonResponse({"saved": hand.number, "url": target})
            else:
                response = redirect(target)
            # the sheet opens at the new line, and offers to undo it (sheets.sheet_detail)
            return offer_undo(response, request, sheet.pk, hand.number)
    if save and queued(request):  # a hand from the phone's queue: why, for the queue
        return queue_refusal(form)
    return _form_page(request, sheet, form)


def _scripted(request) -> bool:
    """Posted by the page's script or the phone's queue (they want JSON back)."""
    return request.headers.get("X-Requested-With") == "fetch" or queued(request)


def _closed_form(request, sheet, form, hand=None):
    """The sheet was closed while this hand was being typed (a page without script
    posts it anyway): the form again with every entry kept, and why it was not saved
    and how to reopen the sheet (409). Once reopened, the same Save stores it."""
    closed = {
        "message": services.LedgerError("sheet_closed").message,
        "may_manage": can(request.user, request.club, "manage"),
    }
    return _form_page(request, sheet, form, hand, closed=closed, status=409)


def closed_refusal(request, sheet):
    """A closed sheet is read-only: why, and how to reopen it, instead of a form whose
    Save would fail (409; JSON for the phone's queue and the page's script)."""
    message = services.LedgerError("sheet_closed").message
    if _scripted(request):
        return JsonResponse({"errors": [message]}, status=409)
    return render(
        request,
        "scoresheet/sheet_closed.html",
        {
            "sheet": sheet,
            "message": message,
            "may_manage": can(request.user, request.club, "manage"),
        },
        status=409,
    )


def _clash(request, sheet, form, error):
    """Another phone's hand came first: both shown, and a choice. The queue (JSON, 409)
    keeps the hand with the clash, to keep as the next hand or drop; the page shows the
    form again, set to save after the last hand (Save keeps it; the sheet drops it)."""
    last = error.params["number"]
    table = form.table
    theirs = [
        {"number": hand.number, "summary": _hand_summary(services.hand_data(hand, table), sheet)}
        for hand in sheet.hands.live().filter(number__gt=error.params["after"]).order_by("number")
    ]
    mine = _hand_summary(form.hand_data, sheet)
    message = services.LedgerError("hand_clash", **error.params).message
    if request.headers.get("X-Requested-With") == "fetch":
        clash = {"last": last, "theirs": theirs, "mine": mine}
        return JsonResponse({"errors": [message], "clash": clash}, status=409)
    form.keep_as_next(last)
    clash = {"last": last, "next": last + 1, "theirs": theirs, "mine": mine, "message": message}
    return _form_page(request, sheet, form, clash=clash, status=409)


def _hand_summary(data, sheet) -> str:
    """One line of a hand: who dealt, who took what, how it went."""
    names = services.Table.of(sheet).names
    parts = []
    for item in describe_hand(data, sheet.ruleset, names):
        if item["key"] in ("dealer", "sits_out", "taker"):
            parts.append(_("%(label)s: %(value)s") % item)
        elif item["key"] != "result":
            parts.append(str(item["short"]))
    return " · ".join(parts)


@club_view("score")
@require_POST
def hand_preview(request, slug, sheet_id):
    """The live preview: {"scores", "explanation", "html"} or {"errors", "missing", "html"}."""
    sheet = _sheet(request, sheet_id)
    hand = None
    number_param = request.GET.get("hand", "")
    if number_param:
        if not re.fullmatch(r"[0-9]{1,9}", number_param):  # "²".isdigit() is true
            return JsonResponse({"errors": {"__all__": [_("Unknown hand.")]}}, status=404)
        hand = _hand(sheet, int(number_param))
    return preview_response(request, form_class_for(sheet)(request.POST, sheet=sheet, hand=hand))


@club_view("read")
def hand_detail(request, slug, sheet_id, number):
    sheet = _sheet(request, sheet_id)
    hand = _hand(sheet, number)
    table = services.Table.of(sheet)
    rules = sheet.ruleset
    data = services.hand_data(hand, table)
    revisions = list(hand.revisions.select_related("user").order_by("at", "id"))
    if hand.is_deleted:
        last = next((r for r in reversed(revisions) if r.before), None)
        scores = dict((last.before or {}).get("scores", {})) if last else {}
    else:
        scores = {
            table.by_id[player_id].name: score
            for player_id, score in hand.scores.values_list("player_id", "score")
        }
    result = _engine_result(data, rules, table.names)
    roles = result.roles if result is not None else ("",) * len(table.names)
    rows = [
        {"name": name, "score": scores.get(name), "role": _ROLE_LABELS.get(role, "")}
        for name, role in zip(table.names, roles)
    ]
    numbers = list(sheet.hands.order_by("number").values_list("number", flat=True))
    index = numbers.index(hand.number)
    # who wrote each entry, by a name and never a username (clubs.names)
    by = display_names(request.club, {r.user for r in revisions}, fallback=_("a scorer"))
    history = [
        {"revision": r, "changes": revision_changes(r, rules, table.names), "by": by.get(r.user_id)}
        for r in revisions
    ]
    return render(
        request,
        "scoresheet/hand_detail.html",
        {
            "sheet": sheet,
            "hand": hand,
            "items": describe_hand(data, rules, table.names, result=result),
            "rows": rows,
            "history": history,
            "can_score": can(request.user, request.club, "score"),
            "previous": numbers[index - 1] if index > 0 else None,
            "next": numbers[index + 1] if index + 1 < len(numbers) else None,
        },
    )


@club_view("score")
@idempotent
def hand_edit(request, slug, sheet_id, number):
    """A hand's correction (``services.correct_hand``), once per form key (``once``): a
    correction saved with no network waits in the phone's queue and may arrive twice."""
    sheet = _sheet(request, sheet_id)
    hand = _hand(sheet, number)
    if sheet.is_closed:
        if request.method == "POST" and not _scripted(request) and not hand.is_deleted:
            table = services.Table.of(sheet)
            form = form_class_for(sheet)(request.POST, sheet=sheet, table=table, hand=hand)
            return _closed_form(request, sheet, form, hand)
        return closed_refusal(request, sheet)
    if hand.is_deleted:
        if queued(request):
            return JsonResponse({"errors": [str(services.RESTORE_FIRST)]}, status=422)
        messages.error(request, services.RESTORE_FIRST)
        return redirect(hand.get_absolute_url())
    table = services.Table.of(sheet)
    if request.method == "POST":
        save = _save_requested(request)
        form = form_class_for(sheet)(
            request.POST, sheet=sheet, table=table, hand=hand, previews=not save
        )
        if save and form.is_valid():
            url = hand.get_absolute_url()
            try:
                once(
                    request,
                    lambda: services.correct_hand(
                        hand, form.hand_data, actor=request.user, table=table
                    ),
                    url=url,
                )
            except services.LedgerError as error:
                if error.code == "sheet_closed" and not _scripted(request):
                    return _closed_form(request, sheet, form, hand)
                form.add_ledger_error(error)
            else:
                messages.success(request, _("Hand %(number)s corrected.") % {"number": hand.number})
                if request.headers.get("X-Requested-With") == "fetch":
                    return JsonResponse({"saved": hand.number, "url": url})
                return redirect(url)
        if save and queued(request):  # a correction from the phone's queue: why
            return queue_refusal(form)
    else:
        form = form_class_for(sheet)(sheet=sheet, table=table, hand=hand)
    return _form_page(request, sheet, form, hand)


@club_view("score")
@require_POST
def hand_delete(request, slug, sheet_id, number):
    sheet = _sheet(request, sheet_id)
    hand = _hand(sheet, number)
    if sheet.season.kind == Season.Kind.TOURNAMENT:
        # its table deletes through its link (a duplicate table never: a deal entered
        # again would not be in its place in the étui); the organiser corrects
        messages.error(request, _("This sheet belongs to a tournament: change it there."))
        return redirect(hand.get_absolute_url())
    undo = request.POST.get("undo") == "1"  # the sheet's "Undo" right after saving
    try:
        services.delete_hand(hand, actor=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        if undo:
            message = _("Hand %(number)s undone: it no longer counts. You can restore it.")
        else:
            message = _("Hand %(number)s deleted: it no longer counts. You can restore it.")
        messages.success(request, message % {"number": hand.number})
    if undo:
        return redirect("scoresheet:sheet", slug=request.club.slug, sheet_id=sheet.pk)
    return redirect(hand.get_absolute_url())


@club_view("score")
@require_POST
def hand_restore(request, slug, sheet_id, number):
    sheet = _sheet(request, sheet_id)
    hand = _hand(sheet, number)
    try:
        services.restore_hand(hand, actor=request.user)
    except services.LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Hand %(number)s restored.") % {"number": hand.number})
    return redirect(hand.get_absolute_url())


# ---------------------------------------------------------------- a hand in words


def _engine_result(data, rules, names):
    """The engine's reading of a recorded hand (roles, margin), or None if it refuses it.

    Pools do not change a role or a margin, so none are carried here.
    """
    try:
        return score_hand(rules, parse_hand(data, rules, names)[1])
    except ScoringError:
        return None


_ROLE_LABELS = {
    "taker": Role.TAKER.label,
    "partner": Role.PARTNER.label,
    "sits_out": Role.SITS_OUT.label,
}


def describe_hand(data, rules, names, result=None):
    """A hand (HAND_FORMAT dict with names) as labelled words: [{key, label, value}].

    ``result``: the engine's reading of ``data`` when the caller has it already
    (``_engine_result``), so the hand is not scored twice."""
    if rules.kind == "savoyard":
        return describe_savoyard(data)
    if result is None:
        result = _engine_result(data, rules, names)
    items = seating_words(data)
    add = items.add
    taker = data.get("taker")
    if taker is None:
        add("taker", _("Taker"), _("Everybody passed"))
        return items
    add("taker", _("Taker"), taker)
    if data.get("contract"):
        add("contract", _("Contract"), Contract(data["contract"]).label)
    playing = len(names) - (1 if data.get("sits_out") else 0)
    if not rules.heads_up and playing == 5:
        partner = data.get("partner")
        if partner and partner != taker:
            add("partner", _("Partner"), partner, _("with %(name)s") % {"name": partner})
        else:
            add("partner", _("Partner"), _("Alone"), _("alone"))
    bouts = data.get("bouts", 0)
    add(
        "bouts",
        _("Bouts"),
        str(bouts),
        ngettext("%(n)s bout", "%(n)s bouts", bouts) % {"n": bouts},
    )
    points = Decimal(str(data.get("points", 0)))
    if rules.heads_up:
        with_rest = _("%(points)s (the other %(rest)s)")
    else:
        with_rest = _("%(points)s (defence %(rest)s)")
    add(
        "points",
        _("Points"),
        with_rest
        % {"points": format_number(points), "rest": format_number(rules.deck.total - points)},
        _("%(points)s points") % {"points": format_number(points)},
    )
    if not rules.heads_up and result is not None:
        # RULES §1: made at the target or above; the half point goes to the winner
        by = abs(result.card_margin)
        if result.made:
            add("result", _("Result"), _("made by %(n)s") % {"n": by})
        else:
            add("result", _("Result"), _("failed by %(n)s") % {"n": by})
    if data.get("petit_au_bout"):
        side = SIDE_LABELS[data["petit_au_bout"]]
        add(
            "petit_au_bout",
            _("Petit au bout"),
            side,
            _("petit au bout: %(side)s") % {"side": str(side).lower()},
        )
    poignees = data.get("poignees") or ()
    if poignees:
        text = ", ".join(f"{p['player']} {POIGNEE_LABELS[p['size']]}" for p in poignees)
        add("poignees", _("Poignées"), text, _("poignée: %(list)s") % {"list": text})
    # the whole phrase is translated: French puts a no-break space before the colon
    for key, label, words in (
        ("chelem", _("Chelem"), _("chelem: %(value)s")),
        ("petit_chelem", _("Petit chelem"), _("petit chelem: %(value)s")),
    ):
        code = chelem_code(data.get(key))
        if code:
            value = capfirst(Chelem(code).label)
            add(key, label, value, words % {"value": str(value).lower()})
    if data.get("miseres"):
        text = ", ".join(data["miseres"])
        add("miseres", _("Misère"), text, _("misère: %(list)s") % {"list": text})
    return items


def revision_changes(revision, rules, names):
    """One history entry in words: what changed, and each player's score before → after."""
    before = revision.before or {}
    after = revision.after or {}
    before_items = describe_hand(before["hand"], rules, names) if before.get("hand") else []
    after_items = describe_hand(after["hand"], rules, names) if after.get("hand") else []
    changes = []
    if before_items and after_items:
        old = {i["key"]: i for i in before_items}
        new = {i["key"]: i for i in after_items}
        for key in [*new, *(k for k in old if k not in new)]:
            was = old.get(key, {}).get("value")
            now = new.get(key, {}).get("value")
            if str(was) != str(now):
                label = (new.get(key) or old.get(key))["label"]
                changes.append({"label": label, "before": was, "after": now})
    summary = after_items or before_items
    before_scores = before.get("scores") or {}
    after_scores = after.get("scores") or {}
    scores = [
        {
            "name": name,
            "before": before_scores.get(name),
            "after": after_scores.get(name),
            "changed": before_scores.get(name) != after_scores.get(name),
        }
        for name in names
        if name in before_scores or name in after_scores
    ]
    return {
        "summary": " · ".join(str(i["short"]) for i in summary if i["key"] != "dealer"),
        "changes": changes,
        "scores": scores,
        "has_before": bool(before_scores),
        "has_after": bool(after_scores),
    }
