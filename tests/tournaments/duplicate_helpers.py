"""Playing a duplicate event through the services: a deterministic hand for each
table's deal, every table handed in and confirmed by a second entry."""

import datetime

from scoresheet.models import Hand
from tournaments import services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import RoundTable

DATE = datetime.date(2026, 6, 6)
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


def hand_for(table, i, names):
    """Deal ``i`` (1-based) of a table's set: the taker and points vary with the table and
    the deal, so the same deal has different results at different tables."""
    deal = (table.set_number - 1) * table.round.tournament.deals_per_round + i
    if (deal + table.number) % 7 == 0:
        return {"taker": None}
    return {
        "taker": names[(deal + table.number) % 4],
        "contract": CONTRACTS[(deal * 3 + table.number) % 4 if deal % 3 else 0],
        "bouts": (deal + table.number) % 4,
        "points": 30 + (deal * 7 + table.number * 5) % 40,
    }


def enter_table(table, *, hand=hand_for):
    table = RoundTable.objects.select_related("round__tournament", "sheet").get(pk=table.pk)
    names = [s.player.name for s in table.sheet.seats.select_related("player")]
    done = Hand.objects.live().filter(sheet=table.sheet).count()
    for i in range(done + 1, table.round.tournament.deals_per_round + 1):
        services.record_table_hand(table, hand(table, i, names))


def confirm_table(table):
    """The table hands its sheet in and a second player enters the same totals."""
    services.submit_table(table, by_name="first")
    totals, _deals = services.snapshot(table)
    services.check_table(table, totals=[totals[str(n)] for n in table.seats], by_name="second")


def play_round(rnd, *, skip=(), confirm=True):
    for table in rnd.tables.order_by("number"):
        if table.number in skip:
            continue
        enter_table(table)
        if confirm:
            confirm_table(table)


def make_event(club, members, manager, *, players=20, rounds=4, deals=3, **more):
    event = duplicate_services.create_duplicate(
        club,
        name="Championnat en donnes préparées",
        date=DATE,
        rounds=rounds,
        deals_per_set=deals,
        actor=manager,
        seed=11,
        **more,
    )
    services.register(event, [("member", p) for p in members[:players]], actor=manager)
    return event
