"""The leagues' follow-up of the tournaments below (``tournaments.followups``): a counted
tournament that closes stores its results, in the closing's transaction."""

from leagues.models import LeagueEvent
from leagues.services import store_results


def tournament_closed(tournament, ranking):
    """Every season counting the tournament stores its per-entry results (a withdrawn
    event's too: they stay for the record). A refusal rolls the closing back."""
    for event in LeagueEvent.objects.filter(tournament=tournament).select_related("season"):
        store_results(event, ranking)
