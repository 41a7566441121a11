"""A duplicate table's deals (``DUPLICATE.md`` §1): which deals of the event a table
plays in a round (the set the movement gives it), and the dealer of each, fixed by
the deal. Read by the tournament's services when a table enters a deal, and by the
duplicate pages; no write here."""

from scoresheet.handmap import Table
from tarot.duplicate import SEATS, dealer_seat
from tournaments.models import RoundTable


def table_deals(table) -> list[int]:
    """The event's deal numbers of the set the table plays this round."""
    k = table.round.tournament.deals_per_round
    s = table.set_number
    return list(range((s - 1) * k + 1, s * k + 1))


def deal_of_hand(table, hand_number: int) -> int:
    """The event's deal a hand of the table's sheet is: its place in the set."""
    return (table.set_number - 1) * table.round.tournament.deals_per_round + hand_number


def dealer_of(table, hand_number: int, names) -> str:
    return names[dealer_seat(deal_of_hand(table, hand_number))]


def prepare_hand(table, data: dict, hand_number=None) -> tuple[str | None, dict]:
    """``(refusal code or None, data)``: a duplicate table enters only the deals of its
    set (``set_complete`` once they are all entered), the dealer fixed by the deal
    whoever the form chose. ``hand_number``: a correction of that hand; None: the next
    deal. Called under the table's lock."""
    if table.set_number is None:
        return "no_set", data
    wanted = table.round.tournament.deals_per_round
    names = Table.of(table.sheet).names
    if hand_number is None:
        played = table.sheet.hands.live().count()
        if played >= wanted:
            return "set_complete", data
        hand_number = played + 1
    if hand_number > wanted:
        return "set_complete", data
    return None, {**data, "dealer": dealer_of(table, hand_number, names)}


def fix_dealer(form, table, hand=None) -> None:
    """The hand form at a duplicate table: the dealer is the deal's (§1), not asked.
    The form's dealer field is preselected and disabled (Django then ignores whatever
    is posted for it), and ``form.duplicate_deal`` says which deal of the étui the form
    enters and who deals it, for the page. ``hand``: a correction of that hand; None:
    the next deal (as ``prepare_hand`` numbers it). Nothing once the set is entered."""
    if table.set_number is None or "dealer" not in form.fields:
        return
    k = table.round.tournament.deals_per_round
    if hand is not None:
        hand_number = hand.number
    else:
        hand_number = table.sheet.hands.live().count() + 1
    if not 1 <= hand_number <= k:
        return
    deal = deal_of_hand(table, hand_number)
    index = dealer_seat(deal)
    form.initial["dealer"] = str(index)
    form.fields["dealer"].disabled = True
    form.fields["dealer"].required = True
    form.duplicate_deal = {
        "deal": deal,
        "set": table.set_number,
        "seat": SEATS[index],
        "name": form.names[index],
    }


def next_deal(table, played: int) -> dict | None:
    """What a duplicate table's page says: the set, the next deal to play and its
    dealer's seat (None once the set is played), and where the étui goes after."""
    if table.set_number is None:
        return None
    deals = table_deals(table)
    following = None
    later = (
        RoundTable.objects.filter(
            round__tournament_id=table.round.tournament_id,
            round__number=table.round.number + 1,
            set_number=table.set_number,
        )
        .values_list("number", flat=True)
        .first()
    )
    if later is not None:
        following = later
    upcoming = deals[played] if played < len(deals) else None
    return {
        "set": table.set_number,
        "deals": deals,
        "next": upcoming,
        "dealer": SEATS[dealer_seat(upcoming)] if upcoming else None,
        "pass_to": following,
    }
