"""What the ledger tells the apps that keep something of their own on write (the
ratings), without importing them: Django signals sent by the write services inside
the write's transaction, so a receiver's writes commit or roll back with the hand.

``hand_recorded``   a new hand at the end of its sheet (``services.record_hand``):
                    ``sheet`` (locked), ``hand``, ``rows`` (its ScoreRows as written).
``ledger_changed``  anything else that changes score rows: a correction, deletion or
                    restore of a hand, an imported sheet, a sheet edited, deleted or
                    restored, players merged, a club restored. ``club_id``, and
                    ``sheets``: the sheets changed (the receiver redoes from the
                    first of them in date order), or ``None`` for the whole club.
"""

from django.dispatch import Signal

hand_recorded = Signal()
ledger_changed = Signal()


def changed(club_id, sheets=None) -> None:
    """Send ``ledger_changed`` (``sheets``: the Sheets changed, None for the whole club)."""
    ledger_changed.send(sender=None, club_id=club_id, sheets=sheets)
