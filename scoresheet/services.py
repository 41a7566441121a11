"""Every write to sheets and hands: verb functions, one transaction each.

Each raises ``LedgerError`` (with a machine-readable ``code``) and writes nothing
when it refuses. Hand data comes in the JSON format of HAND_FORMAT.md with the
seated players' names; the engine scores it; the hand, its score rows (the
ledger) and a history entry are written together. Under mouches, every later
hand whose scores change is re-scored with a history entry of its own
(``rescored``, ``caused_by`` the change). Opening a sheet and creating a player
are audit entries (``clubs.audit``).

A write that meets a deadlock or a serialization failure is run again
(``core.db.retry_on_conflict``), so the scorer never sees it.

``actor``: every verb takes the user acting, authorised the one way
(``clubs.permissions.require``, ``forbidden``): a scorer or manager of the sheet's
club, a manager to reopen a sheet; ``None`` for code without a user (commands,
imports, a tournament table's private link). Refusals: ``error_messages``.
"""

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit, refusals
from clubs.models import Player, Season
from clubs.permissions import require
from clubs.services import ClubError, create_player, name_key, player_name
from core.bulk import RowWriter, insert
from core.db import club_write_lock, retry_on_conflict, savepoint_needed
from core.errors import ServiceError
from scoresheet import handmap, signals
from scoresheet.explain_json import terms_to_json
from scoresheet.handmap import Table, engine_hand_of, hand_data  # noqa: F401 (the services' API)
from scoresheet.models import Hand, HandRevision, ScoreRow, Seat, Sheet
from scoresheet.totals import add_hand_to_totals, refresh_sheet_totals
from tarot import HandResult, ScoringError, score_hand
from tarot.engine import halves_to_decimal
from tarot.jsonformat import number, parse_hand, parse_rules

#: The refusals of this module, by code (``core.errors``). The engine's refusals come
#: through with their own codes and messages (``tarot``'s catalogue), a club's refusal
#: of a player's name with the club's, and ``forbidden`` worded by the level it lacks
#: (``clubs.permissions.error_messages``).
error_messages = {
    "seat_count": _lazy("A table seats 2 to 6 players."),
    "duplicate_player": _lazy("A player is seated twice."),
    "player_not_in_club": _lazy("Every player must be of this club."),
    "player_ambiguous": _lazy("Several players match %(name)s: %(players)s"),
    "player_unknown": _lazy("Unknown player: %(names)s"),
    "invalid_field": _lazy("A hand must be an object."),
    "sheet_deleted": _lazy("This sheet is deleted: restore it first."),
    "sheet_closed": _lazy(
        "This sheet is closed: no hand can be entered, corrected, deleted or restored "
        "until it is reopened."
    ),
    "hand_clash": _lazy(
        "Hand %(number)s was entered meanwhile, on another phone: this hand was entered "
        "after hand %(after)s."
    ),
    "hand_deleted": _lazy("This hand is already deleted."),
    "hand_not_deleted": _lazy("This hand is not deleted."),
    "amount_too_large": _lazy(
        "A score is too large to be kept (at most %(max)s a hand): check the rules."
    ),
}
#: ``hand_deleted`` when the hand was to be corrected (the hand page says it too).
RESTORE_FIRST = _lazy("Restore the hand before correcting it.")


class LedgerError(ServiceError):
    """A write to sheets and hands refused (``code``, ``message``, ``field``)."""

    error_messages = error_messages

    def __init__(self, code: str, message=None, field: str | None = None, **params):
        super().__init__(code, message, field, **params)
        self.hand = None  # set by imports: the hand's number within its sheet

    #: the engine's refusals in the page's language, without their code
    scoring_wording = staticmethod(refusals.message_of)


# ---------------------------------------------------------------- sheets


@retry_on_conflict
def create_sheet(
    *, season: Season, players, date, table: str = "", rules=None, actor=None, hand_count=0
):
    """Open a sheet: 2 to 6 players of the season's club in dealing order.

    ``rules`` (a preset name or options dict) defaults to the season's house
    rules; either way the sheet keeps its own copy, frozen from now on.
    ``hand_count``: the hands the caller writes with the sheet in its transaction,
    numbered from 1 (the import), so the sheet is inserted with its count rather
    than updated after them.
    """
    require(actor, season.club_id, "score", LedgerError)
    players = list(players)
    if not 2 <= len(players) <= 6:
        raise LedgerError("seat_count", field="players")
    if len({p.pk for p in players}) != len(players):
        raise LedgerError("duplicate_player", field="players")
    if any(p.club_id != season.club_id for p in players):
        raise LedgerError("player_not_in_club", field="players")
    try:
        ruleset = parse_rules(season.rules if rules is None else rules)
    except ScoringError as error:
        raise LedgerError.from_scoring(error) from None
    # inside a caller's transaction (the import, a tournament round), no savepoint:
    # nothing below is refused but by the database, and then the caller's whole
    # transaction goes
    with transaction.atomic(savepoint=False):
        # the rows as plain statements, not the ORM's (compiled for each sheet: most of
        # an imported 20-hand sheet's own CPU); the same rows
        sheet = insert(
            Sheet(
                club_id=season.club_id,
                season=season,
                date=date,
                table=table,
                rules=ruleset.as_dict(),
                created_by=actor,
                seat_count=len(players),
                hand_count=hand_count,
                last_number=hand_count,
            )
        )
        RowWriter(Seat).write(
            {"sheet_id": sheet.pk, "player_id": player.pk, "position": i}
            for i, player in enumerate(players)
        )
        after = {
            "season": season.name,
            "date": date.isoformat() if hasattr(date, "isoformat") else str(date),
            "table": table,
            "players": [p.name for p in players],
            "rules": sheet.rules,
        }
        audit.record(season.club_id, actor, audit.Action.SHEET_CREATED, sheet, after=after)
    return sheet


@retry_on_conflict
def open_sheet(*, season: Season, seated, date, table: str = "", rules=None, actor=None):
    """Open a sheet as the sheet form does: ``seated`` in dealing order are the club's
    players and the names (text) of new players, created with the sheet in one
    transaction, so a refusal leaves nothing behind. A new player's name refused is
    the club's code on the field ``new_players``; the rest as ``create_sheet``."""
    with transaction.atomic():
        players = []
        for seat in seated:
            if isinstance(seat, Player):
                players.append(seat)
                continue
            try:
                players.append(create_player(season.club, seat, actor=actor))
            except ClubError as error:
                raise LedgerError(error.code, error.message, "new_players") from None
        return create_sheet(
            season=season, players=players, date=date, table=table, rules=rules, actor=actor
        )


class Roster:
    """Players as read once, by exact name and by ``name_key`` (what
    ``players_by_names`` matches), so a caller matching many lines against the same
    players keys their names once."""

    def __init__(self, players):
        self.exact, self.by_key = {}, {}
        for player in players:
            self.exact[player.name] = player
            self.by_key.setdefault(name_key(player.name), []).append(player)


def players_by_names(club, names, *, create=False, actor=None, roster=None):
    """The club's players with these names, in order (created when new if asked).

    ``roster``: the club's players as the caller read them before (a ``Roster``:
    the import's writers keep one), matched instead of reading them again; a name
    it does not hold is refused as unknown (the caller reads them again to create
    it).

    A name matches a player of the club ignoring case, accents and extra spaces
    (``clubs.services.name_key``: "ann" is Ann, "Helene" is Hélène); the exact
    name wins when several players match. Names are checked as
    ``clubs.services.create_player`` checks them (``name_required``,
    ``name_too_long``, ``name_invalid``; ``player_ambiguous`` when two players
    of the club match a name).
    """
    if roster is not None and create:
        raise ValueError("players are created from the club's players as they are now")
    cleaned = []
    for name in names:
        try:
            cleaned.append(player_name(name))
        except ClubError as error:
            raise LedgerError(error.code, f"{error.message} ({name!r})", "players") from None
    if roster is None:
        roster = Roster(Player.objects.filter(club=club))
    exact, by_key = roster.exact, roster.by_key
    found, missing = [], []
    for name in cleaned:
        player = exact.get(name)
        if player is None:
            matches = by_key.get(name_key(name), [])
            if len(matches) > 1:
                players = ", ".join(p.name for p in matches)
                raise LedgerError("player_ambiguous", field="players", name=name, players=players)
            player = matches[0] if matches else None
        if player is None:
            missing.append(name)
        found.append(player if player is not None else name)
    if missing and not create:
        raise LedgerError("player_unknown", field="players", names=", ".join(missing))
    created = {}
    for i, name in enumerate(found):
        if isinstance(name, str):
            key = name_key(name)
            if key not in created:
                try:
                    created[key] = create_player(club, name, actor=actor)
                except ClubError as error:
                    raise LedgerError(error.code, error.message, "players") from None
            found[i] = created[key]
    return found


# ---------------------------------------------------------------- hands


def preview_hand(
    sheet: Sheet, data: dict, table: Table | None = None, *, hand: Hand | None = None
) -> HandResult:
    """Score a hand as it would be recorded now (or as ``hand`` corrected), writing nothing."""
    table = table or Table.of(sheet)
    pools = ()
    if sheet.ruleset.has_pools:
        pools = _pools_before(sheet, hand)
    return _score(sheet, table, data, pools)[1]


@retry_on_conflict
def record_hand(
    sheet: Sheet, data: dict, *, actor=None, table: Table | None = None, after: int | None = None
) -> Hand:
    """Append a hand to the sheet, with its score rows and history: the one way a
    new hand is written (the hand form, a tournament table, the importer's tests).

    The sheet is locked (``Sheet.DoesNotExist`` if it is gone), the hand scored
    once under the lock (a refusal is a ``LedgerError`` with the field at fault)
    and written. ``table``: the seating the caller read with ``sheet`` (the hand
    form's), used as it is when ``sheet`` had a hand already when it was read —
    the seating only changes before the first hand (``editing.update_sheet``) —
    and read again under the lock otherwise.

    Inside a caller's transaction that rolls back whole on any error (a durable
    one: ``core.idempotency.once``'s), no savepoint of its own (two queries fewer:
    ``core.db.savepoint_needed``).

    ``after``: the number of the sheet's last hand when the hand was entered (the hand
    form's); a hand numbered meanwhile (another phone's) refuses it, ``hand_clash``
    naming the last one: stored twice silently otherwise, when two phones keep a sheet.
    """
    require(actor, sheet.club_id, "score", LedgerError)
    with transaction.atomic(savepoint=savepoint_needed()):
        club_write_lock(sheet.club_id)
        locked = _lock_for_new_hand(sheet.pk)
        _check_open(locked)
        if after is not None and _new_number(locked) != after + 1:
            raise LedgerError("hand_clash", number=_new_number(locked) - 1, after=after)
        if table is None or not (sheet.hand_count or sheet.last_number):
            table = Table.of(locked)
        return _record(locked, table, data, actor)


@retry_on_conflict
def correct_hand(hand: Hand, data: dict, *, actor=None, table: Table | None = None) -> Hand:
    """Replace a hand's entry; re-score it (and, under mouches, every later hand).

    Scored once, under the sheet's lock. ``table``: the seating the caller read (the
    hand form's); the sheet has a hand, so its seating no longer changes."""
    with transaction.atomic():
        sheet, hand = _lock_hand(hand, actor, deleted=False, refusal=RESTORE_FIRST)
        table = table or Table.of(sheet)
        before = handmap.stored_snapshot(hand, table)
        pools = _pools_before(sheet, hand) if sheet.ruleset.has_pools else ()
        engine_hand, result = _score(sheet, table, data, pools)
        hand.scores.all().delete()
        action = HandRevision.Action.CORRECTED
        _store(sheet, table, hand, engine_hand, result, action, actor, before)
    return hand


@retry_on_conflict
def delete_hand(hand: Hand, *, actor=None) -> Hand:
    """Take a hand off the ledger; it is kept, with its history, and can be restored."""
    with transaction.atomic():
        sheet, hand = _lock_hand(hand, actor, deleted=False)
        table = Table.of(sheet)
        before = handmap.stored_snapshot(hand, table)
        hand.is_deleted = True
        hand.save(update_fields=["is_deleted", "updated_at"])
        hand.scores.all().delete()
        revision = HandRevision.objects.create(
            hand=hand, action=HandRevision.Action.DELETED, user=actor, before=before
        )
        if sheet.ruleset.has_pools:
            _rescore_after(sheet, table, hand, _pools_before(sheet, hand), revision)
        refresh_sheet_totals(sheet)
        signals.changed(sheet.club_id, [sheet])
    return hand


@retry_on_conflict
def restore_hand(hand: Hand, *, actor=None) -> Hand:
    """Put a deleted hand back on the ledger, re-scored in its place."""
    with transaction.atomic():
        sheet, hand = _lock_hand(hand, actor, deleted=True)
        table = Table.of(sheet)
        engine_hand = engine_hand_of(hand, table)
        pools = _pools_before(sheet, hand) if sheet.ruleset.has_pools else ()
        try:
            result = score_hand(sheet.ruleset, engine_hand, pools)
        except ScoringError as error:
            raise LedgerError.from_scoring(error) from None
        hand.is_deleted = False
        _store(sheet, table, hand, engine_hand, result, HandRevision.Action.RESTORED, actor)
    return hand


# ---------------------------------------------------------------- closing a sheet


def close_sheet(sheet: Sheet, *, actor=None) -> Sheet:
    """Close a sheet: the hand services refuse it (``sheet_closed``) until it is reopened.

    Closing a closed sheet changes nothing (its first closing time stays).
    """
    require(actor, sheet.club_id, "score", LedgerError)
    with transaction.atomic():
        sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
        if sheet.closed_at is None:
            sheet.closed_at = timezone.now()
            sheet.save(update_fields=["closed_at"])
    return sheet


def reopen_sheet(sheet: Sheet, *, actor=None) -> Sheet:
    """Reopen a closed sheet: hands may be entered, corrected and deleted again (a manager)."""
    require(actor, sheet.club_id, "manage", LedgerError)
    with transaction.atomic():
        sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
        if sheet.closed_at is not None:
            sheet.closed_at = None
            sheet.save(update_fields=["closed_at"])
    return sheet


# ---------------------------------------------------------------- internals


def _lock(sheet: Sheet) -> Sheet:
    """Serialise writes to one sheet (hand numbers, mouches pools); refuse a closed or a
    deleted one (``sheet_closed``, ``sheet_deleted``)."""
    sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
    _check_open(sheet)
    return sheet


def _check_open(sheet: Sheet) -> None:
    if sheet.deleted_at is not None:
        raise LedgerError("sheet_deleted")
    if sheet.closed_at is not None:
        raise LedgerError("sheet_closed")


def _lock_for_new_hand(sheet_id, *, club=None) -> Sheet:
    """Lock a sheet for a new hand, and count the hand: one ``UPDATE … SET hand_count =
    hand_count + 1, last_number = last_number + 1 … RETURNING`` takes the sheet's lock
    (as ``select_for_update`` does), numbers the hand (``last_number``: every hand
    numbered on the sheet, deleted ones too) and reads the sheet as the lock leaves
    it. A refusal after it rolls the count back with the rest of the transaction.
    ``Sheet.DoesNotExist`` for an unknown sheet (or one of another club than ``club``).
    """
    quote = connection.ops.quote_name
    params = [sheet_id]
    where = f"{quote('id')} = %s"
    if club is not None:
        where += f" AND {quote('club_id')} = %s"
        params.append(club.pk)
    columns = ", ".join(quote(f.column) for f in Sheet._meta.concrete_fields)
    sql = (
        f"UPDATE {quote(Sheet._meta.db_table)} SET "
        f"{quote('hand_count')} = {quote('hand_count')} + 1, "
        f"{quote('last_number')} = {quote('last_number')} + 1 "
        f"WHERE {where} RETURNING {columns}"
    )
    found = list(Sheet.objects.raw(sql, params))
    if not found:
        raise Sheet.DoesNotExist
    return found[0]


def _record(sheet: Sheet, table: Table, data: dict, actor) -> Hand:
    """Score and write a new hand at the end of ``sheet`` (locked and counted by
    ``_lock_for_new_hand``): its score rows and history, and its counts added to the
    totals (``add_hand_to_totals``). A new hand is the sheet's last one: no later
    hand to re-score under mouches."""
    pools = _pools_before(sheet, None) if sheet.ruleset.has_pools else ()
    engine_hand, result = _score(sheet, table, data, pools)
    hand = Hand(sheet=sheet, number=_new_number(sheet), entered_by=actor)
    action = HandRevision.Action.CREATED
    rows, _revision = _write(sheet, table, hand, engine_hand, result, action, actor)
    add_hand_to_totals(rows)
    signals.hand_recorded.send(sender=None, sheet=sheet, hand=hand, rows=rows)
    return hand


def next_number(sheet: Sheet) -> int:
    """The number the sheet's next hand will take, as ``_new_number`` will give it
    (the hand form shows it; nothing locked or written)."""
    if _numbers_counted(sheet):
        return sheet.last_number + 1
    return _highest_number(sheet) + 1


def _new_number(sheet: Sheet) -> int:
    """The new hand's number, counted by ``_lock_for_new_hand``.

    A sheet whose hands were written without ``last_number`` (a bulk load, a backup
    made before it) numbers fewer hands than it has live ones: its highest number is
    read then, and stored."""
    if not _numbers_counted(sheet):
        sheet.last_number = _highest_number(sheet) + 1
        Sheet.objects.filter(pk=sheet.pk).update(last_number=sheet.last_number)
    return sheet.last_number


def _numbers_counted(sheet: Sheet) -> bool:
    """Whether ``last_number`` counts every hand numbered on the sheet (it is never
    below the live hands' count; ``_lock_for_new_hand`` moves both together)."""
    return sheet.last_number >= sheet.hand_count


def _highest_number(sheet: Sheet) -> int:
    return sheet.hands.order_by("-number").values_list("number", flat=True).first() or 0


def _lock_hand(hand: Hand, actor, *, deleted: bool, refusal=None):
    """Lock the hand's sheet and the hand; refuse an actor who may not score in its club
    (``forbidden``), and (``hand_deleted``, ``hand_not_deleted``; worded ``refusal`` if
    given) unless it is (not) deleted."""
    club_write_lock(hand.sheet.club_id)
    sheet = _lock(hand.sheet)
    require(actor, sheet.club_id, "score", LedgerError)
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    if hand.is_deleted != deleted:
        raise LedgerError("hand_deleted" if hand.is_deleted else "hand_not_deleted", refusal)
    return sheet, hand


def _store(sheet, table, hand, engine_hand, result, action, actor, before=None):
    """Write a scored hand (corrected or restored), its ledger rows and its history
    entry, in the open transaction; then keep the later hands (mouches pools) and
    totals in step (``refresh_sheet_totals``: the hand's old rows may be gone)."""
    _rows, revision = _write(sheet, table, hand, engine_hand, result, action, actor, before)
    if result.pools is not None:
        _rescore_after(sheet, table, hand, result.pools, revision)
    refresh_sheet_totals(sheet)
    signals.changed(sheet.club_id, [sheet])


def _write(sheet, table, hand, engine_hand, result, action, actor, before=None):
    """Write a scored hand, its ledger rows and its history entry; return the rows
    and the entry."""
    _check_fits(result)
    handmap.apply(hand, engine_hand, result, table)
    hand.save()
    rows = ScoreRow.objects.bulk_create(handmap.score_rows(hand, sheet, table, result))
    revision = HandRevision.objects.create(
        hand=hand,
        action=action,
        user=actor,
        before=before,
        after=handmap.snapshot(engine_hand, result),
    )
    return rows, revision


#: The largest amounts the ledger's columns hold: a score (ScoreRow.score, in half
#: points) and a player's pool payments (ScoreRow.pool, a 32-bit integer).
_SCORE_FIELD = ScoreRow._meta.get_field("score")
SCORE_MAX_HALVES = 2 * 10 ** (_SCORE_FIELD.max_digits - _SCORE_FIELD.decimal_places) - 1
POOL_MAX = 2**31 - 1


def _check_fits(result: HandResult) -> None:
    """Refuse (``amount_too_large``) a result the ledger's columns cannot hold."""
    pool_moves = {}
    for _event, name, amount in result.pool_moves:
        pool_moves[name] = pool_moves.get(name, 0) + amount
    if any(abs(h) > SCORE_MAX_HALVES for h in result.halves) or any(
        abs(a) > POOL_MAX for a in [*pool_moves.values(), *(result.pools or ())]
    ):
        raise LedgerError("amount_too_large", max=halves_to_decimal(SCORE_MAX_HALVES))


def _score(sheet, table, data, pools):
    if not isinstance(data, dict):
        raise LedgerError("invalid_field")
    if "players" in data or "rules" in data:
        data = {k: v for k, v in data.items() if k not in ("players", "rules")}
    try:
        ruleset = sheet.ruleset
        engine_hand = parse_hand(data, ruleset, table.names)[1]
        return engine_hand, score_hand(ruleset, engine_hand, pools)
    except ScoringError as error:
        raise LedgerError.from_scoring(error) from None


def pools_before(sheet: Sheet, hand: Hand | None = None) -> tuple:
    """Mouches: the pools a new hand (or ``hand``, corrected) is scored with now; a read."""
    return _pools_before(sheet, hand)


def _pools_before(sheet, hand):
    """The pools left by the last live hand before ``hand`` (or before the end)."""
    hands = sheet.hands.live()
    if hand is not None:
        hands = hands.filter(number__lt=hand.number)
    last = hands.order_by("-number").values_list("pools", flat=True).first()
    return tuple(last or ())


def _rescore_after(sheet, table, hand, pools, cause: HandRevision):
    """Mouches: pools carry, so every later live hand is scored again; each one
    whose scores or pools change gets a ``rescored`` revision caused by ``cause``.

    In bulk, whatever the number of later hands: one read of the hands and one of
    their rows, then one UPDATE of the hands, one DELETE and one INSERT of the
    rows and one INSERT of the revisions."""
    ruleset = sheet.ruleset
    later_hands = list(sheet.hands.live().filter(number__gt=hand.number).order_by("number"))
    stored = {}
    for hand_id, player_id, score in ScoreRow.objects.filter(
        hand__in=[h.pk for h in later_hands]
    ).values_list("hand_id", "player_id", "score"):
        stored.setdefault(hand_id, {})[table.by_id[player_id].name] = number(int(score * 2))
    rows, revisions = [], []
    for later in later_hands:
        engine_hand = engine_hand_of(later, table)
        try:
            result = score_hand(ruleset, engine_hand, tuple(pools))
        except ScoringError as error:
            raise LedgerError.from_scoring(error) from None
        _check_fits(result)
        before = handmap.snapshot(engine_hand, None, stored.get(later.pk, {}))
        if later.pools is not None:
            before["pools"] = list(later.pools)
        after = handmap.snapshot(engine_hand, result)
        later.pools = list(result.pools)
        later.explanation = terms_to_json(result.explanation)
        later.updated_at = timezone.now()
        rows += handmap.score_rows(later, sheet, table, result)
        if before != after:
            revisions.append(
                HandRevision(
                    hand=later,
                    action=HandRevision.Action.RESCORED,
                    user_id=cause.user_id,
                    before=before,
                    after=after,
                    caused_by=cause,
                )
            )
        pools = result.pools
    if later_hands:
        Hand.objects.bulk_update(later_hands, ["pools", "explanation", "updated_at"])
        ScoreRow.objects.filter(hand__in=[h.pk for h in later_hands]).delete()
        ScoreRow.objects.bulk_create(rows)
        HandRevision.objects.bulk_create(revisions)
