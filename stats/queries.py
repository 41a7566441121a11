"""Season statistics of a player and of a club, from the sheets' totals.

Most figures are sums over *totals*, a queryset of ``SheetTotal`` (one row per
sheet and player, which the write side keeps with the statistics' facts:
``scoresheet.facts``): a player's in a season
(``SheetTotal.objects.of_player(player, season)``), in all the club's seasons
(``season=None``), or a whole season's (``SheetTotal.objects.of_season(season)``).
A season's page so sums a row per sheet and player instead of a row per hand and
player: thousands of rows where the ledger has millions. The hands themselves
(the per-hand table's page, the best and worst hands, the longest run of
contracts made) are read from the ledger's *rows* (``ScoreRow``), only on the
sheets the totals point to. Nothing here scores a hand again.

Definitions (the same as ``scoresheet.summaries``): a hand is *played* by every
seated player but the one who sits out (a hand where everybody passed is
played); the *attack* is the taker and the called partner, the *defence* the
other players; *hand order* is date, sheet, hand number. Averages and shares
are rounded to one decimal (``one_decimal``) and percentages to whole numbers
(``percent``), half away from zero.
"""

import datetime
from bisect import bisect_right
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from django.db.models import Count, F, Q, Sum, Window
from django.utils.translation import gettext_lazy as _

from core.db import plain_values
from core.ranking import rank_window
from scoresheet import facts
from scoresheet.models import SeasonTotal, Sheet
from scoresheet.vocabulary import POIGNEE_LABELS, Chelem, Contract, Role, Side, contract_label
from tarot import REGISTRY

#: The order of the hands in a season: evening, then sheet, then hand number.
HAND_ORDER = ("date", "sheet_id", "number")

TAKER = Q(role=Role.TAKER)
PARTNER = Q(role=Role.PARTNER)
DEFENDER = Q(role=Role.DEFENDER)
ATTACK = TAKER | PARTNER
PLAYED = ~Q(role=Role.SITS_OUT)

#: How far the taker's contracts were made or failed (the attack's margin, RULES §1);
#: the bounds are the facts' (``scoresheet.facts.MARGIN_BUCKETS``).
MARGIN_LABELS = {
    "failed_21": _("failed by 21 or more"),
    "failed_11": _("failed by 11 to 20"),
    "failed_1": _("failed by 1 to 10"),
    "made_0": _("made by 0 to 10"),
    "made_11": _("made by 11 to 20"),
    "made_21": _("made by 21 or more"),
}
MARGIN_BUCKETS = tuple((key, MARGIN_LABELS[key]) for key, _low, _high in facts.MARGIN_BUCKETS)
SIDES = ("attack", "defence")

POIGNEES = tuple(POIGNEE_LABELS.items())

#: ScoreRow.chelem codes, most glorious first.
CHELEMS = tuple(Chelem.choices)

CONTRACT_ORDER = {value: i for i, value in enumerate(Contract.values)}


# ---------------------------------------------------------------- numbers


def one_decimal(value):
    """An average for display: a Decimal with one decimal, or None."""
    if value is None:
        return None
    if not isinstance(value, Decimal):
        value = Decimal(repr(value))
    return value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def percent(part, whole):
    """``part`` of ``whole`` in whole percent (None when ``whole`` is 0)."""
    if not whole:
        return None
    return (Decimal(part) * 100 / whole).quantize(Decimal(1), rounding=ROUND_HALF_UP)


def _count(condition):
    return Count("pk", filter=condition)


# ---------------------------------------------------------------- a player


def _sum(totals, names) -> dict:
    """``SUM`` of some SheetTotal columns over ``totals`` (0 over no row)."""
    found = totals.aggregate(**{name: Sum(name) for name in names})
    return {name: value or 0 for name, value in found.items()}


def _average(total, count):
    return one_decimal(Decimal(total) / count) if count else None


PLAYER_FACTS = (
    "score",
    "pool",
    "seated",
    "hands",
    "passed",
    "taken",
    "made",
    "taker_score",
    "taker_margin",
    "taker_margin_n",
    "taker_bouts",
    "taker_bouts_n",
    "pab_attack_won",
    "pab_attack_lost",
    "pab_defence_won",
    "pab_defence_lost",
    "miseres",
    "five_played",
    "called",
    "called_made",
    "called_score",
    "alone",
    "alone_made",
    *(f"bouts_{n}" for n in range(4)),
    *(f"margin_{key}" for key, _label in MARGIN_BUCKETS),
    *(f"poignee_{size}_{side}" for size, _label in POIGNEES for side in SIDES),
    *(f"chelem_{code}_{side}" for code, _label in CHELEMS for side in SIDES),
)


def player_summary(totals) -> dict:
    """A player's figures over their sheets' totals ``totals`` (one query: sums of
    the facts the write side keeps on each SheetTotal, ``scoresheet.facts``).

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
    return _player_summary(_player_sums(totals))


def player_summary_and_contracts(totals) -> tuple[dict, list[dict]]:
    """``player_summary`` and ``contracts`` of a player's totals, from one query."""
    data = _player_sums(totals, CONTRACT_FACTS)
    return _player_summary(data), _contracts(data)


def _player_sums(totals, more=()) -> dict:
    found = totals.aggregate(
        evenings=Count("date", distinct=True),
        sheets=Count("pk"),
        **{name: Sum(name) for name in (*PLAYER_FACTS, *more)},
    )
    return {name: value or 0 for name, value in found.items()}


def _player_summary(data) -> dict:
    taken, made, called = data["taken"], data["made"], data["called"]
    margins = [
        {
            "key": key,
            "label": str(label),
            "made": key.startswith("made"),
            "count": data[f"margin_{key}"],
        }
        for key, label in MARGIN_BUCKETS
    ]
    widest = max((m["count"] for m in margins), default=0)
    for margin in margins:
        margin["width"] = percent(margin["count"], widest) or 0
    poignees = [
        {
            "size": size,
            "label": str(label),
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
            "label": str(label),
            "attack": data[f"chelem_{code}_attack"],
            "defence": data[f"chelem_{code}_defence"],
        }
        for code, label in CHELEMS
    ]
    return {
        "total": Decimal(data["score"]),
        "pools": data["pool"],
        "seated": data["seated"],
        "played": data["hands"],
        "passed": data["passed"],
        "evenings": data["evenings"],
        "sheets": data["sheets"],
        "taken": taken,
        "made": made,
        "failed": taken - made,
        "made_pct": percent(made, taken),
        "taker_score": Decimal(data["taker_score"]),
        "taker_average": _average(data["taker_score"], taken),
        "margin_average": _average(data["taker_margin"], data["taker_margin_n"]),
        "bouts_average": _average(data["taker_bouts"], data["taker_bouts_n"]),
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
            "called_score": Decimal(data["called_score"]),
            "called_average": _average(data["called_score"], called),
            "alone": data["alone"],
            "alone_made": data["alone_made"],
        },
    }


def contracts(totals, hands=None) -> list[dict]:
    """Per contract, the takes counted in ``totals`` (one query), in the order of the bids.

    Rows: ``contract``, ``label``, ``taken``, ``made``, ``failed``, ``made_pct``,
    ``score_average`` (the taker's), ``margin_average``, and ``share`` (% of
    ``hands``, when given); only the contracts taken. On a player's totals these are
    the player's takes; on a season's, every take (each counted on its taker's row).
    """
    return _contracts(_sum(totals, CONTRACT_FACTS), hands)


CONTRACT_PARTS = ("taken", "made", "score", "margin")
CONTRACT_FACTS = tuple(
    f"contract_{c}_{part}" for c in facts.TAKEN_CONTRACTS for part in CONTRACT_PARTS
)


def _contracts(data, hands=None) -> list[dict]:
    result = []
    for contract in facts.TAKEN_CONTRACTS:
        taken, made, score, margin = (
            data[f"contract_{contract}_{part}"] for part in CONTRACT_PARTS
        )
        if not taken:
            continue
        result.append(
            {
                "contract": contract,
                "label": str(contract_label(contract)),
                "taken": taken,
                "made": made,
                "failed": taken - made,
                "made_pct": percent(made, taken),
                "score_average": _average(score, taken),
                "margin_average": _average(margin, taken),
                "share": percent(taken, hands) if hands is not None else None,
            }
        )
    result.sort(key=lambda row: CONTRACT_ORDER.get(row["contract"], len(CONTRACT_ORDER)))
    return result


#: What ``player_sheets`` reads of each SheetTotal: all in the index
#: ``sheet_total_player_sheets`` (an index-only scan; the rows are wide).
SHEET_FIELDS = (
    "date",
    "sheet_id",
    "seated",
    "score",
    "hands",
    "taken",
    "made",
    "run_first",
    "run_last",
    "run_best",
    "best",
    "worst",
)


def player_sheets(totals) -> list[dict]:
    """A player's sheets in hand order, with what the page's lists are made of (one
    query over their sheet totals): ``SHEET_FIELDS`` and ``rows`` and ``running``,
    the player's ledger rows (hands at the table) and total up to the sheet's end.

    ``evenings``, the chart at the sheets' ends, a page of the per-hand table
    (``hands_from``), the best and worst hands and the longest run of contracts made
    are all worked out from this list (the last three read a few sheets' hands).
    Not the sheets' table names (a join with every sheet): ``sheet_tables`` reads
    those of the few sheets shown."""
    found = list(totals.order_by("date", "sheet_id").values(*SHEET_FIELDS))
    rows, running = 0, Decimal(0)
    for sheet in found:
        rows += sheet["seated"]
        running += sheet["score"]
        sheet["rows"], sheet["running"] = rows, running
    return found


def sheet_tables(sheet_ids) -> dict:
    """The table names of some sheets, by id (one query)."""
    return dict(Sheet.objects.filter(pk__in=sheet_ids).values_list("pk", "table"))


def evenings(sheets) -> list[dict]:
    """Per date, in order (from ``player_sheets``): ``date``, ``sheets``, ``sheet_id``
    (the first), ``played``, ``taken``, ``made``, ``total`` and ``running`` (the
    total after that evening)."""
    found = []
    for sheet in sheets:
        if found and found[-1]["date"] == sheet["date"]:
            evening = found[-1]
            evening["sheets"] += 1
        else:
            evening = {"date": sheet["date"], "sheets": 1, "sheet_id": sheet["sheet_id"]}
            evening.update(played=0, taken=0, made=0, total=Decimal(0))
            found.append(evening)
        evening["played"] += sheet["hands"]
        evening["taken"] += sheet["taken"]
        evening["made"] += sheet["made"]
        evening["total"] += sheet["score"]
        evening["running"] = sheet["running"]
    return found


def _hand_order():
    return [F(field).asc() for field in HAND_ORDER]


def _from_sheet(date, sheet_id):
    """The ledger's rows from a sheet on, in hand order: a range along the indexes."""
    return Q(date__gte=date) & ~Q(date=date, sheet_id__lt=sheet_id)


class SheetEnds(NamedTuple):
    """Where a player's sheets end in hand order, column by column, as plain integers
    (what the statistics cache keeps for the per-hand table's pages: 3,000 sheets
    pickle in 0.1 ms where as many dicts of dates and Decimals took 5 ms, and load
    in 0.2 ms instead of 2 ms on every view of the page). ``rows``: the player's
    ledger rows up to each sheet's end; ``sheet_ids``; ``days``: the sheets' dates
    (``date.toordinal()``); ``tenths``: the running total at each sheet's end, in
    tenths of a point (the ledger's scores have one decimal)."""

    rows: tuple
    sheet_ids: tuple
    days: tuple
    tenths: tuple

    @classmethod
    def of(cls, sheets) -> "SheetEnds":
        """From ``player_sheets``."""
        return cls(
            tuple(sheet["rows"] for sheet in sheets),
            tuple(sheet["sheet_id"] for sheet in sheets),
            tuple(sheet["date"].toordinal() for sheet in sheets),
            tuple(int(sheet["running"] * 10) for sheet in sheets),
        )

    def before(self, start) -> tuple:
        """The sheet holding the player's ``start``-th row (0-based): its date and id,
        and the rows and running total before it."""
        at = bisect_right(self.rows, start)
        if at:
            rows, running = self.rows[at - 1], Decimal(self.tenths[at - 1]) / 10
        else:
            rows, running = 0, Decimal(0)
        return datetime.date.fromordinal(self.days[at]), self.sheet_ids[at], rows, running


def hands_from(rows, ends: SheetEnds, start, size) -> list[dict]:
    """``size`` of the player's ledger ``rows`` in hand order from the ``start``-th
    (0-based), each with ``running`` (the total after it): the sheet holding the
    ``start``-th row is found in ``ends`` (``SheetEnds.of(player_sheets(…))``), and
    only the rows from that sheet's first to the page's last are read (one query,
    along the index in hand order).

    Rows: ``date``, ``sheet_id``, ``table``, ``number``, ``role``, ``score``, ``running``.
    """
    if size <= 0 or not ends.rows or start >= ends.rows[-1]:
        return []
    date, sheet_id, before, running = ends.before(start)
    skip = start - before
    found = list(
        rows.filter(_from_sheet(date, sheet_id))
        .annotate(table=F("sheet__table"))
        .order_by(*_hand_order())
        .values("date", "sheet_id", "table", "number", "role", "score")[: skip + size]
    )
    for row in found:  # from the sheet's first row: the page's own rows after ``skip``
        running += row["score"]
        row["running"] = running
    return found[skip:]


HAND_FIELDS = ("score", "date", "sheet_id", "role", "contract", "made", "margin")


def _hands(rows, sheets, extreme, limit):
    """The ``limit`` hands of ``rows`` played with the highest (``extreme`` "best")
    or lowest ("worst") score, the earliest first on ties (one query). Only the
    sheets whose best (worst) hand reaches the ``limit``-th sheet's are read: every
    other sheet's hands all score below (above) the ``limit`` hands those sheets'
    own best (worst) already are."""
    best = extreme == "best"
    ranked = sorted(
        (sheet[extreme] for sheet in sheets if sheet[extreme] is not None), reverse=best
    )
    if not ranked:
        return []
    threshold = ranked[min(limit, len(ranked)) - 1]
    ids = [
        sheet["sheet_id"]
        for sheet in sheets
        if sheet[extreme] is not None
        and (sheet[extreme] >= threshold if best else sheet[extreme] <= threshold)
    ]
    return list(
        rows.filter(PLAYED, sheet_id__in=ids)
        .annotate(table=F("sheet__table"))
        .order_by("-score" if best else "score", *HAND_ORDER)
        .values(*HAND_FIELDS, "number", "table")[:limit]
    )


def best_hands(rows, sheets, limit=5) -> list[dict]:
    """The ``limit`` highest-scoring hands played (one query), the earliest first on ties."""
    return _label_hands(_hands(rows, sheets, "best", limit))


def worst_hands(rows, sheets, limit=5) -> list[dict]:
    """The ``limit`` lowest-scoring hands played (one query), the earliest first on ties."""
    return _label_hands(_hands(rows, sheets, "worst", limit))


def _label_hands(hands):
    for hand in hands:
        hand["contract_label"] = str(contract_label(hand["contract"])) if hand["contract"] else ""
        hand["role_label"] = str(Role(hand["role"]).label)
        hand["by"] = abs(hand["margin"]) if hand["margin"] is not None else None
    return hands


def taker_streak(rows, sheets) -> dict:
    """The longest run of contracts made in a row as taker, in hand order.

    Keys: ``length`` (0 without a contract made), ``first`` and ``last`` (the
    hands that open and close the run: ``date``, ``sheet_id``, ``number``; the
    earliest run on ties) and ``current`` (the run still going at the end).

    The runs each sheet's total keeps (``run_first``, ``run_last``, ``run_best``:
    ``scoresheet.facts``) in ``sheets`` (``player_sheets``) are joined in hand order,
    which gives the length and the sheets the run starts and ends on; then one query
    reads the takes of those sheets and those between, as many as the first sheet's
    and the run's, for its first and last hands.
    """
    best, best_start, best_end, current, current_start = 0, None, None, 0, None
    for sheet in sheets:
        taken, first = sheet["taken"], sheet["run_first"]
        last, longest = sheet["run_last"], sheet["run_best"]
        if not taken:
            continue
        if first == taken:  # every take made: the run goes on through the sheet
            current_start = current_start if current else sheet
            current += taken
            if current > best:
                best, best_start, best_end = current, current_start, sheet
            continue
        if first:
            current_start = current_start if current else sheet
            current += first
        if current > best:
            best, best_start, best_end = current, current_start, sheet
        if longest > best:
            best, best_start, best_end = longest, sheet, sheet
        current, current_start = last, (sheet if last else None)
    if not best:
        return {"length": 0, "first": None, "last": None, "current": current}
    end_date, end_sheet = best_end["date"], best_end["sheet_id"]
    until = Q(date__lte=end_date) & ~Q(date=end_date, sheet_id__gt=end_sheet)
    takes = (
        rows.filter(TAKER, _from_sheet(best_start["date"], best_start["sheet_id"]), until)
        .order_by(*HAND_ORDER)
        .values_list(*TAKE_FIELDS)[: best_start["taken"] + best]
    )
    found = _longest_run(takes)
    if found["length"] != best:  # the kept runs disagree with the ledger: read it all
        found = _longest_run(rows.filter(TAKER).order_by(*HAND_ORDER).values_list(*TAKE_FIELDS))
    return {**found, "current": current}


TAKE_FIELDS = ("made", "date", "sheet_id", "number")


def _longest_run(takes) -> dict:
    """The earliest longest run of made contracts among ``takes`` (in hand order)."""
    best = {"length": 0, "first": None, "last": None}
    length, first = 0, None
    for made, date, sheet_id, number in takes:
        hand = {"date": date, "sheet_id": sheet_id, "number": number}
        if not made:
            length = 0
            continue
        if length == 0:
            first = hand
        length += 1
        if length > best["length"]:
            best = {"length": length, "first": first, "last": hand}
    return best


def season_ranks(club, player) -> list[dict]:
    """The player's total and rank in each season of the club they played (one query).

    Read from the standings' summary (``SeasonTotal``: one row per player and
    season), never from the ledger: ``core.ranking``'s ``RANK()`` partitioned by
    season over every player's season total (ties share a rank: 1, 2, 2, 4), newest
    season first.
    Rows: ``season_id``, ``name``, ``start_date``, ``total``, ``played``,
    ``taken``, ``made``, ``made_pct``, ``rank``, ``players``.
    """
    found = (
        SeasonTotal.objects.filter(
            season__club=club,
            season__kind="season",  # a tournament's season has its own ranking
            season__in=SeasonTotal.objects.filter(player=player).values("season_id"),
        )
        .annotate(
            name=F("season__name"),
            start_date=F("season__start_date"),
            rank=rank_window("score", partition_by="season_id"),
            players=Window(Count("pk"), partition_by=[F("season_id")]),
        )
        .order_by("-start_date", "name")
        .values(
            "season_id",
            "player_id",
            "name",
            "start_date",
            "score",
            "hands",
            "taken",
            "made",
            "rank",
            "players",
        )
    )
    return [
        {
            "season_id": row["season_id"],
            "name": row["name"],
            "start_date": row["start_date"],
            "total": row["score"],
            "played": row["hands"],
            "taken": row["taken"],
            "made": row["made"],
            "made_pct": percent(row["made"], row["taken"]),
            "rank": row["rank"],
            "players": row["players"],
        }
        for row in found
        if row["player_id"] == player.pk
    ]


def running_by_evening(rows, player_ids) -> dict:
    """The running totals of some players, evening by evening (one query).

    ``rows``: ledger rows or the sheets' totals (``SheetTotal``: one row per sheet and
    player, with the same ``date``, ``player_id`` and ``score``), which are far fewer.

    ``{"dates": [...], "series": {player_id: [total after each date, ...]}}``:
    the dates any of them played; a player who did not play an evening keeps
    their total (0 before their first evening), so every series has one value
    per date.
    """
    found = list(
        rows.filter(player_id__in=player_ids)
        .values("date", "player_id")
        .annotate(total=Sum("score"))
        .order_by("date", "player_id")
    )
    dates = sorted({row["date"] for row in found})
    by_date = {(row["date"], row["player_id"]): row["total"] for row in found}
    series = {}
    for player_id in player_ids:
        running = Decimal(0)
        values = []
        for date in dates:
            running += by_date.get((date, player_id), 0)
            values.append(running)
        series[player_id] = values
    return {"dates": dates, "series": series}


# ---------------------------------------------------------------- a club's season


def season_rows(sheets) -> list[dict]:
    """A season's sheet facts (``sheets``: ``SheetFacts``) summed by evening and table
    size (one query over one narrow row per sheet): ``date``, ``seats``, ``n`` (the
    sheets), every fact of ``scoresheet.facts.SHEET_FACTS`` and ``sheets_at_3`` …
    ``sheets_at_5`` (the sheets with hands played by so many). The season's page
    folds every figure from these few hundred rows (pass them as ``rows``)."""
    aggregates = {f"sum_{name}": Sum(name) for name in facts.SHEET_NAMES}
    for n in facts.PLAYING:
        aggregates[f"sheets_at_{n}"] = Count("pk", filter=Q(**{f"at_{n}__gt": 0}))
    found = plain_values(
        sheets.values("date", "seats").annotate(n=Count("pk"), **aggregates).order_by("date")
    )
    for row in found:
        for name in facts.SHEET_NAMES:
            row[name] = row.pop(f"sum_{name}") or 0
    return found


def _fold(rows, names) -> dict:
    return {name: sum(row[name] or 0 for row in rows) for name in names}


def season_counts(season, rows) -> dict:
    """``sheets`` (with a live hand: those with facts), ``evenings`` (their dates),
    ``hands`` and ``players`` of a season: from its ``season_rows`` and one small
    query of its totals, instead of counting distinct values over the whole ledger."""
    players = SeasonTotal.objects.filter(season=season, seated__gt=0).count()
    return {
        "sheets": sum(row["n"] for row in rows),
        "evenings": len({row["date"] for row in rows}),
        "hands": sum(row["hands"] for row in rows),
        "players": players,
    }


def season_summary(sheets, season, rows=None) -> dict:
    """A season's figures: the hand facts summed over its sheets' facts (``sheets``:
    ``SheetFacts``, one narrow row per sheet, read by ``season_rows`` unless given as
    ``rows``), the counts of sheets, evenings, hands and players from
    ``season_counts`` (one small query more).

    ``passed`` counts the hands where everybody passed; poignées and misères count
    the players who showed or declared one. Keys: ``hands``, ``sheets``,
    ``evenings``, ``players``, ``passed``, ``passed_pct``, ``taken``, ``made``,
    ``made_pct``, ``petit_au_bout`` (``attack``, ``defence``, ``total``),
    ``poignees`` (rows ``size``, ``label``, ``count``), ``poignees_total``,
    ``chelems`` (rows ``code``, ``label``, ``count``: those that happened),
    ``miseres``, ``five`` (``hands``, ``called``, ``alone``).
    """
    names = [
        "passed",
        "taken",
        "made",
        "pab_attack",
        "pab_defence",
        "miseres",
        "five",
        "called",
        "alone",
        *(f"poignee_{size}" for size, _label in POIGNEES),
        *(f"chelem_{code}" for code, _label in CHELEMS),
    ]
    rows = season_rows(sheets) if rows is None else rows
    data = _fold(rows, names) | season_counts(season, rows)
    poignees = [
        {"size": size, "label": str(label), "count": data[f"poignee_{size}"]}
        for size, label in POIGNEES
    ]
    chelems = [
        {"code": code, "label": str(label), "count": data[f"chelem_{code}"]}
        for code, label in CHELEMS
    ]
    return {
        "hands": data["hands"],
        "sheets": data["sheets"],
        "evenings": data["evenings"],
        "players": data["players"],
        "passed": data["passed"],
        "passed_pct": percent(data["passed"], data["hands"]),
        "taken": data["taken"],
        "made": data["made"],
        "made_pct": percent(data["made"], data["taken"]),
        "petit_au_bout": {
            "attack": data["pab_attack"],
            "defence": data["pab_defence"],
            "total": data["pab_attack"] + data["pab_defence"],
        },
        "poignees": poignees,
        "poignees_total": sum(p["count"] for p in poignees),
        "chelems": [c for c in chelems if c["count"]],
        "miseres": data["miseres"],
        "five": {"hands": data["five"], "called": data["called"], "alone": data["alone"]},
    }


def season_contracts(sheets, hands, rows=None) -> list[dict]:
    """``contracts`` of a season, from its ``season_rows`` (read unless given)."""
    rows = season_rows(sheets) if rows is None else rows
    return _contracts(_fold(rows, CONTRACT_FACTS), hands)


def table_sizes(sheets, rows=None) -> list[dict]:
    """Sheets and hands by table size, from the season's ``season_rows`` (read unless
    given): ``seats`` (seated at the table), ``playing`` (who played the hand: one
    fewer when somebody sits out), ``sheets``, ``hands`` (each sheet keeps its hands
    by how many played them: ``at_3`` … ``at_5``)."""
    rows = season_rows(sheets) if rows is None else rows
    by_seats = {}
    for row in rows:
        found = by_seats.setdefault(row["seats"], {})
        for n in facts.PLAYING:
            sheets_n, hands_n = found.get(n, (0, 0))
            found[n] = (sheets_n + row[f"sheets_at_{n}"], hands_n + (row[f"at_{n}"] or 0))
    return [
        {"seats": seats, "playing": n, "sheets": found[n][0], "hands": found[n][1]}
        for seats, found in sorted(by_seats.items())
        for n in facts.PLAYING
        if found[n][1]
    ]


def season_evenings(sheets, rows=None) -> list[dict]:
    """Per date, in order: ``date``, ``sheets``, ``players``, ``hands``, ``passed``.

    The sheets, hands and hands where everybody passed from the season's
    ``season_rows`` (read unless given). ``players`` is left ``None``: counting who
    played each evening reads every sheet total of the season (27 ms at 1M hands),
    so the page counts only the evenings its table shows (``evening_players``).
    """
    rows = season_rows(sheets) if rows is None else rows
    found = []
    for row in rows:  # by date, then table size
        if not found or found[-1]["date"] != row["date"]:
            found.append(
                {"date": row["date"], "sheets": 0, "players": None, "hands": 0, "passed": 0}
            )
        found[-1]["sheets"] += row["n"]
        found[-1]["hands"] += row["hands"]
        found[-1]["passed"] += row["passed"]
    return found


def evening_players(totals, dates) -> dict:
    """How many players played on each of ``dates`` (``{date: n}``), from the sheets'
    totals (``totals``: a season's) of those evenings alone: one query, an index-only
    scan of their rows, no distinct count over the ledger."""
    return dict(
        totals.filter(date__in=dates)
        .values("date")
        .annotate(players=Count("player_id", distinct=True))
        .order_by()
        .values_list("date", "players")
    )


def add_players(evenings, totals, players=None) -> list[dict]:
    """``evenings`` (``season_evenings``' rows) with their ``players``: ``players``
    when given (``evening_players``' counts, read before), else counted (one query)."""
    if players is None:
        players = evening_players(totals, [evening["date"] for evening in evenings])
    for evening in evenings:
        evening["players"] = players.get(evening["date"], 0)
    return evenings


# ---------------------------------------------------------------- the Savoyard rules

#: The Savoyard modes in the ledger's ``contract`` column (scoresheet.handmap).
SAVOYARD_TWO_PARTIES = ("solo", "call", "partners")
SAVOYARD = Q(contract__in=(*SAVOYARD_TWO_PARTIES, "each"))
WON = Q(made=True)
LOST = Q(made=False)
TIE = Q(contract__in=SAVOYARD_TWO_PARTIES, made__isnull=True)
#: The player's side got the baga au bout: a declarer when it went to the declarers
#: (stored as "attack"), an opponent when it went to the opponents ("defence").
BAGA_WON = (ATTACK & Q(petit_au_bout=Side.ATTACK)) | (DEFENDER & Q(petit_au_bout=Side.DEFENCE))


def _distinct_hands(condition):
    return Count("hand_id", distinct=True, filter=condition)


def savoyard_summary(rows) -> dict:
    """The Savoyard figures over ``rows`` (one query): a player's, or a season's.

    ``solos``: by cards asked (2, 1, 0: as dealt), each ``cards``, ``label``
    key, ``taken``, ``won``, ``lost``, ``tied`` (rows where the player, or a
    player, was the soloist); ``calls``: as the dealer who called (``taken``,
    ``won``) and as the called partner (``called``, ``called_won``);
    ``partners`` (hands as the dealer's partnership, ``won``); ``each``
    (hands each for himself, ``over`` and ``under`` the even share);
    ``ties`` and ``doubled`` (hands, distinct); ``baga`` (hands with a baga to the
    declarers, to the opponents, and rows where the player's side got it).
    """
    played = SAVOYARD & PLAYED
    aggregates = {
        "hands": _distinct_hands(played),
        "ties": _distinct_hands(TIE & PLAYED),
        "doubled": _distinct_hands(played & Q(factor__gte=2)),
        "call": _count(TAKER & Q(contract="call")),
        "call_won": _count(TAKER & Q(contract="call") & WON),
        "called": _count(PARTNER & Q(contract="call")),
        "called_won": _count(PARTNER & Q(contract="call") & WON),
        "partners": _count(ATTACK & Q(contract="partners")),
        "partners_won": _count(ATTACK & Q(contract="partners") & WON),
        "each": _count(Q(contract="each") & PLAYED),
        "each_over": _count(Q(contract="each", margin__gt=0)),
        "each_under": _count(Q(contract="each", margin__lt=0)),
        "baga_declarers": _distinct_hands(played & Q(petit_au_bout=Side.ATTACK)),
        "baga_opponents": _distinct_hands(played & Q(petit_au_bout=Side.DEFENCE)),
        "baga_won": _count(SAVOYARD & BAGA_WON),
    }
    for cards in (2, 1, 0):
        solo = TAKER & Q(contract="solo", cards_asked=cards)
        aggregates[f"solo_{cards}"] = _count(solo)
        aggregates[f"solo_{cards}_won"] = _count(solo & WON)
        aggregates[f"solo_{cards}_lost"] = _count(solo & LOST)
    data = rows.aggregate(**aggregates)
    labels = {2: _("with two cards"), 1: _("with one card"), 0: _("as dealt")}
    solos = [
        {
            "cards": cards,
            "label": str(labels[cards]),
            "taken": data[f"solo_{cards}"],
            "won": data[f"solo_{cards}_won"],
            "lost": data[f"solo_{cards}_lost"],
            "tied": data[f"solo_{cards}"] - data[f"solo_{cards}_won"] - data[f"solo_{cards}_lost"],
        }
        for cards in (2, 1, 0)
    ]
    return {
        "hands": data["hands"],
        "solos": solos,
        "solos_taken": sum(s["taken"] for s in solos),
        "calls": {
            "taken": data["call"],
            "won": data["call_won"],
            "called": data["called"],
            "called_won": data["called_won"],
        },
        "partners": {"hands": data["partners"], "won": data["partners_won"]},
        "each": {"hands": data["each"], "over": data["each_over"], "under": data["each_under"]},
        "ties": data["ties"],
        "doubled": data["doubled"],
        "baga": {
            "declarers": data["baga_declarers"],
            "opponents": data["baga_opponents"],
            "won": data["baga_won"],
        },
    }


def is_savoyard(season) -> bool:
    """Whether a season's house rules play the Savoyard game (the registry's
    ``kind`` of its preset; no query, and rules that do not read are not)."""
    rules = getattr(season, "rules", None)
    preset = rules.get("preset") if isinstance(rules, dict) else rules
    ruleset = REGISTRY.get(preset) if isinstance(preset, str) else None
    return ruleset is not None and ruleset.kind == "savoyard"
