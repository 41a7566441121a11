"""Free-deal tournaments ("tournois en donnes libres"): set-up, entries, rounds, tables.

A tournament keeps its table sheets in a season of its own (``Season.Kind.TOURNAMENT``,
created with it), so its sheets, hands, ledger rows and totals are those of club
sheets: ``SeasonTotal`` is a player's tournament total, ``SheetTotal`` a player's
round (one sheet per player per round). The tournament adds who entered (members
and guests, numbered), the rounds and, for each round, its tables: the seats the
draw gave (entry numbers in seat order: North, East, South, West, fifth) and, once
the round starts, the table's sheet.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Club, Person, Player, Season, default_rules
from scoresheet.models import Sheet
from tarot.jsonformat import parse_rules


class Tournament(models.Model):
    class State(models.TextChoices):
        SETUP = "setup", _("being set up")
        RUNNING = "running", _("under way")
        FINISHED = "finished", _("finished")
        CLOSED = "closed", pgettext_lazy("tournament", "closed")

    class ConfirmBy(models.TextChoices):
        TOTALS = "totals", _("the round's totals, re-entered by a second player")
        DEALS = "deals", _("every deal, re-entered by a second player")

    class Kind(models.TextChoices):
        FREE = "free", _("free deals")
        DUPLICATE = "duplicate", _("duplicate (prepared deals)")

    class Method(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("matchpoints (percentage per seat)")
        AVERAGE = "average", _("difference to the seat's average")

    class FiveTables(models.TextChoices):
        FIVE = "five", _("the five-player game (called partner)")
        DEALER_OUT = "four_dealer_out", _("four-player deals, the dealer sits out")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    season = models.OneToOneField(Season, on_delete=models.PROTECT, related_name="tournament")
    name = models.CharField(_("name"), max_length=80)
    date = models.DateField(_("date"))
    rules = models.JSONField(_("rules"), default=default_rules)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), null=True, blank=True)
    minutes_per_round = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True
    )
    five_tables = models.CharField(
        _("tables of five play"),
        max_length=20,
        choices=FiveTables.choices,
        default=FiveTables.FIVE,
    )

    class DrawRule(models.TextChoices):
        #: everybody's seats at tables of 5 within one of each other after the last round
        END = "end", _("fair by the end")
        #: nobody at a table of 5 twice before everybody has been once
        ROUND = "round", _("fair every round")
        #: the fewest repeated meetings, some players at a table of 5 more often
        MEETINGS = "meetings", _("fewer repeated meetings")

    #: the draw's rule for the seats at tables of 5 (and 3)
    draw_rule = models.CharField(
        _("the draw puts first"), max_length=10, choices=DrawRule.choices, default=DrawRule.END
    )
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.SETUP)

    # Teams of 2 or 4 registered together (None: an individual tournament).
    team_size = models.PositiveSmallIntegerField(_("players a team"), null=True, blank=True)
    confirm_by = models.CharField(
        _("a table's sheet is confirmed by"),
        max_length=10,
        choices=ConfirmBy.choices,
        default=ConfirmBy.TOTALS,
    )
    # Closed: every sheet confirmed, the final ranking frozen (``final_ranking``).
    closed_at = models.DateTimeField(pgettext_lazy("tournament", "closed"), null=True, blank=True)
    final_ranking = models.JSONField(null=True, blank=True)
    draw_seed = models.PositiveIntegerField(default=0)
    # Duplicate ("donnes préparées", DUPLICATE.md): the deals per set are
    # ``deals_per_round``, the deals are dealt from ``draw_seed`` (tarot.cards).
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.FREE)
    #: the two tables of a team match (``competitions``), not a tournament of the club's
    #: own: left out of its list, and ended by the match's result, provisional at first
    team_match = models.BooleanField(default=False, editable=False)
    method = models.CharField(
        _("comparison"), max_length=12, choices=Method.choices, default=Method.MATCHPOINTS
    )
    #: the movement the organiser chose among those that fit (``movement.KINDS``);
    #: empty: the one with the fewest repeated meetings
    movement = models.CharField(_("movement"), max_length=12, blank=True, default="")
    #: the étuis were dealt by hand, not from the printed sheets (no hand records)
    etuis_by_hand = models.BooleanField(_("étuis dealt by hand"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournaments:detail", args=[self.club.slug, self.pk])

    @property
    def even_spread(self) -> bool:
        """Whether the draw spreads the seats at tables of 5 evenly (by the end or every round)."""
        return self.draw_rule != self.DrawRule.MEETINGS

    @property
    def ruleset(self):
        return parse_rules(self.rules)

    @property
    def is_timed(self) -> bool:
        return not self.deals_per_round

    @property
    def is_closed(self) -> bool:
        return self.state == self.State.CLOSED

    @property
    def is_duplicate(self) -> bool:
        return self.kind == self.Kind.DUPLICATE


class Team(models.Model):
    """Players registered together (2 or 4): never at the same table, ranked on their sum."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("team"), max_length=60)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
        ]

    def __str__(self):
        return self.name


class Entry(models.Model):
    """A player entered in a tournament, under a number: a club member, or a guest.

    A guest is a ``Player`` of the organising club too (the sheets seat players),
    named after the guest and their club; ``name`` keeps the name as typed.
    Present in round ``r`` when ``joined_before_round <= r`` and not withdrawn
    after an earlier round.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField(_("number"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    name = models.CharField(_("name"), max_length=80)
    is_guest = models.BooleanField(_("guest"), default=False)
    guest_club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("FFT licence"), max_length=20, blank=True)
    #: the licensed person this entry is (a guest found across the league, or a member
    #: whose player is linked): set at registration from the player's link
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    joined_before_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    #: a duplicate event's série (Open, 1ère, 2ème, Promotion, or the club's own)
    series = models.CharField(_("série"), max_length=40, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_unique"),
        ]

    def __str__(self):
        return f"{self.number}. {self.name}"

    def plays_in(self, round_number: int) -> bool:
        if self.joined_before_round > round_number:
            return False
        return self.withdrawn_after_round is None or self.withdrawn_after_round >= round_number

    @property
    def club_name(self) -> str:
        return self.guest_club if self.is_guest else self.tournament.club.name


class Round(models.Model):
    class State(models.TextChoices):
        PLANNED = "planned", _("not drawn")
        DRAWN = "drawn", _("drawn")
        STARTED = "started", _("under way")
        CLOSED = "closed", pgettext_lazy("round", "closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default="planned")

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self):
        return f"{self.tournament} #{self.number}"

    @property
    def is_drawn(self) -> bool:
        return self.state != self.State.PLANNED

    @property
    def is_open(self) -> bool:
        """Drawn or not, but not started: the draw may still change."""
        return self.state in (self.State.PLANNED, self.State.DRAWN)


class RoundTable(models.Model):
    """One table of one round: the entry numbers in seat order, and its sheet once started.

    ``state``: *open* while the table enters its deals (a draft), *submitted* when
    the table has handed its sheet in, *disputed* when the second entry differs,
    *confirmed* once a second entry (or the organiser) agrees; the deals played
    come from the sheet. The table's private link is ``tournaments.tokens``': only
    a hash of it and the salt it is derived from are stored.
    """

    class State(models.TextChoices):
        OPEN = "open", _("in progress")
        SUBMITTED = "submitted", _("submitted")
        DISPUTED = "disputed", _("in dispute")
        CONFIRMED = "confirmed", _("confirmed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.JSONField(default=list)  # entry numbers: North, East, South, West, fifth
    sheet = models.OneToOneField(
        Sheet, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_table"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    token_salt = models.CharField(max_length=40, blank=True)
    token_hash = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: The draw changed this table after it was made (a withdrawal): print its card again.
    changed = models.BooleanField(default=False)
    #: A duplicate event's set (étui) the movement gives the table this round.
    set_number = models.PositiveSmallIntegerField(null=True, blank=True)
    #: One phone enters the table's deals (``services.claim_table``): a hash of its
    #: device cookie, when it was last heard of, and the deals it said it still holds
    #: unsent (its queue, reported when online).
    device = models.CharField(max_length=64, blank=True)
    device_seen_at = models.DateTimeField(null=True, blank=True)
    device_waiting = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_unique"),
        ]

    def __str__(self):
        return f"{self.round} table {self.number}"


class TableResult(models.Model):
    """One entry of a table's result: the table's submission, the second entry that checks
    it, the organiser's confirmation or correction, a reopening.

    ``totals`` maps each seat's entry number (a string) to the round's score (a
    string, exact); ``deals`` lists each deal's scores in seat order (strings).
    At most one result per table is ``confirmed`` (a partial unique constraint),
    so two confirmations racing leave exactly one confirmed version.
    """

    class Kind(models.TextChoices):
        SUBMITTED = "submitted", _("submitted by the table")
        CHECK = "check", _("second entry")
        ORGANISER = "organiser", _("confirmed by the organiser")
        CORRECTED = "corrected", _("corrected by the organiser")
        REOPENED = "reopened", _("sent back to the table")
        TOTALS = "totals", _("totals entered by the organiser")
        CANCELLED = "cancelled", _("totals cancelled by the organiser")

    round_table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    by_name = models.CharField(_("name"), max_length=60, blank=True)
    totals = models.JSONField(default=dict)
    deals = models.JSONField(null=True, blank=True)
    matches = models.BooleanField(null=True)
    confirmed = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_table", "at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round_table"],
                condition=models.Q(confirmed=True),
                name="one_confirmed_result_per_table",
            ),
        ]

    def __str__(self):
        return f"{self.round_table} {self.kind}"


class TableTotal(models.Model):
    """One player's score at a table whose result the organiser entered alone, totals
    only (the table could not use its link): the ranking adds it like a sheet's total.
    Kept on write by ``services.enter_table_totals`` from the confirmed ``TableResult``
    of kind ``totals``, which keeps the history; cancelling deletes the rows."""

    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="organiser_totals"
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    score = models.DecimalField(_("score"), max_digits=8, decimal_places=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round_table", "entry"], name="one_total_per_seat"),
        ]

    def __str__(self):
        return f"{self.round_table} {self.entry} {self.score}"


class Adjustment(models.Model):
    """The arbitre's penalty or adjustment: points given to (or, negative, taken from)
    one player in one round, with its reason (an article of the FFT's arbitration code
    or the club's own rule). The ranking adds it to the round's score."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="adjustments")
    round_number = models.PositiveSmallIntegerField(_("round"))
    points = models.DecimalField(_("points"), max_digits=8, decimal_places=1)
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "round_number", "at", "pk"]

    def __str__(self):
        return f"{self.entry} R{self.round_number} {self.points}"


class DealDecision(models.Model):
    """The arbitre's decision on one deal at one table of a duplicate event
    (``DUPLICATE.md`` §3): the deal cancelled there (a fouled étui), or an arbitral
    score for one seat (a percentage under matchpoints, points under average)."""

    class Kind(models.TextChoices):
        CANCELLED = "cancelled", _("deal cancelled")
        ARBITRAL = "arbitral", _("arbitral score")

    round_table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="decisions")
    deal = models.PositiveSmallIntegerField(_("deal"))
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # 0–3: N, E, S, W
    score = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_table", "deal", "at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round_table", "deal"],
                condition=models.Q(kind="cancelled"),
                name="one_cancellation_per_table_deal",
            ),
            models.UniqueConstraint(
                fields=["round_table", "deal", "seat"],
                condition=models.Q(kind="arbitral"),
                name="one_arbitral_score_per_seat",
            ),
        ]

    def __str__(self):
        return f"{self.round_table} deal {self.deal} {self.kind}"


def deals_for_table(tournament: "Tournament", seats: int) -> int | None:
    """The deals a table of ``seats`` plays in a round; None for a timed round.

    Tables of 4 play ``deals_per_round``; a table of 3 or 5 plays it rounded up to
    a multiple of its seats, so that everybody deals as often (4 deals: 5 at a
    table of five, 6 at a table of three).
    """
    deals = tournament.deals_per_round
    if not deals:
        return None
    if seats == 4:
        return deals
    return -(-deals // seats) * seats
