"""The club's rows a backup holds, as the apps registered them (``core.backup_rows``).

Each app that keeps a club's data registers its models in its ``AppConfig.ready()``:
how each reaches its club through foreign keys that are never null (``paths``; a test
fails when a model of these apps has none), which rows the restore counts again from
the ledger (``rebuilt``), the models several clubs share (``shared``: carried beside
the rows) and those left out on purpose (``left_out``). The apps come in the order
their models point at each other (an app whose rows name another's after it), each
app's models in the order it registered them: a row's targets come before it.
"""

from clubs.models import Club
from core.backup_rows import Registration, Rows, registered


def registrations() -> list[Registration]:
    """The registrations, an app after the apps its models point at."""
    found = registered()
    owner = {rows.model: reg.app for reg in found for rows in reg.rows}
    needs = {}
    for reg in found:
        needs[reg.app] = {
            owner[field.related_model]
            for rows in reg.rows
            for field in rows.model._meta.concrete_fields
            if field.is_relation and owner.get(field.related_model, reg.app) != reg.app
        }
    ordered, placed = [], set()
    while len(ordered) < len(found):
        ready = [reg for reg in found if reg.app not in placed and needs[reg.app] <= placed]
        if not ready:
            raise ValueError("the apps' backup rows point at each other in a circle")
        ordered.append(ready[0])
        placed.add(ready[0].app)
    return ordered


def every_rows() -> list[Rows]:
    """Every registered model's ``Rows``, in the file's order."""
    return [rows for reg in registrations() for rows in reg.rows]


def paths() -> dict:
    """``{label: path}``: each model's lookup from its rows to their club."""
    return {rows.model._meta.label: rows.path for rows in every_rows()}


def app_labels() -> tuple:
    """The apps that keep a club's data."""
    return tuple(reg.app for reg in registrations())


def shared() -> set:
    return {model._meta.label for reg in registered() for model in reg.shared}


def left_out() -> set:
    return {model._meta.label for reg in registered() for model in reg.left_out}


def rebuilt() -> set:
    """The models the restore counts again from the ledger rather than writes."""
    return {rows.model._meta.label for rows in every_rows() if rows.rebuilt}


def club_paths() -> dict:
    """Each model that belongs to a club → the lookup from it to the club, in an order
    where a row's targets come before it."""
    return {rows.model: rows.path for rows in every_rows()}


def path_fields(model, path) -> list:
    """The foreign keys ``path`` follows from ``model`` (empty for the club)."""
    fields = []
    if path == "pk":
        return fields
    for name in path.split("__"):
        field = model._meta.get_field(name)
        fields.append(field)
        model = field.related_model
    if model is not Club:
        raise ValueError(f"{path} leads to {model._meta.label}, not the club")
    return fields


def club_rows(club) -> dict:
    """Each model → its rows of ``club`` (a queryset ordered by primary key)."""
    return {
        model: model._default_manager.filter(**{path: club.pk}).order_by("pk")
        for model, path in club_paths().items()
    }
