"""The club's own pages above the ledger: its home page (``clubs:detail``), its players
(the list, renaming, merging two players and undoing it) and its history (the audit
trail for managers). It reads the ledger and, for a merge, moves a player's ledger rows
in one transaction (``clubhouse.players``)."""
