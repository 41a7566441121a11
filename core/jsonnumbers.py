"""Numbers as JSON writes them: the hand preview, the sheet exports, stored explanations."""

from decimal import Decimal


def json_number(value):
    """A number for JSON: an int when whole, else a float (scores and card points move in
    half points, which a binary float holds exactly); ``None`` stays ``null``.

    It also serves as ``json.dumps(..., default=json_number)``, which hands it the
    Decimals of a sheet: anything that is not a number raises ``TypeError``, as
    ``default`` must.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise TypeError(f"not a number: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    raise TypeError(f"not a number: {value!r}")
