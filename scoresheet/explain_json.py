"""An engine ``Explanation`` as plain JSON data, to store it (a JSONField) and render it later.

The JSON form of one ``Term`` is ``[kind, value, label, params]``:

* ``kind``: ``"num"``, ``"op"`` or ``"text"``;
* ``value``: a num's number, an op's symbol, ``null`` for a text;
* ``label``: a message key of ``scoring.explain.LABELS``, or ``null``;
* ``params``: a text's ``[name, value]`` pairs, where a value is a number, a string,
  a list of numbers, or ``{"signed": number}`` for a number shown with its sign.

Numbers are written as JSON integers when whole and as floats otherwise: scores
move in half points, which a binary float holds exactly. Reading turns floats
back into ``Decimal`` (through their shortest repr, so 22.5 is Decimal("22.5")).
"""

from decimal import Decimal

from core.jsonnumbers import json_number
from tarot.explain import Explanation, Signed, Term

KINDS = ("num", "op", "text")


def _number_to_json(value):
    if value is None:
        raise TypeError(f"not a number: {value!r}")
    return json_number(value)


def _number_from_json(value):
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise ValueError(f"explanation: expected a number, got {value!r}")
    if isinstance(value, float):
        return Decimal(repr(value))
    return value


def _param_to_json(value):
    if isinstance(value, Signed):
        return {"signed": _number_to_json(value.value)}
    if isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        return [_number_to_json(v) for v in value]
    return _number_to_json(value)


def _param_from_json(value):
    if isinstance(value, dict):
        if set(value) != {"signed"}:
            raise ValueError(f"explanation: unknown parameter object {value!r}")
        return Signed(_number_from_json(value["signed"]))
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return tuple(_number_from_json(v) for v in value)
    return _number_from_json(value)


def terms_to_json(explanation) -> list:
    """``Explanation`` (or a sequence of ``Term``) → a list of JSON-ready lists."""
    terms = explanation.terms if isinstance(explanation, Explanation) else explanation
    out = []
    append = out.append
    for kind, value, label, params in terms:  # a Term is a NamedTuple
        if kind == "num":
            # an int as it is (the usual case, checked first), else ``json_number``
            value = value if type(value) is int else _number_to_json(value)
        append(
            [
                kind,
                value,
                label,
                [[name, _param_to_json(v)] for name, v in params] if params else [],
            ]
        )
    return out


def terms_from_json(data) -> Explanation:
    """The inverse of ``terms_to_json``; raises ``ValueError`` on malformed data."""
    if not isinstance(data, (list, tuple)):
        raise ValueError(f"explanation: expected a list of terms, got {type(data).__name__}")
    terms = []
    for item in data:
        if not isinstance(item, (list, tuple)) or not 1 <= len(item) <= 4:
            raise ValueError(f"explanation: a term is [kind, value, label, params], got {item!r}")
        kind, value, label, params = (*item, None, None, None)[:4]
        if kind not in KINDS:
            raise ValueError(f"explanation: unknown term kind {kind!r}")
        if kind == "num":
            value = _number_from_json(value)
        elif kind == "op" and not isinstance(value, str):
            raise ValueError(f"explanation: an operator is a string, got {value!r}")
        if label is not None and not isinstance(label, str):
            raise ValueError(f"explanation: a label is a message key, got {label!r}")
        pairs = tuple((str(name), _param_from_json(v)) for name, v in params or ())
        terms.append(Term(kind, value, label, pairs))
    return Explanation(tuple(terms))
