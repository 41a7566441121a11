"""Whose names a reader of the competition pages may see: the league pages' rule
(``leagues.queries``), applied to the squads and the line-ups.

A team's players are named when the reader may read the team's club (a public club:
anyone; a members-only club: its members), when the club lets the league name its
players (``LeagueClub.names_players``), or player by player when the player's person
is named by the one rule (``clubs.visibility``: a club of theirs the reader may read,
or the reader themself). Otherwise the pages, the screen and the exports show "A player of a
members-only club" (``HIDDEN``) and no name.

``Names`` answers for one reader and one league; it reads each club's link once.
"""

from django.utils.translation import gettext_lazy as _

from clubs.permissions import can as can_club
from leagues.models import LeagueClub
from leagues.queries import named_persons

#: what a hidden player is called (the league ranking's words)
HIDDEN = _("A player of a members-only club")


class Names:
    """Who of the league's clubs' players ``user`` may see named (``None``: anybody,
    an anonymous reader)."""

    def __init__(self, league, user=None):
        self.league = league
        self.user = user
        self._clubs = {}
        self._naming = None

    def club_named(self, club) -> bool:
        """Every player of ``club`` is named to this reader."""
        if club.pk not in self._clubs:
            self._clubs[club.pk] = (
                club.is_public
                or (self.user is not None and can_club(self.user, club, "read"))
                or club.pk in self.naming_clubs()
            )
        return self._clubs[club.pk]

    def naming_clubs(self) -> set[int]:
        """The league's member clubs that let it name their players (read once)."""
        if self._naming is None:
            self._naming = set(
                LeagueClub.objects.filter(
                    league=self.league, accepted_at__isnull=False, names_players=True
                ).values_list("club_id", flat=True)
            )
        return self._naming

    def named(self, club, players) -> set[int]:
        """The ids of ``players`` (of ``club``) this reader may see named."""
        players = list(players)
        if self.club_named(club):
            return {p.pk for p in players}
        persons = {p.person_id for p in players if p.person_id}
        if not persons:
            return set()
        named = named_persons(self.league, persons, self.user)
        return {p.pk for p in players if p.person_id in named}

    def shown(self, club, players) -> list:
        """``players`` with ``shown``: the name, or ``None`` where it is hidden."""
        players = list(players)
        named = self.named(club, players)
        for player in players:
            player.shown = player.name if player.pk in named else None
        return players

    def label(self, player) -> str:
        """The name as the exports write it: the name, or ``HIDDEN``."""
        shown = getattr(player, "shown", player.name)
        return shown if shown is not None else str(HIDDEN)


def hide_sheet(sheet, names: Names):
    """A match sheet (``queries.MatchSheet``) with each seat's player ``shown`` or not."""
    match = sheet.match
    names.shown(match.home.club, [s.player for s in sheet.home_line_up])
    names.shown(match.away.club, [s.player for s in sheet.away_line_up])
    return sheet
