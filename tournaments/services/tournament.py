"""A tournament's life as a whole: created with its own season and rounds, its settings
changed before it starts, closed with its final ranking frozen."""

import random

from django.db import transaction
from django.utils import timezone

from clubs import audit
from clubs.models import Season
from tarot import ScoringError
from tarot.duplicate import json_score
from tarot.jsonformat import parse_rules
from tournaments import followups, signals
from tournaments.models import (
    Round,
    RoundTable,
    Tournament,
)
from tournaments.services.common import (
    MAX_DEALS,
    MAX_ROUNDS,
    TABLE_SIZES,
    TEAM_SIZES,
    TournamentError,
    _audited,
    _lock,
    _lock_club,
    _refuse_closed,
    _require,
    _rounds,
    table_label,
)


def _settings(
    name,
    rules,
    rounds,
    deals_per_round,
    minutes_per_round,
    five_tables,
    team_size,
    confirm_by,
    draw_rule=Tournament.DrawRule.END,
) -> dict:
    """A tournament's settings checked, as its fields: the name stripped, the rules in
    their short form, a blank round length or team size as None."""
    name = (name or "").strip()
    if not name:
        raise TournamentError("name_required", field="name")
    try:
        ruleset = parse_rules(rules)
    except ScoringError as error:
        raise TournamentError.from_scoring(error) from None
    if not set(TABLE_SIZES) <= set(ruleset.ruleset.player_counts):
        raise TournamentError("rules_two_players", field="preset")
    if not rounds or not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError("rounds_range", field="rounds", n=MAX_ROUNDS)
    if bool(deals_per_round) == bool(minutes_per_round):
        raise TournamentError("round_length", field="deals_per_round")
    if deals_per_round and not 1 <= deals_per_round <= MAX_DEALS:
        raise TournamentError("deals_range", field="deals_per_round", n=MAX_DEALS)
    if five_tables not in Tournament.FiveTables.values:
        raise TournamentError("five_tables", field="five_tables")
    team_size = team_size or None
    if team_size not in (None, *TEAM_SIZES):
        raise TournamentError("team_size", field="team_size")
    if confirm_by not in Tournament.ConfirmBy.values:
        raise TournamentError("confirm_by", field="confirm_by")
    if draw_rule not in Tournament.DrawRule.values:
        raise TournamentError("draw_rule", field="draw_rule")
    return {
        "name": name,
        "rules": ruleset.as_dict(),
        "rounds": rounds,
        "deals_per_round": deals_per_round or None,
        "minutes_per_round": minutes_per_round or None,
        "five_tables": five_tables,
        "team_size": team_size,
        "confirm_by": confirm_by,
        "draw_rule": draw_rule,
    }


def _season_name(club, name, date, exclude=None):
    """A season name of its own for the tournament: "Name (date)", numbered if taken.
    The club's row is locked first: two tournaments named at once take turns, and the
    second reads the first's name (never a clash on the season's unique name)."""
    _lock_club(club)
    base = f"{name} ({date.isoformat()})"[:72]
    taken = set(
        Season.objects.filter(club=club, name__startswith=base)
        .exclude(pk=exclude)
        .values_list("name", flat=True)
    )
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base} {n}"
    return candidate


def create_tournament(
    club,
    *,
    name,
    date,
    rules,
    rounds,
    deals_per_round=None,
    minutes_per_round=None,
    five_tables=Tournament.FiveTables.FIVE,
    team_size=None,
    confirm_by=Tournament.ConfirmBy.TOTALS,
    draw_rule=Tournament.DrawRule.END,
    actor=None,
    seed=None,
    team_match=False,
) -> Tournament:
    """A tournament, its own season (kind tournament) and its rounds, not drawn yet
    (``team_match``: a team match's two tables, opened by ``competitions``)."""
    _require(actor, club)
    settings = _settings(
        name,
        rules,
        rounds,
        deals_per_round,
        minutes_per_round,
        five_tables,
        team_size,
        confirm_by,
        draw_rule,
    )
    with transaction.atomic():
        return open_tournament(club, settings, date, actor=actor, seed=seed, team_match=team_match)


def open_tournament(club, settings: dict, date, *, actor, seed=None, **fields) -> Tournament:
    """A tournament of checked ``settings`` (its fields, ``rounds`` among them) and
    ``fields`` (its kind…), its own season (kind tournament, named after it) and its
    rounds, not drawn yet; audited. The deals' and draws' seed is drawn once (``seed``
    for a test). In the caller's transaction: a free-deal tournament's and a duplicate
    event's creation."""
    season = Season.objects.create(
        club=club,
        kind=Season.Kind.TOURNAMENT,
        name=_season_name(club, settings["name"], date),
        start_date=date,
        end_date=date,
        rules=settings["rules"],
    )
    tournament = Tournament.objects.create(
        club=club,
        season=season,
        date=date,
        **fields,
        **settings,
        draw_seed=random.randrange(1, 2**31) if seed is None else seed,
        created_by=actor,
    )
    Round.objects.bulk_create(
        Round(tournament=tournament, number=n) for n in range(1, settings["rounds"] + 1)
    )
    audit.record(club, actor, audit.Action.TOURNAMENT_CREATED, tournament)
    return tournament


def update_tournament(
    tournament: Tournament,
    *,
    name,
    date,
    rules,
    rounds,
    deals_per_round=None,
    minutes_per_round=None,
    five_tables=Tournament.FiveTables.FIVE,
    team_size=None,
    confirm_by=Tournament.ConfirmBy.TOTALS,
    draw_rule=Tournament.DrawRule.END,
    actor=None,
) -> Tournament:
    """Change the settings of a tournament not started yet (rounds added or dropped)."""
    _require(actor, tournament)
    settings = _settings(
        name,
        rules,
        rounds,
        deals_per_round,
        minutes_per_round,
        five_tables,
        team_size,
        confirm_by,
        draw_rule,
    )
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.state != Tournament.State.SETUP:
            raise TournamentError("tournament_started")
        if settings["team_size"] != tournament.team_size and tournament.teams.exists():
            raise TournamentError("teams_registered", field="team_size")
        old_rounds = resettle(tournament, settings, date, actor=actor)
        if rounds < old_rounds:
            tournament.round_set.filter(number__gt=rounds).delete()
        elif rounds > old_rounds:
            Round.objects.bulk_create(
                Round(tournament=tournament, number=n) for n in range(old_rounds + 1, rounds + 1)
            )
    return tournament


def resettle(tournament: Tournament, settings: dict, date, *, actor) -> int:
    """A tournament not started given its new checked ``settings`` and ``date``, and its
    season renamed, dated and ruled to match; audited with what changed (before and
    after); returns the number of rounds it had (the caller adds or drops rounds). In
    the caller's transaction, under ``_lock``: a free-deal tournament's and a duplicate
    event's edit."""
    old_rounds = tournament.rounds
    before = {field: _audited(getattr(tournament, field)) for field in settings}
    before["date"] = tournament.date.isoformat()
    for field, value in settings.items():
        setattr(tournament, field, value)
    tournament.date = date
    tournament.save()
    after = {field: _audited(getattr(tournament, field)) for field in settings}
    after["date"] = tournament.date.isoformat()
    changed = [k for k in after if after[k] != before[k]]
    audit.record(
        tournament.club_id,
        actor,
        audit.Action.TOURNAMENT_UPDATED,
        tournament,
        before={k: before[k] for k in changed},
        after={k: after[k] for k in changed},
    )
    season = tournament.season
    season.name = _season_name(tournament.club, tournament.name, date, exclude=season.pk)
    season.start_date = season.end_date = date
    season.rules = tournament.rules
    season.save()
    return old_rounds


def close_tournament(tournament: Tournament, *, actor=None) -> Tournament:
    """Close the tournament once every round is closed and every sheet confirmed: the
    final ranking is frozen (``final_ranking``) and nothing changes any more."""
    _require(actor, tournament)
    from tournaments import published, queries  # noqa: PLC0415 (queries read; services write)

    with transaction.atomic():
        tournament = _lock(tournament)
        _refuse_closed(tournament)
        rounds = _rounds(tournament)
        if any(r.state != Round.State.CLOSED for r in rounds):
            raise TournamentError("rounds_open")
        pending = list(
            RoundTable.objects.filter(round__tournament=tournament)
            .exclude(state=RoundTable.State.CONFIRMED)
            .values_list("round__number", "number")
        )
        if pending:
            raise TournamentError(
                "tables_unconfirmed", tables=", ".join(table_label(r, t) for r, t in pending)
            )
        tournament.state = Tournament.State.CLOSED
        tournament.closed_at = timezone.now()
        players = published.ranking(tournament)  # the ranking its kind publishes
        if tournament.is_duplicate:
            # the duplicate's pages read its frozen ranking: players, séries, teams
            tournament.final_ranking = _duplicate_frozen(tournament)
        else:
            tournament.final_ranking = {
                "players": queries.json_ranking(players),
                "teams": queries.json_ranking(published.team_ranking(tournament, players)),
            }
        tournament.save(update_fields=["state", "closed_at", "final_ranking"])
        audit.record(tournament.club_id, actor, audit.Action.TOURNAMENT_CLOSED, tournament)
        followups.tournament_closed(tournament, players)  # a league's results stored
        transaction.on_commit(
            lambda: signals.tournament_closed.send(
                Tournament, tournament=tournament, ranking=players
            )
        )
    return tournament


def _duplicate_frozen(tournament) -> dict:
    """A duplicate event's ranking frozen as it closes, for its own pages: players,
    séries and teams, scores as the export gives them (the leagues count
    ``published.ranking``)."""
    from tournaments.duplicate import results as duplicate_results  # noqa: PLC0415 (read at the closing only)

    loaded = duplicate_results.load(tournament)
    rows = duplicate_results.barometer(loaded)

    def frozen(row):
        return {
            "rank": row["rank"],
            "number": row["player"],
            "name": row["entry"].name if row["entry"] else "",
            "score": json_score(row["score"]),
            "deals": row["deals"],
        }

    return {
        "players": [frozen(row) for row in rows],
        "series": {
            name: [frozen(row) for row in ranked]
            for name, ranked in duplicate_results.by_series(loaded, rows).items()
        },
        "teams": [
            {"rank": t["rank"], "team": t["team"], "score": json_score(t["score"])}
            for t in duplicate_results.teams(loaded)
        ],
    }
