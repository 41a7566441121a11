"""Forms of a sheet's editing (details, seating, notes) and its paper check."""

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from core.widgets import DateInput
from scoresheet.editing import NOTE_MAX, TABLE_MAX
from scoresheet.forms.sheets import SEATS, SeasonChoiceField
from scoresheet.paper import parse_amount


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("Note"),
        max_length=NOTE_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class SheetEditForm(forms.Form):
    """A sheet's date, table, season, note, and (before its first hand) its seating."""

    season = SeasonChoiceField(queryset=None, label=_("Season"), empty_label=None)
    date = forms.DateField(label=_("Date"), widget=DateInput())
    table = forms.CharField(label=_("Table (optional)"), max_length=TABLE_MAX, required=False)

    def __init__(self, *args, sheet, seating: bool, **kwargs):
        seated = list(sheet.seats.order_by("position").values_list("player_id", flat=True))
        initial = {"season": sheet.season_id, "date": sheet.date, "table": sheet.table}
        initial.update({f"seat_{i}": pk for i, pk in enumerate(seated, 1)})
        super().__init__(*args, initial=initial, **kwargs)
        self.sheet = sheet
        self.fields["season"].queryset = sheet.club.seasons.regular().newest_first()
        self.seating = seating
        if seating:
            players = Player.objects.filter(club_id=sheet.club_id).filter(
                Q(is_active=True) | Q(pk__in=seated)
            )
            for i in range(1, SEATS + 1):
                self.fields[f"seat_{i}"] = forms.ModelChoiceField(
                    queryset=players.order_by("sort_key", "name"),
                    required=False,
                    label=_("Seat %(n)s") % {"n": i},
                    empty_label="—",
                )

    def seat_fields(self):
        return [self[f"seat_{i}"] for i in range(1, SEATS + 1)] if self.seating else []

    def clean(self):
        cleaned = super().clean()
        if self.seating:
            seated = [cleaned.get(f"seat_{i}") for i in range(1, SEATS + 1)]
            cleaned["players"] = [p for p in seated if p is not None]
        return cleaned


class PaperForm(forms.Form):
    """The paper's running totals: a box per live hand and seat (``h<number>_<position>``)."""

    def __init__(self, *args, lines, names, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines = lines
        self.names = names
        for line in lines:
            for position, name in enumerate(names):
                self.fields[self.key(line.hand.number, position)] = forms.CharField(
                    label=_("%(name)s after hand %(number)s")
                    % {"name": name, "number": line.hand.number},
                    required=False,
                    max_length=12,
                    widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 6}),
                )

    @staticmethod
    def key(number, position):
        return f"h{number}_{position}"

    def clean(self):
        cleaned = super().clean()
        for line in self.lines:
            values = []
            for position in range(len(self.names)):
                key = self.key(line.hand.number, position)
                try:
                    values.append(parse_amount(cleaned.get(key, "")))
                except ValueError:
                    self.add_error(key, _("Type a number (half points at most)."))
                    values.append(None)
            filled = [v for v in values if v is not None]
            if filled and len(filled) != len(values) and not self.errors:
                self.add_error(
                    None,
                    _("Hand %(number)s: fill every column of the line, or leave it empty.")
                    % {"number": line.hand.number},
                )
            line.paper = values if filled and len(filled) == len(values) else None
        return cleaned
