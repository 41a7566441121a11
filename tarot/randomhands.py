"""The one generator of random *valid* hands, driven by the ruleset and its deck.

Used by the benchmark (``bench_scoring``), the demo club (``scoresheet.demo``)
and the property tests (Hypothesis draws a ``random.Random`` with
``st.randoms()`` and calls it, so its examples still shrink). Pure: the same
``rng`` state gives the same hand. Validity comes from the same data the engine
checks: the ruleset's player counts, contracts, poignées and petit chelem, and
the deck's bounds by bouts, half points by player count and chelem bounds
(RULES.md §5), so a new rule there is a new rule here.

A ``Profile`` says how often each event happens and how points are drawn:
``BENCH`` (uniform points, a little of everything), ``DEMO`` (plausible
evenings: contracts and bouts weighted, points around the target) and
``THOROUGH`` (every event often, several poignées and misères, points as int,
Decimal or Fraction, sometimes no dealer: for the property tests).

A club of known skill (the ratings' benchmarks and tests): ``skilled_players``
draws a hidden skill per player, ``skilled_hand`` a hand whose attack makes its
contract with a chance that depends on the skills at the table
(``attack_chance``), and ``skilled_sheets`` a season of such sheets. The skills
and chances are floats (a probability, like the profiles'); the hands stay exact.
"""

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from .deck import ATTACK, DEFENCE
from .hand import POIGNEE_SIZES, Chelem, Hand, Poignee
from .rules import Rules

__all__ = [
    "BENCH",
    "DEMO",
    "EXTRAS",
    "THOROUGH",
    "Profile",
    "attack_chance",
    "random_hand",
    "random_seating",
    "rule_variants",
    "skilled_hand",
    "skilled_players",
    "skilled_sheets",
    "tarot_hand",
]

NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fred")
_HALF = {h: Decimal(h) / 2 for h in range(1, 183, 2)}  # shared Decimals for .5 counts
_CHELEMS = tuple(Chelem(a, m) for a in (False, True) for m in (ATTACK, DEFENCE, None))
_POIGNEES = {}  # (player, size) → Poignee, shared

#: What ``extras`` may force (the demo shows each at least once).
EXTRAS = (
    "passed",
    "petit_au_bout_attack",
    "petit_au_bout_defence",
    "poignee_single",
    "poignee_double",
    "poignee_triple",
    "chelem_announced",
    "chelem_unannounced",
    "chelem_defence",
    "misere",
)


@dataclass(frozen=True)
class Profile:
    """How often each event happens (probabilities per hand) and how points come."""

    tables: dict = field(default_factory=lambda: {4: 60, 5: 25, 3: 15})  # players: weight
    extra_seat: float = 0.15  # a table seating one more, who sits out
    passed: float = 0.05
    points: str = "uniform"  # or "realistic": around the target
    contracts: dict | None = None  # contract: weight (None: uniform over the allowed)
    bouts_by_contract: dict | None = None  # contract: weights of 0..3 bouts
    half_point: dict = field(default_factory=dict)  # players: odds a count keeps its .5
    alone_at_five: float = 0.2
    petit_au_bout: float = 0.1
    poignee: float = 0.1
    max_poignees: int = 1
    chelem: float = 0.01
    petit_chelem: float = 0.01
    misere: float = 0.05
    max_miseres: int = 1
    no_dealer: float = 0.0  # where the rules need none
    numbers: tuple = ("int",)  # "int" (Decimal for a .5), "decimal", "fraction"


BENCH = Profile()
DEMO = Profile(
    points="realistic",
    contracts={"prise": 40, "garde": 45, "garde_sans": 10, "garde_contre": 5},
    bouts_by_contract={
        "prise": (20, 45, 30, 5),
        "garde": (8, 37, 42, 13),
        "garde_sans": (2, 20, 50, 28),
        "garde_contre": (0, 10, 50, 40),
    },
    # at four a half point only when the excuse changes sides in the last trick
    half_point={4: 0.05},
    alone_at_five=0.1,
    petit_au_bout=0.1,
    poignee=0.08,
    chelem=0.0,
    petit_chelem=0.0,
    misere=0.02,
)
THOROUGH = Profile(
    tables={3: 1, 4: 1, 5: 1},
    extra_seat=0.5,
    passed=0.1,
    alone_at_five=0.3,
    petit_au_bout=0.6,
    poignee=0.5,
    max_poignees=3,
    chelem=0.4,
    petit_chelem=0.4,
    misere=0.5,
    max_miseres=2,
    no_dealer=0.5,
    numbers=("int", "decimal", "fraction"),
)


def rule_variants(ruleset, **fixed):
    """``Rules`` under every combination of the options a benchmark draws from."""
    if not ruleset.tarot_options:  # a game of its own: its own options
        return [Rules(ruleset.name, options=o, **fixed) for o in ruleset.option_variants()]
    no_prise = (False, True) if "prise" in ruleset.multipliers else (False,)
    return [
        Rules(
            ruleset.name,
            rounding=r,
            poignee=p,
            misere=m,
            no_prise=np,
            five_player_split=split,
            **fixed,
        )
        for r in (1, 5, 10)
        for p in ((20, 30, 40), (10, 20, 40))
        for m in (0, 10)
        for np in no_prise
        for split in ("two_to_one", "equal")
    ]


def random_seating(rng, rules, profile=BENCH, names=NAMES):
    """``(players, sits_out)``: a table the ruleset plays, maybe seating one more."""
    counts = rules.ruleset.player_counts
    weights = [profile.tables.get(n, 0) for n in counts]
    if not any(weights):
        weights = [1] * len(counts)
    n = rng.choices(counts, weights)[0] if len(counts) > 1 else counts[0]
    if n in rules.ruleset.extra_seat_at and rng.random() < profile.extra_seat:
        players = tuple(names[: n + 1])
        return players, players[rng.randrange(n + 1)]
    return tuple(names[:n]), None


def random_hand(rng, rules, players, sits_out=None, dealer=None, profile=BENCH, extras=()):
    """A random valid hand under ``rules`` at this table (the ruleset's own
    generator if it brings one, else ``tarot_hand``)."""
    generate = rules.ruleset.random_hand or tarot_hand
    return generate(rng, rules, players, sits_out, dealer, profile, extras)


def _contract(rng, rules, profile):
    """The taker's contract, drawn by the profile's weights (None: rules without any)."""
    contracts = tuple(rules.multipliers)
    if not contracts:
        return None
    if profile.contracts:
        weights = [profile.contracts.get(c, 0) for c in contracts]
        if not any(weights):
            weights = None
        return rng.choices(contracts, weights)[0]
    return contracts[rng.randrange(len(contracts))]


def _petit_au_bout(rng, deck, bouts, profile, extras):
    """The side that took the petit in the last trick, if any (forced by ``extras``)."""
    if "petit_au_bout_attack" in extras and bouts:
        return ATTACK
    if "petit_au_bout_defence" in extras and bouts < deck.bouts:
        return DEFENCE
    if not extras and rng.random() < profile.petit_au_bout:
        if bouts == deck.bouts or (bouts and rng.random() < 0.6):
            return ATTACK
        return DEFENCE
    return None


def _poignees(rng, ruleset, taker, playing, profile, extras):
    """The poignées shown: the taker's forced one (``extras``), or a few drawn."""
    if not ruleset.has_poignees:
        return ()
    forced = [s for s in POIGNEE_SIZES if f"poignee_{s}" in extras]
    if forced:
        return (_poignee(taker, forced[0]),)
    if rng.random() < profile.poignee:
        count = 1 + (rng.randrange(profile.max_poignees) if profile.max_poignees > 1 else 0)
        showers = rng.sample(playing, min(count, len(playing)))
        sizes = POIGNEE_SIZES if profile.points == "uniform" else POIGNEE_SIZES[:2]
        return tuple(_poignee(p, sizes[rng.randrange(len(sizes))]) for p in showers)
    return ()


def tarot_hand(rng, rules, players, sits_out=None, dealer=None, profile=BENCH, extras=()):
    """A random valid French Tarot hand (RULES.md §1 to §5).

    ``players`` are everybody seated; ``sits_out`` one of them or None.
    ``dealer`` None draws one (or, with ``profile.no_dealer``, leaves none where
    the rules need none). ``extras`` (see ``EXTRAS``) force rare events.
    """
    profile = profile or BENCH
    ruleset = rules.ruleset
    deck = ruleset.deck
    players = tuple(players)
    playing = tuple(p for p in players if p != sits_out) if sits_out is not None else players
    n = len(playing)
    if dealer is None and (ruleset.has_pools or rng.random() >= profile.no_dealer):
        dealer = players[rng.randrange(len(players))]
    miseres = ()
    if rules.misere and ("misere" in extras or rng.random() < profile.misere):
        count = 1 + (rng.randrange(profile.max_miseres) if profile.max_miseres > 1 else 0)
        miseres = tuple(rng.sample(playing, min(count, n)))
    if "passed" in extras or (not extras and rng.random() < profile.passed):
        return Hand(players=players, dealer=dealer, sits_out=sits_out, miseres=miseres)

    taker = playing[rng.randrange(n)]
    contract = _contract(rng, rules, profile)
    partner = None
    if n == 5:
        if rng.random() < profile.alone_at_five:
            partner = taker if rng.random() < 0.5 else None
        else:
            partner = rng.choice([p for p in playing if p != taker])

    # The chelem first: it bounds the bouts and points (RULES.md §5).
    chelem = None
    if "chelem_announced" in extras:
        chelem = Chelem(True, ATTACK)
    elif "chelem_unannounced" in extras:
        chelem = Chelem(False, ATTACK)
    elif "chelem_defence" in extras:
        chelem = Chelem(False, DEFENCE)
    elif rng.random() < profile.chelem:
        chelem = _CHELEMS[rng.randrange(len(_CHELEMS))]
    made_by = chelem.made_by if chelem is not None else None
    bouts, halves = _cards(rng, deck, n, contract, made_by, profile)
    # a forced petit au bout needs a bout on its side (RULES.md §5)
    if made_by is None and (
        ("petit_au_bout_attack" in extras and bouts == 0)
        or ("petit_au_bout_defence" in extras and bouts == deck.bouts)
    ):
        bouts = 1 if bouts == 0 else deck.bouts - 1
        low, high = deck.bounds_halves[bouts]
        halves = min(max(halves, low), high)
    points = _number(rng, halves, profile)

    pab = _petit_au_bout(rng, deck, bouts, profile, extras)
    poignees = _poignees(rng, ruleset, taker, playing, profile, extras)
    petit = None
    if ruleset.scores_petit_chelem and not extras and rng.random() < profile.petit_chelem:
        # not bounded by the points (see Deck): any side, announced or not
        petit = _CHELEMS[rng.randrange(len(_CHELEMS))]
    return Hand(
        players=players,
        taker=taker,
        contract=contract,
        bouts=bouts,
        points=points,
        partner=partner,
        sits_out=sits_out,
        dealer=dealer,
        petit_au_bout=pab,
        poignees=poignees,
        chelem=chelem,
        petit_chelem=petit,
        miseres=miseres,
    )


def _poignee(player, size):
    poignee = _POIGNEES.get((player, size))
    if poignee is None:
        poignee = _POIGNEES[player, size] = Poignee(player, size)
    return poignee


def _cards(rng, deck, n, contract, made_by, profile):
    """``(bouts, points in half points)`` the deck allows, fitting a chelem if any."""
    top = deck.bouts
    if made_by == ATTACK:  # at least 87 points: the bouts must allow that
        floor = 2 * deck.chelem_attack_min
        choices = [b for b in range(top + 1) if deck.bounds_halves[b][1] >= floor]
        bouts = choices[rng.randrange(len(choices))]
        low, high = max(deck.bounds_halves[bouts][0], floor), deck.bounds_halves[bouts][1]
    elif made_by == DEFENCE:  # at most the excuse: 4 points, 1 bout
        ceiling = 2 * deck.chelem_defence_max_points
        choices = [
            b
            for b in range(min(top, deck.chelem_defence_max_bouts) + 1)
            if deck.bounds_halves[b][0] <= ceiling
        ]
        bouts = choices[rng.randrange(len(choices))]
        low, high = deck.bounds_halves[bouts][0], min(deck.bounds_halves[bouts][1], ceiling)
    else:
        weights = (profile.bouts_by_contract or {}).get(contract)
        if weights:
            bouts = rng.choices(range(top + 1), weights)[0]
        else:
            bouts = rng.randrange(top + 1)
        low, high = deck.bounds_halves[bouts]
    if made_by is None and profile.points == "realistic":
        ranked = list(profile.contracts or ())
        rank = ranked.index(contract) if contract in ranked else 0
        spread = rng.gauss(3 + 2 * rank, 9)
        halves = round(2 * (deck.targets[bouts] + spread))
    else:
        halves = rng.randint(low, high)
    halves = min(max(halves, low), high)
    if halves & 1:
        allowed = n in deck.half_points_at
        odds = profile.half_point.get(n, 1.0)
        if not allowed or (odds < 1.0 and rng.random() >= odds):
            halves += 1 if halves < high else -1
    return bouts, halves


def _number(rng, halves, profile):
    """The points as the scorer's input gives them: int, Decimal or Fraction."""
    kinds = profile.numbers
    kind = kinds[0] if len(kinds) == 1 else kinds[rng.randrange(len(kinds))]
    if kind == "fraction":
        return Fraction(halves, 2)
    if kind == "decimal":
        return Decimal(halves) / 2
    return _HALF[halves] if halves & 1 else halves >> 1


# ---------------------------------------------------------------- a club of known skill

#: Hidden skills are drawn around ``SKILL_MEAN`` with this spread; a side's chance
#: is Φ(difference of the sides' mean skills / ``SKILL_SCALE``): one spread of
#: difference between the sides' means is about a 75 % chance.
SKILL_MEAN = 25.0
SKILL_SPREAD = 25 / 6
SKILL_SCALE = SKILL_SPREAD * math.sqrt(2)


def skilled_players(rng, count=16, prefix="Player", spread=SKILL_SPREAD) -> dict:
    """``count`` players, each with a hidden skill (normal around ``SKILL_MEAN``)."""
    return {f"{prefix} {i:02d}": rng.gauss(SKILL_MEAN, spread) for i in range(1, count + 1)}


def attack_chance(skills, attack, defence, scale=SKILL_SCALE) -> float:
    """The chance the attack makes its contract: Φ((mean skill of the attack − mean
    skill of the defence) / ``scale``); a side's strength is its players' mean (one
    strong taker against three average defenders is favoured, not outnumbered)."""
    gap = sum(skills[p] for p in attack) / len(attack)
    gap -= sum(skills[p] for p in defence) / len(defence)
    return 0.5 * (1 + math.erf(gap / scale / math.sqrt(2)))


def skilled_hand(rng, rules, players, skills, sits_out=None, dealer=None, profile=DEMO):
    """A random valid French Tarot hand (``tarot_hand``) whose attack makes its
    contract with the chance ``attack_chance`` gives its sides: the hand is drawn,
    then, when its cards' result is not the one drawn for the skills, its points are
    mirrored about the contract's target (same bouts, same parity of half points, kept
    within the deck's bounds) so that the result is."""
    hand = tarot_hand(rng, rules, players, sits_out, dealer, profile)
    if hand.taker is None or hand.chelem is not None:
        return hand
    playing = [p for p in hand.players if p != hand.sits_out]
    attack = {hand.taker} | ({hand.partner} if hand.partner else set())
    defence = [p for p in playing if p not in attack]
    made = rng.random() < attack_chance(skills, sorted(attack), defence)
    deck = rules.ruleset.deck
    target = deck.target_halves[hand.bouts]
    halves = int(2 * hand.points)
    if (halves >= target) == made:
        return hand
    # made: at least the target; failed: at least a point under it (parity kept)
    halves = 2 * target - halves if made else 2 * target - halves - 2
    low, high = deck.bounds_halves[hand.bouts]
    halves = min(max(halves, low), high)
    if made and halves < target:
        halves = target
    if not made and halves >= target:
        halves = target - 2
    return replace(hand, points=_number(rng, halves, profile))


def skilled_sheets(rng, rules, skills, hands, per_sheet=20, seats=(4, 5)):
    """``hands`` hands in sheets of ``per_sheet`` at tables of ``seats`` players drawn
    from ``skills``' players: a list of ``(players, [Hand])``, in the order played."""
    names = sorted(skills)
    sheets = []
    left = hands
    while left > 0:
        table = tuple(rng.sample(names, rng.choice(seats)))
        count = min(left, per_sheet)
        played = [
            skilled_hand(rng, rules, table, skills, dealer=table[i % len(table)])
            for i in range(count)
        ]
        sheets.append((table, played))
        left -= count
    return sheets
