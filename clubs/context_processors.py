"""``nav_club``: the club whose tabs the main menu shows (templates/base.html).

On a club's pages (``request.club``, set by ``clubs.permissions.club_view``: sheets,
hands, standings, statistics, management) it is that club. On the member's own
account pages it is their club (the first of their clubs by name), fetched only when
the menu is drawn. Elsewhere none.
"""

from django.utils.functional import SimpleLazyObject

#: The account pages, by URL name: they belong to no club but to its member.
ACCOUNT_PAGES = frozenset({"profile", "password_change", "password_change_done"})


def nav_club(request):
    club = getattr(request, "club", None)
    if club is not None:
        return {"nav_club": club}
    match = getattr(request, "resolver_match", None)
    user = getattr(request, "user", None)
    if match is None or match.url_name not in ACCOUNT_PAGES or user is None:
        return {}
    if not user.is_authenticated:
        return {}

    def members_club():
        membership = user.memberships.select_related("club").order_by("club__name", "pk").first()
        return membership.club if membership else None

    return {"nav_club": SimpleLazyObject(members_club)}
