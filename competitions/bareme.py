"""A competition's barème changed after its creation, by a league manager.

The match points of a recorded match are kept on its row (``Match.mp_home``…), computed
once by the barème of the moment; the division tables, the cup's bracket, the captains'
confirmations and claims all rest on them. So the barème may change only while no
match of the competition is recorded: once one is, a change is refused (re-computing
would move results the captains confirmed or let run out their 24 hours, and could
change who went through in a cup). The competition's row is locked first, and a
match's result is computed under that lock (``services._record_outcome`` locks the
match with its competition), so a change and a recording go one after the other: the
match reads the new barème, or the change sees the match recorded.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _lazy

from clubs.audit import actor_of
from competitions.models import Competition
from core.errors import ServiceError
from leagues import permissions as league_permissions
from leagues.models import LeagueAuditEntry
from tarot import teammatch

#: a barème's lines at most, and the largest number a line holds (as at creation)
MAX_LINES, MAX_POINTS = 100, 1_000_000

error_messages = {
    "forbidden": _lazy("Only a manager of the league may do this."),
    "results_recorded": _lazy(
        "A match of this competition is recorded: its barème can no longer change "
        "(the results already kept were computed with it)."
    ),
    "scale_start": _lazy("A scale's first line starts at a difference of 0."),
    "scale_order": _lazy("A scale's lines go up by difference, once each."),
    "scale_points": _lazy(
        "Each line gives the side ahead at least the match points of the side behind."
    ),
    "scale_shape": _lazy("A scale is a list of [from, ahead, behind]."),
}


class BaremeError(ServiceError):
    error_messages = error_messages


def editable(competition) -> bool:
    """No match of the competition is recorded yet (the editor is offered)."""
    return not competition.matches.filter(recorded_at__isnull=False).exists()


def _lines(data) -> list:
    try:
        lines = teammatch.Scale.from_data(data).as_data()
    except teammatch.TeamMatchError as error:
        code = error.code if error.code in error_messages else "scale_shape"
        raise BaremeError(code, field="scale") from None
    except (OverflowError, TypeError, ValueError):
        raise BaremeError("scale_shape", field="scale") from None
    if len(lines) > MAX_LINES or any(abs(part) > MAX_POINTS for line in lines for part in line):
        raise BaremeError("scale_shape", field="scale")
    return lines


def set_scale(competition, scale, *, actor=None) -> Competition:
    """The competition's barème (``[[from difference, ahead, behind], …]``), while no
    match is recorded; the change in the league's history (before and after)."""
    league_permissions.require(actor, competition.league, BaremeError)
    lines = _lines(scale)
    with transaction.atomic():
        competition = (
            Competition.objects.select_for_update().select_related("league").get(pk=competition.pk)
        )
        if not editable(competition):
            raise BaremeError("results_recorded")
        before = competition.scale
        if before == lines:
            return competition
        competition.scale = lines
        competition.save(update_fields=["scale"])
        LeagueAuditEntry.objects.create(
            league=competition.league,
            actor=actor_of(actor),
            action=LeagueAuditEntry.Action.BAREME_CHANGED,
            label=competition.name[:200],
            after={"before": before, "after": lines},
        )
    return competition
