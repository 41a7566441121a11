"""Realistic random hands for the demo club, reproducible from a seed."""

import random
from decimal import Decimal

from scoresheet.scoring.engine import TARGETS

CONTRACT_WEIGHTS = {"prise": 40, "garde": 45, "garde_sans": 10, "garde_contre": 5}
BOUTS_BY_CONTRACT = {
    "prise": (20, 45, 30, 5),
    "garde": (8, 37, 42, 13),
    "garde_sans": (2, 20, 50, 28),
    "garde_contre": (0, 10, 50, 40),
}
POIGNEE_SIZES = ("single", "double", "triple")


def random_hand(rng: random.Random, names, rules: dict, dealer: str, *, extras=()) -> dict:
    """One plausible hand (a HAND_FORMAT dict without players and rules).

    ``extras`` forces rarer events so a demo shows each at least once:
    "petit_au_bout_attack", "petit_au_bout_defence", "poignee_<size>",
    "chelem_announced", "chelem_unannounced", "chelem_defence", "misere", "passed".
    """
    names = list(names)
    preset = rules.get("preset", "fft")
    hand = {"dealer": dealer}
    playing = names
    if len(names) == 6:  # six seated: the dealer sits out, five play
        hand["sits_out"] = dealer
        playing = [n for n in names if n != dealer]
    if "passed" in extras or (rng.random() < 0.05 and not extras):
        hand["taker"] = None
        return hand
    taker = rng.choice(playing)
    hand["taker"] = taker
    contracts = dict(CONTRACT_WEIGHTS)
    if rules.get("no_prise"):
        contracts.pop("prise")
    contract = rng.choices(list(contracts), weights=list(contracts.values()))[0]
    if preset != "two_players":
        hand["contract"] = contract
    bouts = rng.choices(range(4), weights=BOUTS_BY_CONTRACT[contract])[0]
    target = TARGETS[bouts]
    n = len(playing)
    half = n in (3, 5)
    spread = rng.gauss(3 + 2 * list(CONTRACT_WEIGHTS).index(contract), 9)
    points = round((target + spread) * (2 if half else 1)) / (2 if half else 1)
    points = min(max(points, 4 * bouts), 91 - 4 * (3 - bouts))
    if "chelem_announced" in extras or "chelem_unannounced" in extras:
        bouts, points = 3, 91
    if "chelem_defence" in extras:
        bouts, points = 0, 0
    hand["bouts"] = bouts
    hand["points"] = int(points) if points == int(points) else Decimal(str(points))
    if n == 5:
        others = [p for p in playing if p != taker]
        hand["partner"] = taker if rng.random() < 0.1 else rng.choice(others)
    if "petit_au_bout_attack" in extras or (bouts and rng.random() < 0.08):
        hand["petit_au_bout"] = "attack" if bouts else None
    elif "petit_au_bout_defence" in extras or (bouts < 3 and rng.random() < 0.04):
        hand["petit_au_bout"] = "defence" if bouts < 3 else None
    poignees = []
    for size in POIGNEE_SIZES:
        if f"poignee_{size}" in extras:
            poignees.append({"player": taker, "size": size})
    if not poignees and rng.random() < 0.08:
        poignees.append({"player": rng.choice(playing), "size": rng.choice(POIGNEE_SIZES[:2])})
    if poignees:
        hand["poignees"] = poignees
    if "chelem_announced" in extras:
        hand["chelem"] = {"announced": True, "made_by": "attack"}
    elif "chelem_unannounced" in extras:
        hand["chelem"] = {"announced": False, "made_by": "attack"}
    elif "chelem_defence" in extras:
        hand["chelem"] = {"announced": False, "made_by": "defence"}
    if ("misere" in extras or rng.random() < 0.02) and rules.get("misere"):
        hand["miseres"] = [rng.choice([p for p in playing if p != taker])]
    return hand
