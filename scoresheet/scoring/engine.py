"""Score one hand or a whole sheet under a ruleset (RULES.md §1 to §5).

All arithmetic is on integers of half points: a score of 22.5 is held as 45.
The hot path builds no explanation: ``HandResult.explanation`` is built from the
recorded components only when somebody asks for it.
"""

from decimal import Decimal
from typing import NamedTuple

from .errors import ScoringError
from .hand import ATTACK, DEFENCE, Hand, Sheet
from .rules import FIXED_BASE, POIGNEE_SIZES, Rules

# Target by bouts, in half points: 0 → 56, 1 → 51, 2 → 41, 3 → 36.
TARGET_HALVES = (112, 102, 82, 72)
TARGETS = (56, 51, 41, 36)
_POIGNEE_INDEX = {size: i for i, size in enumerate(POIGNEE_SIZES)}
_SIDES = (ATTACK, DEFENCE)
_FFT_CHELEM = {
    # (announced, made_by) -> amount to the attack, never multiplied
    (True, ATTACK): 400,
    (True, None): -200,
    (True, DEFENCE): -400,  # announced and failed (-200), and the defence's chelem (-200)
    (False, ATTACK): 200,
    (False, None): 0,
    (False, DEFENCE): -200,
}
_FIXED_CHELEM = {
    (True, ATTACK): 1000,
    (True, None): -200,
    (True, DEFENCE): -400,
    (False, ATTACK): 1000,
    (False, None): 0,
    (False, DEFENCE): -200,
}
_CONTRE5_PETIT_CHELEM = {
    (True, ATTACK): 300,
    (True, None): -150,
    (True, DEFENCE): -150,
    (False, ATTACK): 0,
    (False, None): 0,
    (False, DEFENCE): 0,
}
_FIXED_PETIT_CHELEM = {
    (True, ATTACK): 500,
    (True, None): 0,
    (True, DEFENCE): 0,
    (False, ATTACK): 500,
    (False, None): 0,
    (False, DEFENCE): 0,
}
_CHELEM_TABLES = {"fixed": _FIXED_CHELEM}
_PETIT_CHELEM_TABLES = {"contre5": _CONTRE5_PETIT_CHELEM, "fixed": _FIXED_PETIT_CHELEM}


class HandResult(NamedTuple):
    """The scores of one hand, and the components they were computed from.

    ``halves`` holds each seated player's score in half points, in seat order, pool
    payments included. Signed amounts (``pab``, ``chelem``, ``exact``,
    ``per_defender``) are seen from the attack: positive means each defender pays.
    """

    players: tuple
    halves: tuple
    kind: str  # "passed", "contract" or "two_players"
    taker: str | None = None
    partner: str | None = None  # the called partner at five, None when alone
    contract: str | None = None
    multiplier: int = 0
    base: int = 0  # 25, the fixed preset's base, or 0 under mouches
    margin: int = 0  # ceil(|points - target|), rounded to 10 under fixed
    made: bool = False
    pab: int = 0
    poignee: int = 0  # total poignée value, to the side that wins the contract
    chelem: int = 0
    petit_chelem: int = 0
    exact: int = 0  # per-defender amount before rounding
    per_defender: int = 0  # after rounding
    playing: tuple = ()  # seat indexes of the attack: (taker,) or (taker, partner)
    sits_out: str | None = None
    miseres: tuple = ()  # names
    misere_value: int = 0
    pools_before: tuple | None = None
    pools: tuple | None = None  # pools after the hand (mouches only)
    pool_moves: tuple = ()  # (event, player, amount): ("ante"|"stake"|"take"|"pay", …)
    points_halves: int = 0
    bouts: int = 0
    split: str = "two_to_one"

    @property
    def scores(self) -> dict[str, Decimal]:
        """Each seated player's score as an exact number (pool payments included)."""
        return {name: halves_to_decimal(h) for name, h in zip(self.players, self.halves)}

    def score(self, player: str) -> Decimal:
        return halves_to_decimal(self.halves[self.players.index(player)])

    @property
    def explanation(self):
        from .explain import explain_hand

        return explain_hand(self)


class SheetResult(NamedTuple):
    players: tuple
    hands: tuple  # HandResult, in order
    totals_halves: tuple
    pools: tuple | None

    @property
    def totals(self) -> dict[str, Decimal]:
        return {n: halves_to_decimal(h) for n, h in zip(self.players, self.totals_halves)}

    def running_totals(self):
        """Yield each hand's running totals in half points, seat order."""
        running = [0] * len(self.players)
        for result in self.hands:
            running = [a + b for a, b in zip(running, result.halves)]
            yield tuple(running)


def halves_to_decimal(halves: int) -> Decimal:
    if halves & 1:
        return Decimal(halves) / 2
    return Decimal(halves >> 1)


def _refuse(code, message, field=None):
    raise ScoringError(code, message, field=field)


def _seated(players, name, field):
    if name not in players:
        _refuse(
            "player_not_at_table",
            f"{field}: {name!r} is not at the table ({', '.join(map(str, players))})",
            field,
        )


def _round_to(value: int, step: int) -> int:
    """Round to the nearest multiple of step, halves away from zero."""
    if step == 1:
        return value
    magnitude = abs(value)
    rest = magnitude % step
    magnitude -= rest
    if 2 * rest >= step:
        magnitude += step
    return magnitude if value >= 0 else -magnitude


def _points_halves(points) -> int:
    if type(points) is int:
        return points * 2
    if isinstance(points, (bool, str, bytes)) or not hasattr(points, "__mul__"):
        _refuse("invalid_field", "points: must be a number", "points")
    try:
        # Range first: int() of a number like 1E+999999 would take minutes.
        outside = points < 0 or points > 91
    except (TypeError, ValueError, ArithmeticError):
        _refuse("invalid_field", "points: must be a number", "points")
    if outside:
        _refuse("points_out_of_range", f"points: {points} is outside 0 to 91", "points")
    try:
        doubled = points * 2
        halves = int(doubled)
    except (TypeError, ValueError, ArithmeticError):
        _refuse("invalid_field", "points: must be a number", "points")
    if halves != doubled:
        _refuse("points_step", f"points: {points} is not a multiple of 0.5", "points")
    return halves


def _chelem_key(chelem, field):
    announced = chelem.announced
    made_by = chelem.made_by
    if announced is not True and announced is not False:
        _refuse("chelem_invalid", f"{field}: announced must be true or false", field)
    if made_by is not None and made_by not in _SIDES:
        _refuse(
            "chelem_invalid",
            f"{field}: made_by must be attack, defence or null, not {made_by!r}",
            field,
        )
    return announced, made_by


def score_hand(rules: Rules, hand: Hand, pools: tuple = ()) -> HandResult:
    """Score one hand. ``pools`` are the mouches pools before it (oldest first)."""
    players = hand.players
    nseat = len(players)
    if nseat < 2 or nseat > 6:
        _refuse("seat_count", f"players: {nseat} seated; a table seats 2 to 6", "players")
    if len(set(players)) != nseat:
        twice = sorted({p for p in players if players.count(p) > 1})
        _refuse("duplicate_player", f"players: {', '.join(twice)} named twice", "players")
    out = hand.sits_out
    if out is None:
        n = nseat
    else:
        _seated(players, out, "sits_out")
        n = nseat - 1
    preset = rules.preset
    if preset == "two_players":
        if n != 2:
            _refuse(
                "player_count",
                f"players: {n} play this hand; the two_players preset is for exactly 2",
                "players",
            )
    elif n < 3 or n > 5:
        _refuse(
            "player_count",
            f"players: {n} play this hand; {preset} scores 3, 4 or 5 players"
            + (" (use the two_players preset for 2)" if n == 2 else ""),
            "players",
        )
    dealer = hand.dealer
    if dealer is not None:
        _seated(players, dealer, "dealer")
    elif preset == "mouches":
        _refuse("dealer_required", "dealer: mouches needs the dealer of every hand", "dealer")
    miseres = hand.miseres
    if miseres:
        if not rules.misere:
            _refuse("misere_not_allowed", "miseres: these rules have no misère", "miseres")
        for name in miseres:
            _seated(players, name, "miseres")
            if name == out:
                _refuse("player_sits_out", f"miseres: {name} sits out this hand", "miseres")
        if len(set(miseres)) != len(miseres):
            _refuse("duplicate_player", "miseres: a player declared misère twice", "miseres")

    halves = [0] * nseat
    if hand.taker is None:
        core = _PASSED
    elif preset == "two_players":
        core = _score_two(rules, hand, players, out, halves)
    else:
        core = _score_contract(rules, hand, players, n, out, halves)
    if not miseres and preset != "mouches":
        return HandResult(
            players, tuple(halves), *core[:15], out, (), 0, None, None, (), *core[15:]
        )

    # Rarer path: misère payments and mouches pools come on top of the card scores.
    misere_value = 0
    if miseres:
        misere_value = rules.misere
        for name in miseres:
            for i, player in enumerate(players):
                if player != out:
                    halves[i] -= 2 * misere_value
            halves[players.index(name)] += 2 * misere_value * n
    before = after = None
    moves = ()
    if preset == "mouches":
        before, after, moves = _pools(rules, core[1], core[7], players, dealer, pools, halves)
    return HandResult(
        players,
        tuple(halves),
        *core[:15],
        out,
        tuple(miseres),
        misere_value,
        before,
        after,
        moves,
        *core[15:],
    )


# The components of a hand where everybody passed (HandResult's fields after halves).
_PASSED = ("passed", None, None, None, 0, 0, 0, False, 0, 0, 0, 0, 0, 0, (), 0, 0, "two_to_one")


def _score_contract(rules, hand, players, n, out, halves):
    taker = hand.taker
    if taker not in players:
        _seated(players, taker, "taker")
    if taker == out:
        _refuse("player_sits_out", f"taker: {taker} sits out this hand", "taker")
    contract = hand.contract
    multiplier = rules.multipliers.get(contract)
    if multiplier is None:
        _refuse(
            "contract_unknown",
            f"contract: {contract!r} is not a contract of these rules; allowed: "
            + ", ".join(rules.multipliers),
            "contract",
        )
    partner = hand.partner
    if partner == taker:
        partner = None
    elif partner is not None:
        if n != 5:
            _refuse(
                "partner_not_five",
                f"partner: a partner is called only when five play; here {n} play",
                "partner",
            )
        _seated(players, partner, "partner")
        if partner == out:
            _refuse("player_sits_out", f"partner: {partner} sits out this hand", "partner")

    bouts, ph = _bouts_points(hand, n)
    pab = hand.petit_au_bout
    _check_pab(pab, bouts)
    preset = rules.preset

    margin_h = ph - TARGET_HALVES[bouts]
    made = margin_h >= 0
    margin = (abs(margin_h) + 1) >> 1
    if preset == "fixed":
        base = FIXED_BASE[contract]
        margin = _round_to(margin, 10)
        won = base + margin
        pab_value = 10
    elif preset == "mouches":
        base = 0
        won = margin * multiplier
        pab_value = 10 * multiplier
    else:
        base = 25
        won = (25 + margin) * multiplier
        pab_value = 10 * multiplier
    amount = won if made else -won
    if pab is None:
        pab_signed = 0
    else:
        pab_signed = pab_value if pab == ATTACK else -pab_value
        amount += pab_signed
    poignee = _poignee_total(rules, hand, players, out)
    if poignee:
        amount += poignee if made else -poignee
    chelem = 0
    if hand.chelem is not None:
        chelem = _CHELEM_TABLES.get(preset, _FFT_CHELEM)[_chelem_key(hand.chelem, "chelem")]
        amount += chelem
    petit_chelem = _petit_chelem(rules, hand)
    amount += petit_chelem
    per_defender = _round_to(amount, rules.rounding)

    # Distribution in half points: each defender pays per_defender.
    s2 = per_defender * 2
    for i, player in enumerate(players):
        if player != out:
            halves[i] = -s2
    ti = players.index(taker)
    if partner is None:
        halves[ti] = s2 * (n - 1)
        playing = (ti,)
    else:
        pi = players.index(partner)
        if rules.five_player_split == "equal":
            halves[ti] = halves[pi] = 3 * per_defender
        else:
            halves[ti] = 2 * s2
            halves[pi] = s2
        playing = (ti, pi)
    return (
        "contract",
        taker,
        partner,
        contract,
        multiplier,
        base,
        margin,
        made,
        pab_signed,
        poignee,
        chelem,
        petit_chelem,
        amount,
        per_defender,
        playing,
        ph,
        bouts,
        rules.five_player_split,
    )


def _score_two(rules, hand, players, out, halves):
    """Two players: the recorded player's points and bouts; the other has the rest."""
    taker = hand.taker
    _seated(players, taker, "taker")
    if taker == out:
        _refuse("player_sits_out", f"taker: {taker} sits out this hand", "taker")
    if hand.contract is not None:
        _refuse(
            "contract_unknown", "contract: two players bid no contract; leave it out", "contract"
        )
    if hand.partner not in (None, taker):
        _refuse("partner_not_five", "partner: two players call no partner", "partner")
    if hand.poignees:
        _refuse("poignee_not_allowed", "poignees: two players show no poignée", "poignees")
    bouts, ph = _bouts_points(hand, 2)
    pab = hand.petit_au_bout
    _check_pab(pab, bouts)
    margin_h = ph - TARGET_HALVES[bouts]
    made = margin_h >= 0
    if made:
        margin = margin_h >> 1
    else:  # the other player reaches their own target with the rest
        margin = (182 - ph - TARGET_HALVES[3 - bouts]) >> 1
    won = 25 + margin
    amount = won if made else -won
    pab_signed = 0 if pab is None else (10 if pab == ATTACK else -10)
    amount += pab_signed
    chelem = 0
    if hand.chelem is not None:
        chelem = _FFT_CHELEM[_chelem_key(hand.chelem, "chelem")]
        amount += chelem
    petit_chelem = _petit_chelem(rules, hand)
    amount += petit_chelem
    per_defender = _round_to(amount, rules.rounding)
    ti = players.index(taker)
    for i in range(len(players)):
        if players[i] != out:
            halves[i] = -2 * per_defender
    halves[ti] = 2 * per_defender
    return (
        "two_players",
        taker,
        None,
        None,
        1,
        25,
        margin,
        made,
        pab_signed,
        0,
        chelem,
        petit_chelem,
        amount,
        per_defender,
        (ti,),
        ph,
        bouts,
        "two_to_one",
    )


def _bouts_points(hand, n):
    bouts = hand.bouts
    if type(bouts) is not int or bouts < 0 or bouts > 3:
        _refuse("bouts_out_of_range", f"bouts: {bouts!r} is not 0, 1, 2 or 3", "bouts")
    ph = _points_halves(hand.points)
    if ph < 0 or ph > 182:
        _refuse("points_out_of_range", f"points: {hand.points} is outside 0 to 91", "points")
    if ph & 1 and (n == 2 or n == 4):
        _refuse(
            "half_point_impossible",
            f"points: {hand.points} has a half point, impossible with {n} players",
            "points",
        )
    if ph < 8 * bouts or ph > 182 - 8 * (3 - bouts):
        _refuse(
            "points_bouts_inconsistent",
            f"points: {hand.points} with {bouts} bouts is impossible; allowed "
            f"{4 * bouts} to {91 - 4 * (3 - bouts)}",
            "points",
        )
    return bouts, ph


def _check_pab(pab, bouts):
    if pab is None:
        return
    if pab == ATTACK:
        if bouts == 0:
            _refuse(
                "petit_au_bout_inconsistent",
                "petit_au_bout: the attack cannot take the petit at the end with 0 bouts",
                "petit_au_bout",
            )
    elif pab == DEFENCE:
        if bouts == 3:
            _refuse(
                "petit_au_bout_inconsistent",
                "petit_au_bout: the defence cannot take the petit at the end when the attack "
                "has all 3 bouts",
                "petit_au_bout",
            )
    else:
        _refuse(
            "petit_au_bout_invalid",
            f"petit_au_bout: {pab!r}; allowed attack, defence or null",
            "petit_au_bout",
        )


def _poignee_total(rules, hand, players, out):
    poignees = hand.poignees
    if not poignees:
        return 0
    values = rules.poignee
    total = 0
    shown = set()
    for poignee in poignees:
        name = poignee.player
        _seated(players, name, "poignees")
        if name == out:
            _refuse("player_sits_out", f"poignees: {name} sits out this hand", "poignees")
        if name in shown:
            _refuse("poignee_twice", f"poignees: {name} shows two poignées", "poignees")
        shown.add(name)
        size = poignee.size
        index = _POIGNEE_INDEX.get(size) if isinstance(size, str) else None
        if index is None:
            _refuse(
                "poignee_size_unknown",
                f"poignees: size {poignee.size!r}; allowed single, double, triple",
                "poignees",
            )
        total += values[index]
    return total


def _petit_chelem(rules, hand):
    petit = hand.petit_chelem
    if petit is None:
        return 0
    key = _chelem_key(petit, "petit_chelem")
    table = _PETIT_CHELEM_TABLES.get(rules.preset)
    if table is None:
        if key == (False, None):
            return 0
        _refuse(
            "petit_chelem_not_scored",
            f"petit_chelem: the {rules.preset} preset does not score a petit chelem "
            "(contre5 and fixed do)",
            "petit_chelem",
        )
    return table[key]


def _pools(rules, taker, made, players, dealer, pools, halves):
    """Mouches: antes, the dealer's stake, and the taker's take or payment.

    Returns the pools before and after the hand and the payments, as
    (event, player, amount) with event "ante", "stake", "take" or "pay".
    """
    before = tuple(pools)
    pools = list(before)
    moves = []
    if not pools:
        ante = rules.ante
        for i, player in enumerate(players):
            halves[i] -= 2 * ante
            moves.append(("ante", player, -ante))
        pools.append(ante * len(players))
    largest = max(pools)
    index = pools.index(largest)  # the oldest of the largest
    pools[index] += rules.dealer_stake
    halves[players.index(dealer)] -= 2 * rules.dealer_stake
    moves.append(("stake", dealer, -rules.dealer_stake))
    if taker is not None:
        largest = max(pools)
        ti = players.index(taker)
        if made:
            pools.pop(pools.index(largest))
            halves[ti] += 2 * largest
            moves.append(("take", taker, largest))
        else:
            pools.append(largest)
            halves[ti] -= 2 * largest
            moves.append(("pay", taker, -largest))
    return before, tuple(pools), tuple(moves)


def score_sheet(sheet: Sheet) -> SheetResult:
    """Score a sheet's hands in order; mouches pools carry from hand to hand."""
    rules = sheet.rules
    players = sheet.players
    results = []
    pools = ()
    for number, hand in enumerate(sheet.hands, start=1):
        try:
            result = score_hand(rules, hand, pools)
        except ScoringError as error:
            error.hand = number
            raise
        if result.pools is not None:
            pools = result.pools
        results.append(result)
    if results:
        totals = tuple(sum(column) for column in zip(*(r.halves for r in results)))
    else:
        totals = (0,) * len(players)
    return SheetResult(players, tuple(results), totals, pools if rules.has_pools else None)
