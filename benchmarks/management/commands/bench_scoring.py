"""Benchmark the pure scoring engine on one core.

    manage.py bench_scoring                      # 1,000,000 hands, seed 2026
    manage.py bench_scoring --hands 200000 --seed 7

First, and not timed, ``--hands`` random *valid* hands are generated from
``--seed`` (the same seed gives the same hands): every preset (fft, pousse,
contre5, fixed, mouches, two_players) in about equal shares, each hand under one
of the preset's option combinations (rounding 1/5/10, poignée 20/30/40 or
10/20/40, misère, no_prise, equal split), at tables of 3, 4 and 5 (2 for
two_players), sometimes with a seated player sitting out, with partners, petit
au bout, poignées, chelems, petit chelems, misères and passed hands. Mouches
hands are scored as sheets of ``--sheet-size`` hands so that the pools carry
over, as they do on a real sheet.

Then the hands are scored in this one process, preset by preset, and the command
prints the hands per second overall and by preset, the generation vs scoring
time, and the peak memory (``ru_maxrss``) after each phase. Rates are per second
of this process's CPU time (``time.process_time``), so that other work on the
machine does not count against the engine; the wall time is printed beside it. The generated input
is moved out of the garbage collector's sight (``gc.freeze``) before timing:
scoring keeps nothing, and a web request scores one hand, so rescanning a
million input objects would measure the benchmark, not the engine.
"""

import gc
import random
import resource
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from tarot import PRESETS, REGISTRY, ScoringError, Sheet, score_hand, score_sheet
from tarot.randomhands import BENCH, random_hand, random_seating, rule_variants


def generate(total, seed, sheet_size):
    """The benchmark's input: {preset: [(rules, hand), ...]} and mouches sheets.

    Hands come from the engine's one generator (``scoring.randomhands``, profile
    ``BENCH``), so they are valid by the same deck and ruleset data the engine
    checks.
    """
    rng = random.Random(seed)
    counts = dict.fromkeys(PRESETS, 0)
    for _ in range(total):
        counts[PRESETS[rng.randrange(len(PRESETS))]] += 1
    work = {}
    for preset in PRESETS:
        ruleset = REGISTRY[preset]
        variants = rule_variants(ruleset)
        if ruleset.has_pools:
            sheets = []
            left = counts[preset]
            while left:
                size = min(sheet_size, left)
                left -= size
                rules = variants[rng.randrange(len(variants))]
                # a table of n players, or of n + 1 where the dealer sits out (the mort)
                players, out = random_seating(rng, rules, BENCH)
                hands = []
                for number in range(size):
                    dealer = players[number % len(players)]
                    sits_out = dealer if out is not None else None
                    hands.append(random_hand(rng, rules, players, sits_out, dealer, BENCH))
                sheets.append(Sheet(rules, players, tuple(hands)))
            work[preset] = sheets
            continue
        items = []
        for _ in range(counts[preset]):
            rules = variants[rng.randrange(len(variants))]
            players, sits_out = random_seating(rng, rules, BENCH)
            dealer = players[rng.randrange(len(players))]
            items.append((rules, random_hand(rng, rules, players, sits_out, dealer, BENCH)))
        work[preset] = items
    return work, counts


def peak_mb(who=resource.RUSAGE_SELF):
    """The peak resident memory of this process (or, ``RUSAGE_CHILDREN``, of its
    largest finished child), in MB."""
    peak = resource.getrusage(who).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


class Command(BaseCommand):
    help = "Time the scoring engine on random valid hands of every preset (one core)."
    requires_system_checks = []  # pure scoring: no models, no database

    def add_arguments(self, parser):
        parser.add_argument(
            "--hands", type=int, default=1_000_000, help="hands to score (default 1,000,000)"
        )
        parser.add_argument(
            "--seed", type=int, default=2026, help="random seed: same seed, same hands"
        )
        parser.add_argument(
            "--sheet-size",
            type=int,
            default=20,
            help="hands per mouches sheet (pools carry across a sheet; default 20)",
        )

    def handle(self, *args, hands, seed, sheet_size, **options):
        if hands < 1 or sheet_size < 1:
            raise CommandError("--hands and --sheet-size must be at least 1")
        out = self.stdout.write
        out(f"bench_scoring: {hands:,} random valid hands, seed {seed}, one process")

        start = time.process_time()
        work, counts = generate(hands, seed, sheet_size)
        generation = time.process_time() - start
        peak_generated = peak_mb()
        out(
            f"generation: {generation:.2f} s ({hands / generation:,.0f} hands/s), "
            "not part of the timing below"
        )

        gc.collect()
        gc.freeze()
        timings = {}
        try:
            for preset in PRESETS:
                timings[preset] = self.time_preset(preset, work[preset])
        finally:
            gc.unfreeze()
        scoring = sum(cpu for cpu, _ in timings.values())
        scoring_wall = sum(wall for _, wall in timings.values())
        peak_scored = peak_mb()

        out(
            f"scoring: {hands / scoring:,.0f} hands/s overall on one core "
            f"({scoring:.2f} s CPU, {scoring_wall:.2f} s wall: {hands / scoring_wall:,.0f}/s)"
        )
        for preset in PRESETS:
            count = counts[preset]
            cpu = timings[preset][0]
            rate = count / cpu if cpu else 0
            carries_pools = REGISTRY[preset].has_pools  # scored by sheets
            extra = f" in {len(work[preset]):,} sheets" if carries_pools else ""
            out(f"  {preset:<12} {count:>9,} hands{extra:<16} {cpu:7.2f} s {rate:>11,.0f} hands/s")
        out(
            f"peak memory (ru_maxrss): {peak_generated:,.1f} MB after generation, "
            f"{peak_scored:,.1f} MB after scoring"
        )
        out(
            f"split: generation {generation:.2f} s, scoring {scoring:.2f} s "
            "(CPU time of this process; wall time depends on the machine's load)"
        )

    def time_preset(self, preset, items):
        """(CPU seconds, wall seconds) to score one preset's hands."""
        sheets = REGISTRY[preset].has_pools  # pools carry along a sheet: score sheets
        score = score_sheet if sheets else score_hand
        cpu, wall = time.process_time, time.perf_counter
        try:
            if sheets:
                start_cpu, start_wall = cpu(), wall()
                for sheet in items:
                    score(sheet)
            else:
                start_cpu, start_wall = cpu(), wall()
                for rules, hand in items:
                    score(rules, hand)
            return cpu() - start_cpu, wall() - start_wall
        except ScoringError as error:  # the generator made an invalid hand: a bug here
            raise CommandError(f"generated {preset} hand refused: {error.code}: {error}") from None
