"""A club's home page: its seasons with their house rules, its latest sheets."""

from django.shortcuts import render

from clubs.permissions import can, club_view
from scoresheet.forms_sheets import current_season
from scoresheet.rules_forms import describe_rules
from scoresheet.tables import sheet_rows

RECENT_SHEETS = 8


@club_view("read")
def club_detail(request, slug):
    club = request.club
    seasons = list(club.seasons.order_by("-start_date", "-pk"))
    current = current_season(club, seasons=seasons)
    for season in seasons:
        season.rules_text = describe_rules(season.rules)
        season.is_current = season == current
    sheets = list(sheet_rows(club).order_by("-date", "-pk")[:RECENT_SHEETS])
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "seasons": seasons,
            "sheets": sheets,
            "may_score": can(request.user, club, "score"),
            "may_manage": can(request.user, club, "manage"),
        },
    )
