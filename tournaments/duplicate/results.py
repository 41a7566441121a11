"""What a duplicate event's pages read (``DUPLICATE.md`` §3–§4): the results stored at
the tables compared seat by seat, the barometer, the travellers, each player's
sheet, the séries and the teams, and the event as ``score_duplicate``'s JSON.

Everything is read from stored rows — each deal's marques are the ledger's score
rows (one per seat, written with the hand), the arbitre's decisions are
``DealDecision`` rows — and compared by the engine (``tarot.duplicate.compare``);
nothing re-scores a hand. Four queries whatever the size of the event: the
tables, the score rows of their sheets, the decisions, the entries.

A table's deals count once the table has handed its sheet in (submitted, in
dispute or confirmed): the barometer moves as each table comes in, and it is
*provisional* while a round is under way or a counted table is not confirmed: after
a round closed with its tables confirmed it is the standing after that round.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from types import SimpleNamespace

from scoresheet.handmap import Table, hand_data
from scoresheet.models import Hand, ScoreRow
from tarot.cards import deal_cards
from tarot.duplicate import NEUTRAL, SEATS, TableDeal, compare, dealer_seat, json_score
from tournaments.duplicate.event_ranking import ranking, series_rankings, team_ranking
from tournaments.models import DealDecision, Round, RoundTable, Tournament

COUNTED = (
    RoundTable.State.SUBMITTED,
    RoundTable.State.DISPUTED,
    RoundTable.State.CONFIRMED,
)


@dataclass
class Event:
    """An event's stored results: the comparison, and what the pages show beside it."""

    tournament: Tournament
    entries: dict  # number → Entry
    tables: list  # the counted RoundTables (with ``deals``: hand number → hand facts)
    results: list  # TableDeal per counted table and deal, players as entry numbers
    comparison: object
    provisional: bool
    hands: dict = field(default_factory=dict)  # (round, table, hand number) → Hand values
    decisions: list = field(default_factory=list)
    #: (deal, table number) → the RoundTable that played it (a table number recurs
    #: every round; a set meets each table at most once)
    where: dict = field(default_factory=dict)

    @property
    def method(self) -> str:
        return self.tournament.method


def load(tournament, *, hands=False, until_round=None) -> Event:
    """The event's results as stored now (``until_round``: those of the rounds up to it).
    ``hands``: also each deal's contract, taker and points, for the travellers."""
    entries = {e.number: e for e in tournament.entries.all()}
    tables = list(
        RoundTable.objects.filter(round__tournament=tournament)
        .exclude(set_number=None)
        .select_related("round")
        .order_by("round__number", "number")
    )
    rounds = list(Round.objects.filter(tournament=tournament).values_list("number", "state"))
    rounds_open = any(
        state == Round.State.STARTED
        for number, state in rounds
        if until_round is None or number <= until_round
    )
    counted = [
        t
        for t in tables
        if t.state in COUNTED and (until_round is None or t.round.number <= until_round)
    ]
    k = tournament.deals_per_round
    by_sheet = {t.sheet_id: t for t in counted if t.sheet_id}
    marques = defaultdict(lambda: [None] * 4)
    for sheet_id, number, position, score in ScoreRow.objects.filter(
        sheet_id__in=list(by_sheet), hand__is_deleted=False
    ).values_list("sheet_id", "hand__number", "position", "score"):
        # whole marques as ints (compared faster), half points as fractions
        whole = score == score.to_integral_value()
        marques[(sheet_id, number)][position] = int(score) if whole else Fraction(score)
    facts = {}
    if hands:
        for row in Hand.objects.filter(sheet_id__in=list(by_sheet), is_deleted=False).values(
            "sheet_id", "number", "contract", "taker_id", "points", "bouts"
        ):
            facts[(row["sheet_id"], row["number"])] = row
    decisions = list(
        DealDecision.objects.filter(round_table__in=[t.pk for t in counted]).select_related("by")
    )
    cancelled = {(d.round_table_id, d.deal) for d in decisions if d.kind == "cancelled"}
    arbitral = defaultdict(list)
    for d in decisions:
        if d.kind == "arbitral":
            arbitral[(d.round_table_id, d.deal)].append((d.seat, Fraction(d.score)))
    results, where = [], {}
    for table in counted:
        base = (table.set_number - 1) * k
        table.deals = {}
        for hand_number in range(1, k + 1):
            deal = base + hand_number
            key = (table.sheet_id, hand_number)
            if (table.pk, deal) in cancelled:
                values = None
            elif key in marques and None not in marques[key]:
                values = tuple(marques[key])
            else:
                continue  # not entered (a handed-in table has them all; safety)
            table.deals[hand_number] = facts.get(key)
            where[(deal, table.number)] = table
            results.append(
                TableDeal(
                    deal,
                    table.number,
                    tuple(table.seats),
                    values,
                    tuple(sorted(arbitral.get((table.pk, deal), ()))),
                )
            )
    comparison = compare(results, tournament.method)
    provisional = rounds_open or any(t.state != RoundTable.State.CONFIRMED for t in counted)
    return Event(
        tournament, entries, counted, results, comparison, provisional, facts, decisions, where
    )


def labels(entries: dict) -> dict:
    """Each entry's name for the event's JSON, made unique with its number when two
    entries share a name."""
    seen = defaultdict(int)
    for entry in entries.values():
        seen[entry.name] += 1
    return {n: (e.name if seen[e.name] == 1 else f"{e.name} ({n})") for n, e in entries.items()}


def barometer(event: Event) -> list[dict]:
    """The ranking (§4): rank, entry, score (Fraction), deals; ties by number."""
    rows = ranking(event.comparison.totals, event.comparison.deals)
    rows.sort(key=lambda row: (row["rank"], row["player"]))
    out = []
    for row in rows:
        entry = event.entries.get(row["player"])
        out.append({**row, "entry": entry, "series": entry.series if entry else ""})
    return out


def by_series(event: Event, rows) -> dict:
    series = {n: e.series for n, e in event.entries.items() if e.series}
    return series_rankings(rows, series)


def teams(event: Event) -> list[dict]:
    members = defaultdict(list)
    names = {}
    for entry in event.entries.values():
        if entry.team_id:
            members[entry.team_id].append(entry.number)
    if not members:
        return []
    for team in event.tournament.teams.all():
        names[team.pk] = team.name
    return team_ranking(
        event.comparison.totals,
        {names[pk]: sorted(numbers) for pk, numbers in members.items()},
        event.method,
    )


def travellers(event: Event) -> list[dict]:
    """Per deal: every table's result (seats, marques, each seat's score) in table order."""
    scores = {(s.deal, s.table, s.seat): s for s in event.comparison.seats}
    number_of = {e.player_id: n for n, e in event.entries.items()}
    entries = event.entries
    by_deal = defaultdict(list)
    for result in event.results:
        table = event.where[(result.deal, result.table)]
        hand_number = result.deal - (table.set_number - 1) * event.tournament.deals_per_round
        facts = table.deals.get(hand_number)
        taker = None
        if facts and facts["taker_id"]:
            number = number_of.get(facts["taker_id"])
            if number in result.players:
                taker = SEATS[result.players.index(number)]
        arbitral = dict(result.arbitral)
        by_deal[result.deal].append(
            {
                "table": result.table,
                "round": table.round.number,
                "cancelled": result.marques is None,
                "contract": facts["contract"] if facts else None,
                "taker": taker,
                "points": facts["points"] if facts else None,
                "bouts": facts["bouts"] if facts else None,
                "seats": [
                    {
                        "seat": seat,
                        "entry": entries.get(result.players[i]),
                        "marque": None if result.marques is None else result.marques[i],
                        "score": scores[(result.deal, result.table, seat)].score,
                        "arbitral": i in arbitral,
                    }
                    for i, seat in enumerate(SEATS)
                ],
            }
        )
    return [
        {"deal": deal, "dealer": SEATS[dealer_seat(deal)], "tables": by_deal[deal]}
        for deal in sorted(by_deal)
    ]


def player_sheet(event: Event, number: int) -> list[dict]:
    """An entry's deals: table, orientation, partners and opponents, marque, score."""
    out = []
    for seat in event.comparison.seats:
        if seat.player != number:
            continue
        table = event.where[(seat.deal, seat.table)]
        index = SEATS.index(seat.seat)
        others = [
            {"seat": SEATS[i], "entry": event.entries.get(n)}
            for i, n in enumerate(table.seats)
            if i != index
        ]
        out.append(
            {
                "deal": seat.deal,
                "round": table.round.number,
                "table": seat.table,
                "seat": seat.seat,
                "others": others,
                "marque": seat.marque,
                "score": seat.score,
            }
        )
    return out


def neutral(event: Event) -> Fraction:
    return NEUTRAL[event.method]


# ---------------------------------------------------------------- the event as JSON


def hand_record(tournament, deal: int) -> dict:
    """The prepared deal's cards (``tarot.cards``), as the hand records publish them."""
    return deal_cards(deal, tournament.draw_seed).as_dict()


def event_json(event: Event, licences: dict | None = None) -> dict:
    """The event in ``score_duplicate``'s input (``DUPLICATE.md`` §5): every counted
    table's deal with its seats and hand (HAND_FORMAT.md without players, dealer and
    rules), cancelled deals and arbitral scores, the séries and the teams; plus the
    players' licence numbers where they have one (``licences``: by entry number, those
    the reader may see, ``tournaments.queries.licences``; else those typed at
    registration)."""
    names = labels(event.entries)
    hands = _hand_dicts(event)
    results = []
    for result in event.results:
        table = event.where[(result.deal, result.table)]
        item = {
            "deal": result.deal,
            "table": result.table,
            "seats": {seat: names[n] for seat, n in zip(SEATS, result.players)},
        }
        if result.marques is None:
            item["cancelled"] = True
        else:
            item["hand"] = hands[(table.sheet_id, _hand_number(event, table, result.deal))]
        if result.arbitral:
            item["arbitral"] = {SEATS[i]: json_score(v) for i, v in result.arbitral}
        results.append(item)
    data = {
        "rules": event.tournament.rules,
        "method": event.method,
        "results": results,
    }
    series = {names[n]: e.series for n, e in event.entries.items() if e.series}
    if series:
        data["series"] = series
    team_rows = defaultdict(list)
    team_names = {t.pk: t.name for t in event.tournament.teams.all()}
    for n, e in event.entries.items():
        if e.team_id:
            team_rows[team_names[e.team_id]].append(names[n])
    if team_rows:
        data["teams"] = dict(team_rows)
    if licences is None:
        licences = {n: e.licence for n, e in event.entries.items() if e.licence}
    licences = {names[n]: licences[n] for n in event.entries if licences.get(n)}
    if licences:
        data["licences"] = licences
    return data


def _hand_number(event, table, deal) -> int:
    return deal - (table.set_number - 1) * event.tournament.deals_per_round


def _hand_dicts(event) -> dict:
    """Each counted hand in HAND_FORMAT.md (``scoresheet.handmap.hand_data``) with the
    entries' names, without its players, dealer and rules (the event gives them)."""
    names = labels(event.entries)
    players = {e.player_id: SimpleNamespace(name=names[n]) for n, e in event.entries.items()}
    seating = Table((), {}, players, {})
    out = {}
    sheets = [t.sheet_id for t in event.tables]
    for hand in Hand.objects.filter(sheet_id__in=sheets, is_deleted=False):
        data = hand_data(hand, seating)
        for key in ("players", "dealer", "rules", "number"):
            data.pop(key, None)
        out[(hand.sheet_id, hand.number)] = data
    return out
