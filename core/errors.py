"""The error every service raises when it refuses a write (``LedgerError``, ``ClubError``).

A services module declares its refusals in one catalogue, ``error_messages``
(code → ``gettext_lazy`` message, with ``%(name)s`` parameters), as pretix's
services do, and gives it to its error class; a refusal is raised by its code::

    error_messages = {"seat_count": gettext_lazy("A table seats 2 to 6 players.")}

    class LedgerError(ServiceError):
        error_messages = error_messages

    raise LedgerError("seat_count", field="players")
    raise LedgerError("player_unknown", field="players", names="Zoe")  # %(names)s

A code worded two ways keeps its second wording under its own key, raised with
``wording=``: ``ClubError("player_exists", wording="player_exists.merge", name=…)``.
The message is translated when the error is raised (the request's language).
Forms and pages read the same catalogue for a refusal they show before calling
the service. An error passed on from another module (the engine's, a club's)
keeps its own message: ``LedgerError(code, message, field)``.
"""


class ServiceError(Exception):
    """A write refused. ``code`` is stable snake_case; ``field`` names the input at fault."""

    #: The module's catalogue: code → message (a subclass gives its module's).
    error_messages: dict = {}

    def __init__(
        self, code: str, message=None, field: str | None = None, *, wording=None, **params
    ):
        if message is None:
            message = self.error_messages[wording or code]
            message = str(message) % params if params else str(message)
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.field = field
        self.params = params

    #: How the engine's refusals are worded for a page (``clubs.refusals.message_of``:
    #: the active language, no code in the text); core knows no app, so each app's error
    #: class that passes the engine's refusals on gives it. None: the engine's English.
    scoring_wording = None

    @classmethod
    def from_scoring(cls, error):
        """The engine's ``ScoringError`` as this service's error: same code and field, its
        message worded by ``scoring_wording``; ``params`` keeps the values it names and
        ``engine_message`` the engine's own English words (for logs)."""
        word = cls.scoring_wording
        made = cls(error.code, word(error) if word else error.message, error.field)
        made.params = dict(getattr(error, "params", None) or {})
        made.engine_message = error.message
        return made
