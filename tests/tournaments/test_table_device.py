"""One phone per tournament table: the first phone that opens a table's link
holds it; another reads it only, and takes it over with the round's organiser's code;
the organiser sees each table's phone; a closed round's link shows the next seats."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry
from tests.tournaments.test_tournament_day import first_table, play_table, started
from tournaments import services, tokens
from tournaments.models import RoundTable
from tournaments.services import TournamentError

HAND = {"taker": "0", "contract": "garde", "bouts": "2", "points": "56", "dealer": "0"}


def link(table, name="sheet"):
    return reverse(f"table:{name}", args=[tokens.token(table)])


def deal_post(table, client):
    return client.post(link(table, "hand_create"), {**HAND, "action": "save"})


def claim(client, table):
    """Open the table's link, then save a deal: the tap that claims the table."""
    client.get(link(table))
    return deal_post(table, client)


def test_opening_the_link_claims_nothing(make_tournament):
    """A chat app's link preview (a GET) must not take the table from its players."""
    _t, rnd = started(make_tournament)
    table = first_table(rnd)
    preview, phone = Client(), Client()
    for _twice in range(2):
        page = preview.get(link(table)).content.decode()
        assert "data-table-unclaimed" in page and "data-table-held" not in page
        assert preview.get(link(table, "hand_create")).status_code == 200
    table.refresh_from_db()
    assert not table.device
    assert not AuditEntry.objects.filter(action="table_claimed").exists()
    assert claim(phone, table).status_code == 302
    page = phone.get(link(table)).content.decode()
    assert "data-main-action" in page and "data-table-unclaimed" not in page
    assert "data-table-held" in preview.get(link(table)).content.decode()


def test_the_first_phone_holds_the_table_and_another_reads_only(make_tournament):
    _t, rnd = started(make_tournament)
    table = first_table(rnd)
    first, second = Client(), Client()
    claim(first, table)
    page = first.get(link(table)).content.decode()
    assert "data-table-held" not in page and "data-main-action" in page
    table.refresh_from_db()
    assert table.device and table.device_seen_at is not None
    assert AuditEntry.objects.filter(action="table_claimed", object_id=table.pk).count() == 1

    page = second.get(link(table)).content.decode()
    assert "data-table-held" in page
    assert "data-main-action" not in page  # no "Enter deal" here
    # the second phone's writes are refused, whatever it posts
    before = table.sheet.hands.count()
    response = deal_post(table, second)
    assert response.status_code == 302
    assert table.sheet.hands.count() == before
    page = second.get(link(table)).content.decode()
    assert "Another phone enters this table" in page
    assert second.get(link(table, "hand_create")).status_code == 302
    # the first phone enters as before
    assert deal_post(table, first).status_code == 302
    assert table.sheet.hands.count() == before + 1
    # the same phone again: no new claim in the audit
    first.get(link(table))
    assert AuditEntry.objects.filter(action="table_claimed", object_id=table.pk).count() == 1


def test_taking_over_needs_the_organisers_code(make_tournament):
    _t, rnd = started(make_tournament)
    table = first_table(rnd)
    first, second = Client(), Client()
    claim(first, table)
    second.get(link(table))
    response = second.post(link(table, "take_over"), {"code": "000000"}, follow=True)
    if tokens.takeover_code(rnd) != "000000":
        assert "not the organiser&#x27;s code" in response.content.decode()
    assert not AuditEntry.objects.filter(action="table_taken_over").exists()
    code = tokens.takeover_code(rnd)
    assert len(code) == 6 and code.isdigit()
    second.post(link(table, "take_over"), {"code": code})
    assert AuditEntry.objects.filter(action="table_taken_over", object_id=table.pk).count() == 1
    before = table.sheet.hands.count()
    assert deal_post(table, second).status_code == 302
    assert table.sheet.hands.count() == before + 1
    # the phone that held it is now the one that reads only
    assert "data-table-held" in first.get(link(table)).content.decode()
    deal_post(table, first)
    assert table.sheet.hands.count() == before + 1


def test_a_wrong_code_writes_nothing(make_tournament):
    _t, rnd = started(make_tournament)
    table = first_table(rnd)
    table.device = "x" * 64
    table.save(update_fields=["device"])
    with pytest.raises(TournamentError) as refused:
        services.take_over_table(table, device="y" * 64, code="12 34 56x")
    assert refused.value.code == "takeover_code"
    table.refresh_from_db()
    assert table.device == "x" * 64


def test_the_second_entry_comes_from_another_phone_all_the_same(make_tournament):
    """Once handed in, the table is held by nobody: the double entry needs another phone."""
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    first, second = Client(), Client()
    claim(first, table)
    play_table(t, table)
    assert first.post(link(table, "submit"), {"by_name": "Anna"}).status_code == 302
    table.refresh_from_db()
    assert table.state == RoundTable.State.SUBMITTED
    page = second.get(link(table)).content.decode()
    assert "data-table-held" not in page
    assert "Second entry" in page


def test_the_holders_report_reaches_the_organiser(make_tournament, client, manager):
    _t, rnd = started(make_tournament)
    table = first_table(rnd)
    phone, other = Client(), Client()
    claim(phone, table)
    assert phone.post(link(table, "heartbeat"), {"waiting": "3"}).json() == {"held": True}
    assert other.post(link(table, "heartbeat"), {"waiting": "9"}).json() == {"held": False}
    assert other.post(link(table, "heartbeat"), {"waiting": "x"}).status_code == 400
    table.refresh_from_db()
    assert table.device_waiting == 3
    client.force_login(manager)
    url = reverse(
        "tournaments:round", args=[rnd.tournament.club.slug, rnd.tournament_id, rnd.number]
    )
    page = client.get(url).content.decode()
    assert f"data-takeover-code>{tokens.takeover_code(rnd)}<" in page
    assert f'data-device-table="{table.number}" data-device-state="online"' in page
    # not heard of for two minutes: offline, with its deals still waiting
    RoundTable.objects.filter(pk=table.pk).update(
        device_seen_at=timezone.now() - datetime.timedelta(minutes=2)
    )
    page = client.get(url).content.decode()
    assert f'data-device-table="{table.number}" data-device-state="offline"' in page
    assert "data-device-waiting>3<" in page


def test_a_closed_rounds_link_shows_the_next_seats(make_tournament, manager):
    t, rnd = started(make_tournament)
    for table in rnd.tables.select_related("sheet"):
        play_table(t, table)
    services.close_round(rnd, actor=manager)
    nxt = t.round_set.get(number=2)
    services.draw_round(nxt, actor=manager)
    table = first_table(rnd)
    response = Client().get(link(table))
    assert response.status_code == 410
    page = response.content.decode()
    for number in table.seats:
        other = next(x for x in nxt.tables.all() if number in x.seats)
        assert f'data-next-seat="{number}"' in page
        assert f"table {other.number}, seat" in page
