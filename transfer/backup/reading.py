"""Reading a backup file: its head and its rows as a stream (``Source``), and what a
file would create, read from its start and its end (``preview``).

A file of version 3 holds a row a line: the restore reads it line by line and holds
only a batch of rows at a time. Files of versions 1 and 2 (one JSON document) are read
whole, as before.
"""

import hashlib
import io
import json
import os
import re

import orjson
from django.apps import apps
from django.utils.translation import gettext as _

from clubs.models import Club
from transfer import named
from transfer.backup.refusals import FORMAT, OBJECTS, BackupError, invalid


def preview(source) -> dict:
    """What a backup file (binary, open) would create, read from its start and its
    end without reading it whole: ``{"club": slug, "counts": {model: rows}}``. A
    preview only: ``restore`` checks every row."""
    head = source.read(PREVIEW_BYTES).decode("utf-8", "replace")
    source.seek(0, os.SEEK_END)
    size = source.tell()
    source.seek(max(0, size - PREVIEW_BYTES))
    tail = source.read().decode("utf-8", "replace")
    found = re.search(r'"format":\s*"([^"]*)"', head)
    club = re.search(r'"club":\s*"([^"]*)"', head)
    counts_at = tail.rfind('"counts":')
    counts = None
    if counts_at >= 0:
        try:
            counts = json.loads(tail[counts_at + len('"counts":') :].rstrip().rstrip("}") + "}")
        except ValueError:
            counts = None
    if found is None or found.group(1) != FORMAT or club is None:
        raise invalid(_("not a Tarot Ledger club backup"))
    if not isinstance(counts, dict) or not all(isinstance(c, int) for c in counts.values()):
        raise invalid(_("the counts of rows are missing at the end"))
    if Club.objects.filter(slug=club.group(1)).exists():
        raise BackupError(
            "club_exists", _("This site already has the club %(slug)s.") % {"slug": club.group(1)}
        )
    source.seek(0)
    try:
        head = named.head(source)
        reason = named.refusal(head.get("persons"))
        if reason:
            raise invalid(reason)
        logins = named.logins(source, head)
    except (ValueError, TypeError, KeyError, AttributeError):
        raise invalid(_("not JSON")) from None
    return {"club": club.group(1), "counts": counts, "bytes": size, "logins": logins}


#: what ``preview`` reads of a file's start and of its end
PREVIEW_BYTES = 64 * 1024


def summary(counts: dict) -> str:
    """What a backup holds, for a person: ``1 club, 2 seasons, 40 hands…`` (rows
    of each model, the empty ones left out)."""
    parts = []
    for label, count in counts.items():
        if count:
            model = apps.get_model(label)
            name = model._meta.verbose_name if count == 1 else model._meta.verbose_name_plural
            parts.append(f"{count} {name}")
    return ", ".join(parts)


class Source:
    """A backup being read: its head (format, version, club, users, persons), its
    rows (an iterator, read once) and, once they are read, its ``counts``."""

    def __init__(self, head, rows, digest=None):
        self.head, self._rows, self._digest = head, rows, digest
        self.read_by_orjson = False  # True: its rows read by ``_lines``
        self.counts = head.get("counts") if isinstance(head, dict) else None

    @classmethod
    def of(cls, data) -> "Source":
        if isinstance(data, dict):
            return cls(data, data.get("objects"))
        if isinstance(data, str):
            data = data.encode()
        if isinstance(data, (bytes, bytearray)):
            data = io.BytesIO(data)
        digest = hashlib.sha256()
        first = data.readline()
        digest.update(first)
        text = first.decode("utf-8", "replace").rstrip("\r\n")
        if text.endswith(OBJECTS):  # version 3: a row a line
            head = loads(text[: -len(OBJECTS)].rstrip().rstrip(",") + "}")
            if isinstance(head, dict) and head.get("version") == 3:
                source = cls(head, None, digest)
                source._rows = source._lines(data)
                source.read_by_orjson = True
                return source
        rest = data.read()
        digest.update(rest)
        whole = loads(first + rest)
        return cls(whole, whole.get("objects") if isinstance(whole, dict) else None, digest)

    def _lines(self, data):
        """The rows of a file of version 3, a line each, read by orjson (a tenth of
        ``json.loads``' time; it refuses what ``json`` refuses, and NaN, numbers
        beyond 64 bits and lines nested over 1,024 deep too: "not JSON"), then
        the counts at the end."""
        digest, loads = self._digest.update, orjson.loads
        for line in data:
            digest(line)
            if line.startswith(b"]"):  # the end: the counts
                text = line.decode("utf-8").rstrip("\r\n")
                tail = loads("{" + text[1:].strip().lstrip(","))
                if not isinstance(tail, dict):
                    break
                self.counts = tail.get("counts")
                self._ended = True
                for line in data:
                    digest(line)
                    if line.strip():
                        raise invalid(_("text after the end of the backup"))
                return
            line = line.rstrip(b"\r\n")
            try:
                yield loads(line[:-1] if line.endswith(b",") else line)
            except orjson.JSONDecodeError:
                raise invalid(_("not JSON")) from None
        raise invalid(_("the counts of rows are missing at the end"))

    @property
    def digest(self):
        return self._digest.hexdigest() if self._digest is not None else None

    def rows(self):
        return self._rows


def loads(text):
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise invalid(_("not JSON")) from None
