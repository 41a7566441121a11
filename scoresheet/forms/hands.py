"""The hand form: what a scorer taps at the table, turned into a HAND_FORMAT dict.

``HandForm`` is built for one sheet: its seated players (in dealing order) and its
rules decide which fields exist. Players are posted by their seat position
("0", "1", …), so any name is safe as a value; ``hand_data`` (after
``is_valid()``) is the hand in the JSON format with the players' names, ready for
``services.record_hand`` / ``correct_hand``. ``clean()`` also scores the hand
with ``services.preview_hand`` (nothing is written): the engine's refusals come
back as errors on the fields at fault, and ``result`` holds the previewed scores.
A form about to be saved (``previews=False``) only checks the entries' shape: the
service scores the hand once, under the sheet's lock, and its refusal comes back
on the form through ``add_ledger_error``.
"""

import json
import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from core.jsonnumbers import json_number
from scoresheet import services
from scoresheet.vocabulary import (
    POIGNEE_LABELS,
    SIDE_LABELS,
    Chelem,
    Contract,
    chelem_code,
    chelem_json,
)
from tarot.rules import POIGNEE_SIZES

PASSED = "pass"  # the taker choice "everybody passed"
ALONE = "alone"  # the partner choice "the taker plays alone" (five players)
#: Whose card points the scorer counted: the attack's (stored as they are) or the
#: defence's (stored as the deck's total − them), whichever pile is quicker to count.
ATTACK, DEFENCE = "attack", "defence"

#: The chelem choices the form offers, by the field (rarer stored values are kept
#: when a hand is corrected). Labels: ``scoresheet.vocabulary.Chelem``.
CHELEM_CHOICES = ("", Chelem.ANNOUNCED_MADE, Chelem.ANNOUNCED_FAILED, Chelem.MADE, Chelem.DEFENCE)
PETIT_CHELEM_CHOICES = ("", Chelem.ANNOUNCED_MADE, Chelem.ANNOUNCED_FAILED, Chelem.MADE)

#: Fields that mean nothing when everybody passed: hidden by the page's script,
#: ignored by the server.
PLAY_FIELDS = (
    "contract",
    "partner",
    "bouts",
    "points",
    "points_side",
    "petit_au_bout",
    "chelem",
    "petit_chelem",
    "miseres",
)


#: Card points as a scorer types them: digits, and a decimal point or comma
#: ("45.5", "45,5" on a French keyboard). ASCII digits only: "²" or "٣" are refused.
POINTS_TEXT = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{1,3})?")


class PointsField(forms.DecimalField):
    """The attack's card points: "40.5" or "40,5" (a French keyboard), 0 to the deck's total.

    A text input, not a number input: a French browser's number input reads
    "45,5" as 455. Anything but digits with one decimal point or comma is
    refused with a message, never read as another number.
    """

    default_error_messages = {
        "invalid": gettext_lazy("Enter the points as a number, such as 45 or 45,5."),
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, str):
            text = value.strip().replace("\u00a0", "").replace(" ", "")
            if not POINTS_TEXT.fullmatch(text):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
            value = text.replace(",", ".")
        return super().to_python(value)


def suggested_dealer(sheet, table) -> str | None:
    """The seat after the last live hand's dealer, in dealing order; first hand: seat 0."""
    names = table.names
    if not names:
        return None
    last = (
        sheet.hands.live()
        .exclude(dealer=None)
        .order_by("-number")
        .values_list("dealer_id", flat=True)
        .first()
    )
    player = table.by_id.get(last) if last is not None else None
    if player is None:
        return names[0]
    return names[(names.index(player.name) + 1) % len(names)]


class HandWords(list):
    """A hand in labelled words, as the hand pages and the history show it, whatever
    its game: [{key, label, value, short}] (``short``: the hand list's few words)."""

    def add(self, key, label, value, short=None):
        self.append({"key": key, "label": label, "value": value, "short": short or value})


def seating_words(data) -> HandWords:
    """A hand's words begin with who dealt and who sat out (HAND_FORMAT dict, names)."""
    words = HandWords()
    if data.get("dealer"):
        words.add("dealer", _("Dealer"), data["dealer"])
    if data.get("sits_out"):
        words.add("sits_out", _("Sits out"), data["sits_out"])
    return words


class PreviewErrorsMixin:
    """How a hand form's errors read in the live preview: what is still to fill
    (errors of code "required") apart from what the rules refuse."""

    def missing_fields(self):
        """Labels of the fields still to fill (errors of code "required" only)."""
        missing = []
        for name, errors in self.errors.as_data().items():
            if name in self.fields and all(e.code == "required" for e in errors):
                missing.append(str(self.fields[name].label))
        return missing

    def refusals(self):
        """Errors other than "still to fill", as {field: [messages]} ("__all__" above)."""
        out = {}
        for name, errors in self.errors.as_data().items():
            if name in self.fields and all(e.code == "required" for e in errors):
                continue
            out[name] = [m for e in errors for m in e.messages]
        return out

    def refusal_list(self):
        """The refusals as (label, message) pairs, for the live preview panel."""
        out = []
        for name, messages in self.refusals().items():
            label = self.fields[name].label if name in self.fields else ""
            out.extend((label, message) for message in messages)
        return out


class SeatedHandForm(PreviewErrorsMixin, forms.Form):
    """What every hand form of a sheet shares, whatever its rules: the seated
    players (posted by seat position), the initial values (from the hand being
    corrected, or the defaults of a new hand) and the preview of the hand.

    A subclass gives ``default_initial()``, ``initial_from_data(data)`` and
    ``_build_fields()``, and calls ``preview(data)`` from ``clean()``.

    ``previews``: whether ``clean()`` scores the hand (the preview). The save leaves
    it out: the service scores the hand once, under the sheet's lock."""

    use_required_attribute = False  # which fields are needed depends on the entries

    def __init__(self, *args, sheet, table=None, hand=None, previews=True, **kwargs):
        self.sheet = sheet
        self.table = table or services.Table.of(sheet)
        self.hand = hand
        self.previews = previews
        self.rules = sheet.ruleset
        self.result = None  # the previewed HandResult once valid
        self.hand_data = None  # the HAND_FORMAT dict once valid
        if "initial" not in kwargs:
            if hand is not None:
                kwargs["initial"] = self.initial_from_data(services.hand_data(hand, self.table))
            elif (args[0] if args else kwargs.get("data")) is None:
                # a new, empty form; a posted one shows what was posted, so the
                # suggested dealer (a query) is not read for it
                kwargs["initial"] = self.default_initial()
        super().__init__(*args, **kwargs)
        self._build_fields()
        if hand is None:
            # the sheet's last hand as this form saw it: another phone's hand numbered
            # meanwhile refuses this one (``services.record_hand``), never stored twice
            self.fields["after"] = forms.IntegerField(
                required=False, min_value=0, widget=forms.HiddenInput
            )
            if not self.is_bound:
                self.initial["after"] = services.next_number(sheet) - 1

    def keep_as_next(self, last: int):
        """After a clash: the same entries, to be saved after hand ``last`` this time."""
        data = self.data.copy()
        data["after"] = str(last)
        self.data = data

    @property
    def names(self):
        return self.table.names

    @property
    def seats(self) -> int:
        return len(self.table.names)

    def position(self, name) -> str:
        return str(self.names.index(name)) if name in self.names else ""

    def name_at(self, position) -> str | None:
        if position in ("", None):
            return None
        return self.names[int(position)]

    @property
    def player_choices(self) -> list[tuple[str, str]]:
        """The seated players as a player field's choices: (seat position, name)."""
        return [(str(i), name) for i, name in enumerate(self.names)]

    def _require(self, name, message):
        self.add_error(name, ValidationError(message, code="required"))

    def preview(self, data):
        """Score ``data`` without writing it: ``result``, or the refusal on the fields
        (only ``hand_data`` when the form does not preview)."""
        self.hand_data = data
        if not self.previews:
            return
        try:
            self.result = services.preview_hand(self.sheet, data, self.table, hand=self.hand)
        except services.LedgerError as error:
            self.add_ledger_error(error)
            self.result = None

    @property
    def dealer_name(self):
        return self.chosen_name("dealer")

    @property
    def sits_out_name(self):
        return self.chosen_name("sits_out")

    def chosen_name(self, field) -> str | None:
        """The player's name picked in a player field (bound or initial)."""
        if field not in self.fields:
            return None
        value = str(self[field].value() or "")
        # ASCII digits only: "²".isdigit() is true, and int("²") fails
        if not re.fullmatch(r"[0-9]{1,2}", value) or int(value) >= self.seats:
            return None
        return self.names[int(value)]


class HandForm(SeatedHandForm):
    """One hand of ``sheet``; ``hand`` is the hand being corrected (edit), if any."""

    # ------------------------------------------------------------ the table

    @property
    def two_players(self) -> bool:
        return self.rules.heads_up

    @property
    def max_playing(self) -> int:
        return 2 if self.two_players else 5

    @property
    def deck(self):
        """The cards' arithmetic of the sheet's rules: total, targets, bounds."""
        return self.rules.ruleset.deck

    @property
    def playing_counts(self) -> tuple[int, ...]:
        """How many may play one hand at this table (one fewer when somebody sits out)."""
        if self.must_sit_out:
            return (self.max_playing,)
        if self.may_sit_out:
            return (self.seats - 1, self.seats)
        return (self.seats,)

    def deck_json(self) -> str:
        """What the page's script needs to stop offering impossible entries."""
        return json.dumps(self.deck.as_dict())

    def offline_rules_json(self) -> str:
        """The rules for the page's own scoring with no network (static/js/tarot_engine.js)."""
        return json.dumps(self.rules.as_dict())

    def offline_pools_json(self) -> str:
        """Mouches: the pools before this hand as the server holds them now (a new hand:
        those the last live hand left; a correction: those before the hand), for the
        page's own scoring with no network; the page carries them through the hands
        waiting in its queue. "[]" for rules without pools."""
        if not self.rules.has_pools:
            return "[]"
        pools = services.pools_before(self.sheet, self.hand)
        return json.dumps([json_number(pool) for pool in pools])

    def names_json(self) -> str:
        """The seated players in seat order: the form posts positions, the engine names."""
        return json.dumps(list(self.names))

    @property
    def must_sit_out(self) -> bool:
        """More seated than can play: somebody sits out every hand (six seats)."""
        return self.seats > self.max_playing

    @property
    def may_sit_out(self) -> bool:
        """Five seats may play four-player rules with the dealer out."""
        return self.must_sit_out or (self.seats == 5 and not self.two_players)

    @property
    def may_call_partner(self) -> bool:
        return not self.two_players and self.seats >= 5

    def default_initial(self) -> dict:
        dealer = suggested_dealer(self.sheet, self.table)
        initial = {
            "dealer": self.position(dealer),
            "points_side": ATTACK,
            "petit_au_bout": "",
            "chelem": "",
        }
        if self.must_sit_out:
            initial["sits_out"] = self.position(dealer)
        elif self.may_sit_out:
            initial["sits_out"] = ""
        return initial

    def initial_from_data(self, data: dict) -> dict:
        """A HAND_FORMAT dict (``services.hand_data``) → the form's initial values."""
        pos = self.position
        taker = data.get("taker")
        initial = {
            "dealer": pos(data.get("dealer")),
            "sits_out": pos(data.get("sits_out")),
            "taker": pos(taker) if taker else PASSED,
            "contract": data.get("contract") or "",
            "points_side": ATTACK,
            "petit_au_bout": data.get("petit_au_bout") or "",
            "chelem": chelem_code(data.get("chelem")),
            "petit_chelem": chelem_code(data.get("petit_chelem")),
            "miseres": [pos(name) for name in data.get("miseres") or ()],
        }
        if taker:
            initial["bouts"] = data.get("bouts")
            points = data.get("points")
            if points is not None:
                initial["points"] = _plain_number(points)
            partner = data.get("partner")
            initial["partner"] = pos(partner) if partner and partner != taker else ALONE
        for poignee in data.get("poignees") or ():
            initial[f"poignee_{pos(poignee['player'])}"] = poignee["size"]
        return initial

    # ------------------------------------------------------------ fields

    def _build_fields(self):
        self._add_seating_fields()
        self._add_count_fields()
        self._add_rarer_fields()

    def _add_seating_fields(self):
        """Who deals, who sits out, who takes, the contract and the called partner."""
        players = self.player_choices
        radio = forms.RadioSelect
        fields = self.fields
        fields["dealer"] = forms.ChoiceField(
            label=_("Dealer"),
            choices=players,
            widget=radio,
            # mouches needs the dealer; elsewhere an old hand may have none
            required=self.rules.has_pools,
        )
        if self.may_sit_out:
            choices = players if self.must_sit_out else [("", _("Nobody")), *players]
            fields["sits_out"] = forms.ChoiceField(
                label=_("Sits out"),
                choices=choices,
                widget=radio,
                required=self.must_sit_out,
                help_text=None if self.must_sit_out else _("Five seated may play as four."),
            )
        fields["taker"] = forms.ChoiceField(
            label=_("Taker"),
            help_text=_("Whose bouts and points you enter.") if self.two_players else None,
            # two players bid nothing: there is always a hand to score
            choices=players if self.two_players else [*players, (PASSED, _("Everybody passed"))],
            widget=radio,
            error_messages={
                "required": _("Choose the player.")
                if self.two_players
                else _("Choose the taker, or everybody passed.")
            },
        )
        if not self.two_players:
            fields["contract"] = forms.ChoiceField(
                label=_("Contract"),
                choices=[(c, Contract(c).label) for c in self.rules.contracts],
                widget=radio,
                required=False,
            )
        if self.may_call_partner:
            fields["partner"] = forms.ChoiceField(
                label=_("Partner"),
                choices=[*players, (ALONE, _("Alone"))],
                widget=radio,
                required=False,
                help_text=_("Who held the called card."),
            )

    def _add_count_fields(self):
        """The attack's bouts and card points, and whose pile was counted."""
        radio = forms.RadioSelect
        fields = self.fields
        fields["bouts"] = forms.TypedChoiceField(
            label=_("Bouts") if self.two_players else _("Bouts (attack)"),
            choices=[(str(b), str(b)) for b in range(4)],
            coerce=int,
            widget=radio,
            required=False,
        )
        deck = self.deck
        # A half point can happen when 3, 4 or 5 play (RULES.md §1.2), never at two.
        half = any(deck.half_point_allowed(n) for n in self.playing_counts)
        fields["points"] = PointsField(
            label=_("Points") if self.two_players else _("Points (attack)"),
            min_value=0,
            max_value=deck.total,
            required=False,
            widget=forms.TextInput(
                attrs={
                    "inputmode": "decimal",
                    "data-step": "0.5" if half else "1",
                    "data-total": str(deck.total),
                    "autocomplete": "off",
                    "enterkeyhint": "done",
                    "maxlength": "6",
                    "size": "6",
                }
            ),
        )
        if not self.two_players:
            fields["points_side"] = forms.ChoiceField(
                label=_("Points counted by"),
                choices=[(ATTACK, _("Attack")), (DEFENCE, _("Defence"))],
                widget=radio,
                required=False,
            )

    def _add_rarer_fields(self):
        """Petit au bout, poignées, chelem, petit chelem, misère."""
        players = self.player_choices
        radio = forms.RadioSelect
        fields = self.fields
        fields["petit_au_bout"] = forms.ChoiceField(
            label=_("Petit au bout"),
            choices=[("", pgettext_lazy("petit au bout", "No")), *SIDE_LABELS.items()],
            widget=radio,
            required=False,
        )
        if not self.two_players:
            values = self.rules.poignee
            sizes = [("", "—")] + [
                (size, f"{POIGNEE_LABELS[size]} ({value})")
                for size, value in zip(POIGNEE_SIZES, values)
            ]
            for position, name in players:
                fields[f"poignee_{position}"] = forms.ChoiceField(
                    label=name, choices=sizes, required=False
                )
        fields["chelem"] = forms.ChoiceField(
            label=_("Chelem"),
            choices=self._chelem_choices("chelem", CHELEM_CHOICES),
            required=False,
        )
        if self.rules.scores_petit_chelem:
            fields["petit_chelem"] = forms.ChoiceField(
                label=_("Petit chelem"),
                choices=self._chelem_choices("petit_chelem", PETIT_CHELEM_CHOICES),
                required=False,
            )
        if self.rules.misere:
            fields["miseres"] = forms.MultipleChoiceField(
                label=_("Misère"),
                choices=players,
                widget=forms.CheckboxSelectMultiple,
                required=False,
                help_text=_("Each receives %(value)s from every other player.")
                % {"value": self.rules.misere},
            )

    def _chelem_choices(self, field, codes):
        codes = list(codes)
        stored = self.initial.get(field)
        if stored and stored not in codes:  # keep a rarer stored value when correcting
            codes.append(stored)
        no = pgettext_lazy("chelem", "No")
        return [(code, capfirst(Chelem(code).label) if code else no) for code in codes]

    @property
    def poignee_fields(self):
        return [self[name] for name in self.fields if name.startswith("poignee_")]

    @property
    def extra_fields(self):
        """The rarer entries, one tap away: poignées, chelem, petit chelem, misère."""
        names = [n for n in ("chelem", "petit_chelem", "miseres") if n in self.fields]
        return [self[name] for name in names]

    def has_extras(self) -> bool:
        """Whether a rarer entry is set or wrong (the disclosure opens by itself)."""
        for bound in self.poignee_fields + self.extra_fields:
            if bound.errors or bound.value():
                return True
        return False

    def playing_count(self, sits_out) -> int:
        return self.seats - (sits_out is not None)

    # ------------------------------------------------------------ cleaning

    def clean(self):
        cleaned = super().clean()
        taker = cleaned.get("taker")
        if not taker:
            return cleaned
        passed = taker == PASSED
        if passed:
            # Nothing was played: whatever the other fields say is ignored.
            for name in self.fields:
                if name in PLAY_FIELDS or name.startswith("poignee_"):
                    self._errors.pop(name, None)
                    cleaned.pop(name, None)
        if self.errors:
            return cleaned
        data = self._hand_dict(cleaned, passed)
        if data is None:
            return cleaned
        self.preview(data)
        return cleaned

    def counts_defence(self, cleaned=None) -> bool:
        """Whether the points entered are the defence's (the toggle beside the points)."""
        if "points_side" not in self.fields:
            return False
        if cleaned is not None:
            return cleaned.get("points_side") == DEFENCE
        return str(self["points_side"].value() or "") == DEFENCE

    def attack_points(self, cleaned):
        """The attack's points: as entered, or the deck's total − the defence's."""
        points = cleaned.get("points")
        if points is None or not self.counts_defence(cleaned):
            return points
        return Decimal(self.deck.total) - points

    def _hand_dict(self, cleaned, passed):
        """The cleaned values as a HAND_FORMAT dict, or None (with errors) if incomplete."""
        name_at = self.name_at
        sits_out = name_at(cleaned.get("sits_out"))
        data = {"dealer": name_at(cleaned.get("dealer"))}
        if self.may_sit_out:
            data["sits_out"] = sits_out
        if passed:
            data["taker"] = None
            return data
        data["taker"] = name_at(cleaned["taker"])
        complete = True
        if not self.two_players:
            if not cleaned.get("contract"):
                self._require("contract", _("Choose the contract."))
                complete = False
            data["contract"] = cleaned.get("contract")
        if self.may_call_partner:
            partner = cleaned.get("partner")
            if self.playing_count(sits_out) == 5:
                if not partner:
                    self._require("partner", _("Choose the called partner, or alone."))
                    complete = False
                data["partner"] = None if partner in (ALONE, "", None) else name_at(partner)
            elif partner and partner != ALONE:
                data["partner"] = name_at(partner)  # four play: the engine refuses it
        if cleaned.get("bouts") in (None, ""):
            self._require("bouts", _("Choose the bouts."))
            complete = False
        else:
            data["bouts"] = cleaned["bouts"]
        points = self.attack_points(cleaned)
        if points is None:
            self._require("points", _("Enter the points."))
            complete = False
        else:
            data["points"] = _plain_number(points)
        data["petit_au_bout"] = cleaned.get("petit_au_bout") or None
        if not self.two_players:
            data["poignees"] = [
                {"player": name, "size": cleaned[f"poignee_{i}"]}
                for i, name in enumerate(self.names)
                if cleaned.get(f"poignee_{i}")
            ]
        data["chelem"] = chelem_json(cleaned.get("chelem"))
        if "petit_chelem" in self.fields:
            data["petit_chelem"] = chelem_json(cleaned.get("petit_chelem"))
        if "miseres" in self.fields:
            data["miseres"] = [name_at(p) for p in cleaned.get("miseres") or ()]
        return data if complete else None

    # ------------------------------------------------------------ refusals

    def add_ledger_error(self, error: services.LedgerError):
        """Show a refusal of the services on the fields at fault (or above the form)."""
        message = self.message_for(error)
        field = error.field
        if field == "poignees":
            fields = self._poignee_fields_at_fault()
            for name in fields:
                self.add_error(name, message)
            if fields:
                return
            field = None
        elif field == "miseres":
            field = "miseres" if "miseres" in self.fields else None
        elif field not in self.fields or field in ("players",):
            field = None
        self.add_error(field, message)

    def _poignee_fields_at_fault(self):
        data = self.hand_data or {}
        sits_out = data.get("sits_out")
        shown = [p["player"] for p in data.get("poignees") or ()]
        at_fault = [sits_out] if sits_out in shown else shown
        return [f"poignee_{self.position(name)}" for name in at_fault]

    def message_for(self, error: services.LedgerError) -> str:
        """The refusal in the active language, in the scorer's terms."""
        data = self.hand_data or {}
        code = error.code
        bouts = data.get("bouts")
        if code == "points_bouts_inconsistent" and bouts is not None:
            low, high = self.deck.points_range(bouts)
            return ngettext(
                "With %(bouts)s bout the attack has %(low)s to %(high)s points.",
                "With %(bouts)s bouts the attack has %(low)s to %(high)s points.",
                bouts,
            ) % {"bouts": bouts, "low": low, "high": high}
        if code == "chelem_points_inconsistent":
            return self.chelem_message((data.get("chelem") or {}).get("made_by"))
        if code == "half_point_impossible":
            playing = self.playing_count(data.get("sits_out"))
            return _("No half points when %(n)s play.") % {"n": playing}
        if code == "points_step":
            return _("Points go by halves: 40 or 40.5.")
        if code == "points_out_of_range":
            return _("Points go from 0 to %(total)s.") % {"total": self.deck.total}
        if code == "petit_au_bout_inconsistent":
            if data.get("petit_au_bout") == "attack":
                return _("With no bout the attack cannot have the petit at the end.")
            return _("With all three bouts in the attack the defence cannot have the petit.")
        if code == "partner_not_five":
            return _("A partner is called only when five play.")
        if code == "player_sits_out":
            name = data.get("sits_out")
            return _("%(name)s sits out this hand.") % {"name": name}
        if code == "player_count":
            return _("%(n)s play this hand: these rules need %(allowed)s.") % {
                "n": self.playing_count(data.get("sits_out")),
                "allowed": "2" if self.two_players else _("3, 4 or 5"),
            }
        if code == "dealer_required":
            return _("Mouches needs the dealer of every hand.")
        return error.message

    # ------------------------------------------------------------ display

    def chelem_message(self, side) -> str:
        """Why a chelem made by ``side`` does not fit the points: what to check."""
        bounds = self.deck.as_dict()["chelem"]
        if side == "defence":
            return _(
                "A chelem by the defence means every trick: the attack then has at most "
                "the excuse, %(points)s points and %(bouts)s bout. Check the points and bouts."
            ) % {
                "points": bounds["defence"]["max_points"],
                "bouts": bounds["defence"]["max_bouts"],
            }
        return _(
            "A chelem means every trick: the attack then has at least %(points)s points. "
            "Check the points, or the chelem."
        ) % {"points": bounds["attack"]["min_points"]}

    def chelem_message_attack(self) -> str:
        return self.chelem_message("attack")

    def chelem_message_defence(self) -> str:
        return self.chelem_message("defence")

    def defence_points(self):
        """The deck's total − the points entered, when they are a number (shown beside them):
        the defence's points, or the attack's when the defence's were entered."""
        value = self["points"].value()
        if value in (None, ""):
            return None
        text = str(value).strip()
        if not POINTS_TEXT.fullmatch(text):
            return None
        try:
            points = Decimal(text.replace(",", "."))
        except InvalidOperation:
            return None
        total = self.deck.total
        if not 0 <= points <= total:
            return None
        return _plain_number(Decimal(total) - points)


def _plain_number(value):
    """40 for 40.0, Decimal("40.5") otherwise (what the JSON format expects)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = Decimal(str(value))
    if value == value.to_integral_value():
        return int(value)
    return value.normalize()
