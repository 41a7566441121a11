"""Text helpers every app may use: the accent-insensitive sort key of a name, short
labels, and whether two names look alike (a near-duplicate player)."""

import unicodedata

SORT_KEY_LENGTH = 200

#: Letters NFKD leaves whole, spelt out as a French reader sorts them ("Œdipe" as "oedipe").
_SPELT = str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "ı": "i"})


def sort_key(name: str) -> str:
    """``name`` as it sorts for a French reader: accents and case ignored.

    NFKD splits "É" into "E" and a combining accent, which is dropped; casefold
    then folds case ("ß" → "ss"); "œ" and "æ" are spelt out. "Élodie" sorts with
    "Elodie", before "Zoë"; "Hélène" before "Hugo". Stored on the row
    (``Player.sort_key``), so the database orders by it the same way on SQLite and
    PostgreSQL.
    """
    decomposed = unicodedata.normalize("NFKD", str(name or ""))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold().translate(_SPELT).strip()[:SORT_KEY_LENGTH]


def short_names(names, *, longest: int = 5) -> list[str]:
    """A short label per name, unique among ``names``, for narrow score columns.

    The shortest prefix of 3 to ``longest`` letters that no other name starts
    with ("Anna", "Anne" → "Anna", "Anne"; "Bertrand" → "Ber"); else the
    initials of the words with any digits ("Member 01" → "M01"); else the first
    letters and the seat number. Each page shows the full name beside it.
    """
    names = [str(n) for n in names]
    out = []
    for seat, name in enumerate(names, start=1):
        others = [n.casefold() for i, n in enumerate(names, start=1) if i != seat]
        label = None
        for length in range(3, longest + 1):
            prefix = name[:length]
            if not any(o.startswith(prefix.casefold()) for o in others):
                label = prefix
                break
        if label is None and len(name) <= longest and name.casefold() not in others:
            label = name
        if label is None:
            words = name.replace("-", " ").split()
            initials = "".join(w if w.isdigit() else w[0] for w in words)[:longest]
            taken = [short.casefold() for short in out] + others
            label = initials if initials.casefold() not in taken and len(initials) > 1 else None
        out.append(label or f"{name[:2]}{seat}")
    return out


# ---------------------------------------------------------------- names that look alike


def name_key(name: str) -> str:
    """The name as compared: accents dropped, case folded, spaces collapsed
    (“  hélène ” and “Helene” are the same player)."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def loose_key(name: str) -> str:
    """``name_key`` without spaces, hyphens and apostrophes: "Jean-Pierre", "jean pierre"
    and "JeanPierre" look alike."""
    return "".join(c for c in name_key(name) if c not in " -'’.")


def looks_alike(typed: str, existing: str) -> bool:
    """Whether a new name ``typed`` looks like the ``existing`` name of someone else:
    not the same name (``name_key``: accents, case and spaces aside, that is the same
    player), but equal without spaces and hyphens, or a small typing distance away
    (1 letter for a name of up to 5 letters, 2 beyond: "Berte" and "Bert", "Ana" and
    "Anna", "Hélèna" and "Hélène"). Symmetric."""
    if name_key(typed) == name_key(existing):
        return False
    a, b = loose_key(typed), loose_key(existing)
    limit = 1 if min(len(a), len(b)) <= 5 else 2
    return a == b or edit_distance(a, b, limit) <= limit


def edit_distance(a: str, b: str, limit: int) -> int:
    """The Levenshtein distance of ``a`` and ``b``, or ``limit + 1`` once it exceeds
    ``limit`` (a banded computation: cheap for a club's whole list)."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
        if min(current) > limit:
            return limit + 1
        previous = current
    return min(previous[-1], limit + 1)
