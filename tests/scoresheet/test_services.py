"""The ledger's service module (``scoresheet.services``), tested directly: every verb,
and every code of its catalogue triggered by a test of its own."""

import datetime
import inspect
import re
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.utils import translation

from clubs.models import Club, Player
from scoresheet import editing, services
from scoresheet.explain_json import terms_from_json
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet
from tests.data import SEED_HANDS, SEED_TOTALS


def totals(sheet):
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    return {r["player__name"]: r["t"] for r in rows}


def test_seed_sheet_ledger_totals(make_sheet, scorer):
    sheet = make_sheet()
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    assert totals(sheet) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    assert list(sheet.hands.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert ScoreRow.objects.filter(sheet=sheet).count() == 5 * 4


def test_record_hand_writes_rows_roles_and_history(make_sheet, scorer):
    sheet = make_sheet(5)
    hand = services.record_hand(
        sheet,
        {
            "dealer": "Emil",
            "taker": "Anna",
            "partner": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": Decimal("45.5"),
            "poignees": [{"player": "Bert", "size": "double"}],
        },
        actor=scorer,
    )
    rows = {r.player.name: r for r in hand.scores.select_related("player")}
    # margin 4.5 -> 5; (25 + 5) × 2 + 30 poignée (to the winners) = 90 per defender
    assert {n: r.score for n, r in rows.items()} == {
        "Anna": 180,
        "Bert": -90,
        "Carl": 90,
        "Dora": -90,
        "Emil": -90,
    }
    assert rows["Anna"].role == "taker" and rows["Carl"].role == "partner"
    assert rows["Bert"].poignee == "double" and rows["Bert"].role == "defender"
    assert rows["Anna"].made is True and rows["Anna"].margin == 5
    assert hand.points == Decimal("45.5") and hand.entered_by == scorer
    revision = hand.revisions.get()
    assert revision.action == "created" and revision.user == scorer
    assert revision.after["scores"]["Anna"] == 180
    assert str(terms_from_json(hand.explanation)) == (
        "(25 + 5) × 2 + 30 poignée = 90 per defender; taker +180, partner +90"
    )


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        (
            {"taker": "Zoe", "contract": "garde", "bouts": 1, "points": 60},
            "player_not_at_table",
            "taker",
        ),
        (
            {"taker": "Anna", "contract": "pousse", "bouts": 1, "points": 60},
            "contract_unknown",
            "contract",
        ),
        (
            {"taker": "Anna", "contract": "garde", "bouts": 1, "points": 90},
            "points_bouts_inconsistent",
            "points",
        ),
        (
            {
                "taker": "Anna",
                "contract": "garde",
                "bouts": 1,
                "points": 53,
                "chelem": {"announced": False, "made_by": "attack"},
            },
            "chelem_points_inconsistent",
            "chelem",
        ),
        (
            {"taker": "Anna", "contract": "garde", "partner": "Bert", "bouts": 1, "points": 60},
            "partner_not_five",
            "partner",
        ),
    ],
)
def test_refused_hand_stores_nothing(make_sheet, scorer, data, code, field):
    sheet = make_sheet()
    services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    counts = (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count())
    with pytest.raises(services.LedgerError) as info:
        services.record_hand(sheet, data, actor=scorer)
    assert info.value.code == code
    assert info.value.field == field
    assert (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count()) == counts


def test_correct_hand_rescores_and_keeps_history(make_sheet, scorer):
    sheet = make_sheet()
    hands = [services.record_hand(sheet, d, actor=scorer) for d in SEED_HANDS]
    # hand 5 was entered with the poignée forgotten... then corrected to be without it
    corrected = dict(SEED_HANDS[4], poignees=[])
    services.correct_hand(hands[4], corrected, actor=scorer)
    assert totals(sheet) == {"Anna": 128, "Bert": 192, "Carl": -360, "Dora": 40}
    revision = hands[4].revisions.order_by("-id").first()
    assert revision.action == "corrected"
    assert revision.before["scores"]["Dora"] == 234
    assert revision.after["scores"]["Dora"] == 174
    assert revision.before["hand"]["poignees"] == [{"player": "Anna", "size": "single"}]
    # the other hands' rows were not rewritten
    assert ScoreRow.objects.filter(hand=hands[0]).count() == 4


def test_correct_refused_keeps_hand(make_sheet, scorer):
    sheet = make_sheet()
    hand = services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    with pytest.raises(services.LedgerError) as info:
        services.correct_hand(hand, dict(SEED_HANDS[0], bouts=5), actor=scorer)
    assert info.value.code == "bouts_out_of_range"
    assert totals(sheet)["Anna"] == 240
    assert hand.revisions.count() == 1


def test_delete_and_restore(make_sheet, scorer):
    sheet = make_sheet()
    hands = [services.record_hand(sheet, d, actor=scorer) for d in SEED_HANDS]
    services.delete_hand(hands[0], actor=scorer)
    assert totals(sheet)["Anna"] == 108 - 240
    with pytest.raises(services.LedgerError) as info:
        services.delete_hand(hands[0], actor=scorer)
    assert info.value.code == "hand_deleted"
    with pytest.raises(services.LedgerError) as info:
        services.correct_hand(hands[0], SEED_HANDS[0], actor=scorer)
    assert info.value.code == "hand_deleted"
    services.restore_hand(hands[0], actor=scorer)
    assert totals(sheet) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    with pytest.raises(services.LedgerError) as info:
        services.restore_hand(hands[0], actor=scorer)
    assert info.value.code == "hand_not_deleted"
    actions = list(hands[0].revisions.values_list("action", flat=True))
    assert actions == ["created", "deleted", "restored"]
    # a new hand after a deletion takes the next number, never a deleted one's
    services.delete_hand(hands[4], actor=scorer)
    new = services.record_hand(sheet, SEED_HANDS[4], actor=scorer)
    assert new.number == 6


MOUCHES = [
    {"dealer": "Anna"},  # everybody passed: antes 40, Anna stakes 5 -> pool 45
    {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 1, "points": 40},
    {"dealer": "Carl", "taker": "Dora", "contract": "garde", "bouts": 2, "points": 50},
]


def test_mouches_pools_carry_and_correction_rescores_later_hands(make_sheet, scorer):
    sheet = make_sheet(rules="mouches")
    hands = [services.record_hand(sheet, d, actor=scorer) for d in MOUCHES]
    hands = list(sheet.hands.order_by("number"))
    # hand 2: Bert stakes 5 (pool 50); Carl fails by 11 (11 each) and pays 50 -> [50, 50]
    # hand 3: Carl stakes 5 on the oldest largest (55, 50); Dora makes by 9 (18 each), takes 55
    assert [h.pools for h in hands] == [[45], [50, 50], [50]]
    assert sum(totals(sheet).values()) + sum(hands[-1].pools) == 0
    assert totals(sheet) == {
        "Anna": Decimal(-10 - 5 + 11 - 18),
        "Bert": Decimal(-10 - 5 + 11 - 18),
        "Carl": Decimal(-10 - 33 - 50 - 5 - 18),
        "Dora": Decimal(-10 + 11 + 54 + 55),
    }
    # Carl's hand corrected to made: he takes the pool, so hand 3 finds no pool
    services.correct_hand(hands[1], dict(MOUCHES[1], points=60), actor=scorer)
    hands = list(sheet.hands.order_by("number"))
    # hand 2: made by 9: 9 each; Carl takes 50 -> no pool
    # hand 3: antes 40 -> pool 40, Carl stakes 5 -> 45, Dora takes 45
    assert [h.pools for h in hands] == [[45], [], []]
    assert sum(totals(sheet).values()) == 0
    assert totals(sheet)["Dora"] == Decimal(-10 - 9 - 10 + 54 + 45)


def test_mouches_delete_rescores_later(make_sheet, scorer):
    sheet = make_sheet(rules="mouches")
    hands = [services.record_hand(sheet, d, actor=scorer) for d in MOUCHES]
    services.delete_hand(hands[1], actor=scorer)
    live = list(sheet.hands.live().order_by("number"))
    # without hand 2: hand 3 finds the 45 pool, Carl stakes 5, Dora takes 50
    assert live[-1].pools == []
    assert sum(totals(sheet).values()) == 0


def test_create_sheet_refusals(season, players, scorer, club):
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(season=season, players=players[:1], date=datetime.date.today())
    assert info.value.code == "seat_count"
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(
            season=season, players=[players[0], players[0], players[1]], date=datetime.date.today()
        )
    assert info.value.code == "duplicate_player"
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, name="X")
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(
            season=season, players=[*players[:3], stranger], date=datetime.date.today()
        )
    assert info.value.code == "player_not_in_club"
    with pytest.raises(services.LedgerError) as info:
        services.create_sheet(
            season=season, players=players[:4], date=datetime.date.today(), rules="belote"
        )
    assert info.value.code == "rules_invalid"


def test_sheet_rules_are_frozen(make_sheet, season, scorer):
    sheet = make_sheet()
    season.rules = {"preset": "fft", "rounding": 10}
    season.save()
    hand = services.record_hand(sheet, SEED_HANDS[0], actor=scorer)
    assert {r.score for r in hand.scores.all()} == {240, -80}


# ---------------------------------------------------------------- every verb, every code
#
# The ledger's service module tested directly, verb by verb, and a test that
# triggers each code of its catalogue (``services.error_messages``).

MARCH = datetime.date(2026, 3, 14)
GARDE = {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


def refused(code, call, *args, **kwargs):
    """``call`` refuses with ``code``, its message from the catalogue, and writes nothing."""
    before = (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count())
    with pytest.raises(services.LedgerError) as info:
        call(*args, **kwargs)
    assert info.value.code == code, info.value.message
    assert (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count()) == before
    return info.value


def _stranger(django_user_model):
    return django_user_model.objects.create_user("stranger", password="a-long-passphrase-1")


def _ambiguous(season, players, scorer):
    Player.objects.create(club=season.club, name="Hélène")
    Player.objects.create(club=season.club, name="Helene")
    return services.players_by_names, (season.club, ["helene"]), {}


#: code → how to trigger it: a function of the fixtures returning (call, args, kwargs).
TRIGGERS = {
    "seat_count": lambda season, players, sheet, **_: (
        services.create_sheet,
        (),
        {"season": season, "players": players[:1], "date": MARCH},
    ),
    "duplicate_player": lambda season, players, **_: (
        services.create_sheet,
        (),
        {"season": season, "players": [players[0], players[0], players[1]], "date": MARCH},
    ),
    "player_not_in_club": lambda season, players, stranger_player, **_: (
        services.create_sheet,
        (),
        {"season": season, "players": [*players[:3], stranger_player], "date": MARCH},
    ),
    "player_ambiguous": lambda season, players, scorer, **_: _ambiguous(season, players, scorer),
    "player_unknown": lambda season, **_: (services.players_by_names, (season.club, ["Zoe"]), {}),
    "invalid_field": lambda sheet, **_: (services.record_hand, (sheet, ["garde"]), {}),
    "sheet_deleted": lambda sheet, **_: (
        editing.delete_sheet(sheet) and services.record_hand,
        (sheet, GARDE),
        {},
    ),
    "sheet_closed": lambda sheet, **_: (
        services.close_sheet(sheet) and services.record_hand,
        (sheet, GARDE),
        {},
    ),
    # another phone's hand stored after the one this hand was entered after
    "hand_clash": lambda sheet, **_: (
        services.record_hand(sheet, GARDE) and services.record_hand,
        (sheet, GARDE),
        {"after": 0},
    ),
    "hand_deleted": lambda sheet, **_: (
        services.delete_hand,
        (services.delete_hand(services.record_hand(sheet, GARDE)),),
        {},
    ),
    "hand_not_deleted": lambda sheet, **_: (
        services.restore_hand,
        (services.record_hand(sheet, GARDE),),
        {},
    ),
    "amount_too_large": lambda season, players, **_: (
        services.record_hand,
        (
            services.create_sheet(
                season=season,
                players=players[:4],
                date=MARCH,
                rules={"preset": "fft", "poignee": [10**12, 10**12, 10**12]},
            ),
            dict(GARDE, poignees=[{"player": "Anna", "size": "single"}]),
        ),
        {},
    ),
    "forbidden": lambda sheet, stranger, **_: (
        services.record_hand,
        (sheet, GARDE),
        {"actor": stranger},
    ),
}


def test_every_code_of_the_catalogue_has_its_test():
    assert set(TRIGGERS) == set(services.error_messages) | {"forbidden"}


def test_every_code_the_module_raises_is_in_its_catalogue():
    """A code raised by name in scoresheet/services.py is declared in its catalogue."""
    source = inspect.getsource(services)
    raised = set(re.findall(r'LedgerError\(\s*"([a-z_]+)"', source))
    assert raised and raised <= set(services.error_messages)


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_code_is_raised_with_its_catalogued_message(
    code, season, players, make_sheet, scorer, django_user_model
):
    other = Club.objects.create(name="Other", slug="other")
    fixtures = {
        "season": season,
        "players": players,
        "sheet": make_sheet(4),
        "scorer": scorer,
        "stranger": _stranger(django_user_model),
        "stranger_player": Player.objects.create(club=other, name="X"),
    }
    call, args, kwargs = TRIGGERS[code](**fixtures)
    error = refused(code, call, *args, **kwargs)
    if code in services.error_messages and not error.params:
        assert error.message == str(services.error_messages[code])
    elif code == "forbidden":
        assert error.message == "Only a scorer or a manager of the club may do this."


def test_a_refusal_reads_its_message_in_the_active_language(make_sheet):
    sheet = make_sheet(4)
    editing.delete_sheet(sheet)
    english = "This sheet is deleted: restore it first."
    with translation.override("fr"):
        error = refused("sheet_deleted", services.record_hand, sheet, GARDE)
        french = translation.gettext(english)
    assert error.message == french != english
    assert french.startswith("Cette feuille est supprimée")


def test_a_message_takes_its_parameters(season, players):
    Player.objects.create(club=season.club, name="Hélène")
    Player.objects.create(club=season.club, name="Helene")
    error = refused("player_ambiguous", services.players_by_names, season.club, ["HELENE"])
    assert error.message == "Several players match HELENE: Helene, Hélène" or (
        error.message == "Several players match HELENE: Hélène, Helene"
    )
    assert error.field == "players"
    error = refused("player_unknown", services.players_by_names, season.club, ["Zoe", "Yan"])
    assert error.message == "Unknown player: Zoe, Yan"


def test_correcting_a_deleted_hand_says_to_restore_it(make_sheet):
    sheet = make_sheet(4)
    hand = services.delete_hand(services.record_hand(sheet, GARDE))
    error = refused("hand_deleted", services.correct_hand, hand, GARDE)
    assert error.message == "Restore the hand before correcting it."


# ---------------------------------------------------------------- verb by verb


def test_open_sheet_creates_the_new_players_with_the_sheet(season, players, scorer):
    sheet = services.open_sheet(
        season=season, seated=[*players[:3], "Zoé"], date=MARCH, table="2", actor=scorer
    )
    assert list(services.Table.of(sheet).names) == ["Anna", "Bert", "Carl", "Zoé"]
    assert sheet.created_by == scorer


def test_open_sheet_refused_leaves_no_new_player(season, players, scorer):
    count = Player.objects.count()
    error = refused(
        "name_invalid",
        services.open_sheet,
        season=season,
        seated=[*players[:3], "Zo\x00é"],
        date=MARCH,
        actor=scorer,
    )
    assert error.field == "new_players"
    # a refusal after the new players are created takes them back too
    refused(
        "seat_count", services.open_sheet, season=season, seated=["Yan"], date=MARCH, actor=scorer
    )
    assert Player.objects.count() == count


def test_players_by_names_matches_loosely_and_creates_when_asked(season, players, scorer):
    club = season.club
    assert [p.name for p in services.players_by_names(club, [" anna ", "BERT"])] == [
        "Anna",
        "Bert",
    ]
    found = services.players_by_names(club, ["Anna", "Yan", "yan"], create=True, actor=scorer)
    assert [p.name for p in found] == ["Anna", "Yan", "Yan"] and found[1] == found[2]
    error = refused("name_required", services.players_by_names, club, ["  "])
    assert error.field == "players"


def test_preview_hand_scores_without_writing(make_sheet):
    sheet = make_sheet(4)
    result = services.preview_hand(sheet, GARDE)
    assert dict(zip(result.players, result.halves))["Anna"] == 480
    assert not Hand.objects.exists() and services.next_number(sheet) == 1


def test_record_hand_scores_once_under_the_lock(make_sheet, scorer, monkeypatch):
    sheet = make_sheet(4)
    calls = []
    real = services.score_hand

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "score_hand", counted)
    hand = services.record_hand(sheet, GARDE, actor=scorer)
    sheet.refresh_from_db()
    assert len(calls) == 1 and hand.number == 1 and services.next_number(sheet) == 2


def test_record_hand_reads_the_seating_again_until_the_first_hand(make_sheet, players, scorer):
    """The seating the form read is trusted only once the sheet had a hand (it no longer
    changes then): a sheet reseated between the form and the save scores the new table."""
    sheet = make_sheet(4)
    stale = services.Table.of(sheet)
    editing.update_sheet(
        sheet,
        date=sheet.date,
        table=sheet.table,
        season=sheet.season,
        players=[players[4], *players[1:4]],
        actor=scorer,
    )
    refused("player_not_at_table", services.record_hand, sheet, GARDE, table=stale)
    hand = services.record_hand(sheet, dict(GARDE, taker="Emil"), table=stale)
    assert {r.player.name for r in hand.scores.all()} == {"Emil", "Bert", "Carl", "Dora"}


def test_record_hand_of_a_sheet_gone_is_not_found(make_sheet):
    sheet = make_sheet(4)
    Sheet.objects.filter(pk=sheet.pk).delete()
    with pytest.raises(Sheet.DoesNotExist):
        services.record_hand(sheet, GARDE)


def test_close_and_reopen_sheet(make_sheet, scorer, manager):
    sheet = make_sheet(4)
    closed = services.close_sheet(sheet, actor=scorer)
    first = closed.closed_at
    assert services.close_sheet(sheet, actor=scorer).closed_at == first  # stays
    refused("forbidden", services.reopen_sheet, sheet, actor=scorer)  # a manager's
    assert services.reopen_sheet(sheet, actor=manager).closed_at is None
    services.record_hand(sheet, GARDE, actor=scorer)


def test_a_superuser_and_code_without_a_user_may_write(make_sheet, make_user):
    sheet = make_sheet(4)
    root = make_user("root", is_superuser=True)
    services.record_hand(sheet, GARDE, actor=root)
    services.record_hand(sheet, GARDE)  # a command, an import
    assert sheet.hands.count() == 2
