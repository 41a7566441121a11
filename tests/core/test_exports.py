"""core.exports: the one CSV writer, in the page's language."""

import csv
import io
from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from core.exports import csv_number, csv_text

numbers = st.one_of(
    st.integers(min_value=-(10**9), max_value=10**9),
    st.decimals(min_value=-(10**6), max_value=10**6, places=2, allow_nan=False),
    st.fractions(max_denominator=8).filter(lambda f: abs(f) < 10**6),
)


def exact(value):
    if isinstance(value, Fraction):
        return value
    return Fraction(Decimal(value))


@given(numbers)
def test_a_french_number_reads_back_with_a_comma(value):
    text = csv_number(value, "fr")
    assert "." not in text and " " not in text and "e" not in text.lower()
    read = Fraction(Decimal(text.replace(",", ".")))
    if isinstance(value, Fraction) and Decimal(value.denominator) not in {
        Decimal(2**a * 5**b) for a in range(4) for b in range(2)
    }:
        assert abs(read - value) < Fraction(1, 10**6)  # thirds: as many decimals as needed
    else:
        assert read == exact(value)


@given(numbers)
def test_an_english_number_has_no_comma(value):
    text = csv_number(value, "en")
    assert "," not in text
    assert Decimal(text) == Decimal(csv_number(value, "fr").replace(",", "."))


def test_csv_text_in_french_and_english():
    rows = [["Hélène", Decimal("21.2"), 81, Decimal("-25.50"), None], ["=cmd", 3, 0, 1, "x"]]
    french = csv_text(["Player", "Average", "Total", "Score", "Note"], rows, "fr")
    assert french.startswith("\ufeff")
    read = list(csv.reader(io.StringIO(french[1:]), delimiter=";"))
    assert read[1] == ["Hélène", "21,2", "81", "-25,5", ""]
    assert read[2][0] == "'=cmd"  # a formula stays text
    english = csv_text(["Player", "Average"], [["Hélène", Decimal("21.2")]], "en")
    assert list(csv.reader(io.StringIO(english[1:])))[1] == ["Hélène", "21.2"]
