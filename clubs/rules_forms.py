"""House rules in forms and in words, shared by the season form and the sheet form.

- ``PRESET_LABELS`` / ``PRESET_CHOICES``, ``ROUNDING_CHOICES``, ``SPLIT_CHOICES``: the
  options as people read them;
- ``rules_parts(rules)`` / ``describe_rules(rules)``: stored rules in a few words
  ("FFT: the official rules, rounded to 10, misère 10"), what differs from the
  defaults only;
- ``RulesFields``: a form base with the rule fields (preset, rounding, poignée
  values, misère, no prise, five-player split, mouches ante and dealer's stake,
  the Savoyard deck, count and baga),
  their initial values from stored rules, and ``clean()`` into
  ``cleaned_data["rules"]``, validated by ``parse_rules`` and in its short form
  (``Rules.as_dict()``). ``templates/includes/rules_fields.html`` renders them.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.refusals import message_of
from tarot import ScoringError
from tarot.jsonformat import parse_rules
from tarot.rules import PRESETS, Rules
from tarot.rulesets import REGISTRY

DEFAULTS = Rules()

PRESET_LABELS = {
    "fft": _("FFT: the official rules"),
    "pousse": _("With the pousse bid"),
    "contre5": _("Garde contre ×5, petit chelem"),
    "fixed": _("Fixed scores: garde 80, 160, 320"),
    "mouches": _("Mouches: with pools"),
    "two_players": _("Two players"),
    "savoyard": _("Savoyard rules (Chambéry, 1902)"),
}
PRESET_CHOICES = [(preset, PRESET_LABELS[preset]) for preset in PRESETS]
ROUNDING_CHOICES = [(1, _("None")), (5, _("To 5")), (10, _("To 10"))]
DECK_CHOICES = [(78, _("78 cards")), (62, _("62 cards (tarot simplifié)"))]
COUNT_CHOICES = [
    ("classic", _("Classic: card values and tricks")),
    ("ticino", _("Ticino: the simplified count, 72 in all")),
]
SAVOYARD_DEFAULTS = Rules("savoyard").opts
SPLIT_CHOICES = [
    ("two_to_one", _("Taker 2 shares, partner 1")),
    ("equal", _("Taker and partner alike")),
]


def rules_parts(rules) -> list[str]:
    """House rules in a few words each: the preset, then what differs from the defaults.

    ``rules`` is a preset name, an options dict (as stored) or a ``Rules``. Mouches
    always show their ante and dealer's stake; two players have no poignées.
    """
    try:
        ruleset = rules if isinstance(rules, Rules) else parse_rules(rules)
    except ScoringError:
        return [str(_("unreadable rules"))]
    parts = [str(PRESET_LABELS.get(ruleset.preset, ruleset.preset))]
    if ruleset.kind == "savoyard":
        return parts + _savoyard_parts(ruleset)
    if ruleset.rounding != DEFAULTS.rounding:
        parts.append(_("rounded to %(n)d") % {"n": ruleset.rounding})
    if ruleset.poignee != DEFAULTS.poignee and ruleset.ruleset.has_poignees:
        parts.append(_("poignées %(values)s") % {"values": "/".join(map(str, ruleset.poignee))})
    if ruleset.misere:
        parts.append(_("misère %(n)d") % {"n": ruleset.misere})
    if ruleset.no_prise:
        parts.append(str(_("no prise")))
    if ruleset.five_player_split == "equal":
        parts.append(str(_("taker and partner alike at five")))
    if ruleset.has_pools:
        parts.append(_("ante %(n)d") % {"n": ruleset.ante})
        parts.append(_("dealer's stake %(n)d") % {"n": ruleset.dealer_stake})
    return parts


def _savoyard_parts(ruleset) -> list[str]:
    """The Savoyard options in words: the deck, the count and the baga (when not the default)."""
    parts = []
    if ruleset.option("deck") != SAVOYARD_DEFAULTS["deck"]:
        parts.append(str(_("62 cards")))
    if ruleset.option("count") == "ticino":
        parts.append(str(_("Ticino count")))
    baga = ruleset.option("baga")
    if baga is None:
        parts.append(str(_("no baga au bout")))
    elif baga != SAVOYARD_DEFAULTS["baga"]:
        parts.append(_("baga au bout %(n)d") % {"n": baga})
    return parts


def describe_rules(rules) -> str:
    """House rules in one line: "FFT: the official rules, rounded to 10, misère 10"."""
    return ", ".join(rules_parts(rules))


def rules_initial(rules) -> dict:
    """The rule fields' values for stored rules (the defaults if they no longer parse)."""
    try:
        ruleset = rules if isinstance(rules, Rules) else parse_rules(rules)
    except ScoringError:
        ruleset = DEFAULTS
    single, double, triple = ruleset.poignee
    return {
        "preset": ruleset.preset,
        "rounding": ruleset.rounding,
        "poignee_single": single,
        "poignee_double": double,
        "poignee_triple": triple,
        "misere": ruleset.misere,
        "no_prise": ruleset.no_prise,
        "five_player_split": ruleset.five_player_split,
        "ante": ruleset.ante,
        "dealer_stake": ruleset.dealer_stake,
        **_savoyard_initial(ruleset),
    }


def _savoyard_initial(ruleset) -> dict:
    options = ruleset.opts if ruleset.kind == "savoyard" else SAVOYARD_DEFAULTS
    return {
        "savoyard_deck": options["deck"],
        "savoyard_count": options["count"],
        "savoyard_baga": options["baga"],
    }


class PresetSelect(forms.Select):
    """The presets, each option carrying what its ruleset is for the page's script
    (static/js/app.js shows the fields that apply): ``data-kind`` (the game,
    "tarot" or "savoyard") and ``data-pools`` when it carries pools."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        ruleset = REGISTRY.get(str(value))
        if ruleset is not None:
            option["attrs"]["data-kind"] = ruleset.kind
            option["attrs"]["data-pools"] = ruleset.has_pools  # a bare attribute, or none
        return option


def _amount(label, initial, help_text=None, required=True):
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=9999,
        initial=initial,
        required=required,
        help_text=help_text,
    )


class RulesFields(forms.Form):
    """The house-rules fields of a form; subclass it next to the form's own fields.

    ``cleaned_data["rules"]`` is the validated rules dict in its short form, or
    None when ``rules_fields_apply()`` says the fields do not count (they are then
    not validated at all and keep their initial values). A ``ScoringError`` lands
    on the field it names, worded in the page's language (``clubs.refusals``).
    """

    preset = forms.ChoiceField(
        label=_("Scoring rules"),
        choices=PRESET_CHOICES,
        initial=DEFAULTS.preset,
        widget=PresetSelect,
    )
    rounding = forms.TypedChoiceField(
        label=_("Rounding of the amount per defender"),
        choices=ROUNDING_CHOICES,
        coerce=int,
        widget=forms.RadioSelect,
        initial=DEFAULTS.rounding,
    )
    poignee_single = _amount(_("Single poignée"), DEFAULTS.poignee[0])
    poignee_double = _amount(_("Double poignée"), DEFAULTS.poignee[1])
    poignee_triple = _amount(_("Triple poignée"), DEFAULTS.poignee[2])
    misere = _amount(
        _("Misère"),
        DEFAULTS.misere,
        _("What each other player pays a player who declares misère; 0: no misère."),
    )
    no_prise = forms.BooleanField(label=_("No prise: the lowest bid is garde"), required=False)
    five_player_split = forms.ChoiceField(
        label=_("At five, the attack's share"),
        choices=SPLIT_CHOICES,
        widget=forms.RadioSelect,
        initial=DEFAULTS.five_player_split,
    )
    # Left empty (the fields are hidden unless the preset is mouches): the default.
    ante = _amount(
        _("Ante"), DEFAULTS.ante, _("Each player pays it into a new pool."), required=False
    )
    dealer_stake = _amount(
        _("Dealer's stake"),
        DEFAULTS.dealer_stake,
        _("The dealer adds it to the largest pool before each hand."),
        required=False,
    )
    # The Savoyard rules' own options (shown only for that preset).
    savoyard_deck = forms.TypedChoiceField(
        label=_("Deck"),
        choices=DECK_CHOICES,
        coerce=int,
        widget=forms.RadioSelect,
        initial=SAVOYARD_DEFAULTS["deck"],
        required=False,
        empty_value=None,
    )
    savoyard_count = forms.ChoiceField(
        label=_("Count"),
        choices=COUNT_CHOICES,
        widget=forms.RadioSelect,
        initial=SAVOYARD_DEFAULTS["count"],
        required=False,
    )
    savoyard_baga = _amount(
        _("Baga au bout"),
        SAVOYARD_DEFAULTS["baga"],
        _("What the 1 in the last trick is worth; leave empty: no baga au bout."),
        required=False,
    )

    RULE_FIELDS = (
        "preset",
        "rounding",
        "poignee_single",
        "poignee_double",
        "poignee_triple",
        "misere",
        "no_prise",
        "five_player_split",
        "ante",
        "dealer_stake",
        "savoyard_deck",
        "savoyard_count",
        "savoyard_baga",
    )
    #: A ``ScoringError``'s (or a service error's) field → the form field that shows it.
    ERROR_FIELDS = {
        "rules": "preset",
        "poignee": "poignee_single",
        "deck": "savoyard_deck",
        "count": "savoyard_count",
        "baga": "savoyard_baga",
    }

    def set_rules_initial(self, rules) -> None:
        """Start the rule fields at stored ``rules`` (initial values given to the form win)."""
        for name, value in rules_initial(rules).items():
            self.initial.setdefault(name, value)

    def rules_fields_apply(self) -> bool:
        """Whether the submitted rule fields count (read from the raw data: runs first)."""
        return True

    def rules_errors(self) -> bool:
        return any(self[name].errors for name in self.RULE_FIELDS)

    def field_for_error(self, field):
        """The form field that shows an error raised about ``field`` (None: the form's)."""
        name = self.ERROR_FIELDS.get(field, field)
        return name if name in self.fields else None

    def full_clean(self):
        # Rule fields that do not count are not validated: disabled, they keep
        # their initial values.
        ignored = []
        if self.is_bound and not self.rules_fields_apply():
            ignored = [f for n in self.RULE_FIELDS if not (f := self.fields[n]).disabled]
        for field in ignored:
            field.disabled = True
        try:
            super().full_clean()
        finally:
            for field in ignored:
                field.disabled = False

    def clean(self):
        cleaned = super().clean()
        if not self.rules_fields_apply():
            cleaned["rules"] = None
        elif not self.rules_errors():
            try:
                cleaned["rules"] = parse_rules(self._rules_from(cleaned)).as_dict()
            except ScoringError as error:
                self.add_error(self.field_for_error(error.field), message_of(error))
        return cleaned

    @staticmethod
    def _rules_from(cleaned) -> dict:
        def amount(name):
            value = cleaned[name]
            return getattr(DEFAULTS, name) if value is None else value

        if REGISTRY[cleaned["preset"]].kind == "savoyard":  # its own options, not the tarot ones
            return {
                "preset": cleaned["preset"],
                "deck": cleaned["savoyard_deck"] or SAVOYARD_DEFAULTS["deck"],
                "count": cleaned["savoyard_count"] or SAVOYARD_DEFAULTS["count"],
                "baga": cleaned["savoyard_baga"],
            }
        return {
            "preset": cleaned["preset"],
            "rounding": cleaned["rounding"],
            "poignee": [cleaned[f"poignee_{size}"] for size in ("single", "double", "triple")],
            "misere": cleaned["misere"],
            "no_prise": cleaned["no_prise"],
            "five_player_split": cleaned["five_player_split"],
            "ante": amount("ante"),
            "dealer_stake": amount("dealer_stake"),
        }
