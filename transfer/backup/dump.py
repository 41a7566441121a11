"""Writing a club's backup: ``chunks`` (the text, in pieces), ``write`` (to a file).

One line for the head (format, version, club, users, persons), then one line per row,
then one line for the counts: one JSON document, which the restore reads line by line.
Read in one snapshot (``snapshot``: a hand recorded meanwhile is wholly in it or wholly
out), from the database's cursor, a batch of rows at a time (``BATCH``): its memory does
not grow with the club.
"""

import hashlib
import json
import uuid
from contextlib import closing
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core import serializers

from clubs import visibility
from clubs.models import Person, Player
from core.bulk import batches
from transfer.backup.refusals import FORMAT, USER_FIELDS, VERSION
from transfer.backup.rows import club_rows, every_rows
from transfer.snapshot import snapshot

#: rows the backup reads from the database's cursor at a time
CHUNK = 2000
#: rows it turns into instances and text at a time (``_chunks``)
BATCH = 200


def backup(club) -> dict:
    """The club as a JSON-ready dict, ending with the number of rows of each model
    (``counts``: the restore refuses a file whose rows do not add up to them).
    In memory: for tests and small clubs; the site and the command write ``chunks``."""
    return json.loads("".join(chunks(club)))


def dumps(club) -> str:
    # in the order written (the counts last), not sorted
    return "".join(chunks(club))


def write(club, out, progress=None) -> tuple[dict, str]:
    """Write the backup to ``out`` (a binary file) in chunks; returns its counts per
    model and the SHA-256 of what was written."""
    counts, digest = {}, hashlib.sha256()
    # closed at once when writing fails (a full disk): its snapshot's read-only
    # transaction ends then, not when the error is forgotten (the job records it first)
    with closing(chunks(club, progress, counts)) as texts:
        for text in texts:
            data = text.encode()
            digest.update(data)
            out.write(data)
    return counts, digest.hexdigest()


def chunks(club, progress=None, counts=None):
    """The club's backup as text, in chunks (version 3).

    One snapshot (``snapshot``): every query of the backup sees the database as it
    was at its first, so a hand recorded while it runs is wholly in the file or
    wholly out of it (its score rows, revisions and totals with it) and the counts
    add up. ``progress`` is called inside the snapshot: a writer of progress writes
    apart (``transfer.jobs.Progress``; ``in_snapshot``). ``counts`` (a dict,
    optional) receives the rows of each model written, as the file's end says."""
    counts = {} if counts is None else counts
    progress = progress or _nothing
    with snapshot():
        yield from _chunks(club, progress, counts)


def _head(club, tables) -> tuple[dict, int]:
    """The file's head (format, version, club, the logins and persons its rows name)
    and the number of rows to write."""
    person_keys = {rows.model: rows.person for rows in every_rows() if rows.person}
    User = get_user_model()
    user_ids, person_ids, total = set(), set(), 0
    for model, rows in tables.items():
        total += rows.count()
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is User:
                found = rows.order_by().exclude(**{field.attname: None})
                user_ids.update(found.values_list(field.attname, flat=True).distinct())
        # the persons its rows name: name, licence, série; never their login nor
        # another club's players
        attname = person_keys.get(model)
        if attname:
            found = rows.order_by().exclude(**{attname: None})
            person_ids.update(found.values_list(attname, flat=True).distinct())
    users = User.objects.filter(pk__in=user_ids).order_by("pk")
    head = {"format": FORMAT, "version": VERSION, "club": club.slug}
    head["users"] = [
        {"id": user.pk, **{f: _plain(getattr(user, f)) for f in USER_FIELDS}} for user in users
    ]
    head["persons"] = _persons(club, person_ids)
    return head, total


def _persons(club, person_ids) -> list[dict]:
    """The persons the club's rows name: a person who plays for the club, or whom
    anybody may see named (``clubs.visibility``), as they are; a hidden person named
    only by a guest's record (another club's player) under that record's name, without
    their name, licence or série."""
    own = set(
        Player.objects.filter(club=club, is_guest=False, person_id__in=person_ids).values_list(
            "person_id", flat=True
        )
    )
    named = own | visibility.named_person_ids(None, person_ids - own)
    guests = dict(
        Player.objects.filter(club=club, is_guest=True, person_id__in=person_ids - named)
        .order_by("-pk")
        .values_list("person_id", "name")
    )
    return [
        {"id": p.pk, "name": p.name, "licence": p.licence, "serie": p.serie}
        if p.pk in named
        else {"id": p.pk, "name": guests.get(p.pk, "?"), "licence": None, "serie": ""}
        for p in Person.objects.filter(pk__in=person_ids).order_by("pk")
    ]


def _chunks(club, progress, counts):
    tables = club_rows(club)
    head, total = _head(club, tables)
    text = json.dumps(head, ensure_ascii=False)
    yield text[:-1] + ', "objects": ['
    done, first = 0, True
    progress(done, total)
    for model, rows in tables.items():
        count = 0
        # read CHUNK rows at a time from the cursor (its plain values), but made into
        # instances, dicts and text only BATCH at a time: the widest rows (a hand's
        # explanation, a sheet total's facts) held four times over for 2,000 rows were
        # the backup's peak, reached only once a model had 2,000 rows (so it grew with
        # the club up to there)
        for chunk in batches(rows.iterator(chunk_size=CHUNK), BATCH):
            lines = [
                json.dumps(row, ensure_ascii=False, default=_text)
                for row in serializers.serialize("python", chunk)
            ]
            yield ("\n" if first else ",\n") + ",\n".join(lines)
            first = False
            count += len(lines)
            done += len(lines)
            progress(done, total)
        counts[model._meta.label_lower] = count
    yield '\n], "counts": ' + json.dumps(counts) + "}\n"


def _nothing(done, total):
    pass


def _text(value):
    """Dates and times in full (ISO 8601, microseconds kept), decimals as text."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (Decimal, uuid.UUID)):
        return str(value)
    raise TypeError(type(value).__name__)


def _plain(value):
    return value.isoformat() if hasattr(value, "isoformat") else value
