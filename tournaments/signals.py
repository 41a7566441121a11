"""What a tournament tells the apps above it (``leagues``), which tournaments never import.

``tournament_closed`` is sent by ``services.close_tournament`` inside its transaction,
once the final ranking is frozen: ``tournament`` and ``ranking`` (the rows of
``queries.ranking``: ``player_id``, ``rank``, ``total``, ``withdrawn_after``…). A
receiver that raises rolls the closing back.
"""

from django.dispatch import Signal

tournament_closed = Signal()
