"""What a scorer records for one hand, and a sheet of hands (HAND_FORMAT.md)."""

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from .deck import ATTACK, DEFENCE

__all__ = ["ATTACK", "DEFENCE", "POIGNEE_SIZES", "Chelem", "Hand", "Poignee", "Sheet"]

POIGNEE_SIZES = ("single", "double", "triple")


@dataclass(frozen=True, slots=True)
class Poignee:
    player: str
    size: str  # single | double | triple


@dataclass(frozen=True, slots=True)
class Chelem:
    """A chelem (or petit chelem): announced or not, and made by which side.

    ``made_by`` None with ``announced`` means announced and failed.
    """

    announced: bool = False
    made_by: str | None = None


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand. ``players`` is everybody seated, in dealing order.

    ``taker`` None means everybody passed. ``points`` are the attack's card points
    (with two players: the recorded player's), an int, ``Decimal`` or ``Fraction``
    in steps of 0.5.
    """

    players: tuple[str, ...]
    taker: str | None = None
    contract: str | None = None
    bouts: int = 0
    points: int | Decimal | Fraction = 0
    partner: str | None = None
    sits_out: str | None = None
    dealer: str | None = None
    petit_au_bout: str | None = None
    poignees: tuple[Poignee, ...] = ()
    chelem: Chelem | None = None
    petit_chelem: Chelem | None = None
    miseres: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sheet:
    """A table's hands in order, under one ruleset and one seating."""

    rules: object  # a Rules (not imported: rules imports the rulesets, which import this)
    players: tuple[str, ...]
    hands: tuple[Hand, ...]
