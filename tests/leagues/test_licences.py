"""Importing a licence list (CSV): the preview says what each line does or why it is
refused (in the reader's language), the import creates and updates the persons, links
the club's player the name tells, writes one audit entry; nothing is written before the
confirmation, and only managers import."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from clubs.models import AuditEntry, Person, Player
from leagues import licences
from leagues.models import LeagueAuditEntry

pytestmark = pytest.mark.django_db

LIST = (
    "Numéro de licence;Nom;Prénom;Club;Série\n"
    "1001;Dupont;Jean;Club A;Open\n"  # new, links Club A's "Jean Dupont"
    "1002;Martin;Lucie;club-b;1ère\n"  # updates the person of 1002
    "1003;Petit;Paul;Club A;\n"  # new, no player of that name
    "1001;Autre;Nom;Club A;Open\n"  # the licence twice
    ";Sans;Licence;Club A;Open\n"
    "1005;Loin;Zoé;Club Z;Open\n"  # not a member club
    "1006;Bon;Léa;Club A;Élite\n"  # not one of the league's séries
    "\n"
)


@pytest.fixture
def before(clubs):
    Player.objects.create(club=clubs["a"], name="Jean Dupont")
    return Person.objects.create(name="Lucie Martin-Old", licence="1002", serie="2ème")


def test_the_preview_says_what_each_line_does_and_writes_nothing(league, boss, before):
    preview = licences.import_licences(league, LIST, actor=boss)
    actions = {line.number: (line.action, line.code) for line in preview.lines}
    assert actions == {
        2: ("create", ""),
        3: ("update", ""),
        4: ("create", ""),
        5: ("refused", "licence_twice"),
        6: ("refused", "licence_required"),
        7: ("refused", "club_unknown"),
        8: ("refused", "serie_unknown"),
    }
    assert preview.lines[0].link == "Jean Dupont" and preview.lines[2].link == ""
    assert preview.lines[1].changes == {
        "name": ("Lucie Martin-Old", "Lucie Martin"),
        "serie": ("2ème", "1ère"),
    }
    assert preview.lines[3].message == "The licence 1001 is already on line 2."
    assert preview.counts == {
        "create": 2,
        "update": 1,
        "unchanged": 0,
        "held": 0,
        "refused": 4,
        "linked": 1,
    }
    assert (
        Person.objects.count() == 1
        and not LeagueAuditEntry.objects.filter(action="licences_imported").exists()
    )
    with translation.override("fr"):
        french = licences.import_licences(league, LIST, actor=boss)
    assert "Club Z" in french.lines[5].message and "membre" in french.lines[5].message


def test_the_import_creates_updates_and_links_once(league, boss, clubs, before):
    done = licences.import_licences(league, LIST, actor=boss, commit=True)
    assert done.committed and done.counts["create"] == 2
    jean = Person.objects.get(licence="1001")
    assert (jean.name, jean.serie) == ("Jean Dupont", "Open")
    assert Player.objects.get(name="Jean Dupont").person == jean
    lucie = Person.objects.get(licence="1002")
    assert (lucie.name, lucie.serie) == ("Lucie Martin", "1ère")
    assert Person.objects.get(licence="1003").serie == ""
    assert not Person.objects.filter(licence__in=["1005", "1006"]).exists()
    entry = LeagueAuditEntry.objects.get(action="licences_imported")
    assert entry.actor == boss and entry.after["refused_lines"] == [5, 6, 7, 8]
    assert AuditEntry.objects.filter(club=clubs["a"], action="person_linked").count() == 1
    # the same list again: nothing more to do
    again = licences.import_licences(league, LIST, actor=boss)
    assert [line.action for line in again.lines[:3]] == ["unchanged"] * 3
    assert again.counts["linked"] == 0


def test_a_club_manager_imports_their_clubs_lines_only(league, clubs, before):
    Player.objects.create(club=clubs["b"], name="Lucie M.", person=before)
    preview = licences.import_licences(league, LIST, actor=clubs["b_manager"])
    assert preview.lines[0].code == "club_not_yours"
    assert preview.lines[1].action == "update"  # club B's line


def test_who_may_import_and_unreadable_files(league, boss, clubs, django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="pw-long-12345")
    with pytest.raises(licences.LicenceError) as refused:
        licences.import_licences(league, LIST, actor=stranger)
    assert refused.value.code == "forbidden"
    for text, code in (
        ("", "file_empty"),
        ("licence,club\n1,Club A\n", "columns_missing"),
        ("x" * (licences.MAX_BYTES + 1), "file_too_large"),
    ):
        with pytest.raises(licences.LicenceError) as refused:
            licences.import_licences(league, text, actor=boss)
        assert refused.value.code == code
    with pytest.raises(licences.LicenceError):
        licences.decode(b"a\x00b")
    assert licences.decode("Prénom".encode("cp1252")) == "Prénom"
    assert licences.decode("\ufeffPrénom".encode()) == "Prénom"
    # commas, English headers, one name column
    text = "licence,name,club,serie\n2001,Anne Roux,Club A,Open\n"
    assert licences.import_licences(league, text, actor=boss).lines[0].action == "create"


def test_the_page_previews_then_imports(
    client, boss, league, before, django_assert_max_num_queries
):
    client.force_login(boss)
    url = reverse("leagues:licences", args=["comite"])
    assert client.get(url).status_code == 200
    upload = SimpleUploadedFile("licences.csv", LIST.encode("cp1252"), "text/csv")
    with django_assert_max_num_queries(20):
        page = client.post(url, {"action": "preview", "file": upload})
    html = page.content.decode()
    assert html.count('data-action="refused"') == 4 and 'data-action="create"' in html
    assert Person.objects.count() == 1
    response = client.post(url, {"action": "commit", "text": page.context["text"]})
    assert response.status_code == 302 and Person.objects.count() == 3
    bad = client.post(url, {"action": "preview", "file": SimpleUploadedFile("x.csv", b"")})
    assert bad.status_code == 200 and Person.objects.count() == 3
    client.force_login(Player.objects.first().club.memberships.first().user)
    assert client.post(url, {"action": "commit", "text": LIST}).status_code == 403


def test_a_club_manager_changes_no_person_of_another_club_or_login(
    league, clubs, before, django_user_model
):
    """A person is shared by every club and league: club B's manager may not rename, by
    a line naming their own club, a person whose players are of club A, nor a login's
    own person; the league's managers may."""
    Player.objects.create(club=clubs["a"], name="Lucie Martin-Old", person=before)
    text = "Licence;Nom;Club;Série\n1002;Volée;club-b;1ère\n"
    preview = licences.import_licences(league, text, actor=clubs["b_manager"], commit=True)
    assert preview.lines[0].code == "person_not_yours"
    before.refresh_from_db()
    assert before.name == "Lucie Martin-Old" and before.serie == "2ème"
    login = django_user_model.objects.create_user("lucie", password="pw-long-12345")
    Person.objects.filter(pk=before.pk).update(user=login)
    Player.objects.filter(person=before).delete()
    preview = licences.import_licences(league, text, actor=clubs["b_manager"], commit=True)
    assert preview.lines[0].code == "held"  # a login of no club B may not see: held
    before.refresh_from_db()
    assert before.name == "Lucie Martin-Old"


def test_a_serie_changed_by_the_list_moves_the_person_in_the_ranking(
    league, boss, clubs, before, lseason, event
):
    """The ranking keeps each person's place in their série: a série changed by the
    licence list ranks them again there, as a change on My account does."""
    from decimal import Decimal  # noqa: PLC0415

    from leagues import season_standings  # noqa: PLC0415
    from leagues import services as league_services  # noqa: PLC0415

    first = Person.objects.create(name="Anne Roux", licence="1010", serie="1ère")
    players = {
        person: Player.objects.create(club=clubs["b"], name=person.name, person=person)
        for person in (first, before)
    }
    counted = league_services.register_event(lseason, event("E1"), coefficient=1)
    league_services.store_results(
        counted,
        [
            {"player_id": players[p].pk, "name": p.name, "rank": rank, "total": Decimal(0)}
            for p, rank in ((first, 1), (before, 2))
        ],
    )

    def places():
        return {
            r["person_id"]: (r["rank"], r["serie"], r["serie_rank"])
            for r in season_standings.season_ranking(lseason)
        }

    # each first of their série
    assert places() == {first.pk: (1, "1ère", 1), before.pk: (2, "2ème", 1)}
    licences.import_licences(
        league,
        "Licence;Nom;Club;Série\n1002;Lucie Martin-Old;club-b;1ère\n",
        actor=boss,
        commit=True,
    )
    # second of 1ère behind Anne (kept without the re-rank: first of her old série)
    assert places() == {first.pk: (1, "1ère", 1), before.pk: (2, "1ère", 2)}


def _stale_plans(monkeypatch, times):
    """The import's first ``times`` plans as read before a concurrent write committed the
    person of licence 1002: it is created again (the unique licence refuses it)."""
    original, calls = licences._plan, []

    def stale(lines, clubs, *rest):
        plan = original(lines, clubs, *rest)
        calls.append(1)
        if len(calls) <= times:
            for item in plan:
                if item[0].licence == "1002":
                    item[0].action, item[0].changes, item[1] = "create", {}, None
        return plan

    monkeypatch.setattr(licences, "_plan", stale)
    return calls


def test_a_person_created_meanwhile_is_read_again_not_a_500(
    league, boss, before, monkeypatch, client
):
    """Another import, a link or My account commits the person of a licence between the
    import's read and its write: the import runs again from the start and updates them;
    when the writes keep racing, a clear refusal (the page says it, no 500)."""
    calls = _stale_plans(monkeypatch, times=1)
    text = "Licence;Nom;Club;Série\n1002;Lucie Martin;club-b;1ère\n1003;Paul Petit;Club A;\n"
    done = licences.import_licences(league, text, actor=boss, commit=True)
    assert len(calls) == 2 and done.committed
    assert [line.action for line in done.lines] == ["update", "create"]
    before.refresh_from_db()
    assert (before.name, before.serie) == ("Lucie Martin", "1ère")
    assert Person.objects.filter(licence="1003").count() == 1
    assert LeagueAuditEntry.objects.filter(action="licences_imported").count() == 1

    _stale_plans(monkeypatch, times=licences.ATTEMPTS)
    text = "Licence;Nom;Club\n1002;Lucie Encore;club-b\n"
    with pytest.raises(licences.LicenceError) as refused:
        licences.import_licences(league, text, actor=boss, commit=True)
    assert refused.value.code == "conflict"
    before.refresh_from_db()
    assert before.name == "Lucie Martin"
    _stale_plans(monkeypatch, times=licences.ATTEMPTS)
    client.force_login(boss)
    url = reverse("leagues:licences", args=["comite"])
    page = client.post(url, {"action": "commit", "text": text})
    assert page.status_code == 200 and "import the list again" in page.content.decode()


def test_a_player_linked_meanwhile_is_left_as_it_is(league, boss, clubs, before, monkeypatch):
    """The player the list would link is linked to another person (or merged) by a
    concurrent write before the import locks it: left as it is, no refusal of the
    whole list (it was a 500)."""
    jean = Player.objects.get(name="Jean Dupont")
    other = Person.objects.create(name="Jean Dupont (autre)", licence="9999")
    original = licences._plan

    def raced(lines, clubs, *rest):
        plan = original(lines, clubs, *rest)
        Player.objects.filter(pk=jean.pk).update(person=other)
        return plan

    monkeypatch.setattr(licences, "_plan", raced)
    done = licences.import_licences(
        league, "Licence;Nom;Club\n1001;Jean Dupont;Club A\n", actor=boss, commit=True
    )
    assert done.committed and done.lines[0].action == "create" and done.counts["linked"] == 0
    jean.refresh_from_db()
    assert jean.person == other
    assert not AuditEntry.objects.filter(club=clubs["a"], action="person_linked").exists()


def test_an_unreadable_list_is_said_on_the_page(client, boss, league):
    """A file the import refuses whole (its columns not named, too large…) is a message
    above the upload form, at the preview and at the confirmation (it was a 500)."""
    client.force_login(boss)
    url = reverse("leagues:licences", args=["comite"])
    upload = SimpleUploadedFile("x.csv", b"licence,club\n1,Club A\n", "text/csv")
    page = client.post(url, {"action": "preview", "file": upload})
    assert page.status_code == 200 and "The first line names the columns" in page.content.decode()
    page = client.post(url, {"action": "commit", "text": "licence,club\n1,Club A\n"})
    assert page.status_code == 200 and "The first line names the columns" in page.content.decode()


def test_the_conflict_refusal_is_in_french():
    with translation.override("fr"):
        message = licences.LicenceError("conflict").message
    assert message.startswith("D’autres modifications") and "\u00a0: importez" in message


def test_who_may_import_is_one_query_whatever_the_member_clubs(
    league, clubs, django_user_model, django_assert_num_queries
):
    """A login managing none of the league's clubs is refused after one query for the
    league's managers and one for their clubs, not one a member club."""
    from clubs.models import Club, Membership, Role  # noqa: PLC0415
    from leagues import services as league_services  # noqa: PLC0415

    for n in range(4):
        club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
        league_services.accept_invitation(league_services.invite_club(league, club))
    member = django_user_model.objects.create_user("member", password="pw-long-12345")
    Membership.objects.create(club=clubs["a"], user=member, role=Role.SCORER)
    with django_assert_num_queries(2):
        assert not licences.may_import(member, league)
    for manager in (clubs["a_manager"], clubs["b_manager"]):
        assert licences.may_import(manager, league)
    Membership.objects.filter(user=clubs["b_manager"]).update(role=Role.SCORER)
    fresh = django_user_model.objects.get(pk=clubs["b_manager"].pk)
    assert not licences.may_import(fresh, league)


#: a club manager's preview of held lines only: the league's managers, their manager
#: role in a member club, the member clubs, the persons of the licences, and who of
#: them the manager may see (the players naming them, the manager's own person)
QUERIES = 6


def _answer(line, licence):
    """What a line's answer says, its own licence number left out."""
    words = line.message.replace(licence, "#")
    return (line.action, line.code, words, line.changes, line.link)


def test_a_licence_a_hidden_person_holds_answers_as_a_new_one(
    league, clubs, api_writer, django_assert_num_queries
):
    """Club A's manager imports two lines: one licence no person holds, one held by a
    player of the members-only club B they may not see. Both are held for the league's
    managers with the same words, page after page, and the import creates no second
    person nor links club A's player of that name to the hidden one."""
    hidden = Person.objects.create(name="Zoé Cachée", licence="9001", serie="Open")
    Player.objects.create(club=clubs["b"], name="Zoé Cachée", person=hidden)
    tempted = Player.objects.create(club=clubs["a"], name="Zoé Cachée")
    Player.objects.create(club=clubs["a"], name="Yves Neuf")
    manager = clubs["a_manager"]
    text = "Licence;Nom;Club;Série\n9001;Zoé Cachée;Club A;Open\n9002;Yves Neuf;Club A;Open\n"
    with django_assert_num_queries(QUERIES):
        assert licences.import_licences(league, text, actor=manager).counts["held"] == 2
    for commit in (False, True):
        answers = []
        for licence, name in (("9001", "Zoé Cachée"), ("9002", "Yves Neuf")):
            text = f"Licence;Nom;Club;Série\n{licence};{name};Club A;Open\n"
            preview = licences.import_licences(league, text, actor=manager, commit=commit)
            answers.append((_answer(preview.lines[0], licence), preview.counts))
            body = api_writer(manager, clubs["a"], text, commit)
            line = body["lines"][0]
            answers.append(
                (
                    (line["action"], line["code"], line["message"].replace(licence, "#")),
                    body["counts"],
                )
            )
        assert answers[0] == answers[2] and answers[1] == answers[3]
        assert answers[0][0][0] == "held" and answers[0][1]["held"] == 1
    assert Person.objects.filter(licence="9002").count() == 0
    assert Person.objects.filter(licence="9001").get() == hidden
    tempted.refresh_from_db()
    assert tempted.person_id is None
    held = LeagueAuditEntry.objects.filter(action="licences_imported").order_by("pk").last().after
    assert held["held_lines"] == ["9002;Yves Neuf;Club A;Open"]


@pytest.fixture
def api_writer():
    """``api_writer(user, club, text, commit)``: the licence import's JSON answer to a
    write token of ``club``."""
    from clubs import tokens  # noqa: PLC0415
    from tests.api.conftest import Api  # noqa: PLC0415

    def post(user, club, text, commit):
        key = tokens.create_token(club=club, name="import", scope="write", actor=user)[1]
        answer = Api(key).post("/api/v1/leagues/comite/licences", {"csv": text, "commit": commit})
        assert answer.status_code == 200, answer.content
        return answer.json()

    return post
