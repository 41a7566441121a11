"""Team matches started before the away players entered the home club as guests'
records: their records there become guests' records (``Player.is_guest``), left out
of the home club's players lists, and an away player the visibility rule hides from
everybody is renamed there as a new match enters them (a number), in the records, the
entries, the frozen final ranking and the audit trail's list of entries.

Frozen code: the rule (``clubs.visibility``), the name (``tournaments.services.unnamed``)
and the sort key (``core.text.sort_key``) are copied as they were when this was written.
"""

import unicodedata

from django.db import migrations
from django.db.models import F, Q
from django.utils.translation import gettext

SORT_KEY_LENGTH = 200
_SPELT = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "ı": "i"})


def _sort_key(name):
    decomposed = unicodedata.normalize("NFKD", str(name or ""))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold().translate(_SPELT).strip()[:SORT_KEY_LENGTH]


def _unnamed(number):
    return gettext("Player no. %(number)s") % {"number": number}


def _pairs(apps, match):
    """(away line-up player, their entry) of a started match between two clubs: the
    event entered the home line-up first, then the away one, in line-up order."""
    Entry = apps.get_model("tournaments", "Entry")
    LineUpSeat = apps.get_model("competitions", "LineUpSeat")
    MatchTable = apps.get_model("competitions", "MatchTable")
    event = (
        MatchTable.objects.filter(match=match)
        .exclude(round_table=None)
        .values_list("round_table__round__tournament_id", flat=True)
        .first()
    )
    seats = LineUpSeat.objects.filter(match=match, team_id=match.away_id).order_by("order")
    guests = Entry.objects.filter(tournament_id=event, is_guest=True).order_by("number")
    away = [seat.player for seat in seats.select_related("player")]
    entries = list(guests.select_related("player"))
    if event is None or len(away) != len(entries):
        return []
    return [
        (player, entry)
        for player, entry in zip(away, entries)
        if entry.player.club_id == match.home.club_id
        and entry.player_id != player.pk
        and entry.person_id == player.person_id
    ]


def _made_for_the_match(apps, entry) -> bool:
    """The home club's record was made for a guest (``Name (Their club)``, perhaps
    numbered), not a player of the club: no login, never entered as a member."""
    Entry = apps.get_model("tournaments", "Entry")
    record = entry.player
    base = f"{entry.name} ({entry.guest_club})" if entry.guest_club else entry.name
    return (
        record.user_id is None
        and (record.name == base or record.name.startswith(f"{base} "))
        and not Entry.objects.filter(player=record, is_guest=False).exists()
    )


def _named_to_all(apps, match, player) -> bool:
    """``competitions.services._named_to_all`` and ``visibility.named_to_everyone``."""
    LeagueClub = apps.get_model("leagues", "LeagueClub")
    Player = apps.get_model("clubs", "Player")
    club = match.away.club
    naming = LeagueClub.objects.filter(
        club=club, league_id=match.competition.league_id, names_players=True
    ).exclude(accepted_at=None)
    if club.is_public or naming.exists():
        return True
    if player.person_id is None:
        return False
    public = Q(club__is_public=True) | Q(
        club__league_links__names_players=True,
        club__league_links__accepted_at__isnull=False,
        club__league_links__league__is_public=True,
    )
    return Player.objects.filter(person_id=player.person_id, is_guest=False).filter(public).exists()


def _rename(apps, match, player, entry) -> None:
    """The hidden away ``player``'s entry and record in the home club, by a number."""
    AuditEntry = apps.get_model("clubs", "AuditEntry")
    Player = apps.get_model("clubs", "Player")
    Tournament = apps.get_model("tournaments", "Tournament")
    old, new = entry.name, _unnamed(player.pk)
    record = entry.player
    base = f"{new} ({entry.guest_club})" if entry.guest_club else new
    name, n = base, 2
    while Player.objects.filter(club_id=record.club_id, name=name).exclude(pk=record.pk).exists():
        name, n = f"{base} {n}", n + 1
    record.name, record.sort_key = name, _sort_key(name)
    record.save(update_fields=["name", "sort_key"])
    entry.name, entry.licence = new, ""
    entry.save(update_fields=["name", "licence"])
    tournament = Tournament.objects.get(pk=entry.tournament_id)
    if tournament.final_ranking:
        for row in tournament.final_ranking.get("players", []):
            if row.get("number") == entry.number:
                row["name"], row["licence"] = new, ""
        tournament.save(update_fields=["final_ranking"])
    listed = AuditEntry.objects.filter(
        club_id=tournament.club_id,
        action="entries_registered",
        object_type="tournament",
        object_id=tournament.pk,
    )
    was, now = f"{entry.number}. {old}", f"{entry.number}. {new}"
    for audit in listed:
        names = (audit.after or {}).get("entries")
        if isinstance(names, list) and was in names:
            audit.after["entries"] = [now if line == was else line for line in names]
            audit.save(update_fields=["after"])


def away_players_as_guests(apps, schema_editor):
    Match = apps.get_model("competitions", "Match")
    matches = (
        Match.objects.filter(tables__round_table__isnull=False)
        .exclude(home__club=F("away__club"))
        .select_related("home__club", "away__club", "competition")
        .distinct()
    )
    found = []
    for match in matches:
        for player, entry in _pairs(apps, match):
            if _made_for_the_match(apps, entry):
                found.append((match, player, entry))
    for _match, _player, entry in found:  # first: their records name nobody any more
        if not entry.player.is_guest:
            entry.player.is_guest = True
            entry.player.save(update_fields=["is_guest"])
    for match, player, entry in found:
        if not _named_to_all(apps, match, player) and entry.name != _unnamed(player.pk):
            _rename(apps, match, player, entry)


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0003_match_tables_marked"),
        ("clubs", "0019_audit_invitations_tournament_settings"),
        ("leagues", "0008_audit_league_invitations"),
        ("tournaments", "0011_draw_rule_fair_by_the_end"),
    ]

    operations = [migrations.RunPython(away_players_as_guests, migrations.RunPython.noop)]
