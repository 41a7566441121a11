"""The forms' renderer (``FORM_RENDERER``): Django's own, with its commonest templates in Python.

A form's widgets and error lists are small templates, rendered one include at a
time (a radio button is four: the list, the option, the input, its attributes):
the hand form's twelve fields cost a third of its page. ``FastTemplates`` writes
the same HTML, byte for byte, for the templates Django ships for inputs (text,
number, date, hidden, checkbox…), radio and checkbox lists, selects and their
options, and the error list; any other template (or one a project overrides)
goes through Django's renderer as before. ``tests/core/test_forms_renderer.py``
renders every case both ways and compares them.
"""

from types import SimpleNamespace

from django.forms.renderers import DjangoTemplates
from django.template.base import render_value_in_context
from django.utils.html import escape
from django.utils.safestring import SafeData, mark_safe

#: The rendering context of a form's template: autoescaped, the active locale.
_CONTEXT = SimpleNamespace(autoescape=True, use_l10n=None, use_tz=None)

_WIDGETS = "django/forms/widgets/"


def _text(value) -> str:
    """``{{ value }}``."""
    return render_value_in_context(value, _CONTEXT)


def _formatted(value) -> str:
    """``{{ value|stringformat:'s' }}`` (a safe string stays as it is)."""
    text = str(value)
    return text if isinstance(value, SafeData) else escape(text)


def _attrs(attrs) -> str:
    """``attrs.html``."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        if value is True:
            out.append(f" {_text(name)}")
        else:
            out.append(f' {_text(name)}="{_formatted(value)}"')
    return "".join(out)


def _input(widget) -> str:
    """``input.html`` (and text, number, date, hidden, checkbox… which include it)."""
    value = widget["value"]
    value = "" if value is None else f' value="{_formatted(value)}"'
    return (
        f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"'
        f"{value}{_attrs(widget['attrs'])}>"
    )


def _input_option(widget) -> str:
    """``input_option.html``: it includes ``input.html``, newline and all."""
    if not widget["wrap_label"]:
        return _input(widget) + "\n\n"
    id_ = widget["attrs"].get("id")
    label_for = f' for="{_text(id_)}"' if id_ else ""
    return f"<label{label_for}>{_input(widget)}\n {_text(widget['label'])}</label>\n"


def _then(write, suffix):
    """A template of ``PYTHON`` that writes its widget with ``write`` and ``suffix``
    after it (the newlines an include adds)."""
    return lambda self, context: write(context["widget"]) + suffix


class FastTemplates(DjangoTemplates):
    """``django.forms.renderers.DjangoTemplates``, with the templates of ``PYTHON`` in Python."""

    def render(self, template_name, context, request=None):
        if template_name not in self.PYTHON:
            return super().render(template_name, context, request=request)
        # escaped as the template does
        return mark_safe(self._raw(template_name, context).strip())  # noqa: S308

    def _raw(self, template_name, context) -> str:
        """The template's output as an include writes it: not stripped (each of
        Django's widget templates ends with a newline)."""
        write = self.PYTHON.get(template_name)
        if write is None:
            return self.get_template(template_name).render(context)
        return write(self, context)

    def _option(self, option) -> str:
        """``{% include option.template_name with widget=option %}``."""
        return self._raw(option["template_name"], {"widget": option})

    def _multiple_input(self, context) -> str:
        """``multiple_input.html`` (radio, checkbox_select)."""
        widget = context["widget"]
        id_ = widget["attrs"].get("id")
        css = widget["attrs"].get("class")
        out = ["<div"]
        if id_:
            out.append(f' id="{_text(id_)}"')
        if css:
            out.append(f' class="{_text(css)}"')
        out.append(">")
        out += self._grouped(
            widget, ("\n  <div><label>", "</label>"), ("<div>\n    ", "</div>"), "\n  </div>"
        )
        out.append("\n</div>\n")
        return "".join(out)

    def _select(self, context) -> str:
        """``select.html``."""
        widget = context["widget"]
        out = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
        out += self._grouped(
            widget, ('\n  <optgroup label="', '">'), ("\n  ", ""), "\n  </optgroup>"
        )
        out.append("\n</select>\n")
        return "".join(out)

    def _grouped(self, widget, group, option, end) -> list[str]:
        """The widget's options in their groups (``optgroups``), as both templates
        loop over them: a group's label between ``group``'s two parts, each option
        between ``option``'s, ``end`` after a group."""
        out = []
        for label, options, _index in widget["optgroups"]:
            if label:
                out.append(f"{group[0]}{_text(label)}{group[1]}")
            out.extend(f"{option[0]}{self._option(each)}{option[1]}" for each in options)
            if label:
                out.append(end)
        return out

    def _select_option(self, context) -> str:
        """``select_option.html``."""
        widget = context["widget"]
        return (
            f'<option value="{_formatted(widget["value"])}"{_attrs(widget["attrs"])}>'
            f"{_text(widget['label'])}</option>\n"
        )

    def _errors(self, context) -> str:
        """``errors/list/default.html`` and ``ul.html``."""
        errors = context["errors"]
        if not errors:
            return ""
        field_id = getattr(errors, "field_id", None)
        out = [f'<ul class="{_text(context["error_class"])}"']
        if field_id:
            out.append(f' id="{_text(field_id)}_error"')
        out.append(">")
        out.extend(f"<li>{_text(error)}</li>" for error in errors)
        out.append("</ul>")
        return "".join(out)

    PYTHON = {
        f"{_WIDGETS}input.html": _then(_input, "\n"),
        **{  # each includes input.html
            f"{_WIDGETS}{name}.html": _then(_input, "\n\n")
            for name in (
                "text",
                "number",
                "email",
                "url",
                "password",
                "hidden",
                "date",
                "datetime",
                "time",
                "checkbox",
                "search",
                "tel",
                "color",
            )
        },
        f"{_WIDGETS}input_option.html": _then(_input_option, ""),
        **{  # each includes input_option.html
            f"{_WIDGETS}{name}.html": _then(_input_option, "\n")
            for name in ("radio_option", "checkbox_option")
        },
        f"{_WIDGETS}multiple_input.html": _multiple_input,
        **{  # each includes multiple_input.html
            f"{_WIDGETS}{name}.html": lambda self, context: self._multiple_input(context) + "\n"
            for name in ("radio", "checkbox_select")
        },
        f"{_WIDGETS}select.html": _select,
        f"{_WIDGETS}select_option.html": _select_option,
        "django/forms/errors/list/default.html": _errors,
        "django/forms/errors/list/ul.html": _errors,
    }
