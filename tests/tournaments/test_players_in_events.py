"""Players in tournaments: a team event warns about players without a team;
the club's sheet list and player list leave the tournaments' tables out unless asked."""

from django.urls import reverse

from tests.tournaments.helpers import play_round
from tournaments import services


def test_a_team_event_warns_about_players_without_a_team(client, make_tournament, manager, members):
    t = make_tournament(players=0, rounds=2, team_size=2)
    services.register_team(t, "Les As", [("member", members[0]), ("member", members[1])])
    client.force_login(manager)
    url = reverse("tournaments:players", args=[t.club.slug, t.pk])
    assert "data-teamless" not in client.get(url).content.decode()
    services.register(t, [("member", members[2])])
    page = client.get(url).content.decode()
    assert "A team event: 3. Member 03 has no team, and counts in no team ranking." in page
    services.register(t, [("member", members[3])])
    page = client.get(url).content.decode()
    assert "2 players have no team (3. Member 03, 4. Member 04)" in page
    # A tournament without teams never warns.
    plain = make_tournament(players=5, rounds=1, seed=3)
    page = client.get(reverse("tournaments:players", args=[plain.club.slug, plain.pk]))
    assert "data-teamless" not in page.content.decode()


def test_the_club_lists_leave_the_tournaments_tables_out_unless_asked(
    client, make_tournament, manager, members
):
    t = make_tournament(players=8, rounds=1)
    services.draw_schedule(t)
    rnd = t.round_set.get()
    services.start_round(rnd)
    play_round(t, rnd)
    client.force_login(manager)
    sheets = reverse("scoresheet:sheets", args=[t.club.slug])
    page = client.get(sheets).content.decode()
    assert "R1 T1" not in page and "R1 T2" not in page
    assert 'class="badge badge-info"' not in page  # the filter is not shown as on
    page = client.get(sheets + "?tournaments=on").content.decode()
    assert "R1 T1" in page and "R1 T2" in page

    players = reverse("clubhouse:players", args=[t.club.slug])
    page = client.get(players).content.decode()
    assert "count the club's sheets, not the tournaments' tables" in page
    row = page[page.index("Member 01") :][:600]
    with_them = client.get(players + "?tournaments=1").content.decode()
    row_with = with_them[with_them.index("Member 01") :][:600]
    assert row != row_with  # the tournament's hands count only when asked for
    assert "count the tournaments' tables too" in with_them
