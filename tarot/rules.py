"""Rulesets: a preset plus a club's options (RULES.md §2)."""

from dataclasses import dataclass, field

from .errors import ScoringError
from .hand import POIGNEE_SIZES
from .rulesets import PRESETS, REGISTRY
from .rulesets.fixed import RULESET as _FIXED

__all__ = ["CONTRACTS", "FIXED_BASE", "MULTIPLIERS", "POIGNEE_SIZES", "PRESETS", "Rules"]

CONTRACTS = ("prise", "pousse", "garde", "garde_sans", "garde_contre")
SPLITS = ("two_to_one", "equal")
ROUNDINGS = (1, 5, 10)
#: The French Tarot options and their defaults: a ruleset without
#: ``tarot_options`` refuses any other value.
TAROT_DEFAULTS = {
    "rounding": 1,
    "poignee": (20, 30, 40),
    "misere": 0,
    "no_prise": False,
    "five_player_split": "two_to_one",
    "ante": 10,
    "dealer_stake": 5,
}

# Kept for older callers: the registry's rulesets hold these now.
MULTIPLIERS = {name: dict(ruleset.multipliers) for name, ruleset in REGISTRY.items()}
FIXED_BASE = dict(_FIXED.bases)


@dataclass(frozen=True, slots=True)
class Rules:
    """A preset and the options any preset accepts. Immutable and hashable."""

    preset: str = "fft"
    rounding: int = 1
    poignee: tuple[int, int, int] = (20, 30, 40)
    misere: int = 0
    no_prise: bool = False
    five_player_split: str = "two_to_one"
    ante: int = 10
    dealer_stake: int = 5
    # A ruleset's own options (``Ruleset.option_defaults``), e.g. the Savoyard
    # ``deck``, ``count`` and ``baga``: given as a dict or (name, value) pairs,
    # kept as checked pairs with the defaults filled in (``option`` reads one).
    options: tuple = ()
    # Derived once: the own options as a dict.
    opts: dict = field(init=False, repr=False, compare=False, hash=False)
    # Derived once: contract -> multiplier for the contracts this ruleset allows.
    multipliers: dict = field(init=False, repr=False, compare=False, hash=False)
    # Derived once: the registry's ruleset object of the preset (rulesets.REGISTRY).
    ruleset: object = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self):
        ruleset = REGISTRY.get(self.preset) if isinstance(self.preset, str) else None
        if ruleset is None:
            raise ScoringError(
                "rules_invalid",
                f"rules: unknown preset {self.preset!r}; allowed: {', '.join(PRESETS)}",
                field="rules",
                params={"value": str(self.preset), "allowed": ", ".join(PRESETS)},
            )
        own = self.options
        try:
            own = dict(own)
        except (TypeError, ValueError):
            raise ScoringError(
                "rules_invalid", "rules: options must be names and values", field="rules"
            ) from None
        own = ruleset.check_options(own)
        object.__setattr__(self, "options", tuple(own.items()))
        object.__setattr__(self, "opts", own)
        if not ruleset.tarot_options:
            for name, default in TAROT_DEFAULTS.items():
                value = getattr(self, name)
                if value != default or type(value) is not type(default):
                    raise ScoringError(
                        "rules_invalid",
                        f"rules: {name} is not an option of {self.preset}",
                        field=name,
                    )
        if not _is_count(self.rounding) or self.rounding not in ROUNDINGS:
            raise ScoringError(
                "rules_invalid", "rules: rounding must be 1, 5 or 10", field="rounding"
            )
        poignee = tuple(self.poignee)
        if len(poignee) != 3 or not all(_is_count(v) for v in poignee):
            raise ScoringError(
                "rules_invalid",
                "rules: poignee must be three whole non-negative values (single, double, triple)",
                field="poignee",
            )
        object.__setattr__(self, "poignee", poignee)
        for name in ("misere", "ante", "dealer_stake"):
            if not _is_count(getattr(self, name)):
                raise ScoringError(
                    "rules_invalid", f"rules: {name} must be a whole number ≥ 0", field=name
                )
        if not isinstance(self.no_prise, bool):
            raise ScoringError(
                "rules_invalid", "rules: no_prise must be true or false", field="no_prise"
            )
        if self.five_player_split not in SPLITS:
            raise ScoringError(
                "rules_invalid",
                "rules: five_player_split must be two_to_one or equal",
                field="five_player_split",
            )
        object.__setattr__(self, "multipliers", ruleset.contracts(self.no_prise))
        object.__setattr__(self, "ruleset", ruleset)

    @property
    def contracts(self) -> tuple[str, ...]:
        """The contracts this ruleset allows, lowest first."""
        return tuple(self.multipliers)

    @property
    def scores_petit_chelem(self) -> bool:
        return self.ruleset.scores_petit_chelem

    @property
    def has_pools(self) -> bool:
        return self.ruleset.has_pools

    @property
    def kind(self) -> str:
        """The game the ruleset scores: "tarot" or "savoyard" (``Ruleset.kind``)."""
        return self.ruleset.kind

    @property
    def heads_up(self) -> bool:
        """One player against the other, no attack and defence (``Ruleset.heads_up``)."""
        return self.ruleset.heads_up

    @property
    def deck(self):
        """The ruleset's ``Deck`` (total, targets, bounds, chelem bounds)."""
        return self.ruleset.deck

    def option(self, name: str):
        """One of the ruleset's own options (``KeyError`` for an unknown name)."""
        return self.opts[name]

    def describe(self) -> dict:
        """Plain data for the hand form: contracts, player counts, pools, the deck."""
        return self.ruleset.describe(self)

    def as_dict(self) -> dict:
        """The JSON form of HAND_FORMAT.md: only what differs from the defaults."""
        out = {"preset": self.preset}
        default = _DEFAULT
        for name in ("rounding", "misere", "no_prise", "five_player_split", "ante"):
            if getattr(self, name) != getattr(default, name):
                out[name] = getattr(self, name)
        if self.dealer_stake != default.dealer_stake:
            out["dealer_stake"] = self.dealer_stake
        if self.poignee != default.poignee:
            out["poignee"] = list(self.poignee)
        out.update(self.options)  # a ruleset's own options, all of them (explicit)
        return out


def _is_count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_DEFAULT = Rules()
