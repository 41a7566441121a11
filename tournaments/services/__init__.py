"""Every write to a tournament: verb functions, one transaction each, one error type.

Each raises ``TournamentError`` (a ``ServiceError`` with a machine-readable
``code``) and writes nothing when it refuses. ``actor`` is the user acting,
authorised the one way (``clubs.permissions.require``): a manager of the club
(``forbidden`` otherwise); ``None`` for a table's private link (its view checked
the token) and for code without a user. The draw itself is
``tournaments.draw`` (pure Python); the table sheets are opened through
``scoresheet.services.create_sheet``, so hands are entered, corrected and
deleted on them as on any club sheet.

The life of a round: *planned* (no tables) → *drawn* (tables; the organiser may
swap two players or draw again) → *started* (each table has its sheet; the
seats are fixed) → *closed* (every table has played its deals). Rounds are
drawn and started in order. A late registration joins the first round not yet
started, a withdrawal leaves after the last round started; either clears the
draw of the rounds not started that it changes (they must be drawn again).

The verbs live by family, all of them importable from here (``services.start_round``):
``tournament`` (create, edit, close), ``entries`` (registration, guests, teams,
withdrawals), ``rounds`` (the draw, start, close), ``table_link`` (a table's deals and
phone through its private link), ``confirmation`` (handing in, the second entry, the
organiser's confirmation and correction), ``scores`` (the organiser's totals, a
penalty); ``common`` holds the error catalogue and the checks they share.
"""

from tournaments.models import deals_for_table
from tournaments.services.common import (
    MAX_DEALS,
    MAX_ROUNDS,
    TABLE_SIZES,
    TEAM_SIZES,
    TournamentError,
    _actor,
    _lock,
    _lock_table,
    _refuse_closed,
    _require,
    _rounds,
    error_messages,
    table_label,
)
from tournaments.services.confirmation import (
    check_table,
    confirm_table,
    correct_table_hand,
    differences,
    last_result,
    parse_scores,
    refuse_unbalanced,
    reopen_table,
    snapshot,
    submit_table,
)
from tournaments.services.entries import (
    LINE_SPLIT,
    link_entry,
    parse_bulk,
    register,
    register_bulk,
    register_team,
    unnamed,
    withdraw_player,
    withdrawal_effect,
)
from tournaments.services.rounds import (
    SCHEDULE_EFFORT,
    close_round,
    draw_round,
    draw_schedule,
    history,
    seat_round,
    start_round,
    swap_players,
    teammates,
)
from tournaments.services.scores import (
    adjust_score,
    cancel_table_totals,
    enter_table_totals,
    refuse_unbalanced_totals,
)
from tournaments.services.table_link import (
    claim_table,
    delete_table_hand,
    edit_table_hand,
    holds,
    record_table_hand,
    report_device,
    revoke_link,
    take_over_table,
    wanted_deals,
    writable,
)
from tournaments.services.tournament import (
    _season_name,
    close_tournament,
    create_tournament,
    open_tournament,
    resettle,
    update_tournament,
)

__all__ = [
    "deals_for_table",
    "error_messages",
    "MAX_DEALS",
    "MAX_ROUNDS",
    "table_label",
    "TABLE_SIZES",
    "TEAM_SIZES",
    "TournamentError",
    "_actor",
    "_lock",
    "_lock_table",
    "_refuse_closed",
    "_require",
    "_rounds",
    "close_tournament",
    "create_tournament",
    "update_tournament",
    "open_tournament",
    "resettle",
    "_season_name",
    "LINE_SPLIT",
    "link_entry",
    "parse_bulk",
    "register",
    "register_bulk",
    "register_team",
    "unnamed",
    "withdraw_player",
    "withdrawal_effect",
    "close_round",
    "draw_round",
    "draw_schedule",
    "history",
    "SCHEDULE_EFFORT",
    "seat_round",
    "start_round",
    "swap_players",
    "teammates",
    "claim_table",
    "delete_table_hand",
    "edit_table_hand",
    "holds",
    "record_table_hand",
    "report_device",
    "revoke_link",
    "take_over_table",
    "wanted_deals",
    "writable",
    "check_table",
    "confirm_table",
    "correct_table_hand",
    "differences",
    "last_result",
    "parse_scores",
    "refuse_unbalanced",
    "reopen_table",
    "snapshot",
    "submit_table",
    "adjust_score",
    "cancel_table_totals",
    "enter_table_totals",
    "refuse_unbalanced_totals",
]
