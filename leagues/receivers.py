"""Listens to the tournaments below: a counted tournament that closes stores its results."""

from django.dispatch import receiver

from leagues.models import LeagueEvent
from leagues.services import store_results
from tournaments.signals import tournament_closed


@receiver(tournament_closed, dispatch_uid="leagues.store_results")
def on_tournament_closed(sender, tournament, ranking, **kwargs):
    """In the closing's transaction: every season counting the tournament stores its
    per-entry results (a withdrawn event's too: they stay for the record)."""
    for event in LeagueEvent.objects.filter(tournament=tournament).select_related("season"):
        store_results(event, ranking)
