"""Compare rating models on clubs of known skill, and check the one kept.

    manage.py bench_rating_model [--seeds 1 2 3] [--hands 4000] [--calibration-hands 12000]
        [--first-tables 2000] [--first-deals 5 1 2 10 20] [--only-first]

No database. For each seed a club of ``--players`` players with a hidden skill each
(``ratings.calibration.skilled_club``: sheets of 20 hands at tables of 4 and 5, the
attack making its contract with a chance set by the sides' mean skills) is rated
by each model, hand after hand, the attack's chance predicted before each hand:

- ``sum``: openskill's ``PlackettLuce`` as the library offers it (a side is the sum
  of its players), chances by its ``predict_win``;
- ``weights``: the same with openskill's ``weights`` at 1/n a player, which the
  library scales into its ``weight_bounds`` (1 to 2) side by side: a lone taker
  moves twice, a defender once; a side's strength is still the sum;
- ``pairwise``: each attacker against each defender, one-against-one matches;
- ``mean Φ``: the model kept, its chances read as openskill's ``predict_win`` reads
  ratings (the normal curve, Φ(Δμ/√(2β² + σa² + σb²))) instead of its own logistic;
- ``mean c×1``: the model kept, its chances by its logistic with the spread c the
  update fits (too sure at both ends: ``compute.SPREAD``);
- ``mean``: the model kept (``ratings.compute``: a side is the mean of its players,
  its chances read with c widened by ``SPREAD``).

Printed per model and seed: the Brier score and log loss of the predictions, the
largest gap between a tenth's mean prediction and its observed rate (points), the
mean μ after the club's hands, and Spearman's correlation of the rating shown with
the hidden skill; then the calibration rule (``ratings.calibration.WITHIN``):
every tenth within 5 points over the seeds' clubs of ``--hands`` pooled, with each
club's own worst tenth beside the worst that chance alone gives predictions
calibrated exactly on that club (at 4,000 hands, about 380 hands a tenth, over 5
points for a quarter of the clubs); then the kept model's calibration tables at
``--calibration-hands``; then ``manage.py rate_hands`` itself on each seed's club
written as interchange lines: its mean μ and Spearman.

Then the chance a round's page shows of finishing a table first
(``compute.predict_first``; ``ratings.calibration.first_of_tables``): each seed's club
rated after its ``--hands`` hands, ``--first-tables`` tables of 4 and 5 of its players
each play a round of each of ``--first-deals`` (5: the tournament form's default),
and the chance shown is set beside the share of first places (ties split), by tenths,
the seeds pooled; beside it the chance read as one hand's (``predict_win``, the deals
ignored), and the time to read the chances of a round of 30 tables.
``--only-first`` prints that section alone.
"""

import io
import math
import os
import re
import tempfile
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand
from openskill.models import PlackettLuce

from ratings import calibration as cal
from ratings.compute import BETA, Rater, State, mean_side, predict_first, predict_win, shown

OPENSKILL = PlackettLuce()


class Library:
    """openskill's own ``rate`` and ``predict_win`` (``weights``: 1/n a player)."""

    def __init__(self, model=OPENSKILL, weights=False):
        self.model, self.weights, self.ratings = model, weights, {}

    def _of(self, player):
        found = self.ratings.get(player)
        if found is None:
            found = self.ratings[player] = self.model.rating()
        return found

    def predict(self, match):
        teams = [[self._of(p) for p in team] for team in match.teams]
        return self.model.predict_win(teams)[0]

    def rate(self, match):
        teams = [[self._of(p) for p in team] for team in match.teams]
        weights = [[1 / len(t)] * len(t) for t in teams] if self.weights else None
        rated = self.model.rate(teams, ranks=list(match.ranks), weights=weights)
        for team, new in zip(match.teams, rated):
            for player, rating in zip(team, new):
                self.ratings[player] = rating

    def state(self, player):
        found = self._of(player)
        return State(found.mu, found.sigma)


class Pairwise:
    """Each attacker against each defender (one against one, the kept arithmetic:
    with sides of one player, openskill's); the attack's chance the mean of its duels'."""

    def __init__(self):
        self.rater = Rater()

    def _state(self, player):
        return self.rater.get(player) or State.new()

    def predict(self, match):
        attack, defence = match.teams
        duels = [
            predict_win([[self._state(a)], [self._state(d)]])[0] for a in attack for d in defence
        ]
        return sum(duels) / len(duels)

    def rate(self, match):
        attack, defence = match.teams
        for a in attack:
            for d in defence:
                self.rater.rate(type(match)(((a,), (d,)), match.ranks))

    def state(self, player):
        return self._state(player)


class Mean:
    """The model kept (``ratings.compute``)."""

    def __init__(self):
        self.rater = Rater()

    def predict(self, match):
        sides = [[self.rater.get(p) or State.new() for p in team] for team in match.teams]
        return predict_win(sides)[0]

    def rate(self, match):
        self.rater.rate(match)

    def state(self, player):
        return self.rater.get(player) or State.new()


class MeanNormal(Mean):
    """The model kept, its chances by the normal curve (openskill's ``predict_win``)."""

    def predict(self, match):
        sides = [[self.rater.get(p) or State.new() for p in team] for team in match.teams]
        (a, var_a), (b, var_b) = (mean_side(side) for side in sides)
        spread = math.sqrt(2 * BETA * BETA + var_a + var_b)
        return 0.5 * (1 + math.erf((a - b) / spread / math.sqrt(2)))


class MeanUnwidened(Mean):
    """The model kept, its chances by its logistic with c as the update fits it (no
    ``SPREAD``)."""

    def predict(self, match):
        sides = [[self.rater.get(p) or State.new() for p in team] for team in match.teams]
        (a, var_a), (b, var_b) = (mean_side(side) for side in sides)
        c = math.sqrt(var_a + var_b + 2 * BETA * BETA)
        return 1.0 / (1.0 + math.exp((b - a) / c))


MODELS = {
    "sum": Library,
    "weights": lambda: Library(OPENSKILL, weights=True),
    "pairwise": Pairwise,
    "mean Φ": MeanNormal,
    "mean c×1": MeanUnwidened,
    "mean": Mean,
}


def run(model, matches):
    predicted, observed = [], []
    for match in matches:
        predicted.append(model.predict(match))
        observed.append(cal.attack_won(match))
        model.rate(match)
    return predicted, observed


class Command(BaseCommand):
    help = "Compare rating models on clubs of known skill; the kept one's calibration."

    def add_arguments(self, parser):
        parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
        parser.add_argument("--hands", type=int, default=4000)
        parser.add_argument("--calibration-hands", type=int, default=12000)
        parser.add_argument("--players", type=int, default=16)
        parser.add_argument("--first-tables", type=int, default=cal.TABLES)
        parser.add_argument("--first-deals", type=int, nargs="+", default=[5, 1, 2, 10, 20])
        parser.add_argument("--only-first", action="store_true")

    def out(self, line=""):
        self.stdout.write(line)
        self.stdout.flush()

    def handle(self, *args, seeds, hands, calibration_hands, players, **options):
        if not options["only_first"]:
            self.models(seeds, hands, calibration_hands, players)
        self.first(seeds, hands, options["first_tables"], options["first_deals"])

    def models(self, seeds, hands, calibration_hands, players):
        self.out(f"Models on clubs of {players} players, {hands:,} hands, seeds {seeds}")
        self.out(
            f"{'model':<9} {'seed':>4} {'Brier':>6} {'log loss':>8} {'worst tenth':>11} "
            f"{'mean μ':>7} {'Spearman':>8} {'µs/hand':>8}"
        )
        clubs = {seed: cal.skilled_club(seed, hands, players) for seed in seeds}
        matches = {seed: cal.club_matches(sheets) for seed, (_s, sheets) in clubs.items()}
        for name, make in MODELS.items():
            for seed in seeds:
                skills = clubs[seed][0]
                model = make()
                started = time.perf_counter()
                predicted, observed = run(model, matches[seed])
                micro = (time.perf_counter() - started) / len(predicted) * 1e6
                table = cal.calibration(predicted, observed)
                states = {p: model.state(p) for p in skills}
                mean_mu = sum(s.mu for s in states.values()) / len(states)
                rho = cal.spearman(
                    [shown(s.mu, s.sigma) for s in states.values()],
                    [skills[p] for p in states],
                )
                self.out(
                    f"{name:<9} {seed:>4} {cal.brier(predicted, observed):>6.4f} "
                    f"{cal.log_loss(predicted, observed):>8.4f} "
                    f"{cal.worst_gap(table):>9.1f} pt {mean_mu:>7.2f} {rho:>8.3f} {micro:>8.1f}"
                )
        self.rule(seeds, hands, players)
        for seed in seeds:
            _skills, sheets = cal.skilled_club(seed, calibration_hands, players)
            predicted, observed, _rater = cal.prequential(cal.club_matches(sheets))
            self.calibration_table(f"seed {seed}", predicted, observed)
        self.rate_hands(clubs)

    def rule(self, seeds, hands, players):
        """The rule (``ratings.calibration``): every tenth within ``WITHIN`` points over
        the seeds' clubs pooled; each club's own worst tenth beside what chance alone
        gives predictions calibrated exactly."""
        self.out(
            f"\nThe rule: every tenth within {cal.WITHIN:.0f} points over the {len(seeds)} "
            f"clubs of {hands:,} hands pooled (one club's tenths swing by chance: below)"
        )
        predicted, observed = [], []
        for seed in seeds:
            _skills, sheets = cal.skilled_club(seed, hands, players)
            more, made, _rater = cal.prequential(cal.club_matches(sheets))
            worst = cal.worst_gap(cal.calibration(more, made))
            median, over = cal.noise(more)
            self.out(
                f"  seed {seed}: worst tenth {worst:.1f} points; predictions calibrated "
                f"exactly: worst tenth {median:.1f} (median), over {cal.WITHIN:.0f} points "
                f"in {over:.0%} of draws"
            )
            predicted += more
            observed += made
        worst = self.calibration_table(
            f"seeds {', '.join(map(str, seeds))} pooled", predicted, observed
        )
        verdict = "within" if worst <= cal.WITHIN else "NOT within"
        self.out(f"  every tenth {verdict} {cal.WITHIN:.0f} points (worst {worst:.1f})")

    def first(self, seeds, hands, tables, deals_list):
        """The chance of finishing a table first, shown before a round, against the
        share of first places, by tenths over the seeds pooled."""
        self.out(
            f"\nFirst of the table after a round: clubs of {hands:,} hands rated, "
            f"{tables:,} tables of 4 and 5 a club, seeds {seeds} pooled"
        )
        self.out(f"{'deals':>5} {'worst tenth':>11} {'as one hand':>11} {'per seed':>17}")
        for deals in deals_list:
            rounds, per_seed = [], []
            for seed in seeds:
                more = cal.first_of_tables(seed, deals, tables, hands)
                per_seed.append(cal.worst_gap(cal.first_calibration(more)))
                rounds += more
            table = cal.first_calibration(rounds)
            flat = cal.first_calibration(rounds, cal.one_hand_chance)
            seeds_text = ", ".join(f"{gap:.1f}" for gap in per_seed)
            self.out(
                f"{deals:>5} {cal.worst_gap(table):>8.1f} pt {cal.worst_gap(flat):>8.1f} pt "
                f"{seeds_text:>17}"
            )
            self.out(
                f"  {'from':>6} {'shown':>6} {'first':>6}   "
                f"{'as one hand':>11} {'first':>6} {'players':>7}"
            )
            for (low, mean, rate, count), (_l, one, one_rate, _n) in zip(table, flat):
                self.out(
                    f"  {low:>6.3f} {mean:>6.3f} {rate:>6.3f}   "
                    f"{one:>11.3f} {one_rate:>6.3f} {count:>7}"
                )
        self.round_page_time(seeds[0], hands)

    def round_page_time(self, seed, hands):
        """The chances of a round of 30 tables (15 of 4, 15 of 5) read as one hand's and
        by ``predict_first``: µs for the round, best of 20."""
        rounds = cal.first_of_tables(seed, 5, 30, hands)
        for label, chance in (("as one hand", cal.one_hand_chance), ("first", predict_first)):
            best = math.inf
            for _ in range(20):
                started = time.perf_counter()
                for states, played, _shares in rounds:
                    chance(states, played)
                best = min(best, time.perf_counter() - started)
            self.out(f"  a round of 30 tables, chances {label}: {best * 1e6:.0f} µs")

    def calibration_table(self, label, predicted, observed) -> float:
        table = cal.calibration(predicted, observed)
        worst = cal.worst_gap(table)
        self.out(
            f"\nCalibration, model kept, {label}, {len(predicted):,} hands "
            f"(worst tenth {worst:.1f} points)"
        )
        self.out(f"{'tenth':>5} {'from':>6} {'predicted':>9} {'observed':>8} {'hands':>6}")
        for number, (low, mean, rate, count) in enumerate(table, start=1):
            self.out(f"{number:>5} {low:>6.3f} {mean:>9.3f} {rate:>8.3f} {count:>6}")
        return worst

    def rate_hands(self, clubs):
        self.out("\nmanage.py rate_hands on each club (its interchange lines)")
        for seed, (skills, sheets) in clubs.items():
            mean_mu, rho = rate_hands_figures(skills, sheets)
            self.out(
                f"  seed {seed}: mean μ {mean_mu:.2f}, Spearman (rating shown, skill) {rho:.3f}"
            )


LINE = re.compile(r"^\s*[-\d]+\s+(?P<name>.+?)\s+rating\s+(?P<rating>[-\d.]+).*μ\s+(?P<mu>[-\d.]+)")


def rate_hands_figures(skills, sheets) -> tuple[float, float]:
    """``manage.py rate_hands`` on the club's sheets written as lines: the mean μ it
    prints and the Spearman correlation of the ratings it prints with the skills."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(cal.jsonl_lines(sheets)) + "\n")
    try:
        printed = io.StringIO()
        call_command("rate_hands", f.name, stdout=printed)
    finally:
        os.unlink(f.name)
    rows = [LINE.match(line).groupdict() for line in printed.getvalue().splitlines() if line]
    mean_mu = sum(float(r["mu"]) for r in rows) / len(rows)
    rho = cal.spearman([float(r["rating"]) for r in rows], [skills[r["name"]] for r in rows])
    return mean_mu, rho
