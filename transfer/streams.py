"""A season's exports, written in chunks: memory stays flat whatever the season's
size (the club's backup: ``transfer.backup.chunks``).

Each writer reads its rows through the database's cursor in chunks
(``.iterator(chunk_size=…)``; a server-side cursor on PostgreSQL) and yields or
writes text as it goes; ``progress(done, total)`` (optional) hears how far it is.

* ``season_jsonl_chunks(season)``: every live sheet, one JSON line each, three
  queries per chunk of sheets;
* ``season_rows(season)`` and ``write_xlsx`` (xlsxwriter's constant-memory workbook) /
  ``csv_chunks``: every score of the season.

Each reads in one snapshot (``transfer.snapshot``), as the backup does.
"""

import csv
import io
import json
from pathlib import Path

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core import xlsx
from core.bulk import batches
from core.exports import csv_cell, csv_separator, neutralise
from core.jsonnumbers import json_number
from scoresheet.handmap import sheets_json
from scoresheet.models import Contract, Role, ScoreRow, Sheet
from transfer.snapshot import snapshot

#: rows read (and serialised) at a time
CHUNK = 2000
#: sheets of a season export read at a time (three queries each chunk)
SHEET_CHUNK = 200


def _nothing(done, total):
    pass


def season_sheets(season):
    sheets = Sheet.objects.filter(season=season)
    sheets = sheets.live()  # a deleted sheet is out of the season
    return sheets.order_by("date", "table", "pk")


def season_jsonl_chunks(season, progress=_nothing):
    """Every live sheet of ``season`` as JSON Lines, a chunk of sheets at a time: their
    ids too are read a chunk at a time (a cursor), never all in a list. In one
    snapshot: a hand recorded meanwhile is in no chunk read after it."""
    with snapshot():
        yield from _season_jsonl_chunks(season, progress)


def _season_jsonl_chunks(season, progress):
    sheets = season_sheets(season)
    total, done = sheets.count(), 0
    progress(0, total)
    ids = sheets.values_list("pk", flat=True).iterator(chunk_size=SHEET_CHUNK)
    for chunk in batches(ids, SHEET_CHUNK):
        lines = []
        for data in sheets_json(chunk):
            data["season"] = season.name
            lines.append(json.dumps(data, ensure_ascii=False, default=json_number) + "\n")
        yield "".join(lines)
        done += len(chunk)
        progress(min(done, total), total)


def season_header():
    return [_("Date"), _("Table"), _("Sheet"), _("Hand"), _("Player"), _("Role")] + [
        _("Contract"),
        _("Score"),
    ]


def season_rows(season, progress=_nothing):
    """Every score of ``season``'s live sheets, as rows of cells made safe for a
    spreadsheet (``neutralise``), read in chunks, in one snapshot (the count the
    progress announces is the rows written)."""
    with snapshot():
        yield from _season_rows(season, progress)


def _season_rows(season, progress):
    rows = ScoreRow.objects.filter(season=season, sheet__in=season_sheets(season))
    total = rows.count()
    progress(0, total)
    values = rows.order_by("date", "sheet__table", "sheet_id", "number", "position").values_list(
        "date", "sheet__table", "sheet_id", "number", "player__name", "role", "contract", "score"
    )
    # roles and contracts in the file's language ("défenseur", "garde sans"), not codes
    roles = {code: str(label) for code, label in Role.choices}
    contracts = {code: str(label) for code, label in Contract.choices}
    for done, cells in enumerate(values.iterator(chunk_size=CHUNK), start=1):
        cells = list(cells)
        cells[5] = roles.get(cells[5], cells[5])
        cells[6] = contracts.get(cells[6], cells[6])
        yield [neutralise(c) for c in cells]
        if done % CHUNK == 0:
            progress(done, total)
    progress(total, total)


#: the kind of each column of ``season_rows`` in the spreadsheet
SEASON_KINDS = (xlsx.DATE, xlsx.TEXT, xlsx.NUMBER, xlsx.NUMBER) + (xlsx.TEXT,) * 3 + (xlsx.NUMBER,)


def write_xlsx(season, out, progress=_nothing) -> None:
    """The season's scores as a spreadsheet written to ``out`` (a path or a binary
    file), in xlsxwriter's constant-memory mode (``transfer.xlsx``: each row goes to a
    temporary file as it comes). Chosen over openpyxl's write-only mode for speed;
    each cell is written by its column's kind, never guessed from its text (a name
    starting with "=" stays text, and ``neutralise`` quotes it too)."""
    tmpdir = Path(settings.FILES_DIR)  # its rows' temporary file beside the jobs' files
    tmpdir.mkdir(parents=True, exist_ok=True)
    target = str(out) if isinstance(out, Path | str) else out
    rows = season_rows(season, progress)
    xlsx.write_rows(target, _("Scores")[:31], season_header(), SEASON_KINDS, rows, tmpdir)


def csv_chunks(season, progress=_nothing, language=None):
    """The season's scores as CSV (a byte-order mark, the language's separator), in chunks."""
    buffer = io.StringIO()
    language = language or get_language()
    writer = csv.writer(buffer, delimiter=csv_separator(language), lineterminator="\r\n")
    buffer.write("\ufeff")
    writer.writerow([csv_cell(cell, language) for cell in season_header()])
    for number, row in enumerate(season_rows(season, progress), start=1):
        writer.writerow([csv_cell(cell, language) for cell in row])
        if number % CHUNK == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
