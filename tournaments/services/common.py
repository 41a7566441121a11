"""What every tournament service shares: the error catalogue (``TournamentError``), the
limits of a tournament's settings, the organiser's check (``_require``), the locks, and
the audit entry of an action on a table."""

from decimal import Decimal

from django.utils.translation import gettext_lazy as _lazy

from clubs import audit, refusals
from clubs.models import Club
from clubs.permissions import require
from core.errors import ServiceError
from tournaments.models import (
    Entry,
    Round,
    RoundTable,
    Tournament,
)

TEAM_SIZES = (2, 4)


#: The players a tournament seats at a table: its rules must play each of these.
TABLE_SIZES = (3, 4, 5)


MAX_ROUNDS = 12


MAX_DEALS = 30


#: The refusals of this module, by code (``core.errors``); a code worded several ways has
#: its other wordings under ``code.variant`` (raised with ``wording=``). ``forbidden`` is
#: worded by ``clubs.permissions``; the ledger's and the engine's refusals come through
#: with their own messages.
error_messages = {
    "name_required": _lazy("A tournament needs a name."),
    "already_linked": _lazy("This entry is already linked, or its licence changed."),
    "rules_two_players": _lazy("A tournament seats 3 to 5 players a table."),
    "rounds_range": _lazy("A tournament has 1 to %(n)d rounds."),
    "round_length": _lazy("Give either a number of deals or a time per round."),
    "deals_range": _lazy("A round has 1 to %(n)d deals."),
    "five_tables": _lazy("Choose how tables of five play."),
    "team_size": _lazy("A team has 2 or 4 players."),
    "confirm_by": _lazy("Choose how a table's sheet is confirmed."),
    "draw_rule": _lazy("Choose what the draw puts first."),
    "no_round_left": _lazy("Every round has started: nobody can join any more."),
    "name_required.guest_needs_name": _lazy("A guest needs a name."),
    "name_too_long": _lazy("This name is too long."),
    "nobody": _lazy("Paste one name a line."),
    "tournament_closed": _lazy(
        "The tournament is closed: its final ranking is frozen and nothing can change."
    ),
    "table_unfinished": _lazy("Table %(table)d has played %(played)d of its %(wanted)d deals."),
    "bilan_not_zero": _lazy("The scores of this sheet do not add up to zero: check it."),
    "seat_unnamed": _lazy("Every seat of the table must be named."),
    "round_closed": _lazy("This round is closed: it takes no more entries."),
    "round_not_started": _lazy("This round has not started yet."),
    "table_submitted": _lazy("This table's sheet is handed in: ask the organiser to change it."),
    "unknown_hand": _lazy("This deal is not of this table."),
    "bad_score": _lazy("Type a score for every seat."),
    "tournament_started": _lazy("A tournament under way can no longer be edited."),
    "teams_registered": _lazy("Teams are registered: their size can no longer change."),
    "already_withdrawn": _lazy("This player has already withdrawn."),
    "check_not_zero": _lazy("The scores do not add up to zero: check them."),
    "reason_required": _lazy("Say why: the article of the arbitration code, or the club's rule."),
    "no_points": _lazy("An adjustment is a number of points, not 0."),
    "not_playing": _lazy("This player does not play in that round."),
    "round_not_played": _lazy("Only a round under way or closed takes an adjustment."),
    "no_round_left.withdraw_nothing": _lazy(
        "Every round has started: there is nothing to withdraw from."
    ),
    "round_started": _lazy("This round has started: its seats stay."),
    "earlier_round": _lazy("Draw the rounds before this one first."),
    "no_round_left.withdraw": _lazy("Every round has started."),
    "too_few_players": _lazy("A draw needs at least 3 players."),
    "seats_invalid": _lazy("Each seat is a different entry of the tournament."),
    "round_not_drawn": _lazy("Only a drawn round not started can change its seats."),
    "same_player": _lazy("Choose two different players."),
    "earlier_round.close_rounds_before_one": _lazy("Close the rounds before this one first."),
    "round_not_started.only_round_under_way": _lazy("Only a round under way can close."),
    "not_a_team_event": _lazy("This tournament has no teams."),
    "name_required.team_needs_name": _lazy("A team needs a name."),
    "team_size.count": _lazy("A team of this tournament has %(n)d players."),
    "team_exists": _lazy("A team of this name is already entered."),
    "bad_score.type_score_as_number": _lazy("Type every score as a number, e.g. -42 or 21.5."),
    "bad_score.score_whole_or_half": _lazy("A score is a whole or a half point."),
    "already_confirmed": _lazy("This table's sheet is confirmed."),
    "disputed": _lazy("The two entries differ: the organiser is checking this table."),
    "not_submitted": _lazy("The table has not handed its sheet in yet."),
    "same_person": _lazy("The second entry must be made by somebody else than the first."),
    "already_confirmed.confirmed_sheet_changes_only": _lazy(
        "A confirmed sheet changes only through the organiser's correction."
    ),
    "rounds_open": _lazy("Close every round first."),
    "tables_unconfirmed": _lazy("Confirm every sheet first: %(tables)s."),
    "already_entered": _lazy("%(name)s is already entered."),
    "too_many_players": _lazy("A tournament takes at most %(n)s players."),
    "deals_complete": _lazy("Every deal of the round is entered (%(n)s): hand the sheet in."),
    "not_seated": _lazy("Both players must be seated in this round."),
    "player_not_in_club": _lazy("Every player must be of this club."),
    # a duplicate event (tournaments.duplicate.services has the rest of its refusals)
    "set_complete": _lazy("This table has entered every deal of its set."),
    "no_set": _lazy("This table has no set in this round."),
    "duplicate_no_delete": _lazy(
        "A duplicate table's deal is corrected, not deleted: its place in the étui "
        "says which deal it is."
    ),
    "duplicate_started": _lazy(
        "A duplicate event's players are fixed once a round has started: the arbitre "
        "gives arbitral scores instead."
    ),
    "duplicate_movement": _lazy(
        "A duplicate event is seated by its movement: draw the movement instead."
    ),
    "table_has_deals": _lazy(
        "This table has entered deals: confirm or correct its sheet instead of typing totals."
    ),
    "no_totals": _lazy("This table has no totals entered by the organiser to cancel."),
    "table_held": _lazy(
        "Another phone enters this table's deals. To enter them here, take the table "
        "over with the organiser's code."
    ),
    "takeover_code": _lazy("This is not the organiser's code: ask the organiser."),
}


class TournamentError(ServiceError):
    """A write to a tournament refused (``code``, ``message``, ``field``)."""

    error_messages = error_messages
    #: a tournament's rules the engine refuses, in the page's language
    scoring_wording = staticmethod(refusals.message_of)


def _require(actor, of) -> None:
    """The organiser's verbs: a manager of the club of ``of`` (a club, a tournament, an
    entry, a round or a table) or ``forbidden``; a table's link acts without a user
    (``actor=None``: its view checked the token), and nothing is read for it."""
    if actor is None:
        return
    if isinstance(of, RoundTable):
        club_id = of.round.tournament.club_id
    elif isinstance(of, (Entry, Round)):
        club_id = of.tournament.club_id
    elif isinstance(of, Tournament):
        club_id = of.club_id
    else:
        club_id = of.pk
    require(actor, club_id, "manage", TournamentError)


def _actor(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _audited(value):
    """A setting as the audit entry's JSON keeps it."""
    plain = value is None or isinstance(value, bool | int | str | dict | list)
    return value if plain else str(value)


def _lock(tournament: Tournament) -> Tournament:
    """Serialise the writes of one tournament (numbers, draws, rounds)."""
    return (
        Tournament.objects.select_for_update()
        .select_related("club", "season")
        .get(pk=tournament.pk)
    )


def _lock_club(club) -> None:
    """Serialise the club's tournament creations (each picks a free season name)."""
    Club.objects.select_for_update().filter(pk=club.pk).values_list("pk", flat=True).first()


def _rounds(tournament) -> list[Round]:
    return list(tournament.round_set.order_by("number"))


def _first_open(rounds) -> Round | None:
    return next((r for r in rounds if r.is_open), None)


def _refuse_closed(tournament) -> None:
    if tournament.state == Tournament.State.CLOSED:
        raise TournamentError("tournament_closed")


def _refuse_duplicate(tournament) -> None:
    if tournament.is_duplicate:
        raise TournamentError("duplicate_movement")


def _lock_table(table: RoundTable) -> RoundTable:
    """Lock one table (its results, state and link) for the length of the transaction."""
    return (
        RoundTable.objects.select_for_update(of=("self",))
        .select_related("round__tournament__club", "sheet")
        .get(pk=table.pk)
    )


def table_label(round_number, table_number) -> str:
    """The sheet's table label: "R2 T7" (round 2, table 7)."""
    return f"R{round_number} T{table_number}"


def _text(value) -> str:
    value = Decimal(value)
    return str(value.quantize(Decimal(1)) if value == value.to_integral_value() else value)


def _table_audit(table: RoundTable, by, action, totals=None) -> None:
    """The audit entry of the organiser's action on a table (its tournament's)."""
    after = {"table": table_label(table.round.number, table.number)}
    if totals is not None:
        after["totals"] = totals
    audit.record(table.round.tournament.club_id, by, action, table.round.tournament, after=after)
