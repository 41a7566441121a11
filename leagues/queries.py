"""What the league pages read beside the ranking (``leagues.season_standings``): an event's stored
results with the names a reader may see, and a person's season across clubs and events.

The pages (``leagues.views``) and the API (``api.views``) both read through these, so
they show the same rows. ``may_read_club(club)`` and ``may_read_league(league)`` say
what the reader may read (the pages pass ``clubs.permissions.can`` and
``leagues.permissions.can`` for the user; the API narrows them to a token's club).
"""

from django.utils.translation import gettext as _

from clubs import visibility
from clubs.models import Person
from leagues.models import EventResult
from scoresheet.models import SeasonTotal


def named_persons(league, person_ids, viewer) -> set:
    """Of ``person_ids``, those the league's pages may name to ``viewer`` (a user, or
    ``None``): the one rule, ``clubs.visibility``, with the league's own naming."""
    return visibility.named_person_ids(viewer, person_ids, league=league)


def event_results(event, league, *, viewer, club_readable) -> list[EventResult]:
    """The event's stored results in rank order, each with ``shown``: its name, or None
    where the reader may not see it (a members-only club's player the league may not
    name, unless the reader may read the club)."""
    results = list(event.results.all())
    named = named_persons(league, {r.person_id for r in results}, viewer)
    for r in results:
        r.shown = r.name if (club_readable or r.person_id in named) else None
    return results


def person_season(person, *, me, may_read_club, may_read_league):
    """``(clubs, results)``: the person's linked players the reader may read, each with
    their clubs' stored season totals (newest first), and their league results in the
    leagues the reader may read (newest first). The person themself reads all."""
    players = list(person.players.select_related("club").order_by("club__name", "pk"))
    visible = [p for p in players if me or may_read_club(p.club)]
    totals = {}
    for total in (
        SeasonTotal.objects.filter(player__in=visible, season__kind="season")
        .select_related("season")
        .order_by("-season__start_date")
    ):
        totals.setdefault(total.player_id, []).append(total)
    readable = {}  # league → may the reader read it: asked once a league, not a result

    def may_read(league):
        if league.pk not in readable:
            readable[league.pk] = me or may_read_league(league)
        return readable[league.pk]

    results = [
        r
        for r in EventResult.objects.filter(person=person)
        .select_related("event__tournament__club", "event__season__league")
        .order_by("-event__tournament__date")
        if may_read(r.event.season.league)
    ]
    clubs = [{"player": p, "totals": totals.get(p.pk, [])} for p in visible]
    return clubs, results


def hider(user, league):
    """The history's texts name persons by name and licence, as they were written: each
    person of the league's clubs not named to ``user`` (``clubs.visibility``) is written
    as a player of a members-only club (the history, the held licence lines)."""
    persons = {
        pk: (name, licence)
        for pk, name, licence in Person.objects.filter(players__club__league_links__league=league)
        .distinct()
        .values_list("pk", "name", "licence")
    }
    hidden = set(persons) - visibility.named_person_ids(user, persons, league=league)
    words = sorted(
        {w for pk in hidden for w in persons[pk] if w}, key=len, reverse=True
    )  # a longer name first: "Ann Lee" before "Ann"
    unnamed = _("A player of a members-only club")

    def hide(text):
        for word in words:
            if word in text:
                text = text.replace(word, unnamed)
        return text

    return hide
