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

from clubs.models import Club, Player, Season, default_rules
from scoresheet.models import Sheet
from scoresheet.scoring.jsonformat import parse_rules


class Tournament(models.Model):
    class State(models.TextChoices):
        SETUP = "setup", _("being set up")
        RUNNING = "running", _("under way")
        FINISHED = "finished", _("finished")

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
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.SETUP)
    draw_seed = models.PositiveIntegerField(default=0)
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
    def ruleset(self):
        return parse_rules(self.rules)

    @property
    def is_timed(self) -> bool:
        return not self.deals_per_round


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
    joined_before_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

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
        CLOSED = "closed", _("closed")

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

    ``state`` is left for the tables' own confirmation (issue 12); the deals
    played come from the sheet.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.JSONField(default=list)  # entry numbers: North, East, South, West, fifth
    sheet = models.OneToOneField(
        Sheet, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_table"
    )
    state = models.CharField(max_length=10, default="open")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_unique"),
        ]

    def __str__(self):
        return f"{self.round} table {self.number}"
