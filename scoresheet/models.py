"""Sheets, hands and the ledger.

A ``Hand`` keeps what the scorer entered; its ``ScoreRow``s (one per seated
player, written in the same transaction by ``scoresheet.services``) are the
ledger that standings and statistics aggregate in SQL. A deleted hand keeps its
data and history but has no score rows.
"""

from django.conf import settings
from django.db import models
from django.db.models import Count, IntegerField, Prefetch, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Club, Player, Season
from scoresheet import facts
from scoresheet.vocabulary import Chelem, Contract, Role, Side  # noqa: F401 (the ledger's choices)
from tarot.jsonformat import parse_rules
from tarot.rules import POIGNEE_SIZES
from tarot.rulesets import REGISTRY

# What any registered game allows a hand or a ledger row, asked of the engine: the
# database's check constraints below bound the columns by them. A constraint is
# static, so its migration holds the values of the day it was written (a game with a
# larger deck or table needs a new migration: ``makemigrations`` then shows it).
#: The most card points of any registered deck (91).
MAX_POINTS = max(ruleset.deck.total for ruleset in REGISTRY.values())
#: The most bouts of any registered deck (3).
MAX_BOUTS = max(ruleset.deck.bouts for ruleset in REGISTRY.values())
#: The fewest who play a hand (2) and the most seated at one table (6: five play).
MIN_PLAYING = min(min(ruleset.player_counts) for ruleset in REGISTRY.values())
MAX_SEATS = max(
    n + (n in ruleset.extra_seat_at) for ruleset in REGISTRY.values() for n in ruleset.player_counts
)
#: The Savoyard rules' multipliers of the difference (``ScoreRow.factor``).
FACTORS = (1, 2, 4, 8)


def _count(queryset):
    """A correlated COUNT(*) subquery of rows per sheet (0 when there is none)."""
    counted = queryset.order_by().values("sheet").annotate(n=Count("*")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


class SheetQuerySet(models.QuerySet):
    def live(self):
        """The sheets not deleted: what every page, total and export counts."""
        return self.filter(deleted_at__isnull=True)

    def with_counts(self):
        """The sheets with their season and ``seated`` (the seats with their players,
        in dealing order): lists and tables show them, and the stored ``seat_count``
        and ``hand_count``, without a query per row."""
        return self.select_related("season").prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player").order_by("position"),
                to_attr="seated",
            )
        )


class Sheet(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sheets")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="sheets")
    date = models.DateField(_("date"))
    table = models.CharField(_("table"), max_length=40, blank=True)
    rules = models.JSONField(_("rules"), help_text=_("Frozen when the sheet is created."))
    players = models.ManyToManyField(Player, through="Seat", related_name="sheets")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # A closed sheet takes no hand, correction, deletion or restore until it is
    # reopened (``scoresheet.services.close_sheet`` / ``reopen_sheet``; the hand
    # services refuse with ``sheet_closed``). Tournaments close a table's sheet
    # once it is submitted or confirmed.
    closed_at = models.DateTimeField(pgettext_lazy("sheet", "closed"), null=True, blank=True)
    # A deleted sheet is kept with its hands and history but its score rows and totals
    # are gone (out of every total) until it is restored (``scoresheet.editing``).
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)
    note = models.TextField(_("note"), max_length=2000, blank=True)
    # Stored counts, kept by the services in the transaction of every write (the
    # sheet list sorts by them without counting rows): seats, and live hands.
    seat_count = models.PositiveSmallIntegerField(_("seats"), default=0)
    hand_count = models.PositiveIntegerField(_("hands"), default=0)
    # The highest hand number given on the sheet, deleted hands included: a new hand
    # takes the next one, counted with ``hand_count`` in the UPDATE that locks the
    # sheet for it (``scoresheet.services.record_hand``).
    last_number = models.PositiveIntegerField(default=0, editable=False)

    objects = SheetQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "table", "-id"]
        verbose_name = _("sheet")
        verbose_name_plural = _("sheets")
        indexes = [
            models.Index(fields=["club", "-date"]),
            # the sheet list sorted by hands or seats, then newest first (or all reversed):
            # read in index order, forwards or backwards
            models.Index(fields=["club", "hand_count", "-date"], name="sheet_club_hands_date"),
            models.Index(fields=["club", "seat_count", "-date"], name="sheet_club_seats_date"),
            models.Index(fields=["season", "date"], name="sheet_season_date"),
        ]

    def __str__(self):
        label = f" {self.table}" if self.table else ""
        return f"{self.date}{label}"

    def get_absolute_url(self):
        return reverse("scoresheet:sheet", args=[self.club.slug, self.pk])

    @property
    def ruleset(self):
        return parse_rules(self.rules)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class Seat(models.Model):
    """A player seated at a sheet's table; ``position`` is the dealing order."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["sheet", "position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["sheet", "player"], name="seat_player_unique"),
            models.CheckConstraint(
                condition=models.Q(position__lt=MAX_SEATS), name="seat_position_range"
            ),
        ]

    def __str__(self):
        return f"{self.sheet} #{self.position} {self.player}"


class HandQuerySet(models.QuerySet):
    def live(self):
        return self.filter(is_deleted=False)


def _indexed_where_set(prefix, *names):
    """Partial indexes on mostly empty foreign keys: the rows where each is set
    (what a lookup by that key reads), not the many where it is empty."""
    return [
        models.Index(
            fields=[name],
            name=f"{prefix}_{name}_set",
            condition=models.Q(**{f"{name}__isnull": False}),
        )
        for name in names
    ]


def _seated_player(**options):
    """A hand's player (dealer, taker, partner, sits out): see ``Hand``."""
    return models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        **options,
    )


class Hand(models.Model):
    """One hand as entered: every field of HAND_FORMAT.md, players as foreign keys."""

    # no index of its own: (sheet, number) is unique, which covers it
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveIntegerField(_("number"))
    # The hand's players are players seated at its sheet (the services check it);
    # the database checks that each is a player (foreign keys, deferred to the
    # commit on PostgreSQL: the import's COPY of hands and rows costs no order).
    # Measured with ``bench_import --hands 10000 100000`` on PostgreSQL (six runs
    # each, alternated, on a loaded machine where one run differs from the next by
    # up to ±25 %), the seven foreign keys of Hand and ScoreRow cost about 5 % at
    # 100,000 hands (median 1,915 hands/s unchecked, 1,822 checked) and nothing
    # measurable at 10,000 (1,679 and 1,705): under 15 %, so they are checked.
    # ``partner`` and ``sits_out`` are mostly empty: indexed where set (``Meta``).
    dealer = _seated_player()
    taker = _seated_player()
    contract = models.CharField(_("contract"), max_length=20, blank=True)
    partner = _seated_player(db_index=False)
    sits_out = _seated_player(db_index=False)
    bouts = models.PositiveSmallIntegerField(_("bouts"), default=0)
    points = models.DecimalField(_("points"), max_digits=3, decimal_places=1, default=0)
    petit_au_bout = models.CharField(
        _("petit au bout"), max_length=10, blank=True, choices=Side.choices
    )
    # [{"player": <player id>, "size": "single"|"double"|"triple"}]
    poignees = models.JSONField(_("poignées"), default=list, blank=True)
    # {"announced": bool, "made_by": "attack"|"defence"|null} or null
    chelem = models.JSONField(_("chelem"), null=True, blank=True)
    petit_chelem = models.JSONField(_("petit chelem"), null=True, blank=True)
    miseres = models.JSONField(_("misères"), default=list, blank=True)  # player ids
    pools = models.JSONField(_("pools after the hand"), null=True, blank=True)
    # A ruleset's own fields (the Savoyard rules: mode, declarer, cards_asked,
    # partner, count, counts, baga; players as ids), mapped by ``scoresheet.handmap``.
    # Nullable: bulk writers that list the French Tarot columns leave it NULL.
    extra = models.JSONField(_("game fields"), default=dict, blank=True, null=True)
    explanation = models.JSONField(_("explanation"), default=list, blank=True)
    is_deleted = models.BooleanField(_("deleted"), default=False)
    note = models.TextField(_("note"), max_length=2000, blank=True)
    # empty for imported hands: indexed where set (``Meta``)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        db_index=False,
    )
    entered_at = models.DateTimeField(_("entered"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = HandQuerySet.as_manager()

    class Meta:
        ordering = ["sheet", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="hand_number_unique"),
            # the rules of a row alone (the engine checks the rest before a hand is
            # stored: ``tarot.validate``)
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_from_1"),
            models.CheckConstraint(
                condition=models.Q(bouts__gte=0, bouts__lte=MAX_BOUTS), name="hand_bouts_range"
            ),
            models.CheckConstraint(
                condition=models.Q(points__gte=0, points__lte=MAX_POINTS),
                name="hand_points_range",
            ),
            models.CheckConstraint(
                condition=models.Q(petit_au_bout__in=["", *Side.values]),
                name="hand_petit_au_bout_side",
            ),
        ]
        indexes = _indexed_where_set("hand", "partner", "sits_out", "entered_by")

    def __str__(self):
        return f"{self.sheet} #{self.number}"

    def get_absolute_url(self):
        return reverse("scoresheet:hand", args=[self.sheet.club.slug, self.sheet_id, self.number])


class ScoreRowQuerySet(models.QuerySet):
    def of_player(self, player, season=None):
        """A player's ledger rows: in one season, or in every season (``None``)."""
        rows = self.filter(player=player)
        return rows if season is None else rows.filter(season=season)

    def of_season(self, season):
        return self.filter(season=season)


class ScoreRow(models.Model):
    """The ledger: one row per seated player per live hand, written with the hand.

    Denormalised (season, sheet, date, table size and the hand's facts from this
    player's seat) so standings and statistics are plain SQL aggregates.
    """

    # Indexes: (hand, player) is unique, (season, player, …) and (player, date) are
    # indexed below: each covers its leading column, so the foreign keys hand,
    # season and player need no index of their own (one less per row written).
    # ``sheet``, ``season`` and ``player`` are copies of the hand's sheet, of its
    # season and of the player seated at ``position`` (a ``Seat``), written only
    # with the hand (``handmap``); the database checks them as foreign keys too
    # (their cost: ``Hand``'s comment). Deleting a sheet, a season or a player
    # deletes the rows (Django's CASCADE), and a seated player cannot be deleted
    # (``Seat``).
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="scores", db_index=False)
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="scores", db_index=False
    )
    date = models.DateField()
    seats = models.PositiveSmallIntegerField()  # how many sat at the table
    position = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=10, choices=Role.choices)
    contract = models.CharField(max_length=20, blank=True)
    made = models.BooleanField(null=True)  # the contract's result; null when all passed
    margin = models.SmallIntegerField(null=True)  # the attack's margin, half point rounded
    bouts = models.PositiveSmallIntegerField(null=True)  # the attack's bouts
    petit_au_bout = models.CharField(max_length=10, blank=True, choices=Side.choices)
    poignee = models.CharField(max_length=10, blank=True)  # the size this player showed
    misere = models.BooleanField(default=False)
    chelem = models.CharField(max_length=20, blank=True)
    score = models.DecimalField(max_digits=10, decimal_places=1)  # pools and misère included
    pool = models.IntegerField(default=0)  # this player's payments to (−) or from (+) pools
    # The Savoyard rules: the soloist's cards asked (solo), and the factor the
    # difference was multiplied by (1, 2, 4 or 8); null under French Tarot.
    cards_asked = models.PositiveSmallIntegerField(null=True)
    factor = models.PositiveSmallIntegerField(null=True)
    # Facts of the hand stored on each of its rows, so statistics never join Hand:
    # its number on the sheet, how many played it (the seated minus one who sits
    # out), and whether the taker played alone at five (no partner called, or the
    # called card was their own).
    number = models.PositiveIntegerField(default=0)
    playing = models.PositiveSmallIntegerField(default=0)
    alone = models.BooleanField(default=False)

    objects = ScoreRowQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="score_row_unique"),
            # the rules of a row alone (``handmap.score_row_fields`` writes them)
            models.CheckConstraint(
                condition=models.Q(role__in=Role.values), name="score_row_role_known"
            ),
            models.CheckConstraint(
                condition=models.Q(seats__gte=MIN_PLAYING, seats__lte=MAX_SEATS)
                & models.Q(position__lt=models.F("seats"))
                & models.Q(playing__gte=MIN_PLAYING, playing__lte=models.F("seats")),
                name="score_row_seat_in_table",
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="score_row_number_from_1"
            ),
            models.CheckConstraint(
                condition=models.Q(bouts__isnull=True)
                | models.Q(bouts__gte=0, bouts__lte=MAX_BOUTS),
                name="score_row_bouts_range",
            ),
            models.CheckConstraint(
                condition=models.Q(margin__isnull=True)
                | models.Q(margin__gte=-MAX_POINTS, margin__lte=MAX_POINTS),
                name="score_row_margin_range",
            ),
            models.CheckConstraint(
                condition=models.Q(petit_au_bout__in=["", *Side.values])
                & models.Q(poignee__in=["", *POIGNEE_SIZES])
                & models.Q(chelem__in=["", *Chelem.values]),
                name="score_row_codes_known",
            ),
            models.CheckConstraint(
                condition=models.Q(factor__isnull=True) | models.Q(factor__in=FACTORS),
                name="score_row_factor_known",
            ),
        ]
        indexes = [
            # a player's rows of a season in hand order (date, sheet, number)
            models.Index(
                fields=["season", "player", "date", "sheet", "number"],
                name="score_row_season_order",
            ),
            models.Index(fields=["player", "date"]),
        ]

    def __str__(self):
        return f"{self.hand} {self.player}: {self.score}"


class HandRevision(models.Model):
    """Every change to a hand: who, when, and the hand before and after.

    Under mouches a change re-scores the later hands of the sheet (pools carry):
    each later hand whose scores or pools change gets a ``rescored`` revision
    whose ``caused_by`` is the revision of the change that caused it.
    """

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")
        RESCORED = "rescored", _("re-scored")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    action = models.CharField(max_length=10, choices=Action.choices)
    # both empty for most entries: indexed where set (``Meta``)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        db_index=False,
    )
    at = models.DateTimeField(auto_now_add=True)
    # {"hand": <hand in HAND_FORMAT with names>, "scores": {name: number}}
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    caused_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="consequences",
        db_index=False,
    )

    class Meta:
        ordering = ["hand", "at", "id"]
        verbose_name = _("hand revision")
        verbose_name_plural = _("hand revisions")
        indexes = _indexed_where_set("revision", "user", "caused_by")

    def __str__(self):
        return f"{self.hand} {self.action} {self.at:%Y-%m-%d %H:%M}"


class SheetTotalQuerySet(models.QuerySet):
    def of_player(self, player, season=None):
        """A player's sheet totals: in one season, or in every season (``None``)."""
        totals = self.filter(player=player)
        return totals if season is None else totals.filter(season=season)

    def of_season(self, season):
        return self.filter(season=season)


#: What the standings sum of a SheetTotal (``standings.queries``).
STANDINGS_COLUMNS = ["score", "hands", "taken", "made"]


def _counts_not_negative(of, name):
    """A check that the counts among the facts ``of`` (and the bouts summed: a count
    of bouts) are never below 0; the sums of scores, pools and margins may be."""
    counts = [fact.name for fact in of if fact.of in (None, "bouts")]
    return models.CheckConstraint(
        condition=models.Q(**{f"{count}__gte": 0 for count in counts}), name=name
    )


class SheetTotal(models.Model):
    """Standings summary: one player's totals on one sheet, beside the ledger.

    Rewritten from the sheet's score rows by ``scoresheet.totals.refresh_sheet_totals``
    in the transaction of every hand write (the sheet is locked then), and rebuilt
    in SQL by ``scoresheet.totals.rebuild_season_totals``. Date and table size are
    the sheet's, so the standings' date and table-size filters read this table.
    Beside the standings' counters, the statistics' facts (``scoresheet.facts``:
    contracts, margins, bonuses, the best and worst hand, runs of contracts made).
    """

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", db_index=False
    )  # indexed by (player, date) below
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+", db_index=False)
    date = models.DateField()
    seats = models.PositiveSmallIntegerField()
    seated = models.PositiveIntegerField()  # score rows: hands at the table, sitting out too
    hands = models.PositiveIntegerField()  # hands played: role other than "out"
    taken = models.PositiveIntegerField()  # role "taker"
    made = models.PositiveIntegerField()  # taken and made
    score = models.DecimalField(max_digits=12, decimal_places=1)

    objects = SheetTotalQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sheet", "player"], name="sheet_total_unique"),
            # the counters and the facts' counts (model fields from ``facts``) hold
            # together: a sheet's takes made among its takes among its hands among its
            # rows, its runs of takes made among its takes made (the upsert of a new
            # hand proposes one hand's counts, which hold too)
            _counts_not_negative(facts.FACTS[len(facts.COUNTERS) :], "sheet_total_counts"),
            models.CheckConstraint(
                condition=models.Q(
                    made__lte=models.F("taken"),
                    taken__lte=models.F("hands"),
                    hands__lte=models.F("seated"),
                    run_best__lte=models.F("made"),
                    run_first__lte=models.F("run_best"),
                    run_last__lte=models.F("run_best"),
                    run_first__gte=0,
                    run_last__gte=0,
                ),
                name="sheet_total_counts_nested",
            ),
        ]
        indexes = [
            # a season's players by evening and the standings filtered to dates or a
            # table size, read from the indexes alone (the rows are wide: the facts)
            models.Index(
                fields=["season", "date", "player"],
                include=STANDINGS_COLUMNS,
                name="sheet_total_season_players",
            ),
            models.Index(
                fields=["season", "seats", "date"],
                include=["player", *STANDINGS_COLUMNS],
                name="sheet_total_season_seats",
            ),
            # a player's sheets in hand order (``stats.queries.player_sheets``: the
            # evenings, the chart, the pages of hands, the runs) from the index alone
            models.Index(
                fields=["player", "date", "sheet"],
                include=[
                    "season",
                    *STANDINGS_COLUMNS,
                    "seated",
                    "run_first",
                    "run_last",
                    "run_best",
                    "best",
                    "worst",
                ],
                name="sheet_total_player_sheets",
            ),
        ]

    def __str__(self):
        return f"{self.sheet_id} {self.player_id}: {self.score}"


# The statistics' facts, after the standings' counters: one column each, declared
# once in ``scoresheet.facts`` (which also counts them in SQL and in Python).
for _name, _field in facts.model_fields():
    SheetTotal.add_to_class(_name, _field)


class SheetFacts(models.Model):
    """Statistics summary: one sheet's facts (``scoresheet.facts.SHEET_FACTS``), each
    hand counted once, so a season's statistics sum one narrow row per sheet.

    Kept with the SheetTotals by ``scoresheet.totals`` in the transaction of every
    hand write (the sheet is locked then); a sheet with no live hand has none.
    """

    sheet = models.OneToOneField(
        Sheet, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+", db_index=False)
    date = models.DateField()
    seats = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name_plural = "sheet facts"
        constraints = [
            _counts_not_negative(facts.SHEET_FACTS, "sheet_facts_counts"),
            models.CheckConstraint(
                condition=models.Q(made__lte=models.F("taken"), taken__lte=models.F("hands")),
                name="sheet_facts_counts_nested",
            ),
        ]
        indexes = [models.Index(fields=["season", "date"], name="sheet_facts_season_date")]

    def __str__(self):
        return f"{self.sheet_id}: {self.hands}"


for _name, _field in facts.sheet_model_fields():
    SheetFacts.add_to_class(_name, _field)


class SeasonTotal(models.Model):
    """Standings summary: one player's totals in one season (the sum of their SheetTotals).

    Kept in step by ``scoresheet.totals.refresh_sheet_totals`` (it adds the change
    of a sheet's totals), so a season's standings read one row per player.
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # Plain integers (no CHECK >= 0): the upsert that adds a change proposes
    # negative counts, which land on the existing row.
    seated = models.IntegerField()
    sheets = models.IntegerField()  # sheets with at least one hand played
    hands = models.IntegerField()
    taken = models.IntegerField()
    made = models.IntegerField()
    score = models.DecimalField(max_digits=12, decimal_places=1)
    # Set by every write that touches the player's rows of the season (the time
    # in microseconds): the statistics cache is keyed by the season's revisions.
    revision = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_total_unique"),
        ]

    def __str__(self):
        return f"{self.season_id} {self.player_id}: {self.score}"
