"""The club's history, for its managers: every change to members, roles, settings,
seasons and house rules, players, sheets and hands (``clubhouse.history``)."""

from django.shortcuts import render

from clubhouse.history import HistoryFilter, HistoryTable
from clubs.permissions import club_view
from core.paging import BoundedRequestConfig

PER_PAGE = 50


@club_view("manage")
def club_history(request, slug):
    club = request.club
    history_filter = HistoryFilter(request.GET, queryset=club.audit_entries.all(), request=request)
    table = HistoryTable(history_filter.qs, club=club)
    BoundedRequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(
        request,
        "clubhouse/history.html",
        {"filter": history_filter, "table": table, "section": "history"},
    )
