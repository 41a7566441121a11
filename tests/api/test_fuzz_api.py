"""The API fuzzed from its own schema (schemathesis) on the live test server: every
operation, as an anonymous caller and with the tokens of a member (read), a scorer and
a manager (write): no server error, no response outside the schema (status, content
type, body), and a write posted twice with one key stores once.

Bounded for CI (``MAX_EXAMPLES`` cases per operation and caller). Half the cases keep
the generated path (an unknown club, ids out of range), the other half aim at the
club's own objects, so the endpoints' bodies are reached and not only their 404.
"""

import datetime

import pytest
import requests
import schemathesis
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.views import api as ninja_api
from clubs import tokens
from clubs.models import Club, Membership, Person, Player, Season
from leagues import services as league_services
from leagues.models import HeldLicence, LeagueManager
from scoresheet import services
from scoresheet.models import Hand
from tests.tournaments.duplicate_helpers import make_event, play_round
from tournaments import services as tournament_services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)

MAX_EXAMPLES = 10
CHECKS = (
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
)
HAND = {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56}


@pytest.fixture
def fuzz_world(django_user_model, settings):
    settings.API_RATE = 100_000  # the fuzzer is not throttled
    club = Club.objects.create(name="Rive", slug="rive")
    season = Season.objects.create(
        club=club, name="2026", start_date=datetime.date(2026, 1, 1), rules={"preset": "fft"}
    )
    players = [Player.objects.create(club=club, name=n) for n in ("Anna", "Bert", "Carl", "Dora")]
    sheet = services.create_sheet(
        season=season, players=players, date=datetime.date(2026, 3, 1), actor=None
    )
    for _ in range(3):
        services.record_hand(sheet, HAND)
    services.delete_hand(services.record_hand(sheet, HAND))
    # a league of the club, with a season and an event; a duplicate event played a round
    league = league_services.create_league("Comité", "comite")
    league_services.accept_invitation(league_services.invite_club(league, club))
    lseason = league_services.save_season(league, name="S", start_date=datetime.date(2026, 1, 1))
    more = [Player.objects.create(club=club, name=f"Joueur {i}") for i in range(1, 5)]
    event = make_event(club, players + more, None, players=8, rounds=2, deals=2)
    duplicate_services.draw_movement(event)
    first = Round.objects.get(tournament=event, number=1)
    tournament_services.start_round(first)
    play_round(first)
    league_event = league_services.register_event(lseason, event)
    person = Person.objects.create(name="Anna", licence="1001")
    league_services.link_player(players[0], person)
    callers = {"anonymous": None}
    for role, scope in (("member", "read"), ("scorer", "write"), ("manager", "write")):
        user = django_user_model.objects.create_user(role, password="a-long-passphrase-1")
        Membership.objects.create(club=club, user=user, role=role)
        callers[role] = tokens.create_token(club=club, name=role, scope=scope, actor=user)[1]
    # the club's manager manages the league too: a line held for them to decide
    LeagueManager.objects.create(league=league, user=user)
    held = [
        HeldLicence.objects.create(
            league=league, club=club, licence=f"910{i}", name=f"Nouveau {i}", sent_at=timezone.now()
        )
        for i in range(3)
    ]
    return {
        "slug": "rive",
        "season": season.pk,
        "sheet": sheet.pk,
        "player": players[0].pk,
        "league": league.slug,
        "league_season": lseason.pk,
        "event": league_event.pk,
        "tournament": event.pk,
        "person": person.pk,
        "held": [row.pk for row in held],
        "callers": callers,
    }


def _aim(case, world, data):
    """Half the time: the path's club and ids are the world's own."""
    if not case.path_parameters or not data.draw(st.booleans(), label="aimed"):
        return
    known = {
        "slug": world["slug"],
        "sheet_id": world["sheet"],
        "player_id": world["player"],
        "number": data.draw(st.integers(1, 5), label="number"),
        "league": world["league"],
        "event_id": world["event"],
        "tournament_id": world["tournament"],
        "person_id": world["person"],
        "held_id": data.draw(st.sampled_from(world["held"]), label="held"),
    }
    if "league" in case.path_parameters:
        known["season_id"] = world["league_season"]
    for name in case.path_parameters:
        if name in known:
            case.path_parameters[name] = known[name]
    body = case.body if isinstance(case.body, dict) else {}
    if "season" in body and data.draw(st.booleans(), label="season"):
        body["season"] = world["season"]
    if "ids" in body and data.draw(st.booleans(), label="ids"):
        body["ids"] = world["held"][: data.draw(st.integers(1, 3), label="held lines")]


def fuzz(operation, who, token, base_url, world, failures, statuses, mode=None):
    """Run ``MAX_EXAMPLES`` cases of ``operation`` as ``who``; gather what fails.
    ``mode``: schemathesis' ``GenerationMode.NEGATIVE`` sends what the schema refuses."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    strategy = operation.as_strategy(mode or GenerationMode.POSITIVE)

    @given(case=strategy, data=st.data())
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def run(case, data):
        _aim(case, world, data)
        if case.headers:  # the caller's token only, whatever was generated
            case.headers.pop("Authorization", None)
        response = case.call(base_url=base_url, headers=headers, timeout=30)
        key = (who, operation.method.upper(), response.status_code)
        statuses[key] = statuses.get(key, 0) + 1
        case.validate_response(response, checks=CHECKS)

    try:
        run()
    except Exception as error:  # noqa: BLE001 (reported by the test)
        failures.append(f"{who} {operation.label}: {error}"[:1500])


@pytest.mark.fuzz
def test_the_api_survives_its_fuzzer(live_server, fuzz_world):
    raw = ninja_api.get_openapi_schema(path_prefix="/api/")
    schema = schemathesis.openapi.from_dict(raw)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 33
    failures, statuses = [], {}
    for who, token in fuzz_world["callers"].items():
        for operation in operations:
            fuzz(operation, who, token, live_server.url, fuzz_world, failures, statuses)
    assert not failures, "\n\n".join(failures[:5])
    # the cases reached the endpoints' bodies: reads answered, writes stored
    assert sum(statuses.values()) >= 4 * len(operations) * MAX_EXAMPLES // 2
    assert statuses.get(("member", "GET", 200), 0) > 20
    assert statuses.get(("anonymous", "GET", 200), 0) > 20
    stored = sum(
        n
        for (who, method, status), n in statuses.items()
        if status in (200, 201) and method != "GET" and who in ("scorer", "manager")
    )
    assert stored > 0, statuses


@pytest.mark.fuzz
def test_the_api_answers_bad_requests_within_its_schema(live_server, fuzz_world):
    """Bodies, queries and paths the schema refuses: every answer a documented status
    with the documented error body, as an anonymous caller and with a write token."""
    raw = ninja_api.get_openapi_schema(path_prefix="/api/")
    schema = schemathesis.openapi.from_dict(raw)
    operations = [result.ok() for result in schema.get_all_operations()]
    failures, statuses = [], {}
    for who in ("anonymous", "scorer"):
        token = fuzz_world["callers"][who]
        for operation in operations:
            fuzz(
                operation,
                who,
                token,
                live_server.url,
                fuzz_world,
                failures,
                statuses,
                GenerationMode.NEGATIVE,
            )
    assert not failures, "\n\n".join(failures[:5])
    refused = sum(n for (_who, _method, status), n in statuses.items() if 400 <= status < 500)
    assert refused > len(operations), statuses


def test_a_write_posted_twice_with_one_key_stores_once(live_server, fuzz_world):
    url = f"{live_server.url}/api/v1/clubs/rive/sheets/{fuzz_world['sheet']}/hands"
    headers = {
        "Authorization": f"Bearer {fuzz_world['callers']['scorer']}",
        "Idempotency-Key": "live-server-retry-0001",
    }
    before = Hand.objects.count()
    first = requests.post(url, json=HAND, headers=headers, timeout=30)
    second = requests.post(url, json=HAND, headers=headers, timeout=30)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json() == second.json()
    assert Hand.objects.count() == before + 1
