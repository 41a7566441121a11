"""A league season's exports: the whole season as JSON and its results as a table
(the pages' CSV), read as rows, with the names and licences only of the persons a
reader may see."""

from django.utils.translation import gettext as _

from leagues import season_standings
from leagues.models import EventResult


def _season_data(season):
    """The season's ranking, its events and its stored results, read as rows (``values``:
    a federation's season holds tens of thousands of results, never made model
    objects), and the persons a reader may see named."""
    rows = season_standings.season_ranking(season)
    events = list(
        season.events.order_by("tournament__date", "pk").values(
            "pk",
            "coefficient",
            "field_size",
            "withdrawn_at",
            "tournament__name",
            "tournament__date",
            "tournament__club__name",
        )
    )
    results = (
        EventResult.objects.filter(season=season)
        .order_by("event__tournament__date", "event_id", "rank", "name")
        .values_list(
            "event_id",
            "rank",
            "name",
            "person_id",
            "person__licence",
            "points",
            "weighted",
            "event__tournament__date",
            "event__tournament__name",
            "event__coefficient",
        )
    )
    named = {r["person_id"] for r in rows if r["name"] is not None}
    return rows, events, results, named


def season_document(season) -> dict:
    """The season as one JSON document: its ranking, events and results, the names and
    licences only of the persons a reader may see."""
    rows, events, results, named = _season_data(season)
    return {
        "league": season.league.name,
        "season": season.name,
        "scale": season.scale,
        "best_events": season.best_events,
        "qualified": season.qualified,
        "ranking": [
            {
                "rank": r["rank"],
                "serie_rank": r["serie_rank"],
                "name": r["name"],
                "licence": r["licence"],
                "serie": r["serie"],
                "points": str(r["total"]),
                "counted": r["counted"],
                "played": r["played"],
                "qualified": r["qualified"],
            }
            for r in rows
        ],
        "events": [
            {
                "id": e["pk"],
                "tournament": e["tournament__name"],
                "club": e["tournament__club__name"],
                "date": e["tournament__date"].isoformat(),
                "coefficient": str(e["coefficient"]),
                "field": e["field_size"],
                "withdrawn": e["withdrawn_at"] is not None,
            }
            for e in events
        ],
        "results": [
            {
                "event": event_id,
                "rank": rank,
                "name": name if person_id in named else None,
                "licence": licence if person_id in named else None,
                "points": str(points),
                "weighted": str(weighted),
            }
            for event_id, rank, name, person_id, licence, points, weighted, *_event in results
        ],
    }


def results_table(season) -> tuple[list, list]:
    """Every stored result of the season, one line each, with licence numbers where the
    reader may see the person: the header and the rows."""
    _rows, _events, results, named = _season_data(season)
    header = [_("Date"), _("Tournament"), _("Coefficient"), _("Rank"), _("Name"), _("Licence")]
    header += [_("Points"), _("Weighted points")]
    body = [
        [
            date,
            tournament,
            coefficient,
            rank,
            name if person_id in named else "",
            (licence or "") if person_id in named else "",
            points,
            weighted,
        ]
        for _e, rank, name, person_id, licence, points, weighted, date, tournament, coefficient in (
            results
        )
    ]
    return header, body
