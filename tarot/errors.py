"""The one error type of the scoring engine."""


class ScoringError(ValueError):
    """A hand, sheet or ruleset that the rules refuse.

    ``code`` is a stable snake_case identifier (see ``CODES``), ``field`` names the
    input field at fault (or ``None``), ``message`` says what is wrong and what is
    allowed (in English, for logs and commands), and ``hand`` is the 1-based number of
    the hand within a sheet. ``params`` holds the values the message names (``name``,
    ``value``, ``total``, ``low``, ``high``…), so a page words the refusal in its own
    language from the code and these (``clubs.refusals``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        hand: int | None = None,
        params: dict | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.hand = hand
        self.params = dict(params or {})

    def as_dict(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.field is not None:
            error["field"] = self.field
        if self.hand is not None:
            error["hand"] = self.hand
        return {"error": error}

    def __repr__(self) -> str:
        return f"ScoringError({self.code!r}, {self.message!r})"


#: Every code the engine raises, with what it means (RULES.md §5 and the format).
CODES = {
    "player_count": "fewer than 2 or more than 5 players in the hand, or a count the preset "
    "does not play",
    "seat_count": "fewer than 2 or more than 6 seated players",
    "duplicate_player": "a name twice at the table",
    "player_not_at_table": "a taker, partner, sitting-out, dealer, poignée or misère player "
    "who is not seated",
    "player_sits_out": "the taker, partner, a poignée or a misère by the player who sits out",
    "partner_not_five": "a called partner when the hand is not played by five",
    "contract_unknown": "a contract the preset does not know, or none for a taker",
    "bouts_out_of_range": "bouts outside 0 to 3",
    "points_out_of_range": "points outside 0 to the deck's total",
    "points_step": "points that are not a multiple of 0.5",
    "half_point_impossible": "a half point where the count is in whole points (two players)",
    "points_bouts_inconsistent": "points that the bouts make impossible",
    "petit_au_bout_inconsistent": "petit au bout to the attack with 0 bouts, or to the "
    "defence with 3",
    "petit_au_bout_invalid": "petit au bout other than attack, defence or none",
    "poignee_twice": "two poignées by one player",
    "poignee_size_unknown": "a poignée size other than single, double, triple",
    "poignee_not_allowed": "a poignée where the preset has none (two players)",
    "chelem_points_inconsistent": "a chelem the card points contradict: by the attack with "
    "fewer than 87 points, by the defence with more than 4 points or 1 bout for the attack",
    "chelem_invalid": "a chelem that is not announced true/false with made_by attack, "
    "defence or none",
    "petit_chelem_not_scored": "a petit chelem under a preset that does not score it",
    "misere_not_allowed": "a misère when the rules have no misère",
    "dealer_required": "mouches without a dealer",
    "rules_invalid": "an unknown preset or an option out of range",
    # the Savoyard rules (SAVOYARD.md)
    "mode_unknown": "a Savoyard mode other than solo, call, partners or each, or none",
    "mode_not_played": "a Savoyard mode not played at that many players",
    "count_out_of_range": "a Savoyard count outside 0 to the total, or not whole",
    "counts_inconsistent": "Savoyard counts missing or adding a player, or not adding up "
    "to the total",
    "cards_asked_out_of_range": "a Savoyard solo with cards asked outside 0 to 2",
    "partner_is_dealer": "a Savoyard called partner who is the dealer",
    "baga_not_allowed": "a baga au bout at three players or when the rules have none",
    "sits_out_invalid": "a Savoyard table of six without the player who sits out, or one "
    "sitting out at fewer than six",
    "invalid_field": "a field of the wrong type or shape",
    "json_invalid": "a line that is not a JSON object",
}
