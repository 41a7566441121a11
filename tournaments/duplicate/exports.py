"""A duplicate event's exports: JSON in ``score_duplicate``'s input (``DUPLICATE.md``
§5) with the ranking and the hand records, the ranking as CSV, and a workbook of the
ranking, the travellers and the hand records. The view checks the format and who may
see the cards; this module reads the event and writes the file.
"""

import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.translation import gettext as _

from core.exports import csv_text, sheet, workbook
from core.jsonnumbers import json_number
from tarot.duplicate import SEATS, json_score
from tournaments.duplicate import results as duplicate_results
from tournaments.models import Tournament

FORMATS = ("json", "csv", "xlsx")


def rounded_score(value, places: int) -> Decimal:
    """An exact value (Fraction, int, Decimal) rounded half up: only to show or export."""
    value = Fraction(value)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def score_places(method) -> int:
    """The decimals a score is shown with: a percentage two, points one."""
    return 2 if method == Tournament.Method.MATCHPOINTS else 1


def export(event: Tournament, fmt: str, *, with_cards: bool, licences: dict) -> str | bytes:
    """The event in ``fmt`` (one of ``FORMATS``): ``json`` (the event, its ranking as
    the page shows it and, ``with_cards``, the hand records), ``csv`` (the ranking),
    ``xlsx`` (the ranking, the travellers and, ``with_cards``, the hand records). The
    hand records stay out while the étuis were made by hand (no seed deals them).
    ``licences``: each player's licence number, only those the reader may see."""
    loaded = duplicate_results.load(event, hands=True)
    rows = duplicate_results.barometer(loaded)
    records = []
    if with_cards and not event.etuis_by_hand:
        deals = sorted({r.deal for r in loaded.results})
        records = [duplicate_results.hand_record(event, d) for d in deals]
    if fmt == "json":
        return _event_json(event, loaded, rows, records, licences)
    ranking = _ranking_sheet(event, loaded, rows, licences)
    if fmt == "csv":
        # as every CSV: the page language's separator and decimal mark ("52,5" after ";")
        return csv_text(ranking.headers, ranking)
    return workbook([ranking, _travellers_sheet(loaded, event.method), _records_sheet(records)])


def _event_json(event, loaded, rows, records, licences) -> str:
    names = duplicate_results.labels(loaded.entries)
    data = duplicate_results.event_json(loaded, licences)
    data["event"] = {
        "name": event.name,
        "club": event.club.name,
        "date": event.date.isoformat(),
        "state": event.state,
        "provisional": loaded.provisional,
        "deals_per_set": event.deals_per_round,
        "seed": None if event.etuis_by_hand else event.draw_seed,
    }
    data["ranking"] = [
        {
            "rank": r["rank"],
            "player": names[r["player"]],
            "score": json_score(r["score"]),
            "deals": r["deals"],
        }
        for r in rows
    ]
    if records:
        data["hand_records"] = records
    return json.dumps(data, ensure_ascii=False, indent=1, default=json_number) + "\n"


def _ranking_sheet(event, loaded, rows, licences):
    places = score_places(event.method)
    return sheet(
        _("Ranking"),
        [_("Rank"), _("No."), _("Name"), _("Série"), _("Licence"), _("Score"), _("Deals")],
        [
            [
                r["rank"],
                r["player"],
                loaded.entries[r["player"]].name,
                loaded.entries[r["player"]].series,
                licences.get(r["player"], ""),
                float(rounded_score(r["score"], places)),
                r["deals"],
            ]
            for r in rows
        ],
    )


def _travellers_sheet(loaded, method):
    """The travellers: a row per seat of a table of a deal, scores rounded."""
    places = score_places(method)
    rows = []
    for traveller in duplicate_results.travellers(loaded):
        for row in traveller["tables"]:
            for seat in row["seats"]:
                rows.append(
                    [
                        traveller["deal"],
                        row["round"],
                        row["table"],
                        seat["seat"],
                        seat["entry"].name if seat["entry"] else "",
                        row["contract"] or "",
                        row["taker"] or "",
                        row["bouts"] if row["contract"] else None,
                        None if row["points"] is None else float(row["points"]),
                        None if seat["marque"] is None else float(seat["marque"]),
                        float(rounded_score(seat["score"], places)),
                    ]
                )
    headers = [
        _("Deal"),
        _("Round"),
        _("Table"),
        _("Seat"),
        _("Name"),
        _("Contract"),
        _("Taker"),
        _("Bouts"),
        _("Points"),
        _("Marque"),
        _("Score"),
    ]
    return sheet(_("Travellers"), headers, rows)


def _records_sheet(records):
    return sheet(
        _("Hand records"),
        [_("Deal"), _("Dealer"), *SEATS, _("Chien")],
        [
            [
                r["deal"],
                r["dealer"],
                *(" ".join(r["hands"][s]) for s in SEATS),
                " ".join(r["chien"]),
            ]
            for r in records
        ],
    )
