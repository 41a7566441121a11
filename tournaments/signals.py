"""What a tournament tells extensions (apps it does not know) once a write has committed.

The apps of this project that act on a confirmation or a closing register a follow-up
(``tournaments.followups``), which the services call in their transaction; these
signals are for anything else, and are sent after the transaction commits
(``transaction.on_commit``), so a receiver never sees a write that is rolled back.

``tournament_closed``: ``tournament`` and ``ranking`` (the ranking its kind publishes,
``published.ranking``: ``player_id``, ``rank``, ``total``…), after
``services.close_tournament`` commits.

``table_confirmed``: ``table`` (the ``RoundTable``), after its sheet is confirmed (the
second entry agrees, ``services.check_table``, or the organiser confirms,
``services.confirm_table``).
"""

from django.dispatch import Signal

tournament_closed = Signal()
table_confirmed = Signal()
