"""The logins and persons a backup's rows name, found on this site or created: never a
password nor any privilege; a person is this site's person of the licence only when the
name matches too (``named.person_here``)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils.translation import gettext as _

from clubs.models import Person
from transfer import named
from transfer.backup.refusals import USER_FIELDS, invalid


def user_ids_of(rows) -> set:
    ids, names = set(), set()
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("username"), str):
            raise invalid(_("a user without a username"))
        if not isinstance(row.get("id"), int) or row["id"] in ids or row["username"] in names:
            raise invalid(_("user %(name)s: id missing or twice") % {"name": row["username"]})
        ids.add(row["id"])
        names.add(row["username"])
    return ids


def restore_persons(persons) -> dict:
    """Each person of the file found by their licence and name, else created: their id
    in the file → their id here. A licence held here by another name refuses the file
    (``named.person_here``)."""
    mapping = {}
    for row in persons:
        person, reason = named.person_here(row)
        if reason:
            raise invalid(reason)
        licence = str(row.get("licence") or "")[:20] or None
        if person is None:
            person = Person.objects.create(
                name=row["name"][:80], licence=licence, serie=str(row.get("serie") or "")[:30]
            )
        mapping[row["id"]] = person.pk
    hold(Person, mapping.values())
    return mapping


def restore_users(rows) -> tuple[dict, set]:
    """Old user id → the id of the login it is now: found by username, else created
    with the file's names and dates only (never a password nor any privilege); and the
    ids of the logins found (which existed before the restore)."""
    User = get_user_model()
    mapping, existing = {}, set()
    for row in rows:
        user = User.objects.filter(username=row["username"]).first()
        if user is not None:
            existing.add(user.pk)
        else:
            fields = {f: row[f] for f in USER_FIELDS if f in row}
            user = User(**fields)
            user.set_unusable_password()
            try:
                user.full_clean(exclude=["password"])
            except ValidationError as error:
                raise invalid(
                    _("user %(name)s: %(reason)s")
                    % {"name": row["username"], "reason": " ".join(error.messages)}
                ) from None
            user.is_staff = user.is_superuser = False
            if not User.objects.filter(pk=row["id"]).exists():
                user.pk = row["id"]
            user.save()
        mapping[row["id"]] = user.pk
    hold(User, mapping.values())
    return mapping, existing


def hold(model, ids) -> None:
    """PostgreSQL: these rows (the logins and persons the file's rows will name, found
    here or created) kept from being deleted until the restore ends, as a foreign
    key's trigger keeps the row it checks (``FOR KEY SHARE``): with the triggers off
    (``Writer.unchecked``) no trigger does."""
    ids = sorted(set(ids))
    if connection.vendor != "postgresql" or not ids:
        return
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {quote(model._meta.db_table)}"
            f" WHERE {quote(model._meta.pk.column)} = ANY(%s) FOR KEY SHARE",
            [ids],
        )
