"""Data in and out of a club (namespace ``transfer``), relative to the club's URL.

* ``data`` (managers): the upload form, the season exports, the club's backup.
* ``import`` (managers, POST): ``step=preview`` reads the uploaded file, keeps it
  in the session and shows every sheet with its line and, when refused, the
  reason (nothing written); ``step=import`` imports the file kept (each sheet all
  or nothing) and shows the outcome, once per form (``core.idempotency``: a second
  press of "Import" imports nothing).
* ``season_jsonl`` / ``season_xlsx`` / ``season_csv`` (readers, like a sheet's own
  export): every live sheet of a season as JSON Lines (``import_sheets`` and the
  upload read them back), or every score of the season as a spreadsheet or a CSV in
  the page's language.
* ``backup`` (managers): the whole club as JSON (``transfer.backup``); the
  ``restore_club`` command writes it into another instance.
"""

import hashlib
import io
import json

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import audit
from clubs.permissions import club_view
from core.exports import bad_request, csv_text, neutralise
from core.idempotency import idempotent, once
from core.jsonnumbers import json_number
from scoresheet.handmap import sheet_json
from scoresheet.models import ScoreRow, Sheet
from transfer import backup as backups
from transfer import upload

SESSION_KEY = "transfer-upload"


def _seasons(club):
    return list(club.seasons.regular().newest_first())


@club_view("manage")
@require_GET
def data(request, slug):
    club = request.club
    context = {"seasons": _seasons(club), "section": "data"}
    return render(request, "transfer/data.html", context)


@club_view("manage")
@require_POST
@idempotent
def import_sheets(request, slug):
    club = request.club
    seasons = _seasons(club)
    chosen = request.POST.get("season") or ""
    season = next((s for s in seasons if str(s.pk) == chosen), None)
    if chosen and season is None:
        return bad_request(request)
    step = request.POST.get("step")
    context = {"seasons": seasons, "season": season, "section": "data"}
    if step == "preview":
        uploaded = request.FILES.get("file")
        if uploaded is None:
            context["error"] = _("Choose a file to upload.")
            return render(request, "transfer/data.html", context, status=400)
        try:
            if uploaded.size > upload.MAX_BYTES:
                raise upload.UploadError(_("The file is larger than 2 MB: split it."))
            text = upload.decode(uploaded.read())
            found = upload.chunks(text, uploaded.name)
        except upload.UploadError as error:
            context["error"] = error.message
            return render(request, "transfer/data.html", context, status=400)
        digest = hashlib.sha256(text.encode()).hexdigest()
        request.session[SESSION_KEY] = {
            "club": club.pk,
            "name": uploaded.name[:200],
            "text": text,
            "digest": digest,
        }
        return _preview(request, context, found, name=uploaded.name, digest=digest)
    if step == "import":
        kept = request.session.get(SESSION_KEY)
        if (
            not isinstance(kept, dict)
            or kept.get("club") != club.pk
            or kept.get("digest") != request.POST.get("digest")
        ):
            messages.error(request, _("Upload the file again: its preview is no longer here."))
            return redirect("transfer:data", club.slug)
        found = upload.chunks(kept["text"], kept["name"])
        near = upload.near_names(club, found)
        aliases, unanswered = _near_choices(request.POST, near)
        if unanswered:
            context["near_error"] = _("Say who each of these players is.")
            return _preview(
                request, context, found, name=kept["name"], digest=kept["digest"], status=400
            )
        found = upload.with_aliases(found, aliases)
        # "Import" pressed twice (two posts at once, both holding the session's copy):
        # the form's idempotency key lets one import and sends the other to the data page
        outcomes = once(
            request,
            lambda: upload.import_file(
                club,
                found,
                name=kept["name"],
                digest=kept["digest"],
                season=season,
                actor=request.user,
            ),
            url=reverse("transfer:data", args=[club.slug]),
        )
        request.session.pop(SESSION_KEY, None)
        good = sum(1 for o in outcomes if o.ok)
        context.update(outcomes=outcomes, name=kept["name"], preview=False)
        context.update(good=good, refused=len(outcomes) - good)
        return render(request, "transfer/import.html", context)
    return bad_request(request)


def _preview(request, context, found, *, name, digest, status=200):
    """The preview page: every sheet with what the import would do, and the file's new
    names that look like a player of the club, each with the question "who is it?"."""
    club = request.club
    outcomes = upload.preview(club, found, season=context["season"], actor=request.user)
    context.update(outcomes=outcomes, name=name, digest=digest, preview=True)
    context["good"] = sum(1 for o in outcomes if o.ok)
    context["refused"] = len(outcomes) - context["good"]
    context["near"] = upload.near_names(club, found)
    return render(request, "transfer/import.html", context, status=status)


def _near_choices(post, near):
    """``({name_key: the existing player's name}, unanswered)`` from the preview's
    questions (``same_<k>``: a player's id or "new"; ``same_<k>_name``: the name asked
    about, so a question is matched by name, not by its place)."""
    answers = {}
    for key, value in post.items():
        if key.startswith("same_") and key.endswith("_name"):
            answers[" ".join(value.split())] = post.get(key.removesuffix("_name"), "")
    aliases, unanswered = {}, []
    for item in near:
        choice = answers.get(item.name, "")
        chosen = next((p for p in item.players if str(p.pk) == choice), None)
        if chosen is not None:
            aliases[upload.name_key(item.name)] = chosen.name
        elif choice != "new":
            unanswered.append(item.name)
    return aliases, unanswered


@club_view("read")
@require_GET
def season_jsonl(request, slug, season_id):
    season = get_object_or_404(request.club.seasons.regular(), pk=season_id)
    lines = []
    for sheet in _sheets(season):
        data = sheet_json(sheet)
        data["season"] = season.name
        lines.append(json.dumps(data, ensure_ascii=False, default=json_number))
    response = HttpResponse(
        "".join(line + "\n" for line in lines), content_type="application/jsonl; charset=utf-8"
    )
    _attachment(response, request.club, season, "jsonl")
    return response


def _season_scores(season):
    """Every score of the season's live sheets: the header and the rows (numbers as numbers)."""
    header = [_("Date"), _("Table"), _("Sheet"), _("Hand"), _("Player"), _("Role")]
    header += [_("Contract"), _("Score")]
    rows = (
        ScoreRow.objects.filter(season=season, sheet__in=_sheets(season))
        .order_by("date", "sheet__table", "sheet_id", "number", "position")
        .values_list(
            "date",
            "sheet__table",
            "sheet_id",
            "number",
            "player__name",
            "role",
            "contract",
            "score",
        )
    )
    return header, rows


@club_view("read")
@require_GET
def season_xlsx(request, slug, season_id):
    import openpyxl

    season = get_object_or_404(request.club.seasons.regular(), pk=season_id)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = _("Scores")[:31]
    header, rows = _season_scores(season)
    sheet.append(header)
    for cells in rows:
        sheet.append([neutralise(c) for c in cells])
    out = io.BytesIO()
    book.save(out)
    response = HttpResponse(
        out.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    _attachment(response, request.club, season, "xlsx")
    return response


@club_view("read")
@require_GET
def season_csv(request, slug, season_id):
    """The season's scores as CSV in the page's language (``core.exports.csv_text``:
    French ";" and "-12,5", English "," and "-12.5")."""
    season = get_object_or_404(request.club.seasons.regular(), pk=season_id)
    header, rows = _season_scores(season)
    response = HttpResponse(csv_text(header, rows), content_type="text/csv; charset=utf-8")
    _attachment(response, request.club, season, "csv")
    return response


@club_view("manage")
@require_GET
def backup(request, slug):
    club = request.club
    data = backups.backup(club)
    text = json.dumps(data, ensure_ascii=False)
    stamp = timezone.localdate().isoformat()
    name = f"backup-{club.slug}-{stamp}.json"
    # the whole club's data, members' emails included, left the site: who took it, when
    after = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "counts": data["counts"]}
    audit.record(club, request.user, audit.Action.BACKUP_DOWNLOADED, label=name, after=after)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _sheets(season):
    sheets = Sheet.objects.filter(season=season)
    sheets = sheets.filter(deleted_at__isnull=True)  # a deleted sheet is out of the season
    return sheets.order_by("date", "table", "pk")


def _attachment(response, club, season, extension):
    label = slugify(f"{club.slug} {season.name}") or club.slug
    response["Content-Disposition"] = f'attachment; filename="{label}.{extension}"'
