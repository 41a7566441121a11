"""A club's players: the list (readers), and for managers renaming, making inactive,
merging two players into one and undoing a merge."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubhouse import players as ledger_players
from clubhouse.forms import MergeForm, RenameForm
from clubs.models import Player
from clubs.permissions import can, club_view
from clubs.services import ClubError, rename_player, set_player_active
from scoresheet.services import LedgerError


@club_view("read")
def player_list(request, slug):
    """Every player of the club with their hands played, first and last evening and
    whether a member's login is linked; managers see the inactive ones and the merges.
    The tournaments' tables are left out of the counts unless ``?tournaments=1``."""
    club = request.club
    may_manage = can(request.user, club, "manage")
    tournaments = request.GET.get("tournaments") == "1"  # the tournaments' tables count too
    players = ledger_players.club_players(club, tournaments=tournaments)
    merged = []
    if may_manage:
        merged = list(
            Player.objects.filter(club=club, merged_into__isnull=False)
            .select_related("merged_into")
            .order_by("sort_key")
        )
    return render(
        request,
        "clubhouse/players.html",
        {
            "club": club,
            "active": [p for p in players if p.is_active],
            "inactive": [p for p in players if not p.is_active] if may_manage else [],
            "merged": merged,
            "may_manage": may_manage,
            "tournaments": tournaments,
        },
    )


def _player(request, player_id):
    return get_object_or_404(Player, club=request.club, pk=player_id)


@club_view("manage")
def player_edit(request, slug, player_id):
    """A player's management page: rename, active or not, merge into another."""
    club = request.club
    player = _player(request, player_id)
    rename = RenameForm(initial={"name": player.name})
    merge = MergeForm(player=player)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "rename":
                rename = RenameForm(request.POST)
                if rename.is_valid():
                    rename_player(player, rename.cleaned_data["name"], actor=request.user)
                    messages.success(request, _("Player renamed."))
                    return redirect("clubhouse:player_edit", club.slug, player.pk)
            elif action in ("deactivate", "activate"):
                set_player_active(player, action == "activate", actor=request.user)
                if action == "activate":
                    messages.success(request, _("The player is active again."))
                else:
                    messages.success(
                        request, _("The player is inactive: left out of the lists to choose from.")
                    )
                return redirect("clubhouse:player_edit", club.slug, player.pk)
            else:
                messages.error(request, _("Nothing was changed."))
        except ClubError as error:
            if error.field == "name":
                rename.add_error("name", error.message)
            else:
                messages.error(request, error.message)
    merge_entry = ledger_players.merge_of(player)
    return render(
        request,
        "clubhouse/player_edit.html",
        {
            "club": club,
            "player": player,
            "rename": rename,
            "merge": merge,
            "merge_entry": merge_entry,
            "undo_blocker": ledger_players.undo_blocker(merge_entry) if merge_entry else None,
        },
    )


@club_view("manage")
@require_POST
def player_merge(request, slug, player_id):
    """Merge this player into the one posted (``into``)."""
    club = request.club
    player = _player(request, player_id)
    form = MergeForm(request.POST, player=player)
    if not form.is_valid():
        messages.error(request, _("Choose the player to merge into."))
        return redirect("clubhouse:player_edit", club.slug, player.pk)
    kept = form.cleaned_data["into"]
    try:
        ledger_players.merge_players(kept, player, actor=request.user)
    except LedgerError as error:
        messages.error(request, error.message)
        return redirect("clubhouse:player_edit", club.slug, player.pk)
    messages.success(
        request,
        _("%(merged)s is merged into %(kept)s. Undo it from the player list if it was a mistake.")
        % {"merged": player.name, "kept": kept.name},
    )
    return redirect("clubhouse:players", club.slug)


@club_view("manage")
@require_POST
def player_unmerge(request, slug, player_id):
    """Undo the merge that made this player part of another."""
    club = request.club
    player = _player(request, player_id)
    try:
        ledger_players.undo_merge(player, actor=request.user)
    except LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("The merge is undone: %(name)s is back.") % {"name": player.name}
        )
    return redirect("clubhouse:players", club.slug)
