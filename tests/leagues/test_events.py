"""A tournament of club A, with a guest of club B found across the league, counted in the
league and closed: its results are stored by the closing (the signal), linked to the
persons; links made later follow to the stored results; who may do what."""

import pytest

from clubs.models import AuditEntry, Club, Person, Player
from leagues import season_standings, services
from leagues.models import EventResult, LinkClaim
from leagues.services import LeagueError
from tests.tournaments.helpers import play_round
from tournaments import services as tournament_services


def close(tournament):
    for rnd in tournament.round_set.order_by("number"):
        tournament_services.draw_round(rnd)
        tournament_services.start_round(rnd)
        play_round(tournament, rnd)
        tournament_services.close_round(rnd)
        for table in rnd.tables.all():
            tournament_services.confirm_table(table)
    return tournament_services.close_tournament(tournament)


def test_a_counted_tournament_stores_its_results_when_it_closes(clubs, lseason, event):
    home = [Player.objects.create(club=clubs["a"], name=f"A{i}") for i in range(3)]
    visitor = Person.objects.create(name="Béa Visiteuse", licence="0420", serie="Open")
    Player.objects.create(club=clubs["b"], name="Béa", person=visitor)
    # club B is members-only: its person is found by its own members only
    assert services.find_persons(clubs["a"], "0420", viewer=clubs["a_manager"]) == []
    assert services.find_persons(clubs["a"], "0420") == []
    found = services.find_persons(clubs["a"], "0420", viewer=clubs["b_manager"])
    assert found == [visitor]
    # by name, no accents
    assert services.find_persons(clubs["a"], "visit", viewer=clubs["b_manager"]) == [visitor]
    t = event("Open de printemps")
    services.register_event(lseason, t, coefficient="2", actor=clubs["a_manager"])
    entries = tournament_services.register(
        t, [("member", p) for p in home] + [("guest", ("Béa", "Club B", "0420", visitor))]
    )
    guest = entries[-1]
    assert guest.person == visitor and guest.player.person == visitor
    assert guest.player.club == clubs["a"]  # club A's own record of its guest
    assert not EventResult.objects.exists()
    close(t)
    results = list(EventResult.objects.order_by("rank", "name"))
    assert len(results) == 4
    ranks = [r.rank for r in results]
    # scale 10, 6, 4, 2, coefficient 2
    assert [r.weighted for r in results] == [2 * [10, 6, 4, 2][rank - 1] for rank in ranks]
    (mine,) = [r for r in results if r.person_id == visitor.pk]
    rows = season_standings.season_ranking(lseason)
    assert [(r["person_id"], r["total"]) for r in rows] == [(visitor.pk, mine.weighted)]
    # a home player linked later: their stored result follows, no ledger read again
    services.link_by_licence(clubs["a"].league_links.get().league, home[0], "0001")
    assert len(season_standings.season_ranking(lseason)) == 2
    assert AuditEntry.objects.filter(action="person_linked", club=clubs["a"]).exists()


def test_counting_a_closed_tournament_stores_its_results_then(clubs, lseason, event):
    people = [Player.objects.create(club=clubs["a"], name=f"A{i}") for i in range(4)]
    t = event("Déjà fini")
    tournament_services.register(t, [("member", p) for p in people])
    close(t)
    counted = services.register_event(lseason, t, actor=clubs["a_manager"])
    assert counted.field_size == 4 and counted.results.count() == 4


def test_only_the_club_manager_counts_its_tournament(clubs, lseason, event, boss):
    t = event("T")
    for who in (boss, clubs["b_manager"]):
        with pytest.raises(LeagueError) as refused:
            services.register_event(lseason, t, actor=who)
        assert refused.value.code == "forbidden"
    with pytest.raises(LeagueError) as refused:
        services.register_event(
            lseason, event("Hors saison", date=lseason.end_date.replace(year=2027))
        )
    assert refused.value.code == "outside_season"
    services.register_event(lseason, t, actor=clubs["a_manager"])
    with pytest.raises(LeagueError) as refused:
        services.register_event(lseason, t, actor=clubs["a_manager"])
    assert refused.value.code == "already_counted"


def test_a_club_not_member_cannot_count(league, lseason, clubs, django_user_model):
    outsider = Club.objects.create(name="Ailleurs", slug="ailleurs")
    t = tournament_services.create_tournament(
        outsider,
        name="X",
        date=lseason.start_date,
        rules={"preset": "fft"},
        rounds=1,
        deals_per_round=4,
    )
    with pytest.raises(LeagueError) as refused:
        services.register_event(lseason, t)
    assert refused.value.code == "not_member"


def test_a_login_claims_players_in_two_clubs_and_each_manager_confirms(clubs, django_user_model):
    user = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    services.set_person(user, name="Zoé", licence="777", serie="2ème")
    a = Player.objects.create(club=clubs["a"], name="Zoé")
    b = Player.objects.create(club=clubs["b"], name="Zoé D.")
    claims = [services.claim_player(p, actor=user) for p in (a, b)]
    with pytest.raises(LeagueError):
        services.confirm_claim(claims[0], actor=clubs["b_manager"])  # not club A's manager
    services.confirm_claim(claims[0], actor=clubs["a_manager"])
    services.confirm_claim(claims[1], actor=clubs["b_manager"])
    assert set(user.person.players.all()) == {a, b}
    assert not LinkClaim.objects.exists()


def test_a_licence_is_one_person(clubs, django_user_model, league, boss):
    Person.objects.create(name="Autre", licence="555")
    user = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    with pytest.raises(LeagueError) as refused:
        services.set_person(user, name="Zoé", licence="555")
    assert refused.value.code == "licence_taken"
    p = Player.objects.create(club=clubs["a"], name="Autre")
    with pytest.raises(LeagueError):
        services.link_by_licence(league, p, "555", actor=clubs["a_manager"])  # not the league's
    services.link_by_licence(league, p, "555", actor=boss)
    q = Player.objects.create(club=clubs["b"], name="Autre B")
    services.link_by_licence(league, q, "555", actor=boss)
    assert Person.objects.get(licence="555").players.count() == 2


def _one_stale_read(monkeypatch, method, stale):
    """The first ``method`` (``first``, ``exists``) of a query on the persons answers
    ``stale``, as read before a concurrent write committed (an import, My account)."""
    from django.db.models.query import QuerySet  # noqa: PLC0415

    original, left = getattr(QuerySet, method), [1]

    def read(self, *args, **kwargs):
        if self.model is Person and left:
            left.pop()
            return stale
        return original(self, *args, **kwargs)

    monkeypatch.setattr(QuerySet, method, read)


def test_a_licence_given_meanwhile_is_linked_or_refused_not_a_500(
    clubs, django_user_model, league, boss, monkeypatch
):
    """The person of a licence created by a concurrent write between the check and the
    write: a link goes to that person, My account's licence is refused as taken (both
    were an IntegrityError, a 500)."""
    theirs = Person.objects.create(name="Autre", licence="556", serie="Open")
    player = Player.objects.create(club=clubs["a"], name="Autre A")
    _one_stale_read(monkeypatch, "first", None)
    linked = services.link_by_licence(league, player, "556", serie="1ère", actor=boss)
    assert linked == theirs and Person.objects.filter(licence="556").count() == 1
    player.refresh_from_db()
    assert player.person == theirs and Person.objects.get(pk=theirs.pk).serie == "1ère"
    monkeypatch.undo()
    user = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    _one_stale_read(monkeypatch, "exists", False)
    with pytest.raises(LeagueError) as refused:
        services.set_person(user, name="Zoé", licence="556", actor=user)
    assert refused.value.code == "licence_taken"
    assert not Person.objects.filter(user=user).exists()


def test_the_command_creates_a_league(django_user_model, capsys):
    from django.core.management import call_command  # noqa: PLC0415

    django_user_model.objects.create_user("chief", password="pw-long-12345")
    call_command("create_league", "Ligue de l’Est", manager="chief")
    assert "ligue-de-lest created" in capsys.readouterr().out


def test_claims_and_licence_edits_are_in_the_clubs_and_the_leagues_audit(
    clubs, league, django_user_model
):
    from leagues.models import LeagueAuditEntry  # noqa: PLC0415

    Action = AuditEntry.Action
    user = django_user_model.objects.create_user("zoe", password="pw-long-12345")
    services.set_person(user, name="Zoé", licence="777", serie="2ème", actor=user)
    # a person linked to no player is in no club's data: nothing recorded yet
    assert not AuditEntry.objects.filter(action=Action.PERSON_CHANGED).exists()
    a = Player.objects.create(club=clubs["a"], name="Zoé")
    b = Player.objects.create(club=clubs["b"], name="Zoé D.")
    claim_a, claim_b = (services.claim_player(p, actor=user) for p in (a, b))
    made = AuditEntry.objects.filter(action=Action.CLAIM_MADE).order_by("pk")
    assert [(e.club_id, e.actor, e.object_id, e.after) for e in made] == [
        (clubs["a"].pk, user, a.pk, {"login": "zoe"}),
        (clubs["b"].pk, user, b.pk, {"login": "zoe"}),
    ]
    services.confirm_claim(claim_a, actor=clubs["a_manager"])
    accepted = AuditEntry.objects.get(action=Action.CLAIM_ACCEPTED)
    assert (accepted.club, accepted.actor, accepted.object_id) == (
        clubs["a"],
        clubs["a_manager"],
        a.pk,
    )
    assert accepted.after == {"person": "Zoé", "licence": "777", "login": "zoe"}
    entry = LeagueAuditEntry.objects.filter(league=league).first()  # newest first
    assert (entry.action, entry.actor, entry.label) == (
        "claim_accepted",
        clubs["a_manager"],
        "Zoé → Zoé (777)",
    )
    services.reject_claim(claim_b, actor=clubs["b_manager"])
    refused = AuditEntry.objects.get(action=Action.CLAIM_REFUSED)
    assert (refused.club, refused.actor, refused.object_id, refused.after) == (
        clubs["b"],
        clubs["b_manager"],
        b.pk,
        {"login": "zoe"},
    )
    assert not LinkClaim.objects.exists()

    # the licence edited: the club holding her player and its league record it
    services.set_person(user, name="Zoé", licence="778", serie="1ère", actor=user)
    changed = AuditEntry.objects.get(action=Action.PERSON_CHANGED)
    assert (changed.club, changed.actor) == (clubs["a"], user)
    assert changed.before == {"licence": "777", "serie": "2ème"}
    assert changed.after == {"licence": "778", "serie": "1ère"}
    entry = LeagueAuditEntry.objects.filter(league=league).first()
    assert (entry.action, entry.actor, entry.label) == ("person_changed", user, "Zoé (778)")
    assert entry.after == {
        "before": {"licence": "777", "serie": "2ème"},
        "after": {"licence": "778", "serie": "1ère"},
    }
    # the same again changes nothing, records nothing
    services.set_person(user, name="Zoé", licence="778", serie="1ère", actor=user)
    assert AuditEntry.objects.filter(action=Action.PERSON_CHANGED).count() == 1
    # nobody else edits her licence; a claim needs a login
    other = django_user_model.objects.create_user("other", password="pw-long-12345")
    with pytest.raises(LeagueError) as refused_edit:
        services.set_person(user, name="Zoé", licence="999", actor=other)
    assert refused_edit.value.code == "not_yours"
    with pytest.raises(LeagueError) as anonymous:
        services.claim_player(b, actor=None)
    assert anonymous.value.code == "login_required"
    assert Person.objects.get(user=user).licence == "778"
