"""The licence lines held for the league's managers: a club manager's line whose licence
is new to them waits as a pending row; a league manager confirms it (their own import
of that line, once, however often it is posted) or dismisses it, each in the league's
history; nobody else reaches them, and the club's manager is told nothing more."""

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Club, Person, Player
from leagues import held, licences
from leagues.models import HeldLicence, LeagueAuditEntry

pytestmark = pytest.mark.django_db

HEADER = "Licence;Nom;Club;Série\n"
NEW = HEADER + "9002;Yves Neuf;Club A;Open\n"


@pytest.fixture
def yves(clubs):
    return Player.objects.create(club=clubs["a"], name="Yves Neuf")


def _hold(league, clubs, text=NEW):
    done = licences.import_licences(league, text, actor=clubs["a_manager"], commit=True)
    assert done.counts["held"] == len(done.lines)
    return done


def test_a_held_line_waits_with_its_club_sender_and_time(league, clubs):
    licences.import_licences(league, NEW, actor=clubs["a_manager"])  # a preview keeps nothing
    assert not HeldLicence.objects.exists()
    before = timezone.now()
    _hold(league, clubs)
    row = held.pending(league).get()
    assert (row.licence, row.name, row.serie, row.club) == ("9002", "Yves Neuf", "Open", clubs["a"])
    assert row.sent_by == clubs["a_manager"] and row.sent_at >= before
    # the club's latest word replaces its pending line of that licence
    _hold(league, clubs, HEADER + "9002;Yves Neuf-Corrigé;club-a;1ère\n")
    row = held.pending(league).get()
    assert (row.name, row.serie) == ("Yves Neuf-Corrigé", "1ère")


def test_confirming_is_the_managers_own_import_of_the_line(league, boss, clubs, yves):
    _hold(league, clubs)
    row = held.pending(league).get()
    # what the page says confirming does is what the manager's own import would do
    said = held.preview(league, [row], actor=boss)[row.pk]
    own = licences.import_licences(league, NEW, actor=boss).lines[0]
    assert (said.action, said.link, said.changes) == (own.action, own.link, own.changes)
    assert (said.action, said.link) == ("create", "Yves Neuf")

    done = held.confirm(league, [row.pk], actor=boss)
    assert done.counts["create"] == 1 and done.counts["linked"] == 1
    person = Person.objects.get(licence="9002")
    assert (person.name, person.serie) == ("Yves Neuf", "Open")
    yves.refresh_from_db()
    assert yves.person == person
    row.refresh_from_db()
    assert row.status == "confirmed" and row.decided_by == boss and row.decided_at
    entry = LeagueAuditEntry.objects.get(action="held_confirmed")
    assert entry.actor == boss and entry.after["confirmed_lines"] == ["9002;Yves Neuf;Club A;Open"]
    assert AuditEntry.objects.filter(club=clubs["a"], action="person_linked").count() == 1
    assert not held.pending(league).exists()


def test_confirming_twice_imports_once(league, boss, clubs, yves):
    _hold(league, clubs)
    row = held.pending(league).get()
    held.confirm(league, [row.pk], actor=boss)
    with pytest.raises(held.HeldError) as refused:
        held.confirm(league, [row.pk], actor=boss)
    assert refused.value.code == "decided"
    assert Person.objects.filter(licence="9002").count() == 1
    assert LeagueAuditEntry.objects.filter(action="held_confirmed").count() == 1
    with pytest.raises(held.HeldError) as refused:
        held.dismiss(league, row.pk, actor=boss)
    assert refused.value.code == "decided"


def test_dismissing_imports_nothing_and_is_in_the_history(league, boss, clubs):
    _hold(league, clubs)
    row = held.pending(league).get()
    held.dismiss(league, row.pk, actor=boss)
    row.refresh_from_db()
    assert row.status == "dismissed" and row.decided_by == boss
    assert not Person.objects.filter(licence="9002").exists()
    entry = LeagueAuditEntry.objects.get(action="held_dismissed")
    assert entry.actor == boss and entry.after["held_line"] == "9002;Yves Neuf;Club A;Open"
    assert entry.after["sent_by"] == "manager_a"
    with pytest.raises(held.HeldError) as refused:
        held.confirm(league, [row.pk], actor=boss)
    assert refused.value.code == "decided"
    # the same line sent again waits again
    _hold(league, clubs)
    assert held.pending(league).count() == 1


def test_only_the_leagues_managers_decide(league, boss, clubs, django_user_model):
    _hold(league, clubs)
    row = held.pending(league).get()
    for who in (clubs["a_manager"], clubs["b_manager"]):
        for decide, what in (
            (held.confirm, [row.pk]),
            (held.dismiss, row.pk),
            (held.preview, [row]),
        ):
            with pytest.raises(held.HeldError) as refused:
                decide(league, what, actor=who)
            assert refused.value.code == "forbidden"
    row.refresh_from_db()
    assert row.status == "pending" and not Person.objects.filter(licence="9002").exists()
    with pytest.raises(held.HeldError) as refused:
        held.dismiss(league, row.pk + 1000, actor=boss)
    assert refused.value.code == "unknown"
    with pytest.raises(held.HeldError) as refused:
        held.confirm(league, [], actor=boss)
    assert refused.value.code == "none"


def test_the_managers_own_import_settles_the_line(league, boss, clubs):
    _hold(league, clubs, NEW + "9003;Zélie Autre;Club A;\n")
    licences.import_licences(league, NEW, actor=boss, commit=True)
    assert [r.licence for r in held.pending(league)] == ["9003"]
    entry = LeagueAuditEntry.objects.filter(action="licences_imported").latest("pk")
    assert entry.actor == boss and entry.after["confirmed_lines"] == ["9002;Yves Neuf;Club A;Open"]


def test_two_clubs_holding_one_licence_are_confirmed_together(league, boss, clubs):
    """The import refuses a licence twice in one list: the confirmation imports such
    lines one after the other."""
    _hold(league, clubs)
    licences.import_licences(
        league, HEADER + "9002;Yves Neuf;club-b;Open\n", actor=clubs["b_manager"], commit=True
    )
    ids = list(held.pending(league).values_list("pk", flat=True))
    assert len(ids) == 2
    lines = held.preview(league, list(held.pending(league)), actor=boss)
    assert [lines[pk].action for pk in ids] == ["create", "create"]
    done = held.confirm(league, ids, actor=boss)
    assert [line.action for line in done.lines] == ["create", "unchanged"]
    assert not held.pending(league).exists() and Person.objects.filter(licence="9002").count() == 1


def test_a_refused_line_stays_pending(league, boss, clubs):
    _hold(league, clubs)
    league.series = ["Promotion"]  # "Open" is no longer one of the league's séries
    league.save()
    row = held.pending(league).get()
    done = held.confirm(league, [row.pk], actor=boss)
    assert done.lines[0].code == "serie_unknown"
    assert held.pending(league).get() == row


def test_the_answer_to_the_club_manager_does_not_change(league, boss, clubs, yves):
    """The club's manager imports the line again after a dismissal or while it waits:
    the same answer."""
    first = _hold(league, clubs).lines[0]
    held.dismiss(league, held.pending(league).get().pk, actor=boss)
    again = _hold(league, clubs).lines[0]
    assert (first.action, first.code, first.message) == (again.action, again.code, again.message)


# ---------------------------------------------------------------- the page


def _url():
    return reverse("leagues:held_licences", args=["comite"])


def test_the_page_lists_and_confirms_once_per_form(client, league, boss, clubs, yves):
    _hold(league, clubs)
    row = held.pending(league).get()
    client.force_login(boss)
    page = client.get(_url())
    html = page.content.decode()
    assert page.status_code == 200 and f'data-held="{row.pk}"' in html
    assert "Yves Neuf" in html and "manager_a" in html and "Club A" in html
    assert "links the club&#x27;s player Yves Neuf" in html or "links the club's player" in html
    form = {"action": "confirm", "line": [str(row.pk)], "idempotency_key": "k" * 32}
    first = client.post(_url(), form)
    second = client.post(_url(), form)  # the same form posted twice
    assert first.status_code == second.status_code == 302
    assert Person.objects.filter(licence="9002").count() == 1
    assert LeagueAuditEntry.objects.filter(action="held_confirmed").count() == 1
    said = [str(m) for m in second.wsgi_request._messages]
    assert any("already sent" in m for m in said)
    # another form (another tab): the line is decided, said, nothing more done
    third = client.post(_url(), {**form, "idempotency_key": "j" * 32}, follow=True)
    assert "already confirmed or dismissed" in third.content.decode()
    assert LeagueAuditEntry.objects.filter(action="held_confirmed").count() == 1


def test_the_page_dismisses_and_bad_posts_are_no_500(client, league, boss, clubs):
    _hold(league, clubs)
    row = held.pending(league).get()
    client.force_login(boss)
    for line in ("x", "", "99999999999", "-1"):
        answer = client.post(_url(), {"action": "dismiss", "line": line}, follow=True)
        assert answer.status_code == 200 and "not one of the league" in answer.content.decode()
    answer = client.post(_url(), {"action": "confirm"}, follow=True)
    assert "Choose the held lines" in answer.content.decode()
    client.post(_url(), {"action": "dismiss", "line": str(row.pk)})
    row.refresh_from_db()
    assert row.status == "dismissed"
    assert "No held line waits." in client.get(_url()).content.decode()


def test_only_the_leagues_managers_reach_the_page(client, league, clubs, django_user_model):
    _hold(league, clubs)
    row = held.pending(league).get()
    form = {"action": "confirm", "line": str(row.pk)}
    assert client.get(_url()).status_code == 302  # to the login page
    client.force_login(clubs["a_manager"])  # the sender: a public league's page, refused
    assert client.get(_url()).status_code == 403
    assert client.post(_url(), form).status_code == 403
    league.is_public = False
    league.save()
    stranger = django_user_model.objects.create_user("stranger", password="pw-long-12345")
    client.force_login(stranger)  # a members-only league: as an unknown one
    assert client.get(_url()).status_code == 404
    assert client.post(_url(), form).status_code == 404
    row.refresh_from_db()
    assert row.status == "pending" and not Person.objects.filter(licence="9002").exists()


def test_the_page_hides_a_person_the_league_may_not_name(client, league, boss, clubs):
    """A line naming a members-only club's player the league may not name: their name
    and licence are written as the history writes them."""
    hidden = Person.objects.create(name="Zoé Cachée", licence="9001", serie="Open")
    Player.objects.create(club=clubs["b"], name="Zoé Cachée", person=hidden)
    _hold(league, clubs, HEADER + "9001;Zoé Cachée;Club A;Open\n")
    client.force_login(boss)
    html = client.get(_url()).content.decode()
    assert "Zoé Cachée" not in html and ">9001<" not in html
    assert "A player of a members-only club" in html


def test_an_update_does_not_tell_the_name_a_hidden_persons_licence_holds(
    client, league, boss, clubs
):
    """A licence held by a person playing only for a members-only club outside the
    league: confirming would rename them, and neither the held lines' page nor the
    league manager's own preview says the name it replaces."""
    outside = Club.objects.create(name="Club Secret", slug="secret", is_public=False)
    person = Person.objects.create(name="Zoé Dehors", licence="9001", serie="")
    Player.objects.create(club=outside, name="Zoé Dehors", person=person)
    _hold(league, clubs, HEADER + "9001;Typed Name;Club A;\n")
    client.force_login(boss)
    html = client.get(_url()).content.decode()
    assert "Typed Name" in html and "Zoé Dehors" not in html
    (line,) = licences.import_licences(
        league, HEADER + "9001;Typed Name;Club A;\n", actor=boss
    ).lines
    assert line.changes["name"] == ("A player of a members-only club", "Typed Name")
    # a person the league may name keeps their name in the preview
    Player.objects.create(club=clubs["a"], name="Zoé Dehors", person=person)
    (line,) = licences.import_licences(
        league, HEADER + "9001;Typed Name;Club A;\n", actor=boss
    ).lines
    assert line.changes["name"] == ("Zoé Dehors", "Typed Name")


def test_a_clubs_name_is_read_before_another_clubs_address(league, boss, clubs, yves):
    """The held line names its club by name: a member club whose name reads as another's
    address does not take the line."""
    clubs["b"].name = clubs["a"].slug.upper()
    clubs["b"].save(update_fields=["name"])
    _hold(league, clubs)
    preview = held.preview(league, list(held.pending(league)), actor=boss)
    (line,) = preview.values()
    assert line.club == clubs["a"].name and not line.refused
    held.confirm(league, [h.pk for h in held.pending(league)], actor=boss)
    assert Player.objects.get(name="Yves Neuf").person.licence == "9002"


def test_the_page_is_in_french(client, league, boss, clubs):
    _hold(league, clubs)
    client.force_login(boss)
    client.cookies["django_language"] = "fr"
    html = client.get(_url()).content.decode()
    assert "Lignes de licence en attente" in html and "Confirmer" in html


def test_the_lines_held_before_come_from_the_history(league, boss, clubs):
    """The migration that keeps the lines held before as rows: each pending from its
    audit entry (its author, its time; the latest of a club and licence), unless the
    club's player is linked to a person of that licence already."""
    from importlib import import_module  # noqa: PLC0415

    from django.apps import apps  # noqa: PLC0415

    migration = import_module("leagues.migrations.0011_held_licences_from_history")
    linked = Person.objects.create(name="Déjà Là", licence="9005")
    Player.objects.create(club=clubs["a"], name="Déjà Là", person=linked)
    for lines in (
        ["9002;Yves Neuf;Club A;Open", "9003;Zélie;club-b;", "9004;Loin;Club Z;"],
        ["9002;Yves Neuf-Corrigé;club a;1ère", "9005;Déjà Là;Club A;", "bad line"],
    ):
        LeagueAuditEntry.objects.create(
            league=league,
            actor=clubs["a_manager"],
            action="licences_imported",
            after={"held": len(lines), "held_lines": lines},
        )
    migration.held_from_history(apps, None)
    rows = {(r.club.slug, r.licence): r for r in held.pending(league)}
    assert set(rows) == {("club-a", "9002"), ("club-b", "9003")}
    assert rows["club-a", "9002"].name == "Yves Neuf-Corrigé"
    assert rows["club-a", "9002"].sent_by == clubs["a_manager"]


def test_the_history_shows_the_held_and_dismissed_lines(client, league, boss, clubs):
    _hold(league, clubs)
    held.dismiss(league, held.pending(league).get().pk, actor=boss)
    client.force_login(boss)
    html = client.get(reverse("leagues:history", args=["comite"])).content.decode()
    assert "held lines: 9002 · Yves Neuf · Club A · Open" in html
    assert "held licence line dismissed" in html and "sent by: manager_a" in html
