"""Opening a sheet: the form, which starts at the club's current season.

The seats are six selects of the club's players, in dealing order, plus one text
box for players the club does not know yet: new names take the empty seats in
order (leave seat 2 empty and type "Zoé": Zoé sits second). That works without
JavaScript on any phone and keeps the dealing order explicit.
"""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.models import Player, Season, current_season
from clubs.refusals import message_of
from clubs.rules_forms import RulesFields, describe_rules
from clubs.services import name_key, similar_players
from core.widgets import DateInput
from tarot import ScoringError
from tarot.jsonformat import parse_rules

SEATS = 6


class SeasonChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.name} — {describe_rules(obj.rules)}"


class SheetForm(RulesFields):
    """A new sheet: season, date, table, seats in dealing order, and its rules.

    The rule fields count only with "Play other rules at this table" ticked;
    otherwise the sheet follows the season's house rules.
    """

    season = SeasonChoiceField(queryset=Season.objects.none(), label=_("Season"), empty_label=None)
    date = forms.DateField(label=_("Date"), widget=DateInput())
    table = forms.CharField(label=_("Table (optional)"), max_length=40, required=False)
    new_players = forms.CharField(
        label=_("New players"),
        max_length=400,
        required=False,
        help_text=_(
            "Names the club does not know yet, separated by commas. "
            "They take the empty seats, in order."
        ),
    )

    custom_rules = forms.BooleanField(
        label=_("Play other rules at this table"),
        required=False,
        help_text=_("Unticked, the sheet follows the season's house rules."),
    )

    #: LedgerError/ScoringError ``field`` → the form field that shows it.
    ERROR_FIELDS = {**RulesFields.ERROR_FIELDS, "players": None}

    def __init__(self, *args, club, today=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["season"].queryset = club.seasons.regular().newest_first()
        # inactive (and merged) players are left out of the seats to choose from
        players = Player.objects.filter(club=club, is_active=True, is_guest=False).order_by(
            "sort_key", "name"
        )
        for i in range(1, SEATS + 1):
            field = forms.ModelChoiceField(
                queryset=players,
                required=False,
                label=_("Seat %(n)s") % {"n": i},
                empty_label="—",
            )
            self.fields[f"seat_{i}"] = field
        # Seats right after the date and table, in the order they are shown; the rules last.
        order = ["season", "date", "table", *self.seat_names, "new_players", "custom_rules"]
        self.order_fields([*order, *self.RULE_FIELDS])
        self._add_similar_fields()
        if not self.is_bound:
            season = current_season(club, today)
            self.initial.setdefault("date", today or timezone.localdate())
            if season is not None:
                self.initial.setdefault("season", season.pk)
                self.set_rules_initial(season.rules)

    # ---------------------------------------------------------------- helpers

    @property
    def seat_names(self):
        return [f"seat_{i}" for i in range(1, SEATS + 1)]

    def seat_fields(self):
        return [self[name] for name in self.seat_names]

    def similar_fields(self):
        return [self[name] for name in self.fields if name.startswith("same_")]

    def _add_similar_fields(self):
        """A new name that looks like a player the club has ("Helene" and "Hélène" are
        the same name; "Jean Pierre" looks like "Jean-Pierre", "Ana" like "Anna")
        gets a choice: that player, or a new one. The form is refused until it is made."""
        if not self.is_bound:
            return
        text = self.data.get(self.add_prefix("new_players")) or ""
        names = [" ".join(n.split()) for n in str(text).split(",") if n.strip()]
        if not names or len(names) > SEATS:
            return
        everyone = list(Player.objects.filter(club=self.club).order_by("sort_key"))
        keys = {name_key(p.name) for p in everyone}  # a known name is that player
        club_players = [p for p in everyone if p.merged_into_id is None]
        for k, name in enumerate(names):
            if name_key(name) in keys:
                continue
            similar = similar_players(name, club_players)
            if similar:
                self.fields[f"same_{k}"] = forms.ChoiceField(
                    label=_("“%(name)s” looks like a player of the club: who is it?")
                    % {"name": name},
                    choices=[(str(p.pk), p.name) for p in similar]
                    + [("new", _("A new player called %(name)s") % {"name": name})],
                    required=False,
                    widget=forms.RadioSelect,
                )

    # ---------------------------------------------------------------- validation

    def _new_names(self):
        text = self.cleaned_data.get("new_players") or ""
        return [" ".join(name.split()) for name in text.split(",") if name.strip()]

    def clean_new_players(self):
        names = [" ".join(n.split()) for n in self.cleaned_data["new_players"].split(",")]
        names = [n for n in names if n]
        too_long = [n for n in names if len(n) > Player._meta.get_field("name").max_length]
        if too_long:
            raise forms.ValidationError(_("A name is too long: %(name)s") % {"name": too_long[0]})
        folded = [name_key(n) for n in names]
        if len(set(folded)) != len(folded):
            raise forms.ValidationError(_("A new name is typed twice."))
        return ", ".join(names)

    def clean(self):
        cleaned = super().clean()
        seat_fields = [*self.seat_names, "new_players"]
        seated = None
        if not any(self[name].errors for name in seat_fields):
            seated = self._clean_seats(cleaned)
        ruleset = None
        if "rules" in cleaned and not self["season"].errors:
            ruleset = self._clean_rules(cleaned)
        if seated is not None and ruleset is not None:
            self._check_table_size(ruleset, len(seated))
        if seated is not None:
            cleaned["seated"] = seated
        return cleaned

    def _clean_seats(self, cleaned):
        """The players in dealing order: a ``Player``, or the name of one to create."""
        seats = [cleaned.get(name) for name in self.seat_names]
        names = self._new_names()
        # A name the club knows (in any case, with or without accents) is that player.
        known = {}
        if names:
            players = Player.objects.filter(club=self.club).select_related("merged_into")
            for player in players.order_by("pk"):
                # a merged player's name is the player they were merged into
                known.setdefault(name_key(player.name), player.merged_into or player)
        pending = []
        for k, name in enumerate(names):
            pending.append(known.get(name_key(name), name))
            if f"same_{k}" in self.fields and not self[f"same_{k}"].errors:
                choice = self.cleaned_data.get(f"same_{k}")
                if not choice:
                    self.add_error(f"same_{k}", _("Choose the player, or a new one."))
                    return None
                if choice != "new":
                    pending[k] = Player.objects.get(club=self.club, pk=choice)
        seated = []
        for seat in seats:
            if seat is None:
                if pending:
                    seated.append(pending.pop(0))
            else:
                seated.append(seat)
        seated.extend(pending)
        if len(seated) > SEATS:
            self.add_error(
                None,
                _("A table seats at most %(max)s players; %(n)s are named.")
                % {"max": SEATS, "n": len(seated)},
            )
            return None
        if len(seated) < 2:
            self.add_error(None, _("Seat at least 2 players."))
            return None
        seen = set()
        for player in seated:
            key = player.pk if isinstance(player, Player) else player.casefold()
            if key in seen:
                label = player.name if isinstance(player, Player) else player
                message = _("%(name)s is seated twice.") % {"name": label}
                self.add_error(self._seat_of(player) or "new_players", message)
                return None
            seen.add(key)
        return seated

    def _clean_rules(self, cleaned):
        """The sheet's ruleset (the season's unless custom rules are ticked). Season's
        rules the engine no longer reads are refused on the season (the rule fields are
        hidden then), in the page's language."""
        if cleaned.get("season") is None:
            return None
        rules = cleaned["rules"]
        try:
            return parse_rules(rules if rules is not None else cleaned["season"].rules)
        except ScoringError as error:
            field = self.field_for_error(error.field) if rules is not None else "season"
            self.add_error(field, message_of(error))
            return None

    def _seat_of(self, player):
        """The last seat field holding ``player`` (where a duplicate shows)."""
        found = None
        for name in self.seat_names:
            if self.cleaned_data.get(name) == player:
                found = name
        return found

    def _check_table_size(self, ruleset, n):
        if ruleset.heads_up:
            if n > 3:
                self.add_error(
                    None,
                    ngettext(
                        "The two-player rules seat 2 players (3 when one sits out each "
                        "hand); %(n)s player is seated.",
                        "The two-player rules seat 2 players (3 when one sits out each "
                        "hand); %(n)s players are seated.",
                        n,
                    )
                    % {"n": n},
                )
        elif n == 2:
            self.add_error(
                None,
                _(
                    "Two players play the two-player rules: tick “Play other rules at "
                    "this table” and choose “Two players”."
                ),
            )

    def rules_fields_apply(self):
        # cleaned_data["rules"] is None unticked: the season's house rules.
        return self._custom_rules_ticked()

    def _custom_rules_ticked(self):
        widget = self.fields["custom_rules"].widget
        return bool(
            widget.value_from_datadict(self.data, self.files, self.add_prefix("custom_rules"))
        )
