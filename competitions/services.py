"""Every write of the team competitions.

Verb functions, one transaction each, ``actor=`` keyword (``None``: a command or a
test), ``CompetitionError`` from ``error_messages``; each change is a league audit
entry (``leagues.models.LeagueAuditEntry``, the league's history).

Who: a league manager does everything; a club's manager also enters the club's teams
and hands in their line-ups. A match's result is computed once, when its tables'
marques are recorded (``record_results``, by ``tarot.teammatch``), and kept on the
match row, which the division table and the bracket read.

A match through the links: each captain hands in the line-up from their private link
(``submit_line_up(link=…)``) until the league manager starts the match
(``start_match``: the two tables open as a one-round event of the tournaments, their
table links and double entry); both tables confirmed, the result is recorded by the
same path as the manager's (``table_confirmed`` → ``_record_outcome``). A recorded
result is provisional (``result_state``) until both captains confirm it
(``confirm_result``) or 24 hours pass without a claim (``file_claim``), which the
league manager decides (``decide_claim``).

A championship's next season, its teams moved up and down: ``competitions.promotion``.
"""

import logging
import random
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from clubs import visibility
from clubs.audit import actor_of
from clubs.models import Player
from clubs.permissions import can as can_club
from competitions import bracket as brackets
from competitions import fixtures as berger
from competitions.models import (
    CLAIM_WINDOW,
    LINE_UP,
    SQUAD_MAX,
    SQUAD_MIN,
    CaptainLink,
    Competition,
    Division,
    LineUpSeat,
    Match,
    MatchClaim,
    MatchTable,
    TableDeal,
    Team,
)
from competitions.table import TIE_BREAKS
from core.errors import ServiceError
from leagues import permissions as league_permissions
from leagues.models import LeagueAuditEntry, LeagueClub
from tarot import teammatch
from tournaments import services as tournaments
from tournaments import tokens
from tournaments.models import RoundTable, Tournament

log = logging.getLogger(__name__)

error_messages = {
    "forbidden": _lazy("Only a manager of the league may do this."),
    "forbidden_team": _lazy("Only a manager of the league or of the team's club may do this."),
    "name_required": _lazy("A name is required."),
    "name_taken": _lazy("This name is already taken in the competition."),
    "kind_invalid": _lazy("Choose a championship or a cup."),
    "mode_invalid": _lazy("Choose duplicate or free deals."),
    "deals_invalid": _lazy("A match has 1 to 48 deals."),
    # the barème's refusals (tarot.teammatch's codes)
    "scale_start": _lazy("A scale's first line starts at a difference of 0."),
    "scale_order": _lazy("A scale's lines go up by difference, once each."),
    "scale_points": _lazy(
        "Each line gives the side ahead at least the match points of the side behind."
    ),
    "scale_shape": _lazy("A scale is a list of [from, ahead, behind]."),
    "tie_breaks_invalid": _lazy("Unknown tie-break."),
    "points_invalid": _lazy("League points go from a loss up to a win, at most 100."),
    "movers_invalid": _lazy("Promotions and relegations are 0 to 100 a division."),
    "not_member": _lazy("%(club)s is not a member club of this league."),
    "squad_size": _lazy("A squad has 4 to 8 players."),
    "squad_club": _lazy("Every player of the squad plays for the team's club."),
    "captain_not_in_squad": _lazy("The captain is one of the squad."),
    "squad_taken": _lazy(
        "A player plays in one team of a competition; already in another squad: %(players)s."
    ),
    "division_other": _lazy("This division is of another competition."),
    "championship_only": _lazy("Only a championship has divisions and fixtures."),
    "cup_only": _lazy("Only a cup has a draw."),
    "fixtures_made": _lazy("The fixtures of this division are already made."),
    "too_few_teams": _lazy("At least two teams are needed."),
    "drawn_already": _lazy("The cup is already drawn."),
    "not_in_match": _lazy("This team does not play this match."),
    "line_up_size": _lazy("A line-up is four different players."),
    "line_up_squad": _lazy("Every player of a line-up is of the team's squad."),
    "locked": _lazy("The match has started: its line-ups are locked."),
    "line_up_missing": _lazy("Both teams hand in their line-ups first."),
    "deal_count": _lazy("This match has %(count)s deals."),
    "tables": _lazy("Each deal has the marques of both tables."),
    "zero_sum": _lazy("Deal %(deal)s, table %(table)s: the marques do not sum to 0."),
    "season_unfinished": _lazy("Every match of the championship is played first."),
    "ties_at_line": _lazy(
        "Teams equal on every tie-break stand across a promotion or relegation line "
        "(%(teams)s): they are separated by seed, the earlier entry ahead. Confirm it to "
        "make the next season."
    ),
    "cup_next_played": _lazy("The next round's match of this winner is already played."),
    "started": _lazy("The match has already started."),
    "tables_refused": _lazy("The match's tables could not open: %(reason)s"),
    "not_recorded": _lazy("The match's result is not recorded yet."),
    "claim_late": _lazy("The 24 hours for a claim are over: the result is final."),
    "claim_open": _lazy("Your claim awaits the league's decision."),
    "claim_text": _lazy("Say what your claim is about."),
    "claim_long": _lazy("A claim is at most %(n)s characters."),
    "claim_decided": _lazy("This claim is already decided."),
    "confirmed_final": _lazy("Both captains confirmed the result: it is final."),
    "tables_differ": _lazy(
        "The match's tables played %(one)s and %(two)s deals: the league manager enters the result."
    ),
}

#: the captains' links' own key (``competitions.links``)
CAPTAIN_LINK_KEY = "competitions.captain-link"
#: the longest claim a captain may file
CLAIM_TEXT_MAX = 2000


#: bounds of what the set-up stores (a barème's lines and points, league points, movers)
MAX_SCALE_LINES, MAX_POINTS, MAX_SMALL = 100, 1_000_000, 100


class CompetitionError(ServiceError):
    error_messages = error_messages


def _record(league, actor, action, label="", after=None):
    LeagueAuditEntry.objects.create(
        league=league, actor=actor_of(actor), action=action, label=str(label)[:200], after=after
    )


def _require_manager(actor, league):
    league_permissions.require(actor, league, CompetitionError)


def _name(value, max_length=80) -> str:
    value = (value or "").strip()
    if not value:
        raise CompetitionError("name_required", field="name")
    return value[:max_length]


def _scale(data) -> list:
    try:
        lines = teammatch.Scale.from_data(data).as_data()
    except teammatch.TeamMatchError as error:
        code = error.code if error.code in error_messages else "scale_shape"
        raise CompetitionError(code, field="scale") from None
    except (OverflowError, TypeError, ValueError):  # a JSON 1e400 is a float infinity
        raise CompetitionError("scale_shape", field="scale") from None
    if len(lines) > MAX_SCALE_LINES or any(
        abs(part) > MAX_POINTS for line in lines for part in line
    ):
        raise CompetitionError("scale_shape", field="scale")
    return lines


def scale_of(competition) -> teammatch.Scale:
    return teammatch.Scale.from_data(competition.scale)


def league_points_of(competition) -> teammatch.LeaguePoints:
    return teammatch.LeaguePoints(
        competition.win_points, competition.draw_points, competition.loss_points
    )


# ---------------------------------------------------------------- set-up


def create_competition(
    league,
    *,
    name,
    kind,
    season=None,
    mode=Competition.Mode.DUPLICATE,
    deals=8,
    scale=None,
    win_points=3,
    draw_points=1,
    loss_points=0,
    tie_breaks=TIE_BREAKS,
    double_round=False,
    promoted=0,
    relegated=0,
    actor=None,
) -> Competition:
    _require_manager(actor, league)
    name = _name(name, 120)
    if kind not in Competition.Kind.values:
        raise CompetitionError("kind_invalid", field="kind")
    if mode not in Competition.Mode.values:
        raise CompetitionError("mode_invalid", field="mode")
    if not isinstance(deals, int) or not 1 <= deals <= 48:
        raise CompetitionError("deals_invalid", field="deals")
    scale = _scale(teammatch.Scale.plain().as_data() if scale is None else scale)
    tie_breaks = list(tie_breaks)
    if set(tie_breaks) - set(TIE_BREAKS) or len(set(tie_breaks)) != len(tie_breaks):
        raise CompetitionError("tie_breaks_invalid", field="tie_breaks")
    if not 0 <= loss_points <= draw_points <= win_points <= MAX_SMALL:
        raise CompetitionError("points_invalid", field="win_points")
    if not (0 <= promoted <= MAX_SMALL and 0 <= relegated <= MAX_SMALL):
        raise CompetitionError("movers_invalid", field="promoted")
    if season is not None and season.league_id != league.pk:
        raise CompetitionError("forbidden")
    with transaction.atomic():
        competition = Competition.objects.create(
            league=league,
            season=season,
            name=name,
            kind=kind,
            mode=mode,
            deals=deals,
            scale=scale,
            win_points=win_points,
            draw_points=draw_points,
            loss_points=loss_points,
            tie_breaks=tie_breaks,
            double_round=bool(double_round),
            promoted=promoted,
            relegated=relegated,
        )
        _record(league, actor, "competition_created", name, {"kind": kind, "mode": mode})
    return competition


def add_division(competition, name, *, level=None, actor=None) -> Division:
    _require_manager(actor, competition.league)
    if competition.is_cup:
        raise CompetitionError("championship_only")
    name = _name(name)
    with transaction.atomic():
        if competition.divisions.filter(name=name).exists():
            raise CompetitionError("name_taken", field="name")
        if level is None:
            level = competition.divisions.count() + 1
        division = Division.objects.create(competition=competition, name=name, level=level)
        _record(competition.league, actor, "division_added", f"{competition.name} · {name}")
    return division


def enter_team(
    competition, club, *, name, players, captain=None, division=None, actor=None
) -> Team:
    """A member club enters a team: its name, a squad of 4 to 8 of its players, a captain
    (one of them). A league manager or the club's manager."""
    league = competition.league
    if actor is not None and not (
        league_permissions.is_manager(actor, league) or can_club(actor, club, "manage")
    ):
        raise CompetitionError("forbidden_team")
    name = _name(name)
    players = list(dict.fromkeys(players))
    if not SQUAD_MIN <= len(players) <= SQUAD_MAX:
        raise CompetitionError("squad_size", field="players")
    if any(p.club_id != club.pk or p.merged_into_id is not None for p in players):
        raise CompetitionError("squad_club", field="players")
    if captain is not None and captain not in players:
        raise CompetitionError("captain_not_in_squad", field="captain")
    if division is not None:
        if division.competition_id != competition.pk:
            raise CompetitionError("division_other", field="division")
        if division.fixtures_at is not None:
            raise CompetitionError("fixtures_made", field="division")
    with transaction.atomic():
        # one team entered at a time: two squads entered at once would each miss the other
        Competition.objects.select_for_update().get(pk=competition.pk)
        if not LeagueClub.objects.filter(
            league=league, club=club, accepted_at__isnull=False
        ).exists():
            raise CompetitionError("not_member", field="club", club=club.name)
        if competition.teams.filter(name=name).exists():
            raise CompetitionError("name_taken", field="name")
        taken = sorted(
            Player.objects.filter(
                competition_teams__competition=competition, pk__in=[p.pk for p in players]
            ).values_list("name", flat=True)
        )
        if taken:
            raise CompetitionError("squad_taken", field="players", players=", ".join(taken))
        if competition.is_cup and competition.bracket is not None:
            raise CompetitionError("drawn_already")
        seed = competition.teams.count() + 1
        team = Team.objects.create(
            competition=competition,
            club=club,
            name=name,
            captain=captain,
            division=division,
            seed=seed,
        )
        team.squad.set(players)
        _record(
            league,
            actor,
            "team_entered",
            f"{competition.name} · {name}",
            {"club": club.name, "squad": [p.name for p in players]},
        )
    return team


def move_team(team, division, *, actor=None) -> Team:
    """The league manager moves a team to another division of its championship (the
    next season's promotions and relegations adjusted by hand), while neither division
    has its fixtures."""
    competition = team.competition
    _require_manager(actor, competition.league)
    if division.competition_id != competition.pk:
        raise CompetitionError("division_other", field="division")
    with transaction.atomic():
        team = Team.objects.select_for_update().get(pk=team.pk)
        touched = {division.pk} | ({team.division_id} if team.division_id else set())
        locked = {
            d.pk: d
            for d in Division.objects.select_for_update().filter(pk__in=touched).order_by("pk")
        }
        if any(d.fixtures_at is not None for d in locked.values()):
            raise CompetitionError("fixtures_made", field="division")
        before = locked[team.division_id].name if team.division_id else ""
        team.division = division
        team.save(update_fields=["division"])
        _record(
            competition.league,
            actor,
            "team_moved",
            team.name,
            {"from": before, "to": division.name},
        )
    return team


def generate_fixtures(division, *, actor=None) -> list[Match]:
    """The division's round robin by Berger's tables, the teams in their seed order."""
    competition = division.competition
    _require_manager(actor, competition.league)
    with transaction.atomic():
        division = Division.objects.select_for_update().get(pk=division.pk)
        if division.fixtures_at is not None:
            raise CompetitionError("fixtures_made")
        teams = list(division.teams.order_by("seed", "pk"))
        if len(teams) < 2:
            raise CompetitionError("too_few_teams")
        days = berger.round_robin(teams, double=competition.double_round)
        matches = Match.objects.bulk_create(
            Match(
                competition=competition,
                division=division,
                day=day.number,
                slot=slot,
                home=fixture.home,
                away=fixture.away,
            )
            for day in days
            for slot, fixture in enumerate(day.fixtures)
        )
        division.fixtures_at = timezone.now()
        division.save(update_fields=["fixtures_at"])
        _record(
            competition.league,
            actor,
            "fixtures_generated",
            f"{competition.name} · {division.name}",
            {"days": len(days), "matches": len(matches)},
        )
    return matches


def draw_cup(competition, *, seed=None, seeded=None, actor=None) -> Competition:
    """The cup's bracket: the teams by seed (``seeded`` of them keep their seed, the others
    drawn by ``seed``, reproducibly); the first round's ties made (byes go through)."""
    _require_manager(actor, competition.league)
    if not competition.is_cup:
        raise CompetitionError("cup_only")
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.bracket is not None:
            raise CompetitionError("drawn_already")
        teams = list(competition.teams.order_by("seed", "pk"))
        if len(teams) < 2:
            raise CompetitionError("too_few_teams")
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000)
        drawn = brackets.draw_bracket([t.pk for t in teams], seeded=seeded, seed=seed)
        competition.bracket = list(drawn.places)
        competition.draw_seed = seed
        competition.save(update_fields=["bracket", "draw_seed"])
        _sync_cup(competition)
        _record(
            competition.league,
            actor,
            "cup_drawn",
            competition.name,
            {"seed": seed, "places": competition.bracket},
        )
    return competition


def bracket_of(competition) -> brackets.Bracket | None:
    if competition.bracket is None:
        return None
    return brackets.Bracket(tuple(competition.bracket))


def _sync_cup(competition) -> None:
    """Make the matches of every tie whose two teams are known (a played tie's winner
    goes on); a tie whose side changed is refused once played."""
    matches = {m.tie_key: m for m in competition.matches.all()}
    winners = {key: m.winner_id for key, m in matches.items() if m.winner_id is not None}
    for ties in bracket_of(competition).rounds(winners):
        for tie in ties:
            if tie.bye or tie.top is None or tie.bottom is None:
                continue
            match = matches.get(tie.key)
            if match is None:
                Match.objects.create(
                    competition=competition,
                    day=tie.round,
                    slot=tie.slot,
                    home_id=tie.top,
                    away_id=tie.bottom,
                )
            elif (match.home_id, match.away_id) != (tie.top, tie.bottom):
                if match.played:
                    raise CompetitionError("cup_next_played")
                match.line_up.all().delete()
                match.home_id, match.away_id = tie.top, tie.bottom
                match.save(update_fields=["home", "away"])


# ---------------------------------------------------------------- a match


def _may_act_for(actor, team) -> bool:
    return actor is None or (
        league_permissions.is_manager(actor, team.competition.league)
        or can_club(actor, team.club, "manage")
    )


def submit_line_up(match, team, players, *, actor=None, link=None) -> list[LineUpSeat]:
    """The team's four players for the match, in order (1 and 2 at table 1, 3 and 4 at
    table 2); handed in again to change it, until the match starts (``start_match``)
    or its results are recorded. ``link``: handed in by the captain from their private
    link (``CaptainLink``, its view checked the token), without an account."""
    if team.pk not in (match.home_id, match.away_id):
        raise CompetitionError("not_in_match", field="team")
    if link is not None:
        if (link.match_id, link.team_id) != (match.pk, team.pk):
            raise CompetitionError("forbidden_team")
    elif not _may_act_for(actor, team):
        raise CompetitionError("forbidden_team")
    players = list(players)
    if len(players) != LINE_UP or len({p.pk for p in players}) != LINE_UP:
        raise CompetitionError("line_up_size", field="players")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.started:
            raise CompetitionError("locked")
        squad = set(team.squad.values_list("pk", flat=True))
        if any(p.pk not in squad for p in players):
            raise CompetitionError("line_up_squad", field="players")
        LineUpSeat.objects.filter(match=match, team=team).delete()
        seats = LineUpSeat.objects.bulk_create(
            LineUpSeat(match=match, team=team, order=order, player=player)
            for order, player in enumerate(players, start=1)
        )
        _record(
            match.competition.league,
            actor,
            "line_up_submitted",
            f"{match} · {team.name}",
            {"players": [p.name for p in players], "by": "captain" if link else "manager"},
        )
    return seats


#: who sits where, by line-up order: (table, seat) of home's and of away's players
HOME_SEATS = {1: (1, "N"), 2: (1, "S"), 3: (2, "E"), 4: (2, "W")}
AWAY_SEATS = {1: (1, "E"), 2: (1, "W"), 3: (2, "N"), 4: (2, "S")}


def record_results(match, deals, *, actor=None) -> Match:
    """The marques of both tables, entered by a league manager: ``deals`` is a list, one
    item a deal, of ``(table 1's marques, table 2's marques)`` by seat (``{"N": …, "E":
    …, "S": …, "W": …}``); a free-deal match gives one item, the players' totals.
    Recorded again to correct. The result is computed and kept on the match
    (``_record_outcome``, the one path of the tables' links too)."""
    _require_manager(actor, match.competition.league)
    return _record_outcome(match, deals, actor=actor)


def _record_outcome(match, deals, *, actor=None, source="manager") -> Match:
    """Check the deals, compute the result by ``tarot.teammatch`` and keep it on the
    match, with its tables' marques: the manager's entry (``record_results``) and the
    tables' links (``_tables_confirmed``) both come here. A recorded result is
    provisional (``CLAIM_WINDOW``): a correction asks the captains again."""
    competition = match.competition
    deals = list(deals)
    free = competition.mode == Competition.Mode.FREE
    expected = 1 if free else competition.deals
    if len(deals) != expected:
        raise CompetitionError("deal_count", field="deals", count=expected)
    first = 0 if free else 1
    for number, tables in enumerate(deals, start=first):
        if len(tables) != len(teammatch.DEFAULT_SEATING):
            raise CompetitionError("tables", field="deals")
        for table, marques in enumerate(tables, start=1):
            if set(marques) != set(teammatch.SEATS) or sum(marques.values()) != 0:
                raise CompetitionError("zero_sum", field="deals", deal=number, table=table)
    results = [
        teammatch.deal_result(number, tables) for number, tables in enumerate(deals, start=first)
    ]
    with transaction.atomic():
        if competition.is_cup:
            # one cup's results one at a time: two sibling ties recorded at once would
            # each see the other undecided and neither make the next tie
            Competition.objects.select_for_update().get(pk=competition.pk)
        match = Match.objects.select_for_update().select_related("competition").get(pk=match.pk)
        competition = match.competition  # read under the lock, not the caller's copy
        # the barème read with the match's lock, which holds the competition's row too
        # (``competitions.bareme.set_scale`` locks it): a recording and a change of the
        # barème go one after the other
        if free:
            outcome = teammatch.free_match(
                [results[0].team_a],
                [results[0].team_b],
                scale_of(competition),
                league_points_of(competition),
            )
        else:
            outcome = teammatch.match_result(
                results, scale_of(competition), league_points_of(competition)
            )
        seated = set(match.line_up.values_list("team_id", flat=True))
        if seated != {match.home_id, match.away_id}:
            raise CompetitionError("line_up_missing")
        tables = {}
        for number in (1, 2):
            tables[number], _ = MatchTable.objects.get_or_create(match=match, number=number)
        TableDeal.objects.filter(table__match=match).delete()
        TableDeal.objects.bulk_create(
            TableDeal(
                table=tables[index],
                number=result.number,
                north=marques["N"],
                east=marques["E"],
                south=marques["S"],
                west=marques["W"],
            )
            for result, pair in zip(results, deals)
            for index, marques in enumerate(pair, start=1)
        )
        match.points_home, match.points_away = outcome.points_a, outcome.points_b
        match.mp_home, match.mp_away = outcome.match_points
        match.lp_home, match.lp_away = outcome.league_points
        match.winner_id = _winner(match, outcome)
        match.recorded_at = timezone.now()
        match.save()
        if competition.is_cup:
            _sync_cup(competition)
        _record(
            competition.league,
            actor,
            "match_recorded",
            str(match),
            {
                "points": [outcome.points_a, outcome.points_b],
                "match_points": list(outcome.match_points),
                "by": source,
            },
        )
    return match


def _winner(match, outcome):
    """More match points wins; level, a championship's match is a draw, while a cup's tie
    goes to more points, then (level again) to the better seed."""
    home, away = outcome.match_points
    if home != away:
        return match.home_id if home > away else match.away_id
    if not match.competition.is_cup:
        return None
    if outcome.points_a != outcome.points_b:
        return match.home_id if outcome.points_a > outcome.points_b else match.away_id
    return min((match.home, match.away), key=lambda t: (t.seed, t.pk)).pk


def edit_match(match, *, date=None, venue="", actor=None) -> Match:
    """A fixture's date and venue."""
    _require_manager(actor, match.competition.league)
    with transaction.atomic():
        match.date = date
        match.venue = (venue or "").strip()[:120]
        match.save(update_fields=["date", "venue"])
        _record(match.competition.league, actor, "match_scheduled", str(match))
    return match


def squad_players(team) -> list[Player]:
    return list(team.squad.order_by("sort_key", "name"))


# ---------------------------------------------------------------- captains, tables, claims


def start_match(match, *, actor=None) -> Match:
    """The match starts: its line-ups are locked; played in duplicate or free deals at
    two tables, each table gets its private link for its deals, with double entry
    (``_open_tables``: a one-round event of the tournaments, the home club's)."""
    competition = match.competition
    _require_manager(actor, competition.league)
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("competition").get(pk=match.pk)
        if match.started:
            raise CompetitionError("started")
        seated = set(match.line_up.values_list("team_id", flat=True))
        if seated != {match.home_id, match.away_id}:
            raise CompetitionError("line_up_missing")
        try:
            _open_tables(match)
        except tournaments.TournamentError as error:
            raise CompetitionError("tables_refused", reason=error.message) from None
        match.started_at = timezone.now()
        match.save(update_fields=["started_at"])
        _record(competition.league, actor, "match_started", str(match))
    return match


def _open_tables(match) -> None:
    """The match's two tables as a one-round event of the home club (its sheets, table
    links and double entry: ``tournaments.services``), seated as ``HOME_SEATS`` and
    ``AWAY_SEATS`` say; the away team's players enter as the home club's guests."""
    competition = match.competition
    seats = {
        team_id: {s.order: s.player for s in match.line_up.filter(team_id=team_id)}
        for team_id in (match.home_id, match.away_id)
    }
    event = tournaments.create_tournament(
        match.home.club,
        name=f"{competition.name}: {match}"[:80],
        date=match.date or timezone.localdate(),
        rules="fft",
        rounds=1,
        deals_per_round=competition.deals,
        confirm_by=Tournament.ConfirmBy.DEALS,
        team_match=True,
    )
    items = [("member", seats[match.home_id][order]) for order in range(1, LINE_UP + 1)]
    for order in range(1, LINE_UP + 1):
        player = seats[match.away_id][order]
        if player.club_id == match.home.club_id:  # two teams of one club
            items.append(("member", player))
        else:
            name = player.name if _named_to_all(match, player) else _unnamed(player)
            guest = (name[:60], match.away.club.name[:60], "", player.person, True)
            items.append(("guest", guest))
    entries = tournaments.register(event, items)
    number = {}
    for order in range(1, LINE_UP + 1):
        number[(match.home_id, order)] = entries[order - 1].number
        number[(match.away_id, order)] = entries[LINE_UP + order - 1].number
    layout = {1: {}, 2: {}}
    for team_id, places in ((match.home_id, HOME_SEATS), (match.away_id, AWAY_SEATS)):
        for order, (table, seat) in places.items():
            layout[table][seat] = number[(team_id, order)]
    rnd = event.round_set.get(number=1)
    tournaments.seat_round(rnd, [[layout[t][s] for s in teammatch.SEATS] for t in (1, 2)])
    tournaments.start_round(rnd)
    for round_table in rnd.tables.all():
        table, _made = MatchTable.objects.get_or_create(match=match, number=round_table.number)
        table.round_table = round_table
        table.save(update_fields=["round_table"])


def _named_to_all(match, player) -> bool:
    """The away ``player`` may be named to anybody (``clubs.visibility``): the home
    club's pages, exports, API and screens show the guest's record by this name."""
    club = match.away.club
    if (
        club.is_public
        or club.league_links.filter(
            league=match.competition.league, names_players=True, accepted_at__isnull=False
        ).exists()
    ):
        return True
    return player.person_id is not None and visibility.named_to_everyone(player.person_id)


def _unnamed(player) -> str:
    """The name a hidden away player is entered under in the home club: no part of
    their name or licence, the same for them every match (their record's number)."""
    return tournaments.unnamed(player.pk)


def _marques(row) -> dict:
    return {seat: int(Decimal(value)) for seat, value in zip(teammatch.SEATS, row)}


def table_confirmed(table):
    """A table of the tournaments is confirmed (``tournaments.followups``, in that
    transaction): when it is a team match's and both its tables are, the match's result
    is recorded from their sheets (``_record_outcome``, as a manager's entry) and its
    event closes (the tables' links answer that the result is provisional). The match's
    row is locked before the tables are read, so of two tables confirmed at the same
    instant the second to take the lock sees the first committed and records the match:
    once, whatever the order. Returns the notice for whoever confirmed; a refusal (the
    tables' deals differ, the result refused) is raised, for the organiser and the log."""
    found = MatchTable.objects.filter(round_table=table).values_list("match_id", flat=True).first()
    if found is None:
        return None
    match = Match.objects.select_related("competition").get(pk=found)
    if match.competition.is_cup:  # the order of ``_record_outcome``'s locks
        Competition.objects.select_for_update().get(pk=match.competition_id)
    match = Match.objects.select_for_update().select_related("competition").get(pk=found)
    tables = list(match.tables.select_related("round_table").order_by("number"))
    if len(tables) != 2 or any(
        t.round_table is None or t.round_table.state != RoundTable.State.CONFIRMED for t in tables
    ):
        return _lazy("Confirmed. The match is recorded once the other table confirms too.")
    rows = [tournaments.snapshot(t.round_table)[1] for t in tables]
    if match.competition.mode == Competition.Mode.FREE:
        totals = [[sum(Decimal(v) for v in column) for column in zip(*deals)] for deals in rows]
        deals = [tuple(_marques(one) for one in totals)]
    else:
        if len(rows[0]) != len(rows[1]):
            raise CompetitionError("tables_differ", one=len(rows[0]), two=len(rows[1]))
        deals = [(_marques(one), _marques(two)) for one, two in zip(*rows)]
    match = _record_outcome(match, deals, source="tables")
    # the match is played: its event closes (the tables' links take no more deals)
    rnd = tables[0].round_table.round
    try:
        with transaction.atomic():
            tournaments.close_round(rnd)
            tournaments.close_tournament(rnd.tournament)
    except tournaments.TournamentError as error:
        log.warning("match %s recorded; its tables did not close: %s", match.pk, error.message)
        return _lazy("The match is recorded, but its tables could not close: %(reason)s") % {
            "reason": error.message
        }
    return PROVISIONAL


#: what the last table of a match is told: the result is not final yet
PROVISIONAL = _lazy(
    "Both tables are confirmed: the match's result is recorded. It is provisional: "
    "either captain may file a claim within 24 hours, and it is final once both "
    "captains confirm it or the 24 hours pass."
)


def revoke_captain_link(link, *, actor=None):
    """A new link for the captain: the old one answers 404 from now on."""
    league = link.match.competition.league
    _require_manager(actor, league)
    with transaction.atomic():
        tokens.issue(link, CAPTAIN_LINK_KEY)
        link.save(update_fields=["token_salt", "token_hash"])
        _record(league, actor, "captain_link_revoked", f"{link.match} · {link.team.name}")
    return link


def result_state(match, now=None) -> str:
    """Where the match's result stands: ``"none"`` (not recorded), ``"claimed"`` (a claim
    awaits the league's decision), ``"provisional"`` (within ``CLAIM_WINDOW``, not
    confirmed by both captains) or ``"final"``."""
    if match.recorded_at is None:
        return "none"
    claimed = match.claims.filter(state=MatchClaim.State.OPEN).exists()
    confirmed = match.captain_links.filter(confirmed_at__gte=match.recorded_at).count()
    return state_of(match.recorded_at, claimed, confirmed, now or timezone.now())


def state_of(recorded_at, claimed: bool, confirmed: int, now) -> str:
    """``result_state`` from what it reads (``queries.result_states`` reads it for many)."""
    if recorded_at is None:
        return "none"
    if claimed:
        return "claimed"
    if confirmed >= 2 or now >= recorded_at + CLAIM_WINDOW:
        return "final"
    return "provisional"


def _claimable(link, now):
    match = link.match
    if match.recorded_at is None:
        raise CompetitionError("not_recorded")
    if now >= match.recorded_at + CLAIM_WINDOW:
        raise CompetitionError("claim_late")


def confirm_result(link) -> CaptainLink:
    """The captain (their link) confirms the recorded result."""
    with transaction.atomic():
        link = (
            CaptainLink.objects.select_for_update().select_related("match", "team").get(pk=link.pk)
        )
        match = link.match
        if match.recorded_at is None:
            raise CompetitionError("not_recorded")
        if match.claims.filter(team=link.team, state=MatchClaim.State.OPEN).exists():
            raise CompetitionError("claim_open")
        link.confirmed_at = timezone.now()
        link.save(update_fields=["confirmed_at"])
        _record(match.competition.league, None, "result_confirmed", f"{match} · {link.team.name}")
    return link


def file_claim(link, text) -> MatchClaim:
    """The captain (their link) claims against the recorded result, within
    ``CLAIM_WINDOW``: the result waits for the league manager's decision."""
    text = (text or "").strip()
    if not text:
        raise CompetitionError("claim_text", field="text")
    if len(text) > CLAIM_TEXT_MAX:
        raise CompetitionError("claim_long", field="text", n=CLAIM_TEXT_MAX)
    with transaction.atomic():
        link = (
            CaptainLink.objects.select_for_update().select_related("match", "team").get(pk=link.pk)
        )
        match = link.match
        _claimable(link, timezone.now())
        if match.claims.filter(team=link.team, state=MatchClaim.State.OPEN).exists():
            raise CompetitionError("claim_open")
        if result_state(match) == "final":  # both captains confirmed it
            raise CompetitionError("confirmed_final")
        claim = MatchClaim.objects.create(match=match, team=link.team, text=text)
        link.confirmed_at = None
        link.save(update_fields=["confirmed_at"])
        _record(
            match.competition.league,
            None,
            "claim_filed",
            f"{match} · {link.team.name}",
            {"text": text},
        )
    return claim


def decide_claim(claim, *, upheld, decision="", actor=None) -> MatchClaim:
    """The league manager's decision on a claim: upheld (the result is then corrected on
    the match's results page) or dismissed; in the league's history."""
    league = claim.match.competition.league
    _require_manager(actor, league)
    decision = (decision or "").strip()[:200]
    with transaction.atomic():
        claim = (
            MatchClaim.objects.select_for_update().select_related("match", "team").get(pk=claim.pk)
        )
        if claim.state != MatchClaim.State.OPEN:
            raise CompetitionError("claim_decided")
        claim.state = MatchClaim.State.UPHELD if upheld else MatchClaim.State.DISMISSED
        claim.decision = decision
        claim.decided_at = timezone.now()
        claim.decided_by = actor_of(actor)
        claim.save(update_fields=["state", "decision", "decided_at", "decided_by"])
        _record(
            league,
            actor,
            "claim_decided",
            f"{claim.match} · {claim.team.name}",
            {"claim": claim.text, "state": claim.state, "decision": decision},
        )
    return claim
