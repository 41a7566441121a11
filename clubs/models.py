"""Clubs, their players and seasons (with the club's house rules)."""

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import pages
from core.text import SORT_KEY_LENGTH, sort_key
from tarot.jsonformat import parse_rules


def default_rules():
    return {"preset": "fft"}


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Anyone may read the standings and sheets of a public club."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return pages.url("club_home", self.slug)


class Person(models.Model):
    """A licensed player across clubs: one person, the player records of several clubs.

    Linking a club's ``Player`` to a person merges nothing: each club keeps its own
    ledger; the person's page (``leagues``) reads every linked club's stored totals
    together. ``licence`` is the federation's licence number (unique when given);
    ``serie`` the person's category (Open, 1ère, 2ème, Promotion or a league's own);
    ``user`` the login that is this person, once they claimed it.
    """

    name = models.CharField(_("name"), max_length=80)
    licence = models.CharField(_("licence"), max_length=20, null=True, blank=True, unique=True)
    serie = models.CharField(_("série"), max_length=30, blank=True)
    sort_key = models.CharField(max_length=SORT_KEY_LENGTH, editable=False, default="")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="person",
        verbose_name=_("login"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["sort_key", "name"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")

    def __str__(self):
        return f"{self.name} ({self.licence})" if self.licence else self.name

    def save(self, *args, **kwargs):
        self.sort_key = sort_key(self.name)
        if not self.licence:
            self.licence = None
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "sort_key"}
        super().save(*args, **kwargs)


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=80)
    #: the name without accents or case (``core.text.sort_key``), filled on save: lists
    #: of players order by it, so "Élodie" comes before "Zoë" on every database
    sort_key = models.CharField(max_length=SORT_KEY_LENGTH, editable=False, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("login"),
    )
    #: an inactive player is left out of the pickers (opening a sheet, linking a login)
    #: and kept everywhere else: their hands, totals and statistics stay
    is_active = models.BooleanField(_("active"), default=True)
    #: set when the player was merged into another (``clubhouse.players.merge_players``):
    #: their seats, hands and score rows moved there; cleared by undoing the merge
    merged_into = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("merged into"),
    )
    #: the person this record is (``Person``), across clubs; linking merges nothing
    person = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("person"),
    )
    #: a guest's record in this club (a team match's away player, a guest found across
    #: a league): it does not make its person a player of this club, and the club's
    #: lists of players leave it out (``clubs.visibility``)
    is_guest = models.BooleanField(_("guest"), default=False)

    class Meta:
        ordering = ["sort_key", "name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            models.UniqueConstraint(fields=["club", "user"], name="one_player_per_user_in_club"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.sort_key = sort_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "sort_key"}
        super().save(*args, **kwargs)


def season_covering(seasons, date):
    """Of ``seasons`` (newest first), the one covering ``date``, else the newest; or None.

    When several seasons cover the date, the latest starting wins.
    """
    seasons = list(seasons)
    for season in seasons:
        if season.start_date <= date and (season.end_date is None or season.end_date >= date):
            return season
    return seasons[0] if seasons else None


class SeasonQuerySet(models.QuerySet):
    def regular(self):
        """The club's seasons proper: a tournament's own season stays out of club pages."""
        return self.filter(kind=Season.Kind.SEASON)

    def newest_first(self):
        """The latest start first (the latest created first on the same day)."""
        return self.order_by("-start_date", "-pk")

    def covering(self, date):
        """The season covering ``date`` (the latest starting, if several), else the newest
        season; None when there is none. One query."""
        return season_covering(self.newest_first(), date)


def current_season(club, today=None, seasons=None):
    """The club's season covering today (the latest starting, if several), else the latest one.

    ``seasons``: the club's seasons already fetched, newest first (saves a query).
    """
    today = today or timezone.localdate()
    if seasons is None:
        return club.seasons.regular().covering(today)
    return season_covering(seasons, today)


class Season(models.Model):
    """A club's season, with its house rules; or the season a tournament keeps its sheets in.

    A tournament's sheets and totals use the same ledger as club evenings, in a
    season of their own (``kind`` tournament), which club standings and
    statistics leave out.
    """

    class Kind(models.TextChoices):
        SEASON = "season", _("season")
        TOURNAMENT = "tournament", _("tournament")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.SEASON)
    name = models.CharField(_("name"), max_length=80)
    start_date = models.DateField(_("start"))
    end_date = models.DateField(_("end"), null=True, blank=True)
    rules = models.JSONField(
        _("house rules"),
        default=default_rules,
        help_text=_("A preset and options, as in the hand format."),
    )
    #: How the season's standings rank the players (``clubs.ranking_rule``): by total
    #: (empty, the default), by average per hand or per evening, by placement points
    #: per evening; optionally only the best N evenings, and a minimum attendance.
    ranking = models.JSONField(_("ranking"), default=dict, blank=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
        ]

    def __str__(self):
        return self.name

    @property
    def ruleset(self):
        return parse_rules(self.rules)


class Role(models.TextChoices):
    MANAGER = "manager", _("manager")
    SCORER = "scorer", _("scorer")
    MEMBER = "member", _("member")


class Membership(models.Model):
    """A login's role in a club: manager ⊃ scorer ⊃ member."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club"),
        ]

    def __str__(self):
        return f"{self.user} — {self.club} ({self.get_role_display()})"


class AuditEntry(models.Model):
    """One change to a club's data: who, when, what, and the object before and after.

    Written in the transaction of the change by every service that changes
    something (``clubs.audit.record``): members, roles, linked players, the
    club's settings, seasons and their house rules, players, sheets, tournaments;
    and by the club's data moving in and out: uploads, backups, restores. Changes to
    hands are ``scoresheet.models.HandRevision``; the managers' history page
    shows both.
    """

    class Action(models.TextChoices):
        MEMBER_ADDED = "member_added", _("member added")
        ROLE_CHANGED = "role_changed", _("role changed")
        MEMBER_REMOVED = "member_removed", _("member removed")
        PLAYER_LINKED = "player_linked", _("login linked to a player")
        CLUB_UPDATED = "club_updated", _("club settings changed")
        SEASON_CREATED = "season_created", _("season created")
        SEASON_UPDATED = "season_updated", _("season changed")
        PLAYER_CREATED = "player_created", _("player created")
        SHEET_CREATED = "sheet_created", _("sheet opened")
        PLAYER_RENAMED = "player_renamed", _("player renamed")
        PLAYER_ACTIVE = "player_active", _("player made active or inactive")
        PLAYERS_MERGED = "players_merged", _("players merged")
        MERGE_UNDONE = "merge_undone", _("merge undone")
        SHEET_UPDATED = "sheet_updated", _("sheet changed")
        SHEET_DELETED = "sheet_deleted", _("sheet deleted")
        SHEET_RESTORED = "sheet_restored", _("sheet restored")
        SHEET_CLOSED = "sheet_closed", _("sheet closed")
        SHEET_REOPENED = "sheet_reopened", _("sheet reopened")
        NOTE_CHANGED = "note_changed", _("note changed")
        SHEETS_UPLOADED = "sheets_uploaded", _("sheets uploaded")
        BACKUP_DOWNLOADED = "backup_downloaded", _("backup downloaded")
        CLUB_RESTORED = "club_restored", _("club restored from a backup")
        TOURNAMENT_CREATED = "tournament_created", _("tournament created")
        ENTRIES_REGISTERED = "entries_registered", _("players entered")
        ENTRY_WITHDRAWN = "entry_withdrawn", _("player withdrawn")
        ROUND_DRAWN = "round_drawn", _("round drawn")
        PLAYERS_SWAPPED = "players_swapped", _("players swapped")
        ROUND_STARTED = "round_started", _("round started")
        ROUND_CLOSED = "round_closed", _("round closed")
        TABLE_CONFIRMED = "table_confirmed", _("table confirmed")
        TABLE_REOPENED = "table_reopened", _("table sent back")
        LINK_REVOKED = "link_revoked", _("table link replaced")
        SCORE_ADJUSTED = "score_adjusted", _("score adjusted by the arbitre")
        TOURNAMENT_CLOSED = "tournament_closed", _("tournament closed")
        DEAL_CANCELLED = "deal_cancelled", _("deal cancelled by the arbitre")
        ARBITRAL_SCORE = "arbitral_score", _("arbitral score")
        DECISION_REMOVED = "decision_removed", _("arbitre's decision removed")
        ETUIS_DEALT = "etuis_dealt", _("how the étuis are dealt")
        LEAGUE_JOINED = "league_joined", _("club joined a league")
        LEAGUE_EVENT = "league_event", _("tournament counted in a league")
        PERSON_LINKED = "person_linked", _("player linked to a licensed person")
        PERSON_CHANGED = "person_changed", _("licensed person's licence or série changed")
        CLAIM_MADE = "claim_made", _("player claimed by a login")
        CLAIM_ACCEPTED = "claim_accepted", _("claim confirmed")
        CLAIM_REFUSED = "claim_refused", _("claim refused")
        TOKEN_CREATED = "token_created", _("API token created")
        TOKEN_REVOKED = "token_revoked", _("API token revoked")
        TABLE_CLAIMED = "table_claimed", _("table claimed by a phone")
        TABLE_TAKEN_OVER = "table_taken_over", _("table taken over by another phone")
        DATA_DOWNLOADED = "data_downloaded", _("personal data downloaded")
        PLAYER_ERASED = "player_erased", _("former player erased at their request")
        INVITATION_SENT = "invitation_sent", _("invitation sent")
        INVITATION_RESENT = "invitation_resent", _("invitation sent again")
        INVITATION_CANCELLED = "invitation_cancelled", _("invitation cancelled")
        TOURNAMENT_UPDATED = "tournament_updated", _("tournament settings changed")
        TEAM_REGISTERED = "team_registered", _("tournament team entered")
        LEAGUE_INVITED = "league_invited", _("club invited to a league")
        LEAGUE_DECLINED = "league_declined", _("league invitation declined")
        LEAGUE_INVITATION_CANCELLED = "league_uninvited", _("league invitation cancelled")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    action = models.CharField(_("change"), max_length=20, choices=Action.choices)
    object_type = models.CharField(max_length=20)  # "membership", "club", "season", …
    object_id = models.BigIntegerField(null=True, blank=True)
    object_label = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=["club", "-at"], name="audit_club_at")]

    def __str__(self):
        return f"{self.club_id} {self.action} {self.object_label}"


class InvitationQuerySet(models.QuerySet):
    def pending(self):
        """Neither accepted nor expired: the link still works."""
        cutoff = timezone.now() - Invitation.LIFETIME
        return self.filter(accepted_at__isnull=True, created_at__gte=cutoff)


class Invitation(models.Model):
    """An email address invited to a club with a role, until its owner accepts.

    The link mailed carries a random token; only its SHA-256 is stored. The
    membership is written when the invitation is accepted (by a login that
    exists, or one made for the address then), never before: a pending
    invitation counts nowhere.
    """

    LIFETIME = datetime.timedelta(days=14)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("email"))
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self):
        return f"{self.email} — {self.club}"

    @property
    def expired(self) -> bool:
        return self.created_at < timezone.now() - self.LIFETIME


class ApiTokenQuerySet(models.QuerySet):
    def live(self):
        """Not revoked: the token still opens the API."""
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A personal API token (``api``): one user's, for one club, to read or to write.

    The token is shown once, when it is made (``clubs.tokens.create_token``); only its
    SHA-256 is stored (the token is 32 random bytes: a slow hash adds nothing), with
    its first characters to tell tokens apart on My account. It acts as its user with
    the role they hold in the club at each request (``clubs.permissions``), and never
    beyond its scope: a "read" token writes nothing, whatever its user's role.
    """

    class Scope(models.TextChoices):
        READ = "read", _("read")
        WRITE = "write", _("read and write")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    scope = models.CharField(_("scope"), max_length=5, choices=Scope.choices, default=Scope.READ)
    prefix = models.CharField(max_length=12)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    # The API's throttle (``clubs.tokens.hit``): requests counted since ``window_start``
    # (also when the token was last used).
    window_start = models.DateTimeField(null=True, blank=True, editable=False)
    hits = models.PositiveIntegerField(default=0, editable=False)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"

    @property
    def can_write(self) -> bool:
        return self.scope == self.Scope.WRITE
