import json
from decimal import Decimal

import pytest

from core.jsonnumbers import json_number


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        (0, 0),
        (-46, -46),
        (Decimal("28"), 28),
        (Decimal("28.0"), 28),
        (Decimal("45.5"), 45.5),
        (Decimal("-22.5"), -22.5),
        (12.0, 12),
        (0.5, 0.5),
    ],
)
def test_whole_numbers_are_ints_and_half_points_floats(value, expected):
    out = json_number(value)
    assert out == expected and type(out) is type(expected)


@pytest.mark.parametrize("value", [True, "12", object(), [1]])
def test_anything_else_is_refused(value):
    with pytest.raises(TypeError):
        json_number(value)


def test_it_serves_as_json_dumps_default():
    text = json.dumps({"a": Decimal("22.5"), "b": Decimal("-4")}, default=json_number)
    assert text == '{"a": 22.5, "b": -4}'
    with pytest.raises(TypeError):
        json.dumps({"when": object()}, default=json_number)
