"""A club's tournaments (namespace ``tournaments``), relative to the club's URL."""

from django.urls import path

from tournaments import views
from tournaments.duplicate import views as duplicate_views

app_name = "tournaments"

tournament = "tournaments/<int:tournament_id>/"
rnd = tournament + "rounds/<int:round_number>/"
table = rnd + "tables/<int:table_number>/"
dup = tournament + "duplicate/"

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
    # tournament day
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
    # a duplicate event: tournaments.duplicate.views
    path("tournaments/new-duplicate/", duplicate_views.create, name="duplicate_create"),
    path(dup, duplicate_views.overview, name="duplicate"),
    path(dup + "edit/", duplicate_views.edit, name="duplicate_edit"),
    path(dup + "movement/", duplicate_views.draw, name="duplicate_draw"),
    path(
        dup + "movement/choose/",
        duplicate_views.movement_choice,
        name="duplicate_movement",
    ),
    path(dup + "series/", duplicate_views.series, name="duplicate_series"),
    path(dup + "route-cards/", duplicate_views.route_cards, name="duplicate_route_cards"),
    path(dup + "table-cards/", duplicate_views.table_cards, name="duplicate_table_cards"),
    path(dup + "etuis/", duplicate_views.etuis, name="duplicate_etuis"),
    path(dup + "deal-sheets/", duplicate_views.deal_sheets, name="duplicate_deal_sheets"),
    path(dup + "etuis-by-hand/", duplicate_views.etuis_by_hand, name="duplicate_etuis_by_hand"),
    path(dup + "ranking/", duplicate_views.ranking, name="duplicate_ranking"),
    path(dup + "screen/", duplicate_views.screen, name="duplicate_screen"),
    path(dup + "screen/live/", duplicate_views.screen_live, name="duplicate_screen_live"),
    path(dup + "travellers/", duplicate_views.travellers, name="duplicate_travellers"),
    path(dup + "deals/<int:deal>/", duplicate_views.traveller, name="duplicate_traveller"),
    path(dup + "players/<int:number>/", duplicate_views.player, name="duplicate_player"),
    path(dup + "arbitre/", duplicate_views.arbitre, name="duplicate_arbitre"),
    path(
        dup + "arbitre/<int:decision_id>/remove/",
        duplicate_views.remove_decision,
        name="duplicate_decision_remove",
    ),
    path(dup + "export/", duplicate_views.export, name="duplicate_export"),
]
