"""The pieces of the tournament pages repeated hundreds of times, written once in Python.

A 200-player tournament's ranking has 200 rows of 12 cells, its route cards 200
cards of 6 lines, a round's table cards 50 score grids. Through the template
engine each of those cells is a lookup, a localisation and an escape (and a
translation for the marks and headings repeated in each): at that size the
loops cost more than the rest of the request together. These functions write
the same markup as one string: each distinct piece once, every translation
once, what a user typed (names, clubs) escaped. The templates say where each
piece goes.
"""

from functools import lru_cache
from html import escape  # django.utils.html.escape's own, without its lazy-text wrapper

from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext


def ranking_rows(display) -> str:
    """The ranking table's body rows from ``tournaments.tables.display_rows``: place,
    number, name (a link, and the withdrawal or late entry), club, a cell per round
    (provisional ones marked), total, deals."""
    mark = format_html(
        '<abbr class="pending-mark" title="{}">*</abbr>', gettext("not confirmed yet")
    )
    cells = {}

    def cell(text, css, pending):
        key = (text, css, pending)
        if key not in cells:
            if pending:
                cells[key] = (
                    f'<td class="num pending"><span class="{css}">{escape(text)}</span>{mark}</td>'
                )
            else:
                cells[key] = f'<td class="num"><span class="{css}">{escape(text)}</span></td>'
        return cells[key]

    lines = []
    for row in display:
        withdrawn = ' class="withdrawn"' if row["withdrawn_after"] else ""
        name = f'<a href="{escape(row["url"])}">{escape(row["name"])}</a>'
        if row["status"]:
            name += f' <span class="muted ranking-status">({escape(row["status"])})</span>'
        scores = "".join(cell(*c) for c in row["cells"])
        total = f'<span class="{row["total_class"]}">{escape(row["total_text"])}</span>'
        lines.append(
            f'<tr{withdrawn}><td class="num">{row["rank"]}</td><td class="num">{row["number"]}</td>'
            f'<td class="player">{name}</td><td class="club-col">{escape(row["club"])}</td>'
            f'{scores}<td class="num total">{total}</td>'
            f'<td class="num">{escape(row["deals_text"])}</td></tr>'
        )
    return mark_safe("\n".join(lines))  # every piece escaped above


def pending_tables(pending) -> str:
    """The provisional tables' labels ("R1 T4, R2 T7") for the ranking's notice."""
    label = gettext("R%(r)s T%(t)s")
    return format_html_join(
        ", ",
        '<span class="pending-table">{}</span>',
        ((label % {"r": p["round"], "t": p["table"]},) for p in pending),
    )


def route_rows(route) -> str:
    """A route card's body: a line per round (round, table, seat; dashes when the
    player does not play it)."""
    lines = []
    for number, stop in enumerate(route["stops"], start=1):
        if stop is None:
            lines.append(f"<tr><td>{number}</td><td>—</td><td>—</td></tr>")
        else:
            lines.append(
                f"<tr><td>{number}</td><td>{stop['table']}</td><td>{stop['seat']}</td></tr>"
            )
    return mark_safe("".join(lines))  # numbers and seat letters only


def blank_grid(lines: int, seats: int) -> str:
    """A table card's blank feuille de marque body: a numbered line per deal, then the
    bilan and the signatures, a cell per seat (one per shape and language)."""
    return _blank_grid(lines, seats, get_language())


@lru_cache(maxsize=64)
def _blank_grid(lines, seats, language):
    empty = "<td></td>" * seats
    rows = [f'<tr><td class="num">{n}</td><td></td>{empty}</tr>' for n in range(1, lines + 1)]
    rows.append(
        format_html('<tr class="bilan"><th colspan="2">{}</th>', gettext("Bilan (sums to zero)"))
        + f"{empty}</tr>"
    )
    rows.append(
        format_html('<tr class="signatures"><th colspan="2">{}</th>', gettext("Signatures"))
        + f"{empty}</tr>"
    )
    return mark_safe("".join(rows))  # translations escaped by format_html
