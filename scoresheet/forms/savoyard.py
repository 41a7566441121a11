"""The hand form of the Savoyard rules (SAVOYARD.md): what the scorer taps at the table.

``SavoyardHandForm`` offers what this game needs, in the one-tap style of the
French Tarot form (``scoresheet.forms.hands.HandForm``), and the same interface for
the views (``hand_data``, ``result``, ``add_ledger_error``, ``missing_fields``,
``refusals``…): the dealer (and at six who sits out), the mode, then the
soloist and the cards asked, or the called partner, the declaring party's
count (at three each for himself: every player's count), and the baga au bout.
Players are posted by seat position. ``clean()`` scores the hand with
``services.preview_hand`` (nothing is written); the engine's refusals land on
the fields at fault.
"""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoresheet import services
from scoresheet.forms.hands import SeatedHandForm, seating_words, suggested_dealer
from tarot.rulesets.savoyard import MODES_AT

MODE_LABELS = {
    "solo": pgettext_lazy("savoyard mode", "Solo"),
    "call": pgettext_lazy("savoyard mode", "Call a king"),
    "partners": pgettext_lazy("savoyard mode", "Fixed partners"),
    "each": pgettext_lazy("savoyard mode", "Each for himself"),
}
CARDS_LABELS = {
    2: pgettext_lazy("savoyard cards", "Two cards"),
    1: pgettext_lazy("savoyard cards", "One card"),
    0: pgettext_lazy("savoyard cards", "As dealt"),
}
BAGA_LABELS = {
    "": pgettext_lazy("baga au bout", "No"),
    "declarers": pgettext_lazy("baga au bout", "Declarers"),
    "opponents": pgettext_lazy("baga au bout", "Opponents"),
}


class CountField(forms.IntegerField):
    """A count: whole points, typed on a phone's number pad."""

    default_error_messages = {
        "invalid": gettext_lazy("Enter the count as a whole number, such as 40."),
    }

    def __init__(self, *, total, **kwargs):
        super().__init__(
            min_value=0,
            max_value=total,
            required=False,
            widget=forms.TextInput(
                attrs={
                    "inputmode": "numeric",
                    "pattern": "[0-9]*",
                    "autocomplete": "off",
                    "enterkeyhint": "done",
                    "maxlength": "3",
                    "size": "4",
                    "data-total": str(total),
                }
            ),
            **kwargs,
        )


class SavoyardHandForm(SeatedHandForm):
    """One hand of a Savoyard ``sheet``; ``hand`` is the hand being corrected, if any."""

    page_template = "scoresheet/savoyard_hand_form.html"

    # ------------------------------------------------------------ the table

    @property
    def playing(self) -> int:
        """How many play a hand: a sixth sits out (SAVOYARD.md §5)."""
        return 5 if self.seats == 6 else self.seats

    @property
    def must_sit_out(self) -> bool:
        return self.seats == 6

    @property
    def total(self) -> int:
        return self.rules.ruleset.total(self.rules, self.playing) if self.playing in MODES_AT else 0

    @property
    def line(self) -> int:
        return self.total // 2

    @property
    def modes(self) -> tuple:
        return MODES_AT.get(self.playing, ())

    @property
    def has_baga(self) -> bool:
        return self.playing > 3 and self.rules.option("baga") is not None

    def default_initial(self) -> dict:
        dealer = suggested_dealer(self.sheet, self.table)
        initial = {"dealer": self.position(dealer), "baga": ""}
        if self.must_sit_out and dealer is not None:
            # the player on the dealer's left sits out: the one before him in dealing order
            initial["sits_out"] = str((self.names.index(dealer) - 1) % self.seats)
        return initial

    def initial_from_data(self, data: dict) -> dict:
        pos = self.position
        initial = {
            "dealer": pos(data.get("dealer")),
            "sits_out": pos(data.get("sits_out")),
            "mode": data.get("mode") or "",
            "declarer": pos(data.get("declarer")),
            "cards_asked": data.get("cards_asked"),
            "partner": pos(data.get("partner")),
            "count": data.get("count"),
            "baga": (data.get("baga") or {}).get("to", ""),
            "baga_announced": (data.get("baga") or {}).get("announced", False),
        }
        for name, count in (data.get("counts") or {}).items():
            initial[f"count_{pos(name)}"] = count
        return initial

    # ------------------------------------------------------------ fields

    def _build_fields(self):
        players = self.player_choices
        radio = forms.RadioSelect
        fields = self.fields
        fields["dealer"] = forms.ChoiceField(
            label=_("Dealer"),
            choices=players,
            widget=radio,
            error_messages={"required": _("Choose the dealer.")},
        )
        if self.must_sit_out:
            fields["sits_out"] = forms.ChoiceField(
                label=_("Sits out"),
                choices=players,
                widget=radio,
                help_text=_("At six, the player on the dealer's left sits out."),
                error_messages={"required": _("Choose who sits out.")},
            )
        fields["mode"] = forms.ChoiceField(
            label=_("Game"),
            choices=[(m, MODE_LABELS[m]) for m in self.modes],
            widget=radio,
            error_messages={"required": _("Choose the game.")},
        )
        fields["declarer"] = forms.ChoiceField(
            label=_("Soloist"), choices=players, widget=radio, required=False
        )
        fields["cards_asked"] = forms.TypedChoiceField(
            label=_("Cards asked"),
            choices=[(str(c), label) for c, label in CARDS_LABELS.items()],
            coerce=int,
            widget=radio,
            required=False,
        )
        fields["partner"] = forms.ChoiceField(
            label=_("Partner"),
            choices=players,
            widget=radio,
            required=False,
            help_text=_("Who held the called king."),
        )
        fields["count"] = CountField(
            label=_("Count (declarers)"),
            total=self.total,
            help_text=_("Card values, tricks and skat: %(total)s in all, tie at %(line)s.")
            % {"total": self.total, "line": self.line},
        )
        if "each" in self.modes:
            for position, name in players:
                fields[f"count_{position}"] = CountField(label=name, total=self.total)
        if self.has_baga:
            fields["baga"] = forms.ChoiceField(
                label=_("Baga au bout"),
                choices=list(BAGA_LABELS.items()),
                widget=radio,
                required=False,
                help_text=_("Whose side the 1 in the last trick went to."),
            )
            fields["baga_announced"] = forms.BooleanField(label=_("Announced"), required=False)

    @property
    def count_fields(self):
        return [self[name] for name in self.fields if name.startswith("count_")]

    # ------------------------------------------------------------ cleaning

    def clean(self):
        cleaned = super().clean()
        mode = cleaned.get("mode")
        if self.errors or not mode:
            return cleaned
        name_at = self.name_at
        data = {"dealer": name_at(cleaned.get("dealer")), "mode": mode}
        if self.must_sit_out:
            data["sits_out"] = name_at(cleaned.get("sits_out"))
        complete = True
        if mode == "solo":
            if not cleaned.get("declarer"):
                self._require("declarer", _("Choose the soloist."))
                complete = False
            data["declarer"] = name_at(cleaned.get("declarer"))
            if cleaned.get("cards_asked") in (None, ""):
                self._require("cards_asked", _("Choose the cards asked."))
                complete = False
            data["cards_asked"] = cleaned.get("cards_asked")
        if mode == "call":
            if not cleaned.get("partner"):
                self._require("partner", _("Choose the partner."))
                complete = False
            data["partner"] = name_at(cleaned.get("partner"))
        if mode == "each":
            counts = {}
            for position, name in enumerate(self.names):
                value = cleaned.get(f"count_{position}")
                if value is None:
                    self._require(f"count_{position}", _("Enter the count."))
                    complete = False
                counts[name] = value
            data["counts"] = counts
        else:
            if cleaned.get("count") is None:
                self._require("count", _("Enter the count."))
                complete = False
            data["count"] = cleaned.get("count")
        if self.has_baga and cleaned.get("baga"):
            data["baga"] = {"to": cleaned["baga"], "announced": bool(cleaned.get("baga_announced"))}
        if not complete:
            return cleaned
        self.preview(data)
        return cleaned

    # ------------------------------------------------------------ refusals

    def add_ledger_error(self, error: services.LedgerError):
        message = self.message_for(error)
        field = error.field
        if field == "counts" or field not in self.fields:
            field = None
        self.add_error(field, message)

    def message_for(self, error) -> str:
        """The refusal in the active language, in the scorer's terms."""
        code = error.code
        data = self.hand_data or {}
        if code == "count_out_of_range":
            return _("A count goes from 0 to %(total)s.") % {"total": self.total}
        if code == "counts_inconsistent":
            return _("The counts add up to the cards' %(total)s.") % {"total": self.total}
        if code == "partner_is_dealer":
            return _("The dealer calls another player: he cannot be his own partner.")
        if code == "player_sits_out":
            return _("%(name)s sits out this hand.") % {"name": data.get("sits_out")}
        if code == "baga_not_allowed":
            return _("No baga au bout under these rules.")
        if code == "mode_not_played":
            return _("This game is not played at this table.")
        return error.message

    def defence_points(self):
        """The opponents' count (the total − the count entered), shown beside it."""
        value = self["count"].value()
        try:
            count = int(str(value).strip())
        except (TypeError, ValueError):
            return None
        return self.total - count if 0 <= count <= self.total else None


def describe_savoyard(data):
    """A Savoyard hand (JSON dict with names) as labelled words: [{key, label, value, short}]."""
    items = seating_words(data)
    add = items.add
    mode = data.get("mode")
    if mode in MODE_LABELS:
        add("mode", _("Game"), MODE_LABELS[mode])
    if data.get("declarer"):
        add("declarer", _("Soloist"), data["declarer"])
    if data.get("cards_asked") in CARDS_LABELS:
        add("cards_asked", _("Cards asked"), CARDS_LABELS[data["cards_asked"]])
    if data.get("partner"):
        add(
            "partner", _("Partner"), data["partner"], _("with %(name)s") % {"name": data["partner"]}
        )
    if data.get("count") is not None:
        add(
            "count",
            _("Count"),
            str(data["count"]),
            _("count %(n)s") % {"n": data["count"]},
        )
    if data.get("counts"):
        text = ", ".join(f"{name} {count}" for name, count in data["counts"].items())
        add("counts", _("Counts"), text)
    baga = data.get("baga")
    if baga:
        side = BAGA_LABELS.get(baga.get("to"), "")
        text = str(side)
        if baga.get("announced"):
            text = _("%(side)s (announced)") % {"side": side}
        add("baga", _("Baga au bout"), text, _("baga: %(side)s") % {"side": str(text).lower()})
    return items
