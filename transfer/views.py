"""Data in and out of a club (namespace ``transfer``), relative to the club's URL.

* ``data`` (managers): the upload form, the season exports, the club's backup.
* ``import`` (managers, POST): ``step=preview`` reads the uploaded file, keeps it
  in the session and shows every sheet with its line and, when refused, the
  reason (nothing written; more than ``jobs.BACKGROUND_SHEETS`` sheets are checked
  by a job, whose page leads to ``upload_preview``); ``step=import`` imports the
  file kept (each sheet all or nothing) and shows the outcome, once per form
  (``core.idempotency``: a second press of "Import" imports nothing).
* ``season_jsonl`` / ``season_xlsx`` / ``season_csv`` (readers, like a sheet's own
  export): every live sheet of a season as JSON Lines (``import_sheets`` and the
  upload read them back), or every score of the season as a spreadsheet or a CSV in
  the page's language.
* ``backup`` (managers): the whole club as JSON (``transfer.backup``); the
  ``restore_club`` command writes it into another instance.
* ``job_start``, ``job``, ``job_status``, ``job_file`` (managers): the same work in
  the background (``transfer.jobs``): a page with a progress bar (``job_status``
  answers its script in JSON), then the file to download. An upload of more than
  ``jobs.BACKGROUND_SHEETS`` sheets is checked that way too (``upload_preview``: its
  preview page, from the job's outcomes), then imported that way.
* ``restore``, ``restore_job``, ``restore_status`` (site administrators, outside
  any club): upload a backup, see what it would create, confirm, follow it.

Exports and the backup are written in chunks (``transfer.streams``,
``transfer.backup.chunks``), never whole in memory. A direct link (``_direct``) answers
up to ``settings.DOWNLOAD_MAX_HANDS`` hands with the whole file and its length (a
transfer cut short is seen as failed, never as a complete file); above it, with the
background job of the same file and its page.
"""

import hashlib
import tempfile
import uuid
from contextlib import closing
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import audit
from clubs.models import Role
from clubs.permissions import can, club_view
from core.exports import bad_request
from core.idempotency import Repeated, idempotent, once
from transfer import backup as backups
from transfer import jobs, streams, upload
from transfer.models import Job

SESSION_KEY = "transfer-upload"


def _seasons(club):
    return list(club.seasons.regular().newest_first())


@club_view("manage")
@require_GET
def data(request, slug):
    club = request.club
    context = {"seasons": _seasons(club), "section": "data"}
    context["download_max_hands"] = settings.DOWNLOAD_MAX_HANDS
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
        if len(found) > jobs.BACKGROUND_SHEETS:
            return _preview_in_background(request, club, request.session[SESSION_KEY], season)
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
            checked = _preview_job(request, club, request.POST.get("preview_job"), kept)
            return _preview(
                request,
                context,
                found,
                name=kept["name"],
                digest=kept["digest"],
                status=400,
                checked=checked,
            )
        found = upload.with_aliases(found, aliases)

        if len(found) > jobs.BACKGROUND_SHEETS:
            return _import_in_background(request, club, kept, season)
        # "Import" pressed twice, or posted again by a script or a page kept from before
        # (with or without the form's key): the file's digest, stored with the import,
        # lets one import and sends the others to the data page
        try:
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
                key=upload.once_key(club, kept["digest"]),
            )
        except Repeated as repeated:
            return _imported_already(request, repeated)
        request.session.pop(SESSION_KEY, None)
        good = sum(1 for o in outcomes if o.ok)
        context.update(outcomes=outcomes, name=kept["name"], preview=False)
        context.update(good=good, refused=len(outcomes) - good)
        return render(request, "transfer/import.html", context)
    return bad_request(request)


def _preview(request, context, found, *, name, digest, status=200, checked=None):
    """The preview page: every sheet with what the import would do, and the file's new
    names that look like a player of the club, each with the question "who is it?".
    ``checked``: the preview job that found what the import would do (a large upload:
    ``_preview_in_background``), else it is found here."""
    club = request.club
    if checked is not None:
        outcomes = [upload.Outcome(**data) for data in checked.options["outcomes"]]
        context["preview_job"] = checked.pk
    else:
        outcomes = upload.preview(club, found, season=context["season"], actor=request.user)
    context.update(outcomes=outcomes, name=name, digest=digest, preview=True)
    context["imported_already"] = upload.imported_already(club, digest)
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


def _preview_in_background(request, club, kept, season):
    """A large upload's preview: checked by a job (``jobs._upload_preview``), whose page
    shows the progress, then the preview page (``upload_preview``) from its outcomes.
    The session keeps the file for the confirm, as for a small upload."""
    job = _upload_job(Job.Kind.UPLOAD_PREVIEW, request, club, kept, season)
    return redirect(_job_url(club, job))


def _upload_job(kind, request, club, kept, season):
    """A job of ``kind`` on the upload the session keeps, its text written to a file
    of the job's own."""
    source = f"{uuid.uuid4().hex}.upload"
    with open(jobs.path_of(source), "w", encoding="utf-8") as out:
        out.write(kept["text"])
    return jobs.start(
        kind,
        club=club,
        season=season,
        actor=request.user,
        source=source,
        options={"name": kept["name"], "digest": kept["digest"]},
    )


def _preview_job(request, club, job_id, kept):
    """The finished preview job ``job_id`` of this club for the file the session keeps,
    or None."""
    if not job_id or not isinstance(kept, dict):
        return None
    try:
        found = Job.objects.get(
            pk=uuid.UUID(str(job_id)),
            club=club,
            kind=Job.Kind.UPLOAD_PREVIEW,
            state=Job.State.DONE,
        )
    except (ValueError, Job.DoesNotExist):
        return None
    if found.options.get("digest") != kept.get("digest") or "outcomes" not in found.options:
        return None
    return found


@club_view("manage")
@require_GET
def upload_preview(request, slug, job_id):
    """A large upload's preview page, from its preview job's outcomes (the file itself
    from the session, as the confirm reads it)."""
    club = request.club
    job = get_object_or_404(Job, pk=job_id, club=club, kind=Job.Kind.UPLOAD_PREVIEW)
    if job.state != Job.State.DONE:
        return redirect(_job_url(club, job))
    kept = request.session.get(SESSION_KEY)
    checked = _preview_job(request, club, job.pk, kept)
    if checked is None or kept.get("club") != club.pk:
        messages.error(request, _("Upload the file again: its preview is no longer here."))
        return redirect("transfer:data", club.slug)
    context = {"seasons": _seasons(club), "season": job.season, "section": "data"}
    found = upload.chunks(kept["text"], kept["name"])
    return _preview(
        request, context, found, name=kept["name"], digest=kept["digest"], checked=checked
    )


def _import_in_background(request, club, kept, season):
    """A large upload: imported by a job (once per form, as in the request), its page
    shows the progress and then each sheet's outcome."""

    def queue():
        return _upload_job(Job.Kind.UPLOAD, request, club, kept, season)

    key = upload.once_key(club, kept["digest"])
    try:
        job = once(request, queue, url=lambda job: _job_url(club, job), key=key)
    except Repeated as repeated:
        return _imported_already(request, repeated)
    request.session.pop(SESSION_KEY, None)
    return redirect(_job_url(club, job))


def _imported_already(request, repeated):
    request.session.pop(SESSION_KEY, None)
    messages.info(
        request,
        _("This file was already imported into the club: nothing was imported again."),
    )
    return redirect(repeated.url or reverse("transfer:data", args=[request.club.slug]))


def _job_url(club, job):
    return reverse("transfer:job", args=[club.slug, job.pk])


def _direct(request, kind, season, write, content_type):
    """A direct download link: the file whole, with its length (a client sees a
    transfer cut short as failed), when the data fits well inside a request
    (``settings.DOWNLOAD_MAX_HANDS``); above it, the background job of the same file
    (one already queued or running for it, or a new one) and its progress page."""
    club = request.club
    if jobs.hands_of(club, season) > settings.DOWNLOAD_MAX_HANDS:
        job = jobs.start_download(kind, club=club, season=season, actor=request.user)
        return redirect(_job_url(club, job))
    # written whole to a file first, then sent from there with its Content-Length
    out = tempfile.TemporaryFile(dir=jobs.files_dir())  # noqa: SIM115 (FileResponse closes it)
    try:
        write(out)
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return FileResponse(out, content_type=content_type)


def _text_writer(chunks):
    def write(out):
        with closing(chunks):
            for text in chunks:
                out.write(text.encode())

    return write


@club_view("read")
@require_GET
def season_jsonl(request, slug, season_id):
    season = get_object_or_404(request.club.seasons.regular(), pk=season_id)
    write = _text_writer(streams.season_jsonl_chunks(season))
    response = _direct(
        request, Job.Kind.SEASON_JSONL, season, write, "application/jsonl; charset=utf-8"
    )
    _attachment(response, request.club, season, "jsonl")
    return response


@club_view("read")
@require_GET
def season_csv(request, slug, season_id):
    """The season's scores as CSV in the page's language (``core.exports.csv_cell``:
    French ";" and "-12,5", English "," and "-12.5")."""
    season = get_object_or_404(request.club.seasons.regular(), pk=season_id)
    write = _text_writer(streams.csv_chunks(season))
    response = _direct(request, Job.Kind.SEASON_CSV, season, write, "text/csv; charset=utf-8")
    _attachment(response, request.club, season, "csv")
    return response


@club_view("read")
@require_GET
def season_xlsx(request, slug, season_id):
    season = get_object_or_404(request.club.seasons.regular(), pk=season_id)
    response = _direct(
        request,
        Job.Kind.SEASON_XLSX,
        season,
        lambda out: streams.write_xlsx(season, out),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    _attachment(response, request.club, season, "xlsx")
    return response


@club_view("manage")
@require_GET
def backup(request, slug):
    club = request.club
    found = {}

    def write(out):  # its digest counted as it goes
        found["counts"], found["digest"] = backups.write(club, out)

    response = _direct(request, Job.Kind.BACKUP, None, write, "application/json; charset=utf-8")
    if not found:  # the job's page: its download is audited when taken
        return response
    stamp = timezone.localdate().isoformat()
    name = f"backup-{club.slug}-{stamp}.json"
    # the whole club's data, members' emails included, left the site: who took it, when
    after = {"sha256": found["digest"], "counts": found["counts"]}
    audit.record(club, request.user, audit.Action.BACKUP_DOWNLOADED, label=name, after=after)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


#: what a manager may run in the background from the data page (the season's too)
STARTABLE = {
    Job.Kind.BACKUP: False,
    Job.Kind.SEASON_JSONL: True,
    Job.Kind.SEASON_XLSX: True,
    Job.Kind.SEASON_CSV: True,
}


@club_view("manage")
@require_POST
def job_start(request, slug):
    club = request.club
    kind = request.POST.get("kind")
    if kind not in STARTABLE:
        return bad_request(request)
    season = None
    if STARTABLE[kind]:
        season = next((s for s in _seasons(club) if str(s.pk) == request.POST.get("season")), None)
        if season is None:
            return bad_request(request)
    job = jobs.start(kind, club=club, season=season, actor=request.user)
    return redirect(_job_url(club, job))


#: a season's export, the same file its direct link gives: its job is seen by whoever
#: may read the club (the link's own readers); every other job by its managers
READABLE = (Job.Kind.SEASON_JSONL, Job.Kind.SEASON_XLSX, Job.Kind.SEASON_CSV)


def job_view(view):
    """A view of one job of the club (``job_id``), given the job: a season's export's
    (``READABLE``) under ``club_view("read")`` (whoever may read the club, as its direct
    link), any other job's under ``club_view("manage")``."""

    def inner(request, slug, job_id):
        found = get_object_or_404(
            Job.objects.select_related("season"), pk=job_id, club=request.club
        )
        return view(request, slug, found)

    as_reader, as_manager = club_view("read")(inner), club_view("manage")(inner)

    @wraps(view)
    def wrapped(request, slug, job_id):
        kind = Job.objects.filter(pk=job_id).values_list("kind", flat=True).first()
        return (as_reader if kind in READABLE else as_manager)(request, slug, job_id)

    return wrapped


def _manages(request):
    return can(request.user, request.club, "manage")


@job_view
@require_GET
def job(request, slug, found):
    jobs.reap()
    found.refresh_from_db()
    if found.kind == Job.Kind.UPLOAD_PREVIEW and found.state == Job.State.DONE:
        return redirect("transfer:upload_preview", request.club.slug, found.pk)
    context = {"job": found, "section": "data", "status": _status(found, request.club)}
    context["expiry_days"] = settings.JOB_FILES_DAYS
    context["manages"] = _manages(request)
    frame = "clubs/manage/base.html" if context["manages"] else "transfer/reader_frame.html"
    context["frame"] = frame
    context["again"] = found.state == Job.State.FAILED and found.kind in STARTABLE
    return render(request, "transfer/job.html", context)


@job_view
@require_GET
def job_status(request, slug, found):
    jobs.reap()
    found.refresh_from_db()
    return JsonResponse(_status(found, request.club))


@job_view
@require_GET
def job_file(request, slug, found):
    if found.state != Job.State.DONE or not found.file:
        raise Http404
    try:
        data = open(jobs.path_of(found.file), "rb")  # noqa: SIM115 (FileResponse closes it)
    except FileNotFoundError:
        raise Http404 from None
    jobs.record_download(found, request.user)
    return FileResponse(data, as_attachment=True, filename=found.download_name)


@job_view
@require_POST
def job_again(request, slug, found):
    """A failed job's "Start again": the same work as a new job (a season's export:
    its direct link's rule, so a reader may; the backup: a manager)."""
    if found.state != Job.State.FAILED or found.kind not in STARTABLE:
        return bad_request(request)
    if found.kind in READABLE:
        again = jobs.start_download(
            found.kind, club=request.club, season=found.season, actor=request.user
        )
    else:
        again = jobs.start(found.kind, club=request.club, season=found.season, actor=request.user)
    return redirect(_job_url(request.club, again))


def _status(job, club=None) -> dict:
    download = None
    if job.state == Job.State.DONE and job.file and club is not None:
        download = reverse("transfer:job_file", args=[club.slug, job.pk])
    return {
        "state": job.state,
        "state_label": str(job.get_state_display()),
        "done": job.done,
        "total": job.total,
        "percent": job.percent,
        "summary": job.summary,
        "error": job.error,
        "download": download,
        "finished": job.finished,
        "expired": bool(job.options.get("expired")),
    }


def staff_view(view):
    """A site administrator's page: the login page for anonymous users, 403 for others."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


@staff_view
def restore(request):
    """Upload a club's backup: saved, read for its preview, then confirmed."""
    context = {}
    if request.method == "POST":
        uploaded = request.FILES.get("file")
        if uploaded is None:
            context["error"] = _("Choose a file to upload.")
        elif uploaded.size > jobs.MAX_RESTORE_BYTES:
            context["error"] = _("The file is too large.")
        else:
            source = jobs.save_upload(uploaded, ".restore")
            try:
                job = jobs.prepare_restore(source, actor=request.user)
            except backups.BackupError as error:
                jobs.path_of(source).unlink(missing_ok=True)
                context["error"] = error.message
            else:
                return redirect("restore_job", job.pk)
        return render(request, "transfer/restore.html", context, status=400)
    return render(request, "transfer/restore.html", context)


@staff_view
def restore_job(request, job_id):
    found = get_object_or_404(Job, pk=job_id, kind=Job.Kind.RESTORE)
    if request.method == "POST":
        logins = request.POST.getlist("login")
        if not jobs.confirm_restore(found, actor=request.user, logins=logins):
            messages.info(request, _("This restore was already started."))
        return redirect("restore_job", found.pk)
    jobs.reap()
    found.refresh_from_db()
    logins = [
        {**login, "role": dict(Role.choices).get(login["role"], login["role"])}
        for login in found.options.get("preview", {}).get("logins", [])
    ]
    context = {"job": found, "status": _restore_status(found), "logins": logins}
    context["again"] = (
        found.state == Job.State.FAILED
        and found.options.get("worker_stopped")
        and bool(found.source)
        and jobs.path_of(found.source).exists()
    )
    return render(request, "transfer/restore_job.html", context)


@staff_view
@require_GET
def restore_status(request, job_id):
    jobs.reap()
    found = get_object_or_404(Job, pk=job_id, kind=Job.Kind.RESTORE)
    return JsonResponse(_restore_status(found))


def _restore_status(job) -> dict:
    status = _status(job)
    if job.state == Job.State.DONE and job.club_id is not None:
        status["club"] = job.club.get_absolute_url()
    return status


def _attachment(response, club, season, extension):
    if response.status_code != 200:  # the job's page
        return
    label = slugify(f"{club.slug} {season.name}") or club.slug
    response["Content-Disposition"] = f'attachment; filename="{label}.{extension}"'
