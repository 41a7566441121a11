"""The ranking a tournament publishes, by its kind: a free-deal tournament's summed
marques (``queries.ranking``), a duplicate event's comparison of the same deals
(matchpoints or the average, ``duplicate_results.barometer``). Closing a tournament
freezes this ranking, and a league counts an event by it."""

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from tournaments import queries
from tournaments.duplicate import results as duplicate_results

HUNDREDTH = Decimal("0.01")


def _shown(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        HUNDREDTH, rounding=ROUND_HALF_UP
    )


def ranking(tournament) -> list[dict]:
    """Every ranked entry, best first: ``number``, ``name``, ``player_id``, ``is_guest``,
    ``club``, ``licence``, ``total`` (a Decimal to show), ``rank`` (1, 2, 2, 4); a
    duplicate event's rows also carry ``score``, the exact event score as text."""
    if not tournament.is_duplicate:
        return queries.ranking(tournament)
    event = duplicate_results.load(tournament)
    club_name = tournament.club.name
    out = []
    for row in duplicate_results.barometer(event):
        entry = row["entry"]
        if entry is None:
            continue
        out.append(
            {
                "number": entry.number,
                "name": entry.name,
                "player_id": entry.player_id,
                "is_guest": entry.is_guest,
                "club": entry.guest_club if entry.is_guest else club_name,
                "licence": entry.licence,
                "total": _shown(Fraction(row["score"])),
                "score": str(Fraction(row["score"])),
                "deals": row["deals"],
                "rank": row["rank"],
            }
        )
    return out


def team_ranking(tournament, rows) -> list[dict]:
    """The teams' ranking of the same kind, as JSON-ready rows."""
    if not tournament.is_duplicate:
        return queries.team_ranking(tournament, rows)
    event = duplicate_results.load(tournament)
    return [
        {**team, "score": str(Fraction(team["score"])), "total": _shown(Fraction(team["score"]))}
        for team in duplicate_results.teams(event)
    ]
