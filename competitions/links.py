"""A team captain's private link to a match: ``/captain/<token>/``, no account needed.

The mechanism of the tournaments' table links (``tournaments.tokens``: a random salt
and a hash of the token kept, the token derived from the salt and the site's secret),
under a key of its own so a table's token never opens a captain's page and back. Each
team of a match has one link (``CaptainLink``), made when first asked for; the league
manager sees, copies and revokes them on the match's page (``services.revoke_captain_link``).
"""

from django.urls import reverse

from competitions.models import CaptainLink
from competitions.services import CAPTAIN_LINK_KEY as KEY
from tournaments import tokens


def link_of(match, team) -> CaptainLink:
    """The team's link to the match, made (with its salt) when first asked for."""
    link = CaptainLink.objects.filter(match=match, team=team).first()
    if link is None:
        link = CaptainLink(match=match, team=team)
        tokens.issue(link, KEY)
        link, _made = CaptainLink.objects.get_or_create(
            match=match,
            team=team,
            defaults={"token_salt": link.token_salt, "token_hash": link.token_hash},
        )
    return link


def links_of(match) -> list[CaptainLink]:
    """Both captains' links, home first."""
    return [link_of(match, match.home), link_of(match, match.away)]


def token(link: CaptainLink) -> str:
    return tokens.token_of(link.token_salt, KEY)


def url(link: CaptainLink, request=None) -> str:
    path = reverse("captain:page", args=[token(link)])
    return request.build_absolute_uri(path) if request is not None else path


def find(raw: str) -> CaptainLink | None:
    """The link showing ``raw``, or None (a wrong or revoked token)."""
    return tokens.find_in(
        CaptainLink.objects.select_related(
            "match__competition__league", "match__home__club", "match__away__club", "team"
        ),
        raw,
    )
