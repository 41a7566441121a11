"""Import sheets in the JSON format of HAND_FORMAT.md, one sheet per line.

Each line is all or nothing. Beyond the format's ``rules``, ``players`` and
``hands``, a line may give ``date`` (ISO), ``table`` and ``season`` (a season's
name); otherwise the sheet goes to the season that covers its date.

A bad line never stops the import: bytes that are not UTF-8, JSON that is not a
sheet, a hand the engine refuses, a name that is empty, too long or holds
control characters, amounts the ledger cannot hold, or anything the database
refuses — each is a ``LineResult`` with a code and a reason, and the import goes
on with the next line. Players are matched ignoring case and accents
(``services.players_by_names``). A line that meets a deadlock is run again.

``read_sheet`` is the first step alone, for a file read without a club.

Two steps per line: ``_prepare`` reads, checks and scores it without the
database (the club's seasons are read once per import: ``_Seasons``), and
``_write`` makes its players, sheet, hands, ledger rows, history and totals in
one transaction (``COPY`` on PostgreSQL: ``core.bulk``). ``import_sheets`` runs
the first a few lines ahead in a thread of its own (``core.threads.read_ahead``)
and, on PostgreSQL, both in several processes at once (``writers``).
"""

import collections
import datetime
import json
import unicodedata
from dataclasses import dataclass, replace

from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Season, season_covering
from clubs.services import name_key
from core.bulk import JSONText, RowWriter
from core.db import commit_without_waiting, flush_to_disk, retry_on_conflict
from core.processes import ProcessPool
from core.threads import read_ahead
from scoresheet import handmap, services, signals
from scoresheet.explain_json import terms_to_json
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet
from scoresheet.totals import add_new_sheet_totals
from tarot import ScoringError, score_sheet
from tarot import Sheet as EngineSheet
from tarot.jsonformat import loads, parse_hand, parse_rules

TABLE_MAX = Sheet._meta.get_field("table").max_length
#: How many lines ``import_sheets`` reads ahead of the one it writes (memory: that
#: many sheets, whatever the file's size).
AHEAD = 2


@dataclass
class LineResult:
    line: int
    sheet: object = None
    hands: int = 0
    code: str = ""
    message: str = ""
    hand: int | None = None
    queries: int = 0

    @property
    def ok(self):
        return not self.code


def import_sheet_line(
    club: Club, text, *, season: Season | None = None, actor=None, announce: bool = True
):
    """Import one sheet; raises LedgerError (with ``hand`` set when a hand is refused).

    ``text``: the line, as text or as bytes (UTF-8). ``announce`` False: the ledger's
    signal is not sent for the sheet; the caller, importing several, sends it once
    for them all (``announce_imported``).
    """
    seasons = None if season is not None else _Seasons(club)
    return _write(club, _prepare(text, season, seasons), actor, announce=announce)


def announce_imported(club_id, sheets) -> None:
    """Send ``ledger_changed`` once for the sheets an import wrote (``sheets``: the
    Sheets, None for a line refused), in a transaction of its own: what keeps
    something of the ledger on write (the ratings) redoes it once, from the earliest
    of them (the ratings: in the background above ``RATINGS_BACKGROUND_HANDS``
    hands), not once a sheet (each sheet re-rated the club from itself: most of an
    import's time at 20-hand sheets)."""
    sheets = [sheet for sheet in sheets if sheet is not None]
    if sheets:
        with transaction.atomic():
            signals.changed(club_id, sheets)


@dataclass(frozen=True)
class _Line:
    """A line read, checked and scored (``_prepare``), not yet written (``_write``).

    ``scored``: the hands as the engine read them (``_score``), with the line's own
    names; ``refusal`` the error scoring them met (raised only once the players and
    the sheet are made, in the order the services check). ``None`` for both when
    the rules themselves are refused (``create_sheet`` says why).
    """

    players: list
    hands: list
    date: datetime.date
    table: str
    season: Season
    rules: object
    scored: "_Scored | None" = None
    refusal: "services.LedgerError | None" = None


@dataclass(frozen=True)
class _Scored:
    """A sheet's hands scored: the engine's hands and results, with what the rows
    keep of them as JSON text (``core.bulk.JSONText``: encoded here, once)."""

    hands: tuple
    results: tuple
    explanations: tuple
    snapshots: tuple


class _Seasons:
    """The club's seasons, read once for a whole import: the season a line names,
    or the one covering its date (``clubs.models.season_covering``, as
    ``SeasonQuerySet.covering`` picks it)."""

    def __init__(self, club: Club):
        self.newest_first = list(club.seasons.regular().newest_first())

    def find(self, name, date):
        if name:
            for season in self.newest_first:
                if season.name == name:
                    return season
            raise services.LedgerError(
                "season_unknown", _("No season named %(name)s") % {"name": name}, "season"
            )
        season = season_covering(self.newest_first, date)
        if season is None:
            raise services.LedgerError(
                "season_missing", _("The club has no season to put the sheet in."), "season"
            )
        return season


def _prepare(text, season: Season | None, seasons: "_Seasons | None") -> _Line:
    """Read and check one line and score its hands, without the database (the
    ``season`` given, else the one ``seasons`` finds for the line); raises LedgerError.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise services.LedgerError(
                "invalid_utf8", _("not UTF-8 text (byte %(n)s)") % {"n": error.start + 1}
            ) from None
    if "\x00" in text:
        raise services.LedgerError("invalid_text", _("the line holds a NUL character"))
    try:
        data = loads(text)
    except ScoringError as error:
        raise services.LedgerError.from_scoring(error) from None
    players = data.get("players")
    hands = data.get("hands")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise services.LedgerError("invalid_field", _("players: a list of names"), "players")
    if not isinstance(hands, list):
        raise services.LedgerError("invalid_field", _("hands: a list of hands"), "hands")
    date = data.get("date") or datetime.date.today().isoformat()
    try:
        date = datetime.date.fromisoformat(str(date))
    except ValueError:
        raise services.LedgerError("invalid_field", _("date: YYYY-MM-DD"), "date") from None
    table = _text(data.get("table"), "table")
    if len(table) > TABLE_MAX:
        raise services.LedgerError(
            "table_too_long", _("table: at most %(n)s characters") % {"n": TABLE_MAX}, "table"
        )
    season_name = _text(data.get("season"), "season")
    season = season or seasons.find(season_name, date)
    rules = data.get("rules")
    line = _Line(players, hands, date, table, season, rules)
    try:
        ruleset = parse_rules(season.rules if rules is None else rules)
    except ScoringError:
        return line  # ``create_sheet`` refuses the rules, after the players
    if len(set(players)) != len(players):
        return line  # a player seated twice: ``create_sheet`` says so
    try:
        scored = _score(ruleset, tuple(players), hands)
    except services.LedgerError as error:
        return replace(line, refusal=error)
    return replace(line, scored=scored)


@dataclass(frozen=True)
class ReadSheet:
    """A line of the interchange format read and scored, with no database (``read_sheet``)."""

    date: datetime.date
    players: list  # the names, as the line gives them
    rules: object  # the line's rules, else those given to ``read_sheet``
    results: tuple  # the engine's results (``tarot.result``), in hand order


class _RulesOf:
    """What ``_prepare`` asks of a season: the rules of a line without any."""

    def __init__(self, rules):
        self.rules = rules


def read_sheet(text, *, rules) -> ReadSheet:
    """Read, check and score one line as the import does, with no database and no season
    (``rules``: those of a line without any); raises the import's ``LedgerError`` (its
    codes and messages) for a line the import would refuse before writing it. The
    reading a command rating or checking a file without a club uses (``rate_hands``)."""
    line = _prepare(text, _RulesOf(rules), None)
    if line.refusal is not None:
        raise line.refusal
    if line.scored is None:  # the rules refused, or a player seated twice
        try:
            parse_rules(rules if line.rules is None else line.rules)
        except ScoringError as error:
            raise services.LedgerError.from_scoring(error) from None
        raise services.LedgerError("duplicate_player", field="players")
    return ReadSheet(line.date, list(line.players), line.rules or rules, line.scored.results)


class _Roster:
    """The club's players as one writer last read them, so that a line seating
    known players does not read them all again (``players_by_names(roster=…)``).
    A line naming someone it does not hold reads them again and may create them;
    the roster is then read again before the next line (it may have missed that
    line's players, or another writer's)."""

    def __init__(self, club: Club):
        self.club = club
        self.players = None

    def seat(self, names, actor):
        if self.players is None:
            self.players = services.Roster(Player.objects.filter(club=self.club))
        try:
            return services.players_by_names(self.club, names, roster=self.players)
        except services.LedgerError:  # someone new, or a name to refuse: as it is now
            self.players = None
        return services.players_by_names(self.club, names, create=True, actor=actor)


@retry_on_conflict
def _write(club: Club, line: _Line, actor, roster: "_Roster | None" = None, announce=True):
    """Make the line's players (when new), its sheet, hands, ledger rows and history,
    in one transaction. When the club's players are named otherwise than the line
    names them ("ann" for Ann), the hands are scored again under the stored names
    (which the history and the explanations keep). ``roster``: the import's
    (``_Roster``); a line alone reads the players once. ``announce``: send the
    ledger's signal for the sheet (an import of several sends it once at its end)."""
    with transaction.atomic():
        if roster is None:
            seated = services.players_by_names(club, line.players, create=True, actor=actor)
        else:
            seated = roster.seat(line.players, actor)
        sheet = services.create_sheet(
            season=line.season,
            players=seated,
            date=line.date,
            table=line.table,
            rules=line.rules,
            actor=actor,
            hand_count=len(line.hands),
        )
        seating = handmap.Table.seating(seated)
        scored_ahead = line.scored is not None or line.refusal is not None
        if scored_ahead and tuple(line.players) == seating.names:
            if line.refusal is not None:
                raise line.refusal
            scored = line.scored
        else:
            # the hands name the players as the line does ("ann"): use the stored names
            renamed = {name: player.name for name, player in zip(line.players, seated)}
            hands = [_renamed(hand, renamed) for hand in line.hands]
            scored = _score(sheet.ruleset, seating.names, hands)
        _bulk_hands(sheet, seating, scored, actor)
        if announce and scored.results:
            signals.changed(sheet.club_id, [sheet])
    return sheet


def _score(ruleset, names: tuple, hands) -> _Scored:
    """Read and score a new sheet's hands as ``services.record_hand`` would one by one:
    each hand read and checked as the services do (``parse_hand``; refusals are the
    same ``LedgerError`` with ``hand`` set), the sheet scored once by the engine
    (``score_sheet``: mouches pools carry), and the explanations and history
    snapshots encoded. No database."""
    engine_hands = []
    for number, data in enumerate(hands, start=1):
        try:
            if not isinstance(data, dict):
                raise services.LedgerError("invalid_field", _("A hand must be an object."))
            if "players" in data or "rules" in data:
                data = {k: v for k, v in data.items() if k not in ("players", "rules")}
            try:
                engine_hands.append(parse_hand(data, ruleset, names)[1])
            except ScoringError as error:
                raise services.LedgerError.from_scoring(error) from None
        except services.LedgerError as error:
            error.hand = number
            raise
    try:
        results = score_sheet(EngineSheet(ruleset, names, tuple(engine_hands))).hands
    except ScoringError as error:
        refusal = services.LedgerError.from_scoring(error)
        refusal.hand = getattr(error, "hand", None)
        raise refusal from None
    for number, result in enumerate(results, start=1):
        try:
            services._check_fits(result)
        except services.LedgerError as error:
            error.hand = number
            raise
    return _Scored(
        tuple(engine_hands),
        tuple(results),
        tuple(JSONText.dumps(terms_to_json(result.explanation)) for result in results),
        tuple(
            JSONText.dumps(handmap.snapshot(hand, result))
            for hand, result in zip(engine_hands, results)
        ),
    )


def _bulk_hands(sheet, table, scored: _Scored, actor) -> None:
    """Write a new sheet's scored hands at once, as ``services.record_hand`` would one
    by one: the hands, score rows and history entries as plain rows
    (``handmap.hand_fields``, ``score_row_fields``, ``snapshot``: the columns
    ``record_hand`` writes) with one ``COPY`` per table on PostgreSQL
    (``core.bulk``), then the totals made once from those rows
    (``totals.add_new_sheet_totals``); all in the caller's transaction, so a refused
    hand leaves nothing. ``table``: the sheet's seating.
    """
    if not scored.results:
        return
    now = timezone.now()
    user_id = actor.pk if actor is not None else None
    fields = [
        handmap.hand_fields(engine_hand, result, table, explanation=explanation)
        for engine_hand, result, explanation in zip(
            scored.hands, scored.results, scored.explanations
        )
    ]
    RowWriter(Hand).write(
        {
            **columns,
            "sheet_id": sheet.pk,
            "number": number,
            "entered_by_id": user_id,
            "entered_at": now,
            "updated_at": now,
        }
        for number, columns in enumerate(fields, start=1)
    )
    ids = _hand_ids(sheet.pk)
    per_sheet = {
        "sheet_id": sheet.pk,
        "season_id": sheet.season_id,
        "date": sheet.date,
        "seats": len(table.names),
    }
    rows = []
    for number, (columns, result) in enumerate(zip(fields, scored.results), start=1):
        hand_id = ids[number]
        for row in handmap.score_row_fields(columns, number, table, result):
            row.update(per_sheet, hand_id=hand_id)
            rows.append(row)
    RowWriter(ScoreRow).write(rows)
    RowWriter(HandRevision).write(
        {
            "hand_id": ids[number],
            "action": HandRevision.Action.CREATED.value,
            "user_id": user_id,
            "at": now,
            "after": snapshot,
        }
        for number, snapshot in enumerate(scored.snapshots, start=1)
    )
    add_new_sheet_totals(sheet, rows)


def _hand_ids(sheet_id) -> dict:
    """The sheet's hand ids by number. A plain statement: the ORM's queryset, compiled
    for each sheet, cost 0.3 ms of CPU, as much as writing a sheet's hands."""
    quote = connection.ops.quote_name
    number, key, sheet = (quote(Hand._meta.get_field(f).column) for f in ("number", "id", "sheet"))
    table = quote(Hand._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {number}, {key} FROM {table} WHERE {sheet} = %s", [sheet_id])
        return dict(cursor.fetchall())


def import_sheets(club: Club, lines, *, season=None, actor=None, writers: int = 1):
    """Import every line (text or UTF-8 bytes); yield a ``LineResult`` for each
    non-blank line, in the lines' order. A refused line is a result, never an
    exception.

    Lines are read, checked and scored a few ahead in a thread of their own
    (``_prepare``: no database) while this one writes the previous ones, so the
    engine's work runs while the database does its part of each sheet.
    ``LineResult.queries``: the statements each line's write took.

    The ledger's signal (the ratings) is sent once, for every sheet written, after
    the last line (``announce_imported``: one re-rating from the earliest sheet, in
    the background above ``RATINGS_BACKGROUND_HANDS`` hands), also when the import
    stops early.

    ``writers`` > 1 (PostgreSQL only; SQLite writes one transaction at a time)
    reads, scores and writes that many sheets at once in child processes
    (``core.processes.ProcessPool``: Python's work runs on every core, and the
    database works on one sheet while Python makes the rows of another), each
    sheet in its own transaction on the child's connection. A line that would
    create a player another line in flight creates waits until that one is
    written, so two sheets never create the same player. The writers commit
    without waiting for the disk (``core.db.commit_without_waiting``: a crash
    loses whole sheets, never half of one); once every line is written, and
    before the last result is given, every commit is flushed to disk
    (``core.db.flush_to_disk``): when the import has reported, what it reports is
    on disk. The caller's connection
    is closed before the children are forked (it reconnects when next used), and
    its transaction would not be theirs: outside a transaction only (``manage.py
    import_sheets``, the benchmark).
    """
    seasons = None if season is not None else _Seasons(club)
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        writers = 1

    def numbered():  # the non-blank lines, with their numbers in the file
        for number, text in enumerate(lines, start=1):
            if text.strip():
                yield number, text

    def prepared(text):  # the line read and scored, or why it is refused
        try:
            return _prepare(text, season, seasons)
        except services.LedgerError as error:
            return error

    roster = _Roster(club)  # each writer process has its own copy
    written = []
    results = _import_lines(club, numbered(), prepared, roster, actor, writers)
    try:
        for result in results:
            if result.ok:
                written.append(result.sheet)
            yield result
    finally:
        results.close()  # stopped early: the writers done first, then the signal
        announce_imported(club.pk, written)


def _import_lines(club, numbered, prepared, roster, actor, writers):
    """``import_sheets``' results, line by line, the ledger's signal not sent."""

    def write(line):
        if isinstance(line, services.LedgerError):
            raise line  # refused by ``_prepare``
        return _write(club, line, actor, roster, announce=False)

    if writers <= 1:
        ahead = ((number, prepared(text)) for number, text in numbered)
        for number, line in read_ahead(ahead, AHEAD):
            yield _result(number, lambda line=line: write(line))
        return
    known = {name_key(name) for name in club.players.values_list("name", flat=True)}
    creating = collections.Counter()  # the players lines in flight create (name keys)
    pending = collections.deque()  # (line number, its players' name keys, the new ones)

    def prepare(job):
        number, text = job
        return number, prepared(text)

    def work(job):
        number, line = job
        return _result(number, lambda: write(line))

    pool = ProcessPool(
        writers, work, prepare=prepare, setup=commit_without_waiting, name="import-writer"
    )
    with pool:

        def finished():
            number, keys, new = pending.popleft()
            result = pool.result(number)
            creating.subtract(new)
            if result.ok:
                known.update(keys)
            return result

        for number, text in numbered:
            keys = _name_keys(text)
            # a player two lines in flight would both create: this one waits
            while pending and any(creating[key] > 0 for key in keys - known):
                yield finished()
            new = keys - known
            creating.update(new)
            pool.submit(number, (number, text))
            pending.append((number, keys, new))
            # each writer holds two lines (one written, the next read): one more waits
            while pending and (len(pending) > 2 * writers or pool.ready(pending[0][0])):
                yield finished()
        while len(pending) > 1:
            yield finished()
        if pending:
            result = finished()
            flush_to_disk()  # every line written is on disk before the import ends
            yield result


def _name_keys(text) -> set:
    """The name keys of the players a line seats, read without checking the line
    (which its writer does): none when it is not a sheet."""
    try:
        data = json.loads(text)
    # not UTF-8 (a ValueError too), not JSON, nested too deep for the parser
    except (ValueError, TypeError, RecursionError):
        return set()
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list):
        return set()
    return {name_key(name) for name in players if isinstance(name, str)}


def _result(number, write) -> LineResult:
    """``write()``'s sheet as the line's result, or the reason it was refused; with
    the statements it took (``queries``: the benchmark adds them up)."""
    statements = 0

    def count(execute, sql, params, many, context):
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(count):
            sheet = write()
    except services.LedgerError as error:
        return LineResult(
            number,
            code=error.code,
            message=error.message,
            hand=getattr(error, "hand", None),
            queries=statements,
        )
    except DatabaseError as error:  # the database's reason, on one line
        return LineResult(
            number, code="database_refused", message=_first_line(error), queries=statements
        )
    except ValueError as error:  # e.g. text the database driver cannot send
        return LineResult(
            number, code="invalid_value", message=_first_line(error), queries=statements
        )
    return LineResult(number, sheet=sheet, hands=sheet.hand_count, queries=statements)


#: The fields of a hand (HAND_FORMAT.md) that hold a player's name, or a list of names.
NAME_FIELDS = ("dealer", "taker", "partner", "sits_out")
NAME_LIST_FIELDS = ("miseres",)


def _renamed(hand, names: dict):
    """``hand`` with the players' names as stored (unknown values left to the engine)."""
    if not isinstance(hand, dict) or all(old == new for old, new in names.items()):
        return hand

    def name(value):
        return names.get(value, value) if isinstance(value, str) else value

    hand = dict(hand)
    for field in NAME_FIELDS:
        if field in hand:
            hand[field] = name(hand[field])
    for field in NAME_LIST_FIELDS:
        if isinstance(hand.get(field), list):
            hand[field] = [name(v) for v in hand[field]]
    if isinstance(hand.get("poignees"), list):
        hand["poignees"] = [
            dict(p, player=name(p.get("player"))) if isinstance(p, dict) else p
            for p in hand["poignees"]
        ]
    return hand


#: ``_renamed`` for the upload, which renames a file's near-duplicate names to the players chosen.
renamed_hand = _renamed


def _text(value, field) -> str:
    """A text field of the line (table, season), spaces collapsed; no control characters."""
    text = " ".join(str(value if value is not None else "").split())
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise services.LedgerError(
            "invalid_text",
            _("%(field)s: no control characters") % {"field": field},
            field,
        )
    return text


def _first_line(error) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
