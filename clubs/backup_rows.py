"""The club's rows of this app in a club's backup (``core.backup_rows``), registered in
``ClubsConfig.ready()``; and the check of a ruleset the apps above reuse for theirs."""

from clubs.models import (
    ApiToken,
    AuditEntry,
    Club,
    Invitation,
    Membership,
    Person,
    Player,
    Season,
)
from clubs.ranking_rule import RankingError, parse_ranking
from clubs.refusals import message_of
from core.backup_rows import Refused, Registration, Rows, register
from tarot import ScoringError
from tarot.jsonformat import parse_rules


def check_rules(value_of) -> None:
    """A row's ``rules`` read by the engine (a season's, a sheet's, a tournament's)."""
    try:
        parse_rules(value_of("rules"))
    except ScoringError as error:
        raise Refused("rules", message_of(error)) from None


def _check_season(value_of) -> None:
    check_rules(value_of)
    try:
        parse_ranking(value_of("ranking"))
    except RankingError as error:
        raise Refused("rules", error.message) from None


def register_rows() -> None:
    register(
        Registration(
            app="clubs",
            rows=(
                Rows(Club, "pk"),
                # a player merged into a later one names a row after it
                Rows(Player, "club", person="person_id", login=("user_id", "link")),
                Rows(Season, "club", check=_check_season),
                Rows(Membership, "club", login=("user_id", "row")),
                Rows(AuditEntry, "club"),
                Rows(Invitation, "club"),
            ),
            # a person (a licence) is linked to the players of several clubs: carried
            # beside the rows (name, licence, série; never their login)
            shared=(Person,),
            # personal API tokens are a login's credentials, not the club's data
            left_out=(ApiToken,),
        )
    )
