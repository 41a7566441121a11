"""At the table: the second entry adds up to zero before it goes to the
organiser, naming the player whose total looks wrong; once the round's deals are in,
handing the sheet in is the main button; short names head the score columns."""

from decimal import Decimal

from django.urls import reverse

from tests.tournaments.test_tournament_day import (
    first_table,
    play_table,
    started,
    totals_in_seat_order,
)
from tournaments import services, tokens
from tournaments.models import TableResult


def names_of(table):
    return [s.player.name for s in table.sheet.seats.select_related("player")]


def test_a_second_entry_not_adding_up_to_zero_is_refused_naming_the_player(make_tournament):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table, by_name="Anna")
    table.refresh_from_db()
    totals = totals_in_seat_order(table)
    typo = [Decimal(v) for v in totals]
    typo[2] += 20  # -69 typed -49: the totals add up to +20
    with_typo = [str(v) for v in typo]
    names = names_of(table)
    try:
        services.refuse_unbalanced(table, totals=with_typo)
    except services.TournamentError as error:
        assert error.code == "check_not_zero"
        assert error.message == (f"The totals add up to +20, not zero: check {names[2]}'s total.")
    else:
        raise AssertionError("an unbalanced second entry was accepted")
    # Nothing was recorded: the table still waits for its second entry.
    table.refresh_from_db()
    assert table.state == "submitted"
    assert not TableResult.objects.filter(round_table=table, kind="check").exists()
    # Two wrong totals: both named. A balanced entry passes (and then confirms).
    typo[0] -= 10
    try:
        services.refuse_unbalanced(table, totals=[str(v) for v in typo])
    except services.TournamentError as error:
        assert error.message == (
            f"The totals add up to +10, not zero: check the totals of {names[0]}, {names[2]}."
        )
    services.refuse_unbalanced(table, totals=totals)
    assert services.check_table(table, totals=totals, by_name="Bert").confirmed


def test_deal_by_deal_the_deal_and_the_player_are_named(make_tournament):
    t, rnd = started(make_tournament, confirm_by="deals")
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table, by_name="Anna")
    table.refresh_from_db()
    _totals, deals = services.snapshot(table)
    wrong = [list(row) for row in deals]
    wrong[1][3] = str(Decimal(wrong[1][3]) - 2)
    try:
        services.refuse_unbalanced(table, deals=wrong)
    except services.TournamentError as error:
        name = names_of(table)[3]
        assert error.message == f"Deal 2 adds up to -2, not zero: check {name}'s score."
    else:
        raise AssertionError("an unbalanced deal was accepted")
    services.refuse_unbalanced(table, deals=deals)


def test_the_table_link_refuses_it_and_the_sheet_stays_handed_in(client, make_tournament):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    play_table(t, table)
    services.submit_table(table, by_name="Anna")
    totals = [Decimal(v) for v in totals_in_seat_order(table)]
    totals[0] -= 20
    data = {f"score_{k}": str(v) for k, v in enumerate(totals)} | {"by_name": "Bert"}
    url = reverse("table:check", args=[tokens.token(table)])
    page = client.post(url, data, follow=True).content.decode()
    name = names_of(table)[0]
    assert f"The totals add up to -20, not zero: check {name}&#x27;s total." in page
    table.refresh_from_db()
    assert table.state == "submitted"


def test_after_the_last_deal_the_main_button_hands_the_sheet_in(client, make_tournament):
    t, rnd = started(make_tournament)
    table = first_table(rnd)
    url = reverse("table:sheet", args=[tokens.token(table)])
    page = client.get(url).content.decode()
    assert "data-main-action>Enter deal 1</a>" in page
    play_table(t, table)
    page = client.get(url).content.decode()
    assert 'href="#submit-title" data-main-action>Hand the sheet in</a>' in page
    assert 'btn btn-primary" href="/table/' not in page  # entering a deal is secondary now
    # Short names, as on a club sheet, head the score columns ("Member 01" -> "M01").
    seated = names_of(table)
    for name in seated:
        short = "M" + name.split()[-1]
        assert f'data-player="{name}">{short}</th>' in page
