"""Read the ledger against the rules as they are today (``manage.py check_hands``).

Nothing here writes: a stored hand is mapped back to the engine, scored again
under its sheet's frozen rules (pools carried along the sheet under mouches),
and compared with its score rows.
"""

from dataclasses import dataclass

from scoresheet import services
from tarot import ScoringError, halves_to_decimal, score_hand
from tarot.jsonformat import parse_hand


@dataclass(frozen=True)
class Finding:
    number: int  # the hand's number on its sheet
    code: str  # the engine's refusal code, or "scores_differ"
    reason: str


def check_sheet(sheet) -> tuple[list[Finding], int]:
    """The findings of one sheet's live hands, and how many hands were read."""
    table = services.Table.of(sheet)
    ruleset = sheet.ruleset
    hands = list(sheet.hands.live().order_by("number").prefetch_related("scores"))
    findings = []
    pools = ()
    for hand in hands:
        stored = {table.by_id[row.player_id].name: row.score for row in hand.scores.all()}
        try:
            engine_hand = parse_hand(services.hand_data(hand, table), ruleset, table.names)[1]
            result = score_hand(ruleset, engine_hand, pools)
        except ScoringError as error:
            findings.append(Finding(hand.number, error.code, f"refused: {error.message}"))
            pools = tuple(hand.pools or ())  # carry on from what the ledger holds
            continue
        if result.pools is not None:
            pools = result.pools
        now = dict(zip(result.players, (halves_to_decimal(h) for h in result.halves)))
        if any(stored.get(name) != score for name, score in now.items()):
            findings.append(
                Finding(
                    hand.number,
                    "scores_differ",
                    "scores differ: stored "
                    + _scores(stored, table.names)
                    + "; now "
                    + _scores(now, table.names),
                )
            )
    return findings, len(hands)


def _scores(scores, names):
    return ", ".join(f"{name} {_plain(scores.get(name, 0)):+}" for name in names)


def _plain(value):
    """200.0 as 200, 22.50 as 22.5: the ledger's column keeps trailing zeros."""
    return int(value) if value == int(value) else value.normalize()
