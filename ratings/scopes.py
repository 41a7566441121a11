"""The scopes a rating is kept in: a key per set of hands, and the hands it holds.

``club:<id>``   every live hand of the club's sheets (tournament deals are sheets
                of the club too);
``season:<id>`` the hands of one season's sheets, rated on their own.

A higher app adds a kind of its own (``register``): ``leagues`` adds
``league:<id>`` in its ``ready()`` (the hands of its member clubs' sheets), which
this app may not read. Such a kind may rate a row under another player than the
row's (``identity``): a league rates a person across the player records of several
clubs, under one of them (the models stay keyed by a player). The keeping, the
re-rating, the pages and the command take a scope key and nothing else.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q

from clubs.models import Season


def club(club_id) -> str:
    return f"club:{club_id}"


def season(season_id) -> str:
    return f"season:{season_id}"


#: scope kind → (the ScoreRows it holds, the Sheets it holds), as filters of its id.
_KINDS = {
    "club": (lambda pk: Q(sheet__club_id=pk), lambda pk: Q(club_id=pk)),
    "season": (lambda pk: Q(season_id=pk), lambda pk: Q(season_id=pk)),
}


@dataclass(frozen=True)
class Kind:
    """A scope kind a higher app adds (``register``), as functions of its id or a club's."""

    #: id → the filter of the ScoreRows it rates
    rows: Callable
    #: id → the filter of the Sheets it holds
    sheets: Callable
    #: club id → the keys of this kind the club's hands count in (a query)
    of_club: Callable
    #: id → {row's player id: the player id it is rated under} (one query); a player
    #: missing from it is rated as themself
    identity: Callable
    #: id → None, taking a row lock that makes two re-ratings of the scope take turns
    #: (its rows come from several clubs: the ledger's club locks do not cover them)
    lock: Callable | None = None
    #: (id, player ids) → {player id: the player id it is rated under} for those of the
    #: players whose rows the scope rates now (one query; a player missing: their club
    #: is not in the scope). A kind with it has a new hand added to its ratings as the
    #: built-in kinds have (``keeping.add_hand``); without it, rated again from the sheet
    identity_of: Callable | None = None


#: the kinds added by higher apps: kind → Kind
_REGISTERED: dict[str, Kind] = {}


def register(name: str, kind: Kind) -> None:
    """Add a scope kind (``leagues`` adds ``league`` in its ``ready()``)."""
    if name in _KINDS:
        raise ValueError(f"a built-in rating scope: {name!r}")
    _REGISTERED[name] = kind


def parse(key: str) -> tuple[str, int]:
    kind, _, pk = key.partition(":")
    if (kind not in _KINDS and kind not in _REGISTERED) or not pk.isdigit():
        raise ValueError(f"not a rating scope: {key!r}")
    return kind, int(pk)


def rows_filter(key: str) -> Q:
    """The filter of the ScoreRows the scope rates."""
    kind, pk = parse(key)
    if kind in _REGISTERED:
        return _REGISTERED[kind].rows(pk)
    return _KINDS[kind][0](pk)


def sheets_filter(key: str) -> Q:
    """The filter of the Sheets the scope holds."""
    kind, pk = parse(key)
    if kind in _REGISTERED:
        return _REGISTERED[kind].sheets(pk)
    return _KINDS[kind][1](pk)


def is_registered(key: str) -> bool:
    """A key of a kind a higher app added (its rows rated under ``identity``: a new hand
    is added through ``identity_of`` when its kind has one, or re-rated from its sheet:
    ``keeping.add_hand``)."""
    return parse(key)[0] in _REGISTERED


def identity(key: str) -> dict | None:
    """The player a row is rated under in the scope ({row's player: rated player}, one
    query), or None: each row's own player (the built-in kinds)."""
    kind, pk = parse(key)
    if kind in _REGISTERED:
        return _REGISTERED[kind].identity(pk)
    return None


def identity_of(key: str, players) -> dict:
    """``Kind.identity_of`` of a registered key: {player: the player it is rated under}
    for those of ``players`` the scope rates now (one query)."""
    kind, pk = parse(key)
    return _REGISTERED[kind].identity_of(pk, players)


def is_incremental(key: str) -> bool:
    """A key whose new hands are added to its ratings (the built-in kinds, and a
    registered kind with ``identity_of``), not rated again from the sheet."""
    kind, _pk = parse(key)
    return kind not in _REGISTERED or _REGISTERED[kind].identity_of is not None


def lock(key: str) -> None:
    """Take the scope's own lock, if its kind has one (the built-in kinds: none)."""
    kind, pk = parse(key)
    if kind in _REGISTERED and _REGISTERED[kind].lock is not None:
        _REGISTERED[kind].lock(pk)


def club_of(key: str) -> int | None:
    """The club whose ledger lock covers a built-in scope (a season's: one query), or
    None for a registered kind (its own ``lock``)."""
    kind, pk = parse(key)
    if kind == "club":
        return pk
    if kind == "season":
        return Season.objects.filter(pk=pk).values_list("club_id", flat=True).first()
    return None


def registered_of_club(club_id) -> list[str]:
    """The keys of the registered kinds a club's hands count in (one query a kind)."""
    return sorted(key for kind in _REGISTERED.values() for key in kind.of_club(club_id))


def builtin_of_sheet(sheet) -> list[str]:
    """The built-in scopes a sheet's hands count in (its club's, its season's), sorted."""
    return sorted([club(sheet.club_id), season(sheet.season_id)])


def of_club(club_id) -> list[str]:
    """Every scope of a club: its own, its seasons' and the registered kinds'."""
    seasons = Season.objects.filter(club_id=club_id).values_list("pk", flat=True)
    return [club(club_id), *(season(pk) for pk in seasons), *registered_of_club(club_id)]
