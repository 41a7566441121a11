"""A tournament of club A, with a guest of club B found across the league, counted in the
league and closed: its results are stored by the closing (the signal), linked to the
persons; links made later follow to the stored results; who may do what."""

import pytest

from clubs.models import AuditEntry, Club, Person, Player
from leagues import ranking, services
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
    found = services.find_persons(clubs["a"], "0420")
    assert found == [visitor]
    assert services.find_persons(clubs["a"], "visit") == [visitor]  # by name, no accents
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
    rows = ranking.season_ranking(lseason)
    assert [(r["person_id"], r["total"]) for r in rows] == [(visitor.pk, mine.weighted)]
    # a home player linked later: their stored result follows, no ledger read again
    services.link_by_licence(clubs["a"].league_links.get().league, home[0], "0001")
    assert len(ranking.season_ranking(lseason)) == 2
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


def test_the_command_creates_a_league(django_user_model, capsys):
    from django.core.management import call_command  # noqa: PLC0415

    django_user_model.objects.create_user("chief", password="pw-long-12345")
    call_command("create_league", "Ligue de l’Est", manager="chief")
    assert "ligue-de-lest created" in capsys.readouterr().out
