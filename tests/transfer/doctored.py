"""A club backed up then taken out of the database (the other club stays), and the
ways a backup can be doctored, for ``test_restore_checks`` and ``test_fuzz``."""

import datetime
import json

from django.apps import apps
from django.contrib.auth import get_user_model

from clubs import services as club_services
from clubs.models import Club, Membership, Role
from scoresheet import services
from tests.transfer.test_backup import build_club
from transfer import backup as backups
from transfer.backup import paths


def counts() -> dict:
    """Rows of every model a restore may write, and the logins with their privileges."""
    found = {label: apps.get_model(label)._default_manager.count() for label in paths()}
    User = get_user_model()
    found["users"] = sorted(User.objects.values_list("username", "is_staff", "is_superuser"))
    return found


def clear(club) -> None:
    """Take every row of ``club`` out of the database (its logins stay)."""
    for label, path in reversed(paths().items()):
        apps.get_model(label)._default_manager.filter(**{path: club.pk}).delete()


def backed_up_then_cleared():
    """The backup of a full club ``rive`` (a dict), the club gone from the database;
    and ``other``, a members-only club that stays, with a season, players and a sheet:
    the rows a doctored file may name."""
    club = build_club()
    other = Club.objects.get(slug="other")
    other.is_public = False
    other.save()
    boss = get_user_model().objects.get(username="boss")
    season = club_services.create_season(
        other, "O", datetime.date(2026, 1, 1), None, "fft", actor=None
    )
    players = [club_services.create_player(other, name) for name in ("Olga", "Otto", "Oleg")]
    players.append(other.players.get(name="Zoé"))
    sheet = services.create_sheet(season=season, players=players, date=datetime.date(2026, 2, 2))
    services.record_hand(sheet, {"taker": "Olga", "contract": "garde", "bouts": 2, "points": 56})
    data = backups.backup(club)
    clear(club)
    ids = {
        "club": other.pk,
        "season": season.pk,
        "sheet": sheet.pk,
        "player": players[0].pk,
        "boss": boss.pk,
        "membership": Membership.objects.filter(club=other).count(),
    }
    assert not Membership.objects.filter(club=other, user=boss, role=Role.MANAGER).exists()
    return data, ids


def rows(data, model):
    return [row for row in data["objects"] if row["model"] == model]


def add(data, row):
    data["objects"].append(row)
    data["counts"][row["model"]] = data["counts"].get(row["model"], 0) + 1


def copy(data):
    return json.loads(json.dumps(data))
