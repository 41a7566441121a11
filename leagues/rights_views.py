"""A member's rights (``leagues.rights``, ``leagues.erasure``): their data from My
account, a player's data and a former player's erasure from the player's page (the
club's manager's)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import Player
from clubs.permissions import club_view
from leagues import erasure, rights


def _download(subject, name):
    response = StreamingHttpResponse(
        rights.chunks(subject), content_type="application/json; charset=utf-8"
    )
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="{slugify(name) or "data"}-{day}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def my_data(request):
    """My account: what the site holds about me, downloaded by a POST (an audit entry
    each; a link's preview fetches nothing)."""
    subject = rights.Subject(user=request.user)
    if request.method == "POST":
        rights.record_download(subject, actor=request.user)
        return _download(subject, request.user.get_username())
    context = {"subject": subject}
    return render(request, "leagues/my_data.html", context)


def _player(request, player_id):
    return get_object_or_404(
        Player.objects.select_related("person", "user", "club"), pk=player_id, club=request.club
    )


@club_view("manage")
@require_http_methods(["GET", "POST"])
def player_data(request, slug, player_id):
    """The club's manager: what the site holds about one of the club's players."""
    player = _player(request, player_id)
    subject = rights.Subject(player=player)
    if request.method == "POST":
        rights.record_download(subject, actor=request.user)
        return _download(subject, f"{request.club.slug}-{player.pk}")
    context = {"club": request.club, "player": player, "subject": subject}
    return render(request, "leagues/player_data.html", context)


@club_view("manage")
@require_http_methods(["GET", "POST"])
def player_erase(request, slug, player_id):
    """The confirmation page of a former player's erasure, then the erasure."""
    player = _player(request, player_id)
    context = {"club": request.club, "player": player}
    if request.method == "POST":
        if request.POST.get("confirm") != "erase":
            context["error"] = _("Tick the box to confirm the erasure.")
            return render(request, "leagues/player_erase.html", context, status=400)
        try:
            erased = erasure.erase_player(player, actor=request.user)
        except rights.RightsError as error:
            context["error"] = error.message
            return render(request, "leagues/player_erase.html", context, status=409)
        messages.success(request, _("Erased: the player is now %(name)s.") % {"name": erased.name})
        return redirect("clubhouse:players", request.club.slug)
    return render(request, "leagues/player_erase.html", context)
