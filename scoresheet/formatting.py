"""Numbers in the active locale: ``clubs.formatting`` (the engine's refusals, worded in
``clubs.refusals``, format their numbers too, below this app); kept here for the pages
that import it from the ledger."""

from clubs.formatting import format_number, format_signed  # noqa: F401
