"""A championship's next season: each division's final table, the teams equal across
a promotion or relegation line, and the next season's divisions with the teams moved up
and down (``table.next_divisions``), squads and captains kept. Written like the other
verbs of ``competitions.services``: one transaction, ``actor=``, ``CompetitionError``,
a league audit entry."""

from collections import defaultdict

from django.db import transaction

from competitions import table as division_tables
from competitions.models import Competition, Division, Team
from competitions.services import CompetitionError, _record, _require_manager, create_competition


def _final_tables(competition, divisions, teams) -> list[list]:
    """Each division's final table (``table.Line``s, teams as ids; tied teams by seed)."""
    played = [
        division_tables.Played(
            m.home_id,
            m.away_id,
            (m.mp_home, m.mp_away),
            (m.lp_home, m.lp_away),
            (m.points_home, m.points_away),
        )
        for m in competition.matches.all()
    ]
    tables = []
    for division in divisions:
        members = [t.pk for t in teams if t.division_id == division.pk]
        inside = [p for p in played if p.home in members]
        tables.append(division_tables.division_table(members, inside, competition.tie_breaks))
    return tables


def ties_at_lines(competition) -> list[dict]:
    """The teams equal on every key that a promotion or relegation line cuts through:
    ``[{"division": name, "teams": [names, by seed]}]``, for the page and the refusal.
    The rule: they are separated by seed (the earlier entry ahead)."""
    divisions = list(competition.divisions.all())
    teams = list(competition.teams.filter(division__isnull=False).order_by("seed", "pk"))
    names = {t.pk: t.name for t in teams}
    out = []
    last = len(divisions) - 1
    for index, (division, lines) in enumerate(
        zip(divisions, _final_tables(competition, divisions, teams), strict=True)
    ):
        up = competition.promoted if index > 0 else 0
        down = competition.relegated if index < last else 0
        for group in division_tables.ties_at_lines(lines, up=up, down=down):
            out.append({"division": division.name, "teams": [names[pk] for pk in group]})
    return out


def next_season(competition, *, name, season=None, ties_confirmed=False, actor=None) -> Competition:
    """The next season's championship: the same settings and divisions, the teams (their
    squads and captains) moved by the final tables, the first ``promoted`` of each division
    up one and the last ``relegated`` down one (``table.next_divisions``); no fixtures
    yet, so the manager can still adjust. Teams equal on every key across a line are
    separated by seed, once the manager confirms it (``ties_confirmed``; refused and
    named otherwise); the history records the ties so decided."""
    _require_manager(actor, competition.league)
    if competition.is_cup:
        raise CompetitionError("championship_only")
    with transaction.atomic():
        if competition.matches.filter(recorded_at__isnull=True).exists():
            raise CompetitionError("season_unfinished")
        ties = ties_at_lines(competition)
        if ties and not ties_confirmed:
            raise CompetitionError(
                "ties_at_line",
                field="ties_confirmed",
                teams="; ".join(f"{t['division']}: {', '.join(t['teams'])}" for t in ties),
            )
        divisions = list(competition.divisions.all())
        teams = list(competition.teams.filter(division__isnull=False).order_by("seed", "pk"))
        ranked = [
            [line.team for line in lines] for lines in _final_tables(competition, divisions, teams)
        ]
        moved = division_tables.next_divisions(
            ranked, up=competition.promoted, down=competition.relegated
        )
        following = create_competition(
            competition.league,
            name=name,
            kind=competition.kind,
            season=season,
            mode=competition.mode,
            deals=competition.deals,
            scale=competition.scale,
            win_points=competition.win_points,
            draw_points=competition.draw_points,
            loss_points=competition.loss_points,
            tie_breaks=competition.tie_breaks,
            double_round=competition.double_round,
            promoted=competition.promoted,
            relegated=competition.relegated,
            actor=actor,
        )
        by_pk = {t.pk: t for t in teams}
        _move_teams(following, divisions, moved, teams)
        _record(
            competition.league,
            actor,
            "next_season",
            f"{competition.name} → {following.name}",
            {
                "divisions": [[by_pk[pk].name for pk in members] for members in moved],
                **({"ties_by_seed": ties} if ties else {}),
            },
        )
    return following


def _move_teams(following, divisions, moved, teams) -> None:
    """The teams of the season ending copied into ``following``, division by division as
    ``moved`` places them, seeded in that order, with their squads and captains."""
    by_pk = {t.pk: t for t in teams}
    squads = defaultdict(list)  # team → its players, read in one query
    for team_id, player_id in Team.squad.through.objects.filter(team__in=teams).values_list(
        "team_id", "player_id"
    ):
        squads[team_id].append(player_id)
    copies, seed = [], 0
    for division, members in zip(divisions, moved):
        new = Division.objects.create(
            competition=following, name=division.name, level=division.level
        )
        for pk in members:
            seed += 1
            old = by_pk[pk]
            copies.append(
                (
                    pk,
                    Team(
                        competition=following,
                        division=new,
                        club_id=old.club_id,
                        name=old.name,
                        captain_id=old.captain_id,
                        seed=seed,
                    ),
                )
            )
    # the teams and their squads in two statements, not four queries a team
    Team.objects.bulk_create([copy for _pk, copy in copies])
    Team.squad.through.objects.bulk_create(
        Team.squad.through(team_id=copy.pk, player_id=player_id)
        for pk, copy in copies
        for player_id in squads[pk]
    )
