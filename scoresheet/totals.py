"""The standings' summary tables, kept in step with the ledger by the write side.

The ledger (``ScoreRow``: one row per seated player per live hand) grows with
every hand; standings never aggregate it per request. Two small summary tables
are kept in step instead, in the transaction of every hand write:

``SheetTotal``  one row per (sheet, player): score, hands played, taken, made…
                with the sheet's season, date and table size. Rewritten from the
                sheet's score rows by ``refresh_sheet_totals`` (the hand services
                hold the sheet's lock, so two writers never race on these rows).
``SeasonTotal`` one row per (season, player): the sum of that player's
                SheetTotals. ``refresh_sheet_totals`` adds the change of the
                sheet's rows with one ``INSERT … ON CONFLICT DO UPDATE SET x = x +
                excluded.x``, so concurrent sheets of a season add up, not overwrite;
                its rows go in (season, player) order, so concurrent sheets that
                seat the same players lock them in one order and never deadlock
                (the hand services also run again on a deadlock: ``core.db``).

``SheetFacts``  one row per sheet: the statistics' facts of the whole sheet.

SheetTotal and SheetFacts also keep the statistics' facts (``scoresheet.facts``:
what is counted, and how, in Python and in SQL). A new hand only adds:
``add_hand_to_totals`` adds its rows to the three tables with two upserts (the
record path; SheetFacts rides in the SheetTotal statement's WITH on PostgreSQL),
where corrections, deletions and restores rewrite the sheet's rows
(``refresh_sheet_totals``).

``rebuild_season_totals`` rewrites the three tables of a season from the ledger
in SQL (bulk loads, repair). ``scoresheet.summaries``, ``standings.queries`` and
``stats.queries`` read them.
"""

import time
from decimal import Decimal

from django.db import connection, transaction

from core.bulk import RowWriter
from scoresheet import facts
from scoresheet.models import (
    Hand,
    Role,
    ScoreRow,
    SeasonTotal,
    Seat,
    Sheet,
    SheetFacts,
    SheetTotal,
)

#: The counters of both summary tables (``SeasonTotal`` adds up the SheetTotals').
COUNTERS = facts.COUNTERS
#: A SheetTotal's key: the sheet, the player, and the sheet's season, date and size.
KEY = ("sheet_id", "player_id", "season_id", "date", "seats")
#: What a score row gives its SheetTotal (``facts.Counter`` reads these).
ROW_FIELDS = ("player_id", "season_id", "date", "seats", *facts.ROW_FIELDS)


def _add_sheet_to_season(changes, season_id, player_id, counts, now, sign=1) -> None:
    """Add (``sign`` 1) or take away (−1) one SheetTotal's ``counts`` (the ``COUNTERS``)
    to the player's season change (``_add_to_season_totals``' rows)."""
    seated, hands, taken, made, score = counts
    change = changes.setdefault((season_id, player_id), [0] * 6 + [now])
    change[0] += sign * seated
    change[1] += sign * (1 if hands else 0)  # this sheet counts as played
    change[2] += sign * hands
    change[3] += sign * taken
    change[4] += sign * made
    change[5] += sign * Decimal(score)


def _sheet_rows(sheet_id, rows) -> tuple[list[dict], dict | None]:
    """The SheetTotals (field dicts) of a sheet's score rows (``ROW_FIELDS`` dicts,
    in hand order), one per player, and the sheet's SheetFacts (None without a row):
    their facts counted by ``facts.Counter`` and ``facts.SheetCounter``."""
    counters = {}
    sheet = facts.SheetCounter()
    key = None
    for row in rows:
        key = (row["player_id"], row["season_id"], row["date"], row["seats"])
        counter = counters.get(key)
        if counter is None:
            counter = counters[key] = facts.Counter()
        counter.add(row)
        sheet.add(row)
    totals = [
        {**dict(zip(KEY, (sheet_id, *key))), **counter.as_dict()}
        for key, counter in counters.items()
    ]
    if key is None:
        return totals, None
    _player_id, season_id, date, seats = key
    found = {"sheet_id": sheet_id, "season_id": season_id, "date": date, "seats": seats}
    return totals, {**found, **sheet.as_dict()}


def refresh_sheet_totals(sheet) -> None:
    """Bring the standings summary in step with ``sheet``'s score rows.

    Call it at the end of the transaction that changed the sheet's ledger, with
    the sheet locked (``select_for_update``): every hand service does. It
    rewrites the sheet's SheetTotals and SheetFacts from its score rows (one query,
    counted in Python) and adds the SheetTotals' change to the SeasonTotals; a
    player left with no score row in a season loses the season's row.
    """
    sheet_id = sheet.pk
    fields = ("season_id", "player_id", *COUNTERS)
    before = list(SheetTotal.objects.filter(sheet_id=sheet_id).values(*fields))
    in_order = ScoreRow.objects.filter(sheet_id=sheet_id).order_by("number", "position")
    after, sheet_facts = _sheet_rows(sheet_id, in_order.values(*ROW_FIELDS))
    if before:
        SheetTotal.objects.filter(sheet_id=sheet_id).delete()
    if after:
        SheetTotal.objects.bulk_create(SheetTotal(**row) for row in after)
    if sheet_facts is None:
        SheetFacts.objects.filter(sheet_id=sheet_id).delete()
    else:
        SheetFacts.objects.bulk_create(
            [SheetFacts(**sheet_facts)],
            update_conflicts=True,
            unique_fields=["sheet"],
            update_fields=[name for name in sheet_facts if name != "sheet_id"],
        )
    # Every seated player has a row per live hand: the sheet's stored hand count.
    hand_count = max((row["seated"] for row in after), default=0)
    if getattr(sheet, "hand_count", None) != hand_count:
        Sheet.objects.filter(pk=sheet_id).update(hand_count=hand_count)
        sheet.hand_count = hand_count

    changes = {}
    now = time.time_ns() // 1000
    for sign, rows in ((-1, before), (1, after)):
        for row in rows:
            counts = [row[counter] for counter in COUNTERS]
            _add_sheet_to_season(changes, row["season_id"], row["player_id"], counts, now, sign)
    # Sorted: every writer locks the SeasonTotal rows it adds to in the same order
    # (season, player), so two sheets seating the same players never deadlock.
    # Every player of the sheet gets a new revision (the statistics cache's key),
    # even when a correction leaves their counters as they were.
    changes = dict(sorted(changes.items()))
    if not changes:
        return
    _add_to_season_totals(changes)
    if before:
        seasons = {season_id for season_id, _player_id in changes}
        players = {player_id for _season_id, player_id in changes}
        SeasonTotal.objects.filter(season_id__in=seasons, player_id__in=players, seated=0).delete()


def add_hand_to_totals(rows) -> None:
    """Add one new hand's score rows (one per seated player of its sheet) to the totals.

    The record path (``services.record_hand``), with the sheet locked: a new hand only
    adds, so instead of ``refresh_sheet_totals``' read, aggregate, delete and insert
    it adds each seated player's counts to their SheetTotal with one ``INSERT … ON
    CONFLICT DO UPDATE SET x = x + excluded.x … RETURNING`` (the sheet's first hand
    inserts the rows) and to their SeasonTotal with another, in (player) and (season,
    player) order like every writer. The counts are ``_sheet_rows``': a row is a hand
    seated, a role other than "out" a hand played, and the season counts the sheet
    for a player (``sheets``) from the hand that makes their SheetTotal's ``hands``
    leave 0. Nothing goes to 0, so no SeasonTotal row is deleted. (The record path
    counts the hand in ``Sheet.hand_count`` itself.)
    """
    rows = sorted(rows, key=lambda row: row.player_id)
    if not rows:
        return
    added = {}
    for row in rows:
        counter = facts.Counter()
        counter.add(vars(row))
        added[row.player_id] = counter.as_dict()
    # Only the columns the hand moves: a column left out keeps its value (an inserted
    # row gets the column's default, 0). Most of the facts are 0 for a hand, and a
    # statement naming all of them took five times longer to run.
    names = _moved(added.values(), ALWAYS_WRITTEN)
    values = [
        [row.sheet_id, row.player_id, row.season_id, row.date, row.seats]
        + [added[row.player_id][name] for name in names]
        for row in rows
    ]
    table = connection.ops.quote_name(SheetTotal._meta.db_table)
    updates = {name: _merged(name, table) for name in names}
    sql, params = _upsert(
        SheetTotal,
        ("sheet_id", "player_id"),
        [*KEY, *names],
        values,
        updates,
        ("player_id", "hands"),
    )
    sheet_sql, sheet_params = _add_to_sheet_facts(rows)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # one statement: the sheet's facts ride in a data-modifying WITH (SQLite
            # has none, so it takes one statement more)
            cursor.execute(f"WITH sheet_facts AS ({sheet_sql}) {sql}", sheet_params + params)
        else:
            cursor.execute(sheet_sql, sheet_params)
            cursor.execute(sql, params)
        hands_now = dict(cursor.fetchall())
    now = time.time_ns() // 1000
    changes = {}
    for row in rows:
        counts = added[row.player_id]
        # the sheet counts for the player from their first hand played on it
        first_played = counts["hands"] == 1 and hands_now[row.player_id] == 1
        changes[(row.season_id, row.player_id)] = [
            counts["seated"],
            int(first_played),
            counts["hands"],
            counts["taken"],
            counts["made"],
            counts["score"],
            now,
        ]
    _add_to_season_totals(dict(sorted(changes.items())))


def _upsert(model, conflict, columns, rows, updates, returning=()) -> tuple[str, list]:
    """``INSERT INTO model (columns) VALUES rows… ON CONFLICT (conflict) DO UPDATE SET
    updates [RETURNING …]``: the SQL and its parameters (PostgreSQL and SQLite).
    ``rows`` are value lists in ``columns`` order; ``updates`` maps a column to the
    SQL of its new value, which reads the row as it was (``table.x``) and the
    proposed one (``excluded.x``). The rows are locked in the order given."""
    quote = connection.ops.quote_name
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(map(quote, columns))}) "
        f"VALUES {', '.join([one] * len(rows))} "
        f"ON CONFLICT ({', '.join(map(quote, conflict))}) DO UPDATE SET "
        + ", ".join(f"{quote(column)} = {value}" for column, value in updates.items())
    )
    if returning:
        sql += f" RETURNING {', '.join(map(quote, returning))}"
    return sql, [value for row in rows for value in row]


def _added(model, column) -> str:
    """The SQL of a counter's new value in ``_upsert``: the row's plus the proposed."""
    quote = connection.ops.quote_name
    return f"{quote(model._meta.db_table)}.{quote(column)} + excluded.{quote(column)}"


#: Written with every hand: the standings' counters, the best and worst (NULL until a
#: hand is played) and the runs (a failed take ends one: a 0 that counts).
ALWAYS_WRITTEN = (*COUNTERS, *facts.EXTREMES, *facts.RUNS)


def _moved(counts, always=()) -> list[str]:
    """The names of the SheetTotal facts some of ``counts`` (dicts) move, in order."""
    moved = {name for one in counts for name, value in one.items() if value}
    return [name for name in facts.NAMES if name in moved or name in always]


def _add_to_sheet_facts(rows) -> tuple[str, list]:
    """The ``INSERT … ON CONFLICT DO UPDATE SET x = x + excluded.x`` that adds one new
    hand's rows to its sheet's SheetFacts (the sheet's first hand inserts the row),
    naming only the facts the hand moves."""
    counter = facts.SheetCounter()
    for row in rows:
        counter.add(vars(row))
    first = rows[0]
    counts = counter.as_dict()
    names = [name for name in facts.SHEET_NAMES if counts[name] or name == "hands"]
    values = [first.sheet_id, first.season_id, first.date, first.seats]
    values += [counts[name] for name in names]
    updates = {name: _added(SheetFacts, name) for name in names}
    columns = ["sheet_id", "season_id", "date", "seats", *names]
    return _upsert(SheetFacts, ("sheet_id",), columns, [values], updates)


def _merged(name, table) -> str:
    """SQL for a SheetTotal column once a new hand's row (``excluded``) is added to it:
    a sum adds; the best and worst keep the higher and lower; the runs of contracts
    made go on with a made take (``excluded.run_last`` is 1) and end with another.
    Every right-hand side reads the row as it was before the hand (SQL's UPDATE)."""
    quote = connection.ops.quote_name

    def old(column):
        return f"{table}.{quote(column)}"

    def new(column):
        return f"excluded.{quote(column)}"

    if name in facts.EXTREMES:
        better = ">" if facts.BY_NAME[name].how == "max" else "<"
        return (
            f"CASE WHEN {new(name)} IS NOT NULL AND ({old(name)} IS NULL "
            f"OR {new(name)} {better} {old(name)}) THEN {new(name)} ELSE {old(name)} END"
        )
    made_take = f"{new('run_last')} = 1"
    if name == "run_first":  # grows while every take of the sheet is made
        return (
            f"CASE WHEN {old('run_first')} = {old('taken')} "
            f"THEN {old('run_first')} + {new('run_first')} ELSE {old('run_first')} END"
        )
    if name == "run_last":
        return (
            f"CASE WHEN {new('taken')} = 0 THEN {old('run_last')} "
            f"WHEN {made_take} THEN {old('run_last')} + 1 ELSE 0 END"
        )
    if name == "run_best":
        return (
            f"CASE WHEN {made_take} AND {old('run_last')} + 1 > {old('run_best')} "
            f"THEN {old('run_last')} + 1 ELSE {old('run_best')} END"
        )
    return f"{old(name)} + {new(name)}"


#: A SeasonTotal's counters, in the order of ``_add_sheet_to_season``'s changes.
SEASON_COUNTERS = ("seated", "sheets", "hands", "taken", "made", "score")


def _add_to_season_totals(changes) -> None:
    """``INSERT … ON CONFLICT DO UPDATE SET x = table.x + excluded.x`` (PostgreSQL, SQLite).

    The rows are locked in the order of ``changes`` (the VALUES order): keep it sorted.
    """
    columns = ["season_id", "player_id", *SEASON_COUNTERS, "revision"]
    values = [[season_id, player_id, *change] for (season_id, player_id), change in changes.items()]
    updates = {column: _added(SeasonTotal, column) for column in SEASON_COUNTERS}
    updates["revision"] = f"excluded.{connection.ops.quote_name('revision')}"
    sql, params = _upsert(SeasonTotal, ("season_id", "player_id"), columns, values, updates)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def rebuild_season_totals(season, *, sheets=True) -> None:
    """Rewrite a season's SheetTotals and SeasonTotals from its ledger, in SQL.

    For rows loaded behind the services' back (the benchmark's bulk insert) and
    for repair. The result equals what ``refresh_sheet_totals`` keeps.
    ``sheets=False``: the SeasonTotals only, from SheetTotals already rewritten
    (``sheet_statements``, as the restore runs them a batch of sheets at a time).
    """
    season_id = getattr(season, "pk", season)
    statements = season_statements(season_id)
    if sheets:
        statements = sheet_statements(season_id=season_id) + statements
    with transaction.atomic(), connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


def rebuild_statements(season_id=None) -> list[tuple[str, list]]:
    """The statements of ``rebuild_season_totals`` for one season, or every season
    (``None``): ``(sql, params)`` pairs to run in one transaction."""
    return sheet_statements(season_id=season_id) + season_statements(season_id)


def sheet_statements(*, season_id=None, sheet_ids=None) -> list[tuple[str, list]]:
    """The SheetTotals and SheetFacts of a season's sheets, of these sheets, or of
    every sheet (neither given), and the sheets' stored counts, rewritten from the
    ledger: ``(sql, params)`` pairs. The facts are the SQL aggregates of
    ``facts.aggregates`` (the same counts as ``facts.Counter``), the runs of
    contracts made a window over each player's takes (``_runs_sql``), joined in
    one INSERT."""
    quote = connection.ops.quote_name
    ledger = quote(ScoreRow._meta.db_table)
    sheet_totals = quote(SheetTotal._meta.db_table)
    sheets = quote(Sheet._meta.db_table)
    seats = quote(Seat._meta.db_table)
    hands = quote(Hand._meta.db_table)
    if sheet_ids is not None:
        one = list(sheet_ids)
        marks = ", ".join(["%s"] * len(one))
        where, where_sheet = f"WHERE sheet_id IN ({marks})", f"WHERE id IN ({marks})"
        rows = ScoreRow.objects.filter(sheet_id__in=one)
    else:
        one = [season_id] if season_id is not None else []
        where = where_sheet = "WHERE season_id = %s" if one else ""
        rows = ScoreRow.objects.filter(season_id=season_id) if one else ScoreRow.objects.all()
    per_player = rows.values(*KEY).annotate(**facts.aggregates()).order_by()
    select, params = per_player.query.sql_with_params()
    summed = [name for name in facts.NAMES if name not in facts.RUNS]
    columns = ", ".join(quote(c) for c in (*KEY, *summed, *facts.RUNS))
    picked = ", ".join(
        [
            *(f"t.{quote(c)}" for c in KEY),
            *(f"t.fact_{n}" for n in summed),
            *(f"COALESCE(r.{n}, 0)" for n in ("first_n", "last_n", "best")),
        ]
    )
    insert = (
        f"INSERT INTO {sheet_totals} ({columns}) SELECT {picked} FROM ({select}) t "
        f"LEFT JOIN ({_runs_sql(ledger, where)}) r "
        "ON r.sheet_id = t.sheet_id AND r.player_id = t.player_id"
    )
    sheet_facts = quote(SheetFacts._meta.db_table)
    per_sheet = (
        rows.values("sheet_id", "season_id", "date", "seats")
        .annotate(**facts.aggregates(facts.SHEET_FACTS))
        .order_by()
    )
    select_sheets, sheet_params = per_sheet.query.sql_with_params()
    sheet_columns = ", ".join(
        quote(c) for c in ("sheet_id", "season_id", "date", "seats", *facts.SHEET_NAMES)
    )
    sheet_picked = ", ".join(
        ["t.sheet_id", "t.season_id", "t.date", "t.seats"]
        + [f"t.fact_{name}" for name in facts.SHEET_NAMES]
    )
    # The facts and the runs are two aggregates joined by (sheet, player): rows just
    # loaded have no planner statistics, and a nested loop over the two (estimated at
    # a row each) ran for minutes at a million hands. A hash join takes seconds. (A
    # batch of sheets is read through the sheets' index: the planner's choice.)
    postgresql = connection.vendor == "postgresql" and sheet_ids is None
    plan = [("SET LOCAL enable_nestloop = off", [])] if postgresql else []
    plan_back = [("SET LOCAL enable_nestloop TO DEFAULT", [])] if postgresql else []
    return plan + [
        (f"DELETE FROM {sheet_totals} {where}", one),
        (f"DELETE FROM {sheet_facts} {where}", one),
        (insert, [*params, *one]),
        *plan_back,
        (
            f"INSERT INTO {sheet_facts} ({sheet_columns}) "
            f"SELECT {sheet_picked} FROM ({select_sheets}) t",
            list(sheet_params),
        ),
        # the sheets' stored counts (Sheet.seat_count, hand_count: none on a deleted sheet,
        # as ``editing.delete_sheet`` leaves it) and last hand number
        (
            f"""UPDATE {sheets} SET
                seat_count = (SELECT COUNT(*) FROM {seats} s WHERE s.sheet_id = {sheets}.id),
                hand_count = CASE WHEN {sheets}.deleted_at IS NULL THEN
                                 (SELECT COUNT(*) FROM {hands} h
                                  WHERE h.sheet_id = {sheets}.id AND NOT h.is_deleted)
                             ELSE 0 END,
                last_number = COALESCE((SELECT MAX(h.number) FROM {hands} h
                                        WHERE h.sheet_id = {sheets}.id), 0)
            {where_sheet}""",
            one,
        ),
    ]


def season_statements(season_id=None) -> list[tuple[str, list]]:
    """A season's SeasonTotals (or every season's) rewritten from its SheetTotals."""
    quote = connection.ops.quote_name
    sheet_totals = quote(SheetTotal._meta.db_table)
    season_totals = quote(SeasonTotal._meta.db_table)
    one = [season_id] if season_id is not None else []
    where = "WHERE season_id = %s" if one else ""
    return [
        (f"DELETE FROM {season_totals} {where}", one),
        (
            f"""INSERT INTO {season_totals}
                (season_id, player_id, seated, sheets, hands, taken, made, score, revision)
            SELECT season_id, player_id, SUM(seated),
                   SUM(CASE WHEN hands > 0 THEN 1 ELSE 0 END),
                   SUM(hands), SUM(taken), SUM(made), SUM(score), {time.time_ns() // 1000}
            FROM {sheet_totals} {where}
            GROUP BY season_id, player_id""",
            one,
        ),
    ]


def _runs_sql(ledger, where) -> str:
    """A SELECT of each (sheet, player)'s runs of contracts made (``facts.RUNS``) from
    the ledger: the player's takes on the sheet in hand order, numbered by the
    failures (and Savoyard ties) up to each (``grp``), so that the made takes of one
    ``grp`` are one run: the first run is ``grp`` 0's, the last the highest
    ``grp``'s (picked as the largest ``grp * 1000000 + n``; a sheet has fewer takes).
    Derived tables only, no self-join: the planner sees two aggregates. ``where``: the
    ledger's rows to read (``WHERE …``, or empty: every row)."""
    taker = Role.TAKER.value
    where = f"role = '{taker}'" + (f" AND {where.removeprefix('WHERE ')}" if where else "")
    return f"""
        SELECT sheet_id, player_id,
               SUM(CASE WHEN grp = 0 THEN n ELSE 0 END) AS first_n,
               MAX(grp * 1000000 + n) %% 1000000 AS last_n,
               MAX(n) AS best
        FROM (
            SELECT sheet_id, player_id, grp, SUM(CASE WHEN made THEN 1 ELSE 0 END) AS n
            FROM (
                SELECT sheet_id, player_id, made,
                       SUM(CASE WHEN made THEN 0 ELSE 1 END) OVER (
                           PARTITION BY sheet_id, player_id ORDER BY number
                           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS grp
                FROM {ledger} WHERE {where}
            ) takes
            GROUP BY sheet_id, player_id, grp
        ) runs
        GROUP BY sheet_id, player_id"""


def add_new_sheet_totals(sheet, rows) -> None:
    """The totals of a sheet whose hands were all written at once (the import).

    ``rows``: every score row of the sheet as field dicts in hand order (at least
    ``ROW_FIELDS``: what ``handmap.score_row_fields`` and the import write). The
    sheet has no SheetTotal
    yet: its rows are made from ``rows`` as ``refresh_sheet_totals`` would make them
    from the ledger (one per player, the same counts), without reading the ledger
    back, and added to the SeasonTotals the same way. The sheet was created with
    its ``hand_count`` and ``last_number`` (its hands are numbered from 1, all live).
    """
    totals, sheet_facts = _sheet_rows(sheet.pk, rows)
    if not totals:
        return
    RowWriter(SheetTotal).write(totals)
    RowWriter(SheetFacts).write([sheet_facts])
    # its hands are numbered 1 to hand_count: the import inserts the sheet with them
    # (``create_sheet(hand_count=…)``); a sheet made otherwise is a caller's mistake
    hand_count = max(total["seated"] for total in totals)
    if (sheet.hand_count, sheet.last_number) != (hand_count, hand_count):
        raise ValueError(f"sheet {sheet.pk} was not created with its {hand_count} hands")
    now = time.time_ns() // 1000
    changes = {}
    for total in totals:
        counts = [total[counter] for counter in COUNTERS]
        _add_sheet_to_season(changes, total["season_id"], total["player_id"], counts, now)
    _add_to_season_totals(dict(sorted(changes.items())))
