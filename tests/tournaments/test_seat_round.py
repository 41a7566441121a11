"""A round seated as given (``services.seat_round``: a team match's fixed seating), the
signal a confirmed table sends (``signals.table_confirmed``), and a link's key
(``tokens``: a token of one kind never opens a row of another)."""

import pytest

from tournaments import services, signals, tokens
from tournaments.models import RoundTable
from tournaments.services import TournamentError

from .helpers import play_round

pytestmark = pytest.mark.django_db


def test_a_round_seated_as_given(make_tournament, manager):
    tournament = make_tournament(players=8, rounds=1, deals=1)
    rnd = tournament.round_set.get()
    services.seat_round(rnd, [[1, 5, 2, 6], [7, 3, 8, 4]], actor=manager)
    tables = list(rnd.tables.order_by("number"))
    assert [t.seats for t in tables] == [[1, 5, 2, 6], [7, 3, 8, 4]]
    assert all(tokens.find(tokens.token(t)) == t for t in tables)
    for wrong in ([[1, 1, 2, 6], [7, 3, 8, 4]], [[1, 5, 2, 6], [7, 3, 8, 99]]):
        with pytest.raises(TournamentError) as error:
            services.seat_round(rnd, wrong, actor=manager)
        assert error.value.code == "seats_invalid"
    services.start_round(rnd, actor=manager)
    with pytest.raises(TournamentError) as error:
        services.seat_round(rnd, [[1, 5, 2, 6], [7, 3, 8, 4]], actor=manager)
    assert error.value.code == "round_started"


def test_a_confirmed_table_says_so_once_committed(
    make_tournament, manager, django_capture_on_commit_callbacks
):
    heard = []

    def receiver(sender, table, **kwargs):
        heard.append((table.pk, table.state))

    signals.table_confirmed.connect(receiver)
    try:
        tournament = make_tournament(players=8, rounds=1, deals=1)
        rnd = tournament.round_set.get()
        services.seat_round(rnd, [[1, 2, 3, 4], [5, 6, 7, 8]])
        services.start_round(rnd)
        play_round(tournament, rnd)
        one, two = rnd.tables.order_by("number")
        services.submit_table(one, by_name="first")
        totals = services.snapshot(one)[0]
        wrong = [totals[str(n)] for n in one.seats][::-1]
        with django_capture_on_commit_callbacks(execute=True):
            services.check_table(one, totals=wrong, by_name="second")  # differs: nothing heard
        assert heard == []
        with django_capture_on_commit_callbacks(execute=False) as waiting:
            services.confirm_table(RoundTable.objects.get(pk=one.pk), actor=manager)
        assert heard == [] and len(waiting) == 1  # sent after the commit, not inside
        waiting[0]()
        services.submit_table(two, by_name="first")
        totals = services.snapshot(two)[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.check_table(two, totals=[totals[str(n)] for n in two.seats], by_name="second")
        assert heard == [(one.pk, "confirmed"), (two.pk, "confirmed")]
    finally:
        signals.table_confirmed.disconnect(receiver)


def test_a_links_key_keeps_its_tokens_to_its_own_rows():
    salt = tokens.new_salt()
    assert tokens.token_of(salt) == tokens.token_of(salt, tokens.KEY_SALT)
    assert tokens.token_of(salt, "another.kind") != tokens.token_of(salt)
    assert len(tokens.token_of(salt, "another.kind")) == tokens.TOKEN_LENGTH
    assert tokens.find_in(RoundTable.objects.all(), None) is None
