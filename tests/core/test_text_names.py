"""core.text: whether a new name looks like an existing player's (near-duplicates)."""

from hypothesis import assume, given
from hypothesis import strategies as st

from core.text import edit_distance, looks_alike, loose_key, name_key

letters = st.sampled_from("abcdefghijklmnopqrstuvwxyzéèêàçï")
names = st.text(alphabet=letters, min_size=2, max_size=12)


def levenshtein(a, b):
    """The textbook full table, to check the banded one against."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


@given(st.text(max_size=10), st.text(max_size=10), st.integers(min_value=0, max_value=4))
def test_edit_distance_is_levenshtein_up_to_the_limit(a, b, limit):
    assert edit_distance(a, b, limit) == min(levenshtein(a, b), limit + 1)


@given(names, names)
def test_looks_alike_is_symmetric(a, b):
    assert looks_alike(a, b) == looks_alike(b, a)


@given(names)
def test_the_same_name_in_other_case_or_accents_is_that_player_not_a_near_duplicate(name):
    assert not looks_alike(name, name)
    assert not looks_alike(name.upper(), name)
    bare = name_key(name)
    assert not looks_alike(bare, name)  # "Helene" is Hélène, not someone like her
    assert not looks_alike(f"  {name.title()} ", name)


@given(names, st.integers(min_value=0, max_value=11), letters, st.sampled_from("sid"))
def test_one_letter_apart_looks_alike(name, at, letter, edit):
    at = at % len(name)
    if edit == "s":
        typed = name[:at] + letter + name[at + 1 :]
    elif edit == "i":
        typed = name[:at] + letter + name[at:]
    else:
        typed = name[:at] + name[at + 1 :]
    assume(len(loose_key(typed)) >= 1 and name_key(typed) != name_key(name))
    assert looks_alike(typed, name)


@given(names, names)
def test_far_apart_names_do_not_look_alike(a, b):
    la, lb = loose_key(a), loose_key(b)
    assume(levenshtein(la, lb) > 2)
    assert not looks_alike(a, b)


def test_examples():
    assert looks_alike("Berte", "Bert")
    assert looks_alike("Jean Pierre", "Jean-Pierre")
    assert looks_alike("Hélèna", "Hélène")
    assert not looks_alike("Helene", "Hélène")
    assert not looks_alike("Christophe", "Christine")


@given(st.text(alphabet=letters, min_size=4, max_size=6), letters, letters)
def test_symmetric_across_the_five_letter_threshold(name, x, y):
    longer = name + x + y  # two letters more: 1 allowed for the short one, 2 for the long
    assert looks_alike(name, longer) == looks_alike(longer, name)
