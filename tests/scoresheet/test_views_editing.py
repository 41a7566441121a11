"""The pages of a sheet's editing: changing, closing, deleting and restoring a sheet, notes,
the paper-sheet check, and near-duplicate names when a sheet is opened."""

import datetime

from django.urls import reverse

from clubs.models import Player
from scoresheet import services
from scoresheet.models import Hand, ScoreRow, Sheet
from tests.data import RULES_POST, SEED_HANDS


def url(name, *args):
    return reverse(f"scoresheet:{name}", args=args)


# ---------------------------------------------------------------- players


def test_a_scorer_changes_the_date_table_and_seating(client, scorer, make_sheet, players, season):
    sheet = make_sheet(4)
    client.force_login(scorer)
    edit = url("sheet_edit", "rive", sheet.pk)
    assert "seat_1" in client.get(edit).content.decode()
    post = {
        "action": "details",
        "season": season.pk,
        "date": "2026-03-15",
        "table": "2",
        "seat_1": players[1].pk,
        "seat_2": players[0].pk,
        "seat_3": players[2].pk,
        "seat_4": players[4].pk,
    }
    assert client.post(edit, post).status_code == 302
    sheet.refresh_from_db()
    assert (sheet.date, sheet.table) == (datetime.date(2026, 3, 15), "2")
    names = list(sheet.seats.order_by("position").values_list("player__name", flat=True))
    assert names == ["Bert", "Anna", "Carl", "Emil"]
    # a seat given twice: the form says so, nothing changes
    response = client.post(edit, {**post, "seat_4": players[1].pk})
    assert "seated twice" in response.content.decode()
    # the sheet page links to the editing and to the paper check
    html = client.get(url("sheet", "rive", sheet.pk)).content.decode()
    assert url("sheet_edit", "rive", sheet.pk) in html
    assert url("sheet_check", "rive", sheet.pk) in html


def test_the_note_and_a_hands_note(client, scorer, seeded):
    client.force_login(scorer)
    client.post(url("sheet_edit", "rive", seeded.pk), {"action": "note", "note": "At Dora's"})
    assert "At Dora&#x27;s" in client.get(url("sheet", "rive", seeded.pk)).content.decode()
    client.post(url("hand_note", "rive", seeded.pk, 2), {"note": "Misdeal first"})
    assert Hand.objects.get(sheet=seeded, number=2).note == "Misdeal first"
    assert "Misdeal first" in client.get(url("hand", "rive", seeded.pk, 2)).content.decode()
    response = client.post(url("hand_note", "rive", seeded.pk, 2), {"note": "x" * 3000})
    assert response.status_code == 302
    assert Hand.objects.get(sheet=seeded, number=2).note == "Misdeal first"


def test_closing_by_a_scorer_reopening_by_a_manager(client, scorer, manager, seeded):
    client.force_login(scorer)
    client.post(url("sheet_close", "rive", seeded.pk))
    seeded.refresh_from_db()
    assert seeded.is_closed
    assert "This sheet is closed" in client.get(url("sheet", "rive", seeded.pk)).content.decode()
    assert client.post(url("sheet_reopen", "rive", seeded.pk)).status_code == 403
    client.force_login(manager)
    client.post(url("sheet_reopen", "rive", seeded.pk))
    seeded.refresh_from_db()
    assert not seeded.is_closed


def test_a_deleted_sheet_leaves_the_pages_until_restored(client, manager, seeded):
    client.force_login(manager)
    response = client.post(url("sheet_delete", "rive", seeded.pk))
    assert response["Location"] == url("sheets_deleted", "rive")
    seeded.refresh_from_db()
    assert seeded.deleted_at is not None
    assert client.get(url("sheet", "rive", seeded.pk)).status_code == 404
    assert client.get(url("hand", "rive", seeded.pk, 1)).status_code == 404
    assert client.get(url("sheet_export", "rive", seeded.pk)).status_code == 404
    assert f'href="{url("sheet", "rive", seeded.pk)}"' not in (
        client.get(url("sheets", "rive")).content.decode()
    )
    listed = client.get(url("sheets_deleted", "rive")).content.decode()
    assert f'data-sheet="{seeded.pk}"' in listed
    client.post(url("sheet_restore", "rive", seeded.pk))
    seeded.refresh_from_db()
    assert seeded.deleted_at is None
    assert ScoreRow.objects.filter(sheet=seeded).count() == 4 * len(SEED_HANDS)


# ---------------------------------------------------------------- the paper check


def _paper_post(sheet, totals):
    post = {}
    for number, values in totals.items():
        for position, value in enumerate(values):
            post[f"h{number}_{position}"] = value
    return post


def test_the_paper_check_marks_the_first_difference(client, scorer, seeded):
    client.force_login(scorer)
    check = url("sheet_check", "rive", seeded.pk)
    running = {}
    total = [0, 0, 0, 0]
    for row in ScoreRow.objects.filter(sheet=seeded).order_by("hand__number", "position"):
        total[row.position] += row.score
        running[row.hand.number] = [str(v) for v in total]
    html = client.post(check, _paper_post(seeded, running)).content.decode()
    assert "agree on every line" in html
    slip = {**running, 4: [running[4][0], str(int(float(running[4][1])) + 10), *running[4][2:]]}
    html = client.post(check, _paper_post(seeded, slip)).content.decode()
    assert 'data-kind="arithmetic" data-hand="4"' in html
    assert "first difference" in html
    html = client.post(check, {"h1_0": "abc"}).content.decode()
    assert "Type a number" in html
    html = client.post(check, {"h1_0": "12"}).content.decode()
    assert "fill every column" in html


# ---------------------------------------------------------------- near-duplicates


def _sheet_post(season, **fields):
    post = {"season": season.pk, "date": "2026-03-14", "table": "", **RULES_POST}
    post.update(fields)
    return post


def test_a_near_duplicate_name_asks_before_creating(client, scorer, players, season, club):
    Player.objects.create(club=club, name="Jean-Pierre")
    client.force_login(scorer)
    create = url("sheet_create", "rive")
    post = _sheet_post(
        season,
        seat_1=players[0].pk,
        seat_2=players[1].pk,
        seat_3=players[2].pk,
        new_players="Jean Pierre",
    )
    response = client.post(create, post)
    html = response.content.decode()
    assert response.status_code == 200
    assert "looks like a player of the club" in html
    assert not Sheet.objects.exists()
    jp = Player.objects.get(name="Jean-Pierre")
    response = client.post(create, {**post, "same_0": str(jp.pk)})
    assert response.status_code == 302
    sheet = Sheet.objects.get()
    assert jp in sheet.players.all()
    assert not Player.objects.filter(name="Jean Pierre").exists()
    # or a new player, when it is somebody else
    client.post(create, {**post, "same_0": "new", "date": "2026-03-21"})
    assert Player.objects.filter(name="Jean Pierre").exists()


def test_a_merged_players_name_seats_the_kept_player(client, scorer, players, season, club):
    typo = Player.objects.create(club=club, name="Ana", is_active=False, merged_into=players[0])
    client.force_login(scorer)
    post = _sheet_post(
        season, seat_1=players[1].pk, seat_2=players[2].pk, seat_3=players[3].pk, new_players="ana"
    )
    assert client.post(url("sheet_create", "rive"), post).status_code == 302
    assert players[0] in Sheet.objects.get().players.all()
    assert typo not in Sheet.objects.get().players.all()


def test_a_deleted_sheet_leaves_the_club_page_and_the_pools_held(
    client, club, season, make_sheet, scorer, manager
):
    from scoresheet import editing
    from standings.queries import pools_held

    sheet = make_sheet(4, rules="mouches", table="Mouches")
    services.record_hand(
        sheet, {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 40}
    )
    assert pools_held(club, season=season) != 0
    assert "Mouches" in client.get("/clubs/rive/").content.decode()
    editing.delete_sheet(sheet, actor=manager)
    assert pools_held(club, season=season) == 0
    assert "Mouches" not in client.get("/clubs/rive/").content.decode()
