"""What the tournament pages read: the ranking from the ledger's summaries, a round's
tables with their state, each player's route. A fixed number of queries each,
whatever the number of players.

The ranking reads ``SheetTotal`` (a player's total at one table sheet, that is
one round), which the hand services keep in step in the transaction of every
hand write; its sum over the rounds is the player's ``SeasonTotal`` too.
Equal totals share a rank (``core.ranking``: ``RANK()``, 1, 2, 2, 4), players
and teams alike; ties are listed by entry (or team) number.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection
from django.db.models import Count
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clubs.visibility import named_person_ids
from core.ranking import rank, rank_sql
from ratings import queries as ratings
from ratings import scopes
from scoresheet.formatting import format_number
from scoresheet.models import Hand, SheetTotal
from tournaments import draw
from tournaments.models import (
    Adjustment,
    Entry,
    Round,
    RoundTable,
    TableTotal,
    Team,
    deals_for_table,
)

#: The seats' letters, translated (French: N, E, S, O); the fifth seat is 5.
SEAT_LETTERS = (
    pgettext_lazy("seat", "N"),
    pgettext_lazy("seat", "E"),
    pgettext_lazy("seat", "S"),
    pgettext_lazy("seat", "W"),
    "5",
)


def _decimal(value):
    """A SUM of scores as the database returns it (SQLite: a float) as an exact Decimal."""
    if value is None or isinstance(value, Decimal):
        return value
    return Decimal(str(value))


def ranking(tournament) -> list[dict]:
    """Every entry with its score per round, total, deals played and rank (one query).

    Keys: ``number``, ``name``, ``player_id``, ``is_guest``, ``club`` (a guest's
    club, else the organising club's name), ``licence``, ``rounds`` (a score or
    None per round, in order), ``total``, ``deals``, ``rank``, ``withdrawn_after``,
    ``joined_before``, ``adjusted`` (the arbitre's adjustments summed, None
    without any; already in the rounds and the total). Highest total first, ties
    by number.

    The entries and the tournament's SheetTotals (one per player and table sheet,
    that is per round) are stacked (``UNION ALL``) and summed per player in one
    aggregate, with one conditional SUM per round (an entry who has not played
    yet has 0), then ranked by ``core.ranking.rank_sql`` (``RANK() OVER (ORDER BY
    total DESC NULLS LAST)``). Stacking rather than joining the entries to the sums
    keeps the plan one hash aggregate whatever the planner believes of the tables: on
    a tournament day their statistics lag (entries and sheets written that morning),
    and a join the planner took for one entry rescanned the sums once per entry (18
    ms instead of 2 at 200 players on PostgreSQL).
    """
    quote = connection.ops.quote_name
    rounds = range(1, tournament.rounds + 1)
    per_round = "".join(
        f", SUM(CASE WHEN f.round_number = {n} THEN f.score END) AS r{n}" for n in rounds
    )
    number = quote("number")
    # every entry column but player_id is NULL on the SheetTotal lines: MAX picks the entry's
    sql = f"""
        WITH f AS (
            SELECT e.player_id, e.{number} AS entry_number, e.name,
                   CASE WHEN e.is_guest THEN 1 ELSE 0 END AS is_guest,
                   e.guest_club, e.licence, e.withdrawn_after_round, e.joined_before_round,
                   NULL AS round_number, NULL AS score, NULL AS hands,
                   CAST(NULL AS NUMERIC) AS adjusted  -- typed for PostgreSQL's UNION
            FROM {quote(Entry._meta.db_table)} e
            WHERE e.tournament_id = %s
            UNION ALL
            SELECT st.player_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                   r.{number}, st.score, st.hands, NULL
            FROM {quote(SheetTotal._meta.db_table)} st
            JOIN {quote(RoundTable._meta.db_table)} rt ON rt.sheet_id = st.sheet_id
            JOIN {quote(Round._meta.db_table)} r ON r.id = rt.round_id
            WHERE st.season_id = %s AND r.tournament_id = %s
            UNION ALL
            SELECT e.player_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                   r.{number}, tt.score, 0, NULL
            FROM {quote(TableTotal._meta.db_table)} tt
            JOIN {quote(Entry._meta.db_table)} e ON e.id = tt.entry_id
            JOIN {quote(RoundTable._meta.db_table)} rt ON rt.id = tt.round_table_id
            JOIN {quote(Round._meta.db_table)} r ON r.id = rt.round_id
            WHERE e.tournament_id = %s
            UNION ALL
            SELECT e.player_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                   a.round_number, a.points, 0, a.points
            FROM {quote(Adjustment._meta.db_table)} a
            JOIN {quote(Entry._meta.db_table)} e ON e.id = a.entry_id
            WHERE e.tournament_id = %s
        )
        SELECT MAX(f.entry_number) AS entry_number, MAX(f.name), f.player_id,
               MAX(f.is_guest), MAX(f.guest_club), MAX(f.licence),
               MAX(f.withdrawn_after_round), MAX(f.joined_before_round),
               COALESCE(SUM(f.score), 0) AS total, COALESCE(SUM(f.hands), 0) AS deals,
               {rank_sql("COALESCE(SUM(f.score), 0)")} AS place,
               SUM(f.adjusted) AS adjusted{per_round}
        FROM f
        GROUP BY f.player_id
        HAVING COUNT(f.entry_number) > 0
        ORDER BY place, entry_number
    """
    with connection.cursor() as cursor:
        cursor.execute(
            sql, [tournament.pk, tournament.season_id, tournament.pk, tournament.pk, tournament.pk]
        )
        found = cursor.fetchall()
    club_name = tournament.club.name
    out = []
    for row in found:
        number, name, player_id, is_guest, guest_club, licence, withdrawn, joined = row[:8]
        total, deals, place, adjusted = row[8:12]
        out.append(
            {
                "number": number,
                "name": name,
                "player_id": player_id,
                "is_guest": bool(is_guest),
                "club": guest_club if is_guest else club_name,
                "licence": licence,
                "rounds": [_decimal(value) for value in row[12:]],
                "total": _decimal(total),
                "deals": int(deals),
                "rank": place,
                "withdrawn_after": withdrawn,
                "joined_before": joined,
                "adjusted": _decimal(adjusted) if adjusted is not None else None,
            }
        )
    return out


def licences(tournament, viewer) -> dict[int, str]:
    """Each entry's licence number that ``viewer`` may read, by entry number: a licensed
    person's (the person's own licence, else the one typed at registration) only when
    the person is named to the viewer (``clubs.visibility``: a hidden person keeps their
    "Player no. N" label and no licence); a guest who is no person of the site, the
    licence typed with their name. Two or three queries, whatever the entries."""
    rows = list(
        Entry.objects.filter(tournament=tournament).values_list(
            "number", "licence", "person_id", "person__licence"
        )
    )
    named = named_person_ids(viewer, {person for _n, _l, person, _h in rows})
    out = {}
    for number, typed, person, held in rows:
        if person is not None and person not in named:
            continue
        value = (held if person is not None else None) or typed
        if value:
            out[number] = value
    return out


def with_licences(rows, found: dict) -> list[dict]:
    """Ranking rows (``number`` keyed) with the licence the viewer may read, or ""."""
    for row in rows:
        row["licence"] = found.get(row["number"], "")
    return rows


# ---------------------------------------------------------------- a round


@dataclass
class TableView:
    """One table of a round, as the round page and the table cards show it."""

    table: RoundTable
    seats: list  # (seat letter, Entry) in seat order
    deals: int | None  # the deals it plays (None: timed)
    played: int = 0
    bilan: Decimal = Decimal(0)
    totals: list = field(default_factory=list)  # per seat, the round's total so far
    totals_only: bool = False  # the organiser entered the totals alone (no deals)
    forecast: list = field(default_factory=list)  # (Entry, "34 %") likeliest first

    @property
    def state(self) -> str:
        if self.totals_only:
            return "complete"
        if self.table.sheet_id is None or self.played == 0:
            return "empty"
        if self.deals is not None and self.played >= self.deals:
            return "complete"
        return "progress"

    @property
    def seat_totals(self) -> list:
        """(seat letter, Entry, total or None) in seat order."""
        totals = self.totals or [None] * len(self.seats)
        return [(letter, entry, total) for (letter, entry), total in zip(self.seats, totals)]

    @property
    def balanced(self) -> bool:
        return self.bilan == 0

    @property
    def status(self) -> str:
        """not_started, in_progress, submitted, disputed or confirmed (the round page)."""
        state = self.table.state
        if state != RoundTable.State.OPEN:
            return state
        return "not_started" if self.state == "empty" else "in_progress"

    @property
    def status_label(self):
        return STATUS_LABELS[self.status]

    @property
    def next_action(self):
        """What the organiser does next about this table."""
        if self.table.sheet_id is None:
            return ""
        return NEXT_ACTIONS[self.status]

    @property
    def blank_lines(self) -> range:
        """The feuille de marque's lines on the printed card."""
        return range(1, (self.deals or 8) + 1)


STATUS_LABELS = {
    "not_started": _("not started"),
    "in_progress": _("in progress"),
    "submitted": _("submitted"),
    "disputed": _("in dispute"),
    "confirmed": _("confirmed"),
}
NEXT_ACTIONS = {
    "not_started": _("Wait for the table's first deal."),
    "in_progress": _("Wait for the table to hand its sheet in."),
    "submitted": _("Wait for the second entry, or confirm it after checking the paper sheet."),
    "disputed": _("Resolve the differences between the two entries."),
    "confirmed": _("Nothing: the sheet is confirmed."),
}


def forecast_tables(club_id, views) -> None:
    """Each table's expected result before it plays (``TableView.forecast``): every
    seated player's chance to finish the table first over the deals it plays, from their
    ratings in the club (``ratings.queries.expected_tables``), likeliest first,
    as whole percents; a player not rated yet last, said so (no chance: never a
    table's favourite). One query for the round."""
    seated = [[entry for _letter, entry in view.seats if entry is not None] for view in views]
    chances = ratings.expected_tables(
        scopes.club(club_id),
        [[entry.player_id for entry in entries] for entries in seated],
        [view.deals for view in views],
    )
    for view, entries, table in zip(views, seated, chances):
        ordered = sorted(
            entries,
            key=lambda entry: (
                table[entry.player_id] is None,
                -(table[entry.player_id] or 0),
                entry.number,
            ),
        )
        view.forecast = [
            (
                entry,
                _("not rated yet")
                if table[entry.player_id] is None
                else _percent(table[entry.player_id]),
            )
            for entry in ordered
        ]


def _percent(chance) -> str:
    # Translators: a percentage; French puts a (no-break) space before the sign
    return gettext("%(percent)s%%") % {"percent": format_number(round(chance * 100))}


def entries_by_number(tournament) -> dict[int, Entry]:
    return {e.number: e for e in tournament.entries.all()}


def round_tables(tournament, rnd: Round, entries=None) -> list[TableView]:
    """The round's tables with their seats, deals played and bilan (four queries, three
    with ``entries`` given)."""
    entries = entries if entries is not None else entries_by_number(tournament)
    tables = list(rnd.tables.order_by("number"))
    sheet_ids = [t.sheet_id for t in tables if t.sheet_id]
    played, totals, by_organiser = {}, {}, set()
    if sheet_ids and rnd.state != Round.State.DRAWN:
        counts = (
            Hand.objects.live()
            .filter(sheet_id__in=sheet_ids)
            .values("sheet_id")
            .annotate(n=Count("pk"))
            .order_by()
        )
        played = {row["sheet_id"]: row["n"] for row in counts}
        for sheet_id, player_id, score in SheetTotal.objects.filter(
            sheet_id__in=sheet_ids
        ).values_list("sheet_id", "player_id", "score"):
            totals[sheet_id, player_id] = score
        # A table whose result the organiser entered alone: its totals, no deals.
        for sheet_id, player_id, score in TableTotal.objects.filter(
            round_table__round=rnd
        ).values_list("round_table__sheet_id", "entry__player_id", "score"):
            totals[sheet_id, player_id] = score
            by_organiser.add(sheet_id)
    views = []
    for table in tables:
        seated = [entries.get(n) for n in table.seats]
        view = TableView(
            table=table,
            seats=list(zip(SEAT_LETTERS, seated)),
            deals=deals_for_table(tournament, len(table.seats)),
            played=played.get(table.sheet_id, 0),
            totals_only=table.sheet_id in by_organiser,
        )
        view.totals = [
            totals.get((table.sheet_id, e.player_id)) if e is not None else None for e in seated
        ]
        view.bilan = sum((t for t in view.totals if t is not None), Decimal(0))
        views.append(view)
    return views


def repeated_meetings(history, tables, entries) -> list[dict]:
    """The pairs of this round who already met, with how many times (for the organiser)."""
    from tournaments.draw import repeats

    out = []
    for a, b, times in repeats(history, tables):
        out.append({"a": entries.get(a), "b": entries.get(b), "times": times})
    return out


def draw_meetings(history, tables, rounds=None) -> dict:
    """The draw up to this round: its repeated meetings and, once the draw covers all
    ``rounds`` of the tournament, the least any draw of these table sizes can have
    (``tournaments.draw.least_repeats``: a proved bound, counting the even spread when
    the draw has one); None before, where a bound of the first rounds would say
    nothing of the whole draw."""
    drawn = [*history, tables]
    players = {p for r in drawn for table in r for p in table}
    quality = draw.quality(drawn)
    least = None
    if rounds is None or len(drawn) >= rounds:
        even = quality.odd_seats_max - quality.odd_seats_min <= 1  # an evenly spread draw's least
        sizes = [[len(t) for t in r] for r in drawn]
        least = draw.least_repeats(sizes, len(players), even_spread=even)
    return {"rounds": len(drawn), "repeated": quality.repeated_meetings, "least": least}


# ---------------------------------------------------------------- routes


def routes(tournament, entries=None) -> list[dict]:
    """Each entry's table and seat in every drawn round (one query, two without
    ``entries``): ``{"entry": Entry, "stops": [(round, table, seat letter) or None]}``."""
    entries = entries if entries is not None else entries_by_number(tournament)
    where: dict[int, dict[int, tuple]] = {}
    tables = RoundTable.objects.filter(round__tournament=tournament).values_list(
        "round__number", "number", "seats", "sheet_id"
    )
    for round_number, table_number, seats, sheet_id in tables:
        for position, number in enumerate(seats):
            where.setdefault(number, {})[round_number] = (
                table_number,
                SEAT_LETTERS[position],
                sheet_id,
            )
    out = []
    for number, entry in sorted(entries.items()):
        stops = []
        for r in range(1, tournament.rounds + 1):
            stop = where.get(number, {}).get(r)
            stops.append(
                None
                if stop is None
                else {"round": r, "table": stop[0], "seat": stop[1], "sheet_id": stop[2]}
            )
        out.append({"entry": entry, "stops": stops})
    return out


# ---------------------------------------------------------------- provisional, teams


def unconfirmed(tournament) -> list[dict]:
    """The started tables not confirmed yet (one query): ``{"round", "table", "seats",
    "state"}``. While any is left the ranking is provisional."""
    rows = (
        RoundTable.objects.filter(round__tournament=tournament)
        .exclude(sheet=None)
        .exclude(state=RoundTable.State.CONFIRMED)
        .order_by("round__number", "number")
        .values_list("round__number", "number", "seats", "state")
    )
    return [{"round": r, "table": t, "seats": seats, "state": st} for r, t, seats, st in rows]


def mark_provisional(rows, pending) -> None:
    """Mark in each ranking row the rounds whose table is not confirmed yet
    (``row["pending"]``: a flag per round)."""
    where = {(p["round"], n) for p in pending for n in p["seats"]}
    for row in rows:
        row["pending"] = [(i + 1, row["number"]) in where for i in range(len(row["rounds"]))]


def team_ranking(tournament, rows=None) -> list[dict]:
    """The teams ranked on the sum of their members' totals (members who withdrew keep
    counting): ``{"rank", "number", "name", "total", "members": [rows]}``."""
    rows = rows if rows is not None else ranking(tournament)
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament)}
    if not teams:
        return []
    team_of = dict(tournament.entries.exclude(team=None).values_list("number", "team_id"))
    members: dict[int, list] = {pk: [] for pk in teams}
    for row in rows:
        team_id = team_of.get(row["number"])
        if team_id is not None:
            members[team_id].append(row)
    out = []
    for pk, team in teams.items():
        total = sum((Decimal(r["total"]) for r in members[pk]), Decimal(0))
        out.append(
            {
                "number": team.number,
                "name": team.name,
                "total": total,
                "members": sorted(members[pk], key=lambda r: r["number"]),
            }
        )
    out.sort(key=lambda t: t["number"])  # ties are listed by number
    ranked = rank(out, key=lambda t: t["total"])
    for place, team in ranked:
        team["rank"] = place
    return [team for _place, team in ranked]


def json_ranking(rows) -> list[dict]:
    """Ranking rows (players or teams) as JSON: exact scores as strings."""

    def plain(value):
        if isinstance(value, Decimal):
            return str(value)
        if isinstance(value, list):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items() if k != "player_id"}
        return value

    return [plain(row) for row in rows]
