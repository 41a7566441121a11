"""A club's tournaments (namespace ``tournaments``), relative to the club's URL."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

tournament = "tournaments/<int:tournament_id>/"
rnd = tournament + "rounds/<int:round_number>/"
table = rnd + "tables/<int:table_number>/"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_create, name="create"),
    path(tournament, views.tournament_detail, name="detail"),
    path(tournament + "edit/", views.tournament_edit, name="edit"),
    path(tournament + "players/", views.players, name="players"),
    path(tournament + "players/<int:number>/", views.entry_detail, name="entry"),
    path(tournament + "players/<int:number>/withdraw/", views.entry_withdraw, name="withdraw"),
    path(tournament + "schedule/", views.schedule, name="schedule"),
    path(tournament + "ranking/", views.ranking, name="ranking"),
    path(tournament + "route-cards/", views.route_cards, name="route_cards"),
    path(rnd, views.round_detail, name="round"),
    path(rnd + "draw/", views.round_draw, name="round_draw"),
    path(rnd + "swap/", views.round_swap, name="round_swap"),
    path(rnd + "start/", views.round_start, name="round_start"),
    path(rnd + "close/", views.round_close, name="round_close"),
    path(rnd + "table-cards/", views.table_cards, name="table_cards"),
    # tournament day (issue 12)
    path(tournament + "close/", views.tournament_close, name="close"),
    path(tournament + "export.json", views.export_json, name="export_json"),
    path(tournament + "screen/", views.screen, name="screen"),
    path(tournament + "screen/live/", views.screen_live, name="screen_live"),
    path(tournament + "find/", views.find_table, name="find"),
    path(table, views.table_detail, name="table"),
    path(table + "confirm/", views.table_confirm, name="table_confirm"),
    path(table + "reopen/", views.table_reopen, name="table_reopen"),
    path(table + "new-link/", views.table_revoke, name="table_revoke"),
    path(table + "totals/", views.table_totals, name="table_totals"),
    path(table + "totals/cancel/", views.table_totals_cancel, name="table_totals_cancel"),
    path(table + "deals/<int:number>/", views.table_hand, name="table_hand"),
]
