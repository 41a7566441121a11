"""Spreadsheet exports of django-tables2 tables, safe to open: one helper for every export.

* Formula injection (OWASP "CSV injection"): a text cell starting with ``=``,
  ``+``, ``-``, ``@``, a tab or a carriage return is written with a leading
  single quote, so a player named ``=HYPERLINK(…)`` stays text in Excel or
  LibreOffice. Numbers stay numbers (a negative score is not quoted), and so
  does text that is a plain number (``-12``, ``3.5``).
* CSV opens right in a spreadsheet of the reader's language: a UTF-8
  byte-order mark (accents survive Excel), the separator and the decimal mark
  of the page's language (French: ``;`` and ``21,2``; English: ``,`` and
  ``21.2``), never a thousands separator. ``csv_text`` writes every CSV the app
  serves; XLSX cells keep numbers as numbers (int or Decimal, never text).
* Only the formats a view offers are served: any other ``?_export=`` is a 400,
  never a 500 (django-tables2 accepts any format tablib names, installed or not).

Use ``SafeExportMixin`` in place of ``django_tables2.export.ExportMixin`` (it
sets ``export_class = SafeTableExport``), or ``SafeTableExport`` directly.
"""

import csv
import io
import re
from decimal import Decimal
from fractions import Fraction

import tablib
from django.http import HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django_tables2.export import ExportMixin, TableExport

#: What a spreadsheet may read as the start of a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+([.,]\d+)?")
#: The CSV separator and decimal mark per language: French spreadsheets expect ";" and ",".
CSV_SEPARATORS = {"fr": ";"}
DECIMAL_MARKS = {"fr": ","}


def neutralise(value):
    """``value`` made inert for a spreadsheet: formula-like text gets a leading quote."""
    if isinstance(value, bool | int | float | Decimal | Fraction) or value is None:
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return value


def _language(language):
    return (language or get_language() or "en").split("-")[0]


def csv_separator(language: str | None = None) -> str:
    return CSV_SEPARATORS.get(_language(language), ",")


def csv_number(value, language: str | None = None) -> str:
    """A number as a spreadsheet of ``language`` reads it: ``-21,25`` in French, ``-21.25`` in
    English; no exponent, no thousands separator; whole numbers without decimals."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    elif isinstance(value, float):
        value = Decimal(repr(value))
    if value == value.to_integral_value():
        return str(int(value))
    text = format(value.normalize(), "f")
    return text.replace(".", DECIMAL_MARKS.get(_language(language), "."))


def csv_text(headers, rows, language: str | None = None) -> str:
    """The CSV the app serves (every CSV export goes through here): a BOM, the language's
    separator and decimal mark, numbers written as numbers, formula-like text neutralised."""
    language = _language(language)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=csv_separator(language), lineterminator="\r\n")

    def cell(value):
        return csv_cell(value, language)

    if headers:
        writer.writerow([cell(h) for h in headers])
    for row in rows:
        writer.writerow([cell(c) for c in row])
    return out.getvalue()


def csv_cell(value, language: str | None = None) -> str:
    """One CSV cell as ``csv_text`` writes it: formula-like text neutralised, numbers
    with the language's decimal mark, nothing for ``None``."""
    value = neutralise(value)
    if value is None:
        return ""
    if isinstance(value, bool | int | float | Decimal | Fraction):
        return csv_number(value, _language(language))
    return str(value)


class SafeTableExport(TableExport):
    """``TableExport`` with neutralised cells; CSV through ``csv_text``."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        headers = [neutralise(h) for h in dataset.headers or []]
        rows = [tuple(neutralise(cell) for cell in row) for row in dataset]
        dataset.wipe()
        if headers:
            dataset.headers = headers
        for row in rows:
            dataset.append(row)
        return dataset

    def export(self):
        if self.format == self.CSV:
            return csv_text(self.dataset.headers, self.dataset)
        return super().export()


class SafeExportMixin(ExportMixin):
    """``ExportMixin`` that serves only ``export_formats``, through ``SafeTableExport``."""

    export_class = SafeTableExport

    def export_format(self):
        """The format asked for (``None``: no export); raises ``UnknownFormat`` otherwise."""
        value = self.request.GET.get(self.export_trigger_param)
        if value in (None, ""):
            return None
        if value not in self.export_formats:
            raise UnknownFormat(value)
        return value

    def render_to_response(self, context, **kwargs):
        export_format = self.export_format()
        if export_format:
            return self.create_export(export_format)
        return super(ExportMixin, self).render_to_response(context, **kwargs)

    def dispatch(self, request, *args, **kwargs):
        try:
            return super().dispatch(request, *args, **kwargs)
        except UnknownFormat:
            return bad_request(request)


class UnknownFormat(Exception):
    pass


def bad_request(request, message=None):
    """A 400 with the site's translated page (``templates/400.html``)."""
    html = render_to_string("400.html", {"message": message}, request=request)
    return HttpResponseBadRequest(html)


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: a download's content type, by its file name's extension
CONTENT_TYPES = {
    "json": "application/json; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "xlsx": XLSX,
}


def download(content, filename: str) -> HttpResponse:
    """A file to download, its content type from ``filename``'s extension."""
    response = HttpResponse(content, content_type=CONTENT_TYPES[filename.rsplit(".", 1)[-1]])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def sheet(title, headers, rows) -> tablib.Dataset:
    """One sheet of a workbook (``workbook``): its title cut to Excel's 31 characters,
    every cell neutralised (``neutralise``)."""
    dataset = tablib.Dataset(title=str(title)[:31])
    dataset.headers = [str(h) for h in headers]
    for row in rows:
        dataset.append([neutralise(cell) for cell in row])
    return dataset


def workbook(sheets) -> bytes:
    """An XLSX file of these sheets (``sheet``), in order."""
    return tablib.Databook(list(sheets)).export("xlsx")
