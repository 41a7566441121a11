"""The ledger, the write side: sheets, hands, score rows, the totals and facts kept on
write, a hand's history, the import; the sheet and hand pages; and the engine's web
adapter (``explain_json``, ``explain_labels``, ``formatting``, ``{% load tarot %}``).
Every write goes through ``scoresheet.services``.
"""
