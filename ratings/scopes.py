"""The scopes a rating is kept in: a key per set of hands, and the hands it holds.

``club:<id>``   every live hand of the club's sheets (tournament deals are sheets
                of the club too);
``season:<id>`` the hands of one season's sheets, rated on their own.

A league's rating is not here yet: it rates a person across the player records of
several clubs (the models key a rating by a club's player), and this app may not
read a league's clubs; the README's "Ratings" says how it would fit the layers.
The keeping, the re-rating, the pages and the command take a scope key and
nothing else.
"""

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


def parse(key: str) -> tuple[str, int]:
    kind, _, pk = key.partition(":")
    if kind not in _KINDS or not pk.isdigit():
        raise ValueError(f"not a rating scope: {key!r}")
    return kind, int(pk)


def rows_filter(key: str) -> Q:
    """The filter of the ScoreRows the scope rates."""
    kind, pk = parse(key)
    return _KINDS[kind][0](pk)


def sheets_filter(key: str) -> Q:
    """The filter of the Sheets the scope holds."""
    kind, pk = parse(key)
    return _KINDS[kind][1](pk)


def of_sheet(sheet) -> list[str]:
    """The scopes a sheet's hands count in (its club's, its season's), sorted."""
    return sorted([club(sheet.club_id), season(sheet.season_id)])


def of_club(club_id) -> list[str]:
    """Every scope of a club: its own and its seasons'."""
    seasons = Season.objects.filter(club_id=club_id).values_list("pk", flat=True)
    return [club(club_id), *(season(pk) for pk in seasons)]
