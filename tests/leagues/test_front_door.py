"""The leagues' front door: the navigation's link, "Create a league" where the site
allows it, clubs invited from a searchable list, an invitation answered on the club's
own pages (accepted or declined, cancelled by the league), each write audited on both
sides and said in a message; a guest's licence typed at registration reaching the
league's person."""

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Club, Membership, Person, Player, Role
from leagues import services
from leagues.models import League, LeagueAuditEntry, LeagueClub, LeagueManager
from tests.leagues.fixtures import DAY
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_leagues_are_in_the_navigation_and_creation_follows_the_setting(
    client, settings, django_user_model
):
    settings.ALLOW_LEAGUE_CREATION = False
    anne = django_user_model.objects.create_user("anne", password="pw-long-12345")
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("leagues:list")}"' in home
    client.force_login(anne)
    listing = client.get(reverse("leagues:list")).content.decode()
    assert reverse("leagues:create") not in listing
    assert client.get(reverse("leagues:create")).status_code == 404
    assert (
        client.post(reverse("leagues:create"), {"name": "X", "visibility": "public"}).status_code
        == 404
    )
    assert not League.objects.exists()
    settings.ALLOW_LEAGUE_CREATION = True
    assert reverse("leagues:create") in client.get(reverse("leagues:list")).content.decode()
    post = {"name": "Comité du Rhône", "visibility": "private", "idempotency_key": "k" * 20}
    response = client.post(reverse("leagues:create"), post, follow=True)
    league = League.objects.get()
    assert (league.slug, league.is_public) == ("comite-du-rhone", False)
    assert LeagueManager.objects.filter(league=league, user=anne).exists()
    assert response.redirect_chain[-1][0] == reverse("leagues:manage", args=[league.slug])
    assert said(response) == ["Comité du Rhône is created: you manage it. Invite its clubs."]
    # a second league of the same name gets its own address, the same service as the command
    client.post(reverse("leagues:create"), {"name": "Comité du Rhône", "visibility": "public"})
    assert sorted(League.objects.values_list("slug", flat=True)) == [
        "comite-du-rhone",
        "comite-du-rhone-2",
    ]


def test_a_superuser_may_create_a_league_whatever_the_setting(client, settings, django_user_model):
    settings.ALLOW_LEAGUE_CREATION = False
    root = django_user_model.objects.create_superuser("root", password="pw-long-12345")
    client.force_login(root)
    client.post(reverse("leagues:create"), {"name": "Ligue", "visibility": "public"})
    assert League.objects.get().slug == "ligue"


def test_a_club_invited_from_the_list_answers_on_its_own_pages(
    client, boss, league, django_user_model
):
    clubs = {}
    for name in ("Tarot Club Lyon", "Les Rois de Vienne", "Excuse Villeurbanne"):
        club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
        user = django_user_model.objects.create_user(club.slug[:20], password="pw-long-12345")
        Membership.objects.create(club=club, user=user, role=Role.MANAGER)
        clubs[name] = (club, user)
    manage = reverse("leagues:manage", args=[league.slug])
    client.force_login(boss)
    page = client.get(manage, {"q": "vien"}).content.decode()
    assert "Les Rois de Vienne" in page and "Tarot Club Lyon" not in page
    lyon, lyon_boss = clubs["Tarot Club Lyon"]
    response = client.post(manage, {"action": "invite", "club": lyon.pk}, follow=True)
    assert said(response) == ["Tarot Club Lyon is invited."]
    # invited already: the list leaves it out, and a post of it is refused on the form
    assert ">Tarot Club Lyon</option>" not in client.get(manage).content.decode()
    again = client.post(manage, {"action": "invite", "club": lyon.pk})
    assert again.status_code == 200 and "Choose a club from the list." in again.content.decode()
    vienne, vienne_boss = clubs["Les Rois de Vienne"]
    client.post(manage, {"action": "invite", "club": vienne.pk}, follow=True)
    excuse, _excuse_boss = clubs["Excuse Villeurbanne"]
    client.post(manage, {"action": "invite", "club": excuse.pk}, follow=True)
    # the league takes one invitation back
    link = LeagueClub.objects.get(club=excuse)
    response = client.post(manage, {"action": "cancel", "link": link.pk}, follow=True)
    assert said(response) == ["The invitation of Excuse Villeurbanne is cancelled."]
    assert not LeagueClub.objects.filter(club=excuse).exists()

    # the club's home page shows the invitation to its manager, and only to them
    home = reverse("clubs:detail", args=[lyon.slug])
    assert "data-league-invitations" not in client.get(home).content.decode()
    client.force_login(lyon_boss)
    page = client.get(home).content.decode()
    assert "data-league-invitations" in page and league.name in page
    overview = reverse("manage:overview", args=[lyon.slug])
    assert "data-league-invitations" in client.get(overview).content.decode()
    answer = reverse("league_club:leagues", args=[lyon.slug])
    link = LeagueClub.objects.get(club=lyon)
    response = client.post(answer, {"action": "accept", "link": link.pk, "next": home}, follow=True)
    assert response.redirect_chain[-1][0] == home
    assert said(response) == [f"Tarot Club Lyon joined {league.name}."]
    assert "data-league-invitations" not in response.content.decode()
    link.refresh_from_db()
    assert link.accepted_at is not None
    # another club declines from its manage page; the league may invite it again
    client.force_login(vienne_boss)
    link = LeagueClub.objects.get(club=vienne)
    overview = reverse("manage:overview", args=[vienne.slug])
    answer = reverse("league_club:leagues", args=[vienne.slug])
    response = client.post(
        answer, {"action": "decline", "link": link.pk, "next": overview}, follow=True
    )
    assert response.redirect_chain[-1][0] == overview
    assert said(response) == [f"The invitation of {league.name} is declined."]
    assert not LeagueClub.objects.filter(club=vienne).exists()
    # a member club's invitation is not declined (nor cancelled)
    client.force_login(lyon_boss)
    member = LeagueClub.objects.get(club=lyon)
    response = client.post(
        answer.replace(vienne.slug, lyon.slug),
        {"action": "decline", "link": member.pk},
        follow=True,
    )
    assert LeagueClub.objects.filter(pk=member.pk).exists()
    assert said(response) == ["Tarot Club Lyon is a member of this league already."]
    # every step in the league's history and in each club's
    actions = list(LeagueAuditEntry.objects.filter(league=league).values_list("action", "label"))
    for expected in [
        ("club_invited", "Tarot Club Lyon"),
        ("invitation_cancelled", "Excuse Villeurbanne"),
        ("club_joined", "Tarot Club Lyon"),
        ("invitation_declined", "Les Rois de Vienne"),
    ]:
        assert expected in actions
    assert set(AuditEntry.objects.filter(club=excuse).values_list("action", flat=True)) == {
        "league_invited",
        "league_uninvited",
    }
    assert set(AuditEntry.objects.filter(club=vienne).values_list("action", flat=True)) == {
        "league_invited",
        "league_declined",
    }


def test_a_club_invitation_sent_resent_and_cancelled_is_audited(club, manager, mailoutbox):
    from clubs import invitations  # noqa: PLC0415

    invitation = invitations.invite(club, email="zoe@example.org", actor=manager)
    invitations.resend(invitation, actor=manager)
    invitations.cancel(invitation, actor=manager)
    rows = list(
        AuditEntry.objects.filter(club=club)
        .order_by("at", "pk")
        .values_list("action", "object_label", "actor")
    )
    assert rows == [
        ("invitation_sent", "zoe@example.org", manager.pk),
        ("invitation_resent", "zoe@example.org", manager.pk),
        ("invitation_cancelled", "zoe@example.org", manager.pk),
    ]


def test_a_tournament_settings_edit_and_a_team_entry_are_audited(club, manager):
    rules = {"preset": "fft"}
    t = tournament_services.create_tournament(
        club, name="Open", date=DAY, rules=rules, rounds=4, deals_per_round=4, actor=manager
    )
    tournament_services.update_tournament(
        t,
        name="Open",
        date=DAY,
        rules=rules,
        rounds=2,
        deals_per_round=4,
        team_size=2,
        actor=manager,
    )
    entry = AuditEntry.objects.get(club=club, action="tournament_updated")
    assert (entry.before, entry.after, entry.actor) == (
        {"rounds": 4, "team_size": None},
        {"rounds": 2, "team_size": 2},
        manager,
    )
    players = [Player.objects.create(club=club, name=n) for n in ("Anne", "Bruno")]
    tournament_services.register_team(t, "Les As", [("member", p) for p in players], actor=manager)
    team = AuditEntry.objects.get(club=club, action="team_registered")
    assert team.after == {"team": "Les As", "entries": ["1. Anne", "2. Bruno"]}


def test_a_guest_typed_with_a_licence_is_entered_as_the_league_person(
    client, clubs, lseason, event, django_user_model
):
    annie = Person.objects.create(name="Annie Durand", licence="0412345")
    Player.objects.create(club=clubs["b"], name="Annie Durand", person=annie)
    brice = Person.objects.create(name="Brice Martin", licence="0499999")
    # a player of a public club: the organiser may see him (clubs.visibility), so he may
    # be proposed; a hidden person is never proposed by name
    Player.objects.create(club=clubs["a"], name="Brice Martin", person=brice)
    t = event("Open de printemps")
    client.force_login(clubs["a_manager"])
    players = reverse("tournaments:players", args=["club-a", t.pk])
    # the same name (accents and case aside): linked at once
    guest = {"action": "guest", "name": "annie durand", "club": "Club B", "licence": "0412345"}
    client.post(players, guest)
    entry = t.entries.get(name="annie durand")
    assert entry.person == annie and entry.player.person == annie
    # another name: not linked, proposed to the organiser, linked when they confirm
    guest = {"action": "guest", "name": "B. Martin", "club": "", "licence": "0499999"}
    client.post(players, guest)
    other = t.entries.get(name="B. Martin")
    assert other.person is None
    page = client.get(players).content.decode()
    assert "data-licence-proposals" in page and "Brice Martin" in page
    response = client.post(players, {"action": "link", "entry": other.pk}, follow=True)
    assert said(response) == ["B. Martin is entered as Brice Martin (0499999)."]
    other.refresh_from_db()
    assert other.person == brice and other.player.person == brice
    assert "data-licence-proposals" not in response.content.decode()
    assert AuditEntry.objects.filter(club=clubs["a"], action="person_linked").exists()
    # the manager of another club may not link this tournament's entries
    client.force_login(clubs["b_manager"])
    assert client.post(players, {"action": "link", "entry": other.pk}).status_code in (403, 404)


def test_the_invitations_and_the_manage_page_read_in_few_queries(
    client, boss, league, django_user_model, django_assert_max_num_queries
):
    """Five leagues inviting one club, twenty clubs to choose from: the club's home page
    and the league's manage page in a fixed number of queries."""
    club = Club.objects.create(name="Club Z", slug="club-z")
    manager = django_user_model.objects.create_user("zed", password="pw-long-12345")
    Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
    for n in range(5):
        other = services.create_league(f"Ligue {n}", f"ligue-{n}")
        services.invite_club(other, club)
    for n in range(20):
        Club.objects.create(name=f"Club {n:02d}", slug=f"club-{n:02d}")
    client.force_login(manager)
    home = reverse("clubs:detail", args=[club.slug])
    with django_assert_max_num_queries(14):
        page = client.get(home).content.decode()
    assert page.count("data-accept=") == 5
    client.force_login(boss)
    with django_assert_max_num_queries(14):
        page = client.get(reverse("leagues:manage", args=[league.slug])).content.decode()
    invite = page.split("data-invite>")[1].split("</form>")[0]
    assert invite.count("<option") == 21  # Club Z and the twenty others


def test_a_member_club_leaves_its_league_from_its_league_page(
    client, boss, league, django_user_model
):
    club = Club.objects.create(name="Tarot Club Lyon", slug="tarot-club-lyon")
    manager = django_user_model.objects.create_user("lyon", password="pw-long-12345")
    scorer = django_user_model.objects.create_user("lyon-scorer", password="pw-long-12345")
    Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    link = services.invite_club(league, club, actor=boss)
    services.accept_invitation(link, actor=manager)
    page = reverse("league_club:leagues", args=[club.slug])
    client.force_login(manager)
    shown = client.get(page).content.decode()
    # the button asks before it posts (static/js/app.js reads the form's data-confirm)
    assert f'data-leave="{league.slug}"' in shown and "data-confirm=" in shown
    # a scorer may not: the page is its managers'
    client.force_login(scorer)
    assert client.post(page, {"action": "leave", "link": link.pk}).status_code == 403
    assert LeagueClub.objects.filter(pk=link.pk).exists()
    client.force_login(manager)
    response = client.post(page, {"action": "leave", "link": link.pk}, follow=True)
    assert said(response) == [f"Tarot Club Lyon left {league.name}."]
    assert not LeagueClub.objects.filter(pk=link.pk).exists()
    assert f'data-leave="{league.slug}"' not in response.content.decode()
    assert LeagueAuditEntry.objects.filter(
        league=league, action="club_left", label="Tarot Club Lyon"
    ).exists()
