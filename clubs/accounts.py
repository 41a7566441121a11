"""Getting started without a shell: sign up, confirm an email address, create a club.

* ``sign_up``: a new login, inactive until its owner follows the link mailed to
  the address given; ``confirm_sign_up`` activates it and sets that address.
  Only when the operator allows it (``settings.ALLOW_SIGNUP``).
* ``request_email`` / ``confirm_email``: a member sets their address in
  My account; it is set only once confirmed from the link mailed to it (so a
  password reset always goes to an address its owner reads).
* ``create_club``: a logged-in user creates a club and becomes its manager
  (``settings.ALLOW_CLUB_CREATION``); the club is then walked through its first
  season (``clubs.views.welcome``).

Links are signed (``django.core.signing``, salted per use) and expire after
``LINK_DAYS``; an email link names the address it confirms and the address it
replaces, so it dies once the address changed. An address another login uses
is refused (``email_taken``) only when its owner confirms it: nobody learns
which addresses have a login. Each function raises ``AccountError`` (a
``ServiceError`` with a ``code``) and writes nothing when it refuses.

Codes: ``signup_closed``, ``club_creation_closed``, ``username_invalid``,
``username_taken``, ``email_invalid``, ``email_taken``, ``email_same``,
``link_invalid``, ``link_expired``, ``mail_failed``, and the club name's
``name_required`` / ``name_too_long``.
"""

import datetime
import logging

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club, Membership, Role
from clubs.services import _forget_roles, absolute_link, mail
from core.errors import ServiceError

log = logging.getLogger("clubs.accounts")

LINK_DAYS = 3
SIGNUP_SALT = "tarot-ledger.signup"
EMAIL_SALT = "tarot-ledger.email"
#: club slugs that would read as a page of the site rather than a club
RESERVED_SLUGS = {"new", "admin", "accounts", "static"}
#: The session key holding the login signed up but not confirmed that just tried to log
#: in with its right password (``pending_sign_up``): ``resend_sign_up``'s page reads it.
PENDING_SESSION_KEY = "signup-pending"


class AccountError(ServiceError):
    pass


# ---------------------------------------------------------------- sign up


def sign_up(username: str, email: str, password: str, *, request=None):
    """An inactive login; the confirmation link goes to ``email``. Returns the user."""
    if not signup_allowed():
        raise AccountError("signup_closed", _("This site does not take new accounts."))
    User = get_user_model()
    username = (username or "").strip()
    field = User._meta.get_field("username")
    try:
        field.run_validators(username)
        if not username:
            raise ValidationError("empty")
    except ValidationError:
        raise AccountError(
            "username_invalid",
            _("Letters, digits and @ . + - _ only, at most %(n)d characters.")
            % {"n": field.max_length},
            "username",
        ) from None
    email = _email(email)
    user = User(username=username, email="", is_active=False)
    try:
        password_validation.validate_password(password, User(username=username, email=email))
    except ValidationError as error:
        raise AccountError("password_invalid", " ".join(error.messages), "password1") from None
    user.set_password(password)
    taken = AccountError("username_taken", _("This username is taken: choose another."), "username")
    try:
        with transaction.atomic():  # the login and its mail, or neither
            # a sign-up never confirmed frees its username once its link has expired
            cutoff = timezone.now() - datetime.timedelta(days=LINK_DAYS)
            User.objects.filter(
                username__iexact=username,
                is_active=False,
                last_login__isnull=True,
                date_joined__lt=cutoff,
                memberships__isnull=True,
            ).delete()
            if User.objects.filter(username__iexact=username).exists():
                raise taken
            user.save()
            token = signing.dumps({"u": user.pk, "e": email}, salt=SIGNUP_SALT)
            _mail(
                "registration/signup",
                email,
                {
                    "user": user,
                    "link": absolute_link(request, reverse("signup_confirm", args=[token])),
                },
            )
    except IntegrityError:
        raise taken from None
    log.info("sign-up of %s", username)
    return user


def confirm_sign_up(token: str):
    """Activate the login the link names and give it the address; returns the user."""
    data = _load(token, SIGNUP_SALT)
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=data.get("u")).first()
        if user is None or user.is_active or user.last_login is not None:
            raise AccountError("link_invalid", _("This link has been used or is not valid."))
        email = _email(data.get("e"))
        _free(email, user)
        user.email = email
        user.is_active = True
        user.save(update_fields=["email", "is_active"])
    return user


def pending_sign_up(username: str, password: str):
    """The login signed up as ``username`` with ``password`` and not confirmed yet (its
    link never opened), else ``None``: the login page then says to open the link."""
    if not username or not password:
        return None
    User = get_user_model()
    user = User.objects.filter(
        username=username, is_active=False, last_login__isnull=True, email=""
    ).first()
    if user is None or not user.check_password(password):
        return None
    return user


def resend_sign_up(user_id, email: str, *, request=None):
    """Mail the confirmation link of a login not confirmed yet again, to ``email`` (the
    owner types it again: the address is not kept until confirmed). Returns the address."""
    User = get_user_model()
    user = User.objects.filter(
        pk=user_id, is_active=False, last_login__isnull=True, email=""
    ).first()
    if user is None:
        raise AccountError("link_invalid", _("This login is confirmed already: log in."))
    email = _email(email)
    token = signing.dumps({"u": user.pk, "e": email}, salt=SIGNUP_SALT)
    link = absolute_link(request, reverse("signup_confirm", args=[token]))
    _mail("registration/signup", email, {"user": user, "link": link})
    log.info("sign-up link sent again for %s", user.get_username())
    return email


# ---------------------------------------------------------------- my email


def request_email(user, email: str, *, request=None) -> str:
    """Mail a confirmation link to the address ``user`` wants; returns the address."""
    email = _email(email)
    if email.lower() == (user.email or "").lower():
        raise AccountError("email_same", _("This is already your address."), "email")
    token = signing.dumps({"u": user.pk, "e": email, "o": user.email or ""}, salt=EMAIL_SALT)
    _mail(
        "registration/email_confirm",
        email,
        {"user": user, "link": absolute_link(request, reverse("email_confirm", args=[token]))},
    )
    return email


def email_link_target(token: str):
    """(user, email) a confirmation link names; ``AccountError`` when it is not valid."""
    data = _load(token, EMAIL_SALT)
    user = get_user_model().objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None or (user.email or "") != data.get("o"):
        raise AccountError("link_invalid", _("This link has been used or is not valid."))
    return user, _email(data.get("e"))


def confirm_email(token: str):
    """Set the address the link confirms; returns the user."""
    user, email = email_link_target(token)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if (user.email or "") != signing.loads(token, salt=EMAIL_SALT).get("o"):
            raise AccountError("link_invalid", _("This link has been used or is not valid."))
        _free(email, user)
        user.email = email
        user.save(update_fields=["email"])
    log.info("%s confirmed a new email address", user)
    return user


# ---------------------------------------------------------------- a new club


def signup_allowed() -> bool:
    """Whether the operator lets visitors sign up (``DJANGO_ALLOW_SIGNUP``)."""
    return bool(getattr(settings, "ALLOW_SIGNUP", False))


def club_creation_allowed(user) -> bool:
    """Whether ``user`` may create a club: the operator allows it, or a superuser."""
    return user.is_authenticated and (
        bool(getattr(settings, "ALLOW_CLUB_CREATION", False)) or user.is_superuser
    )


def create_club(name: str, *, is_public: bool = True, actor) -> Club:
    """A club with ``actor`` as its manager (``club_creation_closed`` unless allowed;
    a superuser always may). The slug comes from the name, made unique."""
    if not club_creation_allowed(actor):
        raise AccountError("club_creation_closed", _("This site does not take new clubs."))
    name = " ".join((name or "").split())
    if not name:
        raise AccountError("name_required", _("Give it a name."), "name")
    max_length = Club._meta.get_field("name").max_length
    if len(name) > max_length:
        raise AccountError(
            "name_too_long", _("At most %(n)d characters.") % {"n": max_length}, "name"
        )
    base = slugify(name)[:50] or "club"
    if base in RESERVED_SLUGS:
        base = f"{base}-club"
    with transaction.atomic():
        slug, n = base, 1
        while Club.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
        club = Club.objects.create(name=name, slug=slug, is_public=bool(is_public))
        membership = Membership.objects.create(club=club, user=actor, role=Role.MANAGER)
        audit.record(
            club,
            actor,
            audit.Action.MEMBER_ADDED,
            membership,
            label=actor.get_username(),
            after={"user": actor.get_username(), "role": Role.MANAGER, "created_club": name},
        )
    _forget_roles(actor)
    log.info("%s created the club %s", actor, slug)
    return club


# ---------------------------------------------------------------- internals


def _email(value) -> str:
    email = " ".join(str(value or "").split())
    try:
        validate_email(email)
    except ValidationError:
        raise AccountError(
            "email_invalid", _("This is not a valid email address."), "email"
        ) from None
    if len(email) > 254:
        raise AccountError("email_invalid", _("This is not a valid email address."), "email")
    return email


def _free(email: str, user) -> None:
    """Refuse an address another login uses (a password reset would reach both)."""
    others = get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk)
    if others.exists():
        raise AccountError(
            "email_taken",
            _("Another login uses this address: log in with it, or reset its password."),
            "email",
        )


def _load(token: str, salt: str) -> dict:
    try:
        data = signing.loads(str(token), salt=salt, max_age=LINK_DAYS * 86400)
    except signing.SignatureExpired:
        raise AccountError("link_expired", _("This link has expired: ask for a new one.")) from None
    except signing.BadSignature:
        raise AccountError("link_invalid", _("This link has been used or is not valid.")) from None
    if not isinstance(data, dict):
        raise AccountError("link_invalid", _("This link has been used or is not valid."))
    return data


def _mail(template: str, email: str, context: dict) -> None:
    context = {**context, "days": LINK_DAYS, "email": email}
    if not mail(f"{template}_subject.txt", f"{template}_email.txt", context, email):
        raise AccountError("mail_failed", _("The email could not be sent: try again later."))
