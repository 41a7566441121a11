"""A competition's exports: its division tables, fixtures and results, the cup's bracket,
the squads and the line-ups, as JSON (everything), XLSX (a sheet each) or CSV (one of
them, ``PARTS``).

Written by the project's writers, as every export: CSV through ``core.exports.csv_text``
(the page language's separator and decimal mark, numbers as numbers, formulas
neutralised), XLSX through tablib with neutralised cells (as the duplicate tournament's
export), JSON numbers through ``core.jsonnumbers``. Players' names follow the league
pages' rule (``competitions.privacy``): a members-only club's players the reader may not
see are "A player of a members-only club" in CSV and XLSX, ``null`` in JSON.
"""

import json
from collections import defaultdict

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from competitions import matchday, queries
from competitions.models import Competition, LineUpSeat, Team
from competitions.privacy import Names
from competitions.services import AWAY_SEATS, HOME_SEATS
from core.exports import csv_text, download, sheet, workbook
from core.jsonnumbers import json_number

FORMATS = ("json", "csv", "xlsx")
#: what a CSV holds (``?part=``), by kind of competition; the first is the default
PARTS = {
    Competition.Kind.CHAMPIONSHIP: ("table", "fixtures", "squads", "line_ups"),
    Competition.Kind.CUP: ("bracket", "squads", "line_ups"),
}


class Export:
    """The competition's data read once, for one reader."""

    def __init__(self, competition: Competition, user=None):
        self.competition = competition
        self.names = Names(competition.league, user)
        self.teams = list(
            competition.teams.select_related("club", "division", "captain").order_by(
                "division__level", "seed", "pk"
            )
        )
        self.by_team = {t.pk: t for t in self.teams}
        # every squad in one query (``services.squad_players``' order)
        squads = defaultdict(list)
        for row in (
            Team.squad.through.objects.filter(team__competition=competition)
            .select_related("player")
            .order_by("player__sort_key", "player__name")
        ):
            squads[row.team_id].append(row.player)
        self.squad_of = {t.pk: self.names.shown(t.club, squads[t.pk]) for t in self.teams}
        self.matches = list(
            competition.matches.select_related("home", "away", "division").order_by(
                "day", "division__level", "slot"
            )
        )
        self.states = matchday.match_states(self.matches)
        seats = defaultdict(list)
        for seat in LineUpSeat.objects.filter(match__competition=competition).select_related(
            "player"
        ):
            seats[seat.match_id].append(seat)
        self.line_ups = seats
        for match in self.matches:
            for side in (match.home, match.away):
                players = [s.player for s in seats[match.pk] if s.team_id == side.pk]
                self.names.shown(self.by_team[side.pk].club, players)
        self.divisions = [] if competition.is_cup else queries.championship(competition)
        self.rounds = queries.cup_rounds(competition) if competition.is_cup else []

    # ---------------------------------------------------------------- rows

    def label(self, player):
        return self.names.label(player)

    def state(self, match):
        return str(matchday.STATE_LABELS[self.states[match.pk]])

    def table(self):
        headers = [
            pgettext("competition export", "Division"),
            pgettext("competition export", "Rank"),
            pgettext("competition export", "Team"),
            pgettext("competition export", "Club"),
            pgettext("competition export", "Played"),
            pgettext("competition export", "Won"),
            pgettext("competition export", "Drawn"),
            pgettext("competition export", "Lost"),
            pgettext("competition export", "MP for"),
            pgettext("competition export", "MP against"),
            pgettext("competition export", "± points"),
            pgettext("competition export", "League points"),
        ]
        rows = [
            [
                view.division.name,
                line.rank,
                line.team.name,
                self.by_team[line.team.pk].club.name,
                line.played,
                line.won,
                line.drawn,
                line.lost,
                line.mp_for,
                line.mp_against,
                line.points_difference,
                line.league_points,
            ]
            for view in self.divisions
            for line in view.lines
        ]
        return pgettext("competition export", "Tables"), headers, rows

    def fixtures(self):
        headers = [
            pgettext("competition export", "Division"),
            pgettext("competition export", "Match day"),
            pgettext("competition export", "Date"),
            pgettext("competition export", "Venue"),
            pgettext("competition export", "Home"),
            pgettext("competition export", "Away"),
            pgettext("competition export", "State"),
            *self._result_headers(),
        ]
        rows = [
            [
                m.division.name if m.division else "",
                m.day,
                m.date.isoformat() if m.date else "",
                m.venue,
                m.home.name,
                m.away.name,
                self.state(m),
                *self._result(m),
            ]
            for m in self.matches
        ]
        return pgettext("competition export", "Fixtures"), headers, rows

    def bracket(self):
        headers = [
            pgettext("competition export", "Round"),
            pgettext("competition export", "Tie"),
            pgettext("competition export", "Date"),
            pgettext("competition export", "Home"),
            pgettext("competition export", "Away"),
            pgettext("competition export", "State"),
            *self._result_headers(),
            pgettext("competition export", "Winner"),
        ]
        rows = []
        for number, ties in enumerate(self.rounds, start=1):
            for tie in ties:
                match = tie["match"]
                top = tie["top"].name if tie["top"] else ""
                bottom = tie["bottom"].name if tie["bottom"] else ""
                if tie["tie"].bye:
                    top, bottom = tie["through"].name, _("bye")
                winner = self.by_team.get(match.winner_id) if match else tie["through"]
                rows.append(
                    [
                        number,
                        tie["tie"].slot + 1,
                        match.date.isoformat() if match and match.date else "",
                        top,
                        bottom,
                        self.state(match) if match else "",
                        *(self._result(match) if match else [None] * 6),
                        winner.name if winner else "",
                    ]
                )
        return pgettext("competition export", "Bracket"), headers, rows

    def squads(self):
        headers = [
            pgettext("competition export", "Team"),
            pgettext("competition export", "Club"),
            pgettext("competition export", "Division"),
            pgettext("competition export", "Player"),
            pgettext("competition export", "Captain"),
        ]
        rows = [
            [
                team.name,
                team.club.name,
                team.division.name if team.division else "",
                self.label(player),
                _("yes") if player.pk == team.captain_id else "",
            ]
            for team in self.teams
            for player in self.squad_of[team.pk]
        ]
        return pgettext("competition export", "Squads"), headers, rows

    def line_ups_rows(self):
        headers = [
            pgettext("competition export", "Match day"),
            pgettext("competition export", "Home"),
            pgettext("competition export", "Away"),
            pgettext("competition export", "Team"),
            pgettext("competition export", "Order"),
            pgettext("competition export", "Table"),
            pgettext("competition export", "Seat"),
            pgettext("competition export", "Player"),
        ]
        rows = []
        for match in self.matches:
            for seat in sorted(
                self.line_ups[match.pk], key=lambda s: (s.team_id != match.home_id, s.order)
            ):
                home = seat.team_id == match.home_id
                table, where = (HOME_SEATS if home else AWAY_SEATS)[seat.order]
                rows.append(
                    [
                        match.day,
                        match.home.name,
                        match.away.name,
                        (match.home if home else match.away).name,
                        seat.order,
                        table,
                        where,
                        self.label(seat.player),
                    ]
                )
        return pgettext("competition export", "Line-ups"), headers, rows

    def _result_headers(self):
        return [
            pgettext("competition export", "Points home"),
            pgettext("competition export", "Points away"),
            pgettext("competition export", "MP home"),
            pgettext("competition export", "MP away"),
            pgettext("competition export", "League points home"),
            pgettext("competition export", "League points away"),
        ]

    def _result(self, m):
        if not m.played:
            return [None] * 6
        return [m.points_home, m.points_away, m.mp_home, m.mp_away, m.lp_home, m.lp_away]

    def part(self, name):
        return {
            "table": self.table,
            "fixtures": self.fixtures,
            "bracket": self.bracket,
            "squads": self.squads,
            "line_ups": self.line_ups_rows,
        }[name]()

    # ---------------------------------------------------------------- JSON

    def _match_json(self, m):
        line_ups = {"home": [], "away": []}
        for seat in sorted(self.line_ups[m.pk], key=lambda s: s.order):
            side = "home" if seat.team_id == m.home_id else "away"
            line_ups[side].append(seat.player.shown)
        return {
            "id": m.pk,
            "day": m.day,
            "date": m.date.isoformat() if m.date else None,
            "venue": m.venue,
            "home": m.home.name,
            "away": m.away.name,
            "state": self.states[m.pk],
            "points": [m.points_home, m.points_away] if m.played else None,
            "match_points": [m.mp_home, m.mp_away] if m.played else None,
            "league_points": [m.lp_home, m.lp_away] if m.played else None,
            "winner": self.by_team[m.winner_id].name if m.winner_id else None,
            "line_ups": line_ups,
        }

    def data(self) -> dict:
        c = self.competition
        data = {
            "competition": {
                "name": c.name,
                "league": c.league.name,
                "season": c.season.name if c.season else None,
                "kind": c.kind,
                "mode": c.mode,
                "deals": c.deals,
                "scale": c.scale,
                "league_points": {
                    "win": c.win_points,
                    "draw": c.draw_points,
                    "loss": c.loss_points,
                },
                "tie_breaks": c.tie_breaks,
            },
            "teams": [
                {
                    "name": t.name,
                    "club": t.club.name,
                    "division": t.division.name if t.division else None,
                    "captain": next(
                        (p.shown for p in self.squad_of[t.pk] if p.pk == t.captain_id), None
                    ),
                    "squad": [p.shown for p in self.squad_of[t.pk]],
                }
                for t in self.teams
            ],
        }
        if c.is_cup:
            data["bracket"] = [
                {
                    "round": number,
                    "ties": [
                        {
                            "tie": tie["tie"].slot + 1,
                            "top": tie["top"].name if tie["top"] else None,
                            "bottom": tie["bottom"].name if tie["bottom"] else None,
                            "bye": tie["tie"].bye,
                            "through": tie["through"].name if tie["through"] else None,
                            "match": self._match_json(tie["match"]) if tie["match"] else None,
                        }
                        for tie in ties
                    ],
                }
                for number, ties in enumerate(self.rounds, start=1)
            ]
        else:
            data["divisions"] = [
                {
                    "name": view.division.name,
                    "level": view.division.level,
                    "table": [
                        {
                            "rank": line.rank,
                            "team": line.team.name,
                            "played": line.played,
                            "won": line.won,
                            "drawn": line.drawn,
                            "lost": line.lost,
                            "mp_for": line.mp_for,
                            "mp_against": line.mp_against,
                            "points_for": line.points_for,
                            "points_against": line.points_against,
                            "league_points": line.league_points,
                            "move": line.move or None,
                        }
                        for line in view.lines
                    ],
                    "fixtures": [
                        self._match_json(m) for _day, matches in view.days for m in matches
                    ],
                }
                for view in self.divisions
            ]
        return data


def filename(competition) -> str:
    return f"competition-{competition.league.slug}-{slugify(competition.name) or competition.pk}"


def response(competition, fmt: str, part: str | None, user=None) -> HttpResponse | None:
    """The export's response, or ``None`` for a format or part this competition has not."""
    parts = PARTS[competition.kind]
    if fmt not in FORMATS or (part is not None and part not in parts):
        return None
    export = Export(competition, user)
    base = filename(competition)
    if fmt == "json":
        text = json.dumps(export.data(), ensure_ascii=False, indent=1, default=json_number)
        return download(text + "\n", f"{base}.json")
    if fmt == "csv":
        part = part or parts[0]
        _title, headers, rows = export.part(part)
        return download(csv_text(headers, rows), f"{base}-{part}.csv")
    return download(workbook(sheet(*export.part(name)) for name in parts), f"{base}.xlsx")
