"""Doctored backups, drawn at random: each is refused whole and writes nothing.

A bounded loop (seeded, so a failure replays): each case applies one to three
doctorings that each make the file wrong — a row naming another club's rows, an
unknown id, a broken zero-sum, rules the engine cannot read, a wrong header —
and the restore must refuse it (``BackupError``, never another exception) with
every table and every login as they were.
"""

import json
import random

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from tests.transfer.doctored import add, backed_up_then_cleared, copy, counts, rows
from transfer import backup as backups

CASES = 100
BAD_RULES = ["poker", {"preset": "nope"}, 42, None, {"preset": "fft", "poignee": "x"}, []]


def _relations(row):
    model = apps.get_model(row["model"])
    return [
        f
        for f in model._meta.concrete_fields
        if f.is_relation and not f.primary_key and f.name in row["fields"]
    ]


def another_club(data, ids, rng):
    """A key of some row pointed at the other club's row of the same model."""
    targets = {"clubs.club": "club", "clubs.season": "season", "scoresheet.sheet": "sheet"}
    targets["clubs.player"] = "player"
    choices = [
        (row, field)
        for row in data["objects"]
        for field in _relations(row)
        if field.related_model._meta.label_lower in targets
    ]
    row, field = rng.choice(choices)
    row["fields"][field.name] = ids[targets[field.related_model._meta.label_lower]]


def unknown_id(data, ids, rng):
    row, field = rng.choice([(r, f) for r in data["objects"] for f in _relations(r)])
    row["fields"][field.name] = 10**8 + rng.randrange(1000)


def broken_sum(data, ids, rng):
    row = rng.choice(rows(data, "scoresheet.scorerow"))
    row["fields"]["score"] = str(float(row["fields"]["score"]) + rng.choice([-10, -0.5, 1, 25]))


def bad_rules(data, ids, rng):
    model = rng.choice(["clubs.season", "scoresheet.sheet", "tournaments.tournament"])
    rng.choice(rows(data, model))["fields"]["rules"] = copy(rng.choice(BAD_RULES))


def membership_elsewhere(data, ids, rng):
    fields = {"club": ids["club"], "user": ids["boss"], "role": "manager"}
    add(data, {"model": "clubs.membership", "pk": 10**6 + rng.randrange(1000), "fields": fields})


def row_twice(data, ids, rng):
    add(data, copy(rng.choice(data["objects"])))


def wrong_header(data, ids, rng):
    doctor = rng.randrange(7)
    if doctor == 0:
        data["format"] = "tarot-ledger-club-backup-x"
    elif doctor == 1:
        data["version"] = rng.choice([0, 4, "2", None])
    elif doctor == 2:
        data["club"] = "someone-else"
    elif doctor == 3:
        label = rng.choice(sorted(data["counts"]))
        data["counts"][label] += rng.choice([-1, 1])
    elif doctor == 4:
        del data["counts"]
    elif doctor == 5:
        data["objects"] = {"not": "a list"}
    else:
        data["users"] = "boss"


DOCTORINGS = [
    another_club,
    unknown_id,
    broken_sum,
    bad_rules,
    membership_elsewhere,
    row_twice,
    wrong_header,
]


@pytest.mark.django_db
def test_every_doctored_backup_is_refused_and_writes_nothing():
    data, ids = backed_up_then_cleared()
    before = counts()
    logins = list(get_user_model().objects.order_by("pk").values())
    rng = random.Random(2026)
    seen = set()
    for case in range(CASES):
        doctored = copy(data)
        applied = [rng.choice(DOCTORINGS) for _ in range(rng.randint(1, 3))]
        for doctor in applied:
            doctor(doctored, ids, rng)
        seen.update(d.__name__ for d in applied)
        with pytest.raises(backups.BackupError):
            backups.restore(doctored if case % 2 else json.dumps(doctored))
        assert counts() == before, (case, [d.__name__ for d in applied])
    assert list(get_user_model().objects.order_by("pk").values()) == logins
    assert seen == {d.__name__ for d in DOCTORINGS}
    # and the file as it was restores: the refusals came from the doctoring
    assert backups.restore(copy(data)).slug == "rive"


@pytest.mark.django_db
@pytest.mark.parametrize("doctor", DOCTORINGS, ids=lambda doctor: doctor.__name__)
def test_each_doctoring_alone_is_refused(doctor):
    """Each doctoring on its own, a few draws of it: refused whole, nothing written. The
    mixed loop above can let one check go (without the links' check, a row pointed at
    another club's row was caught there only alongside another doctoring, and restored
    alone)."""
    data, ids = backed_up_then_cleared()
    before = counts()
    rng = random.Random(1)
    for _draw in range(3):
        doctored = copy(data)
        doctor(doctored, ids, rng)
        with pytest.raises(backups.BackupError):
            backups.restore(doctored)
        assert counts() == before
