"""Leagues: clubs playing a common season, its events and the ranking over them.

A league (a comité, a ligue, friendly clubs) has member clubs (invited by a league
manager, member once the club's manager accepts), managers, séries, seasons. A season
has a placement scale (``leagues.scales``), counts the best N events, and marks a
qualification line (the first K of each série). A club's closed tournament counts
as an event of a season (``LeagueEvent``, with a coefficient) once a manager of
that club registers it; its per-person results (``EventResult``) are stored when
the event is counted or when the tournament closes (``leagues.receivers``), and the
ranking sums them (``leagues.season_standings``): it never reads a ledger.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Person, Player
from tournaments.models import Tournament

#: The FFT's séries, a league's default categories.
DEFAULT_SERIES = ["Open", "1ère", "2ème", "Promotion"]


def default_series():
    return list(DEFAULT_SERIES)


def default_scale():
    return {"kind": "proportional", "points": 100}


class League(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Anyone may read the ranking and results of a public league."),
    )
    #: the league's categories, in order (a person's ``serie`` outside it ranks overall only)
    series = models.JSONField(_("séries"), default=default_series)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("leagues:home", args=[self.slug])


class LeagueManager(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="managers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_league_manager_row"),
        ]

    def __str__(self):
        return f"{self.user} — {self.league}"


class LeagueClub(models.Model):
    """A club invited to a league; a member once its manager accepted."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="club_links")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="league_links")
    invited_at = models.DateTimeField(_("invited"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("joined"), null=True, blank=True)
    #: a members-only club lets the league's pages name its players (a public club's are
    #: named anyway)
    names_players = models.BooleanField(_("the league may name our players"), default=False)

    class Meta:
        ordering = ["league", "club__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "club"], name="one_league_club_row"),
        ]

    def __str__(self):
        return f"{self.club} — {self.league}"

    @property
    def is_member(self) -> bool:
        return self.accepted_at is not None


class LeagueSeason(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    start_date = models.DateField(_("start"))
    end_date = models.DateField(_("end"), null=True, blank=True)
    #: placement points per event (``leagues.scales``)
    scale = models.JSONField(_("placement scale"), default=default_scale)
    best_events = models.PositiveSmallIntegerField(
        _("events counted"), null=True, blank=True, help_text=_("Empty: every event counts.")
    )
    qualified = models.PositiveSmallIntegerField(_("qualified per série"), null=True, blank=True)

    class Meta:
        ordering = ["league", "-start_date"]
        verbose_name = _("league season")
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="league_season_name_unique"),
        ]

    def __str__(self):
        return f"{self.league} — {self.name}"


class LeagueEvent(models.Model):
    """A club tournament counted in a league season, with its coefficient."""

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="league_events"
    )
    coefficient = models.DecimalField(_("coefficient"), max_digits=5, decimal_places=2, default=1)
    #: withdrawn from the season: its results stay stored and count no more
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    #: the field (entries ranked) when its results were stored
    field_size = models.PositiveIntegerField(default=0)
    results_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "tournament__date", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="one_event_per_season"),
        ]
        indexes = [models.Index(fields=["tournament"], name="league_event_tournament")]

    def __str__(self):
        return str(self.tournament)


class EventResult(models.Model):
    """One entry's result in a league event, stored once when the event's results are:
    its rank, the placement points of the scale and those points × the coefficient."""

    event = models.ForeignKey(LeagueEvent, on_delete=models.CASCADE, related_name="results")
    #: denormalised for the ranking's one scan of a season's results
    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="league_results"
    )
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(max_length=80)
    rank = models.PositiveIntegerField()
    total = models.DecimalField(max_digits=10, decimal_places=1, null=True)
    points = models.DecimalField(max_digits=10, decimal_places=3)
    weighted = models.DecimalField(max_digits=12, decimal_places=3)
    #: the weighted points exactly, a fraction as text ("100/3"): what the sums add up
    #: (``points`` and ``weighted`` are rounded, to show)
    exact = models.TextField(default="0")

    class Meta:
        ordering = ["event", "rank", "name"]
        indexes = [
            models.Index(fields=["season", "person"], name="league_result_season_person"),
            models.Index(fields=["person"], name="league_result_person"),
        ]

    def __str__(self):
        return f"{self.event} {self.rank}. {self.name}"


class LinkClaim(models.Model):
    """A login claims a club's player as theirs: linked to their person once the club's
    manager confirms."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "user"], name="one_claim_per_player_user"),
        ]

    def __str__(self):
        return f"{self.user} → {self.player}"


class LeagueAuditEntry(models.Model):
    """A change to a league (its clubs, seasons, scales, séries, events, links): who,
    when, what (``clubs.models.AuditEntry`` keeps a club's side). The league's managers
    read them on the league's history page."""

    class Action(models.TextChoices):
        LEAGUE_CREATED = "league_created", _("league created")
        SERIES_CHANGED = "series_changed", _("séries changed")
        CLUB_INVITED = "club_invited", _("club invited")
        CLUB_JOINED = "club_joined", _("club joined")
        CLUB_LEFT = "club_left", _("club left the league")
        SEASON_SAVED = "season_saved", _("season saved")
        EVENT_ADDED = "event_added", _("event counted")
        COEFFICIENT_CHANGED = "coefficient_changed", _("coefficient changed")
        EVENT_WITHDRAWN = "event_withdrawn", _("event withdrawn")
        PLAYER_LINKED = "player_linked", _("player linked by licence")
        CLAIM_ACCEPTED = "claim_accepted", _("player linked by a confirmed claim")
        PERSON_CHANGED = "person_changed", _("licence or série changed")
        LICENCES_IMPORTED = "licences_imported", _("licence list imported")
        # the league's team competitions (competitions.services)
        COMPETITION_CREATED = "competition_created", _("team competition created")
        DIVISION_ADDED = "division_added", _("division added")
        TEAM_ENTERED = "team_entered", _("team entered")
        FIXTURES_GENERATED = "fixtures_generated", _("fixtures made")
        CUP_DRAWN = "cup_drawn", _("cup drawn")
        LINE_UP_SUBMITTED = "line_up_submitted", _("line-up handed in")
        MATCH_RECORDED = "match_recorded", _("match result recorded")
        MATCH_SCHEDULED = "match_scheduled", _("match date or venue changed")
        NEXT_SEASON = "next_season", _("next season's championship made")
        MATCH_STARTED = "match_started", _("match started")
        CAPTAIN_LINK_REVOKED = "captain_link_revoked", _("captain's link revoked")
        RESULT_CONFIRMED = "result_confirmed", _("result confirmed by a captain")
        CLAIM_FILED = "claim_filed", _("claim filed against a result")
        CLAIM_DECIDED = "claim_decided", _("claim decided")
        TEAM_MOVED = "team_moved", _("team moved to another division")
        INVITATION_CANCELLED = "invitation_cancelled", _("club's invitation cancelled")
        INVITATION_DECLINED = "invitation_declined", _("club declined the invitation")
        BAREME_CHANGED = "bareme_changed", _("team competition's barème changed")
        HELD_CONFIRMED = "held_confirmed", _("held licence lines confirmed")
        HELD_DISMISSED = "held_dismissed", _("held licence line dismissed")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=30, choices=Action.choices)
    label = models.CharField(max_length=200, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.league_id} {self.action} {self.label}"


class HeldLicence(models.Model):
    """A line of a club manager's licence list held for the league's managers
    (``leagues.licences``: a licence new to the club's manager): pending until a league
    manager confirms it (the line imported as their own import would import it) or
    dismisses it (``leagues.held``). One pending line per club and licence: the club's
    latest word replaces the one before."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        CONFIRMED = "confirmed", _("confirmed")
        DISMISSED = "dismissed", _("dismissed")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="held_licences")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    licence = models.CharField(max_length=Person._meta.get_field("licence").max_length)
    name = models.CharField(max_length=Person._meta.get_field("name").max_length)
    serie = models.CharField(max_length=30, blank=True)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    sent_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["sent_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "club", "licence"],
                condition=models.Q(status="pending"),
                name="one_pending_held_licence",
            ),
        ]
        indexes = [models.Index(fields=["league", "status", "sent_at"], name="held_licence_list")]

    def __str__(self):
        return f"{self.licence} {self.name} ({self.status})"


class Standing(models.Model):
    """A person's sum in a league season, kept on write (``leagues.season_standings.restand``) from
    the stored per-event results whenever they change: their best N weighted points of
    the events not withdrawn, how many counted, how many played, and their ranks, overall
    and within their série (``leagues.season_standings.rerank``, in the same write, and when a
    person's série changes). A page reads these rows in rank order; it never sums nor
    ranks at read time."""

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="standings")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    total = models.DecimalField(max_digits=14, decimal_places=3)
    #: the total exactly, a fraction as text: what the ranks compare (``total`` is it
    #: rounded once, to show and to sort a page)
    exact = models.TextField(default="0")
    counted = models.PositiveIntegerField()
    played = models.PositiveIntegerField()
    #: the rank in the season (1, 2, 2, 4) and within the person's série, kept on write
    place = models.PositiveIntegerField(default=0)
    serie_place = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "person"], name="one_standing_per_person"),
        ]
        indexes = [
            models.Index(fields=["season", "-total"], name="league_standing_total"),
            models.Index(fields=["season", "place"], name="league_standing_place"),
        ]

    def __str__(self):
        return f"{self.season_id} {self.person_id} {self.total}"
