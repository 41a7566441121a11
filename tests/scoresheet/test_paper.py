"""The paper-sheet check (``scoresheet.paper``): the first line where the paper's
running totals disagree with the ledger's, and why."""

from decimal import Decimal

import pytest

from scoresheet import paper, services
from tests.data import SEED_HANDS


@pytest.fixture
def lines(make_sheet):
    sheet = make_sheet(4)
    for hand in SEED_HANDS:
        services.record_hand(sheet, hand)
    return paper.sheet_lines(sheet)[1]


def _fill(lines, totals):
    for line, values in zip(lines, totals):
        line.paper = None if values is None else [Decimal(v) for v in values]


def test_the_ledgers_running_totals_agree_with_themselves(lines):
    _fill(lines, [line.running for line in lines])
    assert paper.compare(lines) is None
    assert {line.status for line in lines} == {"ok"}


def test_an_arithmetic_slip_is_found_on_its_line(lines):
    totals = [list(line.running) for line in lines]
    totals[2][1] += 10  # Bert's total on hand 3 added up wrong ...
    totals[3][1] += 10  # ... and carried along
    _fill(lines, totals)
    finding = paper.compare(lines)
    assert (finding.number, finding.kind, finding.seats) == (3, "arithmetic", [1])
    assert finding.expected[1] == lines[2].running[1]
    assert finding.paper_sum == Decimal(10) and finding.ledger_sum == 0
    assert [line.status for line in lines] == ["ok", "ok", "first", "after", "after"]


def test_a_hand_scored_otherwise_on_paper_is_a_rules_finding(lines):
    totals = [list(line.running) for line in lines]
    # hand 2 scored on paper as if the petit au bout had not been made: every column
    # moves by a balanced amount that is not the hand's
    change = [Decimal(-10), Decimal(30), Decimal(-10), Decimal(-10)]
    for row in totals[1:]:
        for i, amount in enumerate(change):
            row[i] += amount
    _fill(lines, totals)
    finding = paper.compare(lines)
    assert (finding.number, finding.kind, finding.seats) == (2, "rules", [0, 1, 2, 3])
    assert finding.since == 1


def test_empty_lines_are_skipped(lines):
    totals = [None, None, list(lines[2].running), None, [v + 1 for v in lines[4].running]]
    _fill(lines, totals)
    finding = paper.compare(lines)
    assert finding.number == 5 and finding.since == 3 and finding.kind == "arithmetic"
    assert finding.ledger_change == [a - b for a, b in zip(lines[4].running, lines[2].running)]


@pytest.mark.parametrize(
    "text, value",
    [("-25", Decimal(-25)), ("\u221225", Decimal(-25)), ("+12,5", Decimal("12.5")), ("", None)],
)
def test_amounts_as_typed(text, value):
    assert paper.parse_amount(text) == value


@pytest.mark.parametrize("text", ["abc", "12.25", "1e999999", "NaN", "Infinity", "9" * 20])
def test_bad_amounts(text):
    with pytest.raises(ValueError):
        paper.parse_amount(text)
