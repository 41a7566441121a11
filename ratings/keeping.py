"""Ratings kept in step with the ledger, in the transaction of every write.

The ledger's services send ``scoresheet.signals`` (they do not import this app):

- a new hand (``hand_recorded``) only adds, when every one of its players was last
  rated on an earlier sheet (or this one): their ratings in the sheet's club and
  season scopes (``scopes.builtin_of_sheet``) are moved by the hand's match in one
  compare-and-set statement, or read in one query and written back with the sheet's
  history point (``add_hand``); a league's scope (``registered_of_club``) too, in
  the same statement, its players mapped to the persons it rates them as
  (``scopes.identity_of``, read on the slow path and remembered);
- otherwise (a hand entered on a sheet dated before the players' last one), and on
  every other change (``ledger_changed``: a correction, deletion or restore, an
  import, a sheet edited, deleted or restored, a merge, a club restored), each scope
  concerned is rated again from the first sheet changed, in bulk (``rerate``; the
  club's scope and its seasons' over one read of the club's rows,
  ``rerate_with_seasons``):
  the players' ratings before that sheet come from the history, every later hand
  is read in order in one query and rated, and the history and ratings after it
  are rewritten. A re-rating of more than ``BACKGROUND_HANDS`` hands (a
  correction on one of a large club's first sheets, a restore) is left to a
  background task instead (``rerate_or_defer``, ``defer``, ``recompute``): a
  ``Recompute`` row names the scope until it has run, and the pages say so.

Hands are rated in the order (sheet date, sheet id, hand number): two sheets of
one evening seat different players, so their order changes nobody's rating.
"""

import datetime
import functools
import time

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, F, Q, Sum, Value, When
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django_tasks import task

from clubs.models import Club
from core.bulk import RowWriter
from core.db import club_write_lock
from ratings import scopes
from ratings.compute import Rater, State, match_of, shown
from ratings.models import Rating, RatingPoint, Recompute
from scoresheet.models import ScoreRow, Sheet
from scoresheet.signals import hand_recorded, ledger_changed
from tarot.rulesets import REGISTRY

#: What a Rating row is written with, beside its key.
RATING_FIELDS = ("mu", "sigma", "ordinal", "hands", "last_date", "last_sheet")


def kind_of(rules: dict) -> str:
    """The game a sheet's rules play (``Ruleset.kind``): its hands' sides."""
    return REGISTRY[rules["preset"]].kind


def _as_date(value):
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


# ---------------------------------------------------------------- a new hand


@receiver(hand_recorded)
def _recorded(sender, sheet, hand, rows, **kwargs):
    seats = [(row.player_id, row.role, row.made, row.margin, row.score) for row in rows]
    match = match_of(kind_of(sheet.rules), seats)
    if match is not None:
        add_hand(sheet, match)


#: The Rating rows this process last wrote or read for a hand: (scope, player) →
#: (μ, σ, hands, last sheet). What ``_swap`` expects to find (and checks).
_known: dict = {}
_KNOWN_MAX = 100_000
#: registered scope → {player: the player it is rated under there}, as this process
#: last read it (``scopes.identity_of``) for a hand it rated: trusted by the fast path
#: only with ``_known`` rows of this sheet, which a re-rating after an identity change
#: rewrites or deletes (so the compare and set fails and the slow path reads it again)
_identities: dict = {}


def add_hand(sheet, match) -> None:
    """Rate a new hand of ``sheet`` (its ``match``) in each of the sheet's scopes.

    The next hand of a sheet whose players' ratings this process wrote last (the
    usual hand post: one scorer at a table) costs one statement: ``_swap`` writes
    the new ratings where the rows still hold what ``_known`` says (a compare and
    set), all or none. Otherwise (a first hand on the sheet, another process or a
    re-rating wrote since): one read (the players' ratings, locked) and one write
    (an upsert of the ratings); a player's first hand on a sheet also moves their
    rating of the sheet before into the history (one insert, once per sheet). A
    player rated on a later sheet already sends the scopes to ``rerate`` from this
    sheet instead.

    A registered scope (a league's: ``scopes.register``) rates its rows under another
    identity than the hand's players (a person's). Which registered scopes a club's
    hands count in is read once per club and process (``registered_of_club``): a club
    in none costs no query more. A kind with ``identity_of`` is added to like the
    built-in ones, in the same statement: the hand's players mapped to the identities
    this process read (``_identities``); the slow path takes the scope's lock and
    reads the identities again (two queries more). A kind without it is rated again
    from this sheet (``rerate``), after the built-in ones."""
    registered, caught_up = _registered_of_club(sheet.club_id)
    # (a scope the club joined in another process was rated in full, this hand too)
    kept = [k for k in registered if scopes.is_incremental(k) and k not in caught_up]
    _add(sheet, match, scopes.builtin_of_sheet(sheet) + kept)
    for key in registered:
        if key not in kept and key not in caught_up:
            rerate(key, (_as_date(sheet.date), sheet.pk))


#: club id → (the registered scopes its hands count in, when this process read them);
#: ``forget_club`` clears it (a club joining or leaving a league, in this process)
_registered: dict = {}
#: seconds a process trusts what it read of a club's registered scopes: another
#: process's join is seen within this time, and the league rated again then
REGISTERED_SECONDS = 60


def registered_of_club(club_id) -> list[str]:
    """``scopes.registered_of_club``, read once a club per process and minute (no query
    on a hand post otherwise). A club that joined a league meanwhile (in another process:
    this one's ``forget_club`` did not run) sends that scope to ``rerate`` in full when
    this process sees it, so the hands its posts left out of the scope count."""
    return _registered_of_club(club_id)[0]


def _registered_of_club(club_id) -> tuple[list[str], set]:
    """``registered_of_club``, and the scopes it rated in full just now."""
    now = time.monotonic()
    held = _registered.get(club_id)
    if held is not None and now - held[1] < REGISTERED_SECONDS:
        return held[0], set()
    if len(_registered) > _KNOWN_MAX:
        _registered.clear()
    found = scopes.registered_of_club(club_id)
    _registered[club_id] = (found, now)
    caught_up = set()
    if held is not None:
        for key in sorted(set(found) - set(held[0])):
            rerate(key)
            caught_up.add(key)
    return found, caught_up


def forget_club(club_id=None) -> None:
    """The registered scopes of a club (of every club: None) changed: read them again."""
    if club_id is None:
        _registered.clear()
    else:
        _registered.pop(club_id, None)


def _mapped(match, identity):
    """``match`` with each player replaced by the one it is rated under (``identity``),
    or None when a player is missing from it or two of them are rated as one (two
    player records of a person at one table: ``rerate`` rates that)."""
    if any(player not in identity for player in match.players):
        return None
    teams = tuple(tuple(identity[player] for player in team) for team in match.teams)
    if len({player for team in teams for player in team}) != len(match.players):
        return None
    return type(match)(teams, match.ranks)


def _add(sheet, match, keys) -> None:
    """Add the hand to the scopes ``keys`` (the built-in ones, then the registered ones
    with ``identity_of``), see ``add_hand``."""
    date = _as_date(sheet.date)
    here = (date, sheet.pk)
    registered = [key for key in keys if scopes.is_registered(key)]
    matches = {key: match for key in keys if key not in registered}
    done, remembered = _add_from_memory(sheet, match, registered, matches)
    if done:
        return
    # the slow path: a registered scope's lock first (the order of ``rerate``), then
    # its identities read again
    again = []
    for key in registered:
        scopes.lock(key)
    for key in registered:
        identity = scopes.identity_of(key, match.players)
        held = _mapped(match, identity)
        if held is None:
            again.append(key)  # the club left the scope, or a person sits twice
            if len(identity) < len(match.players):
                forget_club(sheet.club_id)
            continue
        matches[key] = held
    wanted = _wanted(matches)
    rows = Q()
    for key, held in matches.items():
        rows |= Q(scope=key, player_id__in=held.players)
    found, points, changed = {}, [], set()
    for key, player, mu, sigma, hands, last_date, last_sheet in (
        Rating.objects.select_for_update()
        .filter(rows)
        .order_by("scope", "player_id")
        .values_list("scope", "player_id", "mu", "sigma", "hands", "last_date", "last_sheet")
    ):
        last_date = _as_date(last_date)
        if (last_date, last_sheet) > here:
            for key in sorted(keys):
                rerate_or_defer(key, here)
            return
        was = remembered.get((key, player), _known.get((key, player)))
        if was is not None and was != (mu, sigma, hands, last_sheet):
            changed.add(key)  # written by another process or a re-rating since
        found[(key, player)] = State(mu, sigma, hands)
        if last_sheet != sheet.pk:
            points.append(
                RatingPoint(
                    scope=key,
                    player_id=player,
                    sheet_id=last_sheet,
                    date=last_date,
                    mu=mu,
                    sigma=sigma,
                    hands=hands,
                )
            )
    after = _rated(matches, found)
    ratings = [
        Rating(
            scope=key,
            player_id=player,
            mu=state.mu,
            sigma=state.sigma,
            ordinal=state.ordinal,
            hands=state.hands,
            last_date=date,
            last_sheet=sheet.pk,
        )
        for (key, player), state in zip(wanted, after)
    ]
    if points:
        RatingPoint.objects.bulk_create(points)
    Rating.objects.bulk_create(
        ratings,
        update_conflicts=True,
        unique_fields=["scope", "player"],
        update_fields=list(RATING_FIELDS),
    )
    _remember(wanted, after, sheet.pk)
    _remember_identities(match, matches, [k for k in registered if k not in again], changed)
    for key in again:
        rerate_or_defer(key, here)


def _add_from_memory(sheet, match, registered, matches) -> tuple[bool, dict]:
    """The fast path of ``_add``: the hand added from the rows this process remembers
    (``_known``), swapped in with one statement. Fills ``matches`` with the registered
    scopes' matches it could map; returns whether the hand was added, and what
    ``_known`` held of the rows (``_swap`` forgets them)."""
    for key in registered:
        held = _mapped(match, _identities.get(key, {}))
        if held is None:
            return False, {}
        matches[key] = held
    wanted = _wanted(matches)
    before = [_known.get(pair) for pair in wanted]
    remembered = dict(zip(wanted, before))
    if all(was is not None and was[3] == sheet.pk for was in before):
        found = {pair: State(*was[:3]) for pair, was in zip(wanted, before)}
        after = _rated(matches, found)
        if _swap(wanted, before, after, sheet.pk):
            _remember(wanted, after, sheet.pk)
            return True, remembered
    return False, remembered


def _remember_identities(match, matches, keys, changed) -> None:
    """Keep, for the registered scopes ``keys``, whom the hand's players are rated as
    (forgetting first what a scope in ``changed`` held)."""
    for key in keys:
        if key in changed:  # an identity this process holds may have changed too
            _identities[key] = {}
        _identities.setdefault(key, {}).update(
            zip(match.players, (p for team in matches[key].teams for p in team))
        )


def _wanted(matches) -> list:
    """The Rating rows a hand moves: (scope, player) in scope and player order."""
    return [(key, player) for key in sorted(matches) for player in sorted(matches[key].players)]


def _rated(matches, found) -> list:
    """The players' states after each scope's match (``matches``: scope → the hand's
    match there), from ``found`` ((scope, player) → State, a player missing at the
    model's start), in ``_wanted`` order."""
    after = []
    for key in sorted(matches):
        players = sorted(matches[key].players)
        rater = Rater({p: found[(key, p)] for p in players if (key, p) in found})
        rater.rate(matches[key])
        after.extend(rater.get(player) for player in players)
    return after


def _remember(wanted, after, sheet_id) -> None:
    if len(_known) > _KNOWN_MAX:
        _known.clear()
        _identities.clear()
    for pair, state in zip(wanted, after):
        _known[pair] = (state.mu, state.sigma, state.hands, sheet_id)


def _row(pair) -> Q:
    return Q(scope=pair[0], player_id=pair[1])


def _set(wanted, values, field):
    return Case(
        *(When(_row(pair), then=Value(value[field])) for pair, value in zip(wanted, values)),
        default=F(field),
        output_field=Rating._meta.get_field(field),
    )


def _swap(wanted, before, after, sheet_id) -> bool:
    """Write ``after`` (States) to the Rating rows ``wanted`` in one UPDATE where each row
    still holds ``before`` ((μ, σ, hands, last sheet)): True when every row did. When
    some row did not (another process or a re-rating wrote it since), the rows written
    are put back as they were (they held ``before`` exactly), and False: the caller
    reads and writes as usual. The rows the UPDATE matched stay locked to the end of
    the transaction, as the read's ``select_for_update`` would lock them."""
    new = [{"mu": s.mu, "sigma": s.sigma, "ordinal": s.ordinal, "hands": s.hands} for s in after]
    written = _compare_and_set(wanted, before, new)
    if written == len(wanted):
        return True
    for pair in wanted:
        _known.pop(pair, None)
    if written:
        now = Q()
        for pair, value in zip(wanted, new):
            now |= _row(pair) & Q(mu=value["mu"], sigma=value["sigma"], hands=value["hands"])
        old = [
            {
                "mu": mu,
                "sigma": sigma,
                "ordinal": shown(mu, sigma),
                "hands": hands,
            }
            for mu, sigma, hands, _sheet in before
        ]
        Rating.objects.filter(now, last_sheet=sheet_id).update(
            **{field: _set(wanted, old, field) for field in ("mu", "sigma", "ordinal", "hands")}
        )
    return False


def _compare_and_set(wanted, before, new) -> int:
    """``_swap``'s UPDATE, written in SQL: the rows of a ``VALUES`` list joined to the
    Rating rows they name and still hold. The ORM's form of it (a ``Q`` of the held
    values, a ``Case`` per field) took 12.7 ms to build and compile for a hand of four
    players in two scopes, most of a kept hand post's cost (``bench_ratings`` at
    100,000 hands: 20.1 ms a post against 10.5 ms with the ratings off); this takes a
    fraction of a millisecond. PostgreSQL and SQLite (3.33 and later) both read it.
    Returns how many rows it wrote."""
    table = connection.ops.quote_name(Rating._meta.db_table)
    rows = []
    params = []
    for (scope, player), (mu, sigma, hands, last), value in zip(wanted, before, new):
        rows.append("(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)")
        params += [scope, player, mu, sigma, hands, last]
        params += [value["mu"], value["sigma"], value["ordinal"], value["hands"]]
    # VALUES' columns are column1, column2, … on both databases; the statement begins
    # with UPDATE (Python's sqlite3 counts no rows written by a statement beginning
    # with WITH)
    sql = (
        f"UPDATE {table} SET mu = v.column7, sigma = v.column8, ordinal = v.column9,"
        " hands = v.column10 FROM (VALUES " + ", ".join(rows) + ") AS v"
        f" WHERE {table}.scope = v.column1 AND {table}.player_id = v.column2"
        f" AND {table}.mu = v.column3 AND {table}.sigma = v.column4"
        f" AND {table}.hands = v.column5 AND {table}.last_sheet = v.column6"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


# ---------------------------------------------------------------- any other change


@receiver(ledger_changed)
def _changed(sender, club_id, sheets=None, **kwargs):
    rerate_club(club_id, sheets)


def rerate_club(club_id, sheets=None) -> None:
    """Rate a club's scopes again: every one from scratch (``sheets`` None), or the club's
    and the changed sheets' seasons' from the first of ``sheets`` in each."""
    club_write_lock(club_id)  # the ledger's writes take it first; imports, merges too
    if sheets is None:
        forget_club(club_id)
        starts = dict.fromkeys(scopes.of_club(club_id))
    else:
        starts = {}
        registered = registered_of_club(club_id)
        for sheet in sheets:
            here = (_as_date(sheet.date), sheet.pk)
            for key in [*scopes.builtin_of_sheet(sheet), *registered]:
                starts[key] = min(starts.get(key, here), here)
    club = scopes.club(club_id)
    # the club's scope and its seasons' rated now over one read of the club's rows
    # (``rerate_with_seasons``); a scope over the threshold goes to the background
    club_now = club in starts and _hands_from(club, starts[club]) <= background_hands()
    together = {}
    for key, start in starts.items():
        kind, pk = scopes.parse(key)
        if club_now and kind == "season" and _hands_from(key, start) <= background_hands():
            together[pk] = start
    for key, start in sorted(starts.items(), key=lambda item: item[0]):
        if key == club and club_now:
            rerate_with_seasons(club_id, start, together)
        elif not (key.startswith("season:") and scopes.parse(key)[1] in together):
            rerate_or_defer(key, start)


# ---------------------------------------------------------------- in the background

#: A re-rating of more hands than this (0.6 s at ``bench_ratings``' 34,000 hands/s on
#: a quiet machine) runs in the background (``defer``) instead of in the write's
#: request: the setting ``RATINGS_BACKGROUND_HANDS`` (``config.settings.base``), this
#: where a settings module leaves it out.
BACKGROUND_HANDS = 20_000


def background_hands() -> int:
    return getattr(settings, "RATINGS_BACKGROUND_HANDS", BACKGROUND_HANDS)


def rerate_or_defer(key: str, start=None) -> None:
    """``rerate(key, start)`` now, or, when that means rating more than
    ``background_hands()`` hands (a correction on one of a large club's first sheets, a
    restore), in the background (``defer``): the write's request stays short and the
    pages say the ratings are being recomputed meanwhile. The hands are counted from
    the sheets' ``hand_count`` (one query on the sheets, not the score rows: 0.4 ms
    against 1.7 s for 80,000 rows counted at 100,000 hands)."""
    if _hands_from(key, start) > background_hands():
        defer(key, start)
    else:
        rerate(key, start)


def _hands_from(key: str, start=None) -> int:
    """The hands of the scope's live sheets from ``start`` (one query, on the sheets)."""
    sheets = Sheet.objects.live().filter(scopes.sheets_filter(key))
    if start is not None:
        sheets = sheets.filter(_after((_as_date(start[0]), start[1]), sheet="pk"))
    return sheets.aggregate(hands=Sum("hand_count"))["hands"] or 0


def defer(key: str, start=None) -> None:
    """Have the scope rated again from ``start`` (None: from scratch) by the background
    task (``recompute``) once this transaction commits: one ``Recompute`` row a scope,
    its start the earliest asked for. Until the task has run, hands added keep moving
    the ratings as usual, and the task's re-rating covers them."""
    if scopes.is_registered(key):
        scopes.lock(key)  # two member clubs' writes: one row, taken in turn
    day, sheet_id = (None, None) if start is None else (_as_date(start[0]), start[1])
    held = Recompute.objects.select_for_update().filter(scope=key).first()
    if held is None:
        Recompute.objects.create(scope=key, start_date=day, start_sheet=sheet_id)
        transaction.on_commit(functools.partial(recompute.enqueue, key))
        return
    if held.start_date is None:
        return  # from scratch already
    if day is None or (day, sheet_id) < (held.start_date, held.start_sheet):
        held.start_date, held.start_sheet = day, sheet_id
        held.save(update_fields=["start_date", "start_sheet"])


@task()
def recompute(key: str) -> int:
    """The background step of ``defer``: rate the scope again from the start its
    ``Recompute`` row holds, and remove the row, in one transaction under the scope's
    locks (its club's ledger lock; a registered kind's own, taken by ``rerate``).
    Returns the sheets' points rated (0: nothing was waiting)."""
    with transaction.atomic():
        club_id = scopes.club_of(key)
        if club_id is not None:
            club_write_lock(club_id)
        held = Recompute.objects.select_for_update().filter(scope=key).first()
        if held is None:
            return 0
        start = None if held.start_date is None else (held.start_date, held.start_sheet)
        rated = rerate(key, start)
        held.delete()
        return rated


def _after(start, date="date", sheet="sheet_id") -> Q:
    """Rows at or after ``start`` ((date, sheet id)) in the rating order."""
    day, sheet_id = start
    return Q(**{f"{date}__gt": day}) | Q(**{date: day, f"{sheet}__gte": sheet_id})


def _before(key, start) -> dict:
    """Each player's last history point in ``key`` before ``start``: player → (State,
    (date, sheet))."""
    quote = connection.ops.quote_name
    table = quote(RatingPoint._meta.db_table)
    sql = f"""
        SELECT player_id, mu, sigma, hands, {quote("date")}, sheet_id FROM (
            SELECT player_id, mu, sigma, hands, {quote("date")}, sheet_id,
                   ROW_NUMBER() OVER (PARTITION BY player_id
                                      ORDER BY {quote("date")} DESC, sheet_id DESC) AS n
            FROM {table}
            WHERE scope = %s AND ({quote("date")} < %s
                                  OR ({quote("date")} = %s AND sheet_id < %s))
        ) latest WHERE n = 1"""
    day, sheet_id = start
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, day, day, sheet_id])
        return {
            player: (State(mu, sigma, hands), (_as_date(date), sheet))
            for player, mu, sigma, hands, date, sheet in cursor.fetchall()
        }


def rate_rows(rows, kinds, rater: Rater | None = None, on_sheet=None, targets=None) -> None:
    """Rate ledger rows in order: ``rows`` are ``(sheet_id, date, number, player_id, role,
    made, margin, score)`` sorted by (date, sheet, number, position); ``kinds`` maps a
    sheet id to its game's kind. ``on_sheet(sheet_id, date, players)`` is called at the
    end of each sheet with the players who played a match on it. ``targets`` instead
    of ``rater``: sheet id → the ``_Rerating``s its hands count in (each rated, each
    told of the sheet's end)."""
    seats, hand, sheet_players = [], None, set()
    sheet = day = None
    if targets is None:
        held = ((rater, on_sheet),)
        feeds = None
    else:
        feeds = {pk: tuple((t.rater, t.on_sheet) for t in ts) for pk, ts in targets.items()}
        held = ()

    def rated(sheet, seats):
        match = match_of(kinds[sheet], seats)
        if match is not None:
            for target, _told in held:
                target.rate(match)
            sheet_players.update(match.players)

    for sheet_id, date, number, player, role, made, margin, score in rows:
        if (sheet_id, number) != hand:
            if seats:
                rated(sheet, seats)
                seats = []
            if sheet_id != sheet:
                if sheet_players:
                    for _target, told in held:
                        if told is not None:
                            told(sheet, day, sheet_players)
                sheet_players = set()
                sheet, day = sheet_id, date
                if feeds is not None:
                    held = feeds[sheet_id]
            hand = (sheet_id, number)
        seats.append((player, role, made, margin, score))
    if seats:
        rated(sheet, seats)
    if sheet_players:
        for _target, told in held:
            if told is not None:
                told(sheet, day, sheet_players)


ROW_COLUMNS = ("sheet_id", "date", "number", "player_id", "role", "made", "margin", "score")


def ledger_rows(key, start=None):
    """The scope's ledger rows from ``start`` in the rating order (``rate_rows``' rows),
    read in chunks, and its sheets' kinds."""
    rows = ScoreRow.objects.filter(scopes.rows_filter(key))
    sheets = Sheet.objects.live().filter(scopes.sheets_filter(key))
    if start is not None:
        rows = rows.filter(_after(start))
        sheets = sheets.filter(_after(start, sheet="pk"))
    kinds = {pk: kind_of(rules) for pk, rules in sheets.values_list("pk", "rules")}
    ordered = rows.order_by("date", "sheet_id", "number", "position").values_list(*ROW_COLUMNS)
    rows = ordered.iterator(chunk_size=20000)
    identity = scopes.identity(key)
    if identity:  # a registered scope rating a row under another player (a person's)
        rows = (
            (sheet, date, number, identity.get(player, player), role, made, margin, score)
            for sheet, date, number, player, role, made, margin, score in rows
        )
    return rows, kinds


def _locked(key) -> list:
    """The scope's Rating rows, locked in player order: a re-rating waits for a hand
    being added to the scope (which locks its players' rows) and the other way round,
    and two re-ratings of a scope (an import's writers) take turns."""
    return list(
        Rating.objects.select_for_update()
        .filter(scope=key)
        .order_by("player_id")
        .values_list("player_id", "mu", "sigma", "hands", "last_date", "last_sheet")
    )


@receiver(post_delete, sender=Sheet)
def _sheet_deleted(sender, instance, **kwargs):
    """A sheet deleted outright (not ``editing.delete_sheet``'s soft delete: a season
    or a club deleted, a test): its club is rated again once the deletion commits, if
    the club is still there."""
    club_id = instance.club_id

    def again():
        if Club.objects.filter(pk=club_id).exists():
            with transaction.atomic():
                rerate_club(club_id)

    transaction.on_commit(again)


def rerate(key: str, start=None) -> int:
    """Rate the scope ``key`` again from ``start`` ((date, sheet id): that sheet's first
    hand) or from scratch (None); return the hands rated. Reads the ratings before
    ``start`` from the history, rewrites the history from ``start`` and the ratings of
    every player rated since (or no longer). Returns the sheets' points rated.

    The history holds each player's rating after each sheet they played but the
    last, which is their ``Rating`` row (the ratings before ``start`` are the last
    history point before it, or the Rating row when it is before it)."""
    again = _Rerating(key, start)
    rows, kinds = ledger_rows(key, again.start)
    rate_rows(rows, kinds, again.rater, again.on_sheet)
    return again.finish()


def rerate_with_seasons(club_id, club_start, seasons: dict) -> None:
    """``rerate`` of the club's scope from ``club_start`` and of each of ``seasons``
    (season id → start, each at or after ``club_start``) over ONE read of the club's
    rows: a row counts in its season's scope too from that season's start (an import
    into one season rates both scopes, which hold the same hands, for one read)."""
    key = scopes.club(club_id)
    club = _Rerating(key, club_start)
    own = {pk: _Rerating(scopes.season(pk), start) for pk, start in sorted(seasons.items())}
    rows = ScoreRow.objects.filter(scopes.rows_filter(key))
    sheets = Sheet.objects.live().filter(scopes.sheets_filter(key))
    if club.start is not None:
        rows = rows.filter(_after(club.start))
        sheets = sheets.filter(_after(club.start, sheet="pk"))
    kinds, targets = {}, {}
    for pk, rules, day, season_id in sheets.values_list("pk", "rules", "date", "season_id"):
        kinds[pk] = kind_of(rules)
        season = own.get(season_id)
        at = (_as_date(day), pk)
        later = season is not None and (season.start is None or at >= season.start)
        targets[pk] = (club, season) if later else (club,)
    ordered = rows.order_by("date", "sheet_id", "number", "position").values_list(*ROW_COLUMNS)
    rate_rows(ordered.iterator(chunk_size=20000), kinds, targets=targets)
    club.finish()
    for season in own.values():
        season.finish()


class _Rerating:
    """One scope's re-rating from ``start`` (``rerate``): made (the ratings before it
    read, the history after it deleted), fed the scope's rows in order (``rater`` and
    ``on_sheet``, through ``rate_rows``), then ``finish``ed (the history and ratings
    written)."""

    def __init__(self, key, start):
        if scopes.is_registered(key):
            # rows of several clubs: the scope's own lock first, before the history is read
            scopes.lock(key)
            _identities.pop(key, None)  # (its members or persons may be what changed)
        for pair in [pair for pair in _known if pair[0] == key]:  # rewritten below
            del _known[pair]
        points = RatingPoint.objects.filter(scope=key)
        if start is None:
            before, stale, moved = {}, None, {}
            _locked(key)
        else:
            start = (_as_date(start[0]), start[1])
            before = _before(key, start)
            points = points.filter(_after(start))
            stale, moved = set(), {}
            for player, mu, sigma, hands, last_date, last_sheet in _locked(key):
                at = (_as_date(last_date), last_sheet)
                if at < start:  # rated before ``start`` only: the rating is the state then
                    before[player] = (State(mu, sigma, hands), at)
                    moved[player] = {
                        "scope": key,
                        "player_id": player,
                        "sheet_id": last_sheet,
                        "date": at[0],
                        "mu": mu,
                        "sigma": sigma,
                        "hands": hands,
                    }
                else:
                    stale.add(player)
        points.delete()
        self.key, self.start, self.stale, self.moved, self.before = (
            key,
            start,
            stale,
            moved,
            before,
        )
        self.rater = Rater({player: state for player, (state, _at) in before.items()})
        self.last = {player: at for player, (_state, at) in before.items()}
        self.new_points = []

    def on_sheet(self, sheet_id, date, players):
        date = _as_date(date)
        for player in players:
            state = self.rater.get(player)
            self.new_points.append(
                {
                    "scope": self.key,
                    "player_id": player,
                    "sheet_id": sheet_id,
                    "date": date,
                    "mu": state.mu,
                    "sigma": state.sigma,
                    "hands": state.hands,
                }
            )
            self.last[player] = (date, sheet_id)

    def finish(self) -> int:
        key, last, rater, new_points = self.key, self.last, self.rater, self.new_points
        stale, before = self.stale, self.before
        # each player's last sheet is their Rating row, not yet a history point
        rated = {point["player_id"] for point in new_points}
        # and the Rating row of a player rated before ``start`` and again after becomes a
        # point (unless its sheet is gone: deleted outright, ``_sheet_deleted`` follows)
        moved = [self.moved[player] for player in sorted(rated) if player in self.moved]
        if moved:
            there = set(
                Sheet.objects.filter(pk__in={p["sheet_id"] for p in moved}).values_list(
                    "pk", flat=True
                )
            )
            moved = [point for point in moved if point["sheet_id"] in there]
        RowWriter(RatingPoint).write(
            moved
            + [
                point
                for point in new_points
                if (point["date"], point["sheet_id"]) != last[point["player_id"]]
            ]
        )
        written = rated if stale is None else rated | stale
        # a player no longer rated from ``start`` on: their last point before it is their
        # Rating row again
        back = Q()
        for player in sorted(written - rated):
            if player in before:
                back |= Q(player_id=player, sheet_id=last[player][1])
        if back:
            RatingPoint.objects.filter(back, scope=key).delete()
        if stale is None:
            Rating.objects.filter(scope=key).delete()
        else:
            Rating.objects.filter(scope=key, player_id__in=written).delete()
        RowWriter(Rating).write(
            {
                "scope": key,
                "player_id": player,
                "mu": state.mu,
                "sigma": state.sigma,
                "ordinal": state.ordinal,
                "hands": state.hands,
                "last_date": last[player][0],
                "last_sheet": last[player][1],
            }
            for player in sorted(written)
            if (state := rater.get(player)) is not None
        )
        return len(new_points)
