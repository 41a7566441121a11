"""Team competitions of a league: a championship in divisions, or a cup.

A ``Competition`` belongs to a league season; clubs of the league enter ``Team``s
(a name, a squad of the club's players, a captain). A championship's teams sit in
``Division``s, whose fixtures are Berger's round robin (``competitions.fixtures``);
a cup's teams are drawn into a bracket (``competitions.bracket``, its first round's
places kept on the competition). Each fixture or tie is a ``Match``: the line-ups
(``LineUpSeat``: four players of each squad, in seat order), its two tables
(``MatchTable``) and each table's marques by deal (``TableDeal``), and the result
kept on write (``competitions.services.record_results``, by ``tarot.teammatch``):
points, match points, league points; the division table reads these rows only.

A ``MatchTable`` carries an optional ``round_table``: a table of the tournaments'
day (``tournaments.RoundTable``, its private link, double entry and confirmation),
so a match played through table links reuses that mechanism rather than a second one.

Each team of a match has a ``CaptainLink`` (``competitions.links``): the captain hands in
the line-up until the match starts, then confirms the result or files a ``MatchClaim``
within ``CLAIM_WINDOW``, which the league manager upholds or dismisses.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from competitions.table import TIE_BREAKS
from leagues.models import League, LeagueSeason
from tarot.teammatch import Scale
from tournaments.models import RoundTable

#: a recorded result stays provisional this long for the captains' claims
CLAIM_WINDOW = timedelta(hours=24)
#: players of a team at one match (two at each of the two tables)
LINE_UP = 4
SQUAD_MIN, SQUAD_MAX = 4, 8


def default_scale():
    return Scale.plain().as_data()


def default_tie_breaks():
    return list(TIE_BREAKS)


class Competition(models.Model):
    class Kind(models.TextChoices):
        CHAMPIONSHIP = "championship", _("championship")
        CUP = "cup", _("cup")

    class Mode(models.TextChoices):
        DUPLICATE = "duplicate", _("duplicate (two tables, the same deals)")
        FREE = "free", _("free deals (team totals summed)")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="competitions")
    season = models.ForeignKey(
        LeagueSeason, on_delete=models.CASCADE, related_name="competitions", null=True, blank=True
    )
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    mode = models.CharField(_("play"), max_length=10, choices=Mode.choices, default=Mode.DUPLICATE)
    deals = models.PositiveSmallIntegerField(_("deals per match"), default=8)
    #: the barème: ``[[from difference, ahead, behind], …]`` (``tarot.teammatch.Scale``)
    scale = models.JSONField(_("match points scale"), default=default_scale)
    win_points = models.PositiveSmallIntegerField(_("league points for a win"), default=3)
    draw_points = models.PositiveSmallIntegerField(_("league points for a draw"), default=1)
    loss_points = models.PositiveSmallIntegerField(_("league points for a loss"), default=0)
    tie_breaks = models.JSONField(_("tie-breaks"), default=default_tie_breaks)
    double_round = models.BooleanField(_("home and away"), default=False)
    promoted = models.PositiveSmallIntegerField(_("promoted per division"), default=0)
    relegated = models.PositiveSmallIntegerField(_("relegated per division"), default=0)
    #: a cup's draw: the first round's places, top to bottom (team ids, ``None`` a bye)
    bracket = models.JSONField(null=True, blank=True)
    draw_seed = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-created_at", "pk"]
        verbose_name = _("team competition")
        verbose_name_plural = _("team competitions")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("competitions:detail", args=[self.league.slug, self.pk])

    @property
    def is_cup(self) -> bool:
        return self.kind == self.Kind.CUP


class Division(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("name"), max_length=80)
    level = models.PositiveSmallIntegerField(_("level"), default=1)  # 1: the top
    #: fixtures made (``services.generate_fixtures``): the teams are fixed after
    fixtures_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "level", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="division_name_unique"),
        ]

    def __str__(self):
        return self.name


class Team(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="teams")
    division = models.ForeignKey(
        Division, on_delete=models.SET_NULL, null=True, blank=True, related_name="teams"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="competition_teams")
    name = models.CharField(_("name"), max_length=80)
    captain = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    squad = models.ManyToManyField(Player, related_name="competition_teams", blank=True)
    #: the draw's order (a division's Berger order; a cup's seed, 1 the best)
    seed = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["competition", "seed", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "name"], name="competition_team_name_unique"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse(
            "competitions:team", args=[self.competition.league.slug, self.competition_id, self.pk]
        )


class Match(models.Model):
    """A fixture of a division (``day``) or a tie of a cup (``day`` its round, ``slot``);
    home is team A of ``tarot.teammatch`` (North–South at table 1)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="matches")
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, null=True, blank=True, related_name="matches"
    )
    day = models.PositiveSmallIntegerField(_("match day"))
    slot = models.PositiveSmallIntegerField(default=0)
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="home_matches")
    away = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="away_matches")
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    # the result, kept on write (services.record_results)
    points_home = models.IntegerField(null=True, blank=True)
    points_away = models.IntegerField(null=True, blank=True)
    mp_home = models.PositiveIntegerField(null=True, blank=True)
    mp_away = models.PositiveIntegerField(null=True, blank=True)
    lp_home = models.PositiveIntegerField(null=True, blank=True)
    lp_away = models.PositiveIntegerField(null=True, blank=True)
    winner = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(null=True, blank=True)
    #: the match started (``services.start_match``): line-ups locked, tables' links open
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "day", "slot", "pk"]
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "division", "day", "slot"], name="match_place_unique"
            ),
            models.CheckConstraint(
                condition=~models.Q(home=models.F("away")), name="match_two_teams"
            ),
        ]

    def __str__(self):
        return f"{self.home} – {self.away}"

    def get_absolute_url(self):
        return reverse(
            "competitions:match",
            args=[self.competition.league.slug, self.competition_id, self.pk],
        )

    @property
    def played(self) -> bool:
        return self.recorded_at is not None

    @property
    def started(self) -> bool:
        return self.started_at is not None or self.recorded_at is not None

    @property
    def tie_key(self) -> str:
        return f"{self.day}-{self.slot}"


class LineUpSeat(models.Model):
    """One player of a team's line-up for a match: ``order`` 1 and 2 play at table 1,
    3 and 4 at table 2 (their seats follow from the seating)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="line_up")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    order = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["match", "team", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team", "order"], name="line_up_order"),
            models.UniqueConstraint(fields=["match", "player"], name="line_up_player_once"),
        ]

    def __str__(self):
        return f"{self.match_id} {self.order}. {self.player_id}"


class MatchTable(models.Model):
    """Table 1 or 2 of a match. ``round_table``: its table of the match's one-round event
    (``services.start_match``), whose link enters the deals with double entry; both
    tables confirmed, the result is recorded (``services.table_confirmed``)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    round_table = models.OneToOneField(
        RoundTable, on_delete=models.SET_NULL, null=True, blank=True, related_name="match_table"
    )

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_table_unique"),
        ]

    def __str__(self):
        return f"{self.match_id} table {self.number}"


class TableDeal(models.Model):
    """One deal's marques at one table, by seat (a free-deal match: deal 0, the totals)."""

    table = models.ForeignKey(MatchTable, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    north = models.IntegerField()
    east = models.IntegerField()
    south = models.IntegerField()
    west = models.IntegerField()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="table_deal_unique"),
            models.CheckConstraint(
                condition=models.Q(north=-models.F("east") - models.F("south") - models.F("west")),
                name="table_deal_zero_sum",
            ),
        ]

    def __str__(self):
        return f"{self.table_id} deal {self.number}"

    @property
    def marques(self) -> dict:
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}


class CaptainLink(models.Model):
    """A team captain's private link to a match (``competitions.links``, by
    ``tournaments.tokens``: only the salt and a hash of the token are kept): the
    line-up until the match starts, then the result's confirmation or a claim."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="captain_links")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    token_salt = models.CharField(max_length=40, blank=True)
    token_hash = models.CharField(max_length=64, null=True, blank=True, unique=True)
    #: the captain confirmed the result recorded at this time (a correction asks again)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="captain_link_unique"),
        ]

    def __str__(self):
        return f"{self.match_id} {self.team_id}"


class MatchClaim(models.Model):
    """A captain's claim against a recorded result, within ``CLAIM_WINDOW``; the league
    manager upholds it (and corrects the result) or dismisses it."""

    class State(models.TextChoices):
        OPEN = "open", _("awaiting the league's decision")
        UPHELD = "upheld", _("upheld")
        DISMISSED = "dismissed", _("dismissed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="claims")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(_("claim"), max_length=2000)
    filed_at = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    decision = models.CharField(_("decision"), max_length=200, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["match", "filed_at", "pk"]

    def __str__(self):
        return f"{self.match_id} claim {self.pk}"
