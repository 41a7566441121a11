"""Who a club's backup names, checked before anything is written: its persons (reused
here only when licence and name both match) and its logins (no role in the restored
club unless the site administrator confirms each one).

A backup is a file anyone may have edited. A person of this site found by a licence
alone could be another club's player, renamed in the file to be linked to the restored
club; a login found by its username could be the site's superuser, made a manager of
the restored club by a membership row the file adds. So a person is reused only when
the file's name is theirs too (the licence is unique, so a licence of another name
refuses the file, naming its row), and the memberships of the logins the administrator
did not tick are left out (as are their links to players, for logins that existed
before the restore)."""

import json

import orjson
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from clubs.models import Person
from core.text import sort_key

#: the models at the head of a backup's rows whose rows name logins with a role or a
#: player: the preview reads the file up to the first row of another model
HEAD_MODELS = {"clubs.club", "clubs.player", "clubs.season", "clubs.membership"}
OBJECTS = b'"objects": ['


class EveryLogin:
    """Every login the file names confirmed (the command's ``--every-login``, the
    benchmarks): ``username in EVERY_LOGIN`` is always true."""

    def __contains__(self, username) -> bool:
        return True


EVERY_LOGIN = EveryLogin()


def same_name(one: str, other: str) -> bool:
    """The same person's name, accents, case and spaces aside ("Élodie  Roux" is
    "elodie roux")."""
    return sort_key(" ".join(str(one).split())) == sort_key(" ".join(str(other).split()))


def person_here(row) -> tuple[Person | None, str | None]:
    """``(person, refusal)``: the person of this site a backup's person row is, the one
    of its licence when the names match too (None when it has no licence or no one here
    holds it: a new person then); or the reason the file is refused, naming its row,
    when a person of another name holds the licence here. Refused rather than made a
    new person: the licence is unique, so the file's person can be neither."""
    licence = str(row.get("licence") or "")[:20] or None
    if licence is None:
        return None, None
    found = Person.objects.filter(licence=licence).first()
    if found is None or same_name(found.name, row.get("name", "")):
        return found, None
    return None, _(
        "person %(id)s: the licence %(licence)s belongs on this site to a person of "
        "another name (correct the name or the licence in the file)"
    ) % {"id": row.get("id"), "licence": licence}


def refusal(persons) -> str | None:
    """The first of a backup's persons ``person_here`` refuses (the preview's check)."""
    for row in persons if isinstance(persons, list) else ():
        if isinstance(row, dict):
            reason = person_here(row)[1]
            if reason:
                return reason
    return None


def head(source) -> dict:
    """A backup's head (format, club, users, persons), from a binary file open at its
    start; a file of version 3 is left open on its first row, an older one is read
    whole (its rows under ``objects``)."""
    first = source.readline()
    line = first.rstrip(b"\r\n")
    if line.endswith(OBJECTS):
        found = json.loads(line[: -len(OBJECTS)].rstrip().rstrip(b",") + b"}")
        found["objects"] = None
    else:
        found = json.loads(first + source.read())
    if not isinstance(found, dict):
        raise ValueError("not a backup")
    return found


def logins(source, head) -> list[dict]:
    """The logins a backup names with a role in the club or as a player, each to be
    confirmed on the preview page: ``[{"username", "role", "player", "exists",
    "superuser", "staff"}]`` by username. ``head`` is ``head(source)``: a file of version
    3 is read on only up to its memberships (they come right after the club's players
    and seasons)."""
    rows = head["objects"] if head.get("objects") is not None else _head_rows(source)
    users = {u["id"]: u for u in head.get("users") or [] if isinstance(u, dict) and "id" in u}
    named = {}
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("fields"), dict):
            continue
        fields, model = row["fields"], row.get("model")
        user = users.get(fields.get("user"))
        if user is None or model not in ("clubs.membership", "clubs.player"):
            continue
        entry = named.setdefault(user["username"], {"role": "", "player": ""})
        if model == "clubs.membership":
            entry["role"] = str(fields.get("role") or "")
        else:
            entry["player"] = str(fields.get("name") or "")
    here = {
        u.username: u
        for u in get_user_model()
        .objects.filter(username__in=named)
        .only("username", "is_staff", "is_superuser")
    }
    found = []
    for username in sorted(named):
        user = here.get(username)
        found.append(
            {
                "username": username,
                **named[username],
                "exists": user is not None,
                "superuser": bool(user and user.is_superuser),
                "staff": bool(user and user.is_staff),
            }
        )
    return found


def _head_rows(source):
    for line in source:
        line = line.rstrip(b"\r\n")
        if line.startswith(b"]"):
            return
        try:
            row = orjson.loads(line[:-1] if line.endswith(b",") else line)
        except orjson.JSONDecodeError:
            return  # the restore names the bad row
        if not isinstance(row, dict) or row.get("model") not in HEAD_MODELS:
            return
        yield row
