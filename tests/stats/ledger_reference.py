"""The statistics as they were computed before the sheets' totals kept their facts:
SQL aggregates over the ledger's rows (``ScoreRow``), kept here as the reference the
facts-based ``stats.queries`` must agree with (``test_facts_match_the_ledger``).

Only what the facts replaced is here; the rounding, the labels and the definitions
are ``stats.queries``'. Each function takes a queryset of ledger rows (a player's
in a season or in all seasons, or a season's) and aggregates it in SQL. It is a
second implementation on purpose: the output is built alike, the counting is not.
"""

from decimal import Decimal
from itertools import accumulate

from django.db import connection
from django.db.models import Avg, Count, F, Min, Q, Sum, Window
from django.db.models.expressions import RowRange
from django.utils.translation import gettext_lazy as _

from scoresheet.models import SeasonTotal, Sheet, SheetTotal
from scoresheet.vocabulary import Role, Side, contract_label
from stats.queries import CHELEMS, CONTRACT_ORDER, POIGNEES, one_decimal, percent

#: The order of the hands in a season: evening, then sheet, then hand number.
HAND_ORDER = ("date", "sheet_id", "number")

TAKER = Q(role=Role.TAKER)
PARTNER = Q(role=Role.PARTNER)
DEFENDER = Q(role=Role.DEFENDER)
PASSED = Q(role=Role.PASSED)
ATTACK = TAKER | PARTNER
PLAYED = ~Q(role=Role.SITS_OUT)
MADE = Q(made=True)
#: One row per hand: the first seat's (every hand has a row for each seat).
FIRST_SEAT = Q(position=0)
#: Five play the hand: five seated and nobody sits out, or six seated and one sits out
#: (``ScoreRow.playing``, stored with the row: no join to the hand).
AT_FIVE = Q(playing=5)
#: The taker plays alone at five: the called card was in the chien or in their own hand
#: (``ScoreRow.alone``, stored with the row).
ALONE = Q(alone=True)

#: How far the taker's contracts were made or failed (the attack's margin, RULES §1).
MARGIN_BUCKETS = (
    ("failed_21", _("failed by 21 or more"), Q(margin__lte=-21)),
    ("failed_11", _("failed by 11 to 20"), Q(margin__gte=-20, margin__lte=-11)),
    ("failed_1", _("failed by 1 to 10"), Q(margin__gte=-10, margin__lte=-1)),
    ("made_0", _("made by 0 to 10"), Q(margin__gte=0, margin__lte=10)),
    ("made_11", _("made by 11 to 20"), Q(margin__gte=11, margin__lte=20)),
    ("made_21", _("made by 21 or more"), Q(margin__gte=21)),
)


def _count(condition):
    return Count("pk", filter=condition)


# ---------------------------------------------------------------- a player


def player_summary(rows) -> dict:
    """A player's figures over ``rows`` (one query).

    Keys: ``total``, ``pools``, ``seated``, ``played``, ``passed``, ``evenings``,
    ``sheets``, ``taken``, ``made``, ``failed``, ``made_pct``, ``taker_score``,
    ``taker_average``, ``margin_average``, ``bouts_average``; ``bouts`` (rows
    ``n``, ``count``), ``margins`` (rows ``key``, ``label``, ``made``, ``count``,
    ``width`` in % of the largest), ``petit_au_bout`` (``attack_won``,
    ``attack_lost``, ``defence_won``, ``defence_lost``: hands where the
    player's side or the other took the last trick with the petit),
    ``poignees`` (rows ``size``, ``label``, ``attack``, ``defence``, ``total``),
    ``chelems`` (rows ``code``, ``label``, ``attack``, ``defence``; only those
    that happened), ``miseres``, and ``five`` (``played``, ``called``,
    ``called_made``, ``called_failed``, ``called_pct``, ``called_score``,
    ``called_average``, ``alone``, ``alone_made``).
    """
    side = {"attack": ATTACK, "defence": DEFENDER}
    aggregates = {
        "total": Sum("score"),
        "pools": Sum("pool"),
        "seated": Count("pk"),
        "played": _count(PLAYED),
        "passed": _count(PASSED),
        "evenings": Count("date", distinct=True),
        "sheets": Count("sheet_id", distinct=True),
        "taken": _count(TAKER),
        "n_made": _count(TAKER & MADE),
        "taker_score": Sum("score", filter=TAKER),
        "margin_average": Avg("margin", filter=TAKER),
        "bouts_average": Avg("bouts", filter=TAKER),
        "pab_attack_won": _count(ATTACK & Q(petit_au_bout=Side.ATTACK)),
        "pab_attack_lost": _count(ATTACK & Q(petit_au_bout=Side.DEFENCE)),
        "pab_defence_won": _count(DEFENDER & Q(petit_au_bout=Side.DEFENCE)),
        "pab_defence_lost": _count(DEFENDER & Q(petit_au_bout=Side.ATTACK)),
        "miseres": _count(Q(misere=True)),
        "five_played": _count(AT_FIVE & (ATTACK | DEFENDER)),
        "called": _count(PARTNER),
        "called_made": _count(PARTNER & MADE),
        "called_score": Sum("score", filter=PARTNER),
        "n_alone": _count(TAKER & AT_FIVE & ALONE),
        "alone_made": _count(TAKER & AT_FIVE & ALONE & MADE),
    }
    for n in range(4):
        aggregates[f"bouts_{n}"] = _count(TAKER & Q(bouts=n))
    for key, _label, condition in MARGIN_BUCKETS:
        aggregates[f"margin_{key}"] = _count(TAKER & condition)
    for size, _label in POIGNEES:
        for name, condition in side.items():
            aggregates[f"poignee_{size}_{name}"] = _count(condition & Q(poignee=size))
    for code, _label in CHELEMS:
        for name, condition in side.items():
            aggregates[f"chelem_{code}_{name}"] = _count(condition & Q(chelem=code))
    data = rows.aggregate(**aggregates)

    taken, made, called = data["taken"], data["n_made"], data["called"]
    margins = [
        {
            "key": key,
            "label": label,
            "made": key.startswith("made"),
            "count": data[f"margin_{key}"],
        }
        for key, label, _condition in MARGIN_BUCKETS
    ]
    widest = max((m["count"] for m in margins), default=0)
    for margin in margins:
        margin["width"] = percent(margin["count"], widest) or 0
    poignees = [
        {
            "size": size,
            "label": label,
            "attack": data[f"poignee_{size}_attack"],
            "defence": data[f"poignee_{size}_defence"],
        }
        for size, label in POIGNEES
    ]
    for poignee in poignees:
        poignee["total"] = poignee["attack"] + poignee["defence"]
    chelems = [
        {
            "code": code,
            "label": label,
            "attack": data[f"chelem_{code}_attack"],
            "defence": data[f"chelem_{code}_defence"],
        }
        for code, label in CHELEMS
    ]
    return {
        "total": data["total"] or Decimal(0),
        "pools": data["pools"] or 0,
        "seated": data["seated"],
        "played": data["played"],
        "passed": data["passed"],
        "evenings": data["evenings"],
        "sheets": data["sheets"],
        "taken": taken,
        "made": made,
        "failed": taken - made,
        "made_pct": percent(made, taken),
        "taker_score": data["taker_score"] or Decimal(0),
        "taker_average": one_decimal(data["taker_score"] / taken) if taken else None,
        "margin_average": one_decimal(data["margin_average"]),
        "bouts_average": one_decimal(data["bouts_average"]),
        "bouts": [{"n": n, "count": data[f"bouts_{n}"]} for n in range(4)],
        "margins": margins,
        "petit_au_bout": {
            key: data[f"pab_{key}"]
            for key in ("attack_won", "attack_lost", "defence_won", "defence_lost")
        },
        "poignees": poignees,
        "poignees_total": sum(p["total"] for p in poignees),
        "chelems": [c for c in chelems if c["attack"] or c["defence"]],
        "miseres": data["miseres"],
        "five": {
            "played": data["five_played"],
            "called": called,
            "called_made": data["called_made"],
            "called_failed": called - data["called_made"],
            "called_pct": percent(data["called_made"], called),
            "called_score": data["called_score"] or Decimal(0),
            "called_average": one_decimal(data["called_score"] / called) if called else None,
            "alone": data["n_alone"],
            "alone_made": data["alone_made"],
        },
    }


def contracts(rows, hands=None) -> list[dict]:
    """Per contract, the takes among ``rows`` (one query), in the order of the bids.

    Rows: ``contract``, ``label``, ``taken``, ``made``, ``failed``, ``made_pct``,
    ``score_average`` (the taker's), ``margin_average``, and ``share`` (% of
    ``hands``, when given). On a player's rows these are the player's takes; on
    a season's rows, every take (one taker row per hand).
    """
    found = (
        rows.filter(TAKER)
        .values("contract")
        .annotate(
            taken=Count("pk"),
            n_made=_count(MADE),
            score_average=Avg("score"),
            margin_average=Avg("margin"),
        )
        .order_by()
    )
    result = [
        {
            "contract": row["contract"],
            "label": contract_label(row["contract"]),
            "taken": row["taken"],
            "made": row["n_made"],
            "failed": row["taken"] - row["n_made"],
            "made_pct": percent(row["n_made"], row["taken"]),
            "score_average": one_decimal(row["score_average"]),
            "margin_average": one_decimal(row["margin_average"]),
            "share": percent(row["taken"], hands) if hands is not None else None,
        }
        for row in found
    ]
    result.sort(key=lambda row: CONTRACT_ORDER.get(row["contract"], len(CONTRACT_ORDER)))
    return result


def evenings(rows) -> list[dict]:
    """Per date, in order (one query): ``date``, ``sheets``, ``sheet_id`` (the
    first), ``played``, ``taken``, ``made``, ``total`` and ``running`` (the total
    after that evening)."""
    found = list(
        rows.values("date")
        .annotate(
            sheets=Count("sheet_id", distinct=True),
            first_sheet=Min("sheet_id"),
            played=_count(PLAYED),
            taken=_count(TAKER),
            n_made=_count(TAKER & MADE),
            total=Sum("score"),
        )
        .order_by("date")
    )
    running = accumulate(row["total"] for row in found)
    return [
        {
            "date": row["date"],
            "sheets": row["sheets"],
            "sheet_id": row["first_sheet"],
            "played": row["played"],
            "taken": row["taken"],
            "made": row["n_made"],
            "total": row["total"],
            "running": total,
        }
        for row, total in zip(found, running)
    ]


def _hand_order():
    return [F(field).asc() for field in HAND_ORDER]


def running_by_hand(rows) -> list[dict]:
    """Every row in hand order with the running total after it (a window SUM; one query).

    Rows: ``date``, ``sheet_id``, ``table``, ``number``, ``role``, ``role_label``,
    ``score``, ``running``.
    """
    found = list(
        rows.annotate(
            table=F("sheet__table"),
            running=Window(Sum("score"), order_by=_hand_order(), frame=RowRange(start=None, end=0)),
        )
        .order_by(*_hand_order())
        .values("date", "sheet_id", "table", "number", "role", "score", "running")
    )
    labels = {role: str(label) for role, label in Role.choices}
    for row in found:
        row["role_label"] = labels[row["role"]]
    return found


HAND_FIELDS = ("score", "date", "sheet_id", "role", "contract", "made", "margin")


def _hands(rows, order, limit):
    return list(
        rows.filter(PLAYED)
        .annotate(table=F("sheet__table"))
        .order_by(order, *HAND_ORDER)
        .values(*HAND_FIELDS, "number", "table")[:limit]
    )


def best_hands(rows, limit=5) -> list[dict]:
    """The ``limit`` highest-scoring hands played (one query), the earliest first on ties."""
    return _label_hands(_hands(rows, "-score", limit))


def worst_hands(rows, limit=5) -> list[dict]:
    """The ``limit`` lowest-scoring hands played (one query), the earliest first on ties."""
    return _label_hands(_hands(rows, "score", limit))


def _label_hands(hands):
    for hand in hands:
        hand["contract_label"] = contract_label(hand["contract"]) if hand["contract"] else ""
        hand["role_label"] = Role(hand["role"]).label
        hand["by"] = abs(hand["margin"]) if hand["margin"] is not None else None
    return hands


def taker_streak(rows) -> dict:
    """The longest run of contracts made in a row as taker, in hand order.

    One ordered query of the player's taken hands (a flag each), scanned once.
    Keys: ``length`` (0 without a contract made), ``first`` and ``last`` (the
    hands that open and close the run: ``date``, ``sheet_id``, ``number``; the
    earliest run on ties) and ``current`` (the run still going at the end).
    """
    taken = (
        rows.filter(TAKER).order_by(*HAND_ORDER).values_list("made", "date", "sheet_id", "number")
    )
    best = {"length": 0, "first": None, "last": None}
    length, first = 0, None
    for made, date, sheet_id, number in taken:
        hand = {"date": date, "sheet_id": sheet_id, "number": number}
        if not made:
            length = 0
            continue
        if length == 0:
            first = hand
        length += 1
        if length > best["length"]:
            best = {"length": length, "first": first, "last": hand}
    return {**best, "current": length}


# ---------------------------------------------------------------- a club's season


def season_counts(season) -> dict:
    """``sheets`` (with a live hand), ``evenings`` (their dates), ``hands`` and ``players``
    of a season, from the stored sheet counts and the season's totals: two small queries
    instead of counting distinct values over the whole ledger (seconds at a million
    hands). A deleted sheet has no live hand in the ledger: it counts for nothing."""
    found = Sheet.objects.filter(
        season=season, deleted_at__isnull=True, hand_count__gt=0
    ).aggregate(sheets=Count("pk"), evenings=Count("date", distinct=True), hands=Sum("hand_count"))
    players = SeasonTotal.objects.filter(season=season, seated__gt=0).count()
    return {
        "sheets": found["sheets"],
        "evenings": found["evenings"],
        "hands": found["hands"] or 0,
        "players": players,
    }


def season_summary(rows, season) -> dict:
    """A season's figures: the hand facts over its ledger rows (one query), the counts of
    sheets, evenings, hands and players from ``season_counts`` (two small ones).

    Hand facts are counted on taker rows (one per hand with a taker); ``passed``
    counts the hands where everybody passed; poignées and misères count the
    players who showed or declared one. Keys: ``hands``, ``sheets``,
    ``evenings``, ``players``, ``passed``, ``passed_pct``, ``taken``, ``made``,
    ``made_pct``, ``petit_au_bout`` (``attack``, ``defence``, ``total``),
    ``poignees`` (rows ``size``, ``label``, ``count``), ``poignees_total``,
    ``chelems`` (rows ``code``, ``label``, ``count``: those that happened),
    ``miseres``, ``five`` (``hands``, ``called``, ``alone``).
    """
    aggregates = {
        "passed": _count(FIRST_SEAT & PASSED),
        "taken": _count(TAKER),
        "n_made": _count(TAKER & MADE),
        "pab_attack": _count(TAKER & Q(petit_au_bout=Side.ATTACK)),
        "pab_defence": _count(TAKER & Q(petit_au_bout=Side.DEFENCE)),
        "miseres": _count(Q(misere=True)),
        "five_hands": _count(TAKER & AT_FIVE),
        "five_called": _count(PARTNER),
        "five_alone": _count(TAKER & AT_FIVE & ALONE),
    }
    for size, _label in POIGNEES:
        aggregates[f"poignee_{size}"] = _count(Q(poignee=size))
    for code, _label in CHELEMS:
        aggregates[f"chelem_{code}"] = _count(TAKER & Q(chelem=code))
    data = rows.aggregate(**aggregates) | season_counts(season)
    poignees = [
        {"size": size, "label": label, "count": data[f"poignee_{size}"]} for size, label in POIGNEES
    ]
    chelems = [
        {"code": code, "label": label, "count": data[f"chelem_{code}"]} for code, label in CHELEMS
    ]
    return {
        "hands": data["hands"],
        "sheets": data["sheets"],
        "evenings": data["evenings"],
        "players": data["players"],
        "passed": data["passed"],
        "passed_pct": percent(data["passed"], data["hands"]),
        "taken": data["taken"],
        "made": data["n_made"],
        "made_pct": percent(data["n_made"], data["taken"]),
        "petit_au_bout": {
            "attack": data["pab_attack"],
            "defence": data["pab_defence"],
            "total": data["pab_attack"] + data["pab_defence"],
        },
        "poignees": poignees,
        "poignees_total": sum(p["count"] for p in poignees),
        "chelems": [c for c in chelems if c["count"]],
        "miseres": data["miseres"],
        "five": {
            "hands": data["five_hands"],
            "called": data["five_called"],
            "alone": data["five_alone"],
        },
    }


def table_sizes(rows) -> list[dict]:
    """Sheets and hands by table size (one query): ``seats`` (seated at the table),
    ``playing`` (who played the hand: one fewer when somebody sits out),
    ``sheets``, ``hands``.

    The first-seat rows (one per hand) are grouped by sheet first, then the groups
    counted: a hash aggregate, where ``COUNT(DISTINCT sheet)`` sorted every hand of
    the season (seconds at a million hands).
    """
    per_sheet = (
        rows.filter(FIRST_SEAT).values("seats", "playing", "sheet_id").annotate(n=Count("pk"))
    ).order_by()
    sql, params = per_sheet.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t.seats, t.playing, COUNT(*), SUM(t.n) FROM (" + sql + ") t "
            "GROUP BY t.seats, t.playing ORDER BY t.seats, t.playing",
            params,
        )
        return [
            {"seats": seats, "playing": playing, "sheets": sheets, "hands": int(hands)}
            for seats, playing, sheets, hands in cursor.fetchall()
        ]


def season_evenings(rows, season) -> list[dict]:
    """Per date, in order: ``date``, ``sheets``, ``players``, ``hands``, ``passed``.

    Three queries that count no distinct values over the ledger: the sheets and hands
    from the stored sheet counts, the players from the sheets' totals, and only the
    hands where everybody passed from the ledger rows.
    """
    sheets = (
        Sheet.objects.filter(season=season, deleted_at__isnull=True, hand_count__gt=0)
        .values("date")
        .annotate(sheets=Count("pk"), hands=Sum("hand_count"))
        .order_by("date")
    )
    players = dict(
        SheetTotal.objects.filter(season=season, seated__gt=0)
        .values("date")
        .annotate(players=Count("player_id", distinct=True))
        .order_by()
        .values_list("date", "players")
    )
    passed = dict(
        rows.filter(FIRST_SEAT & PASSED)
        .values("date")
        .annotate(passed=Count("pk"))
        .order_by()
        .values_list("date", "passed")
    )
    return [
        {
            "date": row["date"],
            "sheets": row["sheets"],
            "players": players.get(row["date"], 0),
            "hands": row["hands"],
            "passed": passed.get(row["date"], 0),
        }
        for row in sheets
    ]
