"""Every write of a duplicate event ("donnes préparées", ``DUPLICATE.md``): set-up, the
séries, the movement drawn, the étuis, the deals at the table, the arbitre's
decisions. One transaction each, authorised as the tournament's other verbs (a
manager of the club; ``actor=None`` for a table's link), audited, refused with a
``DuplicateEventError`` whose message comes from this module's catalogue.

The rest of an event's life is the free-deal tournament's (``tournaments.services``):
registration, teams, starting and closing a round (each table's sheet opened through
the ledger), the table's link with double entry and confirmation, closing the event.
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit
from tarot import ScoringError
from tarot.duplicate import AVERAGE, SEATS
from tarot.jsonformat import parse_rules
from tournaments import services, tokens
from tournaments.duplicate import plan as duplicate_plan
from tournaments.duplicate.deals import table_deals
from tournaments.duplicate.movement import MovementError
from tournaments.models import DealDecision, Entry, Round, RoundTable, Tournament
from tournaments.services import TournamentError

TEAM_SIZES = (3, 4)  # triplettes, quadrettes
SERIES = ("Open", "1ère", "2ème", "Promotion")
MAX_ROUNDS = 30
MAX_DEALS_PER_SET = 8

error_messages = {
    **services.error_messages,
    "rules_four_players": _lazy("A duplicate event is played at four: choose rules for four."),
    "rounds_range": _lazy("A duplicate event has 1 to %(n)d rounds."),
    "deals_per_set": _lazy("A set has 1 to %(n)d deals."),
    "method": _lazy("Choose how the results are compared."),
    "team_size": _lazy("A team has 3 (triplette) or 4 (quadrette) players."),
    "not_duplicate": _lazy("This is not a duplicate event."),
    "movement_drawn": _lazy(
        "The movement is drawn: enter or withdraw players before drawing it again."
    ),
    "movement_started": _lazy("A round has started: the movement stays."),
    "movement_unfit": _lazy("Choose one of the movements that fit the players entered."),
    "too_few_players": _lazy("A duplicate event needs at least 4 players."),
    "rounds_over_tables": _lazy(
        "%(rounds)d rounds need %(rounds)d sets, and %(tables)d tables play %(tables)d: "
        "a player would meet a set twice. Play fewer rounds or enter more players."
    ),
    "deal_not_here": _lazy("Deal %(deal)d is not in the set this table played."),
    "seat_invalid": _lazy("Choose a seat: N, E, S or W."),
    "score_invalid": _lazy("Type the arbitral score as a number."),
    "series_too_long": _lazy("A série's name has at most 40 characters."),
    "already_cancelled": _lazy("This deal is already cancelled at this table."),
    "decision_gone": _lazy("This decision was already removed."),
}


class DuplicateEventError(TournamentError):
    error_messages = error_messages


def _settings(name, rules, rounds, deals_per_set, method, team_size, confirm_by) -> dict:
    name = (name or "").strip()
    if not name:
        raise DuplicateEventError("name_required", field="name")
    try:
        ruleset = parse_rules(rules)
    except ScoringError as error:
        raise DuplicateEventError.from_scoring(error) from None
    if 4 not in ruleset.ruleset.player_counts:
        raise DuplicateEventError("rules_four_players", field="preset")
    if not rounds or not 1 <= rounds <= MAX_ROUNDS:
        raise DuplicateEventError("rounds_range", field="rounds", n=MAX_ROUNDS)
    if not deals_per_set or not 1 <= deals_per_set <= MAX_DEALS_PER_SET:
        raise DuplicateEventError("deals_per_set", field="deals_per_round", n=MAX_DEALS_PER_SET)
    if method not in Tournament.Method.values:
        raise DuplicateEventError("method", field="method")
    team_size = team_size or None
    if team_size not in (None, *TEAM_SIZES):
        raise DuplicateEventError("team_size", field="team_size")
    if confirm_by not in Tournament.ConfirmBy.values:
        raise DuplicateEventError("confirm_by", field="confirm_by")
    return {
        "name": name,
        "rules": ruleset.as_dict(),
        "rounds": rounds,
        "deals_per_round": deals_per_set,
        "minutes_per_round": None,
        "method": method,
        "team_size": team_size,
        "confirm_by": confirm_by,
    }


def create_duplicate(
    club,
    *,
    name,
    date,
    rules="fft",
    rounds,
    deals_per_set,
    method=Tournament.Method.MATCHPOINTS,
    team_size=None,
    confirm_by=Tournament.ConfirmBy.TOTALS,
    actor=None,
    seed=None,
) -> Tournament:
    """A duplicate event, its own season and its rounds; the deals' seed drawn once."""
    services._require(actor, club)
    settings = _settings(name, rules, rounds, deals_per_set, method, team_size, confirm_by)
    with transaction.atomic():
        return services.open_tournament(
            club, settings, date, actor=actor, seed=seed, kind=Tournament.Kind.DUPLICATE
        )


def update_duplicate(
    tournament,
    *,
    name,
    date,
    rules,
    rounds,
    deals_per_set,
    method,
    team_size=None,
    confirm_by=Tournament.ConfirmBy.TOTALS,
    actor=None,
) -> Tournament:
    """Change an event not started: its settings; the movement, if drawn, is forgotten
    when the rounds change."""
    services._require(actor, tournament)
    settings = _settings(name, rules, rounds, deals_per_set, method, team_size, confirm_by)
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.state != Tournament.State.SETUP:
            raise DuplicateEventError("tournament_started")
        if settings["team_size"] != tournament.team_size and tournament.teams.exists():
            raise DuplicateEventError("teams_registered", field="team_size")
        old_rounds = services.resettle(tournament, settings, date, actor=actor)
        if rounds != old_rounds:
            _forget_movement(tournament)
            tournament.round_set.filter(number__gt=rounds).delete()
            Round.objects.bulk_create(
                Round(tournament=tournament, number=n) for n in range(old_rounds + 1, rounds + 1)
            )
    return tournament


def _locked(tournament) -> Tournament:
    tournament = services._lock(tournament)
    if not tournament.is_duplicate:
        raise DuplicateEventError("not_duplicate")
    return tournament


def _forget_movement(tournament) -> None:
    RoundTable.objects.filter(round__tournament=tournament).delete()
    tournament.round_set.update(state=Round.State.PLANNED)


def set_series(tournament, series: dict, *, actor=None) -> int:
    """Give entries their série: ``{entry number: série}`` ("" for none). Returns how
    many changed."""
    services._require(actor, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        services._refuse_closed(tournament)
        changed = {}
        for entry in tournament.entries.all():
            if entry.number not in series:
                continue
            # characters nobody types (a NUL, which PostgreSQL refuses) are left out
            typed = "".join(ch for ch in str(series[entry.number] or "") if ch.isprintable())
            value = " ".join(typed.split())
            if len(value) > 40:
                raise DuplicateEventError("series_too_long", field=f"series_{entry.number}")
            if value != entry.series:
                entry.series = value
                entry.save(update_fields=["series"])
                changed[str(entry)] = value
        if changed:
            audit.record(
                tournament.club_id,
                actor,
                audit.Action.ENTRIES_REGISTERED,
                tournament,
                after={"series": changed},
            )
    return len(changed)


# ---------------------------------------------------------------- the movement


def _numbers(tournament) -> list[int]:
    return [e.number for e in tournament.entries.all() if e.withdrawn_after_round is None]


def event_plan(tournament) -> duplicate_plan.Plan:
    """The plan of the event's movement (the one chosen, else the preselected one) for
    the players entered now (``MovementError``)."""
    return duplicate_plan.plan(_numbers(tournament), tournament.rounds, tournament.movement)


def movement_options(tournament) -> list[duplicate_plan.Option]:
    """Every movement that fits the players entered now (``MovementError``)."""
    return duplicate_plan.options(_numbers(tournament), tournament.rounds)


def _drawable(tournament) -> list[Round]:
    """The event's rounds, when its movement may still be drawn or changed."""
    services._refuse_closed(tournament)
    rounds = services._rounds(tournament)
    if any(not r.is_open for r in rounds):
        raise DuplicateEventError("movement_started")
    count = tournament.entries.count()
    if count < 4:
        raise DuplicateEventError("too_few_players")
    tables = duplicate_plan.tables_for(count)
    if tournament.rounds > tables:
        raise DuplicateEventError(
            "rounds_over_tables", field="rounds", rounds=tournament.rounds, tables=tables
        )
    return rounds


def _seat_plan(tournament, rounds, plan) -> None:
    """Every round's tables as ``plan`` seats them (with their set and private link)."""
    RoundTable.objects.filter(round__tournament=tournament).delete()
    rows = []
    for rnd, playing in zip(rounds, plan.rounds):
        for table in playing:
            row = RoundTable(
                round=rnd, number=table.table, seats=list(table.seats), set_number=table.set
            )
            tokens.issue(row)
            rows.append(row)
    RoundTable.objects.bulk_create(rows)
    Round.objects.filter(tournament=tournament).update(state=Round.State.DRAWN)


def draw_movement(tournament, *, actor=None) -> duplicate_plan.Plan:
    """Seat the players entered on the movement: every round's tables (with their set
    and private link), the byes resting. Drawn again, the previous draw is replaced;
    refused once a round has started."""
    services._require(actor, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        rounds = _drawable(tournament)
        try:
            plan = event_plan(tournament)
        except MovementError as error:  # pragma: no cover - the checks above come first
            raise DuplicateEventError("too_few_players", error.message) from None
        _seat_plan(tournament, rounds, plan)
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ROUND_DRAWN,
            tournament,
            after={
                "rounds": [r.number for r in rounds],
                "tables": plan.tables,
                "repeated": plan.repeated,
                "movement": plan.kind,
            },
        )
    return plan


def choose_movement(tournament, kind, *, actor=None) -> duplicate_plan.Plan:
    """The organiser chooses the event's movement among those that fit the players
    entered (``movement_options``); a movement drawn already is drawn again on it.
    Refused once a round has started."""
    services._require(actor, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        rounds = _drawable(tournament)
        try:
            fitting = {option.kind for option in movement_options(tournament)}
        except MovementError as error:  # pragma: no cover - the checks above come first
            raise DuplicateEventError("too_few_players", error.message) from None
        if kind not in fitting:
            raise DuplicateEventError("movement_unfit", field="movement")
        before = tournament.movement
        tournament.movement = kind
        tournament.save(update_fields=["movement"])
        plan = event_plan(tournament)
        drawn = RoundTable.objects.filter(round__tournament=tournament).exists()
        if drawn:
            _seat_plan(tournament, rounds, plan)
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.TOURNAMENT_UPDATED,
            tournament,
            before={"movement": before},
            after={"movement": kind, "repeated": plan.repeated, "drawn_again": drawn},
        )
    return plan


def set_etuis_by_hand(tournament, by_hand: bool, *, actor=None) -> Tournament:
    """Record that the étuis were dealt by hand (no hand records), or from the sheets."""
    services._require(actor, tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        services._refuse_closed(tournament)
        tournament.etuis_by_hand = bool(by_hand)
        tournament.save(update_fields=["etuis_by_hand"])
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ETUIS_DEALT,
            tournament,
            after={"etuis_by_hand": tournament.etuis_by_hand},
        )
    return tournament


# ---------------------------------------------------------------- the arbitre


def _decision_table(table, deal) -> RoundTable:
    table = services._lock_table(table)
    tournament = table.round.tournament
    if not tournament.is_duplicate:
        raise DuplicateEventError("not_duplicate")
    services._refuse_closed(tournament)
    if table.set_number is None:
        raise DuplicateEventError("no_set")
    if deal not in table_deals(table):
        raise DuplicateEventError("deal_not_here", field="deal", deal=deal)
    return table


def _reason(reason) -> str:
    reason = " ".join(str(reason or "").split())[:200]
    if not reason:
        raise DuplicateEventError("reason_required", field="reason")
    return reason


def cancel_deal(table: RoundTable, deal: int, reason, *, actor=None) -> DealDecision:
    """The arbitre cancels ``deal`` at one table (a fouled étui, cards mixed): its four
    players get the method's neutral score and the deal stays out of the other
    tables' comparisons (§3)."""
    services._require(actor, table)
    with transaction.atomic():
        table = _decision_table(table, deal)
        reason = _reason(reason)
        if table.decisions.filter(deal=deal, kind=DealDecision.Kind.CANCELLED).exists():
            raise DuplicateEventError("already_cancelled")
        decision = DealDecision.objects.create(
            round_table=table,
            deal=deal,
            kind=DealDecision.Kind.CANCELLED,
            reason=reason,
            by=services._actor(actor),
        )
        audit.record(
            table.round.tournament.club_id,
            actor,
            audit.Action.DEAL_CANCELLED,
            table.round.tournament,
            after={
                "table": services.table_label(table.round.number, table.number),
                "deal": deal,
                "reason": reason,
            },
        )
    return decision


def give_arbitral_score(
    table: RoundTable, deal: int, seat, score, reason, *, actor=None
) -> DealDecision:
    """The arbitre gives one seat of one table an arbitral score for ``deal`` (a
    percentage under matchpoints, points under average): it replaces that seat's
    compared score; the table's marque still counts for the other tables (§3). A
    second decision for the same seat replaces the first."""
    services._require(actor, table)
    seat_index = SEATS.index(seat) if seat in SEATS else None
    if seat_index is None:
        raise DuplicateEventError("seat_invalid", field="seat")
    try:
        (value,) = services.parse_scores([score], 1)
    except TournamentError:
        raise DuplicateEventError("score_invalid", field="score") from None
    with transaction.atomic():
        table = _decision_table(table, deal)
        tournament = table.round.tournament
        if tournament.method != AVERAGE and not 0 <= value <= 100:
            raise DuplicateEventError("score_invalid", field="score")
        reason = _reason(reason)
        table.decisions.filter(deal=deal, seat=seat_index, kind=DealDecision.Kind.ARBITRAL).delete()
        decision = DealDecision.objects.create(
            round_table=table,
            deal=deal,
            kind=DealDecision.Kind.ARBITRAL,
            seat=seat_index,
            score=value,
            reason=reason,
            by=services._actor(actor),
        )
        entry = Entry.objects.get(tournament=tournament, number=table.seats[seat_index])
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.ARBITRAL_SCORE,
            tournament,
            after={
                "table": services.table_label(table.round.number, table.number),
                "deal": deal,
                "seat": seat,
                "entry": str(entry),
                "score": str(value),
                "reason": reason,
            },
        )
    return decision


def remove_decision(decision: DealDecision, *, actor=None) -> None:
    """The arbitre takes back one decision (a cancellation, an arbitral score): the
    deal's scores at that table are compared again as the table entered them. The
    history keeps what was removed, by whom and when; refused once the event is
    closed (its final ranking is frozen)."""
    services._require(actor, decision.round_table)
    with transaction.atomic():
        table = services._lock_table(decision.round_table)
        tournament = table.round.tournament
        if not tournament.is_duplicate:
            raise DuplicateEventError("not_duplicate")
        services._refuse_closed(tournament)
        decision = DealDecision.objects.filter(pk=decision.pk, round_table=table).first()
        if decision is None:
            raise DuplicateEventError("decision_gone")
        before = {
            "table": services.table_label(table.round.number, table.number),
            "deal": decision.deal,
            "decision": decision.kind,
            "reason": decision.reason,
        }
        if decision.kind == DealDecision.Kind.ARBITRAL:
            seat_entry = Entry.objects.get(tournament=tournament, number=table.seats[decision.seat])
            before.update(
                seat=SEATS[decision.seat], entry=str(seat_entry), score=str(decision.score)
            )
        decision.delete()
        audit.record(
            tournament.club_id,
            actor,
            audit.Action.DECISION_REMOVED,
            tournament,
            before=before,
        )
