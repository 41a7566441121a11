"""A hand as a rating match: who is on which side, and the order they finished in.

Pure: no Django, no floats (the rating itself, in floats, is ``ratings.compute``'s:
Weng–Lin's update as ``openskill`` computes it, a side as strong as its players'
mean). One function, ``match_of``, read by the write
side's update, the re-rating from the ledger and the ``rate_hands`` command alike.

A seat is ``(player, role, made, margin, score)``: the player (any hashable key),
the seat's role (the engine's words, ``tarot.result.ROLES``, or the ledger's
``out`` for a seat that sits out), the contract's result (``made``), the attack's
card margin (``ScoreRow.margin``) and the seat's score. The rules:

- a seat that sits out, and every seat of a hand everybody passed, plays no match:
  a hand with fewer than two playing sides rates nobody (``None``);
- French Tarot (any kind with a taker): the attack (the taker, and the called
  partner at five) against the defence, the attack first when the contract is made;
  with two players, the taker against the other;
- the Savoyard game (``kind == "savoyard"``), by its own sides: ``solo`` the soloist
  against the others, ``call`` and ``partners`` the dealer's party (stored as the
  taker and partner) against the others; exactly the tie line (margin 0, nothing
  won) is a draw; ``each`` (no declarer) every player for himself, ranked by score,
  equal scores tied.

Ranks are 0 for the first, ties share a rank (openskill's ``ranks``).
"""

from dataclasses import dataclass

TAKER, PARTNER, DEFENDER = "taker", "partner", "defender"
#: Roles that play no match: sitting out (the engine's word and the ledger's), passed.
NOT_PLAYING = frozenset({"sits_out", "out", "passed"})


@dataclass(frozen=True, slots=True)
class Match:
    """The sides of a hand (tuples of players) and each side's rank (0 first)."""

    teams: tuple[tuple, ...]
    ranks: tuple[int, ...]

    @property
    def players(self) -> tuple:
        return tuple(p for team in self.teams for p in team)


def match_of(kind: str, seats) -> Match | None:
    """The match a hand is, from its seats (see the module); ``None`` rates nobody."""
    attack, defence, playing = [], [], []
    made = margin = None
    for player, role, seat_made, seat_margin, score in seats:
        if role in NOT_PLAYING:
            continue
        playing.append((player, score))
        if role in (TAKER, PARTNER):
            attack.append(player)
            made, margin = seat_made, seat_margin
        else:
            defence.append(player)
    if len(playing) < 2:
        return None
    if attack:
        if not defence:
            return None
        if kind == "savoyard" and not made and margin == 0:
            ranks = (0, 0)  # exactly the tie line: nobody won
        else:
            ranks = (0, 1) if made else (1, 0)
        return Match((tuple(attack), tuple(defence)), ranks)
    # every player for himself (Savoyard ``each``): ranked by score, ties share a rank
    scores = sorted({score for _player, score in playing}, reverse=True)
    rank_of = {score: i for i, score in enumerate(scores)}
    return Match(
        tuple((player,) for player, _ in playing),
        tuple(rank_of[score] for _, score in playing),
    )


def result_seats(result) -> list[tuple]:
    """A scored hand's seats (``HandResult``: names as players), for ``match_of``."""
    margin = result.card_margin
    return [
        (name, role, result.made, margin, halves)
        for name, role, halves in zip(result.players, result.roles, result.halves)
    ]
