"""The hand pages: enter (with preview), read, correct, delete and restore a hand."""

import datetime
import re
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.urls import reverse

from clubs.models import Club, Membership, Player, Role, Season
from scoresheet import services
from scoresheet.models import Hand, HandRevision, ScoreRow
from tests.data import SEED_HANDS, SEED_TOTALS

SEED_POSTS = [
    # the seed's five hands as the form posts them (seats: Anna 0, Bert 1, Carl 2, Dora 3)
    {"dealer": "3", "taker": "0", "contract": "garde", "bouts": "2", "points": "56"},
    {
        "dealer": "0",
        "taker": "1",
        "contract": "garde",
        "bouts": "3",
        "points": "49",
        "petit_au_bout": "attack",
    },
    {
        "dealer": "1",
        "taker": "2",
        "contract": "garde",
        "bouts": "2",
        "points": "40",
        "petit_au_bout": "defence",
    },
    {
        "dealer": "2",
        "taker": "2",
        "contract": "garde",
        "bouts": "2",
        "points": "41",
        "petit_au_bout": "defence",
    },
    {
        "dealer": "3",
        "taker": "3",
        "contract": "garde",
        "bouts": "3",
        "points": "40",
        "poignee_0": "single",
    },
]


def url(name, sheet, *args):
    return reverse(f"scoresheet:{name}", args=[sheet.club.slug, sheet.pk, *args])


def totals(sheet):
    rows = ScoreRow.objects.filter(sheet=sheet).values("player__name").annotate(t=Sum("score"))
    return {r["player__name"]: r["t"] for r in rows}


def counts():
    return (Hand.objects.count(), ScoreRow.objects.count(), HandRevision.objects.count())


@pytest.fixture
def sheet(make_sheet):
    return make_sheet(4)


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


@pytest.fixture
def seeded(sheet, scorer):
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    return sheet


# ---------------------------------------------------------------- entering a hand


def test_form_shows_the_table(scorer_client, sheet):
    response = scorer_client.get(url("hand_create", sheet))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Anna", "Bert", "Carl", "Dora", "Everybody passed", "garde sans"):
        assert name in html
    assert 'inputmode="decimal"' in html
    # the shared part first: hand_form.js uses it when it runs (both deferred)
    assert 0 <= html.index("js/form_common.js") < html.index("js/hand_form.js")
    assert 'value="save"' in html and 'value="preview"' in html
    assert url("hand_preview", sheet) in html
    assert response.context["form"].initial["dealer"] == "0"


def test_record_the_seed_through_the_view(scorer_client, sheet, scorer):
    for number, data in enumerate(SEED_POSTS, start=1):
        response = scorer_client.post(url("hand_create", sheet), {**data, "action": "save"})
        assert response.status_code == 302, response.context["form"].errors
        # the sheet opens at the new line
        assert response["Location"] == url("sheet", sheet) + f"#hand-{number}"
        assert sheet.hands.count() == number
    assert totals(sheet) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    hand = sheet.hands.get(number=5)
    assert hand.entered_by == scorer
    assert hand.poignees == [{"player": sheet.seats.get(position=0).player_id, "size": "single"}]
    assert hand.revisions.get().user == scorer


def _count_scoring(monkeypatch):
    """Count the engine's scorings of a hand by the ledger (the preview's and the save's)."""
    calls = []
    real = services.score_hand

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "score_hand", counted)
    return calls


def test_a_saved_hand_is_scored_once(scorer_client, sheet, monkeypatch):
    """The form checks the post's shape, the service scores the hand once under
    the sheet's lock (the form no longer previews the hand it saves); a correction too."""
    calls = _count_scoring(monkeypatch)
    response = scorer_client.post(url("hand_create", sheet), {**SEED_POSTS[0], "action": "save"})
    assert response.status_code == 302 and len(calls) == 1
    calls.clear()
    edit = url("hand_edit", sheet, 1)
    response = scorer_client.post(edit, {**SEED_POSTS[1], "action": "save"})
    assert response.status_code == 302 and len(calls) == 1
    calls.clear()
    # the preview (no "save") scores without writing
    scorer_client.post(url("hand_create", sheet), SEED_POSTS[2])
    assert len(calls) == 1 and sheet.hands.count() == 1


def test_a_hand_the_engine_refuses_on_save_shows_the_error_on_its_field(scorer_client, sheet):
    post = {**SEED_POSTS[0], "bouts": "1", "points": "90", "action": "save"}
    response = scorer_client.post(url("hand_create", sheet), post)
    assert response.status_code == 200 and not sheet.hands.exists()
    form = response.context["form"]
    assert form.errors["points"] == ["With 1 bout the attack has 4 to 83 points."]


def test_save_shows_a_message_with_its_undo(scorer_client, sheet):
    response = scorer_client.post(
        url("hand_create", sheet), {**SEED_POSTS[0], "action": "save"}, follow=True
    )
    html = response.content.decode()
    assert response.context["undo_number"] == 1
    assert "Hand 1 saved." in html
    assert f'action="{url("hand_delete", sheet, 1)}"' in html
    assert 'class="hand-row hand-new"' in html
    # once: the next visit offers no undo
    again = scorer_client.get(url("sheet", sheet))
    assert again.context["undo_number"] is None
    assert "Hand 1 saved." not in again.content.decode()


def test_preview_button_shows_scores_and_stores_nothing(scorer_client, sheet):
    response = scorer_client.post(url("hand_create", sheet), {**SEED_POSTS[4], "action": "preview"})
    assert response.status_code == 200
    assert counts() == (0, 0, 0)
    html = response.content.decode()
    # (25 + 4) × 2 + 20 poignée = 78 per defender; the taker +234, Anna's poignée included
    assert "(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234" in html
    assert 'data-player="Dora">+234<' in html
    assert 'data-player="Anna">−78<' in html
    assert re.search(r">defence</span>.*?<strong data-defence-points>51</strong>", html, re.S)
    # the form keeps what was entered, ready to save
    assert 'value="40"' in html


def test_enter_key_without_a_button_only_previews(scorer_client, sheet):
    response = scorer_client.post(url("hand_create", sheet), SEED_POSTS[0])
    assert response.status_code == 200
    assert counts() == (0, 0, 0)


def test_live_preview_json(scorer_client, sheet):
    response = scorer_client.post(url("hand_preview", sheet), SEED_POSTS[2])
    assert response.status_code == 200
    data = response.json()
    assert data["scores"] == {"Anna": 72, "Bert": 72, "Carl": -216, "Dora": 72}
    assert data["explanation"] == (
        "(25 + 1 + 10 petit au bout) × 2 = 72 to each defender; taker −216"
    )
    assert "+72" in data["html"] and "errors" not in data
    assert data["defence_points"] == 51
    assert counts() == (0, 0, 0)


def test_live_preview_half_points_and_french(scorer_client, make_sheet):
    sheet = make_sheet(5)
    post = {"taker": "0", "contract": "garde", "partner": "1", "bouts": "2", "points": "45.5"}
    data = scorer_client.post(url("hand_preview", sheet), post).json()
    # margin 4.5 → 5: (25 + 5) × 2 = 60 per defender, the taker twice that
    assert data["scores"]["Anna"] == 120 and data["defence_points"] == 45.5
    scorer_client.cookies.load({"django_language": "fr"})
    data = scorer_client.post(url("hand_preview", sheet), post).json()
    assert "par défenseur" in data["explanation"]


def test_live_preview_lists_what_is_missing_then_what_is_wrong(scorer_client, sheet):
    data = scorer_client.post(url("hand_preview", sheet), {"taker": "0"}).json()
    assert data["errors"] == {}
    assert data["missing"] == ["Contract", "Bouts (attack)", "Points (attack)"]
    assert "Still to enter: Contract, Bouts (attack), Points (attack)" in data["html"]
    bad = {"taker": "0", "contract": "garde", "bouts": "1", "points": "90"}
    data = scorer_client.post(url("hand_preview", sheet), bad).json()
    assert data["errors"] == {"points": ["With 1 bout the attack has 4 to 83 points."]}
    assert "With 1 bout the attack has 4 to 83 points." in data["html"]
    assert counts() == (0, 0, 0)


def test_live_preview_is_post_only(scorer_client, sheet):
    assert scorer_client.get(url("hand_preview", sheet)).status_code == 405


def test_refused_hand_shows_every_error_and_stores_nothing(scorer_client, seeded):
    before = counts()
    bad = {
        "dealer": "0",
        "taker": "1",
        "contract": "garde",
        "bouts": "0",
        "points": "60.5",
        "petit_au_bout": "attack",
        "poignee_2": "enormous",
        "chelem": "perhaps",
        "action": "save",
    }
    response = scorer_client.post(url("hand_create", seeded), bad)
    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.errors) == {"poignee_2", "chelem"}  # the form's own checks first
    html = response.content.decode()
    assert "Please fix the following" in html
    assert html.count("Select a valid choice") >= 2
    # with those fixed, the engine's refusal lands on the chelem the points contradict
    response = scorer_client.post(
        url("hand_create", seeded),
        {**bad, "poignee_2": "", "chelem": "made", "bouts": "2", "petit_au_bout": ""},
    )
    message = "A chelem means every trick: the attack then has at least 87 points."
    assert list(response.context["form"].errors) == ["chelem"]
    assert message in response.context["form"].errors["chelem"][0]
    assert message in response.content.decode()
    # a half point at four players is a real count (RULES §1.2): the next refusal shows
    response = scorer_client.post(
        url("hand_create", seeded), {**bad, "poignee_2": "", "chelem": ""}
    )
    assert response.context["form"].errors == {
        "petit_au_bout": ["With no bout the attack cannot have the petit at the end."]
    }
    assert counts() == before


def test_missing_fields_are_shown_by_name(scorer_client, sheet):
    response = scorer_client.post(url("hand_create", sheet), {"taker": "0", "action": "save"})
    html = response.content.decode()
    for message in ("Choose the contract.", "Choose the bouts.", "Enter the points."):
        assert message in html
    assert counts() == (0, 0, 0)


@pytest.mark.parametrize(
    "garbage",
    [
        {"taker": "99"},
        {"taker": "-1"},
        {"taker": ["0", "1"]},
        {"taker": "0", "contract": "garde", "bouts": "x", "points": "1e999"},
        {"taker": "0", "contract": "garde", "bouts": "2", "points": "Infinity"},
        {"taker": "0", "contract": "garde", "bouts": "2", "points": "9" * 500},
        {"taker": "0", "contract": "garde", "bouts": "2", "points": "50", "dealer": "ü"},
        {"taker": "0\x00", "miseres": "1"},
    ],
)
def test_malformed_posts_are_form_errors(scorer_client, sheet, garbage):
    response = scorer_client.post(url("hand_create", sheet), {**garbage, "action": "save"})
    assert response.status_code == 200
    assert response.context["form"].errors
    response = scorer_client.post(url("hand_preview", sheet), garbage)
    assert response.status_code == 200
    assert response.json()["errors"] or response.json()["missing"]
    assert counts() == (0, 0, 0)


def test_everybody_passed_via_the_view(scorer_client, sheet):
    response = scorer_client.post(
        url("hand_create", sheet), {"dealer": "0", "taker": "pass", "bouts": "2", "action": "save"}
    )
    assert response.status_code == 302
    hand = sheet.hands.get()
    assert hand.taker is None and set(hand.scores.values_list("score", flat=True)) == {0}


def test_unknown_sheet_and_hand_are_404(scorer_client, sheet, seeded):
    slug = sheet.club.slug
    missing = sheet.pk + 1000
    for name, args in [
        ("hand_create", [missing]),
        ("hand_preview", [missing]),
        ("hand", [missing, 1]),
        ("hand", [sheet.pk, 99]),
        ("hand_edit", [sheet.pk, 99]),
        ("hand_delete", [sheet.pk, 99]),
        ("hand_restore", [sheet.pk, 99]),
        ("hand_create", [int("9" * 30)]),  # beyond any database integer
        ("hand", [sheet.pk, int("9" * 30)]),
    ]:
        path = reverse(f"scoresheet:{name}", args=[slug, *args])
        posted = name in ("hand_preview", "hand_delete", "hand_restore")
        response = scorer_client.post(path) if posted else scorer_client.get(path)
        assert response.status_code == 404, (name, args)
    assert scorer_client.post(url("hand_preview", sheet) + "?hand=99", {}).status_code == 404
    assert scorer_client.post(url("hand_preview", sheet) + "?hand=x", {}).status_code == 404
    big = url("hand_preview", sheet) + "?hand=" + "9" * 30
    assert scorer_client.post(big, {}).status_code == 404


# ---------------------------------------------------------------- reading a hand


def test_hand_page(client, seeded):
    response = client.get(url("hand", seeded, 5))  # a public club: anyone may read
    assert response.status_code == 200
    html = response.content.decode()
    # English pages say "taker", never "Preneur"
    assert "<dt>Taker</dt><dd>Dora</dd>" in html and "Preneur" not in html
    assert "<dt>Poignées</dt><dd>Anna single</dd>" in html
    assert "40 (defence 51)" in html
    # 3 bouts, 40 points: 4 over the 36 needed; the roles from the same reading
    assert "<dt>Result</dt><dd>made by 4</dd>" in html
    assert re.search(r'<th scope="row">Dora</th>\s*<td class="muted">taker</td>', html)
    assert re.search(r'<th scope="row">Anna</th>\s*<td class="muted"></td>', html)
    assert 'data-player="Dora">+234<' in html and 'data-player="Anna">−78<' in html
    assert "(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234" in html
    assert "Entered" in html and "by a scorer" in html
    # only scorers see the buttons
    assert url("hand_edit", seeded, 5) not in html
    assert url("hand_delete", seeded, 5) not in html


def test_hand_page_for_a_scorer_has_the_actions(scorer_client, seeded):
    html = scorer_client.get(url("hand", seeded, 3)).content.decode()
    assert url("hand_edit", seeded, 3) in html
    assert url("hand_delete", seeded, 3) in html and "data-confirm" in html
    assert url("hand", seeded, 2) in html and url("hand", seeded, 4) in html


def test_hand_page_in_french(client, seeded):
    client.cookies.load({"django_language": "fr"})
    html = client.get(url("hand", seeded, 3)).content.decode()
    assert "par défenseur" in html or "à chaque défenseur" in html
    assert "Preneur" in html


# ---------------------------------------------------------------- correcting


def test_edit_form_is_prefilled(scorer_client, seeded):
    response = scorer_client.get(url("hand_edit", seeded, 5))
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["taker"] == "3" and form.initial["poignee_0"] == "single"
    assert form.initial["points"] == 40 and form.initial["bouts"] == 3
    html = response.content.decode()
    assert url("hand_preview", seeded) + "?hand=5" in html


def test_correct_through_the_view_and_see_the_history(scorer_client, seeded, scorer):
    before_counts = (Hand.objects.count(), ScoreRow.objects.count())
    edit = {**SEED_POSTS[4], "poignee_0": "", "action": "save"}  # the poignée was not shown
    response = scorer_client.post(url("hand_edit", seeded, 5), edit)
    assert response.status_code == 302
    assert response["Location"] == url("hand", seeded, 5)
    assert totals(seeded) == {"Anna": 128, "Bert": 192, "Carl": -360, "Dora": 40}
    assert (Hand.objects.count(), ScoreRow.objects.count()) == before_counts
    revision = seeded.hands.get(number=5).revisions.order_by("-id").first()
    assert revision.action == "corrected" and revision.user == scorer
    html = scorer_client.get(url("hand", seeded, 5)).content.decode()
    assert "Corrected" in html
    assert "Poignées: Anna single → <strong>—</strong>" in html
    assert "Dora +234 → +174" in html
    assert "Hand 5 corrected." in html


def test_refused_correction_keeps_the_hand(scorer_client, seeded):
    before = counts()
    bad = {**SEED_POSTS[0], "points": "5", "bouts": "3", "action": "save"}  # 3 bouts: 12 at least
    response = scorer_client.post(url("hand_edit", seeded, 1), bad)
    assert response.status_code == 200
    assert response.context["form"].errors["points"] == [
        "With 3 bouts the attack has 12 to 91 points."
    ]
    assert counts() == before
    assert totals(seeded) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}


def test_edit_preview_under_mouches_uses_the_pools_before_the_hand(
    scorer_client, make_sheet, scorer
):
    sheet = make_sheet(4, rules="mouches")
    services.record_hand(sheet, {"dealer": "Anna"}, actor=scorer)  # pool 45
    carl = {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 1, "points": 40}
    services.record_hand(sheet, carl, actor=scorer)  # fails, pays 50 into a new pool
    services.record_hand(sheet, {"dealer": "Carl"}, actor=scorer)
    # hand 2 corrected to made by 9: Carl takes the 50 pool (45 + Bert's 5)
    post = {"dealer": "1", "taker": "2", "contract": "prise", "bouts": "1", "points": "60"}
    data = scorer_client.post(url("hand_preview", sheet) + "?hand=2", post).json()
    assert data["scores"]["Carl"] == 27 + 50
    assert data["scores"]["Bert"] == -9 - 5


# ---------------------------------------------------------------- deleting and restoring


def test_delete_and_restore_through_the_views(scorer_client, seeded):
    response = scorer_client.post(url("hand_delete", seeded, 1))
    assert response.status_code == 302 and response["Location"] == url("hand", seeded, 1)
    assert totals(seeded)["Anna"] == 108 - 240
    response = scorer_client.get(url("hand", seeded, 1))
    html = response.content.decode()
    assert "deleted" in html and "it no longer counts" in html
    assert url("hand_restore", seeded, 1) in html and url("hand_edit", seeded, 1) not in html
    assert "Anna +240" in html and "not counted" in html
    # deleting twice is a message, not an error page
    response = scorer_client.post(url("hand_delete", seeded, 1), follow=True)
    assert "This hand is already deleted." in response.content.decode()
    # a deleted hand is not corrected
    response = scorer_client.get(url("hand_edit", seeded, 1), follow=True)
    assert "Restore the hand before correcting it." in response.content.decode()
    response = scorer_client.post(url("hand_restore", seeded, 1), follow=True)
    assert "Hand 1 restored." in response.content.decode()
    assert totals(seeded) == {k: Decimal(v) for k, v in SEED_TOTALS.items()}
    response = scorer_client.post(url("hand_restore", seeded, 1), follow=True)
    assert "This hand is not deleted." in response.content.decode()
    html = scorer_client.get(url("hand", seeded, 1)).content.decode()
    assert html.index("Entered") < html.index("Deleted") < html.index("Restored")


def test_delete_and_restore_are_post_only(scorer_client, seeded):
    assert scorer_client.get(url("hand_delete", seeded, 1)).status_code == 405
    assert scorer_client.get(url("hand_restore", seeded, 1)).status_code == 405
    assert not seeded.hands.get(number=1).is_deleted


# ---------------------------------------------------------------- permissions


def write_requests(sheet):
    return [
        ("get", url("hand_create", sheet)),
        ("post", url("hand_create", sheet)),
        ("post", url("hand_preview", sheet)),
        ("get", url("hand_edit", sheet, 1)),
        ("post", url("hand_edit", sheet, 1)),
        ("post", url("hand_delete", sheet, 1)),
        ("post", url("hand_restore", sheet, 1)),
    ]


def test_anonymous_writes_go_to_the_login_page(client, seeded):
    before = counts()
    for method, path in write_requests(seeded):
        response = getattr(client, method)(path, {**SEED_POSTS[0], "action": "save"})
        assert response.status_code == 302, path
        assert response["Location"].startswith(reverse("login")), path
    assert counts() == before


def test_a_member_without_the_scorer_role_is_refused(client, seeded, django_user_model):
    member = django_user_model.objects.create_user("member", password="a-long-passphrase-2")
    Membership.objects.create(club=seeded.club, user=member, role=Role.MEMBER)
    client.force_login(member)
    before = counts()
    for method, path in write_requests(seeded):
        response = getattr(client, method)(path, {**SEED_POSTS[0], "action": "save"})
        assert response.status_code == 403, path
    assert counts() == before
    response = client.get(url("hand", seeded, 1))
    assert response.status_code == 200
    assert url("hand_edit", seeded, 1) not in response.content.decode()


def test_a_sheet_of_another_club_is_404(scorer_client, seeded, django_user_model, scorer):
    other = Club.objects.create(name="Autre club", slug="autre")
    season = Season.objects.create(club=other, name="2026", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=other, name=n) for n in ("W", "X", "Y", "Z")]
    foreign = services.create_sheet(season=season, players=players, date=datetime.date.today())
    services.record_hand(foreign, {"taker": "W", "contract": "garde", "bouts": 2, "points": 56})
    Membership.objects.create(club=other, user=django_user_model.objects.create_user("o"))
    slug = seeded.club.slug  # our club in the URL, the other club's sheet number
    before = counts()
    for name, args, method in [
        ("hand_create", [foreign.pk], "get"),
        ("hand_create", [foreign.pk], "post"),
        ("hand_preview", [foreign.pk], "post"),
        ("hand", [foreign.pk, 1], "get"),
        ("hand_edit", [foreign.pk, 1], "get"),
        ("hand_delete", [foreign.pk, 1], "post"),
        ("hand_restore", [foreign.pk, 1], "post"),
    ]:
        path = reverse(f"scoresheet:{name}", args=[slug, *args])
        response = getattr(scorer_client, method)(path, {**SEED_POSTS[0], "action": "save"})
        assert response.status_code == 404, (name, method)
    assert counts() == before
    # and in the other club's own URLs, our scorer has no role there
    path = reverse("scoresheet:hand_create", args=[other.slug, foreign.pk])
    assert scorer_client.get(path).status_code == 403


def test_every_hand_view_goes_through_the_gate():
    from scoresheet.views import hands

    levels = {
        "hand_create": "score",
        "hand_preview": "score",
        "hand_detail": "read",
        "hand_edit": "score",
        "hand_delete": "score",
        "hand_restore": "score",
    }
    for name, level in levels.items():
        assert getattr(hands, name).club_level == level


QUEUE = {"HTTP_X_TAROT_QUEUE": "1", "HTTP_X_REQUESTED_WITH": "fetch"}


def test_a_correction_from_the_phones_queue_is_stored_once_per_key(scorer_client, sheet):
    """A correction saved with no network waits in the phone's queue with the
    form's key and may arrive twice (a retry after a lost answer): one correction; the
    queue reads the answer as JSON, and a refusal as its reasons (422), kept to fix."""
    scorer_client.post(url("hand_create", sheet), {**SEED_POSTS[0], "action": "save"})
    edit = url("hand_edit", sheet, 1)
    post = {**SEED_POSTS[1], "action": "save", "idempotency_key": "k" * 32}
    for _ in range(2):
        response = scorer_client.post(edit, post, **QUEUE)
        assert response.status_code == 200
        assert response.json()["url"] == sheet.hands.get(number=1).get_absolute_url()
    actions = HandRevision.objects.filter(hand__sheet=sheet).values_list("action", flat=True)
    assert sorted(actions) == ["corrected", "created"]
    assert "idempotency_key" in scorer_client.get(edit).content.decode()

    refused = {**post, "idempotency_key": "r" * 32, "bouts": "1", "points": "90"}
    response = scorer_client.post(edit, refused, **QUEUE)
    assert response.status_code == 422
    assert response.json()["errors"] == [
        "Points (attack) — With 1 bout the attack has 4 to 83 points."
    ]
    assert HandRevision.objects.filter(hand__sheet=sheet).count() == 2
