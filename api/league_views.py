"""The API's league reads (``/api/v1/leagues/…``, ``/api/v1/persons/…``): leagues, their
seasons and events, an event's stored results, the league ranking, the league ratings
and a person's season.

They read what the league pages read, through the same functions (``leagues.season_standings``
for the ranking, ``leagues.queries`` for an event's results and a person's season), so
they give the same rows. Who may read is the pages' rule (``leagues.permissions.can``:
a public league, or its managers and its member clubs' members), and a token never
reaches beyond its club: a members-only league only when the token's club is one of
its member clubs, a person's club totals only of the token's club.

Its writes: the licence list's import (``leagues.licences``) and the held licence lines'
list, confirmation and dismissal (``leagues.held``, the league managers' page's service,
its names hidden through the page's ``leagues.queries.hider``), for a token of one of
the league's member clubs.
"""

from typing import Annotated, Literal

from django.db.models import Q
from django.http import HttpResponse
from django.utils.translation import gettext as _
from ninja import Query, Router, Status

from api import schemas as s
from api.errors import ApiError, not_found
from api.reads import Id, KeyHeader, PageNo, Slug, answers, bounds, once_per_key, page_of
from clubs import visibility
from clubs.models import Club, Person
from clubs.permissions import can as can_club
from leagues import held, licences, queries, season_standings
from leagues import rating_scope as league_ratings
from leagues.held import HeldError
from leagues.models import HeldLicence, League, LeagueClub, LeagueEvent, LeagueManager, LeagueSeason
from leagues.permissions import can as can_league
from leagues.permissions import error_messages as league_messages
from leagues.permissions import is_manager

router = Router()

#: ranking rows a page, as the ranking page
RANKING_PER_PAGE = 100


# ---------------------------------------------------------------- access


def _token_club(request):
    token = request.auth.token
    return token.club_id if token is not None else None


def _may_read_league(request, league) -> bool:
    """The pages' rule, and a token's members-only league only through its club."""
    if not can_league(request.auth.user, league, "read"):
        return False
    club_id = _token_club(request)
    if club_id is None or league.is_public:
        return True
    return LeagueClub.objects.filter(
        league=league, club_id=club_id, accepted_at__isnull=False
    ).exists()


def _may_read_club(request, club) -> bool:
    club_id = _token_club(request)
    if club_id is not None and club_id != club.pk:
        return False
    return can_club(request.auth.user, club, "read")


def league_for(request, slug) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None or not _may_read_league(request, league):
        raise not_found()
    return league


def _season(league, season_id) -> LeagueSeason:
    season = LeagueSeason.objects.filter(league=league, pk=season_id).first()
    if season is None:
        raise not_found()
    season.league = league
    return season


def _season_out(season):
    return {
        "id": season.pk,
        "name": season.name,
        "start_date": season.start_date,
        "end_date": season.end_date,
        "scale": season.scale,
        "best_events": season.best_events,
        "qualified": season.qualified,
    }


def _club_out(club):
    return {"slug": club.slug, "name": club.name}


def _event_out(event):
    tournament = event.tournament
    return {
        "id": event.pk,
        "season": event.season_id,
        "tournament": tournament.name,
        "club": _club_out(tournament.club),
        "date": tournament.date,
        "coefficient": event.coefficient,
        "field": event.field_size,
        "withdrawn": event.withdrawn_at is not None,
        "stored": event.results_at is not None,
    }


# ---------------------------------------------------------------- leagues


@router.get("/leagues", response=answers({200: s.LeaguePage}), url_name="leagues")
def leagues(request, page: PageNo = 1, per_page: Annotated[int, Query(ge=1, le=100)] = 50):
    """The leagues the caller may read, by name: the public ones, and the members-only
    ones of the caller's clubs (of a token's club only)."""
    user = request.auth.user
    rows = League.objects.order_by("name", "pk")
    if not (user.is_authenticated and user.is_superuser):
        readable = Q(is_public=True)
        if user.is_authenticated:
            readable |= Q(pk__in=LeagueManager.objects.filter(user=user).values("league_id"))
            readable |= Q(
                pk__in=LeagueClub.objects.filter(
                    accepted_at__isnull=False, club__memberships__user=user
                ).values("league_id")
            )
        rows = rows.filter(readable)
    club_id = _token_club(request)
    if club_id is not None:
        rows = rows.filter(
            Q(is_public=True)
            | Q(
                pk__in=LeagueClub.objects.filter(accepted_at__isnull=False, club_id=club_id).values(
                    "league_id"
                )
            )
        )
    info, results = page_of(rows, page, per_page)
    return {**info, "results": results}


@router.get("/leagues/{league}", response=answers({200: s.LeagueDetail}), url_name="league")
def league(request, league: Slug):
    """A league: its séries, member clubs and seasons (newest first)."""
    found = league_for(request, league)
    clubs = Club.objects.filter(
        league_links__league=found, league_links__accepted_at__isnull=False
    ).order_by("name", "pk")
    return {
        "slug": found.slug,
        "name": found.name,
        "is_public": found.is_public,
        "series": found.series,
        "clubs": [_club_out(c) for c in clubs],
        "seasons": [_season_out(one) for one in found.seasons.all()],
    }


@router.get(
    "/leagues/{league}/seasons/{season_id}/events",
    response=answers({200: s.LeagueEventPage}),
    url_name="league_events",
)
def league_events(
    request,
    league: Slug,
    season_id: Id,
    page: PageNo = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 50,
):
    """A season's events by date (withdrawn ones marked), with their coefficients."""
    season = _season(league_for(request, league), season_id)
    rows = season.events.select_related("tournament__club").order_by("tournament__date", "pk")
    info, events = page_of(rows, page, per_page)
    return {**info, "results": [_event_out(e) for e in events]}


@router.get(
    "/leagues/{league}/events/{event_id}",
    response=answers({200: s.LeagueEventDetail}),
    url_name="league_event",
)
def league_event(request, league: Slug, event_id: Id):
    """An event's stored results, as its page: rank, name (None where a members-only
    club's player may not be named), total, placement points and weighted points."""
    found = league_for(request, league)
    event = (
        LeagueEvent.objects.select_related("tournament__club", "season")
        .filter(pk=event_id, season__league=found)
        .first()
    )
    if event is None:
        raise not_found()
    club = event.tournament.club
    results = queries.event_results(
        event,
        found,
        viewer=request.auth.user,
        club_readable=club.is_public or _may_read_club(request, club),
    )
    rows = [
        {
            "rank": r.rank,
            "person_id": r.person_id,
            "name": r.shown,
            "total": r.total,
            "points": r.points,
            "weighted": r.weighted,
        }
        for r in results
    ]
    return {**_event_out(event), "results": rows}


@router.get(
    "/leagues/{league}/seasons/{season_id}/ranking",
    response=answers({200: s.LeagueRankingPage}),
    url_name="league_ranking",
)
def league_ranking(
    request,
    league: Slug,
    season_id: Id,
    serie: Annotated[str | None, Query(max_length=30)] = None,
    club: Annotated[str | None, Query(pattern=r"^[-a-zA-Z0-9_]{1,60}$")] = None,
    sort: Literal[tuple(season_standings.ORDERS)] = "rank",  # type: ignore[valid-type]
    page: PageNo = 1,
    per_page: Annotated[int, Query(ge=1, le=RANKING_PER_PAGE)] = RANKING_PER_PAGE,
):
    """The league ranking page's rows (``leagues.season_standings``: kept on write, ranked in
    one query): overall, or within one of the league's séries (ranked by the série's
    own ranks), of one member club (its slug); a page at a time. A row's name and
    licence are None where a members-only club's player may not be named."""
    found = league_for(request, league)
    season = _season(found, season_id)
    if serie is not None and serie not in found.series:
        raise ApiError(400, "invalid_filter", _("This série is not one of the league's."), "serie")
    club_id = None
    if club is not None:
        member = Club.objects.filter(
            slug=club, league_links__league=found, league_links__accepted_at__isnull=False
        ).first()
        if member is None:
            raise ApiError(400, "invalid_filter", _("This club is not of the league."), "club")
        club_id = member.pk
    order = "serie" if sort == "rank" and serie else sort
    filters = {"serie": serie, "club_id": club_id, "order": order}
    rows, count = season_standings.ranked(
        season, **filters, limit=per_page, offset=(page - 1) * per_page
    )
    info = bounds(count, page, per_page)
    if info["page"] != page:
        offset = (info["page"] - 1) * per_page
        rows, count = season_standings.ranked(season, **filters, limit=per_page, offset=offset)
    season_standings.name_rows(season, rows, request.auth.user)
    for row in rows:
        row["clubs"] = [{"slug": c["slug"], "name": c["name"]} for c in row["clubs"]]
    return {
        **info,
        "season": _season_out(season),
        "serie": serie,
        "club": club,
        "results": rows,
    }


@router.get(
    "/leagues/{league}/ratings",
    response=answers({200: s.LeagueRatingsOut}),
    url_name="league_ratings",
)
def league_ratings_read(request, league: Slug):
    """The league ratings page's rows (``leagues.rating_scope.league_rows``: kept on write,
    three queries): every person rated over the hands of every member club, ranked by
    the rating (1000 + 40 (μ − 3σ)), those under ``min_hands`` hands left out; a name is
    None where the page does not show it (a members-only club's player); ``recomputing``
    as the page's notice (``ratings.queries.recomputing``)."""
    found = league_for(request, league)
    rows, left_out = league_ratings.league_rows(found, viewer=request.auth.user)
    return {
        "min_hands": league_ratings.queries.MIN_HANDS,
        "left_out": left_out,
        "recomputing": league_ratings.queries.recomputing(league_ratings.key(found.pk)),
        "results": [
            {
                "rank": r["rating"].rank,
                "person_id": r["person_id"],
                "name": r["name"],
                "rating": r["rating"].ordinal,
                "mu": r["rating"].mu,
                "sigma": r["rating"].sigma,
                "hands": r["rating"].hands,
            }
            for r in rows
        ],
    }


# ---------------------------------------------------------------- persons


@router.get("/persons/{person_id}", response=answers({200: s.PersonSeasonOut}), url_name="person")
def person(request, person_id: Id):
    """A person's season, as their page: their league results in the leagues the caller
    may read, and each linked club's stored season totals of the clubs the caller may
    read unknown (404) when nothing is readable. A token reads no club but its own, even
    the person's own token."""
    found = Person.objects.filter(pk=person_id).first()
    if found is None or not visibility.is_named(request.auth.user, found):
        raise not_found()  # a hidden person answers as an unknown one
    # the person themself reads no more than anybody here: a token stays within its club
    clubs, results = queries.person_season(
        found,
        me=False,
        may_read_club=lambda club: _may_read_club(request, club),
        may_read_league=lambda league: _may_read_league(request, league),
    )
    if not clubs and not results:
        raise not_found()
    return {
        "person": found,
        "results": [
            {
                "league": _club_out(r.event.season.league),
                "season": r.event.season_id,
                "event": r.event_id,
                "tournament": r.event.tournament.name,
                "date": r.event.tournament.date,
                "rank": r.rank,
                "field": r.event.field_size,
                "points": r.points,
                "weighted": r.weighted,
            }
            for r in results
        ],
        "clubs": [
            {
                "club": _club_out(c["player"].club),
                "player_id": c["player"].pk,
                "player": c["player"].name,
                "seasons": [
                    {
                        "season": t.season_id,
                        "name": t.season.name,
                        "sheets": t.sheets,
                        "hands": t.hands,
                        "taken": t.taken,
                        "made": t.made,
                        "score": t.score,
                    }
                    for t in c["totals"]
                ],
            }
            for c in clubs
        ],
    }


# ---------------------------------------------------------------- the licence list


def _member_token_league(request, league, *, write):
    """The league of the URL for a token of one of its member clubs (the licence list
    and its held lines): no token 401, another club's token 404, a read-only token
    posting 403 ``token_read_only``."""
    caller = request.auth
    if caller.token is None:
        if write:
            raise ApiError(401, "unauthorized", _("A token that may write is needed."))
        raise ApiError(401, "unauthorized", _("A token is needed."))
    found = league_for(request, league)
    if not LeagueClub.objects.filter(
        league=found, club_id=caller.token.club_id, accepted_at__isnull=False
    ).exists():
        raise not_found()
    if write and not caller.token.can_write:
        raise ApiError(403, "token_read_only", _("This token may only read."))
    return found


def _managed_league(request, league, *, write):
    """``_member_token_league``, and its user a manager of the league (403 ``forbidden``)."""
    found = _member_token_league(request, league, write=write)
    if not is_manager(request.auth.user, found):
        raise ApiError(403, "forbidden", str(league_messages["manage"]))
    return found


@router.post(
    "/leagues/{league}/licences",
    response=answers({200: s.LicenceImportOut}),
    url_name="licence_import",
)
def licence_import(request, league: Slug, payload: s.LicenceImportIn):
    """Import a licence list (``leagues.licences``, as the league's import page): every
    line's action or refusal, the whole a preview unless ``commit``. A write token of one
    of the league's member clubs; its user a manager of the league (every club's lines)
    or of the token's club (that club's lines only)."""
    caller = request.auth
    found = _member_token_league(request, league, write=True)
    preview = licences.import_licences(
        found,
        payload.csv,
        actor=caller.user,
        commit=payload.commit,
        only_club=caller.token.club_id,
    )
    return {
        "committed": preview.committed,
        "counts": preview.counts,
        "lines": [
            {
                "line": line.number,
                "licence": line.licence,
                "name": line.name,
                "serie": line.serie,
                "club": line.club,
                "action": line.action,
                "code": line.code or None,
                "message": line.message or None,
                "changes": {k: list(v) for k, v in line.changes.items()},
                "link": line.link or None,
            }
            for line in preview.lines
        ],
    }


# ---------------------------------------------------------------- the held licence lines


def _held_out(row, hide) -> dict:
    return {
        "id": row.pk,
        "licence": hide(row.licence),
        "name": hide(row.name),
        "club": _club_out(row.club),
        "serie": row.serie,
        "sent_at": row.sent_at,
        "status": row.status,
    }


def _held_write(request, response, write, *, key, answer):
    """Run ``write`` (a ``leagues.held`` service) once per ``Idempotency-Key``
    (``core.idempotency.once``, the key stored in the write's transaction): 200 with
    ``answer()``; a repeat writes nothing and answers ``answer()`` too, the same lines
    as they are now, with ``Idempotent-Replayed: true``. The service's refusals keep
    their codes: ``forbidden`` 403, an unknown line 404, a line decided already 409."""
    try:
        once_per_key(request, response, write, url=request.path, key=key)
    except HeldError as error:
        status = {"forbidden": 403, "unknown": 404, "decided": 409}.get(error.code, 400)
        raise ApiError(status, error.code, error.message) from None
    return Status(200, answer())


@router.get(
    "/leagues/{league}/licences/held",
    response=answers({200: s.HeldLinePage}),
    url_name="held_licences",
    openapi_extra={"x-token-needed": True},
)
def held_licences(
    request,
    league: Slug,
    page: PageNo = 1,
    per_page: Annotated[int, Query(ge=1, le=s.HELD_MOST)] = s.HELD_MOST,
):
    """The league's pending held licence lines (``leagues.held.pending``: a club manager's
    lines whose licence was new to them), the oldest first, as the held lines' page lists
    them: a hidden person's name and licence written as the page writes them
    (``leagues.queries.hider``). A token of one of the league's member clubs whose user
    manages the league."""
    found = _managed_league(request, league, write=False)
    info, rows = page_of(held.pending(found), page, per_page)
    hide = queries.hider(request.auth.user, found)
    return {**info, "results": [_held_out(row, hide) for row in rows]}


@router.post(
    "/leagues/{league}/licences/held/confirm",
    response=answers({200: s.HeldConfirmOut}),
    url_name="held_confirm",
)
def held_confirm(
    request,
    league: Slug,
    payload: s.HeldConfirmIn,
    response: HttpResponse,
    idempotency_key: KeyHeader = None,
):
    """Confirm pending held lines (``leagues.held.confirm``: the league manager's own import
    of them): the posted lines of the league as they are now, a line the import refuses
    left pending with the refusal's code and words. A write token of one of the league's
    member clubs whose user manages the league."""
    found = _managed_league(request, league, write=True)
    actor = request.auth.user

    def answer():
        rows = {
            row.pk: row
            for row in HeldLicence.objects.filter(league=found, pk__in=payload.ids).select_related(
                "club"
            )
        }
        left = [rows[pk] for pk in dict.fromkeys(payload.ids) if pk in rows]
        pending = [row for row in left if row.status == HeldLicence.Status.PENDING]
        lines = held.preview(found, pending, actor=actor) if pending else {}
        hide = queries.hider(actor, found)
        out = []
        for row in left:
            line = lines.get(row.pk)
            refused = line is not None and bool(line.code)
            out.append(
                {
                    **_held_out(row, hide),
                    "code": line.code if refused else None,
                    "message": hide(str(line.message)) if refused else None,
                }
            )
        return {"results": out}

    return _held_write(
        request,
        response,
        lambda: held.confirm(found, payload.ids, actor=actor),
        key=idempotency_key,
        answer=answer,
    )


@router.post(
    "/leagues/{league}/licences/held/{held_id}/dismiss",
    response=answers({200: s.HeldLineOut}),
    url_name="held_dismiss",
)
def held_dismiss(
    request, league: Slug, held_id: Id, response: HttpResponse, idempotency_key: KeyHeader = None
):
    """Dismiss a pending held line (``leagues.held.dismiss``: set aside, nothing imported,
    a league audit entry): the line as it is now. A write token of one of the league's
    member clubs whose user manages the league."""
    found = _managed_league(request, league, write=True)
    actor = request.auth.user

    def answer():
        row = HeldLicence.objects.select_related("club").get(league=found, pk=held_id)
        return _held_out(row, queries.hider(actor, found))

    return _held_write(
        request,
        response,
        lambda: held.dismiss(found, held_id, actor=actor),
        key=idempotency_key,
        answer=answer,
    )
