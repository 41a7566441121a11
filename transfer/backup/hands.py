"""The restore's check of the ledger: every live hand of a live sheet scored again by the
engine under its sheet's rules (the pools carried along the sheet, the mouches too), its
score rows compared with what the engine gives, every column; then the sheets' totals
and facts counted again from the ledger, never read from the file."""

import json
import operator
from array import array
from contextlib import closing

import orjson
import psycopg
from django.db import connection, models
from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from clubs.refusals import message_of
from scoresheet.handmap import ROW_INPUTS, Table, hand_data, score_row_fields
from scoresheet.models import Hand, ScoreRow, Seat, Sheet
from scoresheet.totals import sheet_statements
from tarot import ScoringError, score_hand
from tarot.jsonformat import parse_hand, parse_rules
from transfer.backup.refusals import invalid

#: sheets whose hands ``check_hands`` reads at a time; two batches are in memory at
#: once on PostgreSQL (one scored, the next read): at 100,000 hands 200 took the
#: restore's peak from 113 to 140 MiB, 50 keeps it at 114 MiB for 0.3 s more
CHECK_SHEETS = 50


class _Player:
    __slots__ = ("pk", "name")

    def __init__(self, pk, name):
        self.pk, self.name = pk, name


class _Hand:
    """A stored hand's columns, read as attributes (``hand_data`` reads them so)."""

    def __init__(self, values):
        self.__dict__.update(values)


#: the hand columns ``check_hands`` reads
HAND_COLUMNS = (
    "id",
    "sheet_id",
    "number",
    "is_deleted",
    "dealer_id",
    "taker_id",
    "partner_id",
    "sits_out_id",
    "contract",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "chelem",
    "petit_chelem",
    "miseres",
    "pools",
    "extra",
)


def check_hands(club) -> None:
    """Every live hand of a live sheet scored again by the engine under its sheet's
    rules (pools carried along the sheet), and its score rows compared with what
    the engine gives, every column; deleted hands and the hands of deleted sheets
    read by the engine too, and without score rows. From plain values, a batch of
    sheets at a time (``CHECK_SHEETS``, read by ``_sheet_batches``): no model
    instances."""
    fields = [f.attname for f in ScoreRow._meta.concrete_fields if f.attname != "id"]
    defaults = {
        f.attname: f.get_default() for f in ScoreRow._meta.concrete_fields if f.attname != "id"
    }
    order = (fields.index("position"), fields.index("player_id"))
    stray = ScoreRow.objects.filter(hand__sheet__club=club).filter(
        Q(hand__is_deleted=True) | Q(hand__sheet__deleted_at__isnull=False)
    )
    for pk in stray.order_by("pk").values_list("pk", flat=True)[:1]:
        raise invalid(_("scoresheet.scorerow %(pk)s: a row of no live hand") % {"pk": pk})
    sheets = Sheet.objects.filter(club=club).order_by("pk").values_list("pk", flat=True)
    sheet_ids = array("q", sheets)  # 8 bytes a sheet
    with closing(_sheet_batches(sheet_ids, fields, _Counted())) as batches:
        for batch, seat_rows, hand_rows, score_rows in batches:
            seated = {}
            for sheet_id, player_id, name in seat_rows:
                seated.setdefault(sheet_id, []).append(_Player(player_id, name))
            hands = {}
            for values in hand_rows:
                hands.setdefault(values["sheet_id"], []).append(values)
            stored = {}
            for row in score_rows:
                stored.setdefault(row[0], []).append(row[1:])
            for pk, rules, season_id, date, deleted_at in batch:
                table = Table.seating(seated.get(pk, []))
                sheet = {
                    "sheet_id": pk,
                    "season_id": season_id,
                    "date": date,
                    "seats": len(table.names),
                }
                _check_sheet_hands(
                    parse_rules(rules),
                    table,
                    sorted(hands.get(pk, ()), key=lambda h: h["number"]),
                    deleted_at is not None,
                    sheet,
                    stored,
                    fields,
                    defaults,
                    order,
                )
            if stored:
                hand = min(stored)
                raise invalid(
                    _("%(row)s: its score rows are not what the engine gives")
                    % {"row": f"scoresheet.hand {hand}"}
                )


class _Counted:
    """``scoresheet.totals.sheet_statements`` of a batch of sheets, its ORM queries
    compiled once per number of sheets (with stand-in keys, then each batch's keys in
    their places): compiled per batch, they cost 2.5 s of CPU at 100,000 hands."""

    STAND_IN = -(10**15)  # keys below it stand in for the batch's: no row has one

    def __init__(self):
        self.made = {}

    def __call__(self, ids):
        made = self.made.get(len(ids))
        if made is None:
            marks = [self.STAND_IN - i for i in range(len(ids))]
            made = self.made[len(ids)] = [
                (
                    sql,
                    [
                        self.STAND_IN - p if type(p) is int and p <= self.STAND_IN else None
                        for p in params
                    ],
                    params,
                )
                for sql, params in sheet_statements(sheet_ids=marks)
            ]
        return [
            (sql, [ids[slot] if slot is not None else p for slot, p in zip(slots, params)])
            for sql, slots, params in made
        ]


def _sheet_batches(sheet_ids, fields, counted):
    """What ``check_hands`` reads of each batch of ``CHECK_SHEETS`` sheets: the
    sheets ``(pk, rules, season_id, date, deleted_at)``, their seats ``(sheet_id,
    player_id, name)`` in order, their hands (dicts of ``HAND_COLUMNS``) and their
    hands' score rows ``(hand_id, *fields)``. Once a batch is checked (the caller
    asks for the next), its statements ``counted(ids)`` run: the sheets' totals and
    facts counted from the ledger (``scoresheet.totals.sheet_statements``); never
    before, so that a bad score row is refused by the check, which names its hand,
    not by a constraint of the totals.

    On PostgreSQL the four queries of the next batch are sent (pipeline mode) before
    this batch is handed over, with the statements of the batch checked before it:
    the database reads and counts while the engine scores this one (at 100,000
    hands: the reads 6.1–6.4 s → 5.1–5.4 s, and the totals' 2.1 s after the check
    gone; ``benchmarks/HISTORY.md``). Fetching a batch's results waits for every
    query sent before them, so a batch is fetched before the next is sent.
    Elsewhere, one after another."""
    queries = [
        lambda ids: (
            Sheet.objects.filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", "rules", "season_id", "date", "deleted_at")
        ),
        lambda ids: (
            Seat.objects.filter(sheet_id__in=ids)
            .order_by("sheet_id", "position")
            .values_list("sheet_id", "player_id", "player__name")
        ),
        lambda ids: Hand.objects.filter(sheet_id__in=ids).values(*HAND_COLUMNS),
        lambda ids: (
            ScoreRow.objects.filter(hand__sheet_id__in=ids)
            .order_by()
            .values_list("hand_id", *fields)
        ),
    ]
    batches = [sheet_ids[i : i + CHECK_SHEETS] for i in range(0, len(sheet_ids), CHECK_SHEETS)]
    if connection.vendor != "postgresql":
        for ids in batches:
            yield tuple(list(query(list(ids))) for query in queries)
            with connection.cursor() as cursor:
                for sql, params in counted(list(ids)):
                    cursor.execute(sql, params)
        return
    connection.ensure_connection()
    conn = connection.connection
    # JSON columns come as their text (Django's loader): read by orjson (the ORM's
    # ``.values()`` reads them through ``json.loads`` and its converters)
    hand_fields = {f.attname: f for f in Hand._meta.concrete_fields}
    json_columns = [
        i for i, name in enumerate(HAND_COLUMNS) if isinstance(hand_fields[name], models.JSONField)
    ]

    with connection.wrap_database_errors, conn.pipeline():
        sent = _send(conn, queries, counted, batches[0], None) if batches else None
        for k in range(len(batches)):
            batch = _received(sent, json_columns)
            # the next batch's reads, and the statements of the batch checked last
            following = batches[k + 1] if k + 1 < len(batches) else None
            sent = _send(conn, queries, counted, following, batches[k - 1] if k else None)
            yield batch  # checked when the caller asks for the next
        if batches:  # the last batch checked: its statements (their results at the exit)
            for cursor in sent + _send(conn, queries, counted, None, batches[-1]):
                cursor.close()


def _send(conn, queries, counted, ids, checked):
    """The reads of ``ids`` (None: none) after the statements of ``checked`` (None:
    none), all sent on ``conn`` (in its pipeline); the cursors, whose results come at
    the next fetch."""
    cursors = [psycopg.Cursor(conn)]
    if checked is not None:
        for sql, params in counted(list(checked)):
            cursors[0].execute(sql, params)
    if ids is not None:
        for query in queries:
            sql, params = query(list(ids)).query.sql_with_params()
            cursor = psycopg.Cursor(conn)
            cursor.execute(sql, params)
            cursors.append(cursor)
    return cursors


def _received(cursors, json_columns):
    """A batch's sheets, seats, hands (dicts) and score rows, from ``_send``'s cursors."""
    sheets, seats, hands, rows = (cursor.fetchall() for cursor in cursors[1:])
    for cursor in cursors:
        cursor.close()
    sheets = [
        (pk, _json_value(rules) if type(rules) is str else rules, *rest)
        for pk, rules, *rest in sheets
    ]
    dicts = []
    for row in hands:
        row = list(row)
        for i in json_columns:
            if row[i] is not None and type(row[i]) is str:
                row[i] = _json_value(row[i])
        dicts.append(dict(zip(HAND_COLUMNS, row)))
    return sheets, seats, dicts, rows


def _json_value(text):
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # what json reads and orjson does not (big integers)
        return json.loads(text)


def _check_sheet_hands(ruleset, table, hands, deleted, sheet, stored, fields, defaults, order):
    pools = ()
    key = operator.itemgetter(*order)
    columns = operator.itemgetter(*fields)
    base = dict(defaults, **sheet)  # a score row of this sheet, before its hand's columns
    for values in hands:
        where = f"scoresheet.hand {values['id']}"
        hand = _Hand(values)
        try:
            engine_hand = parse_hand(hand_data(hand, table), ruleset, table.names)[1]
            if hand.is_deleted or deleted:
                continue
            result = score_hand(ruleset, engine_hand, pools)
        except KeyError:
            raise invalid(_("%(row)s: a player not seated at its sheet") % {"row": where}) from None
        except ScoringError as error:
            raise invalid(f"{where}: {message_of(error)}") from None
        except (TypeError, ValueError, AttributeError) as error:
            raise invalid(f"{where}: {error}") from None
        if result.pools is not None:
            pools = result.pools
            if list(result.pools) != list(hand.pools or ()):
                raise invalid(_("%(row)s: its pools are not the engine's") % {"row": where})
        inputs = {name: values[name] for name in ROW_INPUTS}
        expected = []
        for row in score_row_fields(inputs, hand.number, table, result):
            full = base.copy()
            full["hand_id"] = hand.id
            full.update(row)
            expected.append(columns(full))
        found = stored.pop(hand.id, [])
        if sorted(found, key=key) != sorted(expected, key=key):
            raise invalid(
                _("%(row)s: its score rows are not what the engine gives") % {"row": where}
            )


def renumber(club) -> None:
    """Each sheet's last hand number from its hands (deleted ones too): a backup made
    before ``Sheet.last_number`` existed reads it as 0, and the next hand recorded
    would take the number of a deleted one."""
    last = Hand.objects.filter(sheet=OuterRef("pk")).order_by("-number").values("number")[:1]
    Sheet.objects.filter(club=club).update(last_number=Coalesce(Subquery(last), 0))
