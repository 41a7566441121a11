"""The facts the statistics pages sum, kept by the write side beside the ledger.

Two tables hold them, both kept in the transaction of every hand write:

* ``SheetTotal`` (one row per sheet and player): besides the standings' counters
  (``COUNTERS``: hands seated, played, taken, made and the score), the player's
  facts (``FACTS``): how often they took each contract and made it, their margins
  and bouts as taker, petit au bout, poignées and chelems on either side, the
  hands at five, their best and worst hand on the sheet, their runs of contracts
  made (``RUNS``). A player's page sums their rows: a few thousand at most.
* ``SheetFacts`` (one row per sheet): the sheet's own facts (``SHEET_FACTS``),
  each hand counted once: on its taker's row or on its first seat's. A season's
  page sums one narrow row per sheet instead of a row per sheet and player.

Each fact is a count or a sum (or the best or worst score) over score rows that
match some lookups on the row's own fields. One declaration gives the three ways
the write side keeps them:

* ``aggregates()``: ORM aggregates over score rows (the SQL rebuild);
* ``Counter`` and ``SheetCounter``: the same counted in Python over row dicts (a
  new hand, a sheet's rewrite after a correction, an imported sheet): the facts
  turned once into steps per role (``_counter``), a field's value picking the few
  facts among many (``GATES``);
* ``model_fields()`` and ``sheet_model_fields()``: the columns.
"""

import functools
import operator
from dataclasses import dataclass
from decimal import Decimal

from django.db import models
from django.db.models import Count, Max, Min, Q, Sum, Value
from django.db.models.functions import Coalesce

from scoresheet.vocabulary import Chelem, Contract, Role, Side
from tarot.rules import POIGNEE_SIZES

TAKER = (Role.TAKER.value,)
PARTNER = (Role.PARTNER.value,)
DEFENDER = (Role.DEFENDER.value,)
ATTACK = (Role.TAKER.value, Role.PARTNER.value)
#: Every role but sitting out: the hand was played (everybody passed, too).
PLAYED = (Role.TAKER.value, Role.PARTNER.value, Role.DEFENDER.value, Role.PASSED.value)
PLAYED_AT_TABLE = (Role.TAKER.value, Role.PARTNER.value, Role.DEFENDER.value)

#: The contracts a taker can hold: French Tarot's and the Savoyard modes with a
#: declarer (under "each" nobody takes).
TAKEN_CONTRACTS = (*Contract.values, "solo", "call", "partners")

#: The taker's margin, bucketed (key, lowest, highest; None: open).
MARGIN_BUCKETS = (
    ("failed_21", None, -21),
    ("failed_11", -20, -11),
    ("failed_1", -10, -1),
    ("made_0", 0, 10),
    ("made_11", 11, 20),
    ("made_21", 21, None),
)

#: How many play a hand: the seated, less one who sits out.
PLAYING = (3, 4, 5)


@dataclass(frozen=True)
class Fact:
    """A count (``of`` None) or a sum, maximum or minimum (``how``) of the field
    ``of`` over the score rows (a player's on a sheet, or a sheet's) that match
    ``where`` (lookups: a field name, optionally with ``__in``, ``__gte``, ``__lte``
    or ``__isnull``). ``role`` is the roles that can match (None: any)."""

    name: str
    role: tuple | None = None
    where: tuple = ()
    of: str | None = None
    how: str = "sum"

    @property
    def lookups(self) -> dict:
        found = dict(self.where)
        if self.role is not None:
            found["role__in"] = self.role
        if self.of is not None and self.how == "sum":
            found[f"{self.of}__isnull"] = False  # SUM leaves NULL out
        return found

    def aggregate(self):
        condition = Q(**self.lookups) if self.lookups else None
        if self.of is None:
            return Count("pk", filter=condition)
        if self.how == "max":
            return Max(self.of, filter=condition)
        if self.how == "min":
            return Min(self.of, filter=condition)
        field = _field(self)
        return Coalesce(Sum(self.of, filter=condition), Value(0), output_field=field)

    @property
    def start(self):
        if self.how != "sum":
            return None
        return Decimal(0) if self.of in DECIMAL_FIELDS else 0


#: Summed fields kept as decimals (half points).
DECIMAL_FIELDS = {"score"}


def _facts():
    yield Fact("seated")
    yield Fact("hands", PLAYED)
    yield Fact("taken", TAKER)
    yield Fact("made", TAKER, (("made", True),))
    yield Fact("score", of="score")
    # ---- the player's own figures
    yield Fact("pool", of="pool")
    yield Fact("passed", (Role.PASSED.value,))
    yield Fact("taker_score", TAKER, of="score")
    yield Fact("taker_margin", TAKER, of="margin")
    yield Fact("taker_margin_n", TAKER, (("margin__isnull", False),))
    yield Fact("taker_bouts", TAKER, of="bouts")
    yield Fact("taker_bouts_n", TAKER, (("bouts__isnull", False),))
    for n in range(4):
        yield Fact(f"bouts_{n}", TAKER, (("bouts", n),))
    for key, low, high in MARGIN_BUCKETS:
        where = []
        if low is not None:
            where.append(("margin__gte", low))
        if high is not None:
            where.append(("margin__lte", high))
        yield Fact(f"margin_{key}", TAKER, tuple(where))
    for side, roles, won, lost in (
        ("attack", ATTACK, Side.ATTACK.value, Side.DEFENCE.value),
        ("defence", DEFENDER, Side.DEFENCE.value, Side.ATTACK.value),
    ):
        yield Fact(f"pab_{side}_won", roles, (("petit_au_bout", won),))
        yield Fact(f"pab_{side}_lost", roles, (("petit_au_bout", lost),))
    yield Fact("miseres", where=(("misere", True),))
    yield Fact("five_played", PLAYED_AT_TABLE, (("playing", 5),))
    yield Fact("called", PARTNER)
    yield Fact("called_made", PARTNER, (("made", True),))
    yield Fact("called_score", PARTNER, of="score")
    yield Fact("alone", TAKER, (("playing", 5), ("alone", True)))
    yield Fact("alone_made", TAKER, (("playing", 5), ("alone", True), ("made", True)))
    for size in POIGNEE_SIZES:
        yield Fact(f"poignee_{size}_attack", ATTACK, (("poignee", size),))
        yield Fact(f"poignee_{size}_defence", DEFENDER, (("poignee", size),))
    for code in Chelem.values:
        yield Fact(f"chelem_{code}_attack", ATTACK, (("chelem", code),))
        yield Fact(f"chelem_{code}_defence", DEFENDER, (("chelem", code),))
    yield from _contract_facts()
    # ---- the best and worst hand played on the sheet (the page's best and worst
    # hands are among the sheets with the highest best and lowest worst)
    yield Fact("best", PLAYED, of="score", how="max")
    yield Fact("worst", PLAYED, of="score", how="min")


def _sheet_facts():
    """The facts of a whole sheet (``SheetFacts``: one row per sheet), each hand
    counted once: on its taker's row or on its first seat's."""
    yield Fact("hands", where=(("position", 0),))
    yield Fact("passed", (Role.PASSED.value,), (("position", 0),))
    for playing in PLAYING:
        yield Fact(f"at_{playing}", where=(("position", 0), ("playing", playing)))
    yield Fact("taken", TAKER)
    yield Fact("made", TAKER, (("made", True),))
    yield Fact("pab_attack", TAKER, (("petit_au_bout", Side.ATTACK.value),))
    yield Fact("pab_defence", TAKER, (("petit_au_bout", Side.DEFENCE.value),))
    yield Fact("five", TAKER, (("playing", 5),))
    yield Fact("called", PARTNER)
    yield Fact("alone", TAKER, (("playing", 5), ("alone", True)))
    yield Fact("miseres", where=(("misere", True),))
    for size in POIGNEE_SIZES:
        yield Fact(f"poignee_{size}", where=(("poignee", size),))
    for code in Chelem.values:
        yield Fact(f"chelem_{code}", TAKER, (("chelem", code),))
    yield from _contract_facts()


def _contract_facts():
    for contract in TAKEN_CONTRACTS:
        where = (("contract", contract),)
        yield Fact(f"contract_{contract}_taken", TAKER, where)
        yield Fact(f"contract_{contract}_made", TAKER, (*where, ("made", True)))
        yield Fact(f"contract_{contract}_score", TAKER, where, of="score")
        yield Fact(f"contract_{contract}_margin", TAKER, where, of="margin")


FACTS = tuple(_facts())
SHEET_FACTS = tuple(_sheet_facts())
SHEET_NAMES = tuple(fact.name for fact in SHEET_FACTS)
#: The taker's runs of contracts made in a row on the sheet, in hand order: the one
#: the sheet opens with (``run_first``: all of ``taken`` when none failed), the one
#: it ends with (``run_last``) and the longest (``run_best``). A failed contract or a
#: Savoyard tie ends a run. Counted in hand order (``Counter``), not by an aggregate.
RUNS = ("run_first", "run_last", "run_best")
NAMES = (*(fact.name for fact in FACTS), *RUNS)
BY_NAME = {fact.name: fact for fact in FACTS}
#: The standings' counters (``SeasonTotal`` adds them up per season).
COUNTERS = NAMES[:5]
#: Kept as the best or worst value, not added.
EXTREMES = tuple(fact.name for fact in FACTS if fact.how != "sum")
assert len(set(NAMES)) == len(NAMES)
_TAKEN, _RUN_FIRST, _RUN_LAST, _RUN_BEST = (NAMES.index(n) for n in ("taken", *RUNS))


def _field(fact):
    if fact.how != "sum":
        return models.DecimalField(max_digits=10, decimal_places=1, null=True, blank=True)
    if fact.of in DECIMAL_FIELDS:
        return models.DecimalField(max_digits=12, decimal_places=1, db_default=Decimal(0))
    return models.IntegerField(db_default=0)


def model_fields():
    """The facts' columns, after the standings' counters (which the model declares)."""
    found = [(fact.name, _field(fact)) for fact in FACTS[len(COUNTERS) :]]
    return found + [(name, models.IntegerField(db_default=0)) for name in RUNS]


def sheet_model_fields():
    """The columns of a whole sheet's facts (``SheetFacts``)."""
    return [(fact.name, _field(fact)) for fact in SHEET_FACTS]


def aggregates(of=FACTS) -> dict:
    """Every fact (a player's, or ``SHEET_FACTS``) as an ORM aggregate over score rows."""
    return {f"fact_{fact.name}": fact.aggregate() for fact in of}


# ---------------------------------------------------------------- in Python


#: The score row fields the facts read.
ROW_FIELDS = (
    "role",
    *sorted(
        {lookup.partition("__")[0] for fact in FACTS + SHEET_FACTS for lookup, _ in fact.where}
        | {fact.of for fact in FACTS + SHEET_FACTS if fact.of}
        | {"made"}
    ),
)

#: The defaults of the score row fields a row dict may leave out (the model's: a
#: Savoyard row has no chelem, poignée, misère or pool).
ROW_DEFAULTS = {
    "contract": "",
    "margin": None,
    "bouts": None,
    "petit_au_bout": "",
    "poignee": "",
    "misere": False,
    "chelem": "",
    "pool": 0,
    "alone": False,
}

_DEFAULTED = frozenset(ROW_DEFAULTS)

#: Fields whose value picks the facts to count among many (``contract``: one of
#: eight contracts' four facts) by a dictionary look-up instead of a test per fact.
GATES = ("contract", "chelem", "poignee", "petit_au_bout", "bouts", "position", "playing")


def _step(i, fact, skip=None):
    """One fact as ``(index, values, wanted, tests, field, better)``: when the row's
    ``values`` (an ``itemgetter``; None: no equality to check) are ``wanted`` and
    its fields pass ``tests`` (``(field, test)`` pairs), count the row at ``index``
    (``field`` None) or, unless the row's ``field`` is None, add it (``better``
    None) or keep it if ``better`` than the value kept (``operator.gt``: the
    largest; ``operator.lt``: the smallest). The role, the gate's field (``skip``)
    and a summed field's ``isnull`` are not checked again."""
    equal, tests = {}, []
    for lookup, wanted in fact.lookups.items():
        field, _, op = lookup.partition("__")
        if lookup == "role__in" or field == skip or (op == "isnull" and field == fact.of):
            continue
        if not op:
            equal[field] = wanted
        elif op == "isnull":
            test = operator.is_ if wanted else operator.is_not
            tests.append((field, functools.partial(test, None)))
        elif op == "gte":
            tests.append((field, functools.partial(_at_least, wanted)))
        else:
            assert op == "lte", lookup
            tests.append((field, functools.partial(_at_most, wanted)))
    better = {"sum": None, "max": operator.gt, "min": operator.lt}[fact.how]
    values = wanted = None
    if equal:
        # one name: the getter gives the value itself; several: a tuple
        values = operator.itemgetter(*equal)
        wanted = tuple(equal.values()) if len(equal) > 1 else next(iter(equal.values()))
    return i, values, wanted, tuple(tests), fact.of, better


def _at_least(low, value):
    return value is not None and value >= low


def _at_most(high, value):
    return value is not None and value <= high


def _plan(items):
    """The steps (``_step``) of some facts (``(index, fact)``): those checked one by
    one, and per gate field the steps of each of its values (the gate's equality is
    a dictionary look-up)."""
    plain, gates = [], {}
    for i, fact in items:
        gate = next(((f, v) for f, v in fact.where if f in GATES), None)
        if gate is None:
            plain.append(_step(i, fact))
        else:
            field, value = gate
            by_value = gates.setdefault(field, {})
            by_value[value] = (*by_value.get(value, ()), _step(i, fact, skip=field))
    return tuple(plain), tuple(gates.items())


def _counter(facts):
    """``count(acc, row)``: add one score row (a dict of its fields) to ``acc`` (a
    list in the order of ``facts``): the steps (``_step``) of the row's role (the
    facts of any role and its own), made once here, run in a loop.

    Cost: 3.8 µs of CPU a row for ``Counter`` and ``SheetCounter`` together (2,700
    score rows of random hands at 4 and 5), 19 µs a hand at five, a few per cent of
    an imported hand (``benchmarks/HISTORY.md``)."""
    plans = {
        role: _plan((i, f) for i, f in enumerate(facts) if f.role is None or role in f.role)
        for role in Role.values
    }
    nothing = _plan(())

    def count(acc, row):
        if not row.keys() >= _DEFAULTED:  # a Savoyard row; the import's rows have them all
            row = {**ROW_DEFAULTS, **row}
        plain, gates = plans.get(row["role"], nothing)
        _run(acc, row, plain)
        for field, by_value in gates:
            steps = by_value.get(row[field])
            if steps is not None:
                _run(acc, row, steps)

    return count


def _run(acc, row, steps):
    for i, values, wanted, tests, field, better in steps:
        if values is not None and values(row) != wanted:
            continue
        for name, test in tests:
            if not test(row[name]):
                break
        else:
            if field is None:
                acc[i] += 1
                continue
            value = row[field]
            if value is None:
                continue
            if better is None:
                acc[i] += value
            elif acc[i] is None or better(value, acc[i]):
                acc[i] = value


_count = _counter(FACTS)
_count_sheet = _counter(SHEET_FACTS)


class _Tally:
    """Facts counted in Python over score row dicts (``add``), as the SQL
    ``aggregates`` count them; ``values`` in the order of ``names``."""

    __slots__ = ("values",)
    facts = SHEET_FACTS
    names = SHEET_NAMES
    count = staticmethod(_count_sheet)
    #: each fact's value before any row (read once: a counter is made per sheet and player)
    starts = tuple(fact.start for fact in SHEET_FACTS)

    def __init__(self):
        self.values = list(self.starts)

    def add(self, row: dict) -> None:
        self.count(self.values, row)

    def as_dict(self) -> dict:
        return dict(zip(self.names, self.values))


class SheetCounter(_Tally):
    """The facts of a whole sheet's score rows (``SHEET_FACTS``)."""

    __slots__ = ()


class Counter(_Tally):
    """The facts of one player's score rows on a sheet (``FACTS`` and ``RUNS``: add
    the rows in hand order); ``values`` in ``NAMES`` order."""

    __slots__ = ()
    facts = FACTS
    names = NAMES

    starts = (*(fact.start for fact in FACTS), *[0] * len(RUNS))

    def add(self, row: dict) -> None:
        values = self.values
        if row["role"] == Role.TAKER:
            # before _count adds the take: whether every take so far was made
            unbroken = values[_RUN_FIRST] == values[_TAKEN]
            if row["made"] is True:
                if unbroken:
                    values[_RUN_FIRST] += 1
                values[_RUN_LAST] += 1
                if values[_RUN_LAST] > values[_RUN_BEST]:
                    values[_RUN_BEST] = values[_RUN_LAST]
            else:
                values[_RUN_LAST] = 0
        _count(values, row)
