"""What a tournament tells the apps above it (``leagues``), which tournaments never import.

``tournament_closed`` is sent by ``services.close_tournament`` inside its transaction,
once the final ranking is frozen: ``tournament`` and ``ranking`` (the rows of
``queries.ranking``: ``player_id``, ``rank``, ``total``, ``withdrawn_after``…). A
receiver that raises rolls the closing back.

``table_confirmed`` is sent when a table's sheet is confirmed (the second entry agrees,
``services.check_table``, or the organiser confirms, ``services.confirm_table``), inside
that transaction: ``table`` (the ``RoundTable``). A team match played through table
links (``competitions``) records its result when both its tables are confirmed.
"""

from django.dispatch import Signal

tournament_closed = Signal()
table_confirmed = Signal()
