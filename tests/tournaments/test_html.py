"""The ranking's rows, the route cards' lines and the table cards' blank grids
(templates/tournaments/includes): escaped, translated, a ranking row a line."""

from decimal import Decimal
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import translation

from tournaments.listings import display_rows

CLUB = SimpleNamespace(slug="rive")
TOURNAMENT = SimpleNamespace(pk=7)


def include(name, **context):
    return render_to_string(f"tournaments/includes/{name}.html", context)


def row(number, name, rounds, *, club="Club de la Rive", pending=None, **more):
    known = [r for r in rounds if r is not None]
    return {
        "number": number,
        "name": name,
        "club": club,
        "rounds": rounds,
        "total": sum(known, Decimal(0)),
        "deals": 4 * len(known),
        "rank": number,
        "withdrawn_after": None,
        "joined_before": 1,
        "pending": pending or [False] * len(rounds),
        **more,
    }


def test_ranking_rows_escape_names_and_mark_the_provisional_cells():
    rows = [
        row(1, "<script>x</script>", [Decimal("12.5"), Decimal(-3)], club="<b>Nice</b>"),
        row(2, "Zoé", [Decimal(0), None], pending=[True, False], withdrawn_after=1),
    ]
    with translation.override("en"):
        out = include("ranking_rows", rows=display_rows(rows, club=CLUB, tournament=TOURNAMENT))
    assert "<script>" not in out and "&lt;script&gt;x&lt;/script&gt;" in out
    assert "&lt;b&gt;Nice&lt;/b&gt;" in out
    first, second = out.split("\n")
    assert first.startswith('<tr><td class="num">1</td><td class="num">1</td>')
    assert '<a href="/clubs/rive/tournaments/7/players/1/">' in first
    assert '<span class="pos">+12.5</span>' in first and '<span class="neg">−3</span>' in first
    assert '<td class="num total"><span class="pos">+9.5</span></td>' in first
    assert second.startswith('<tr class="withdrawn">')
    assert "(withdrew after round 1)" in second
    assert second.count("pending-mark") == 1
    assert '<td class="num pending"><span class="zero">0</span><abbr' in second
    assert '<span class="muted">—</span>' in second  # a round not played


def test_the_provisional_tables_are_listed_in_the_page_language():
    pending = [{"round": 1, "table": 3}, {"round": 2, "table": 12}]
    with translation.override("en"):
        out = include("pending_tables", pending=pending)
    assert out == (
        '<span class="pending-table">R1 T3</span>, <span class="pending-table">R2 T12</span>'
    )


def test_a_route_card_has_a_line_per_round_with_dashes_where_the_player_sits_out():
    route = {"stops": [{"table": 4, "seat": "E"}, None, {"table": 12, "seat": "5"}]}
    assert include("route_rows", route=route) == (
        "<tr><td>1</td><td>4</td><td>E</td></tr>"
        "<tr><td>2</td><td>—</td><td>—</td></tr>"
        "<tr><td>3</td><td>12</td><td>5</td></tr>"
    )


def test_the_blank_grid_has_a_line_per_deal_and_a_cell_per_seat_in_each_language():
    with translation.override("en"):
        english = include("blank_grid", t=SimpleNamespace(blank_lines=range(1, 6), seats="ABCD"))
    with translation.override("fr"):
        french = include("blank_grid", t=SimpleNamespace(blank_lines=range(1, 4), seats="ABCDE"))
    assert english.count("<tr>") == 5 and english.count("<tr") == 7
    assert english.count("<td></td>") == 5 * 5 + 2 * 4  # taker column + seats; bilan, signatures
    assert "Bilan (sums to zero)" in english and "Signatures" in english
    assert french.count("<tr>") == 3 and "Bilan (somme nulle)" in french
    assert french.count("<td></td>") == 3 * 6 + 2 * 5
