"""The API's typed shapes (Pydantic, through django-ninja): the OpenAPI schema is made
of them. Scores are JSON numbers: an integer, or a number ending in .5 where a rule
splits a point (``core.jsonnumbers.json_number``), as in the interchange format (the
guide's Formats page, /static/guide/formats.html)."""

import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from core.jsonnumbers import json_number
from leagues import held_views

#: The guide's pages on the interchange format, named in the schema's descriptions.
HAND = "/static/guide/formats.html#hand"
RESULTS = "/static/guide/formats.html#results"


def _number(value):
    if isinstance(value, Decimal | int | float) and not isinstance(value, bool):
        return json_number(value)
    return value


#: A score, total or average: an integer when whole, else a number (half points).
Num = Annotated[int | float, BeforeValidator(_number)]


class ErrorBody(Schema):
    code: str = Field(description="Stable snake_case code (a service's, or the API's).")
    message: str
    field: str | None = None
    detail: list[Any] | None = None


class ErrorOut(Schema):
    error: ErrorBody


class PageInfo(Schema):
    count: int = Field(description="Rows in the whole result.")
    page: int
    per_page: int
    pages: int


# ---------------------------------------------------------------- clubs, seasons, players


class ClubOut(Schema):
    slug: str
    name: str
    is_public: bool


class ClubPage(PageInfo):
    results: list[ClubOut]


class SeasonOut(Schema):
    id: int
    name: str
    kind: Literal["season", "tournament"]
    start_date: datetime.date
    end_date: datetime.date | None
    rules: dict[str, Any]
    ranking: dict[str, Any]


class SeasonPage(PageInfo):
    results: list[SeasonOut]


class PlayerOut(Schema):
    id: int
    name: str
    is_active: bool


class PlayerPage(PageInfo):
    results: list[PlayerOut]


# ---------------------------------------------------------------- standings


class StandingRow(Schema):
    rank: int | None = Field(description="Equal totals share a rank (1, 2, 2, 4).")
    player_id: int
    name: str
    total: Num
    sheets_played: int
    hands_played: int
    hands_taken: int
    contracts_made: int
    made_pct: Num | None
    average: Num | None
    evenings: int | None = Field(None, description="A season ranked by its rule only.")
    counted: int | None = Field(None, description="The evenings that count (best N).")
    value: Num | None = Field(None, description="What ranks under the season's rule.")
    ranked: bool = True


class StandingsPage(PageInfo):
    season: int | None
    ranking: dict[str, Any] | None = Field(
        description="The season's ranking rule when it is not the plain total."
    )
    pools_held: Num = Field(description="Mouches: what the pools hold (else 0).")
    results: list[StandingRow]


class PlayerStatisticsOut(Schema):
    player: PlayerOut
    season: int | None
    standing: StandingRow | None
    summary: dict[str, Any]
    contracts: list[dict[str, Any]]


# ---------------------------------------------------------------- sheets and hands


class SheetSummary(Schema):
    id: int
    season: int
    date: datetime.date
    table: str
    players: list[str]
    hands: int
    closed: bool


class SheetPage(PageInfo):
    results: list[SheetSummary]


class HandOut(Schema):
    number: int
    deleted: bool
    data: dict[str, Any] = Field(description=f"The hand in the interchange format ({HAND}).")
    scores: dict[str, Num] = Field(description="The ledger's rows: name → score.")
    pools: list[Num] | None = None


class HandDetail(HandOut):
    sheet: int
    explanation: str = Field(description="The engine's explanation, in the request's language.")
    terms: list[Any] = Field(description="The explanation's structured terms.")


class SheetOut(SheetSummary):
    rules: dict[str, Any]
    totals: dict[str, Num]
    pools: list[Num] | None
    hand_list: list[HandOut]


class SheetIn(Schema):
    season: int = Field(ge=1, le=2**31 - 1)
    date: datetime.date
    table: str = Field("", max_length=40)
    players: list[Annotated[str, Field(min_length=1, max_length=80)]] = Field(
        min_length=2, max_length=6, description="Names in dealing order (the club's players)."
    )
    rules: str | dict[str, Any] | None = Field(
        None, description=f"A preset or options ({HAND}); default the season's."
    )


class HandIn(BaseModel):
    """A hand in the interchange format; its sheet gives the rules and the players.
    The Savoyard rules' own fields pass through to the service, which checks them."""

    model_config = ConfigDict(extra="allow")

    dealer: str | None = None
    taker: str | None = None
    contract: str | None = None
    partner: str | None = None
    sits_out: str | None = None
    bouts: int | None = None
    points: int | Decimal | None = None
    petit_au_bout: str | None = None
    poignees: list[dict[str, Any]] | None = None
    chelem: dict[str, Any] | None = None
    petit_chelem: dict[str, Any] | None = None
    miseres: list[str] | None = None


# ---------------------------------------------------------------- tournaments


class RoundOut(Schema):
    number: int
    state: str


class TournamentOut(Schema):
    id: int
    name: str
    date: datetime.date
    state: str
    season: int
    rounds: int
    deals_per_round: int | None
    team_size: int | None


class TournamentPage(PageInfo):
    results: list[TournamentOut]


class TournamentDetail(TournamentOut):
    round_list: list[RoundOut]


class RankingRow(Schema):
    rank: int | None
    number: int
    name: str
    club: str | None = None
    licence: str | None = None
    is_guest: bool = False
    rounds: list[Num | None]
    total: Num | None
    deals: int | None = None
    withdrawn_after: int | None = None
    pending: list[bool] = Field(
        default_factory=list, description="Per round: its table is not confirmed yet."
    )


class RankingOut(Schema):
    provisional: bool
    players: list[RankingRow]
    teams: list[dict[str, Any]]


class SeatOut(Schema):
    seat: str
    number: int | None
    name: str | None
    total: Num | None


class TableOut(Schema):
    number: int
    status: str
    deals: int | None
    played: int
    sheet: int | None
    seats: list[SeatOut]


class DuplicateRow(Schema):
    rank: int
    number: int = Field(description="The entry's number.")
    name: str | None
    series: str = Field(description="The entry's série ('' when none).")
    score: Num = Field(description="A percentage (matchpoints) or points (average).")
    deals: int


class DuplicateTeamRow(Schema):
    rank: int
    team: str
    score: Num
    players: list[int] = Field(description="The members' entry numbers.")


class DuplicateRankingOut(Schema):
    method: str = Field(description="matchpoints (percentages) or average (points).")
    provisional: bool = Field(description="A round is under way or a table unconfirmed.")
    until_round: int | None = Field(description="The standing after this round.")
    rounds_in: list[int] = Field(description="The rounds with counted tables.")
    players: list[DuplicateRow]
    series: dict[str, list[DuplicateRow]]
    teams: list[DuplicateTeamRow]


class TravellerSeat(Schema):
    seat: Literal["N", "E", "S", "W"]
    number: int | None = Field(description="The entry seated there.")
    name: str | None
    marque: Num | None = Field(description="The table's score for the seat (None: cancelled).")
    score: Num = Field(description="The seat's comparison score (DUPLICATE.md §3).")
    arbitral: bool = Field(description="The arbitre gave this seat's score.")


class TravellerTable(Schema):
    table: int
    round: int
    cancelled: bool
    contract: str | None
    taker: Literal["N", "E", "S", "W"] | None = Field(description="The taker's seat.")
    points: Num | None
    bouts: int | None
    seats: list[TravellerSeat]


class Traveller(Schema):
    deal: int
    dealer: Literal["N", "E", "S", "W"]
    tables: list[TravellerTable] = Field(description="Every table that played the deal.")


class TravellerPage(PageInfo):
    method: str
    provisional: bool
    results: list[Traveller] = Field(description="Deals a page at a time, in order.")


# ---------------------------------------------------------------- the exchange file

RESULTS_FORMAT = "tarot-ledger-results"
RESULTS_VERSION = 1


class ResultsEvent(Schema):
    kind: Literal["season", "tournament"]
    id: int = Field(description="The season's id, or the tournament's.")
    name: str
    start_date: datetime.date
    end_date: datetime.date | None
    rules: dict[str, Any] | str = Field(description=f"The rules, as in the format ({HAND}).")


class ResultsPlayer(Schema):
    id: int = Field(description="The player's id in the club (stable).")
    name: str
    club: str = Field(description="The player's club (a guest's own club).")
    licence: str | None = Field(None, description="The FFT licence, where it is known.")


class ResultsRanking(Schema):
    rank: int | None = Field(description="Equal totals share a rank; None: not ranked.")
    player_id: int
    name: str
    total: Num
    value: Num | None = Field(None, description="What ranks, when not the total.")
    hands: int | None = None
    rounds: list[Num | None] | None = Field(None, description="A tournament: per round.")


class ResultsDeal(Schema):
    number: int
    hand: dict[str, Any] = Field(description=f"The deal in the interchange format ({HAND}).")
    scores: dict[str, Num] = Field(description=f"Name → score ({RESULTS}).")


class ResultsSheet(Schema):
    id: int
    date: datetime.date
    table: str
    round: int | None = Field(None, description="A tournament's round.")
    players: list[str] = Field(description="Seated, in dealing order.")
    totals: dict[str, Num]
    deals: list[ResultsDeal] = Field(description="The live deals, in order.")


class ResultsFile(PageInfo):
    """A season's or a tournament's results: stable, versioned (``format``,
    ``version``); its JSON Schema is published at /static/api/results.schema.json. A
    season's sheets come a page at a time (``page``, ``per_page``: the sheets); its
    players and ranking whole on every page."""

    format: Literal["tarot-ledger-results"]
    version: Literal[1]
    club: ClubOut
    event: ResultsEvent
    players: list[ResultsPlayer]
    ranking: list[ResultsRanking]
    sheets: list[ResultsSheet]


# ---------------------------------------------------------------- leagues

#: League points: a decimal string, exact to the thousandth (as the league's exports).
Points = Annotated[str, BeforeValidator(lambda v: str(v) if isinstance(v, Decimal) else v)]


class LeagueOut(Schema):
    slug: str
    name: str
    is_public: bool
    series: list[str] = Field(description="The league's séries, in order.")


class LeaguePage(PageInfo):
    results: list[LeagueOut]


class LeagueClubOut(Schema):
    slug: str
    name: str


class LeagueSeasonOut(Schema):
    id: int
    name: str
    start_date: datetime.date
    end_date: datetime.date | None
    scale: dict[str, Any] = Field(description="The placement points per event.")
    best_events: int | None = Field(description="Events counted per person (None: all).")
    qualified: int | None = Field(description="The first K of each série qualify.")


class LeagueDetail(LeagueOut):
    clubs: list[LeagueClubOut] = Field(description="The member clubs (invitation accepted).")
    seasons: list[LeagueSeasonOut]


class LeagueEventOut(Schema):
    id: int
    season: int
    tournament: str
    club: LeagueClubOut
    date: datetime.date
    coefficient: Points
    field: int = Field(description="Entries ranked when the results were stored.")
    withdrawn: bool
    stored: bool = Field(description="The results are stored (the tournament closed).")


class LeagueEventPage(PageInfo):
    results: list[LeagueEventOut]


class LeagueResultRow(Schema):
    rank: int
    person_id: int | None
    name: str | None = Field(description="None: a members-only club's player, not named.")
    total: Num | None = Field(description="The entry's total in the tournament.")
    points: Points
    weighted: Points = Field(description="The placement points × the coefficient.")


class LeagueEventDetail(LeagueEventOut):
    results: list[LeagueResultRow]


class LeagueRankingRow(Schema):
    rank: int = Field(description="Overall; equal points share a rank (1, 2, 2, 4).")
    serie_rank: int | None = Field(description="Within the série (None: not a league série).")
    person_id: int
    name: str | None = Field(description="None: a members-only club's player, not named.")
    licence: str | None
    serie: str
    clubs: list[LeagueClubOut]
    total: Points = Field(description="The best N events' weighted points.")
    counted: int
    played: int
    qualified: bool


class LeagueRankingPage(PageInfo):
    season: LeagueSeasonOut
    serie: str | None
    club: str | None
    results: list[LeagueRankingRow]


class LeagueRatingRow(Schema):
    rank: int = Field(description="By the rating; equal ratings share a rank.")
    person_id: int | None = Field(description="None: a player linked to no person.")
    name: str | None = Field(description="None: a members-only club's player, not named.")
    rating: float = Field(
        description="The rating the table ranks by: 1000 + 40 (μ − 3σ), the skill estimate less"
        " its uncertainty on the pages' scale (1000 before a first hand)."
    )
    mu: float = Field(description="The estimated skill (25 for an average player).")
    sigma: float = Field(description="Its uncertainty: the skill lies in μ ± 3σ nearly surely.")
    hands: int = Field(description="The hands rated, in every member club.")


class LeagueRatingsOut(Schema):
    min_hands: int = Field(description="Persons rated on fewer hands are left out.")
    left_out: int = Field(description="How many persons are left out under it.")
    recomputing: bool = Field(
        description="The ratings are being rated again in the background (a change far "
        "back): these are the ones before it, until it has run."
    )
    results: list[LeagueRatingRow]


class PersonOut(Schema):
    id: int
    name: str
    licence: str | None
    serie: str


class PersonResultOut(Schema):
    league: LeagueClubOut
    season: int
    event: int
    tournament: str
    date: datetime.date
    rank: int
    field: int
    points: Points
    weighted: Points


class PersonSeasonTotal(Schema):
    season: int
    name: str
    sheets: int
    hands: int
    taken: int
    made: int
    score: Num


class PersonClubOut(Schema):
    club: LeagueClubOut
    player_id: int
    player: str
    seasons: list[PersonSeasonTotal]


class PersonSeasonOut(Schema):
    person: PersonOut
    results: list[PersonResultOut] = Field(description="League events, newest first.")
    clubs: list[PersonClubOut] = Field(description="Each linked club's stored season totals.")


class LicenceImportIn(Schema):
    csv: str = Field(
        max_length=1_000_000,
        description=(
            "The licence list: a header line naming the columns (licence; name, or surname "
            "and given name; club; série), separated by ; , or tab."
        ),
    )
    commit: bool = Field(False, description="False: the preview only; True: import.")


class LicenceLineOut(Schema):
    line: int = Field(description="The line's number in the file (the header is line 1).")
    licence: str
    name: str
    serie: str
    club: str
    action: Literal["create", "update", "unchanged", "held", "refused"] = Field(
        description=(
            "held: a club manager's line whose licence is new to them, kept for the "
            "league's managers to confirm."
        )
    )
    code: str | None = Field(description="A refused or held line's code.")
    message: str | None = Field(
        description="A refused line's reason or a held line's words, in the request's language."
    )
    changes: dict[str, list[str]] = Field(description="An update: field → [before, after].")
    link: str | None = Field(description="The club's player the line links to the person.")


class LicenceCounts(Schema):
    create: int
    update: int
    unchanged: int
    held: int
    refused: int
    linked: int


class LicenceImportOut(Schema):
    committed: bool
    counts: LicenceCounts
    lines: list[LicenceLineOut]


# ---------------------------------------------------------------- held licence lines

#: the most held lines one confirmation names: the held lines' page's
HELD_MOST = held_views.MOST


class HeldLineOut(Schema):
    id: int
    licence: str = Field(description="As the league's pages write it: a hidden person's hidden.")
    name: str = Field(description="As the league's pages write it: a hidden person's hidden.")
    club: LeagueClubOut = Field(description="The member club whose manager sent the line.")
    serie: str
    sent_at: datetime.datetime
    status: Literal["pending", "confirmed", "dismissed"]


class HeldLinePage(PageInfo):
    results: list[HeldLineOut]


class HeldConfirmIn(Schema):
    ids: list[Annotated[int, Field(ge=1, le=2**31 - 1)]] = Field(
        min_length=1,
        max_length=HELD_MOST,
        description=f"The pending held lines to confirm (at most {HELD_MOST}, a page's).",
    )


class HeldDecisionOut(HeldLineOut):
    code: str | None = Field(description="A line left pending: why the import refuses it.")
    message: str | None = Field(description="A line left pending: the refusal's words.")


class HeldConfirmOut(Schema):
    results: list[HeldDecisionOut] = Field(
        description="The posted lines of the league as they are now, in the order sent."
    )
