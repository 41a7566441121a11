"""The backup reaches every model of the club's apps through keys that are never null."""

import datetime
import json

import pytest
from django.apps import apps
from django.core.management import call_command

from clubs import services as club_services
from clubs.models import Club, Person, Player
from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow
from tests.data import NAMES
from tournaments import services as tournament_services
from tournaments.models import RoundTable
from transfer import backup as backups
from transfer.backup import path_fields
from transfer.backup.rows import app_labels, left_out, paths, shared

NO_DEALER = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def test_every_model_of_the_club_apps_has_a_path_of_keys_never_null():
    PATHS = paths()
    assert set(app_labels()) >= {"clubs", "scoresheet", "tournaments"}
    for label in app_labels():
        for model in apps.get_app_config(label).get_models():
            if model._meta.label in shared():  # carried beside the rows (a person's licence)
                continue
            if model._meta.label in left_out():  # credentials (API tokens), never backed up
                continue
            assert model._meta.label in PATHS, f"{model._meta.label}: no path to its club"
            fields = path_fields(model, PATHS[model._meta.label])
            for field in fields:
                assert field.many_to_one or field.one_to_one, (model, field.name)
                assert not field.null, f"{model._meta.label}: {field.name} may be null"
            assert fields or model is Club


def test_each_model_comes_after_the_models_it_names():
    """The apps register their rows themselves, in the order Django starts them (the
    ledger before the clubs): the file's order still puts a row's targets before it,
    an app after the apps it points at, so a restore checks each batch's keys as it
    writes it."""
    order = list(paths())
    assert order[0] == "clubs.Club"
    seen = set()
    for label in order:
        model = apps.get_model(label)
        for field in model._meta.concrete_fields:
            target = field.related_model._meta.label if field.is_relation else None
            if target in order and field.related_model is not model:
                assert target in seen, f"{label}.{field.name} names {target}, written after it"
        seen.add(label)


def test_a_path_that_does_not_reach_the_club_is_refused():
    with pytest.raises(ValueError):
        path_fields(apps.get_model("scoresheet.Hand"), "sheet__season")


@pytest.mark.django_db(transaction=True)
def test_hands_without_a_dealer_and_tables_without_a_sheet_come_back(tmp_path, capsys):
    club = Club.objects.create(name="Sans donneur", slug="sans")
    season = club_services.create_season(
        club, "S", datetime.date(2026, 1, 1), None, "fft", actor=None
    )
    players = [club_services.create_player(club, name) for name in NAMES]
    sheet = services.create_sheet(
        season=season, players=players[:4], date=datetime.date(2026, 2, 1)
    )
    for _ in range(3):
        services.record_hand(sheet, NO_DEALER)
    services.record_hand(sheet, dict(NO_DEALER, dealer="Bert"))
    tournament = tournament_services.create_tournament(
        club, name="Open", date=datetime.date(2026, 5, 1), rules="fft", rounds=1, deals_per_round=1
    )
    tournament_services.register(tournament, [("member", p) for p in players[:4]])
    tournament_services.draw_round(tournament.round_set.get())  # a table, no sheet yet
    assert RoundTable.objects.filter(sheet=None).count() == 1
    counts = {
        "hands": Hand.objects.count(),
        "rows": ScoreRow.objects.count(),
        "revisions": HandRevision.objects.count(),
    }
    path = tmp_path / "sans.json"
    call_command("backup_club", club="sans", output=str(path))
    assert "4 hands" in capsys.readouterr().out
    data = json.loads(path.read_text())
    assert data["counts"]["scoresheet.hand"] == 4
    assert data["counts"]["tournaments.roundtable"] == 1

    call_command("flush", interactive=False)
    call_command("restore_club", str(path))
    assert "4 hands" in capsys.readouterr().out  # what it restored
    assert {
        "hands": Hand.objects.count(),
        "rows": ScoreRow.objects.count(),
        "revisions": HandRevision.objects.count(),
    } == counts
    assert RoundTable.objects.filter(sheet=None).count() == 1


@pytest.mark.django_db
def test_a_file_whose_rows_do_not_add_up_to_its_counts_is_refused():
    club = Club.objects.create(name="Compte", slug="compte")
    club_services.create_player(club, "Anna")
    data = backups.backup(club)
    data["club"] = "ailleurs"
    data["objects"] = [row for row in data["objects"] if row["model"] != "clubs.player"]
    with pytest.raises(backups.BackupError) as caught:
        backups.restore(json.dumps(data))
    assert caught.value.code == "backup_invalid"
    assert "clubs.player" in caught.value.message


@pytest.mark.django_db(transaction=True)
def test_a_backup_carries_its_players_persons_and_no_other_clubs_links():
    club = Club.objects.create(name="Lien", slug="lien")
    elsewhere = Club.objects.create(name="Ailleurs", slug="ailleurs")
    anna = Person.objects.create(name="Anna", licence="123", serie="Open")
    Player.objects.create(club=club, name="Anna", person=anna)
    Player.objects.create(club=elsewhere, name="Anna A.", person=anna)
    Person.objects.create(name="Other", licence="999")
    data = backups.backup(club)
    assert data["persons"] == [{"id": anna.pk, "name": "Anna", "licence": "123", "serie": "Open"}]
    assert "Anna A." not in json.dumps(data)  # the other club's record of her stays out
    Club.objects.filter(slug="lien").delete()
    restored = backups.restore(json.dumps(data))
    # the person already here (by licence) is linked again, not duplicated
    assert restored.players.get().person == anna
    assert Person.objects.filter(licence="123").count() == 1
