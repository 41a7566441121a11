"""Form widgets shared by the apps' forms and filters."""

from django import forms


class DateInput(forms.DateInput):
    """A browser date picker (``<input type="date">``), which wants ISO dates."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")
