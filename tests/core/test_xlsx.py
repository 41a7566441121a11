"""``transfer.xlsx``: the rows written straight into xlsxwriter's constant-memory
sheet read back as the cells they were, whatever their text holds."""

import datetime
from decimal import Decimal

import openpyxl
import pytest

from core import xlsx

KINDS = (xlsx.DATE, xlsx.TEXT, xlsx.NUMBER, xlsx.TEXT)


def test_typed_rows_read_back_as_written(tmp_path):
    rows = [
        (datetime.date(2026, 3, 14), "Anna & <Bert>", 12, "'=1+1"),
        (datetime.date(1999, 12, 31), " space ", Decimal("-12.5"), "tab\there"),
        (datetime.date(2026, 1, 1), "", None, "bell\x07 _x0041_"),
        (datetime.date(2026, 1, 2), "=SUM(A1)", 3, "Amélie 🃏"),
    ]
    path = tmp_path / "out.xlsx"
    xlsx.write_rows(str(path), "Scores", ["Date", "Name", "Score", "Note"], KINDS, rows, tmp_path)
    sheet = openpyxl.load_workbook(path).active
    read = list(sheet.values)
    assert read[0] == ("Date", "Name", "Score", "Note")
    assert [r[0].date() for r in read[1:]] == [r[0] for r in rows]
    assert sheet["A2"].number_format == "yyyy-mm-dd"
    assert [r[1] for r in read[1:]] == ["Anna & <Bert>", " space ", None, "=SUM(A1)"]
    assert sheet["B5"].data_type == "s"  # text, never a formula
    assert [r[2] for r in read[1:]] == [12, -12.5, None, 3]
    assert [r[3] for r in read[1:]] == [
        "'=1+1",
        "tab\there",
        "bell_x0007_ _x005F_x0041_",
        "Amélie 🃏",
    ]
    assert sheet.max_row == 5
    assert list(tmp_path.iterdir()) == [path]  # its temporary files gone
    # the same cells as xlsxwriter's own constant-memory writer gives (control characters as
    # Excel reads them back)
    own = tmp_path / "own.xlsx"
    book = xlsx.xlsxwriter.Workbook(str(own), {"constant_memory": True, "tmpdir": str(tmp_path)})
    sheet = book.add_worksheet("Scores")
    dates = book.add_format({"num_format": "yyyy-mm-dd"})
    for column, name in enumerate(["Date", "Name", "Score", "Note"]):
        sheet.write_string(0, column, name)
    for row, (date, name, score, note) in enumerate(rows, start=1):
        sheet.write_datetime(row, 0, date, dates)
        if name:
            sheet.write_string(row, 1, name)
        if score is not None:
            sheet.write_number(row, 2, score)
        sheet.write_string(row, 3, note)
    book.close()
    assert list(openpyxl.load_workbook(own).active.values) == read


def test_a_row_out_of_order_is_refused(tmp_path):
    book = xlsx.xlsxwriter.Workbook(str(tmp_path / "x.xlsx"), {"constant_memory": True})
    sheet = book.add_worksheet("S", worksheet_class=xlsx.RowSheet)
    sheet.prepare_typed_rows((xlsx.NUMBER,), book.add_format())
    sheet.write_typed_row(2, [1])
    with pytest.raises(ValueError):
        sheet.write_typed_row(2, [1])
    book.close()
