"""Sheets uploaded by a manager: JSON Lines in the interchange format, or a CSV of hands.

Both become *sheet lines* of ``scoresheet.importing`` (a sheet per line, all or
nothing per sheet) carrying the line number of the file where each sheet (and
each hand, for a CSV) starts, so a refusal names the file's own line.

The CSV (a header row, then one row per hand; ``,`` or ``;``): a sheet's rows
follow one another and share the ``sheet`` column (any label); its first row
gives ``players`` (names separated by ``/``), and ``date`` (YYYY-MM-DD),
``table``, ``season`` (optional). Each row is a hand in the fields of
HAND_FORMAT.md: ``dealer``, ``taker``, ``contract``, ``partner``, ``sits_out``,
``bouts``, ``points``, ``petit_au_bout``, ``poignees`` (``Anna single; Bert
double``) and ``miseres`` (``Anna; Bert``). A CSV of running totals per player,
as spreadsheets often keep, cannot become hands (the ledger scores what was
played: the contract, the points, the bonuses), so it is refused with that
reason; the rules are the season's (chelems: use JSON Lines).

``preview`` runs the whole import in a transaction rolled back: the page shows
what ``run`` will do, line by line, before anything is written. ``near_names``
finds the file's new names that look like a player of the club ("Berte" beside
Bert, ``core.text.looks_alike``): the preview asks who each is, and
``with_aliases`` seats the players chosen in their place before the import.
"""

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import DatabaseError, transaction
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Player
from clubs.services import name_key, similar_players
from core.jsonnumbers import json_number
from core.models import IdempotencyKey
from scoresheet import importing, services

MAX_BYTES = 2 * 1024 * 1024
CSV_HAND_FIELDS = (
    "dealer",
    "taker",
    "contract",
    "partner",
    "sits_out",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "miseres",
)
CSV_SHEET_FIELDS = ("sheet", "players", "date", "table", "season")


@dataclass
class Chunk:
    """One sheet to import: its JSON line, the file's line it starts on, and (CSV) the
    file's line of each hand; or the reason it could not even be read."""

    line: int
    text: str = ""
    label: str = ""
    hand_lines: list = field(default_factory=list)
    code: str = ""
    message: str = ""


@dataclass
class Outcome:
    line: int
    label: str
    hands: int = 0
    code: str = ""
    message: str = ""  #: in the page's language, without the code
    detail: str = ""  #: the technical reason, for the code's tooltip

    @property
    def ok(self) -> bool:
        return not self.code


class UploadError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def decode(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise UploadError(_("The file is larger than 2 MB: split it."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UploadError(
            _("The file is not UTF-8 text (byte %(n)s).") % {"n": error.start + 1}
        ) from None
    if "\x00" in text:
        raise UploadError(_("The file holds a NUL character: is it a spreadsheet file?"))
    if not text.strip():
        raise UploadError(_("The file is empty."))
    return text


def chunks(text: str, name: str = "") -> list[Chunk]:
    """The sheets of a file: JSON Lines when it starts with ``{``, else a CSV."""
    if text.lstrip().startswith("{") or name.lower().endswith((".jsonl", ".json", ".ndjson")):
        return _json_chunks(text)
    return _csv_chunks(text)


def _json_chunks(text):
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        label = ""
        try:
            data = json.loads(line)
            if isinstance(data, dict):
                label = _label(data.get("date"), data.get("table"), data.get("players"))
        except (ValueError, RecursionError):  # the import refuses the line, saying why
            pass
        found.append(Chunk(number, line, label))
    return found


def _csv_chunks(text):
    sample = text[:4096]
    delimiter = (
        ";" if sample.split("\n", 1)[0].count(";") > sample.split("\n", 1)[0].count(",") else ","
    )
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        raise UploadError(_("The CSV has no header row.")) from None
    unknown = [h for h in header if h and h not in CSV_SHEET_FIELDS + CSV_HAND_FIELDS]
    if "sheet" not in header or "taker" not in header:
        if unknown:
            raise UploadError(
                _(
                    "Line 1: columns %(names)s. A CSV of running totals cannot become "
                    "hands; the upload takes one row per hand: sheet, players, date, dealer, "
                    "taker, contract, bouts, points… (see the page)."
                )
                % {"names": ", ".join(unknown[:6])}
            )
        raise UploadError(
            _("Line 1: the CSV needs the columns sheet and taker (one row per hand).")
        )
    if unknown:
        raise UploadError(_("Line 1: unknown columns %(names)s.") % {"names": ", ".join(unknown)})
    found, current, key = [], None, None
    try:
        for row in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            cells = dict(zip(header, (cell.strip() for cell in row)))
            if len(row) > len(header):
                bad = Chunk(number, code="invalid_row", message=_("more cells than columns"))
                found.append(bad)
                current, key = bad, None
                continue
            if current is None or cells.get("sheet") != key:
                key = cells.get("sheet")
                players = [p.strip() for p in cells.get("players", "").split("/") if p.strip()]
                sheet = {"players": players, "hands": []}
                for name in ("date", "table", "season"):
                    if cells.get(name):
                        sheet[name] = cells[name]
                current = Chunk(
                    number, label=_label(sheet.get("date"), sheet.get("table"), players)
                )
                current.sheet = sheet
                found.append(current)
            if current.code:
                continue
            current.sheet["hands"].append(_csv_hand(cells))
            current.hand_lines.append(number)
    except csv.Error:
        message = _("This line of the CSV cannot be read (a quote left open?).")
        found.append(Chunk(reader.line_num, code="invalid_csv", message=message))
    for chunk in found:
        if not chunk.code:
            chunk.text = json.dumps(chunk.sheet, ensure_ascii=False)
    return found


def _csv_hand(cells) -> dict:
    hand = {}
    for name in CSV_HAND_FIELDS:
        value = cells.get(name, "")
        if value == "":
            continue
        if name in ("bouts", "points"):
            try:
                number = float(value.replace(",", "."))
                value = int(number) if number == int(number) else number
            except ValueError:
                pass  # the engine names the field and refuses it
        elif name == "poignees":
            value = [
                {"player": " ".join(part.split()[:-1]), "size": part.split()[-1]}
                for part in value.split(";")
                if part.strip()
            ]
        elif name == "miseres":
            value = [part.strip() for part in value.split(";") if part.strip()]
        hand[name] = value
    return hand


def _label(date, table, players) -> str:
    names = ", ".join(p for p in players if isinstance(p, str)) if isinstance(players, list) else ""
    parts = [str(date or ""), (_("table %(t)s") % {"t": table}) if table else "", names]
    return " · ".join(p for p in parts if p)


def _import(club, chunk: Chunk, *, season, actor, written=None) -> Outcome:
    """Import one chunk; ``written`` (a list) hears the sheet made. The ledger's
    signal is not sent: ``run`` sends it once for every sheet (``preview``: none)."""
    outcome = Outcome(chunk.line, chunk.label, code=chunk.code, message=chunk.message)
    if chunk.code:
        return outcome
    try:
        sheet = importing.import_sheet_line(
            club, chunk.text, season=season, actor=actor, announce=False
        )
    except services.LedgerError as error:
        hand = getattr(error, "hand", None)
        if hand is not None and chunk.hand_lines and hand <= len(chunk.hand_lines):
            outcome.line = chunk.hand_lines[hand - 1]
        outcome.code = error.code
        outcome.message = (
            _("hand %(n)s: %(reason)s") % {"n": hand, "reason": error.message}
            if hand is not None
            else error.message
        )
    except DatabaseError as error:
        outcome.code, outcome.detail = "database_refused", importing._first_line(error)
        outcome.message = _("The database refused this sheet.")
    except ValueError as error:
        outcome.code, outcome.detail = "invalid_value", importing._first_line(error)
        outcome.message = _("A value of this sheet cannot be read.")
    else:
        outcome.hands = sheet.hand_count
        if written is not None:
            written.append(sheet)
    return outcome


def run(club, found: list[Chunk], *, season=None, actor=None, progress=None) -> list[Outcome]:
    """Import every sheet (each all or nothing): one ``Outcome`` per sheet. Each in a
    transaction (or a savepoint, when the caller holds one: ``core.idempotency.once``),
    so a refused sheet leaves the others whole. The ratings are redone once, from the
    earliest sheet written, after the last (``importing.announce_imported``)."""
    outcomes, written = [], []
    try:
        for chunk in found:
            with transaction.atomic():
                outcomes.append(_import(club, chunk, season=season, actor=actor, written=written))
            if progress is not None:
                progress(len(outcomes), len(found))
    finally:
        importing.announce_imported(club.pk, written)
    return outcomes


def import_file(club, found: list[Chunk], *, name, digest, season=None, actor=None, progress=None):
    """``run``, and the audit entry of the upload: who, which file (its name and
    SHA-256), how many sheets imported and refused."""
    outcomes = run(club, found, season=season, actor=actor, progress=progress)
    good = [o for o in outcomes if o.ok]
    after = {"sha256": digest, "sheets": len(good), "hands": sum(o.hands for o in good)}
    after["refused"] = len(outcomes) - len(good)
    audit.record(club, actor, audit.Action.SHEETS_UPLOADED, label=name, after=after)
    return outcomes


def once_key(club, digest: str) -> str:
    """The idempotency key (``core.idempotency``) of importing the file of SHA-256
    ``digest`` into ``club``: stored with its import, it lets that file be imported
    once, whatever the form posts (a script without the form's key, a page kept from
    before)."""
    return hashlib.sha256(f"upload:{club.pk}:{digest}".encode()).hexdigest()


def imported_already(club, digest: str) -> bool:
    return IdempotencyKey.objects.filter(key=once_key(club, digest)).exists()


def preview(club, found: list[Chunk], *, season=None, actor=None, progress=None) -> list[Outcome]:
    """What ``run`` would do, with nothing written (one transaction, rolled back).
    ``progress(done, total)`` (optional) hears each sheet checked: it is called inside
    that transaction (``transfer.jobs.Progress`` writes apart from it)."""
    with transaction.atomic():
        outcomes = []
        for chunk in found:
            with transaction.atomic():  # a refused sheet leaves the others' savepoints whole
                outcomes.append(_import(club, chunk, season=season, actor=actor))
            if progress is not None:
                progress(len(outcomes), len(found))
        transaction.set_rollback(True)
    return outcomes


def outcome_data(outcome: Outcome) -> dict:
    """An outcome as JSON (a job's ``options``); ``Outcome(**data)`` reads it back."""
    return {
        "line": outcome.line,
        "label": outcome.label,
        "hands": outcome.hands,
        "code": outcome.code,
        "message": outcome.message,
        "detail": outcome.detail,
    }


# ---------------------------------------------------------------- near-duplicate names


@dataclass
class Near:
    """A name of the file the club does not know, that looks like its ``players``'."""

    name: str
    players: list


def _sheet_players(chunk: Chunk) -> list:
    if chunk.code:
        return []
    try:
        data = json.loads(chunk.text)
    except (ValueError, RecursionError):
        return []
    players = data.get("players") if isinstance(data, dict) else None
    return [p for p in players if isinstance(p, str)] if isinstance(players, list) else []


def near_names(club, found: list[Chunk]) -> list[Near]:
    """The file's new names (no player of the club has them, accents and case aside) that
    look like a player's, in the file's order, once each (one query)."""
    everyone = list(Player.objects.filter(club=club).order_by("sort_key", "pk"))
    known = {name_key(p.name) for p in everyone}
    candidates = [p for p in everyone if p.merged_into_id is None]
    seen, out = set(), []
    for chunk in found:
        for name in _sheet_players(chunk):
            name = " ".join(name.split())
            key = name_key(name)
            if not key or key in known or key in seen:
                continue
            seen.add(key)
            similar = similar_players(name, candidates)
            if similar:
                out.append(Near(name, similar))
    return out


def with_aliases(found: list[Chunk], aliases: dict) -> list[Chunk]:
    """``found`` with each name whose ``name_key`` is in ``aliases`` replaced by the name
    it maps to (the existing player chosen), in the players and in every hand."""
    if not aliases:
        return found
    out = []
    for chunk in found:
        names = _sheet_players(chunk)
        renamed = {n: aliases[name_key(n)] for n in names if name_key(n) in aliases}
        if not renamed:
            out.append(chunk)
            continue
        data = json.loads(chunk.text, parse_float=Decimal)
        data["players"] = [renamed.get(p, p) if isinstance(p, str) else p for p in data["players"]]
        if isinstance(data.get("hands"), list):
            data["hands"] = [importing.renamed_hand(h, renamed) for h in data["hands"]]
        text = json.dumps(data, ensure_ascii=False, default=json_number)
        out.append(
            Chunk(chunk.line, text, chunk.label, list(chunk.hand_lines), chunk.code, chunk.message)
        )
    return out
