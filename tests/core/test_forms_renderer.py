"""The forms' renderer (``FORM_RENDERER``): Django's widget templates through the
project's template engine. What matters in the HTML is checked, parsed: the
names, values, labels and attributes, and that what a user typed is escaped."""

import datetime
from html.parser import HTMLParser

import pytest
from django import forms
from django.forms.renderers import TemplatesSetting, get_default_renderer
from django.test import override_settings
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from scoresheet import services
from scoresheet.forms.hands import HandForm

CHOICES = [
    ("", "—"),
    ("0", "Anna <b>"),
    ("1", 'Bert "B" & Co'),
    (2, 3),
    ("x", gettext_lazy("Dealer")),
]


class Parsed(HTMLParser):
    """The elements (tag, attributes) and the text of some HTML, entities decoded."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.elements, self.texts = [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        if data.strip():
            self.texts.append(data.strip())

    def all(self, tag):
        return [attrs for name, attrs in self.elements if name == tag]


def test_it_is_the_sites_renderer():
    assert isinstance(get_default_renderer(), TemplatesSetting)


def test_a_project_template_overrides_djangos(tmp_path):
    override = tmp_path / "django" / "forms" / "widgets"
    override.mkdir(parents=True)
    (override / "input.html").write_text('<input data-project name="{{ widget.name }}">')
    templates = [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [tmp_path],
            "APP_DIRS": True,
        }
    ]
    with override_settings(TEMPLATES=templates):
        html = forms.TextInput().render("f", "x", renderer=TemplatesSetting())
    assert html == '<input data-project name="f">'


@pytest.mark.parametrize(
    "widget, value",
    [
        (
            forms.TextInput(attrs={"class": "big", "inputmode": "decimal", "autofocus": True}),
            "a <&>",
        ),
        (forms.NumberInput(attrs={"min": 0, "max": 91, "step": "0.5", "disabled": False}), 45.5),
        (forms.HiddenInput(), "k-1_2"),
        (forms.DateInput(attrs={"type": "date"}), datetime.date(2026, 3, 14)),
    ],
    ids=lambda w: type(w).__name__,
)
def test_an_input_has_its_name_value_and_attributes(widget, value):
    html = widget.render("f", value, attrs={"id": "id_<f>", "required": True})
    [attrs] = Parsed(html).all("input")
    assert attrs["name"] == "f" and attrs["id"] == "id_<f>" and "required" in attrs
    assert attrs["value"] == str(widget.format_value(value))
    assert "disabled" not in attrs  # False leaves an attribute out
    for name, wanted in widget.attrs.items():
        if wanted is True:
            assert attrs[name] is None  # a bare attribute
        elif wanted is not False:
            assert attrs[name] == str(wanted)
    assert "<&>" not in html  # escaped


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_radio_list_checks_its_value_and_labels_each_choice(language):
    with translation.override(language):
        html = forms.RadioSelect(choices=CHOICES, attrs={"class": "choices"}).render(
            "f", "1", attrs={"id": "id_f"}
        )
        dealer = str(gettext_lazy("Dealer"))
    parsed = Parsed(html)
    inputs = parsed.all("input")
    assert [i["value"] for i in inputs] == ["", "0", "1", "2", "x"]
    assert all(i["name"] == "f" and i["type"] == "radio" for i in inputs)
    assert [i["id"] for i in inputs] == [f"id_f_{n}" for n in range(5)]
    assert [i["value"] for i in inputs if "checked" in i] == ["1"]
    assert [label["for"] for label in parsed.all("label")] == [f"id_f_{n}" for n in range(5)]
    assert parsed.texts == ["—", "Anna <b>", 'Bert "B" & Co', "3", dealer]
    assert parsed.all("div")[0] == {"id": "id_f", "class": "choices"}
    assert "<b>" not in html


def test_a_select_selects_its_values():
    html = forms.SelectMultiple(choices=CHOICES).render("f", ["1", "x"])
    parsed = Parsed(html)
    assert parsed.all("select") == [{"name": "f", "multiple": None}]
    options = parsed.all("option")
    assert [o["value"] for o in options] == ["", "0", "1", "2", "x"]
    assert [o["value"] for o in options if "selected" in o] == ["1", "x"]
    assert parsed.texts[1] == "Anna <b>"


def test_a_checkbox_is_checked_by_its_value():
    [on] = Parsed(forms.CheckboxInput().render("f", True)).all("input")
    [off] = Parsed(forms.CheckboxInput().render("f", False)).all("input")
    assert on["type"] == "checkbox" and "checked" in on and "checked" not in off


@pytest.mark.parametrize("field_id", [None, "id_points"])
def test_an_error_list_escapes_its_messages_and_names_its_field(field_id):
    messages = ["A <b>bad</b> value", mark_safe("<em>safe</em>")]
    html = str(forms.utils.ErrorList(messages, field_id=field_id))
    parsed = Parsed(html)
    [ul] = parsed.all("ul")
    assert ul["class"] == "errorlist"
    assert ul.get("id") == (f"{field_id}_error" if field_id else None)
    assert "&lt;b&gt;bad&lt;/b&gt;" in html and "<em>safe</em>" in html
    assert str(forms.utils.ErrorList([])) == ""


@pytest.mark.parametrize("bound", [False, True])
def test_the_hand_form_renders_each_field_with_its_errors(make_sheet, bound):
    sheet = make_sheet()
    table = services.Table.of(sheet)
    # bound: a refused hand (five bouts), so its fields show their errors
    data = {"dealer": "0", "taker": "1", "contract": "garde", "bouts": "5"} if bound else None
    form = HandForm(data, sheet=sheet, table=table)
    if bound:
        assert not form.is_valid()
    for field in form:
        parsed = Parsed(str(field))
        named = [a for tag, a in parsed.elements if tag in ("input", "select", "textarea")]
        assert named and all(a["name"] == field.html_name for a in named), field.name
        if bound and field.errors:
            assert Parsed(str(field.errors)).all("ul")[0]["class"] == "errorlist"
    if bound:  # the posted choice is kept, checked
        contract = Parsed(str(form["contract"])).all("input")
        assert [a["value"] for a in contract if "checked" in a] == ["garde"]
        assert form["bouts"].errors
