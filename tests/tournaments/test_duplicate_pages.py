"""A duplicate event's pages: set-up by the form, the movement and its printed cards,
the deal sheets, the table's page saying which deal comes next, the barometer, the
travellers, a player's sheet, the arbitre's form, the exports; query counts pinned."""

import json
from fractions import Fraction

import pytest
from django.urls import reverse

from clubs.models import Player
from tarot.duplicate import SEATS
from tests.data import RULES_POST
from tournaments import services, tokens
from tournaments.duplicate import services as duplicate_services
from tournaments.duplicate.event_ranking import score_event
from tournaments.models import DealDecision, Round, RoundTable, Tournament

from .duplicate_helpers import DATE, make_event, play_round


@pytest.fixture
def members24(club):
    return [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 25)]


@pytest.fixture
def organiser(client, manager):
    client.force_login(manager)
    return client


def url(name, event, *args):
    return reverse(f"tournaments:{name}", args=[event.club.slug, event.pk, *args])


@pytest.fixture
def played(club, members24, manager):
    """20 players, 4 rounds of 3 deals; rounds 1 and 2 played, confirmed and closed."""
    event = make_event(club, members24, manager, players=20, rounds=4, deals=3)
    duplicate_services.set_series(
        event, {n: ("Open" if n <= 10 else "Promotion") for n in range(1, 21)}, actor=manager
    )
    duplicate_services.draw_movement(event, actor=manager)
    for number in (1, 2):
        services.start_round(Round.objects.get(tournament=event, number=number))
        rnd = Round.objects.get(tournament=event, number=number)
        play_round(rnd)
        services.close_round(rnd, actor=manager)
    return Tournament.objects.get(pk=event.pk)


def test_the_organiser_creates_a_duplicate_event_by_the_form(organiser, club):
    response = organiser.post(
        reverse("tournaments:duplicate_create", args=[club.slug]),
        {
            "name": "Open de la Rive",
            "date": DATE.isoformat(),
            "rounds": 4,
            "deals_per_set": 3,
            "method": "average",
            "team_size": "4",
            "confirm_by": "totals",
            **RULES_POST,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Tournament.objects.get()
    assert event.is_duplicate and event.method == "average" and event.team_size == 4
    assert event.deals_per_round == 3 and event.round_set.count() == 4
    # a refusal lands on the form, nothing written
    response = organiser.post(
        reverse("tournaments:duplicate_create", args=[club.slug]),
        {
            "name": "X",
            "date": DATE.isoformat(),
            "rounds": 4,
            "deals_per_set": 3,
            "method": "best",
            **RULES_POST,
        },
    )
    assert response.status_code == 200 and Tournament.objects.count() == 1


def test_the_movement_page_and_its_printed_cards(organiser, club, members24, manager):
    event = make_event(club, members24, manager, players=18, rounds=4, deals=3)
    response = organiser.post(url("duplicate_draw", event))
    assert response.status_code == 302
    page = organiser.get(url("duplicate", event)).content.decode()
    assert 'data-repeated="0"' in page and "data-byes" in page
    routes = organiser.get(url("duplicate_route_cards", event)).content.decode()
    assert routes.count("data-route-card") == 18
    cards = organiser.get(url("duplicate_table_cards", event)).content.decode()
    assert cards.count("data-table-card") == 5
    labels = organiser.get(url("duplicate_etuis", event)).content.decode()
    assert labels.count("data-etui-label") == 5
    sheets = organiser.get(url("duplicate_deal_sheets", event)).content.decode()
    assert sheets.count("data-deal-sheet=") == 15  # 5 sets of 3 deals


def test_the_table_page_says_which_deal_comes_next_and_where_the_etui_goes(
    client, club, members24, manager
):
    event = make_event(club, members24, manager, players=20, rounds=2, deals=3)
    duplicate_services.draw_movement(event, actor=manager)
    services.start_round(Round.objects.get(tournament=event, number=1))
    table = RoundTable.objects.get(round__tournament=event, round__number=1, number=1)
    after = RoundTable.objects.get(
        round__tournament=event, round__number=2, set_number=table.set_number
    )
    first = (table.set_number - 1) * 3 + 1
    page = client.get(reverse("table:sheet", args=[tokens.token(table)])).content.decode()
    assert f'data-next-deal="{first}"' in page
    assert f'data-pass-to="{after.number}"' in page


def test_barometer_travellers_player_sheet_and_exports(
    client, played, django_assert_max_num_queries
):
    event = played
    with django_assert_max_num_queries(14):
        page = client.get(url("duplicate_ranking", event)).content.decode()
    assert page.count("data-entry=") == 20 + 20  # overall, then the two séries
    assert "data-provisional" not in page
    with django_assert_max_num_queries(14):
        travellers = client.get(url("duplicate_travellers", event)).content.decode()
    assert travellers.count("data-traveller=") == 5 * 3  # 5 sets of 3 deals
    assert travellers.count("<tr data-table=") == 5 * 2 * 3  # each at 2 tables so far
    sheet = client.get(url("duplicate_player", event, 1)).content.decode()
    assert sheet.count("<tr><td><a href=") == 6
    exported = json.loads(client.get(url("duplicate_export", event) + "?format=json").content)
    scored = score_event(exported)
    assert [(r["player"], r["rank"]) for r in exported["ranking"]] == [
        (r["player"], r["rank"]) for r in scored["ranking"]
    ]
    assert {r["player"]: Fraction(str(r["score"])) for r in exported["ranking"]} == {
        r["player"]: Fraction(str(r["score"])) for r in scored["ranking"]
    }
    assert "series" in exported
    csv = client.get(url("duplicate_export", event) + "?format=csv")
    assert csv.status_code == 200 and csv.content.decode("utf-8-sig").count("\n") == 21
    # French: ";" between cells and the decimal comma on every score
    french = client.get(url("duplicate_export", event) + "?format=csv", HTTP_ACCEPT_LANGUAGE="fr")
    lines = french.content.decode("utf-8-sig").splitlines()
    assert lines[0].count(";") == 6 and len(lines) == 21
    scores = [line.split(";")[5] for line in lines[1:]]
    assert not [score for score in scores if "." in score]
    assert [Fraction(score.replace(",", ".")) for score in scores]  # every one a number
    xlsx = client.get(url("duplicate_export", event) + "?format=xlsx")
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert client.get(url("duplicate_export", event) + "?format=pdf").status_code == 400


def test_the_cards_stay_the_organisers_until_the_event_is_finished(client, organiser, played):
    traveller = url("duplicate_traveller", played, 1)
    assert "data-deal-sheet" in organiser.get(traveller).content.decode()
    client.logout()
    assert "data-deal-sheet" not in client.get(traveller).content.decode()
    assert client.get(url("duplicate_traveller", played, 999)).status_code == 404


def test_the_arbitre_page_records_a_decision_with_who_and_why(organiser, played):
    table = RoundTable.objects.get(round__tournament=played, round__number=1, number=2)
    deal = (table.set_number - 1) * 3 + 2
    response = organiser.post(
        url("duplicate_arbitre", played),
        {
            "kind": "arbitral",
            "round": 1,
            "table": 2,
            "deal": deal,
            "seat": "E",
            "score": "40",
            "reason": "Art. 12: renonce",
        },
    )
    assert response.status_code == 302
    decision = DealDecision.objects.get()
    assert (decision.seat, decision.score, decision.by.username) == (1, 40, "organiser")
    page = organiser.get(url("duplicate_arbitre", played)).content.decode()
    assert "Art. 12: renonce" in page and "organiser" in page
    # a deal of another set is refused on the form, nothing written
    response = organiser.post(
        url("duplicate_arbitre", played),
        {"kind": "cancel", "round": 1, "table": 2, "deal": deal + 3, "reason": "étui"},
    )
    assert response.status_code == 200 and DealDecision.objects.count() == 1
    barometer = organiser.get(url("duplicate_ranking", played)).content.decode()
    assert "data-duplicate-ranking" in barometer
    assert SEATS[1] == "E"


def test_free_tournament_pages_lead_a_duplicate_event_to_its_own(organiser, played):
    for name, target in (
        ("detail", "duplicate"),
        ("ranking", "duplicate_ranking"),
        ("screen", "duplicate_screen"),
        ("edit", "duplicate_edit"),
    ):
        response = organiser.get(url(name, played))
        assert response.status_code == 302 and response["Location"] == url(target, played)


def test_a_name_is_escaped_in_the_travellers_cells(client, played):
    entry = played.entries.get(number=1)
    entry.name = '<b onmouseover="x">Zoé</b>'
    entry.save()
    page = client.get(url("duplicate_travellers", played)).content.decode()
    assert "<b onmouseover" not in page
    assert 'title="&lt;b onmouseover=&quot;x&quot;&gt;Zoé&lt;/b&gt;"' in page


def test_french_pages_write_west_as_o(client, played):
    page = client.get(
        url("duplicate_travellers", played), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert '<th class="num">O</th>' in page and '<th class="num">W</th>' not in page
    assert "Feuilles de donne" in page


def test_the_arbitre_page_removes_a_decision_after_asking(organiser, played, client):
    table = RoundTable.objects.get(round__tournament=played, round__number=1, number=2)
    deal = (table.set_number - 1) * 3 + 1
    kept = duplicate_services.cancel_deal(table, deal, "étui mélangé")
    wrong = duplicate_services.give_arbitral_score(table, deal + 1, "N", "30", "erreur")
    page = organiser.get(url("duplicate_arbitre", played)).content.decode()
    remove = url("duplicate_decision_remove", played, wrong.pk)
    # each decision has its button, which asks before removing
    assert f'action="{remove}"' in page
    assert f'data-remove-decision="{wrong.pk}" data-confirm="Remove the decision on deal' in page
    assert organiser.get(remove).status_code == 405  # a GET removes nothing
    response = organiser.post(remove)
    assert response.status_code == 302
    assert response["Location"] == url("duplicate_arbitre", played)
    assert list(DealDecision.objects.values_list("pk", flat=True)) == [kept.pk]
    page = organiser.get(url("duplicate_arbitre", played)).content.decode()
    assert f"The decision on deal {deal + 1} at table 2 is removed." in page
    assert "erreur" not in page and "étui mélangé" in page
    # gone already: not found
    response = organiser.post(remove)
    assert response.status_code == 404
    # a decision of another event answers 404 under this one
    assert (
        organiser.post(url("duplicate_decision_remove", played, kept.pk + 999)).status_code == 404
    )


def test_a_closed_event_shows_no_remove_button_and_refuses_the_post(organiser, played, manager):
    table = RoundTable.objects.get(round__tournament=played, round__number=1, number=2)
    decision = duplicate_services.cancel_deal(table, (table.set_number - 1) * 3 + 1, "étui")
    Tournament.objects.filter(pk=played.pk).update(state=Tournament.State.CLOSED)
    page = organiser.get(url("duplicate_arbitre", played)).content.decode()
    assert "data-remove-decision" not in page
    response = organiser.post(url("duplicate_decision_remove", played, decision.pk), follow=True)
    assert "The tournament is closed" in response.content.decode()
    assert DealDecision.objects.filter(pk=decision.pk).exists()


def test_a_closed_event_refuses_the_organisers_posts_with_a_message(organiser, played):
    """The services refuse a closed event with the tournament's own error: every page
    shows it as a message, none answers 500."""
    table = RoundTable.objects.get(round__tournament=played, round__number=1, number=2)
    Tournament.objects.filter(pk=played.pk).update(state=Tournament.State.CLOSED)
    posts = {
        "duplicate_etuis_by_hand": {"by_hand": "1"},
        "duplicate_series": {"series_1": "1ère"},
        "duplicate_draw": {},
        "duplicate_arbitre": {
            "kind": "cancel",
            "round": 1,
            "table": 2,
            "deal": (table.set_number - 1) * 3 + 1,
            "reason": "étui",
        },
    }
    for name, data in posts.items():
        response = organiser.post(url(name, played), data, follow=True)
        assert response.status_code == 200, name
        assert "The tournament is closed" in response.content.decode(), name
    assert not DealDecision.objects.exists()


def test_the_hand_form_at_a_duplicate_table_does_not_ask_for_the_dealer(
    client, organiser, club, members24, manager
):
    """The étui fixes the dealer (§1: deal d by N, E, S, W at (d − 1) mod 4): the form
    shows it, has no dealer buttons, and a dealer posted anyway changes nothing."""
    event = make_event(club, members24, manager, players=20, rounds=2, deals=3)
    duplicate_services.draw_movement(event, actor=manager)
    services.start_round(Round.objects.get(tournament=event, number=1))
    table = RoundTable.objects.select_related("sheet").get(
        round__tournament=event, round__number=1, set_number=2
    )
    names = [s.player.name for s in table.sheet.seats.select_related("player")]
    create = reverse("table:hand_create", args=[tokens.token(table)])
    page = client.get(create).content.decode()
    # set 2 holds deals 4, 5, 6: deal 4 is dealt by W (index 3), deal 5 by N
    assert 'data-fixed-dealer="W" data-deal="4"' in page
    assert f'<strong data-show="dealer">{names[3]}</strong>' in page
    assert 'name="dealer"' not in page
    posted = {"taker": "1", "contract": "garde", "bouts": "2", "points": "56", "action": "save"}
    assert client.post(create, {**posted, "dealer": "0"}).status_code == 302
    hand = table.sheet.hands.get(number=1)
    assert hand.dealer.name == names[3]
    page = client.get(create).content.decode()
    assert 'data-fixed-dealer="N" data-deal="5"' in page
    edit = reverse("table:hand_edit", args=[tokens.token(table), 1])
    assert 'data-fixed-dealer="W" data-deal="4"' in client.get(edit).content.decode()
    # the organiser's correction shows it fixed too
    correction = url("table_hand", event, 1, table.number, 1)
    page = organiser.get(correction).content.decode()
    assert 'data-fixed-dealer="W" data-deal="4"' in page and 'name="dealer"' not in page


def test_the_hand_form_of_a_free_deal_table_still_asks_for_the_dealer(client, make_tournament):
    tournament = make_tournament(players=16, rounds=1, deals=4)
    rnd = tournament.round_set.get(number=1)
    services.draw_round(rnd)
    services.start_round(rnd)
    table = rnd.tables.order_by("number").first()
    page = client.get(reverse("table:hand_create", args=[tokens.token(table)])).content.decode()
    assert 'name="dealer"' in page and "data-fixed-dealer" not in page


def test_the_results_pages_read_a_fixed_number_of_queries_whatever_the_size(
    client, played, manager
):
    """The barometer, the screen and the travellers read the event in a fixed number of
    queries (duplicate_results.load: tables, score rows, decisions, entries…): one
    round more, as many queries. Pinned: a page that starts reading per table or per
    deal fails here."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    pages = ("duplicate_ranking", "duplicate_screen", "duplicate_travellers")

    def counts():
        out = {}
        for name in pages:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url(name, played)).status_code == 200
            out[name] = len(captured)
        return out

    counts()  # the first request reads what the process then keeps (one query more)
    before = counts()
    assert before == {
        "duplicate_ranking": 8,  # + the licences the reader may see
        "duplicate_screen": 7,
        "duplicate_travellers": 8,
    }
    rnd = Round.objects.get(tournament=played, number=3)
    services.start_round(rnd)
    play_round(Round.objects.get(pk=rnd.pk))
    services.close_round(Round.objects.get(pk=rnd.pk), actor=manager)
    assert counts() == before
    page = client.get(url("duplicate_travellers", played)).content.decode()
    assert page.count("<tr data-table=") == 5 * 3 * 3  # each deal at 3 tables now
    # contracts by their names, not their codes
    assert 'data-contract="garde_sans">garde sans</td>' in page and ">garde_sans<" not in page
    # and the bouts beside them, for the arbitre to check a marque
    assert 'data-bouts="' in page and ">Bouts</th>" in page


def test_scores_have_a_decimal_comma_in_french_and_are_rounded_in_the_csv(client, played):
    """French pages write "62,50", never "62.50"; the CSV's scores are rounded to the
    page's two decimals, not the exact fraction's sixteen digits."""
    from tournaments.duplicate import results as duplicate_results

    rows = duplicate_results.barometer(duplicate_results.load(played))
    first = rows[0]["score"]
    shown = f"{float(first):.2f}"
    page = client.get(url("duplicate_ranking", played), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert shown.replace(".", ",") in page and f">{shown}<" not in page
    english = client.get(url("duplicate_ranking", played)).content.decode()
    assert shown in english
    csv = client.get(url("duplicate_export", played) + "?format=csv").content.decode("utf-8-sig")
    cells = [line.split(",") for line in csv.splitlines()[1:]]
    scores = [cell[5] for cell in cells]
    assert all(len(s.split(".")[-1]) <= 2 for s in scores), scores
    assert any(
        Fraction(r["score"]).denominator not in (1, 2, 4, 5, 10, 20, 25, 50, 100) for r in rows
    )


def test_a_duplicate_round_page_has_the_duplicates_tools(organiser, played):
    """A duplicate event's round page offers its own tools (the movement, its table
    cards, the travellers, the arbitre), not the free draw's (draw again, swap two
    players, the draw's repeated meetings)."""
    page = organiser.get(url("round", played, 3)).content.decode()
    assert 'data-duplicate-tool="movement"' in page and "data-duplicate-tools" in page
    assert url("duplicate_travellers", played) in page and url("duplicate_arbitre", played) in page
    for free in ("Draw again", "Draw this round", "Swap two players", "data-draw-meetings"):
        assert free not in page, free
