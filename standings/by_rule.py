"""A season's standings under its ranking rule (``clubs.ranking_rule``), for the standings page.

When the season shown (the season's page, or the season chosen in the filter)
ranks otherwise than by total, ``ranked_rows`` answers with the rows of
``standings.queries.ranked_standings`` (one query) and the page uses
``RankedStandingsTable``: the value ranked on, the evenings played, and the
players below the minimum attendance listed after the ranked ones, without a
rank. The rule is said in words above the table (``ranking_words``).
"""

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from clubs.ranking_rule import RankingError, parse_ranking
from core import tables2
from ratings import queries as ratings
from scoresheet.formatting import format_number, format_signed
from standings.listings import NUM, StandingsTable, _number, _rounded, _score_class
from standings.queries import ranked_standings


def season_ranking(season):
    """The season's ranking rule when it is not the plain total (else None)."""
    if season is None:
        return None
    try:
        ranking = parse_ranking(season.ranking)
    except RankingError:
        return None
    return None if ranking.is_default else ranking


def ranked_rows(filter_set, ranking):
    """The rows of the filter's season under ``ranking`` (none when the filter is invalid)."""
    if not filter_set.form.is_valid():
        return []
    rows = ranked_standings(ranking=ranking, **filter_set.scope())
    # each player's rating (``compute.shown``): one query for every row
    shown = ratings.shown_ordinals(filter_set.rating_scope(), [row["player_id"] for row in rows])
    for row in rows:
        row["rating"] = shown.get(row["player_id"])
    return rows


def value_label(ranking):
    if ranking.by == "points":
        return gettext("Points")
    if ranking.by == "hand_average":
        return gettext("Average per hand")
    if ranking.by == "evening_average":
        return gettext("Average per evening")
    if ranking.best:
        return ngettext("Best evening", "Best %(n)d evenings", ranking.best) % {"n": ranking.best}
    return gettext("Total")


class ListColumn(tables2.Column):
    """A column of the ranked rows (a list, sorted in Python): numbers high to low first."""

    def __init__(self, *args, descending=True, **kwargs):
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, initial_sort_descending=descending, **kwargs)


class RankedStandingsTable(StandingsTable):
    """The standings of a season ranked by its rule; rows are dicts (already in rank order)."""

    rank = ListColumn(verbose_name=_("Rank"), descending=False, order_by=("order",))
    value = ListColumn(verbose_name=_("Ranked on"), order_by=("value", "order"))
    evenings = ListColumn(verbose_name=_("Evenings"), order_by=("evenings", "order"))
    total = ListColumn(verbose_name=_("Total"), order_by=("total", "order"))
    sheets_played = ListColumn(verbose_name=_("Sheets"), order_by=("sheets_played", "order"))
    hands_played = ListColumn(verbose_name=_("Hands"), order_by=("hands_played", "order"))
    hands_taken = ListColumn(verbose_name=_("Taken"), order_by=("hands_taken", "order"))
    made_pct = ListColumn(verbose_name=_("Made %"), order_by=("made_pct", "order"))
    average = ListColumn(verbose_name=_("Average"), order_by=("average", "order"))
    rating = ListColumn(verbose_name=_("Rating"), order_by=("rating", "order"))

    class Meta(StandingsTable.Meta):
        template_name = "standings/standings_ranked_table.html"
        sequence = (
            "rank",
            "name",
            "value",
            "evenings",
            "total",
            "sheets_played",
            "hands_played",
            "hands_taken",
            "made_pct",
            "average",
            "rating",
            "...",
        )

    def __init__(self, data, *args, ranking, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.ranking = ranking
        self.columns["value"].column.verbose_name = value_label(ranking)

    @property
    def display_rows(self):
        rows = self.page.object_list if self.page else self.rows
        display = super().display_rows
        for item, row in zip(display, rows):
            record = row.record
            value = record["value"]
            if value is not None and self.ranking.by in ("hand_average", "evening_average"):
                value = _rounded(value, 1)
            elif value is not None:
                value = _number(value)
            item["rank"] = record["rank"] if record["ranked"] else "—"
            item["ranked"] = record["ranked"]
            item["value"] = "—" if value is None else format_signed(value)
            if self.ranking.by == "points" and value is not None:
                item["value"] = format_number(value)
            item["value_class"] = "" if value is None else _score_class(value)
            item["evenings"] = format_number(record["evenings"])
        return display

    def value_value(self, value):
        return None if value is None else _number(value)
