"""The barème's editor: a team competition's match points typed as lines, never as JSON.

Each line: from a difference of so many points on, the match points of the side ahead
and of the side behind (``tarot.teammatch.Scale``); the first line starts at 0. The
lines are a formset posted whole with the competition's form; the preview converts a
few differences (each line's start, the point just below it, and one well beyond the
last) into both sides' match points.
"""

from django import forms
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from tarot.teammatch import Scale, TeamMatchError

#: a barème's lines at most, and the largest difference a line may start at
MAX_LINES, MAX_START = 30, 1_000_000


class BaremeLineForm(forms.Form):
    start = forms.IntegerField(
        label=_("From a difference of"),
        min_value=0,
        max_value=MAX_START,
        required=False,
        widget=forms.NumberInput(attrs={"aria-label": _("From a difference of")}),
    )
    ahead = forms.IntegerField(
        label=_("Match points ahead"),
        min_value=0,
        max_value=100,
        required=False,
        widget=forms.NumberInput(attrs={"aria-label": _("Match points ahead")}),
    )
    behind = forms.IntegerField(
        label=_("Match points behind"),
        min_value=0,
        max_value=100,
        required=False,
        widget=forms.NumberInput(attrs={"aria-label": _("Match points behind")}),
    )

    def clean(self):
        data = super().clean()
        given = [data.get(k) is not None for k in ("start", "ahead", "behind")]
        if any(given) and not all(given) and not self.errors:
            raise forms.ValidationError(_t("Fill the three numbers of the line, or none."))
        return data


class _EveryRow(forms.BaseFormSet):
    """Every row read, even one posted as it was shown (an unchanged row is no blank one)."""

    def _construct_form(self, i, **kwargs):
        return super()._construct_form(i, **{**kwargs, "empty_permitted": False})


BaremeFormSet = forms.formset_factory(
    BaremeLineForm, formset=_EveryRow, extra=3, max_num=MAX_LINES, validate_max=True
)


def initial_of(lines) -> list[dict]:
    return [{"start": s, "ahead": a, "behind": b} for s, a, b in lines]


def lines_of(formset) -> list[list[int]] | None:
    """The barème the valid formset describes, checked by the engine's rules; None after
    naming the refusal on the formset (in the reader's language)."""
    lines = sorted(
        [row["start"], row["ahead"], row["behind"]]
        for row in formset.cleaned_data
        if row and row.get("start") is not None
    )
    if not lines:
        formset.refusal = _t("Give at least the line of a difference of 0.")
        return None
    try:
        Scale.from_data(lines)
    except TeamMatchError as error:
        formset.refusal = REFUSALS.get(error.code, REFUSALS["scale_shape"])()
        return None
    return lines


REFUSALS = {
    "scale_start": lambda: _t("The first line starts at a difference of 0."),
    "scale_order": lambda: _t("Two lines start at the same difference."),
    "scale_points": lambda: _t(
        "On each line, the side ahead gets at least the match points of the side behind."
    ),
    "scale_shape": lambda: _t("Each line is three whole numbers."),
}


def preview(lines) -> list[dict]:
    """A few differences and the match points they give (ahead – behind)."""
    scale = Scale.from_data(lines)
    starts = [line[0] for line in scale.lines]
    differences = sorted({0, *starts, *(s - 1 for s in starts if s > 0), starts[-1] + 50})
    return [
        {"difference": d, "ahead": scale.convert(d)[0], "behind": scale.convert(d)[1]}
        for d in differences
    ]
