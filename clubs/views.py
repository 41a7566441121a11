"""The managers' pages of a club (settings, members, seasons) and "My account".

Every club page goes through ``club_view("manage")``; every object is looked up
through ``request.club`` (another club's → 404); every write is a POST that
calls ``clubs.services`` and lands a refusal on the form field it names.
"""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import invitations, services
from clubs.account_forms import EmailForm, TokenForm
from clubs.accounts import club_creation_allowed
from clubs.forms import (
    AddMemberForm,
    ClubSettingsForm,
    MemberForm,
    SeasonForm,
    add_club_error,
)
from clubs.models import Membership, Role
from clubs.names import display_name, display_names
from clubs.permissions import can, club_view
from clubs.rules_forms import rules_parts
from clubs.services import ClubError
from core.exports import bad_request
from core.idempotency import idempotent, once
from core.text import sort_key

GET_POST = require_http_methods(["GET", "POST"])


# ---------------------------------------------------------------- overview


@club_view("manage")
@GET_POST
def overview(request, slug):
    club = request.club
    form = ClubSettingsForm.for_club(club, request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            services.update_club(
                club, name=form.cleaned_data["name"], is_public=form.is_public, actor=request.user
            )
        except ClubError as error:
            add_club_error(form, error)
        else:
            messages.success(request, _("The club's settings are saved."))
            return redirect("manage:overview", club.slug)
    counts = club.memberships.aggregate(
        members=Count("pk"), managers=Count("pk", filter=Q(role=Role.MANAGER))
    )
    context = {
        "form": form,
        "members": counts["members"],
        "managers": counts["managers"],
        "seasons": club.seasons.regular().count(),
        "section": "overview",
    }
    return render(request, "clubs/manage/overview.html", context)


# ---------------------------------------------------------------- members


@dataclass
class MemberRow:
    membership: Membership
    form: MemberForm
    error: str = ""

    @property
    def has_errors(self) -> bool:
        return bool(self.error or (self.form.is_bound and self.form.errors))

    @property
    def name(self) -> str:
        """The linked player's name, else the login's full name, else its email."""
        return self.membership.display_name


@club_view("manage")
@GET_POST
@idempotent
def members(request, slug):
    club = request.club
    add_form = AddMemberForm(request.POST if request.method == "POST" else None)
    if add_form.is_bound and add_form.is_valid():
        members_url = reverse("manage:members", args=[club.slug])
        try:
            invitation = once(
                request,
                lambda: invitations.invite(
                    club,
                    email=add_form.cleaned_data["email"],
                    role=add_form.cleaned_data["role"],
                    actor=request.user,
                    request=request,
                ),
                url=members_url,
            )
        except ClubError as error:
            add_club_error(add_form, error)
        else:
            values = {"email": invitation.email, "role": invitation.get_role_display()}
            if getattr(invitation, "sent", True):
                text = _("An invitation to join as %(role)s went to %(email)s.")
            else:
                text = _(
                    "The invitation to %(email)s could not be sent: "
                    "try “Send the invitation again” later."
                )
            messages.success(request, text % values)
            return redirect("manage:members", club.slug)
    return _members_page(request, add_form=add_form)


@club_view("manage")
@require_POST
def member_update(request, slug, membership_id):
    """One row of the table: the member's role and the player their login is linked to."""
    membership = _membership(request, membership_id)
    players, linked = _players(request.club)
    form = MemberForm(request.POST, membership=membership, players=players, linked=linked)
    if form.is_valid():
        role, player = form.cleaned_data["role"], form.cleaned_data["player"]
        try:
            services.update_member(membership, role=role, player=player, actor=request.user)
        except ClubError as error:
            add_club_error(form, error)
        else:
            messages.success(request, _("%(user)s is saved.") % {"user": _name(membership)})
            return _back_to_members(request)
    return _members_page(request, bound=form)


@club_view("manage")
@require_POST
def member_remove(request, slug, membership_id):
    membership = _membership(request, membership_id)
    try:
        services.remove_member(membership, actor=request.user)
    except ClubError as error:
        return _members_page(request, row_error=(membership.pk, error.message))
    messages.success(
        request,
        _("%(user)s is no longer a member of the club.") % {"user": _name(membership)},
    )
    return _back_to_members(request)


@club_view("manage")
@require_POST
def invitation(request, slug, invitation_id):
    """A pending invitation: ``action=resend`` (a new link) or ``action=cancel``."""
    invitation = get_object_or_404(
        request.club.invitations.filter(accepted_at__isnull=True), pk=invitation_id
    )
    action = request.POST.get("action")
    try:
        if action == "resend":
            invitations.resend(invitation, actor=request.user, request=request)
            text = _("The invitation went to %(email)s again.")
        elif action == "cancel":
            invitations.cancel(invitation, actor=request.user)
            text = _("The invitation to %(email)s is cancelled.")
        else:
            return bad_request(request)
    except ClubError as error:
        return _members_page(request, invitation_error=(invitation.pk, error.message))
    messages.success(request, text % {"email": invitation.email})
    return redirect("manage:members", request.club.slug)


def _membership(request, membership_id) -> Membership:
    return get_object_or_404(request.club.memberships.select_related("user"), pk=membership_id)


def _name(membership) -> str:
    user = membership.user
    names = display_names(membership.club, [user], fallback=user.email or _("a member"))
    return names[user.pk]


def _players(club):
    players = list(club.players.all())
    return players, {p.pk: p.user_id for p in players if p.user_id is not None}


def _back_to_members(request):
    """The members page; "My account" for a manager who just gave up managing."""
    if not can(request.user, request.club, "manage"):
        return redirect("profile")
    return redirect("manage:members", request.club.slug)


def _members_page(request, *, add_form=None, bound=None, row_error=None, invitation_error=None):
    club = request.club
    players, linked = _players(club)
    by_user = {user_id: p.name for p in players if (user_id := linked.get(p.pk))}
    rows = []
    memberships = list(club.memberships.select_related("user").order_by("user__email", "pk"))
    for membership in memberships:
        user = membership.user
        fallback = user.email or _("a member")
        membership.display_name = display_name(user, by_user.get(user.pk), fallback=fallback)
    for membership in sorted(memberships, key=lambda m: sort_key(m.display_name)):
        if bound is not None and bound.membership.pk == membership.pk:
            form = bound
        else:
            form = MemberForm(membership=membership, players=players, linked=linked)
        error = row_error[1] if row_error and row_error[0] == membership.pk else ""
        rows.append(MemberRow(membership, form, error))
    context = {
        "rows": rows,
        "row_errors": [row for row in rows if row.has_errors],
        "invitations": list(club.invitations.filter(accepted_at__isnull=True)),
        "invitation_error": invitation_error,
        "form": add_form or AddMemberForm(),
        "players_count": len(players),
        "section": "members",
    }
    return render(request, "clubs/manage/members.html", context)


# ---------------------------------------------------------------- seasons


@club_view("manage")
@GET_POST
def seasons(request, slug):
    club = request.club
    # Meta.ordering does not apply to an aggregate: order explicitly, latest first.
    seasons = list(
        club.seasons.regular().annotate(sheet_count=Count("sheets")).order_by("-start_date", "name")
    )
    latest = seasons[0] if seasons else None
    # A new season starts with the house rules of the latest one.
    form = SeasonForm(
        request.POST if request.method == "POST" else None,
        rules=latest.rules if latest else None,
        ranking=latest.ranking if latest else None,
    )
    if _create_season(request, club, form):
        return redirect("manage:seasons", club.slug)
    for season in seasons:
        season.rules_summary = rules_parts(season.rules)
    context = {
        "seasons": seasons,
        "form": form,
        "section": "seasons",
        "open_form": form.is_bound or not seasons,
    }
    return render(request, "clubs/manage/seasons.html", context)


def _season_fields(form) -> dict:
    """What a valid SeasonForm gives ``create_season`` and ``update_season``."""
    return {
        name: form.cleaned_data[name]
        for name in ("name", "start_date", "end_date", "rules", "ranking")
    }


def _create_season(request, club, form) -> bool:
    """Create the season a bound, valid SeasonForm describes (the seasons page and a
    new club's welcome): True once created and said, False with the form's errors."""
    if not (form.is_bound and form.is_valid()):
        return False
    try:
        season = services.create_season(club, **_season_fields(form), actor=request.user)
    except ClubError as error:
        add_club_error(form, error, SeasonForm.ERROR_FIELDS)
        return False
    messages.success(request, _("Season %(name)s created.") % {"name": season.name})
    return True


@club_view("manage")
@GET_POST
def season_edit(request, slug, season_id):
    club = request.club
    seasons = club.seasons.regular().annotate(sheet_count=Count("sheets"))
    season = get_object_or_404(seasons, pk=season_id)
    form = SeasonForm(request.POST if request.method == "POST" else None, season=season)
    if form.is_bound and form.is_valid():
        try:
            season = services.update_season(season, **_season_fields(form), actor=request.user)
        except ClubError as error:
            add_club_error(form, error, SeasonForm.ERROR_FIELDS)
        else:
            messages.success(request, _("Season %(name)s saved.") % {"name": season.name})
            return redirect("manage:season", club.slug, season.pk)
    context = {
        "season": season,
        "form": form,
        "rules_summary": rules_parts(season.rules),
        "section": "seasons",
    }
    return render(request, "clubs/manage/season.html", context)


# ---------------------------------------------------------------- a new club's first steps


@club_view("manage")
@GET_POST
def welcome(request, slug):
    """A new club walked through its start: its first season with house rules and
    ranking (the season form, started at this year), then members and the first sheet."""
    club = request.club
    season = club.seasons.regular().newest_first().first()
    form = None
    if season is None:
        today = timezone.localdate()
        form = SeasonForm(
            request.POST if request.method == "POST" else None,
            initial={"name": str(today.year), "start_date": today},
        )
        if _create_season(request, club, form):
            return redirect("manage:welcome", club.slug)
    elif request.method == "POST":
        return redirect("manage:welcome", club.slug)
    context = {
        "form": form,
        "season": season,
        "rules_summary": rules_parts(season.rules) if season else [],
        "members": club.memberships.count(),
        "has_sheet": club.sheets.exists(),
        "section": "overview",
    }
    return render(request, "clubs/manage/welcome.html", context)


# ---------------------------------------------------------------- my account


@login_required
def profile(request):
    """Any logged-in user: their email address (``clubs.account_views.email_change``
    sets a new one), their clubs, role and linked player in each."""
    return profile_page(request)


def profile_page(request, *, email_form=None, token_form=None, new_token=None, status=200):
    user = request.user
    players = {p.club_id: p for p in user.players.all()}
    clubs = []
    for membership in user.memberships.select_related("club").order_by("club__name"):
        clubs.append(
            {
                "club": membership.club,
                "role": membership.get_role_display(),
                "is_manager": membership.role == Role.MANAGER,
                "player": players.get(membership.club_id),
            }
        )
    context = {
        "clubs": clubs,
        "email_form": email_form or EmailForm(),
        "can_create_club": club_creation_allowed(user),
        # personal API tokens (clubs.tokens): the live ones, and the one just made,
        # whose text is shown this once
        "tokens": list(user.api_tokens.live().select_related("club")),
        "token_form": token_form or TokenForm(user=user),
        "new_token": new_token,
    }
    return render(request, "clubs/manage/profile.html", context, status=status)
