"""The placement scale's editor: a scale typed as rows, never as JSON, and its preview.

A season's scale (``leagues.scales``) is either points proportional to the field beaten
(one number: the winner's points) or a points table: rows, each from a field size on,
giving the points of the 1st, 2nd, 3rd… place. The editor is a plain form and a
formset of rows (three empty rows to fill; more after each save), posted whole; the
preview shows what each place earns, for the rows typed or, in proportion, for a few
field sizes. Refused values are named with their row and place.
"""

from decimal import Decimal
from fractions import Fraction

from django import forms
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from leagues import scales

PROPORTIONAL, TABLE = "proportional", "table"
#: field sizes the proportional scale is previewed on
PREVIEW_FIELDS = (4, 8, 12, 16)
#: places a row of the table may give points to
MAX_PLACES = 200


class ScaleForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Placement points"),
        choices=[
            (PROPORTIONAL, _("proportional to the players beaten")),
            (TABLE, _("a table by place and field size")),
        ],
        widget=forms.RadioSelect,
        initial=PROPORTIONAL,
    )
    top = forms.DecimalField(
        label=_("Points of the winner"),
        required=False,
        min_value=0,
        max_value=scales.MAX_POINTS,
        decimal_places=3,
        initial=100,
        help_text=_("Proportional: the last player gets 0, the others their share between."),
    )


class ScaleRowForm(forms.Form):
    start = forms.IntegerField(
        label=_("From a field of"),
        min_value=1,
        max_value=10_000,
        required=False,
        widget=forms.NumberInput(attrs={"aria-label": _("From a field of"), "size": 4}),
    )
    points = forms.CharField(
        label=_("Points of the 1st, 2nd, 3rd… place"),
        required=False,
        max_length=2000,
        widget=forms.TextInput(attrs={"aria-label": _("Points of the 1st, 2nd, 3rd… place")}),
    )

    def clean_points(self):
        text = self.cleaned_data["points"].replace(";", " ").replace("\t", " ")
        parts = text.split()
        if len(parts) > MAX_PLACES:
            raise forms.ValidationError(_t("At most %(n)d places a row.") % {"n": MAX_PLACES})
        points = []
        for place, part in enumerate(parts, 1):
            try:
                number = Fraction(part.replace(",", "."))
            except (ValueError, ZeroDivisionError):
                raise forms.ValidationError(
                    _t("Place %(place)d: “%(value)s” is not a number.")
                    % {"place": place, "value": part[:20]}
                ) from None
            if not 0 <= number <= scales.MAX_POINTS:
                raise forms.ValidationError(
                    _t("Place %(place)d: %(value)s is not between 0 and %(n)d.")
                    % {"place": place, "value": part[:20], "n": scales.MAX_POINTS}
                )
            points.append(number)
        return points

    def clean(self):
        data = super().clean()
        if data.get("points") and data.get("start") is None:
            self.add_error("start", _t("Give the field size this row starts at."))
        if data.get("start") is not None and not data.get("points") and "points" not in self.errors:
            self.add_error("points", _t("Give the points of at least the 1st place."))
        return data


class _EveryRow(forms.BaseFormSet):
    """Every row read, even one posted as it was shown (an unchanged row is no blank one)."""

    def _construct_form(self, i, **kwargs):
        return super()._construct_form(i, **{**kwargs, "empty_permitted": False})


ScaleRowFormSet = forms.formset_factory(
    ScaleRowForm, formset=_EveryRow, extra=3, max_num=30, validate_max=True
)


def _text(number: Fraction) -> str:
    """A point as typed: 10, 2.5, or the fraction's decimals to three places."""
    if number.denominator == 1:
        return str(number.numerator)
    return _decimals(number, 3)


def initial_of(scale: dict) -> tuple[dict, list[dict]]:
    """The editor's initial values of a stored scale."""
    if scale.get("kind") == TABLE:
        rows = [
            {"start": t["from"], "points": " ".join(_text(Fraction(p)) for p in t["points"])}
            for t in scale["tables"]
        ]
        return {"kind": TABLE, "top": 100}, rows
    return {"kind": PROPORTIONAL, "top": Fraction(scale.get("points", 100))}, []


def scale_of(form: ScaleForm, rows: ScaleRowFormSet):
    """The scale the valid editor describes (``leagues.scales``' shape), or None after
    adding the refusal to the form."""
    data = form.cleaned_data
    if data["kind"] == PROPORTIONAL:
        if data.get("top") is None:
            form.add_error("top", _t("Give the winner's points."))
            return None
        return {"kind": PROPORTIONAL, "points": str(Fraction(data["top"]))}
    tables = [
        {"from": row["start"], "points": [str(p) for p in row["points"]]}
        for row in rows.cleaned_data
        if row and row.get("points")
    ]
    if not tables:
        form.add_error(None, _t("A points table needs at least one row of points."))
        return None
    try:
        return scales.parse_scale({"kind": TABLE, "tables": tables})
    except scales.ScaleError as error:
        form.add_error(None, error.message)
        return None


def preview(scale: dict) -> list[dict]:
    """What each place earns: per row of the table (its field sizes), or per field size
    in proportion. Shown rounded to 0.01; the ranking keeps them exact."""
    if scale["kind"] == PROPORTIONAL:
        return [
            {
                "label": _t("%(n)d players") % {"n": n},
                "points": [_shown(p) for p in scales.points_of_ranks(scale, list(range(1, n + 1)))],
            }
            for n in PREVIEW_FIELDS
        ]
    tables = scale["tables"]
    out = []
    for i, table in enumerate(tables):
        end = tables[i + 1]["from"] - 1 if i + 1 < len(tables) else None
        if end is None:
            label = _t("%(start)d players and more") % {"start": table["from"]}
        else:
            label = _t("%(start)d to %(end)d players") % {"start": table["from"], "end": end}
        points = [_shown(Fraction(p)) for p in table["points"]]
        out.append({"label": label, "points": points, "rest": True})
    return out


def _shown(number: Fraction) -> str:
    return _decimals(number, 2)


def _decimals(number: Fraction, places: int) -> str:
    """Rounded to ``places`` only to show, without trailing zeros (no float on the way)."""
    value = (Decimal(number.numerator) / Decimal(number.denominator)).quantize(
        Decimal(1).scaleb(-places)
    )
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
