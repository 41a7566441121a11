"""core.forms_renderer: the templates it writes in Python come out as Django's, byte for byte."""

import datetime

import pytest
from django import forms
from django.conf import settings
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from core.forms_renderer import FastTemplates
from scoresheet import services
from scoresheet.forms import HandForm

DJANGO = DjangoTemplates()
FAST = FastTemplates()

CHOICES = [
    ("", "—"),
    ("0", "Anna <b>"),
    ("1", 'Bert "B" & Co'),
    (2, 3),
    ("x", gettext_lazy("Dealer")),
]
GROUPED = [("Group <1>", [("a", "A"), ("b", "B")]), ("c", "C"), ("Two", [(1, "one")])]

WIDGETS = [
    (forms.TextInput(), "value <&>"),
    (forms.TextInput(attrs={"class": "big", "inputmode": "decimal", "autofocus": True}), ""),
    (forms.TextInput(attrs={"disabled": False, "data-x": mark_safe("<i>")}), None),
    (forms.NumberInput(attrs={"min": 0, "max": 91, "step": "0.5"}), 45.5),
    (forms.EmailInput(), "a@b.org"),
    (forms.PasswordInput(render_value=True), "secret"),
    (forms.HiddenInput(), "k-1_2"),
    (forms.DateInput(attrs={"type": "date"}), datetime.date(2026, 3, 14)),
    (forms.CheckboxInput(), True),
    (forms.CheckboxInput(attrs={"class": "c"}), False),
    (forms.RadioSelect(choices=CHOICES), "1"),
    (forms.RadioSelect(choices=CHOICES, attrs={"class": "choices"}), None),
    (forms.RadioSelect(choices=GROUPED), "b"),
    (forms.CheckboxSelectMultiple(choices=CHOICES), ["0", "x"]),
    (forms.CheckboxSelectMultiple(choices=GROUPED, attrs={"data-hook": ""}), []),
    (forms.Select(choices=CHOICES), 2),
    (forms.Select(choices=GROUPED, attrs={"aria-describedby": "h"}), "c"),
    (forms.SelectMultiple(choices=CHOICES), ["1", "x"]),
    (forms.NullBooleanSelect(), True),
]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("widget, value", WIDGETS, ids=lambda w: type(w).__name__)
@pytest.mark.parametrize("attrs", [None, {"id": "id_f"}, {"id": "id_<f>", "required": True}])
def test_widgets_render_as_django_renders_them(widget, value, attrs, language):
    with translation.override(language):
        expected = widget.render("f", value, attrs=attrs, renderer=DJANGO)
        assert widget.render("f", value, attrs=attrs, renderer=FAST) == expected


@pytest.mark.parametrize(
    "messages", [[], ["Required."], ["A <b>bad</b> value", mark_safe("<em>safe</em>")]]
)
@pytest.mark.parametrize("field_id", [None, "id_points"])
def test_error_lists_render_as_django_renders_them(messages, field_id):
    expected = forms.utils.ErrorList(messages, renderer=DJANGO, field_id=field_id)
    errors = forms.utils.ErrorList(messages, renderer=FAST, field_id=field_id)
    assert str(errors) == str(expected)
    extra = forms.utils.ErrorList(messages, error_class="nonfield", renderer=FAST)
    assert str(extra) == str(forms.utils.ErrorList(messages, "nonfield", renderer=DJANGO))


def test_other_templates_go_through_django():
    class Split(forms.Form):
        when = forms.SplitDateTimeField()
        note = forms.CharField(widget=forms.Textarea)

    # each form with its own renderer: its fields and errors are rendered by it too
    data = {"when_0": "2026-03-14", "note": "<x>"}
    fast = Split(data, renderer=FAST).render()
    assert fast == Split(data, renderer=DJANGO).render()
    assert "<textarea" in fast and "&lt;x&gt;" in fast and 'name="when_1"' in fast


def test_it_is_the_sites_renderer():
    assert settings.FORM_RENDERER == "core.forms_renderer.FastTemplates"
    assert isinstance(get_default_renderer(), FastTemplates)


@pytest.mark.parametrize("bound", [False, True])
def test_the_hand_form_renders_as_before(make_sheet, bound):
    sheet = make_sheet()
    table = services.Table.of(sheet)
    # bound: a refused hand (five bouts), so its fields show their errors
    data = {"dealer": "0", "taker": "1", "contract": "garde", "bouts": "5"} if bound else None

    def fields(renderer):
        form = HandForm(data, sheet=sheet, table=table, renderer=renderer)
        if bound:
            assert not form.is_valid()
        return "".join(str(field) + str(field.errors) for field in form) + str(
            form.non_field_errors()
        )

    fast = fields(FAST)
    assert "<input" in fast and fast == fields(DJANGO)
    assert not bound or 'class="errorlist"' in fast
