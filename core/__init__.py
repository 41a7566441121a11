"""Shared presentation helpers every app may use: numbers, widgets, the ``tarot`` template
library, explanations in words, and the base service error.

``core`` imports Django and the scoring engine only, never ``clubs``, ``scoresheet``,
``standings`` or ``stats``.
"""
