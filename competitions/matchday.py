"""A match day as the room sees it (the projector screen, ``competitions.pages``): each
match's state, the day to show, and each division's matches of the day beside its
table (a cup: the round's ties).

A match's state, one rule for every page that shows it (``match_states``):

``to_play``
    nothing started: its line-ups are not both in, or its date is still to come;
``playing``
    its two line-ups are in and its date has come (or it has none), or its tables
    are played through table links, and no result is recorded yet;
``provisional``, ``claimed``, ``final``
    its result is recorded: where it stands (``services.result_state``: within the claim
    window and not confirmed by both captains, a claim awaiting the league's decision,
    final).
"""

from dataclasses import dataclass, field

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from competitions import queries
from competitions.models import LINE_UP, Competition, LineUpSeat, Match, MatchTable

TO_PLAY, PLAYING, PROVISIONAL, CLAIMED, FINAL = (
    "to_play",
    "playing",
    "provisional",
    "claimed",
    "final",
)
STATE_LABELS = {
    TO_PLAY: pgettext_lazy("match state", "to play"),
    PLAYING: pgettext_lazy("match state", "playing"),
    PROVISIONAL: pgettext_lazy("match state", "provisional"),
    CLAIMED: pgettext_lazy("match state", "claimed"),
    FINAL: pgettext_lazy("match state", "final"),
}


def match_state(match: Match, *, seats: int, linked: bool, result: str = "none", now=None) -> str:
    """``seats``: the line-up seats handed in (both teams); ``linked``: its tables are
    played through table links; ``result``: its recorded result's state
    (``services.result_state``; ``"none"`` before)."""
    if match.recorded_at is not None and result != "none":
        return result
    now = now or timezone.now()
    today = timezone.localdate(now)
    started = seats >= 2 * LINE_UP and (match.date is None or match.date <= today)
    return PLAYING if linked or started or match.started_at else TO_PLAY


def match_states(matches, now=None) -> dict[int, str]:
    """Each match's state by its id: four queries whatever the count (two when the
    matches come with their ``result_state``, as ``queries.championship`` reads them)."""
    ids = [m.pk for m in matches]
    now = now or timezone.now()
    unread = [m for m in matches if not hasattr(m, "result_state")]
    if unread:
        queries.result_states(unread, now)
    seats = dict(
        LineUpSeat.objects.filter(match_id__in=ids)
        .values("match_id")
        .annotate(n=Count("pk"))
        .values_list("match_id", "n")
    )
    linked = set(
        MatchTable.objects.filter(match_id__in=ids, round_table__isnull=False).values_list(
            "match_id", flat=True
        )
    )
    return {
        m.pk: match_state(
            m, seats=seats.get(m.pk, 0), linked=m.pk in linked, result=m.result_state, now=now
        )
        for m in matches
    }


def current_day(competition: Competition, today=None) -> int | None:
    """The day the room cares about: one with a match dated today, else the first with
    a match not recorded, else the last; ``None`` without any match."""
    today = today or timezone.localdate()
    rows = list(competition.matches.values_list("day", "date", "recorded_at"))
    if not rows:
        return None
    dated = sorted(day for day, date, _recorded in rows if date == today)
    if dated:
        return dated[0]
    open_days = sorted(day for day, _date, recorded in rows if recorded is None)
    return open_days[0] if open_days else max(day for day, _d, _r in rows)


def days_of(competition: Competition) -> list[int]:
    return sorted(set(competition.matches.values_list("day", flat=True)))


@dataclass
class ScreenMatch:
    match: Match
    state: str

    @property
    def state_label(self):
        return STATE_LABELS[self.state]


@dataclass
class ScreenPart:
    """One page of the screen: a division (its day's matches, its table) or a cup's
    round (its ties)."""

    title: str
    matches: list = field(default_factory=list)  # ScreenMatch
    lines: list = field(default_factory=list)  # table.Line, ranked (a championship)
    key: str = ""


def screen_parts(competition: Competition, day: int, now=None) -> list[ScreenPart]:
    """The match day's pages: a championship's divisions that play that day (their
    matches and table), or the cup's round."""
    if competition.is_cup:
        matches = list(
            competition.matches.filter(day=day).select_related("home", "away").order_by("slot")
        )
        states = match_states(matches, now)
        return [
            ScreenPart(
                title=str(_("Cup round %(n)s") % {"n": day}),
                matches=[ScreenMatch(m, states[m.pk]) for m in matches],
                key="round",
            )
        ]
    parts = []
    views = queries.championship(competition)
    of_day = {view.division.pk: dict(view.days).get(day, []) for view in views}
    states = match_states([m for ms in of_day.values() for m in ms], now)
    for view in views:
        matches = of_day[view.division.pk]
        if not matches and len(views) > 1:
            continue
        parts.append(
            ScreenPart(
                title=view.division.name,
                matches=[ScreenMatch(m, states[m.pk]) for m in matches],
                lines=view.lines,
                key=f"division-{view.division.pk}",
            )
        )
    return parts


def day_dates(competition: Competition, day: int) -> list:
    """The dates of the day's matches (most days: one)."""
    return sorted(
        {d for d in competition.matches.filter(day=day).values_list("date", flat=True) if d}
    )
