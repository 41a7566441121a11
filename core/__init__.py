"""Helpers any Django project could use: the base service error, widgets, paging,
exports (CSV/XLSX), bulk writes and database helpers, work in threads and child
processes, throttles, idempotency keys and security headers.

``core`` imports Django only: no app of the project and not the engine (``tarot``);
the engine's web adapter (explanations as JSON and in words, scores in the page's
language, the ``tarot`` template library) belongs to the ledger, in ``scoresheet``.
"""
