"""Tournament day: the tables' links, handing a sheet in, the second entry
that confirms it or disputes it, the organiser's resolution and corrections, the
provisional ranking, teams, closing the tournament and its exports."""

import json
import threading
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.test import Client
from django.urls import reverse

from scoresheet import services as sheets
from scoresheet.models import Hand, HandRevision
from tests.tournaments.helpers import deal, play_round
from tournaments import draw, queries, services, tokens
from tournaments.models import Round, RoundTable, TableResult, Tournament
from tournaments.services import TournamentError


def started(make_tournament, players=8, rounds=2, **kwargs):
    t = make_tournament(players=players, rounds=rounds, **kwargs)
    services.draw_round(t.round_set.get(number=1))
    rnd = t.round_set.get(number=1)
    services.start_round(rnd)
    return t, rnd


def first_table(rnd) -> RoundTable:
    return rnd.tables.select_related("sheet", "round__tournament").order_by("number").first()


def totals_in_seat_order(table):
    totals, _deals = services.snapshot(table)
    return [totals[str(n)] for n in table.seats]


def play_table(t, table):
    names = [s.player.name for s in table.sheet.seats.select_related("player")]
    for i in range(services.deals_for_table(t, len(names))):
        sheets.record_hand(table.sheet, deal(names, i))


def code_of(call):
    with pytest.raises(TournamentError) as refused:
        call()
    return refused.value.code


# ---------------------------------------------------------------- links


def test_each_table_has_its_own_link_and_a_new_one_kills_the_old(make_tournament):
    t, rnd = started(make_tournament)
    a, b = rnd.tables.order_by("number")
    token_a, token_b = tokens.token(a), tokens.token(b)
    assert token_a != token_b and len(token_a) == tokens.TOKEN_LENGTH
    assert token_a not in (a.token_hash, a.token_salt)  # the link itself is not stored
    assert tokens.find(token_a).pk == a.pk
    assert tokens.find("x" * tokens.TOKEN_LENGTH) is None
    services.revoke_link(a)
    assert tokens.find(token_a) is None
    a.refresh_from_db()
    assert tokens.find(tokens.token(a)).pk == a.pk


def test_a_draw_again_makes_new_links_a_swap_keeps_them(make_tournament):
    t = make_tournament(players=8, rounds=2)
    rnd = t.round_set.get(number=1)
    services.draw_round(rnd)
    before = set(rnd.tables.values_list("token_hash", flat=True))
    services.draw_round(rnd)
    after = set(rnd.tables.values_list("token_hash", flat=True))
    assert before.isdisjoint(after) and None not in after
    first, second = rnd.tables.order_by("number")
    services.swap_players(rnd, first.seats[0], second.seats[0])
    assert set(rnd.tables.values_list("token_hash", flat=True)) == after


# ---------------------------------------------------------------- handing in, checking


def test_hand_in_then_a_matching_second_entry_confirms(make_tournament):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    assert code_of(lambda: services.submit_table(table)) == "table_unfinished"
    play_table(t, table)
    services.submit_table(table, by_name="Anna")
    table.refresh_from_db()
    assert table.state == "submitted" and table.sheet.is_closed
    # the sheet takes no more deals, through any page
    with pytest.raises(sheets.LedgerError) as refused:
        sheets.record_hand(table.sheet, deal(["Member 01"], 0))
    assert refused.value.code == "sheet_closed"
    assert code_of(lambda: services.submit_table(table)) == "table_submitted"
    totals = totals_in_seat_order(table)
    assert (
        code_of(lambda: services.check_table(table, totals=totals, by_name="anna")) == "same_person"
    )
    result = services.check_table(table, totals=totals, by_name="Bert")
    table.refresh_from_db()
    assert result.confirmed and result.matches and table.state == "confirmed"
    assert TableResult.objects.filter(round_table=table, confirmed=True).count() == 1
    assert code_of(lambda: services.check_table(table, totals=totals)) == "already_confirmed"


def test_a_different_second_entry_is_a_dispute_shown_seat_by_seat_and_deal_by_deal(
    make_tournament,
):
    t, rnd = started(make_tournament, confirm_by="deals")
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table, by_name="Anna")
    _totals, deals = services.snapshot(table)
    wrong = [list(row) for row in deals]
    # deal 2: the taker's score (seat 2) and a defender's (seat 0) swapped on the paper
    wrong[1][0], wrong[1][2] = wrong[1][2], wrong[1][0]
    result = services.check_table(table, deals=wrong, by_name="Bert")
    table.refresh_from_db()
    assert not result.confirmed and table.state == "disputed"
    assert not TableResult.objects.filter(round_table=table, confirmed=True).exists()
    diff = services.differences(table)
    assert [d["differs"] for d in diff["deals"]] == [i == 1 for i in range(len(deals))]
    assert [c["differs"] for c in diff["deals"][1]["cells"]] == [True, False, True, False]
    assert [s["differs"] for s in diff["seats"]] == [True, False, True, False]
    assert code_of(lambda: services.check_table(table, deals=deals)) == "disputed"
    # the organiser checks the paper sheet and confirms the sheet as entered
    services.confirm_table(table)
    table.refresh_from_db()
    assert table.state == "confirmed"


def test_the_organiser_corrects_a_confirmed_sheet_recorded_in_history(make_tournament, manager):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.confirm_table(table, actor=manager)
    hand = table.sheet.hands.get(number=1)
    # a club scorer's page cannot change it: the sheet is closed
    with pytest.raises(sheets.LedgerError):
        sheets.correct_hand(hand, {**sheets.hand_data(hand, sheets.Table.of(table.sheet))})
    names = [s.player.name for s in table.sheet.seats.select_related("player")]
    services.correct_table_hand(table, hand, deal(names, 0, points=70), actor=manager)
    table.refresh_from_db()
    table.sheet.refresh_from_db()
    assert table.state == "confirmed" and table.sheet.is_closed
    revision = HandRevision.objects.filter(hand=hand).latest("at", "id")
    assert revision.action == "corrected" and revision.user == manager
    confirmed = TableResult.objects.get(round_table=table, confirmed=True)
    assert confirmed.kind == "corrected"
    assert confirmed.totals == services.snapshot(table)[0]


def test_one_confirmed_result_per_table_is_a_database_constraint(make_tournament):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    TableResult.objects.create(round_table=table, kind="organiser", confirmed=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableResult.objects.create(round_table=table, kind="check", confirmed=True)
    TableResult.objects.create(round_table=table, kind="check", confirmed=False)


def test_the_organiser_sends_a_sheet_back_and_the_table_corrects_it(make_tournament):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table)
    services.reopen_table(table)
    table.refresh_from_db()
    assert table.state == "open" and not table.sheet.is_closed
    sheets.delete_hand(table.sheet.hands.get(number=1))


def test_closing_a_round_closes_its_tables(make_tournament):
    t, rnd = started(make_tournament)
    play_round(t, rnd)
    services.close_round(rnd)
    table = first_table(rnd)
    assert table.sheet.is_closed
    assert code_of(lambda: services.submit_table(table)) == "round_closed"
    # the organiser may still confirm after checking the paper sheet
    services.confirm_table(table)


# ---------------------------------------------------------------- ranking, closing


def test_the_ranking_is_provisional_until_every_sheet_is_confirmed(make_tournament):
    t, rnd = started(make_tournament, rounds=1)
    play_round(t, rnd)
    pending = queries.unconfirmed(t)
    assert [p["table"] for p in pending] == [1, 2]
    rows = queries.ranking(t)
    queries.mark_provisional(rows, pending)
    assert all(row["pending"] == [True] for row in rows)
    services.close_round(rnd)
    assert code_of(lambda: services.close_tournament(t)) == "tables_unconfirmed"
    for table in rnd.tables.all():
        services.confirm_table(table)
    assert queries.unconfirmed(t) == []
    services.close_tournament(t)
    t.refresh_from_db()
    assert t.state == "closed" and t.closed_at is not None
    assert [r["number"] for r in t.final_ranking["players"]] == [
        r["number"] for r in queries.ranking(t)
    ]
    table = first_table(rnd)
    hand = table.sheet.hands.get(number=1)
    data = sheets.hand_data(hand, sheets.Table.of(table.sheet))
    assert code_of(lambda: services.correct_table_hand(table, hand, data)) == "tournament_closed"
    assert code_of(lambda: services.revoke_link(table)) == "tournament_closed"


def test_close_needs_every_round_closed(make_tournament):
    t, rnd = started(make_tournament, rounds=1)
    assert code_of(lambda: services.close_tournament(t)) == "rounds_open"


def test_the_json_export_carries_every_sheet_in_the_interchange_format(
    client, make_tournament, manager
):
    t, rnd = started(make_tournament, rounds=1)
    play_round(t, rnd)
    response = client.get(reverse("tournaments:export_json", args=[t.club.slug, t.pk]))
    data = json.loads(response.content)
    assert data["tournament"]["official"] is False
    sheet = data["rounds"][0]["tables"][0]["sheet"]
    assert set(sheet) >= {"rules", "players", "hands"} and sheet["hands"][0]["contract"] == "garde"
    assert len(data["ranking"]) == 8


# ---------------------------------------------------------------- teams


def test_teammates_never_sit_together_and_a_team_ranking_adds_them(make_tournament, members):
    t = make_tournament(players=0, rounds=3, team_size=2)
    for i in range(8):
        pair = [("member", members[2 * i]), ("member", members[2 * i + 1])]
        services.register_team(t, f"Team {i + 1}", pair)
    assert code_of(lambda: services.register_team(t, "Solo", [("member", members[16])])) == (
        "team_size"
    )
    services.draw_schedule(t)
    pairs = set(services.teammates(t))
    assert len(pairs) == 8
    for rnd in t.round_set.all():
        for table in rnd.tables.all():
            seated = set(table.seats)
            assert not any(a in seated and b in seated for a, b in pairs)
    rnd = t.round_set.get(number=1)
    services.start_round(rnd)
    play_round(t, rnd)
    rows = queries.ranking(t)
    teams = queries.team_ranking(t, rows)
    assert len(teams) == 8
    by_number = {r["number"]: r["total"] for r in rows}
    for team in teams:
        assert team["total"] == sum(by_number[m["number"]] for m in team["members"])
    assert [t_["total"] for t_ in teams] == sorted((t_["total"] for t_ in teams), reverse=True)


def test_the_draw_keeps_forbidden_pairs_apart():
    pairs = [(1, 2), (3, 4), (5, 6), (7, 8)]
    for seed in range(20):
        tables = draw.draw_round(range(1, 9), seed=seed, forbidden=pairs)
        for table in tables:
            assert not any(a in table and b in table for a, b in pairs)


# ---------------------------------------------------------------- racing confirmations


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_racing_leave_exactly_one_confirmed_version(make_tournament):
    """Two second entries posted at the same instant through the table's link: one
    confirms, the other is refused; exactly one confirmed version exists."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table, by_name="Anna")
    totals = totals_in_seat_order(table)
    url = reverse("table:check", args=[tokens.token(table)])
    data = {f"score_{k}": v for k, v in enumerate(totals)}
    barrier = threading.Barrier(2)
    answers, errors = [], []

    def post(name):
        try:
            browser = Client()
            barrier.wait(timeout=30)
            answers.append(browser.post(url, {**data, "by_name": name}, follow=True))
        except Exception as error:  # reported in the test's thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(n,)) for n in ("Bert", "Carl")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert TableResult.objects.filter(round_table=table, confirmed=True).count() == 1
    assert TableResult.objects.filter(round_table=table, kind="check").count() == 1
    pages = sorted(a.content.decode() for a in answers)
    assert sum("the sheet is confirmed. Thank you" in p for p in pages) == 1
    assert sum("This table&#x27;s sheet is confirmed." in p for p in pages) == 1
    assert RoundTable.objects.get(pk=table.pk).state == "confirmed"


def test_confirmation_service_race_in_threads_only_one_wins(make_tournament):
    """The service itself, twice in a row, as the lock serialises it: one confirmed."""
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table)
    totals = totals_in_seat_order(table)
    services.check_table(table, totals=totals)
    assert code_of(lambda: services.check_table(table, totals=totals)) == "already_confirmed"
    assert code_of(lambda: services.confirm_table(table)) == "already_confirmed"
    assert TableResult.objects.filter(round_table=table, confirmed=True).count() == 1
    assert Hand.objects.filter(sheet=table.sheet).count() == 4
    assert Round.objects.get(pk=rnd.pk).state == "started"
    assert Tournament.objects.get(pk=t.pk).state == "running"
    confirmed = TableResult.objects.get(round_table=table, confirmed=True)
    assert confirmed.totals == dict(zip(map(str, table.seats), totals, strict=True))
    assert all(isinstance(v, str) for v in totals) and sum(map(Decimal, totals)) == 0


def test_the_organisers_buttons_send_back_confirm_and_relink_a_table(
    client, make_tournament, manager
):
    """The table page's buttons: each writes in the organiser's name and returns to it."""
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table)
    client.force_login(manager)
    back = reverse("tournaments:table", args=[t.club.slug, t.pk, 1, table.number])

    def press(name):
        url = reverse(f"tournaments:{name}", args=[t.club.slug, t.pk, 1, table.number])
        response = client.post(url)
        assert response.status_code == 302 and response.url == back
        table.refresh_from_db()

    press("table_reopen")
    assert table.state == "open"
    assert TableResult.objects.get(round_table=table, kind="reopened").by == manager
    press("table_confirm")
    assert table.state == "confirmed"
    assert TableResult.objects.get(round_table=table, confirmed=True).by == manager
    old = tokens.token(table)
    press("table_revoke")
    assert tokens.find(old) is None and tokens.find(tokens.token(table)).pk == table.pk


def test_the_organisers_correction_page_leads_back_to_the_table(client, make_tournament, manager):
    """The organiser's hand form for a handed-in table: its preview reads the club's
    sheet, "back" and a saved correction lead to the table's page."""
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.confirm_table(table, actor=manager)
    client.force_login(manager)
    page_url = reverse("tournaments:table_hand", args=[t.club.slug, t.pk, 1, table.number, 1])
    back = reverse("tournaments:table", args=[t.club.slug, t.pk, 1, table.number])
    preview = reverse("scoresheet:hand_preview", args=[t.club.slug, table.sheet_id])
    response = client.get(page_url)
    assert response.status_code == 200
    assert response.context["back_url"] == back
    assert response.context["preview_url"] == f"{preview}?hand=1"
    assert response.context["next_number"] is None
    assert f'href="{back}"' in response.content.decode()
    data = {"dealer": "0", "taker": "1", "contract": "garde", "bouts": "2", "points": "70"}
    response = client.post(page_url, {**data, "action": "save"})
    assert response.status_code == 302 and response.url == back
    assert table.sheet.hands.get(number=1).points == 70


def test_a_tables_link_reaches_only_its_own_table(client, make_tournament):
    """A token reads and writes its own table's sheet only: another table's deal, or
    another tournament's, is a 404 and stays as it was."""
    t, rnd = started(make_tournament)
    a, b = rnd.tables.select_related("sheet").order_by("number")
    names_b = [s.player.name for s in b.sheet.seats.select_related("player")]
    sheets.record_hand(b.sheet, deal(names_b, 0))
    token_a = tokens.token(a)
    for url in (
        reverse("table:hand_edit", args=[token_a, 1]),
        reverse("table:hand_delete", args=[token_a, 1]),
    ):
        assert client.post(url, {}).status_code == 404
    assert client.get(reverse("table:hand_edit", args=[token_a, 1])).status_code == 404
    assert b.sheet.hands.live().count() == 1
    page = client.get(reverse("table:sheet", args=[token_a])).content.decode()
    assert names_b[0] not in page  # nothing of the other tables
    other = make_tournament(players=4, rounds=1, seed=3)
    services.draw_round(other.round_set.get())
    assert tokens.find(token_a).round.tournament_id == t.pk


def test_wrong_links_are_rate_limited(client, db):
    from django.core.cache import cache

    cache.clear()
    url = reverse("table:sheet", args=["y" * tokens.TOKEN_LENGTH])
    answers = [client.get(url).status_code for _ in range(31)]
    assert answers[:30] == [404] * 30 and answers[30] == 429
    cache.clear()


def test_find_my_table_by_number_or_name(client, make_tournament):
    t, rnd = started(make_tournament)
    url = reverse("tournaments:find", args=[t.club.slug, t.pk])
    table = first_table(rnd)
    page = client.get(url, {"q": str(table.seats[0])}).content.decode()
    assert f"Table {table.number}, seat N" in page
    assert "Table " in client.get(url, {"q": "member 0"}).content.decode()
    # "²" is a digit to str.isdigit, not a number: a search by name (NFKD: "2"), never a 500
    assert client.get(url, {"q": "²"}).status_code == 200
