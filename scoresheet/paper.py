"""The paper-sheet check: the running totals of the paper feuille de marque against
the ledger's, and the first line where they disagree, with why.

Nothing here writes. The scorer types the paper's running totals next to the
hands entered (any lines: an empty line is skipped, the next filled one is
compared with the sum of the hands since the last filled one). At the first
line that disagrees:

``arithmetic``  the paper's line does not balance: its changes since the last
                agreeing line do not add up to what the hands' scores add up to
                (zero, or what went into the pools): a slip of the pen, and the
                columns that are off with the total each should show.
``rules``       the paper's line balances but its scores are not the hand's:
                the hand was scored on paper otherwise than the rules score the
                hand as entered (or the hand was entered otherwise than played).
"""

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from scoresheet.handmap import Table
from scoresheet.models import ScoreRow

#: A total as the ledger can hold it: digits, a sign, at most two decimals (half points).
AMOUNT = re.compile(r"[+-]?\d{1,9}(\.\d{1,2})?")


@dataclass
class Line:
    """A live hand of the sheet, the ledger's running totals after it, and the paper's."""

    hand: object
    scores: list  # the hand's score per seat, in dealing order
    running: list  # the ledger's running totals after the hand
    paper: list | None = None  # the paper's running totals (None: left empty)
    status: str = ""  # "ok", "first" (the first disagreement), "after"


@dataclass
class Finding:
    number: int  # the hand's number
    kind: str  # "arithmetic" or "rules"
    since: int | None  # the number of the last agreeing line (None: the start)
    seats: list = field(default_factory=list)  # positions that disagree
    expected: list = field(default_factory=list)  # per seat: what the paper should show
    paper_change: list = field(default_factory=list)  # per seat: the paper's change
    ledger_change: list = field(default_factory=list)  # per seat: the hands' scores
    paper_sum: Decimal = Decimal(0)
    ledger_sum: Decimal = Decimal(0)


def sheet_lines(sheet) -> tuple[Table, list[Line]]:
    """The sheet's live hands with their scores and running totals (3 queries)."""
    table = Table.of(sheet)
    seats = len(table.names)
    hands = list(sheet.hands.live().order_by("number"))
    scores = {}
    rows = ScoreRow.objects.filter(sheet=sheet).values_list("hand_id", "position", "score")
    for hand_id, position, score in rows:
        scores.setdefault(hand_id, [Decimal(0)] * seats)[position] = score
    running = [Decimal(0)] * seats
    lines = []
    for hand in hands:
        row = scores.get(hand.pk, [Decimal(0)] * seats)
        running = [total + score for total, score in zip(running, row)]
        lines.append(Line(hand=hand, scores=row, running=running))
    return table, lines


def parse_amount(text: str) -> Decimal | None:
    """A total as typed on a phone: "-25", "−25", "+12,5", "12.5"; None for an empty box.
    Raises ``ValueError`` for anything else (or a value not in half points)."""
    text = (text or "").strip().replace("\u2212", "-").replace(",", ".").replace(" ", "")
    if not text:
        return None
    if not AMOUNT.fullmatch(text):
        raise ValueError(text)
    try:
        value = Decimal(text)
    except InvalidOperation:  # pragma: no cover (the pattern admits decimals only)
        raise ValueError(text) from None
    if (value * 2) != (value * 2).to_integral_value():
        raise ValueError(text)
    return value


def compare(lines: list[Line]) -> Finding | None:
    """Mark each line (``status``) and return the first disagreement, or None."""
    seats = len(lines[0].running) if lines else 0
    last_paper = [Decimal(0)] * seats
    last_number = None
    change = [Decimal(0)] * seats  # the hands' scores since the last filled line
    finding = None
    for line in lines:
        if finding is not None:
            line.status = "after"
            continue
        change = [c + s for c, s in zip(change, line.scores)]
        if line.paper is None:
            continue
        if line.paper == line.running:
            line.status = "ok"
            last_paper, last_number = line.paper, line.hand.number
            change = [Decimal(0)] * seats
            continue
        line.status = "first"
        paper_change = [p - q for p, q in zip(line.paper, last_paper)]
        off = [i for i in range(seats) if line.paper[i] != line.running[i]]
        finding = Finding(
            number=line.hand.number,
            kind="arithmetic" if sum(paper_change) != sum(change) else "rules",
            since=last_number,
            seats=off,
            expected=[q + c for q, c in zip(last_paper, change)],
            paper_change=paper_change,
            ledger_change=change,
            paper_sum=sum(paper_change),
            ledger_sum=sum(change),
        )
    return finding
