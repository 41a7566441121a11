"""Preset ``fft``: the official rules (RULES.md §1), nothing changed."""

from .base import TarotRuleset


class FFT(TarotRuleset):
    name = "fft"


RULESET = FFT()
