"""The hand form as every page that enters a hand shows it: the club's hand pages
(``scoresheet.views.hands``) and a tournament table's (``tournaments.table_views``).

Which form a sheet's rules ask for, the sheet read with its seating for it, and
what the preview panel and the live preview (JSON) show of a bound form.
"""

from django.http import Http404, JsonResponse
from django.template.loader import render_to_string

from core.jsonnumbers import json_number
from scoresheet.explain_labels import render_explanation
from scoresheet.forms.hands import HandForm
from scoresheet.forms.savoyard import SavoyardHandForm
from scoresheet.handmap import Table
from scoresheet.models import Role, Seat
from tarot.jsonformat import number

#: The hand form of a ruleset other than French Tarot, by preset.
#: The hand form of a game other than French Tarot, by the ruleset's ``kind``.
FORMS = {"savoyard": SavoyardHandForm}


def form_class_for(sheet):
    """The hand form the sheet's ruleset asks for (French Tarot's by default); the
    tournament pages use it too."""
    return FORMS.get(sheet.ruleset.kind, HandForm)


def seated_sheet(club, sheet_id):
    """The club's live sheet ``sheet_id`` (with its season) and its seating
    (``Table``), read in one query; 404 for a deleted sheet or another club's."""
    seats = list(
        Seat.objects.select_related("sheet__season", "player")
        .filter(sheet__pk=sheet_id, sheet__club=club, sheet__deleted_at__isnull=True)
        .order_by("position")
    )
    if not seats:
        raise Http404
    return seats[0].sheet, Table.seating([seat.player for seat in seats])


def preview_context(form):
    """What the preview panel shows (``scoresheet/includes/hand_preview.html``'s
    ``preview``): the scores, or what is missing or wrong."""
    result = form.result if not form.errors else None
    rows = []
    if result is not None:
        for name, score in result.scores.items():
            if name == result.sits_out:
                role = "out"
            elif result.kind == "passed":
                role = ""
            elif name == result.taker:
                role = "taker"
            elif name == result.partner:
                role = "partner"
            else:
                role = ""
            label = Role(role).label if role else ""
            rows.append({"name": name, "score": score, "role": role, "role_label": label})
    return {
        "result": result,
        "rows": rows,
        "explanation": result.explanation if result is not None else None,
        "missing": form.missing_fields() if result is None else [],
        "refusals": form.refusal_list() if result is None else [],
    }


def preview_response(request, form):
    """The live preview of a bound hand form, as JSON: {"html", "defence_points"} with
    {"scores", "explanation"} or {"errors", "missing"} (a club sheet's, and a
    tournament table's by its private link)."""
    valid = form.is_valid()
    context = preview_context(form)
    html = render_to_string(
        "scoresheet/includes/hand_preview.html",
        {"preview": context, "form": form},
        request=request,
    )
    payload = {"html": html, "defence_points": json_number(form.defence_points())}
    if valid and form.result is not None:
        result = form.result
        payload["scores"] = {
            name: number(halves) for name, halves in zip(result.players, result.halves)
        }
        payload["explanation"] = render_explanation(result.explanation)
    else:
        payload["errors"] = form.refusals()
        payload["missing"] = form.missing_fields()
    return JsonResponse(payload)


def queued(request) -> bool:
    """Whether the post comes from the phone's queue of hands (static/js/offline.js)."""
    return request.headers.get("X-Tarot-Queue") == "1"


def queue_refusal(form):
    """A refused hand from the phone's queue, as JSON (422): the form's errors, each
    "field — message", kept with the hand in the queue for the scorer to fix."""
    errors = []
    for name, messages in form.errors.items():
        field = form.fields.get(name)
        label = str(field.label) if field is not None and field.label else ""
        errors.extend(f"{label} — {message}" if label else str(message) for message in messages)
    return JsonResponse({"errors": errors}, status=422)
