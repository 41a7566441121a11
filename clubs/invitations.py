"""Invitations to a club: the only way a manager adds a member from the web.

A manager types an email address and a role (``invite``): nothing is learnt
about any login, nobody is added. The owner of the address opens the mailed
link and accepts (``accept``): with the login they are logged in as, or,
anonymous and with an address no login uses, with a new login whose password
they choose then. The membership is written on acceptance. Each function is
one transaction and raises ``ClubError`` with a ``code``: ``forbidden``,
``email_invalid``, ``role_invalid``, ``already_member``, ``mail_failed``,
``invitation_invalid`` (unknown, used or expired link), ``login_required`` (the
address has a login: log in first).
"""

import hashlib
import logging
import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club, Invitation, Membership, Role
from clubs.permissions import require
from clubs.services import (
    ClubError,
    _check_role,
    _forget_roles,
    _lock,
    absolute_link,
    free_username,
    mail,
)

log = logging.getLogger("clubs.audit")
EMAIL_MAX = Invitation._meta.get_field("email").max_length


def token_hash(token: str) -> str:
    return hashlib.sha256(str(token).encode("utf-8", "replace")).hexdigest()


def invite(club: Club, *, email: str, role: str = Role.MEMBER, actor, request=None) -> Invitation:
    """Invite ``email`` to the club as ``role`` and mail the link; returns the invitation,
    whose ``sent`` says whether the mail left (a mail server down is logged, not raised:
    ``resend`` tries again). A pending invitation of the same address is renewed."""
    require(actor, club, "manage", ClubError)
    _check_role(role)
    email = _email(email)
    User = get_user_model()
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        club = _lock(club)
        members = User.objects.filter(email__iexact=email, memberships__club=club)
        if members.exists():
            raise ClubError("already_member", _("This address is a member's already."), "email")
        invitation = club.invitations.pending().filter(email__iexact=email).first()
        if invitation is None:
            invitation = Invitation(club=club, email=email)
        invitation.role = role
        invitation.invited_by = audit.actor_of(actor)
        invitation.token_hash = token_hash(token)
        invitation.created_at = timezone.now()
        invitation.save()
        audit.record(
            club, actor, audit.Action.INVITATION_SENT, invitation, label=email, after={"role": role}
        )
    invitation.sent = _mail(invitation, token, request)
    log.info("%s invited %s to %s as %s", actor, email, club.slug, role)
    return invitation


def resend(invitation: Invitation, *, actor, request=None) -> Invitation:
    """A new link (the old one stops working) for a pending or expired invitation."""
    require(actor, invitation.club, "manage", ClubError)
    if invitation.accepted_at is not None:
        raise ClubError("invitation_invalid", _("This invitation is accepted already."))
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        invitation.token_hash = token_hash(token)
        invitation.created_at = timezone.now()
        invitation.save(update_fields=["token_hash", "created_at"])
        audit.record(
            invitation.club_id,
            actor,
            audit.Action.INVITATION_RESENT,
            invitation,
            label=invitation.email,
        )
    if not _mail(invitation, token, request):
        raise ClubError("mail_failed", _("The email could not be sent: try again later."))
    return invitation


def cancel(invitation: Invitation, *, actor) -> None:
    require(actor, invitation.club, "manage", ClubError)
    if invitation.accepted_at is not None:
        raise ClubError("invitation_invalid", _("This invitation is accepted already."))
    with transaction.atomic():
        audit.record(
            invitation.club_id,
            actor,
            audit.Action.INVITATION_CANCELLED,
            invitation,
            label=invitation.email,
            before={"role": invitation.role},
        )
        invitation.delete()


def find(token) -> Invitation | None:
    """The pending invitation of a link's token, or None (unknown, used or expired)."""
    if not token or len(str(token)) > 100:
        return None
    return (
        Invitation.objects.pending()
        .select_related("club", "invited_by")
        .filter(token_hash=token_hash(token))
        .first()
    )


def needs_login(invitation: Invitation) -> bool:
    """Whether a login uses the invited address (its owner accepts after logging in)."""
    return get_user_model().objects.filter(email__iexact=invitation.email).exists()


def accept(token, *, user=None, password=None) -> Membership:
    """Accept the invitation of ``token``: as ``user`` (logged in), or, with ``password``,
    as a new login for the invited address. Returns the membership (already one: kept,
    its role untouched). The new login's username comes from the address."""
    User = get_user_model()
    with transaction.atomic():
        invitation = find(token)
        if invitation is None:
            raise ClubError("invitation_invalid", _("This invitation link is not valid any more."))
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.accepted_at is not None:
            raise ClubError("invitation_invalid", _("This invitation link is not valid any more."))
        if user is None or not user.is_authenticated:
            if needs_login(invitation):
                raise ClubError("login_required", _("This address has a login: log in to accept."))
            user = User(username=free_username(invitation.email), email=invitation.email)
            user.set_password(password)
            user.save()
        club = _lock(invitation.club)
        membership = Membership.objects.filter(club=club, user=user).first()
        if membership is None:
            membership = Membership.objects.create(club=club, user=user, role=invitation.role)
            audit.record(
                club,
                user,
                audit.Action.MEMBER_ADDED,
                membership,
                label=invitation.email,
                after={"email": invitation.email, "role": invitation.role, "invited": True},
            )
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
    _forget_roles(user)
    log.info("%s accepted the invitation to %s", invitation.email, club.slug)
    return membership


def _email(value) -> str:
    email = str(value or "").strip()
    if not email:
        raise ClubError("email_invalid", _("Enter an email address."), "email")
    if len(email) > EMAIL_MAX:
        raise ClubError("email_invalid", _("At most %(n)d characters.") % {"n": EMAIL_MAX}, "email")
    try:
        validate_email(email)
    except ValidationError:
        raise ClubError("email_invalid", _("This is not a valid email address."), "email") from None
    return email


def _mail(invitation: Invitation, token: str, request) -> bool:
    path = reverse("invitation", args=[token])
    link = absolute_link(request, path)
    by = invitation.invited_by
    context = {
        "club": invitation.club,
        "role": invitation.get_role_display(),
        "by": by.get_full_name() if by is not None else "",
        "link": link,
        "days": Invitation.LIFETIME.days,
    }
    # a mail server down must not undo the invitation: False, and ``resend`` tries again
    return mail(
        "clubs/manage/invitation_subject.txt",
        "clubs/manage/invitation_link_email.txt",
        context,
        invitation.email,
    )
