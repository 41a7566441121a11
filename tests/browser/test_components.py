"""The shared CSS/JS components, checked in a real browser at phone size."""

import pytest
from django import forms
from django.template import engines
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


class HandForm(forms.Form):
    taker = forms.ChoiceField(
        choices=[(n, n) for n in ("Anna", "Bert", "Carl", "Dora")], widget=forms.RadioSelect
    )
    contract = forms.ChoiceField(
        choices=[("prise", "prise"), ("garde", "garde"), ("garde_sans", "garde sans")],
        widget=forms.RadioSelect(attrs={"class": "choices"}),  # Django's own markup
    )
    points = forms.DecimalField(max_value=91)


PAGE = """{% load static tarot %}<!doctype html><html lang="en" class="no-js"><head>
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Components</title>
<link rel="stylesheet" href="{{ base }}{% static 'css/app.css' %}">
<script src="{{ base }}{% static 'js/app.js' %}" defer></script></head>
<body><main class="container">
<div class="messages"><div class="notice notice-success"><p>Saved.</p>
<button type="button" class="notice-close" aria-label="Dismiss">×</button></div></div>
<form class="form">
  {% include "includes/form_errors.html" %}
  {% include "includes/field.html" with field=form.taker fill=True %}
  <div class="field">{{ form.contract }}</div>
  {% include "includes/field.html" with field=form.points %}
</form>
<div class="table-scroll"><table class="table"><thead><tr><th>#</th>
{% for n in names %}<th class="num">{{ n }}</th>{% endfor %}</tr></thead><tbody><tr><td>1</td>
{% for n in names %}<td class="num {{ -22.5|score_class }}">{{ "-22.5"|score }}</td>{% endfor %}
</tr></tbody></table></div></main></body></html>"""


@pytest.fixture
def components(page, live_server):
    form = HandForm({"points": "95"})
    form.is_valid()
    html = (
        engines["django"]
        .from_string(PAGE)
        .render({"form": form, "base": live_server.url, "names": [f"Player {i}" for i in range(8)]})
    )
    # served at an address of its own, so the audit every page gets on load reads this
    # document once it has loaded (written over "/", it could read either)
    address = live_server.url + "/components-sample/"
    page.route(
        address, lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8")
    )
    page.goto(address)
    # narrow, through the CSSOM: the Content-Security-Policy forbids style="" attributes
    page.get_by_role("table").locator("xpath=..").evaluate("e => { e.style.maxWidth = '300px'; }")
    return page


def test_choices_are_big_one_tap_buttons(components):
    page = components
    bert = page.locator("label", has_text="Bert")
    before = bert.evaluate("e => getComputedStyle(e).backgroundColor")
    assert bert.bounding_box()["height"] >= 44

    bert.click()

    expect(page.get_by_role("radio", name="Bert")).to_be_checked()
    assert bert.evaluate("e => getComputedStyle(e).backgroundColor") != before
    # Django's plain RadioSelect markup with class="choices" works the same way.
    page.locator("label", has_text="garde sans").click()
    expect(page.get_by_role("radio", name="garde sans")).to_be_checked()
    # A row of buttons, not a column of radios.
    boxes = [page.locator("label", has_text=n).bounding_box() for n in ("Anna", "Bert")]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]


def test_errors_are_summarised_and_shown_at_the_field(components):
    page = components
    summary = page.get_by_role("alert")
    expect(summary).to_contain_text("Please fix the following")
    expect(summary.get_by_role("link", name="Points")).to_have_attribute("href", "#id_points")
    points = page.get_by_label("Points")
    expect(points).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_points_error")).to_contain_text("less than or equal to 91")
    expect(page.locator("#id_points_error")).to_have_css("color", "rgb(179, 38, 30)")


def test_score_table_scrolls_with_a_sticky_first_column(components):
    page = components
    table = page.get_by_role("table")
    wrapper = table.locator("xpath=..")  # the .table-scroll frame around it
    first = table.get_by_role("cell").first
    x = first.bounding_box()["x"]
    wrapper.evaluate("e => e.scrollLeft = 400")
    assert wrapper.evaluate("e => e.scrollLeft") > 0
    assert first.bounding_box()["x"] == pytest.approx(x, abs=1)
    cell = table.get_by_role("cell").nth(1)  # the first score
    expect(cell).to_have_text("−22.5")
    expect(cell).to_have_css("text-align", "right")
    expect(cell).to_have_css("font-variant-numeric", "tabular-nums")


def test_notices_can_be_dismissed(components):
    page = components
    page.get_by_role("button", name="Dismiss").click()
    expect(page.locator("[data-messages]")).to_have_count(0)
