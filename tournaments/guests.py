"""A guest typed with a licence at a tournament's registration: the league's person
holding it (``clubs.models.Person``), so that the guest's results reach the league."""

from clubs.models import Person
from clubs.visibility import named_person_ids
from core.text import looks_alike, name_key
from tournaments.models import Entry


def licensed_person(licence, name) -> Person | None:
    """The person holding ``licence`` when ``name`` is theirs (the same name, accents,
    case and spaces aside, or one that looks alike): a guest typed with a licence is
    entered as that person. Another name is not linked: the players page proposes the
    match to the organiser (``licence_proposals``)."""
    person = Person.objects.filter(licence=licence.strip()).first()
    if person is None or not name:
        return None
    same = name_key(person.name) == name_key(name) or looks_alike(name, person.name)
    return person if same else None


def licence_proposals(tournament, viewer) -> list[tuple[Entry, Person]]:
    """Guests entered with a licence a person holds, not linked (their names differ):
    the organiser links them (``link_entry``) or leaves them. Only the persons named to
    ``viewer`` (``clubs.visibility``) are proposed: a hidden person's name is not shown."""
    guests = tournament.entries.filter(is_guest=True, person__isnull=True)
    entries = list(guests.exclude(licence="").order_by("number"))
    persons = Person.objects.in_bulk([e.licence for e in entries], field_name="licence")
    named = named_person_ids(viewer, [p.pk for p in persons.values()])
    return [
        (e, persons[e.licence])
        for e in entries
        if e.licence in persons and persons[e.licence].pk in named
    ]
