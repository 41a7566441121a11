"""Players' ratings, kept on write (``ratings.keeping``).

A rating belongs to a **scope**, a key naming the hands it counts: ``club:<id>``
(every hand of the club's sheets, tournament deals included), ``season:<id>``
(a season rated on its own) (``ratings.scopes``), and ``league:<id>`` (registered by
``leagues``: a person across its member clubs, rated under one of their players).
Hands are rated in the order (sheet date, sheet, hand number).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from scoresheet.models import Sheet


class Rating(models.Model):
    """A player's rating in a scope now: μ, σ, the rating shown
    (``ordinal``: ``compute.shown``, 1000 + 40 (μ − 3σ)), the hands rated, and
    the last sheet rated for them (a new hand after it only adds)."""

    scope = models.CharField(max_length=40)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    hands = models.PositiveIntegerField()
    last_date = models.DateField()
    last_sheet = models.BigIntegerField()

    class Meta:
        verbose_name = _("rating")
        constraints = [
            models.UniqueConstraint(fields=["scope", "player"], name="rating_scope_player"),
        ]
        indexes = [models.Index(fields=["scope", "-ordinal"], name="rating_scope_ordinal")]

    def __str__(self):
        return f"{self.scope} {self.player_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingPoint(models.Model):
    """The history: a player's rating in a scope after their last hand on a sheet."""

    scope = models.CharField(max_length=40)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="+", db_index=False)
    date = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    hands = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "player", "sheet"], name="rating_point_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["scope", "date", "sheet"], name="rating_point_order"),
            models.Index(fields=["player", "scope", "date", "sheet"], name="rating_point_player"),
        ]

    def __str__(self):
        return f"{self.scope} {self.player_id} {self.date}: {self.mu:.2f}"


class Recompute(models.Model):
    """A scope being rated again in the background (``keeping.defer``): from ``start``
    (a sheet's date and id) or from scratch (both empty). The pages showing the scope
    say its ratings are being recomputed until the task has run and removed this row."""

    scope = models.CharField(max_length=40, unique=True)
    start_date = models.DateField(null=True)
    start_sheet = models.BigIntegerField(null=True)
    queued_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.scope} from {self.start_date} {self.start_sheet}"
