"""The standings as a django-tables2 table over ``scoresheet.summaries.standings``.

Sorting is SQL (``ORDER BY`` on the aggregate's columns, the player's name
breaking ties, so pages never overlap); ranks come from the query and stay
those of the whole result. Cells show locale-formatted numbers; exports
(``value_*``) keep plain numbers so a spreadsheet can sum them.
"""

from decimal import Decimal

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import F
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core import pages, tables2
from scoresheet.formatting import format_number, format_signed

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def _number(value):
    """Whole numbers as int, others as they are (22.5 stays 22.5)."""
    if isinstance(value, float):
        value = Decimal(str(value))
    return int(value) if value == value.to_integral_value() else value.normalize()


def _rounded(value, places):
    return None if value is None else _number(round(Decimal(str(value)), places))


def _score_class(value):
    return "pos" if value > 0 else "neg" if value < 0 else "zero"


class StandingsPaginator(Paginator):
    """Reads the number of players from the page's own rows (``players``, a
    ``COUNT(*) OVER ()`` of ``standings()``) rather than from a COUNT query,
    which on a filtered page would aggregate the matching sheets a second time.
    Only a page past the end (no row to read it from) costs a COUNT, as usual.
    """

    def page(self, number):
        try:
            number = int(number)
        except (TypeError, ValueError):
            raise PageNotAnInteger(number) from None
        if number < 1:
            raise EmptyPage(number)
        bottom = (number - 1) * self.per_page
        rows = list(self.object_list[bottom : bottom + self.per_page])
        if rows:
            self.__dict__["count"] = rows[0].record["players"]  # Paginator.count is cached
        elif number > 1:
            raise EmptyPage(number)  # django-tables2 then shows the last page
        else:
            self.__dict__["count"] = 0
        return self._get_page(rows, number, self)


class SortedColumn(tables2.Column):
    """A column sorted in SQL by its value (then ``then``), NULLs last, ties by name.

    Numbers sort high to low on the first click (``descending``); whichever
    way, equal values keep the players' alphabetical order, so pages never
    overlap.
    """

    def __init__(self, *args, then=(), descending=True, **kwargs):
        super().__init__(*args, attrs=NUM, initial_sort_descending=descending, **kwargs)
        self.then = then

    def order(self, queryset, is_descending):
        keys = [
            F(field).desc(nulls_last=True) if is_descending else F(field).asc(nulls_last=True)
            for field in (str(self.accessor), *self.then)
        ]
        return queryset.order_by(*keys, "player__sort_key"), True


class StandingsTable(tables2.Table):
    rank = SortedColumn(verbose_name=_("Rank"), descending=False)
    name = tables2.Column(
        verbose_name=_("Player"), attrs={"td": {"class": "player"}}, order_by=("player__sort_key",)
    )
    total = SortedColumn(verbose_name=_("Total"))
    sheets_played = SortedColumn(verbose_name=_("Sheets"))
    hands_played = SortedColumn(verbose_name=_("Hands"))
    hands_taken = SortedColumn(verbose_name=_("Taken"))
    contracts_made = tables2.Column(verbose_name=_("Made"), visible=False)  # exports only
    made_pct = SortedColumn(verbose_name=_("Made %"), then=("hands_taken",))
    average = SortedColumn(verbose_name=_("Average"))
    # the rating shown in the scope (``ratings.compute.shown``), blank under the minimum
    # of hands rated
    rating = SortedColumn(verbose_name=_("Rating"))

    class Meta:
        template_name = "standings/standings_table.html"
        attrs = {"class": "table standings-table", "data-standings": ""}
        order_by = ("rank",)
        empty_text = _("No hand on the ledger yet.")

    @property
    def display_rows(self):
        """The page's rows as display strings, for ``standings/standings_table.html``.

        The template writes the cells itself: django-tables2's per-cell machinery
        cost more than the whole query at 50 rows a page.
        """
        rows = self.page.object_list if self.page else self.rows
        context = getattr(self, "context", None) or {}
        club, season = context.get("club"), context.get("season")
        display = [_display(row.record) for row in rows]
        if club is not None:  # each name links to the player's statistics
            for item in display:
                if season is not None:
                    args = [club.slug, item["player_id"], season.pk]
                    item["url"] = pages.url("player_season_statistics", *args)
                else:
                    item["url"] = pages.url("player_statistics", club.slug, item["player_id"])
        return display

    def value_total(self, value):
        return _number(value)

    def value_made_pct(self, value):
        return _rounded(value, 1)

    def value_average(self, value):
        return _rounded(value, 2)

    def value_rating(self, value):
        return None if value is None else round(value, 4)


def _percent(value):
    if value is None:
        return "—"
    # Translators: a percentage; French puts a (no-break) space before the sign
    return gettext("%(percent)s%%") % {"percent": format_number(value)}


def _display(record):
    total = _number(record["total"])
    average = _rounded(record["average"], 1)
    made_pct = _rounded(record["made_pct"], 0)
    rating = record.get("rating")
    return {
        "rank": record["rank"],
        "player_id": record["player_id"],
        "name": record["name"],
        "total": format_signed(total),
        "total_class": _score_class(total),
        "sheets": format_number(record["sheets_played"]),
        "hands": format_number(record["hands_played"]),
        "taken": format_number(record["hands_taken"]),
        "made_pct": _percent(made_pct),
        "average": "—" if average is None else format_signed(average),
        "average_class": "" if average is None else _score_class(average),
        "rating": "—" if rating is None else format_number(round(rating)),
    }
