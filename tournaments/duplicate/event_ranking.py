"""Duplicate events scored and ranked (``DUPLICATE.md`` §3–§5): the engine compares
(``tarot.duplicate``), this module ranks by the one rank rule (``core.ranking``).

``score_event`` is what the ``score_duplicate`` command writes for one event; the
duplicate pages read the same functions.
"""

import json
from decimal import Decimal

from core.ranking import rank
from tarot.duplicate import (
    DuplicateError,
    compare,
    json_score,
    parse_event,
    team_score,
)
from tarot.errors import ScoringError


def ranking(totals: dict, deals: dict) -> list[dict]:
    """Players by event score, highest first; equal scores share a rank (1, 2, 2, 4),
    listed by name within a rank."""
    players = sorted(totals, key=str)
    return [
        {"rank": place, "player": player, "score": totals[player], "deals": deals[player]}
        for place, player in rank(players, key=totals.__getitem__)
    ]


def series_rankings(rows: list[dict], series: dict) -> dict:
    """Each série's ranking: the event scores kept, re-ranked within the série (§4)."""
    out = {}
    for name in sorted({series[row["player"]] for row in rows if row["player"] in series}):
        members = [row for row in rows if series.get(row["player"]) == name]
        out[name] = [
            {**row, "rank": place} for place, row in rank(members, key=lambda row: row["score"])
        ]
    return out


def team_ranking(totals: dict, teams: dict, method: str) -> list[dict]:
    """Teams by the sum (average) or the mean (matchpoints) of their members' scores."""
    scores = {
        name: team_score([totals[m] for m in members if m in totals], method)
        for name, members in teams.items()
    }
    return [
        {"rank": place, "team": name, "score": scores[name], "players": list(teams[name])}
        for place, name in rank(sorted(scores), key=scores.__getitem__)
    ]


def _names_map(data, field, where):
    value = data.get(field) or {}
    if not isinstance(value, dict):
        raise DuplicateError("json_invalid", f"{field}: an object", **where)
    return value


def score_event(data: dict) -> dict:
    """One event of §5 scored: its ranking and every seat's deal score, and — when the
    event gives ``series`` ({player: série}) or ``teams`` ({team: [players]}) — the
    rankings per série and of the teams. Scores are exact (JSON numbers)."""
    _rules, method, results = parse_event(data)
    series = _names_map(data, "series", {})
    teams = _names_map(data, "teams", {})
    comparison = compare(results, method)
    rows = ranking(comparison.totals, comparison.deals)
    out = {
        "ranking": [{**row, "score": json_score(row["score"])} for row in rows],
        "deals": [
            {
                "deal": seat.deal,
                "table": seat.table,
                "seat": seat.seat,
                "player": seat.player,
                "marque": None if seat.marque is None else json_score(seat.marque),
                "score": json_score(seat.score),
            }
            for seat in comparison.seats
        ],
    }
    if series:
        out["series"] = {
            name: [{**row, "score": json_score(row["score"])} for row in ranked]
            for name, ranked in series_rankings(rows, series).items()
        }
    if teams:
        out["teams"] = [
            {**row, "score": json_score(row["score"])}
            for row in team_ranking(comparison.totals, teams, method)
        ]
    return out


def score_event_line(line: str) -> dict:
    """One JSON line: the scored event, or ``{"error": {code, message, [deal, table]}}``."""
    try:
        data = json.loads(line, parse_float=Decimal)
    except (ValueError, RecursionError) as error:
        return DuplicateError("json_invalid", f"not valid JSON: {error}").as_dict()
    try:
        return score_event(data)
    except (DuplicateError, ScoringError) as error:
        return error.as_dict()
