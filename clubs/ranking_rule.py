"""How a season's standings rank the players: its ranking rule, stored on ``Season.ranking``.

A rule is a small dict (stored in its short form: what differs from the default):

* ``by``: ``total`` (the default: the sum of the scores), ``hand_average`` (the
  total over the hands played), ``evening_average`` (the total over the evenings
  played) or ``points`` (placement points per evening: the evening's first gets
  ``points[0]``, the second ``points[1]``…, the others nothing; equal evening
  scores share a place and its points);
* ``best``: count only each player's best N evenings (by the value ranked:
  their evening's score, or its points); absent: every evening;
* ``min_evenings``: a player with fewer evenings is listed below the ranked
  players, unranked; absent: everyone is ranked.

An *evening* is a date: a player's sheets of one date add up to one evening.
``standings.queries.ranked_standings`` computes it in SQL. ``parse_ranking``
validates (``ClubError`` with code ``ranking_invalid``); ``ranking_words``
says it in words for the standings page.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ServiceError

MODES = ("total", "hand_average", "evening_average", "points")
#: the most evenings "best N" and "at least N" may name, and the longest points table
MAX_EVENINGS = 366
MAX_PLACES = 30
MAX_POINTS = 10_000


@dataclass(frozen=True)
class Ranking:
    by: str = "total"
    best: int | None = None
    min_evenings: int = 0
    points: tuple[int, ...] = ()

    @property
    def is_default(self) -> bool:
        return self == Ranking()

    @property
    def by_evening(self) -> bool:
        """Whether the standings need each player's evenings (anything but the plain total)."""
        return not self.is_default

    def as_dict(self) -> dict:
        data = {}
        if self.by != "total":
            data["by"] = self.by
        if self.best:
            data["best"] = self.best
        if self.min_evenings:
            data["min_evenings"] = self.min_evenings
        if self.by == "points":
            data["points"] = list(self.points)
        return data


class RankingError(ServiceError):
    pass


def _whole(value, field, low, high):
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise RankingError("ranking_invalid", _("Enter a whole number."), field) from None
    if not low <= value <= high:
        raise RankingError(
            "ranking_invalid",
            _("Between %(low)d and %(high)d.") % {"low": low, "high": high},
            field,
        )
    return value


def parse_points(text) -> tuple[int, ...]:
    """“10, 7, 5, 3” (or a list) as the points of the first, second… places."""
    if isinstance(text, (list, tuple)):
        items = list(text)
    else:
        items = [item for item in str(text or "").replace(";", ",").split(",") if item.strip()]
    if not items:
        raise RankingError(
            "ranking_invalid",
            _("Give the points of the first places, e.g. 10, 7, 5, 3."),
            "points",
        )
    if len(items) > MAX_PLACES:
        raise RankingError(
            "ranking_invalid", _("At most %(n)d places.") % {"n": MAX_PLACES}, "points"
        )
    points = tuple(_whole(item, "points", 0, MAX_POINTS) for item in items)
    if any(p is None for p in points):
        raise RankingError("ranking_invalid", _("Enter whole numbers."), "points")
    if any(a < b for a, b in zip(points, points[1:])):
        raise RankingError(
            "ranking_invalid", _("A place never gets more points than the one before."), "points"
        )
    return points


def parse_ranking(value) -> Ranking:
    """A stored or posted rule as a ``Ranking``; ``RankingError`` when it makes no sense."""
    if value in (None, "", {}):
        return Ranking()
    if not isinstance(value, dict):
        raise RankingError("ranking_invalid", _("A ranking rule is a set of options."), "by")
    by = value.get("by") or "total"
    if by not in MODES:
        raise RankingError("ranking_invalid", _("Choose how to rank the players."), "by")
    best = _whole(value.get("best"), "best", 1, MAX_EVENINGS)
    least = _whole(value.get("min_evenings"), "min_evenings", 0, MAX_EVENINGS) or 0
    points = parse_points(value.get("points")) if by == "points" else ()
    return Ranking(by=by, best=best, min_evenings=least, points=points)


def ranking_words(ranking) -> list[str]:
    """The rule in a few sentences, for the standings page."""
    if not isinstance(ranking, Ranking):
        try:
            ranking = parse_ranking(ranking)
        except RankingError:
            ranking = Ranking()
    words = {
        "total": _("Ranked by total score."),
        "hand_average": _("Ranked by average score per hand played."),
        "evening_average": _("Ranked by average score per evening played."),
        "points": _(
            "Ranked by placement points: each evening, %(points)s points "
            "to the first, second… (equal scores share a place)."
        )
        % {"points": ", ".join(map(str, ranking.points))},
    }
    sentences = [words[ranking.by]]
    if ranking.best:
        sentences.append(
            ngettext(
                "Only each player's best evening counts.",
                "Only each player's best %(n)d evenings count.",
                ranking.best,
            )
            % {"n": ranking.best}
        )
    if ranking.min_evenings:
        sentences.append(
            ngettext(
                "Players with fewer than %(n)d evening are listed below, unranked.",
                "Players with fewer than %(n)d evenings are listed below, unranked.",
                ranking.min_evenings,
            )
            % {"n": ranking.min_evenings}
        )
    return sentences
