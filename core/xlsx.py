"""A spreadsheet of many rows in xlsxwriter's constant-memory mode, written fast.

xlsxwriter writes a constant-memory sheet row by row to a temporary file, then zips
the package (styles, workbook, sheets). Its public ``write_*`` calls cost about three
times a CSV writer's per cell (each cell stored, then turned into XML by a general
path); ``RowSheet.write_typed_row`` writes a whole row's XML at once into that same
stream, each cell by its column's kind (``DATE``, ``NUMBER``, ``TEXT``), the text's
XML made once per distinct value. Everything else (the package, the header, the
formats) is xlsxwriter's own.
"""

import xlsxwriter
from xlsxwriter.utility import xl_col_to_name
from xlsxwriter.worksheet import Worksheet

DATE, NUMBER, TEXT = "date", "number", "text"
#: an Excel date's number: days since 1899-12-30 (``date.toordinal()`` minus this)
EXCEL_EPOCH = 693594
#: distinct texts whose XML is kept (names, roles): beyond it the cache starts again,
#: so memory stays flat whatever the rows
TEXTS_KEPT = 20_000


class RowSheet(Worksheet):
    """A constant-memory worksheet that also takes whole typed rows."""

    def prepare_typed_rows(self, kinds, date_format):
        self._kinds = kinds
        self._columns = [xl_col_to_name(c) for c in range(len(kinds))]
        self._date_style = f' s="{date_format._get_xf_index()}"'
        self._texts = {}

    def _text(self, value):
        found = self._texts.get(value)
        if found is None:
            if len(self._texts) >= TEXTS_KEPT:
                self._texts.clear()
            text = self._escape_data(self._escape_control_characters(value))
            space = ' xml:space="preserve"' if value[:1].isspace() or value[-1:].isspace() else ""
            found = f' t="inlineStr"><is><t{space}>{text}</t></is></c>'
            self._texts[value] = found
        return found

    def write_typed_row(self, row, cells):
        """Row ``row`` (0-based, after every row written so far): each cell by its
        column's kind; None or "" leaves the cell empty."""
        if row <= self.previous_row or self._check_dimensions(row, len(cells) - 1):
            raise ValueError(f"row {row} cannot be written here")
        if self.table:
            self._write_single_row(row)  # what xlsxwriter holds of the rows before (a header)
        self.previous_row = row
        number = row + 1
        parts = [f'<row r="{number}">']
        for column, kind, value in zip(self._columns, self._kinds, cells, strict=True):
            if value is None or value == "":
                continue
            if kind == TEXT:
                parts.append(f'<c r="{column}{number}"{self._text(value)}')
            elif kind == DATE:
                days = value.toordinal() - EXCEL_EPOCH
                parts.append(f'<c r="{column}{number}"{self._date_style}><v>{days}</v></c>')
            else:
                parts.append(f'<c r="{column}{number}"><v>{value:.16G}</v></c>')
        parts.append("</row>")
        self.fh.write("".join(parts))


def write_rows(out, title, header, kinds, rows, tmpdir) -> None:
    """A one-sheet workbook to ``out`` (a path or a binary file): ``header``, then
    ``rows`` (cells of ``kinds``), in constant memory."""
    options = {"constant_memory": True, "tmpdir": str(tmpdir)}
    options.update(strings_to_numbers=False, strings_to_formulas=False, strings_to_urls=False)
    book = xlsxwriter.Workbook(out, options)
    try:
        sheet = book.add_worksheet(title, worksheet_class=RowSheet)
        for column, name in enumerate(header):
            sheet.write_string(0, column, name)
        sheet.prepare_typed_rows(kinds, book.add_format({"num_format": "yyyy-mm-dd"}))
        for row, cells in enumerate(rows, start=1):
            sheet.write_typed_row(row, cells)
    finally:
        book.close()
