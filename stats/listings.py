"""The tables of the statistics pages, as django-tables2 tables over plain data.

Each table is built in ``stats.views`` from the lists of dicts that
``stats.queries`` (and the standings) already returned, so rendering one
runs no query: the ``render_*`` methods only format numbers, dates and links.
They are not sorted; the few that grow with the evenings played are paged
(``paged=True``). They are drawn by
``stats/table.html`` (row headers as ``<th scope="row">``, a footer row).
Numbers are formatted and coloured as the ``tarot`` template filters do.
"""

from django.http import QueryDict
from django.template.defaultfilters import capfirst, floatformat
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core import tables2
from core.paging import bounded_int
from scoresheet.templatetags.tarot import score, score_class, signed_score


def percent(value):
    """``12,5%`` as the templates' ``{% blocktranslate %}{{ pct }}%{% endblocktranslate %}``."""
    return gettext("%(pct)s%%") % {"pct": value}


def short_date(value):
    return date_format(value, "SHORT_DATE_FORMAT")


def _num(key=None, **td):
    """The ``num`` class, and the score's colour when ``key`` names the score."""
    if key is None:
        return {"th": {"class": "num"}, "td": {"class": "num", **td}, "tf": {"class": "num"}}
    return {
        "th": {"class": "num"},
        "td": {
            "class": tables2.signed(lambda record: f"num {score_class(record.get(key))}".strip()),
            **td,
        },
        "tf": {"class": "num"},
    }


class Column(tables2.Column):
    """A cell shown as it is (``None`` too: no "—" default)."""

    row_header = False

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("empty_values", ())
        kwargs.setdefault("orderable", False)
        super().__init__(*args, **kwargs)


class RowHeader(Column):
    """The row's label: a ``<th scope="row">`` (see ``stats/table.html``)."""

    row_header = True


class Number(Column):
    """A count, right-aligned."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", _num())
        super().__init__(*args, **kwargs)


class Score(Column):
    """A score: ``signed`` (+12, −12) or not, coloured when ``key`` is given."""

    def __init__(self, *args, signed=True, key=None, **kwargs):
        kwargs.setdefault("attrs", _num(key))
        super().__init__(*args, **kwargs)
        self.signed = signed

    def render(self, value):
        return signed_score(value) if self.signed else score(value)


class Percent(Column):
    """A percentage, "–" when there is none."""

    def __init__(self, *args, blank="–", **kwargs):
        kwargs.setdefault("attrs", _num())
        super().__init__(*args, **kwargs)
        self.blank = blank

    def render(self, value):
        return self.blank if value is None or value == "" else percent(score(value))


class HiddenHeader(Column):
    """A column whose header is for screen readers only."""

    @property
    def header(self):
        return format_html('<span class="visually-hidden">{}</span>', self.verbose_name)


class Label(RowHeader):
    """A label from the statistics, capitalised."""

    def render(self, value):
        return capfirst(value)


#: Rows per page of the tables that grow with the evenings played (``paged=True``).
ROWS_PER_PAGE = 25


class StatsTable(tables2.Table):
    """No sorting; the page gives the ``id``.

    A table that grows with the evenings played is built with ``paged=True`` and the
    request: it shows ``ROWS_PER_PAGE`` rows, the latest by default (the rows come in
    date order), and its own pager (``?<id>=N``, bounded), so the page weighs the same
    after ten evenings or three hundred.
    """

    class Meta:
        template_name = "stats/table.html"
        orderable = False

    def __init__(
        self, data, *, table_id, club=None, css="table", paged=False, request=None, **kwargs
    ):
        self.club = club
        # Given here as well: a subclass without its own Meta does not inherit this one.
        kwargs.setdefault("template_name", self.Meta.template_name)
        kwargs.setdefault("orderable", False)
        super().__init__(data, attrs={"class": css, "id": table_id}, **kwargs)
        self.page_field = table_id
        self.pager = None
        if paged and len(self.data) > ROWS_PER_PAGE:
            pages = -(-len(self.data) // ROWS_PER_PAGE)
            query = request.GET.copy() if request is not None else QueryDict(mutable=True)
            self.paginate(
                page=bounded_int(query.get(table_id), pages, 1, pages), per_page=ROWS_PER_PAGE
            )
            self.pager = {
                "previous": self._page_url(query, self.page.number - 1, pages),
                "next": self._page_url(query, self.page.number + 1, pages),
            }

    def _page_url(self, query, number, pages):
        """``?<id>=number`` with the request's other parameters, or None off the ends."""
        if not 1 <= number <= pages:
            return None
        query[self.page_field] = number
        return f"?{query.urlencode()}#{self.page_field}"

    def hand_url(self, record):
        return reverse(
            "scoresheet:hand", args=[self.club.slug, record["sheet_id"], record["number"]]
        )


def hand_label(record):
    return gettext("hand %(number)s") % {"number": record["number"]}


# The player's page ----------------------------------------------------------------------


class RunningHandsTable(StatsTable):
    """The running total after each hand of a season (rows of ``running_by_hand``)."""

    counter = Number(verbose_name="#", attrs={"th": {}, "td": {"class": "num"}})
    running = Score(verbose_name=_("Total"), signed=False, key="running")
    score = Score(verbose_name=_("Score"), key="score")
    title = Column(verbose_name=_("Hand"))
    role_label = Column(verbose_name=_("Role"))

    def render_counter(self, bound_row, record):
        # the hand's place in the season (the rows are one page of it)
        return record.get("counter", bound_row.row_counter + 1)

    def render_title(self, value, record):
        return format_html('<a href="{}">{}</a>', self.hand_url(record), value)


class RunningEveningsTable(StatsTable):
    """The running total after each evening (rows of ``evenings``)."""

    date = Column(verbose_name=_("Evening"))
    total = Score(verbose_name=_("Score"), key="total")
    running = Score(verbose_name=_("Total"), signed=False, key="running")

    def render_date(self, value):
        return short_date(value)


class TopTable(StatsTable):
    """The top players' running totals, a column each (``stats.views._top_chart``)."""

    date = RowHeader(verbose_name=_("Evening"))

    def __init__(self, top, *, player=None, **kwargs):
        columns, data = [], []
        for i, p in enumerate(top["players"]):
            me = player is not None and p["player_id"] == player.pk
            key = f"p{i}"
            attrs = _num(key)
            if me:
                attrs["th"] = {"class": "num me"}
            header = f"{p['rank']}. {p['name']}"
            columns.append((key, Score(verbose_name=header, signed=False, key=key, attrs=attrs)))
        for row in top["rows"]:
            data.append({"date": row["date"], **{f"p{i}": v for i, v in enumerate(row["values"])}})
        super().__init__(data, extra_columns=columns, **kwargs)

    def render_date(self, value):
        return short_date(value)


def _footer(key, render=str):
    """A footer cell from the table's ``totals`` (the summary)."""
    return tables2.signed(lambda table: render(table.totals.get(key)))


class PlayerContractsTable(StatsTable):
    """A player's contracts (``statistics.contracts``), the summary in the footer."""

    label = Label(verbose_name=_("Contract"), footer=_("All"))
    taken = Number(verbose_name=_("Taken"), footer=_footer("taken"))
    made = Number(verbose_name=_("Made"), footer=_footer("made"))
    made_pct = Percent(
        verbose_name=_("Success"), footer=_footer("made_pct", lambda v: percent(score(v)))
    )
    score_average = Score(
        verbose_name=_("Avg. score"),
        footer=_footer("taker_average", signed_score),
        attrs={
            **_num("score_average"),
            "tf": {
                "class": lambda table: (
                    f"num {score_class(table.totals.get('taker_average'))}".strip()
                )
            },
        },
    )
    margin_average = Score(
        verbose_name=_("Avg. margin"), footer=_footer("margin_average", signed_score)
    )

    class Meta(StatsTable.Meta):
        row_attrs = {"data-contract": tables2.signed(lambda record: record["contract"])}

    def __init__(self, data, *, totals, **kwargs):
        self.totals = totals
        super().__init__(data, **kwargs)


class BoutsTable(StatsTable):
    """How many bouts the player held as preneur: the counts side by side."""

    label = RowHeader(verbose_name=_("Bouts"), attrs={"th": {"scope": "row"}})

    def __init__(self, bouts, **kwargs):
        columns = [(f"b{b['n']}", Number(verbose_name=str(b["n"]))) for b in bouts]
        row = {"label": gettext("Hands taken"), **{f"b{b['n']}": b["count"] for b in bouts}}
        super().__init__([row], extra_columns=columns, **kwargs)


class MarginsTable(StatsTable):
    """How the contracts went: a bar a bucket of margins."""

    label = Label(verbose_name=_("Result"))
    count = Number(verbose_name=_("Hands"))
    bar = HiddenHeader(
        verbose_name=_("Share"),
        accessor="width",
        attrs={"td": {"class": "bar-cell", "aria-hidden": "true"}},
    )

    class Meta(StatsTable.Meta):
        row_attrs = {"data-bucket": tables2.signed(lambda record: record["key"])}

    def render_bar(self, value, record):
        css = "bar"
        if not record["made"]:
            css += " bar-failed"
        if not record["count"]:
            css += " bar-zero"
        # a width class in steps of 5% (static/css/stats.css): the Content-Security-Policy
        # allows no style="" attribute
        step = max(0, min(100, int(round(float(value or 0) / 5)) * 5))
        return format_html('<span class="{} w{}"></span>', css, step)


class PetitAuBoutTable(StatsTable):
    """Petit au bout taken and lost, in attack and in defence."""

    label = RowHeader(verbose_name="")
    won = Number(verbose_name=_("Taken"))
    lost = Number(verbose_name=_("Lost"))

    def __init__(self, pab, **kwargs):
        data = [
            {"label": gettext("In attack"), "won": pab["attack_won"], "lost": pab["attack_lost"]},
            {
                "label": gettext("In defence"),
                "won": pab["defence_won"],
                "lost": pab["defence_lost"],
            },
        ]
        super().__init__(data, **kwargs)


class PoigneesTable(StatsTable):
    label = Label(verbose_name=_("Poignée"))
    attack = Number(verbose_name=_("In attack"))
    defence = Number(verbose_name=_("In defence"))

    class Meta(StatsTable.Meta):
        row_attrs = {"data-size": tables2.signed(lambda record: record["size"])}


class ChelemsTable(StatsTable):
    label = Label(verbose_name=_("Chelem"))
    attack = Number(verbose_name=_("In attack"))
    defence = Number(verbose_name=_("In defence"))

    class Meta(StatsTable.Meta):
        row_attrs = {"data-chelem": tables2.signed(lambda record: record["code"])}


class PlayerEveningsTable(StatsTable):
    """A player's results evening by evening (``statistics.evenings``)."""

    date = RowHeader(verbose_name=_("Evening"))
    total = Score(verbose_name=_("Score"), attrs=_num("total", **{"data-col": "score"}))
    running = Score(
        verbose_name=_("Total"), signed=False, attrs=_num("running", **{"data-col": "total"})
    )
    played = Number(verbose_name=_("Hands"))
    taken = Number(verbose_name=_("Taken"))
    made = Number(verbose_name=_("Made"))

    class Meta(StatsTable.Meta):
        row_attrs = {
            "data-date": tables2.signed(lambda record: record["date"].strftime("%Y-%m-%d"))
        }

    def render_date(self, value, record):
        if record["sheets"] == 1:
            url = reverse("scoresheet:sheet", args=[self.club.slug, record["sheet_id"]])
            return format_html('<a href="{}">{}</a>', url, short_date(value))
        return short_date(value)


class HandsTable(StatsTable):
    """Some of a player's hands, best or worst (``statistics.best_hands``)."""

    score = Score(verbose_name=_("Score"), key="score")
    hand = Column(verbose_name=_("Hand"), accessor="number", attrs={"td": {"class": "hand-cell"}})

    def render_hand(self, record):
        if record["role"] == "passed":
            outcome = gettext("everybody passed")
        else:
            if record["made"]:
                outcome = gettext("%(contract)s made by %(by)s")
            else:
                outcome = gettext("%(contract)s failed by %(by)s")
            outcome %= {"contract": record["contract_label"], "by": record["by"]}
        return format_html(
            '<a href="{}">{} · {}</a>\n              <span class="stat-note">{} · {}</span>',
            self.hand_url(record),
            short_date(record["date"]),
            hand_label(record),
            capfirst(record["role_label"]),
            outcome,
        )


class SeasonRanksTable(StatsTable):
    """A player's total and rank in each season (``statistics.season_ranks``)."""

    name = RowHeader(verbose_name=_("Season"))
    total = Score(verbose_name=_("Total"), key="total")
    rank = Number(verbose_name=_("Rank"))
    played = Number(verbose_name=_("Hands"))
    taken = Number(verbose_name=_("Taken"))
    made_pct = Percent(verbose_name=_("Success"))

    def __init__(self, data, *, player, **kwargs):
        self.player = player
        super().__init__(data, **kwargs)

    def render_name(self, value, record):
        url = reverse(
            "stats:player_season", args=[self.club.slug, self.player.pk, record["season_id"]]
        )
        return format_html('<a href="{}">{}</a>', url, value)

    def render_rank(self, value, record):
        return gettext("%(rank)s of %(players)s") % {"rank": value, "players": record["players"]}


# The season's page ----------------------------------------------------------------------


class SeasonContractsTable(StatsTable):
    """The season's contracts, everybody passed, and all hands in the footer."""

    label = RowHeader(verbose_name=_("Contract"), footer=_("All hands"))
    taken = Number(verbose_name=_("Taken"), footer=_footer("hands"))
    share = Percent(verbose_name=_("Share"), blank="", footer=tables2.signed(lambda: percent(100)))
    made_pct = Percent(
        verbose_name=_("Success"),
        blank="",
        footer=lambda table: (
            percent(score(table.totals["made_pct"])) if table.totals["taken"] else ""
        ),
    )
    made = Number(verbose_name=_("Made"), footer=_footer("made"))
    margin_average = Score(verbose_name=_("Avg. margin"), footer="")
    score_average = Score(verbose_name=_("Taker's avg."), key="score_average", footer="")

    class Meta(StatsTable.Meta):
        row_attrs = {"data-contract": tables2.signed(lambda record: record["contract"])}

    def __init__(self, data, *, totals, **kwargs):
        self.totals = totals
        passed = {
            "contract": "passed",
            "label": gettext("Everybody passed"),
            "taken": totals["passed"],
            "share": totals["passed_pct"],
            "made_pct": None,
            "made": "",
            "margin_average": None,
            "score_average": None,
        }
        rows = [{**row, "label": capfirst(row["label"])} for row in data] + [passed]
        super().__init__(rows, **kwargs)


class TableSizesTable(StatsTable):
    """Sheets and hands by table size (``statistics.table_sizes``)."""

    size = RowHeader(verbose_name=_("Table"), accessor="seats")
    sheets = Number(verbose_name=_("Sheets"))
    hands = Number(verbose_name=_("Hands"))

    class Meta(StatsTable.Meta):
        row_attrs = {
            "data-seats": tables2.signed(lambda record: record["seats"]),
            "data-playing": tables2.signed(lambda record: record["playing"]),
        }

    def render_size(self, record):
        seats, playing = record["seats"], record["playing"]
        if seats == playing:
            return ngettext("%(counter)s player", "%(counter)s players", seats) % {"counter": seats}
        return gettext("%(seats)s seated, %(playing)s play") % {"seats": seats, "playing": playing}


class PlayersTable(StatsTable):
    """The season's players (the standings' rows), each linked to their statistics."""

    name = RowHeader(verbose_name=_("Player"))
    total = Score(verbose_name=_("Total"), key="total")
    rank = Number(verbose_name=_("Rank"))
    hands_played = Number(verbose_name=_("Hands"))
    hands_taken = Number(verbose_name=_("Taken"))
    made_pct = Number(verbose_name=_("Success"))

    def __init__(self, data, *, season, **kwargs):
        self.season = season
        super().__init__(data, **kwargs)

    def render_name(self, value, record):
        url = reverse(
            "stats:player_season", args=[self.club.slug, record["player_id"], self.season.pk]
        )
        return format_html('<a href="{}">{}</a>', url, value)

    def render_made_pct(self, value):
        return "–" if value is None else percent(floatformat(value, 0))


class SeasonEveningsTable(StatsTable):
    """The season's evenings (``statistics.season_evenings``)."""

    date = RowHeader(verbose_name=_("Evening"))
    sheets = Number(verbose_name=_("Tables"))
    players = Number(verbose_name=_("Players"))
    hands = Number(verbose_name=_("Hands"))
    passed = Number(verbose_name=_("Everybody passed"))

    def render_date(self, value):
        return short_date(value)
