"""The held licence lines' page of a league's managers (``leagues.held``), linked from the
licence import: the pending lines a page at a time, with the club that sent each, who
sent it and when, and what confirming it would do; a confirmation (one line, or every
line of the page) or a dismissal a post, once per form key (``core.idempotency``)."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.idempotency import idempotent, once
from core.paging import MAX_PAGE, bounded_int
from leagues import held, queries
from leagues.held import HeldError
from leagues.licences import LicenceError
from leagues.permissions import league_view

#: held lines a page
PER_PAGE = 50
#: the most lines one post confirms (a page's)
MOST = PER_PAGE


def _ids(values) -> list[int]:
    """The posted held lines' ids (well-formed ones only)."""
    return [int(v) for v in values[:MOST] if v.isascii() and v.isdigit() and len(v) < 10]


@league_view("manage")
@idempotent
@require_http_methods(["GET", "POST"])
def held_licences(request, league):
    """The pending held lines (GET); a confirmation or a dismissal (POST), then back."""
    league = request.league
    here = reverse("leagues:held_licences", args=[league.slug])
    if request.method == "POST":
        ids = _ids(request.POST.getlist("line"))
        try:
            if request.POST.get("action") == "dismiss":
                held_id = ids[0] if ids else 0
                once(request, lambda: held.dismiss(league, held_id, actor=request.user), url=here)
                messages.success(request, _("The held line is dismissed: nothing is imported."))
            elif request.POST.get("action") == "confirm":
                actor = request.user
                done = once(request, lambda: held.confirm(league, ids, actor=actor), url=here)
                _said(request, done)
            else:
                raise HeldError("none")
        except (HeldError, LicenceError) as error:  # a refusal, or writes in the way
            messages.error(request, error.message)
        return redirect(here)
    number = bounded_int(request.GET.get("page"), 1, 1, MAX_PAGE)
    page = Paginator(held.pending(league), PER_PAGE).get_page(number)
    rows = list(page.object_list)
    lines = held.preview(league, rows, actor=request.user) if rows else {}
    hide = queries.hider(request.user, league)
    shown = [
        {
            "row": row,
            "licence": hide(row.licence),
            "name": hide(row.name),
            "line": lines[row.pk],
            "changes": [(hide(a), hide(b)) for a, b in lines[row.pk].changes.values()],
            "link": hide(lines[row.pk].link),
        }
        for row in rows
    ]
    return render(
        request,
        "leagues/held_licences.html",
        {"league": league, "page": page, "rows": shown},
    )


def _said(request, done) -> None:
    """What the confirmation did, as the licence import says it."""
    counts = done.counts
    messages.success(
        request,
        _(
            "Held lines confirmed: %(create)s created, %(update)s updated, "
            "%(linked)s linked, %(refused)s refused."
        )
        % counts,
    )
    for line in done.lines:
        if line.refused:
            refused = _("A held line is refused: %(reason)s") % {"reason": line.message}
            messages.warning(request, refused)
