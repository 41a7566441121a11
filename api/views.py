"""The JSON API, version 1 (``/api/v1/``), on django-ninja: its schema at
``/api/openapi.json`` (OpenAPI 3.1, from the typed shapes of ``api.schemas``), its
documentation at ``/api/docs`` (Swagger UI from django-ninja's own static files: no
CDN, no inline script).

It reads what the pages read, through the same queries (``scoresheet.summaries``,
``standings.filters`` and ``standings.by_rule``, ``stats.queries``,
``tournaments.queries``), and writes through the same services
(``scoresheet.services``), with the same permission checks (``clubs.permissions``):
a caller is anonymous (public clubs' reads) or a personal token (``api.auth``),
confined to its club and scope. A write may carry an ``Idempotency-Key`` header
(``core.idempotency``): posted again with the same key, it stores nothing more and
answers with what the first post made (200, ``Idempotent-Replayed: true``). Every
refusal is ``{"error": {"code", "message"}}`` with a 4xx (``api.errors``).
"""

import datetime
from decimal import Decimal
from typing import Annotated, Literal

from django.core.paginator import EmptyPage
from django.db.models import F
from django.http import HttpResponse, QueryDict
from django.urls import resolve, reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from ninja import Query, Router, Status, Swagger

from api import schemas as s
from api.auth import TokenAuth, TokenOptionalAPI
from api.errors import ApiError, install, not_found
from api.league_views import router as league_router
from api.reads import (
    MAX_ID,
    Id,
    IsoDate,
    KeyHeader,
    PageNo,
    Slug,
    answers,
    once_per_key,
    page_of,
)
from clubs.models import Club, Player
from clubs.permissions import can, club_with_role
from clubs.permissions import error_messages as permission_messages
from scoresheet import services
from scoresheet.explain_labels import render_explanation
from scoresheet.filters import SheetFilter
from scoresheet.handmap import Table, hand_data
from scoresheet.models import Hand, ScoreRow, SheetTotal
from scoresheet.models import Sheet as SheetModel
from scoresheet.summaries import standings as plain_standings
from standings.by_rule import RankedStandingsTable, ranked_rows, season_ranking
from standings.filters import StandingsFilter
from standings.listings import StandingsPaginator, StandingsTable
from standings.queries import ranked_standings
from stats import queries as stats
from tarot.duplicate import json_score
from tournaments import queries as tq
from tournaments.duplicate import results as duplicate_results
from tournaments.filters import RankingFilter
from tournaments.models import Round, Tournament

api = TokenOptionalAPI(
    title="Tarot Ledger",
    version="1",
    description=(
        "Clubs, seasons, standings, sheets and hands, players' statistics and "
        "tournaments of Tarot Ledger. Anonymous callers read public clubs; a personal "
        "token (My account) reads, or reads and writes, one club with its owner's role: "
        '`Authorization: Bearer tl_…`. Errors: `{"error": {"code", "message"}}`. '
        "Hands and sheets travel in the interchange format "
        "([the guide's Formats page](/static/guide/formats.html#hand)); the results file's "
        "JSON Schema is [/static/api/results.schema.json](/static/api/results.schema.json); "
        "worked examples: [the guide's API page](/static/guide/api.html)."
    ),
    urls_namespace="api",
    auth=TokenAuth(),
    openapi_url="/openapi.json",
    docs_url="/docs",
    # no links inside the operations' buttons (a control nested in a control is
    # unreachable to screen readers); the address bar still names the page
    docs=Swagger(settings={"deepLinking": False}),
)
install(api)
v1 = Router()

MAX_PER_PAGE = 100
PerPage = Annotated[int, Query(ge=1, le=MAX_PER_PAGE)]
# ---------------------------------------------------------------- access


def club_for(request, slug, level="read"):
    """The club of the URL, if the caller may ``level`` ("read" or "write") it.

    As the pages: a members-only club is not revealed (404) to whoever may not read
    it; a token opens its own club only (any other: 404). A write needs a token
    (401), with the write scope (403 ``token_read_only``) and its user a scorer or
    manager of the club (403 ``forbidden``; the service checks it again)."""
    caller = request.auth
    club = club_with_role(slug, caller.user)
    if club is None:
        raise not_found()
    if caller.token is not None and caller.token.club_id != club.pk:
        raise not_found()
    if not can(caller.user, club, "read"):
        raise not_found()
    if level == "write":
        if caller.token is None:
            raise ApiError(401, "unauthorized", _("A token that may write is needed."))
        if not caller.token.can_write:
            raise ApiError(403, "token_read_only", _("This token may only read."))
        if not can(caller.user, club, "score"):
            raise ApiError(403, "forbidden", str(permission_messages["score"]))
    return club


def plain(value):
    """Figures of the read side as JSON: lazy strings translated, Decimals as numbers."""
    if isinstance(value, Promise):
        return str(value)
    if isinstance(value, Decimal):
        return s._number(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def _season(club, season_id, *, regular=True):
    if season_id is None:
        return None
    seasons = club.seasons.regular() if regular else club.seasons.all()
    season = seasons.filter(pk=season_id).first()
    if season is None:
        raise not_found()
    return season


# ---------------------------------------------------------------- clubs


@v1.get("/clubs", response=answers({200: s.ClubPage}), url_name="clubs")
def clubs(request, page: PageNo = 1, per_page: PerPage = 50):
    """The clubs the caller may read: a token's club (while its user may read it: a
    removed member's token lists no members-only club), else the public clubs."""
    token = request.auth.token
    if token is None:
        rows = Club.objects.filter(is_public=True)
    elif can(request.auth.user, token.club, "read"):
        rows = Club.objects.filter(pk=token.club_id)
    else:
        rows = Club.objects.none()
    info, results = page_of(rows.order_by("name", "pk"), page, per_page)
    return {**info, "results": results}


@v1.get("/clubs/{slug}", response=answers({200: s.ClubOut}), url_name="club")
def club(request, slug: Slug):
    return club_for(request, slug)


@v1.get("/clubs/{slug}/seasons", response=answers({200: s.SeasonPage}), url_name="seasons")
def seasons(
    request,
    slug: Slug,
    kind: Literal["season", "tournament"] | None = None,
    page: PageNo = 1,
    per_page: PerPage = 50,
):
    club = club_for(request, slug)
    rows = club.seasons.order_by("-start_date", "-pk")
    if kind:
        rows = rows.filter(kind=kind)
    info, results = page_of(rows, page, per_page)
    return {**info, "results": results}


# ---------------------------------------------------------------- standings

SORTS = (
    "rank",
    "name",
    "total",
    "sheets_played",
    "hands_played",
    "hands_taken",
    "made_pct",
    "average",
    "value",
    "evenings",
)
Sort = Literal[SORTS + tuple(f"-{key}" for key in SORTS)]  # type: ignore[valid-type]


@v1.get("/clubs/{slug}/standings", response=answers({200: s.StandingsPage}), url_name="standings")
def standings(
    request,
    slug: Slug,
    season: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    date_from: IsoDate | None = None,
    date_to: IsoDate | None = None,
    seats: Annotated[int | None, Query(ge=2, le=6)] = None,
    sort: Sort = "rank",
    page: PageNo = 1,
    per_page: PerPage = 50,
):
    """The standings page's rows, filters and sorts (``standings.filters``, the page's
    tables): all seasons or one (ranked by its own rule when it has one), a date range,
    a table size. ``value`` and ``evenings`` sort a season with its own rule only."""
    club = club_for(request, slug)
    seasons = list(club.seasons.regular().newest_first())
    data = QueryDict(mutable=True)
    for key, value in (("season", season), ("date_from", date_from), ("date_to", date_to)):
        if value is not None:
            data[key] = str(value)
    if seats is not None:
        data["seats"] = str(seats)
    if season is not None and all(one.pk != season for one in seasons):
        raise not_found()
    found = StandingsFilter(data, club=club, seasons=seasons)
    if not found.form.is_valid():
        raise ApiError(400, "invalid_filter", found.form.errors.as_text())
    ranking = season_ranking(found.selected_season)
    if ranking is not None:
        table = RankedStandingsTable(ranked_rows(found, ranking), ranking=ranking, order_by=sort)
    else:
        if sort.lstrip("-") in ("value", "evenings"):
            sort = "rank"
        table = StandingsTable(found.qs, order_by=sort)
    try:
        table.paginate(paginator_class=StandingsPaginator, per_page=per_page, page=page)
    except EmptyPage:
        table.paginate(
            paginator_class=StandingsPaginator,
            per_page=per_page,
            page=table.paginator.num_pages,
        )
    paginator = table.paginator
    rows = [row.record for row in table.page.object_list]
    held = found.pools_held()
    return {
        "count": paginator.count,
        "page": table.page.number,
        "per_page": per_page,
        "pages": paginator.num_pages,
        "season": found.selected_season.pk if found.selected_season else None,
        "ranking": season_ranking_dict(found.selected_season) if ranking else None,
        "pools_held": held,
        "results": rows,
    }


def season_ranking_dict(season):
    return dict(season.ranking or {})


# ---------------------------------------------------------------- players


@v1.get("/clubs/{slug}/players", response=answers({200: s.PlayerPage}), url_name="players")
def players(
    request,
    slug: Slug,
    active: bool | None = None,
    q: Annotated[str | None, Query(max_length=80)] = None,
    page: PageNo = 1,
    per_page: PerPage = 50,
):
    """The club's players (merged ones and other clubs' guests left out), by name."""
    club = club_for(request, slug)
    rows = Player.objects.filter(club=club, merged_into__isnull=True, is_guest=False).order_by(
        "sort_key", "pk"
    )
    if active is not None:
        rows = rows.filter(is_active=active)
    if q:
        rows = rows.filter(name__icontains=q.replace("\x00", ""))
    info, results = page_of(rows, page, per_page)
    return {**info, "results": results}


@v1.get(
    "/clubs/{slug}/players/{player_id}/statistics",
    response=answers({200: s.PlayerStatisticsOut}),
    url_name="player_statistics",
)
def player_statistics(
    request,
    slug: Slug,
    player_id: Id,
    season: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
):
    """A player's figures as the statistics page sums them (``stats.queries``): in one
    season, or in all the club's seasons; their place in the standings."""
    club = club_for(request, slug)
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise not_found()
    one = _season(club, season)
    totals = SheetTotal.objects.of_player(player, one)
    if one is None:
        totals = totals.filter(season__in=club.seasons.regular())
    summary, contracts = stats.player_summary_and_contracts(totals)
    standing = next(
        (row for row in plain_standings(club, season=one) if row["player_id"] == player.pk), None
    )
    return {
        "player": player,
        "season": one.pk if one else None,
        "standing": standing,
        "summary": plain(summary),
        "contracts": plain(contracts),
    }


# ---------------------------------------------------------------- sheets and hands


def _sheet_summary(sheet):
    return {
        "id": sheet.pk,
        "season": sheet.season_id,
        "date": sheet.date,
        "table": sheet.table,
        "players": [seat.player.name for seat in sheet.seated],
        "hands": sheet.hand_count,
        "closed": sheet.is_closed,
    }


@v1.get("/clubs/{slug}/sheets", response=answers({200: s.SheetPage}), url_name="sheets")
def sheets(
    request,
    slug: Slug,
    season: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    date_from: IsoDate | None = None,
    date_to: IsoDate | None = None,
    players: Annotated[int | None, Query(ge=2, le=6)] = None,
    tournaments: bool = False,
    page: PageNo = 1,
    per_page: PerPage = 50,
):
    """The club's sheets, newest first, filtered as the sheets page is
    (``scoresheet.filters.SheetFilter``)."""
    club = club_for(request, slug)
    request.club = club  # the filter's season choices are the club's
    data = QueryDict(mutable=True)
    for key, value in (
        ("season", season),
        ("date_from", date_from),
        ("date_to", date_to),
        ("players", players),
    ):
        data[key] = "" if value is None else str(value)
    if tournaments:
        data["tournaments"] = "on"
    rows = SheetModel.objects.live().filter(club=club).with_counts()
    found = SheetFilter(data, queryset=rows, request=request)
    if not found.form.is_valid():
        if "season" in found.form.errors:
            raise not_found()
        raise ApiError(400, "invalid_filter", found.form.errors.as_text())
    info, results = page_of(found.qs, page, per_page)
    return {**info, "results": [_sheet_summary(sheet) for sheet in results]}


def _sheet(club, sheet_id):
    sheet = SheetModel.objects.with_counts().live().filter(club=club, pk=sheet_id).first()
    if sheet is None:
        raise not_found()
    return sheet


def _hand_out(hand, table, scores):
    return {
        "number": hand.number,
        "deleted": hand.is_deleted,
        "data": plain(hand_data(hand, table)),
        "scores": scores,
        "pools": hand.pools,
    }


@v1.get("/clubs/{slug}/sheets/{sheet_id}", response=answers({200: s.SheetOut}), url_name="sheet")
def sheet(request, slug: Slug, sheet_id: Id):
    """A sheet with its hands (deleted ones marked), each with its ledger rows, and the
    players' totals: the sheet page's figures (the live hands' rows summed)."""
    club = club_for(request, slug)
    return _sheet_out(_sheet(club, sheet_id))


def _sheet_out(sheet):
    table = Table.seating([seat.player for seat in sheet.seated])
    hands = list(sheet.hands.order_by("number"))
    rows = {}
    for hand_id, player_id, score in ScoreRow.objects.filter(sheet=sheet).values_list(
        "hand_id", "player_id", "score"
    ):
        rows.setdefault(hand_id, {})[table.by_id[player_id].name] = score
    totals = dict.fromkeys(table.names, Decimal(0))
    pools = None
    out = []
    for hand in hands:
        scores = rows.get(hand.pk, {})
        if not hand.is_deleted:
            for name, score in scores.items():
                totals[name] += score
            if hand.pools is not None:
                pools = hand.pools
        out.append(_hand_out(hand, table, scores))
    return {
        **_sheet_summary(sheet),
        "rules": sheet.rules,
        "totals": totals,
        "pools": pools if sheet.ruleset.has_pools else None,
        "hand_list": out,
    }


def _hand(sheet, number):
    hand = Hand.objects.filter(sheet=sheet, number=number).first()
    if hand is None:
        raise not_found()
    return hand


def _hand_detail(sheet, hand):
    table = Table.seating([seat.player for seat in sheet.seated])
    scores = {
        table.by_id[player_id].name: score
        for player_id, score in hand.scores.values_list("player_id", "score")
    }
    return {
        **_hand_out(hand, table, scores),
        "sheet": sheet.pk,
        "explanation": render_explanation(hand.explanation),
        "terms": hand.explanation or [],
    }


@v1.get(
    "/clubs/{slug}/sheets/{sheet_id}/hands/{number}",
    response=answers({200: s.HandDetail}),
    url_name="hand",
)
def hand(request, slug: Slug, sheet_id: Id, number: Id):
    """One hand with its scores and the engine's explanation (``scoresheet.explain_json``
    terms, and rendered in the request's language)."""
    club = club_for(request, slug)
    sheet = _sheet(club, sheet_id)
    return _hand_detail(sheet, _hand(sheet, number))


# ---------------------------------------------------------------- writes


def _write(request, response, create, *, url, key, done, replay):
    """Run ``create`` once per ``Idempotency-Key`` (``api.reads.once_per_key``, ``url``
    the result's API URL): 201 with ``done(result)``; a repeat stores nothing and
    answers 200, ``Idempotent-Replayed: true``, with ``replay(**the URL's arguments)``,
    the first result as it is now."""
    result, repeated = once_per_key(request, response, create, url=url, key=key)
    if result is None:
        kwargs = resolve(repeated).kwargs if repeated else None
        if not kwargs:
            raise not_found() from None
        return Status(200, replay(**kwargs))
    return Status(201, done(result))


@v1.post(
    "/clubs/{slug}/sheets",
    response=answers({201: s.SheetOut, 200: s.SheetOut}),
    url_name="sheet_create",
)
def sheet_create(
    request,
    slug: Slug,
    payload: s.SheetIn,
    response: HttpResponse,
    idempotency_key: KeyHeader = None,
):
    """Open a sheet (``scoresheet.services.open_sheet``): the club's players by name, in
    dealing order; the season's house rules unless ``rules`` says otherwise."""
    club = club_for(request, slug, "write")
    season = club.seasons.filter(pk=payload.season).first()
    if season is None:
        raise ApiError(400, "season_unknown", _("No such season in this club."), "season")
    actor = request.auth.user

    def create():
        seated = services.players_by_names(club, payload.players)
        return services.open_sheet(
            season=season,
            seated=seated,
            date=payload.date,
            table=payload.table.strip(),
            rules=payload.rules,
            actor=actor,
        )

    return _write(
        request,
        response,
        create,
        url=lambda sheet: reverse("api:sheet", args=[club.slug, sheet.pk]),
        key=idempotency_key,
        done=lambda sheet: _sheet_out(_sheet(club, sheet.pk)),
        replay=lambda slug, sheet_id: _sheet_out(_sheet(club, sheet_id)),
    )


@v1.post(
    "/clubs/{slug}/sheets/{sheet_id}/hands",
    response=answers({201: s.HandDetail, 200: s.HandDetail}),
    url_name="hand_create",
)
def hand_create(
    request,
    slug: Slug,
    sheet_id: Id,
    payload: s.HandIn,
    response: HttpResponse,
    idempotency_key: KeyHeader = None,
):
    """Record a hand (``scoresheet.services.record_hand``), in the interchange format
    with the seated players' names; scored once, under the sheet's lock."""
    club = club_for(request, slug, "write")
    sheet = _sheet(club, sheet_id)
    data = payload.model_dump(exclude_unset=True)
    actor = request.auth.user
    # the seating read with the sheet, as the hand form passes it (read again under the
    # lock before a sheet's first hand, when it may still change)
    table = Table.seating([seat.player for seat in sheet.seated])
    return _write(
        request,
        response,
        lambda: services.record_hand(sheet, data, actor=actor, table=table),
        url=lambda hand: reverse("api:hand", args=[club.slug, sheet.pk, hand.number]),
        key=idempotency_key,
        done=lambda hand: _hand_detail(sheet, hand),
        replay=lambda slug, sheet_id, number: _hand_detail(sheet, _hand(sheet, number)),
    )


@v1.put(
    "/clubs/{slug}/sheets/{sheet_id}/hands/{number}",
    response=answers({200: s.HandDetail}),
    url_name="hand_correct",
)
def hand_correct(request, slug: Slug, sheet_id: Id, number: Id, payload: s.HandIn):
    """Correct a hand (``scoresheet.services.correct_hand``): the whole hand again."""
    club = club_for(request, slug, "write")
    sheet = _sheet(club, sheet_id)
    hand = _hand(sheet, number)
    data = payload.model_dump(exclude_unset=True)
    services.correct_hand(hand, data, actor=request.auth.user)
    return _hand_detail(sheet, _hand(sheet, number))


@v1.delete(
    "/clubs/{slug}/sheets/{sheet_id}/hands/{number}",
    response=answers({200: s.HandDetail}),
    url_name="hand_delete",
)
def hand_delete(request, slug: Slug, sheet_id: Id, number: Id):
    """Take a hand off the ledger (``scoresheet.services.delete_hand``); it can be restored."""
    club = club_for(request, slug, "write")
    sheet = _sheet(club, sheet_id)
    services.delete_hand(_hand(sheet, number), actor=request.auth.user)
    return _hand_detail(sheet, _hand(sheet, number))


@v1.post(
    "/clubs/{slug}/sheets/{sheet_id}/hands/{number}/restore",
    response=answers({200: s.HandDetail}),
    url_name="hand_restore",
)
def hand_restore(request, slug: Slug, sheet_id: Id, number: Id):
    """Put a deleted hand back (``scoresheet.services.restore_hand``)."""
    club = club_for(request, slug, "write")
    sheet = _sheet(club, sheet_id)
    services.restore_hand(_hand(sheet, number), actor=request.auth.user)
    return _hand_detail(sheet, _hand(sheet, number))


# ---------------------------------------------------------------- exchange files


def _results_sheets(sheets):
    """``ResultsSheet`` rows of ``sheets`` (loaded ``with_counts``): their live deals
    and rows in two queries whatever their number."""
    ids = [sheet.pk for sheet in sheets]
    hands = {}
    for hand in Hand.objects.live().filter(sheet_id__in=ids).order_by("sheet_id", "number"):
        hands.setdefault(hand.sheet_id, []).append(hand)
    scores = {}
    for hand_id, player_id, score in ScoreRow.objects.filter(sheet_id__in=ids).values_list(
        "hand_id", "player_id", "score"
    ):
        scores.setdefault(hand_id, {})[player_id] = score
    out = []
    for sheet in sheets:
        table = Table.seating([seat.player for seat in sheet.seated])
        totals = dict.fromkeys(table.names, Decimal(0))
        deals = []
        for hand in hands.get(sheet.pk, []):
            by_name = {table.by_id[pk].name: v for pk, v in scores.get(hand.pk, {}).items()}
            for name, score in by_name.items():
                totals[name] += score
            data = {k: v for k, v in hand_data(hand, table).items() if v not in (None, [], "")}
            deals.append({"number": hand.number, "hand": plain(data), "scores": by_name})
        round_table = getattr(sheet, "round_number", None)
        out.append(
            {
                "id": sheet.pk,
                "date": sheet.date,
                "table": sheet.table,
                "round": round_table,
                "players": list(table.names),
                "totals": totals,
                "deals": deals,
            }
        )
    return out


def _results(club, event, players, ranking, info, sheets):
    return {
        **info,
        "format": s.RESULTS_FORMAT,
        "version": s.RESULTS_VERSION,
        "club": club,
        "event": event,
        "players": players,
        "ranking": ranking,
        "sheets": sheets,
    }


@v1.get(
    "/clubs/{slug}/seasons/{season_id}/results",
    response=answers({200: s.ResultsFile}),
    url_name="season_results",
)
def season_results(request, slug: Slug, season_id: Id, page: PageNo = 1, per_page: PerPage = 50):
    """A season's results file (``ResultsFile``): its players, its ranking (by its own
    rule, as its standings page), and its sheets with every deal, a page at a time."""
    club = club_for(request, slug)
    season = _season(club, season_id)
    rule = season_ranking(season)
    if rule is not None:
        rows = ranked_standings(season, rule)
    else:
        rows = list(plain_standings(club, season=season))
    ranking = [
        {
            "rank": row["rank"],
            "player_id": row["player_id"],
            "name": row["name"],
            "total": row["total"],
            "value": row.get("value"),
            "hands": row["hands_played"],
        }
        for row in rows
    ]
    players = [{"id": row["player_id"], "name": row["name"], "club": club.name} for row in rows]
    sheets = SheetModel.objects.live().filter(season=season).with_counts()
    info, shown = page_of(sheets.order_by("date", "table", "pk"), page, per_page)
    event = {
        "kind": "season",
        "id": season.pk,
        "name": season.name,
        "start_date": season.start_date,
        "end_date": season.end_date,
        "rules": season.rules,
    }
    return _results(club, event, players, ranking, info, _results_sheets(shown))


@v1.get(
    "/clubs/{slug}/tournaments/{tournament_id}/results",
    response=answers({200: s.ResultsFile}),
    url_name="tournament_results",
)
def tournament_results(request, slug: Slug, tournament_id: Id):
    """A tournament's results file (``ResultsFile``), whole: its entries with their
    licence and club, the ranking (``tournaments.queries.ranking``), every table's
    sheet with its round and deals."""
    club = club_for(request, slug)
    found = _tournament(club, tournament_id)
    rows = tq.ranking(found)
    # a licence number only where the caller may see the person (clubs.visibility)
    licences = tq.licences(found, request.auth.user)
    players = [
        {
            "id": row["player_id"],
            "name": row["name"],
            "club": row["club"] or club.name,
            "licence": licences.get(row["number"]) or None,
        }
        for row in rows
    ]
    ranking = [
        {
            "rank": row["rank"],
            "player_id": row["player_id"],
            "name": row["name"],
            "total": row["total"] if row["total"] is not None else 0,
            "hands": row["deals"],
            "rounds": row["rounds"],
        }
        for row in rows
    ]
    sheets = list(
        SheetModel.objects.filter(tournament_table__round__tournament=found)
        .with_counts()
        .annotate(round_number=F("tournament_table__round__number"))
        .order_by("round_number", "tournament_table__number")
    )
    info = {"count": len(sheets), "page": 1, "per_page": max(1, len(sheets)), "pages": 1}
    event = {
        "kind": "tournament",
        "id": found.pk,
        "name": found.name,
        "start_date": found.date,
        "end_date": found.date,
        "rules": found.rules,
    }
    return _results(club, event, players, ranking, info, _results_sheets(sheets))


# ---------------------------------------------------------------- tournaments


def _tournament(club, tournament_id):
    found = Tournament.objects.filter(club=club, pk=tournament_id).first()
    if found is None:
        raise not_found()
    return found


def _tournament_out(t):
    return {
        "id": t.pk,
        "name": t.name,
        "date": t.date,
        "state": t.state,
        "season": t.season_id,
        "rounds": t.rounds,
        "deals_per_round": t.deals_per_round,
        "team_size": t.team_size,
    }


@v1.get(
    "/clubs/{slug}/tournaments", response=answers({200: s.TournamentPage}), url_name="tournaments"
)
def tournaments(request, slug: Slug, page: PageNo = 1, per_page: PerPage = 50):
    club = club_for(request, slug)
    info, results = page_of(
        club.tournaments.filter(team_match=False).order_by("-date", "-pk"), page, per_page
    )
    return {**info, "results": [_tournament_out(t) for t in results]}


@v1.get(
    "/clubs/{slug}/tournaments/{tournament_id}",
    response=answers({200: s.TournamentDetail}),
    url_name="tournament",
)
def tournament(request, slug: Slug, tournament_id: Id):
    club = club_for(request, slug)
    found = _tournament(club, tournament_id)
    rounds = found.round_set.order_by("number").values("number", "state")
    return {**_tournament_out(found), "round_list": list(rounds)}


@v1.get(
    "/clubs/{slug}/tournaments/{tournament_id}/ranking",
    response=answers({200: s.RankingOut}),
    url_name="tournament_ranking",
)
def tournament_ranking(
    request,
    slug: Slug,
    tournament_id: Id,
    kind: Literal["members", "guests"] | None = None,
):
    """The ranking page's rows (``tournaments.queries.ranking``, filtered by
    ``tournaments.filters.RankingFilter``: everybody, members or guests), provisional
    while a started table is not confirmed."""
    club = club_for(request, slug)
    found = _tournament(club, tournament_id)
    all_rows = tq.ranking(found)
    pending = [] if found.is_closed else tq.unconfirmed(found)
    tq.mark_provisional(all_rows, pending)
    teams = tq.team_ranking(found, all_rows) if found.team_size else []
    rows = RankingFilter({"kind": kind or ""}).filter_rows(all_rows)
    return {
        "provisional": bool(pending),
        "players": [{**row, "withdrawn_after": row.get("withdrawn_after")} for row in rows],
        "teams": plain(tq.json_ranking(teams)),
    }


@v1.get(
    "/clubs/{slug}/tournaments/{tournament_id}/rounds/{number}/tables",
    response=answers({200: list[s.TableOut]}),
    url_name="round_tables",
)
def round_tables(request, slug: Slug, tournament_id: Id, number: Id):
    """A round's tables: their seats, deals played, each seat's total and the state."""
    club = club_for(request, slug)
    found = _tournament(club, tournament_id)
    rnd = Round.objects.filter(tournament=found, number=number).first()
    if rnd is None:
        raise not_found()
    out = []
    for view in tq.round_tables(found, rnd):
        seats = [
            {
                "seat": str(letter),
                "number": entry.number if entry else None,
                "name": entry.name if entry else None,
                "total": total,
            }
            for (letter, entry), total in zip(view.seats, view.totals)
        ]
        out.append(
            {
                "number": view.table.number,
                "status": view.status,
                "deals": view.deals,
                "played": view.played,
                "sheet": view.table.sheet_id,
                "seats": seats,
            }
        )
    return out


# ---------------------------------------------------------------- duplicate events


def _duplicate(club, tournament_id):
    found = Tournament.objects.filter(
        club=club, pk=tournament_id, kind=Tournament.Kind.DUPLICATE
    ).first()
    if found is None:
        raise not_found()
    return found


def _duplicate_row(row):
    entry = row["entry"]
    return {
        "rank": row["rank"],
        "number": row["player"],
        "name": entry.name if entry else None,
        "series": row["series"],
        "score": json_score(row["score"]),
        "deals": row["deals"],
    }


@v1.get(
    "/clubs/{slug}/tournaments/{tournament_id}/duplicate/ranking",
    response=answers({200: s.DuplicateRankingOut}),
    url_name="duplicate_ranking",
)
def duplicate_ranking(
    request,
    slug: Slug,
    tournament_id: Id,
    round: Annotated[int | None, Query(ge=1, le=1000)] = None,  # noqa: A002 (the page's name)
):
    """A duplicate event's barometer as its ranking page (``tournaments.duplicate.results``:
    the tables' stored results compared seat by seat, DUPLICATE.md §3–§4): overall, per
    série and for the teams; ``round``: the standing after that round."""
    club = club_for(request, slug)
    event = _duplicate(club, tournament_id)
    until = round if round is not None and round <= event.rounds else None
    loaded = duplicate_results.load(event, until_round=until)
    rows = duplicate_results.barometer(loaded)
    series = duplicate_results.by_series(loaded, rows)
    teams = duplicate_results.teams(loaded)
    return {
        "method": event.method,
        "provisional": loaded.provisional,
        "until_round": until,
        "rounds_in": sorted({t.round.number for t in loaded.tables}),
        "players": [_duplicate_row(row) for row in rows],
        "series": {
            name: [_duplicate_row(row) for row in ranked] for name, ranked in series.items()
        },
        "teams": [{**row, "score": json_score(row["score"])} for row in teams],
    }


def _traveller_out(traveller):
    def seat(cell):
        entry = cell["entry"]
        marque = cell["marque"]
        return {
            "seat": cell["seat"],
            "number": entry.number if entry else None,
            "name": entry.name if entry else None,
            "marque": None if marque is None else json_score(marque),
            "score": json_score(cell["score"]),
            "arbitral": cell["arbitral"],
        }

    return {
        "deal": traveller["deal"],
        "dealer": traveller["dealer"],
        "tables": [
            {
                **{k: row[k] for k in ("table", "round", "cancelled", "contract", "taker")},
                "points": row["points"],
                "bouts": row["bouts"],
                "seats": [seat(cell) for cell in row["seats"]],
            }
            for row in traveller["tables"]
        ],
    }


@v1.get(
    "/clubs/{slug}/tournaments/{tournament_id}/duplicate/travellers",
    response=answers({200: s.TravellerPage}),
    url_name="duplicate_travellers",
)
def duplicate_travellers(
    request,
    slug: Slug,
    tournament_id: Id,
    deal: Annotated[int | None, Query(ge=1, le=100_000)] = None,
    page: PageNo = 1,
    per_page: Annotated[int, Query(ge=1, le=50)] = 10,
):
    """A duplicate event's travellers as its pages (``duplicate_results.travellers``):
    per deal, every table that played it (round, contract, taker's seat, points, bouts)
    with each seat's entry, marque and comparison score; a page of deals at a time, or
    one ``deal``."""
    club = club_for(request, slug)
    event = _duplicate(club, tournament_id)
    loaded = duplicate_results.load(event, hands=True)
    travellers = duplicate_results.travellers(loaded)
    if deal is not None:
        travellers = [t for t in travellers if t["deal"] == deal]
    info, shown = page_of(travellers, page, per_page)
    return {
        **info,
        "method": event.method,
        "provisional": loaded.provisional,
        "results": [_traveller_out(t) for t in shown],
    }


v1.add_router("", league_router)
api.add_router("/v1/", v1)
