"""The sheet page's hand rows, written in Python: the page's one loop over hundreds of hands.

A 250-hand sheet is 500 table rows; through the template language each cost about
as much as the rest of the page, so ``scoresheet/sheet_detail.html`` takes them
ready made (``hand_rows``), two rows a hand, as it wrote them itself:

* the hand's row: its number (a link to its page, relative to the sheet's: the
  page is ``…/sheets/<id>/``), taker and contract, each seat's score with the
  running total under it, [the pools], the zero-sum mark, then the detail columns
  (dealer, [partner], [sits out], bouts, points, [bonuses]) that a phone hides;
* under it the folded line a phone shows: taker and contract, "Why? Hand N", and
  once opened the details and the explanation.

Markup is kept tight (a 250-hand six-seat sheet stays well under 500 KB): the
detail cells carry no class (sheet.css finds them after the zero mark, or after a
deleted hand's note), nor do the running totals (the ``small`` of a score cell) or
the row's number; the marks ✓ and ✗ are read out by their word (``role="img"``
with an ``aria-label``) rather than beside a hidden one; the taker is a ``b``.
Every word is translated once a page, not once a row; every text is escaped.
"""

from django.utils.html import conditional_escape as esc
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoresheet.formatting import format_signed
from scoresheet.templatetags.tarot import long_classes, render_explanation, score, score_class


def _mark(css, word, sign) -> str:
    """A sign read out by its word (role="img"): shorter than a hidden word beside it."""
    return f'<span class="{css}" role="img" aria-label="{word}">{sign}</span>'


class _Words:
    """The row's words, in the active language, looked up once."""

    def __init__(self):
        self.deleted = esc(_("deleted"))
        self.zero = esc(_("sums to zero"))
        self.not_zero = esc(_("does not sum to zero"))
        self.made = " " + _mark("pos", esc(_("made")), "✓")
        self.failed = " " + _mark("neg", esc(_("failed")), "✗")
        self.passed = esc(_("Everybody passed"))
        self.facts = {
            key: esc(word)
            for key, word in (
                ("dealer", _("Dealer")),
                ("partner", _("Partner")),
                ("sits_out", _("Sits out")),
                ("bouts", _("Bouts")),
                ("points", _("Points")),
            )
        }
        self.why = _("Why? Hand %(number)s")


def _contract(line, words, inline=False):
    """Who took what and whether it was made (the taker cell; ``inline``: the folded line)."""
    hand = line.hand
    if hand.taker_id:
        mark = {True: words.made, False: words.failed}.get(line.made, "")
        if inline:  # the folded line: one run of words
            out = f"<b>{esc(line.taker)}</b> · {esc(line.contract)}{mark}"
        else:
            contract = f'<span class="contract-name">{esc(line.contract)}{mark}</span>'
            out = f"<b>{esc(line.taker)}</b> {contract}"
    else:
        out = f'<span class="muted">{words.passed}</span>'
    if inline and hand.is_deleted:
        out += f' · <span class="muted">{words.deleted}</span>'
    return out


def _number(value):
    return esc(score(value))


def hand_rows(context):
    """The two rows of each hand of ``context["lines"]`` (``views.sheets._sheet_context``),
    as one safe string; ``context["undo_number"]`` marks the hand just saved."""
    layout = _Layout(context)
    out = []
    for line in context["lines"]:
        _score_row(out.append, line, layout)
        _explain_row(out.append, line, layout)
    return mark_safe("".join(out))  # noqa: S308 -- every text above is escaped


class _Layout:
    """What every hand's rows share: the words, the columns shown and their spans."""

    def __init__(self, context):
        self.words = words = _Words()
        seats = len(context["names"])
        self.has_pools = context["has_pools"]
        self.show_partner = context["show_partner"]
        self.show_sits_out = context["show_sits_out"]
        self.show_bonuses = context["show_bonuses"]
        self.undo_number = context.get("undo_number")
        self.deleted_span = seats + context["pools_col"] + 1
        self.explain_span = seats + context["pools_col"] + 2
        self.rest_span = context["detail_columns"] + 1
        self.zero_mark = f'<td class="check-col">{_mark("pos", words.zero, "✓")}</td>'
        self.wrong_mark = (
            f'<td class="check-col"><span class="neg" title="{words.not_zero}">≠ 0</span></td>'
        )
        self.signed = _SignedScores()


def _badges(line):
    return [f'<span class="badge bonus-{kind}">{esc(text)}</span>' for kind, text in line.bonuses]


def _score_row(add, line, layout):
    """A hand's line: its number, contract, each player's score and running total, the
    pools, the zero check, the dealer, partner and sitting-out player, bouts, points."""
    words, signed = layout.words, layout.signed
    hand = line.hand
    number = hand.number
    deleted = hand.is_deleted
    href = f"hands/{number}/"  # the hand's page, beside the sheet's (scoresheet/urls.py)
    classes = "hand-row"
    if deleted:
        classes += " hand-deleted"
    if number == layout.undo_number:
        classes += " hand-new"
    add(
        f'<tr id="hand-{number}" class="{classes}" data-hand="{number}">'
        f'<th scope="row"><a href="{href}">{number}</a></th>'
        f'<td class="contract col-detail">{_contract(line, words)}</td>'
    )
    if deleted:
        add(f'<td colspan="{layout.deleted_span}" class="deleted-note"><a href="{href}">')
        add(f"{words.deleted}</a></td>")
    else:
        for cell in line.cells:
            score, running = signed(cell.score), signed(cell.running)
            add(
                f'<td class="score"><span class="{score[3]}{score[1]}">'
                f"{score[0]}</span><small{running[2]}>{running[0]}</small></td>"
            )
        if layout.has_pools:
            pools = ""
            if len(line.pools) > 1:
                pools = f"<small>{esc(' + '.join(str(p) for p in line.pools))}</small>"
            add(f'<td class="score pools-col"><span>{_number(line.pool_total)}</span>{pools}</td>')
        add(layout.zero_mark if line.balanced else layout.wrong_mark)
    add(f"<td>{esc(line.dealer or '—')}</td>")
    if layout.show_partner:
        add(f"<td>{esc(line.partner or '—')}</td>")
    if layout.show_sits_out:
        add(f"<td>{esc(line.sits_out or '—')}</td>")
    if hand.taker_id:
        add(f'<td class="num">{hand.bouts}</td><td class="num">{_number(hand.points)}</td>')
    else:
        add("<td></td><td></td>")
    if layout.show_bonuses:
        add(f'<td class="bonuses">{" ".join(_badges(line))}</td>')
    add("</tr>\n")


def _explain_row(add, line, layout):
    """The folded line under it: the facts and the reckoning, opened on demand."""
    words = layout.words
    hand = line.hand
    number = hand.number
    deleted = hand.is_deleted
    why = not deleted and bool(hand.explanation)
    classes = "explain-row"
    if deleted:
        classes += " hand-deleted"
    if why:
        classes += " has-why"
    add(
        f'<tr class="{classes}" data-hand-details="{number}">'
        f'<td colspan="{layout.explain_span}">'
        f'<details class="explain"><summary><span class="explain-line">'
        f"{_contract(line, words, inline=True)}</span>"
    )
    if why:
        add(f' <span class="explain-why">{esc(words.why % {"number": number})}</span>')
    add('</summary><dl class="explain-facts">')
    for key, value in (
        ("dealer", line.dealer),
        ("partner", line.partner),
        ("sits_out", line.sits_out),
    ):
        if value:
            add(f"<div><dt>{words.facts[key]}</dt><dd>{esc(value)}</dd></div>")
    if hand.taker_id:
        add(
            f"<div><dt>{words.facts['bouts']}</dt><dd>{hand.bouts}</dd></div>"
            f"<div><dt>{words.facts['points']}</dt><dd>{_number(hand.points)}</dd></div>"
        )
    for badge in _badges(line):
        add(f'<div class="explain-bonus"><dd>{badge}</dd></div>')
    add("</dl>")
    if why:
        text = esc(render_explanation(hand.explanation))
        add(f'<p class="explanation" data-explanation>{text}</p>')
    add(f'</details></td><td colspan="{layout.rest_span}"></td></tr>\n')


class _SignedScores(dict):
    """A score's text (``signed_score``), its " long…" classes (``long_score``),
    those as a ``class`` attribute and its colour (``score_class``), worked out once
    per value a page, in the language read once: a sheet shows the same few scores
    hundreds of times."""

    def __init__(self):
        super().__init__()
        self.language = get_language()  # once, not once a number

    def __missing__(self, value):
        text = format_signed(value, self.language)
        classes = long_classes(text)
        attribute = f' class="{classes.strip()}"' if classes else ""
        self[value] = found = (text, classes, attribute, score_class(value))
        return found

    def __call__(self, value):
        return self[value]
