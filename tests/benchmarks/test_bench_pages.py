"""``bench_pages``' ratios: the median of per-round ratios, so a drift of the machine's
speed between rounds cancels out."""

import pytest

from benchmarks.management.commands.bench_pages import round_ratio


def test_a_ratio_pairs_the_times_of_the_same_round():
    # the machine twice as slow in the last rounds: both pages slow down together
    assert round_ratio([15, 15, 30, 30, 30], [10, 10, 20, 20, 20]) == 1.5
    # one round disturbed (a neighbour process) moves the median, not the ratio
    assert round_ratio([15, 90, 30, 30, 30], [10, 10, 20, 20, 20]) == 1.5


def test_times_of_unequal_rounds_are_refused():
    with pytest.raises(ValueError):
        round_ratio([1, 2, 3], [1, 2])
