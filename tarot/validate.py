"""The refusals of RULES.md §5, apart from the arithmetic.

Each function checks one part of a hand and raises ``ScoringError`` with a
stable code (``errors.CODES``); what it returns is the input made ready for the
arithmetic (half points, the partner normalised, the contract's multiplier).
The rulesets call these in order; ``validate_hand`` runs a ruleset's checks
alone, for a form that wants to know whether a hand would be accepted.
"""

from decimal import Decimal

from .deck import ATTACK, DEFENCE, TAROT
from .errors import ScoringError
from .hand import POIGNEE_SIZES

POIGNEE_INDEX = {size: i for i, size in enumerate(POIGNEE_SIZES)}
_SIDES = (ATTACK, DEFENCE)
# Every card count of the tarot deck (0 to its total in steps of 0.5) → half points,
# for a fast exact look-up (another deck's counts miss it and take the long way).
# Equal numbers hash alike, so a Decimal, Fraction or float 40.5 finds 81 and
# Decimal("56.0") finds 112; bool is kept out before the look-up.
_HALVES = {Decimal(h) / 2 if h & 1 else h >> 1: h for h in range(TAROT.total_halves + 1)}


def refuse(code, message, field=None, **params):
    raise ScoringError(code, message, field=field, params=params)


def seated(players, name, field):
    if name not in players:
        refuse(
            "player_not_at_table",
            f"{field}: {name!r} is not at the table ({', '.join(map(str, players))})",
            field,
            name=str(name),
        )


def seating(ruleset, rules, hand):
    """Seats, who sits out, who plays, dealer and misères. Returns ``(n, out)``."""
    players = hand.players
    nseat = len(players)
    if nseat < 2 or nseat > 6:
        refuse("seat_count", f"players: {nseat} seated; a table seats 2 to 6", "players", n=nseat)
    if len(set(players)) != nseat:
        twice = sorted({p for p in players if players.count(p) > 1})
        refuse(
            "duplicate_player",
            f"players: {', '.join(twice)} named twice",
            "players",
            names=", ".join(twice),
        )
    out = hand.sits_out
    if out is None:
        n = nseat
    else:
        seated(players, out, "sits_out")
        n = nseat - 1
    if n not in ruleset.player_counts:
        refuse("player_count", ruleset.player_count_message(n), "players")
    dealer = hand.dealer
    if dealer is not None:
        seated(players, dealer, "dealer")
    elif ruleset.has_pools:
        refuse(
            "dealer_required", f"dealer: {ruleset.name} needs the dealer of every hand", "dealer"
        )
    miseres = hand.miseres
    if miseres:
        if not rules.misere:
            refuse("misere_not_allowed", "miseres: these rules have no misère", "miseres")
        for name in miseres:
            seated(players, name, "miseres")
            if name == out:
                refuse(
                    "player_sits_out", f"miseres: {name} sits out this hand", "miseres", name=name
                )
        if len(set(miseres)) != len(miseres):
            refuse("duplicate_player", "miseres: a player declared misère twice", "miseres")
    return n, out


def check_taker(players, taker, out):
    if taker not in players:
        seated(players, taker, "taker")
    if taker == out:
        refuse("player_sits_out", f"taker: {taker} sits out this hand", "taker", name=taker)


def check_contract(rules, contract):
    """The contract's multiplier (RULES.md §5: a contract unknown to the preset)."""
    multiplier = rules.multipliers.get(contract)
    if multiplier is None:
        refuse(
            "contract_unknown",
            f"contract: {contract!r} is not a contract of these rules; allowed: "
            + ", ".join(rules.multipliers),
            "contract",
            value=str(contract),
            allowed=", ".join(rules.multipliers),
        )
    return multiplier


def check_partner(players, n, taker, partner, out):
    """The called partner, None when the taker plays alone."""
    if partner == taker:
        return None
    if partner is not None:
        if n != 5:
            refuse(
                "partner_not_five",
                f"partner: a partner is called only when five play; here {n} play",
                "partner",
                n=n,
            )
        seated(players, partner, "partner")
        if partner == out:
            refuse(
                "player_sits_out", f"partner: {partner} sits out this hand", "partner", name=partner
            )
    return partner


def points_halves(points, deck=TAROT) -> int:
    """The points as an exact integer of half points, or a refusal (not the bounds)."""
    if type(points) is int:
        return points * 2
    if type(points) is not bool:
        try:
            halves = _HALVES.get(points)
        except TypeError:  # unhashable, or a signalling NaN
            halves = None
        if halves is not None:
            return halves
    if isinstance(points, (bool, str, bytes)) or not hasattr(points, "__mul__"):
        refuse("invalid_field", "points: must be a number", "points")
    try:
        # Range first: int() of a number like 1E+999999 would take minutes.
        outside = points < 0 or points > deck.total
    except (TypeError, ValueError, ArithmeticError):
        refuse("invalid_field", "points: must be a number", "points")
    if outside:
        refuse(
            "points_out_of_range",
            f"points: {points} is outside 0 to {deck.total}",
            "points",
            value=points,
            total=deck.total,
        )
    try:
        doubled = points * 2
        halves = int(doubled)
    except (TypeError, ValueError, ArithmeticError):
        refuse("invalid_field", "points: must be a number", "points")
    if halves != doubled:
        refuse("points_step", f"points: {points} is not a multiple of 0.5", "points", value=points)
    return halves


def cards(deck, hand, n):
    """Bouts and points against the deck (RULES.md §5). Returns ``(bouts, halves)``."""
    bouts = hand.bouts
    if type(bouts) is not int or bouts < 0 or bouts > deck.bouts:
        refuse(
            "bouts_out_of_range",
            f"bouts: {bouts!r} is not 0, 1, 2 or 3",
            "bouts",
            value=str(bouts),
            most=deck.bouts,
        )
    points = hand.points
    ph = points * 2 if type(points) is int else points_halves(points, deck)
    if ph < 0 or ph > deck.total_halves:
        refuse(
            "points_out_of_range",
            f"points: {hand.points} is outside 0 to {deck.total}",
            "points",
            value=hand.points,
            total=deck.total,
        )
    if ph & 1 and n not in deck.half_points_at:
        refuse(
            "half_point_impossible",
            f"points: {hand.points} has a half point, impossible with {n} players "
            "(their count is in whole points)",
            "points",
            value=hand.points,
            n=n,
        )
    low, high = deck.bounds_halves[bouts]
    if ph < low or ph > high:
        refuse(
            "points_bouts_inconsistent",
            f"points: {hand.points} with {bouts} bouts is impossible; allowed "
            f"{low // 2} to {high // 2}",
            "points",
            value=hand.points,
            bouts=bouts,
            low=low // 2,
            high=high // 2,
        )
    return bouts, ph


def check_petit_au_bout(pab, bouts, deck):
    if pab is None:
        return
    if pab == ATTACK:
        if bouts == 0:
            refuse(
                "petit_au_bout_inconsistent",
                "petit_au_bout: the attack cannot take the petit at the end with 0 bouts",
                "petit_au_bout",
            )
    elif pab == DEFENCE:
        if bouts == deck.bouts:
            refuse(
                "petit_au_bout_inconsistent",
                "petit_au_bout: the defence cannot take the petit at the end when the attack "
                "has all 3 bouts",
                "petit_au_bout",
            )
    else:
        refuse(
            "petit_au_bout_invalid",
            f"petit_au_bout: {pab!r}; allowed attack, defence or null",
            "petit_au_bout",
        )


def check_poignees(hand, players, out):
    """At most one poignée per player, of a known size, by a player of the hand."""
    shown = set()
    for poignee in hand.poignees:
        name = poignee.player
        seated(players, name, "poignees")
        if name == out:
            refuse("player_sits_out", f"poignees: {name} sits out this hand", "poignees", name=name)
        if name in shown:
            refuse("poignee_twice", f"poignees: {name} shows two poignées", "poignees", name=name)
        shown.add(name)
        size = poignee.size
        if not isinstance(size, str) or size not in POIGNEE_INDEX:
            refuse(
                "poignee_size_unknown",
                f"poignees: size {poignee.size!r}; allowed single, double, triple",
                "poignees",
            )


def chelem_key(chelem, field):
    """``(announced, made_by)`` of a chelem or petit chelem object."""
    announced = chelem.announced
    made_by = chelem.made_by
    if announced is not True and announced is not False:
        refuse("chelem_invalid", f"{field}: announced must be true or false", field)
    if made_by is not None and made_by not in _SIDES:
        refuse(
            "chelem_invalid",
            f"{field}: made_by must be attack, defence or null, not {made_by!r}",
            field,
        )
    return announced, made_by


def check_chelem(deck, chelem, ph, bouts):
    """The chelem's key, refused when the card points contradict it (RULES.md §5).

    Announced or not, a chelem made by the attack needs at least 87 points and
    one made by the defence leaves the attack at most 4 points and 1 bout (the
    excuse). The petit chelem is not bounded (see ``Deck``).
    """
    key = chelem_key(chelem, "chelem")
    made_by = key[1]
    if made_by is not None:
        why = deck.chelem_refusal(made_by, ph, bouts)
        if why is not None:
            refuse(
                "chelem_points_inconsistent",
                f"chelem: {why}; check the points ({ph / 2:g} with {bouts} bouts) "
                "and who made the chelem",
                "chelem",
            )
    return key


def check_petit_chelem(ruleset, hand):
    """The petit chelem's key, or None; refused where the preset does not score it."""
    petit = hand.petit_chelem
    if petit is None:
        return None
    key = chelem_key(petit, "petit_chelem")
    if ruleset.petit_chelem_table is None:
        if key == (False, None):
            return None
        refuse(
            "petit_chelem_not_scored",
            f"petit_chelem: the {ruleset.name} preset does not score a petit chelem "
            "(contre5 and fixed do)",
            "petit_chelem",
        )
    return key


def tarot(ruleset, rules, hand) -> tuple:
    """Every refusal of RULES.md §5 for a French Tarot hand, in one pass.

    Returns ``(n, out, taker, partner, multiplier, bouts, points_halves,
    chelem_key, petit_chelem_key)``; after ``out`` all None or 0 when all passed.
    The common checks are written inline (this runs for every hand scored); each
    refusal's message is built by the helpers above.
    """
    n, out = seating(ruleset, rules, hand)
    taker = hand.taker
    if taker is None:
        return n, out, None, None, 0, 0, 0, None, None
    players = hand.players
    if taker not in players or taker == out:
        check_taker(players, taker, out)
    multiplier = rules.multipliers.get(hand.contract)
    if multiplier is None:
        check_contract(rules, hand.contract)
    called = hand.partner
    if called is not None:
        called = check_partner(players, n, taker, called, out)
    deck = ruleset.deck
    bouts, ph = cards(deck, hand, n)
    pab = hand.petit_au_bout
    if pab is not None:
        check_petit_au_bout(pab, bouts, deck)
    if hand.poignees:
        check_poignees(hand, players, out)
    ckey = None if hand.chelem is None else check_chelem(deck, hand.chelem, ph, bouts)
    pkey = None if hand.petit_chelem is None else check_petit_chelem(ruleset, hand)
    return n, out, taker, called, multiplier, bouts, ph, ckey, pkey


def two_players(ruleset, rules, hand) -> tuple:
    """RULES.md §4 and §5 for two players: as ``tarot``, with no contract, no
    partner, no poignée; the multiplier is 1. The recorded player is the attack
    for the chelem bounds."""
    n, out = seating(ruleset, rules, hand)
    taker = hand.taker
    if taker is None:
        return n, out, None, None, 0, 0, 0, None, None
    players = hand.players
    check_taker(players, taker, out)
    if hand.contract is not None:
        refuse(
            "contract_unknown",
            "contract: two players bid no contract; leave it out",
            "contract",
        )
    if hand.partner not in (None, taker):
        refuse("partner_not_five", "partner: two players call no partner", "partner")
    if hand.poignees:
        refuse("poignee_not_allowed", "poignees: two players show no poignée", "poignees")
    deck = ruleset.deck
    bouts, ph = cards(deck, hand, n)  # a half point is refused: 2 is not in half_points_at
    check_petit_au_bout(hand.petit_au_bout, bouts, deck)
    ckey = None if hand.chelem is None else check_chelem(deck, hand.chelem, ph, bouts)
    pkey = check_petit_chelem(ruleset, hand)
    return n, out, taker, None, 1, bouts, ph, ckey, pkey


def validate_hand(rules, hand) -> None:
    """Raise the ``ScoringError`` scoring this hand would raise, or return None."""
    rules.ruleset.validate(rules, hand)
