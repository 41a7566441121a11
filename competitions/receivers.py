"""What the team competitions hear from the tournaments (``tournaments.signals``): a
table confirmed may complete a team match played through its tables' links."""

from django.dispatch import receiver

from competitions import services
from tournaments.signals import table_confirmed


@receiver(table_confirmed, dispatch_uid="competitions.table_confirmed")
def record_match(sender, table, **kwargs):
    services.table_confirmed(table)
