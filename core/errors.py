"""The error every service raises when it refuses a write (``LedgerError``, ``ClubError``)."""


class ServiceError(Exception):
    """A write refused. ``code`` is stable snake_case; ``field`` names the input at fault."""

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    @classmethod
    def from_scoring(cls, error):
        """The engine's ``ScoringError`` as this service's error (same code, message, field)."""
        return cls(error.code, error.message, error.field)
