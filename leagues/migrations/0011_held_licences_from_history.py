"""The licence lines held before they were kept as rows: each league's audit entries of
a licence import list them ("licence;name;club;série", the club as the club's manager
wrote it: its name or address). Each becomes a pending held line of its league, sent
by the entry's author at its time (the latest of a club and licence kept), unless a
player of its club is linked to a person of its licence already (a league manager
imported it again meanwhile). A line whose club is no longer a member club is left."""

import unicodedata

from django.db import migrations

SPELT = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "ı": "i"})


def _key(name):
    """A name as the import compared it (``core.text.sort_key``, frozen here)."""
    decomposed = unicodedata.normalize("NFKD", str(name or ""))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold().translate(SPELT).strip()[:200]


def held_from_history(apps, schema_editor):
    LeagueAuditEntry = apps.get_model("leagues", "LeagueAuditEntry")
    LeagueClub = apps.get_model("leagues", "LeagueClub")
    HeldLicence = apps.get_model("leagues", "HeldLicence")
    Player = apps.get_model("clubs", "Player")
    entries = LeagueAuditEntry.objects.filter(action="licences_imported").order_by("at", "pk")
    found = {}  # (league, club, licence) → the latest line
    clubs_of = {}
    for entry in entries.iterator():
        lines = entry.after.get("held_lines") if isinstance(entry.after, dict) else None
        if not lines:
            continue
        if entry.league_id not in clubs_of:
            clubs = {}
            for link in LeagueClub.objects.filter(
                league_id=entry.league_id, accepted_at__isnull=False
            ).select_related("club"):
                clubs.setdefault(_key(link.club.name), link.club)
                clubs.setdefault(link.club.slug.lower(), link.club)
            clubs_of[entry.league_id] = clubs
        clubs = clubs_of[entry.league_id]
        for text in lines:
            parts = str(text).split(";")
            if len(parts) != 4 or not parts[0] or not parts[1]:
                continue
            licence, name, club_name, serie = parts
            club = clubs.get(_key(club_name)) or clubs.get(club_name.lower())
            if club is None:
                continue
            found[(entry.league_id, club.pk, licence)] = HeldLicence(
                league_id=entry.league_id,
                club=club,
                licence=licence[:20],
                name=name[:80],
                serie=serie[:30],
                sent_by_id=entry.actor_id,
                sent_at=entry.at,
            )
    linked = set(
        Player.objects.filter(
            person__licence__in={licence for _league, _club, licence in found}
        ).values_list("club_id", "person__licence")
    )
    rows = [row for key, row in found.items() if (key[1], key[2]) not in linked]
    HeldLicence.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0010_held_licences"),
    ]

    operations = [
        migrations.RunPython(held_from_history, migrations.RunPython.noop),
    ]
