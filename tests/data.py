"""Test data shared across the suite: club names, the seed's hands, form posts."""

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fred"]

#: The house-rules fields as a browser posts them untouched (plain FFT), for the
#: season form and the sheet form's "other rules" alike.
RULES_POST = {
    "preset": "fft",
    "rounding": "1",
    "poignee_single": "20",
    "poignee_double": "30",
    "poignee_triple": "40",
    "misere": "0",
    "five_player_split": "two_to_one",
    "ante": "10",
    "dealer_stake": "5",
}


#: The seed's five hands (RULES.md §1; German seed's corrected table).
SEED_HANDS = [
    {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
    {
        "dealer": "Anna",
        "taker": "Bert",
        "contract": "garde",
        "bouts": 3,
        "points": 49,
        "petit_au_bout": "attack",
    },
    {
        "dealer": "Bert",
        "taker": "Carl",
        "contract": "garde",
        "bouts": 2,
        "points": 40,
        "petit_au_bout": "defence",
    },
    {
        "dealer": "Carl",
        "taker": "Carl",
        "contract": "garde",
        "bouts": 2,
        "points": 41,
        "petit_au_bout": "defence",
    },
    {
        "dealer": "Dora",
        "taker": "Dora",
        "contract": "garde",
        "bouts": 3,
        "points": 40,
        "poignees": [{"player": "Anna", "size": "single"}],
    },
]
SEED_TOTALS = {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
