"""A club's home page: its seasons with their house rules, its latest sheets.

It reads the ledger's sheets, so it lives above it rather than in ``clubs``; its URL keeps
the name ``clubs:detail`` (``clubhouse.urls.club_page``).
"""

from django.shortcuts import render

from clubs.models import current_season
from clubs.permissions import can, club_view
from clubs.rules_forms import describe_rules
from scoresheet.models import Sheet

RECENT_SHEETS = 8


@club_view("read")
def club_detail(request, slug):
    club = request.club
    seasons = list(club.seasons.regular().newest_first())
    current = current_season(club, seasons=seasons)
    for season in seasons:
        season.rules_text = describe_rules(season.rules)
        season.is_current = season == current
    sheets = Sheet.objects.live().filter(club=club).with_counts().order_by("-date", "-pk")
    sheets = list(sheets[:RECENT_SHEETS])
    return render(
        request,
        "clubhouse/club_detail.html",
        {
            "club": club,
            "seasons": seasons,
            "sheets": sheets,
            "may_score": can(request.user, club, "score"),
            "may_manage": can(request.user, club, "manage"),
        },
    )
