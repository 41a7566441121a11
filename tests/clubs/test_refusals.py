"""clubs.refusals is the one wording of the engine's refusals for pages:

- every code the engine can raise (read from its source, not from a list kept by hand)
  is in ``tarot.CODES`` and has a French wording, translated, without its code or a
  field's identifier in the text, with the French typography (a no-break space before
  ":" ";" "?" "!");
- every way an engine refusal reaches a page goes through it: the services' errors
  (``ServiceError.from_scoring``), the rules form, the new sheet's form; no form, view
  or service shows a ``ScoringError``'s English ``message``.
"""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from clubs import rules_forms
from clubs.refusals import FIELD_LABELS, MESSAGES, message_of, refusal_message
from clubs.rules_forms import RulesFields
from clubs.services import ClubError, create_season
from scoresheet.forms.sheets import SheetForm
from scoresheet.services import LedgerError
from tarot import CODES, ScoringError
from tournaments.duplicate.services import DuplicateEventError
from tournaments.services import TournamentError

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "tarot"
NAME = re.compile(r"%\((\w+)\)s")
#: French punctuation that takes a space before it, and the spaces it may take
NO_BREAK = re.compile(r"(?<![\u00a0\u202f])[:;?!](?=\s|$)")


def _callee(node):
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def raised_codes():
    """Every literal code of a ``ScoringError`` raised in the engine's source: called
    directly, or through a module's helper that raises one with its first parameter as
    the code (``validate.refuse``, the Savoyard ``_refuse``)."""
    codes = {}
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        raisers = {"ScoringError"}
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.args.args:
                continue
            first = node.args.args[0].arg
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and _callee(inner) == "ScoringError"
                    and inner.args
                    and isinstance(inner.args[0], ast.Name)
                    and inner.args[0].id == first
                ):
                    raisers.add(node.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _callee(node) in raisers and node.args:
                code = node.args[0]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    codes.setdefault(code.value, where)
    return codes


def test_the_source_scan_finds_the_engines_codes():
    codes = raised_codes()
    # direct, through validate.refuse, through the Savoyard _refuse, through jsonformat._bad
    assert {"rules_invalid", "bouts_out_of_range", "counts_inconsistent", "invalid_field"} <= set(
        codes
    )
    assert len(codes) >= 30


def test_every_code_the_engine_raises_is_catalogued_and_worded():
    codes = raised_codes()
    unknown = {code: where for code, where in codes.items() if code not in CODES}
    assert not unknown, f"raised but not in tarot.CODES: {unknown}"
    unworded = sorted(set(CODES) - set(MESSAGES))
    assert not unworded, f"engine codes without a wording in clubs.refusals: {unworded}"


def _wordings(code):
    return [str(wording) for wording in MESSAGES[code]]


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_engine_code_has_a_french_wording(code):
    """Each wording of the code (with and without its values) is translated: the French
    differs from the English, keeps the same values, names no code nor identifier, and
    puts a no-break space before ":" ";" "?" "!"."""
    with translation.override("en"):
        english = _wordings(code)
    with translation.override("fr"):
        french = _wordings(code)
        plain = refusal_message(code)
    for en, fr in zip(english, french, strict=True):
        assert fr != en, f"{code}: {en!r} has no French translation"
        assert sorted(NAME.findall(fr)) == sorted(NAME.findall(en))
        shown = NAME.sub("x", fr)
        assert code not in shown and "_" not in shown, fr
        assert not NO_BREAK.search(shown), f"{code}: {fr!r} lacks a no-break space"
    assert plain and "%(" not in plain and code not in plain and "_" not in plain


@pytest.mark.parametrize("field", sorted(FIELD_LABELS))
def test_every_field_the_engine_names_is_worded_in_french(field):
    with translation.override("fr"):
        text = refusal_message("invalid_field", field, {})
        label = str(FIELD_LABELS[field])
    assert text == f"{label}\u00a0: cette valeur n’a pas la bonne forme."
    assert "_" not in text


def test_a_field_no_page_names_leaves_the_wording_without_it():
    """An option read from a file ("baga_x") or the whole rules: the plain wording, never
    the identifier."""
    with translation.override("fr"):
        assert refusal_message("rules_invalid", "baga_x") == "Ces règles ne sont pas valables."
        assert refusal_message("rules_invalid", "rules") == "Ces règles ne sont pas valables."
        assert (
            refusal_message("rules_invalid", "rules", {"value": "tarok", "allowed": "fft"})
            == "«\u00a0tarok\u00a0» n’est pas une des règles connues ici (fft)."
        )
        assert (
            refusal_message("rules_invalid", "rounding")
            == "Ces règles ne sont pas valables (arrondi)."
        )


# ---------------------------------------------------------------- every way to a page


def _rounding_refused():
    return ScoringError("rules_invalid", "rules: rounding must be 1, 5 or 10", field="rounding")


def _bouts_refused():
    return ScoringError(
        "bouts_out_of_range",
        "bouts: 4 is not 0, 1, 2 or 3",
        field="bouts",
        params={"value": 4, "most": 3},
    )


@pytest.mark.parametrize(
    "error_class", [ClubError, LedgerError, TournamentError, DuplicateEventError]
)
def test_every_service_error_words_the_engine_in_the_page_language(error_class):
    with translation.override("fr"):
        error = error_class.from_scoring(_bouts_refused())
    assert error.message == "Bouts\u00a0: 4\u202f; une donne compte de 0 à 3 bouts."
    assert error.code == "bouts_out_of_range" and error.field == "bouts"
    assert error.params == {"value": 4, "most": 3}
    assert error.engine_message == "bouts: 4 is not 0, 1, 2 or 3"
    with translation.override("en"):
        error = error_class.from_scoring(_bouts_refused())
    assert error.message == "Bouts: 4; a hand has 0 to 3 bouts."


def test_every_class_passing_the_engine_on_words_it():
    """Each ``X.from_scoring(…)`` in the apps names a class checked above (a new one
    fails here until it gives ``scoring_wording`` and is added)."""
    checked = {"ClubError", "LedgerError", "TournamentError", "DuplicateEventError"}
    found = set()
    for path in ROOT.glob("*/**/*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in ("tests", "tarot") or any(p.startswith(".") for p in parts):
            continue
        found |= set(re.findall(r"(\w+)\.from_scoring\(", path.read_text(encoding="utf-8")))
    assert found and found <= checked, found - checked
    for error_class in (ClubError, LedgerError, TournamentError, DuplicateEventError):
        assert error_class.scoring_wording is not None


#: Modules whose engine refusals are for a terminal or a log, in the engine's English.
FOR_LOGS = ("management/commands/", "scoresheet/rules_check.py")


def _catches_scoring_error(handler):
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(getattr(kind, "id", getattr(kind, "attr", None)) == "ScoringError" for kind in kinds)


def test_no_page_shows_an_engine_message():
    """No ``except ScoringError as error`` of a form, view or service reads
    ``error.message`` (the engine's English): it goes through ``clubs.refusals``."""
    wrong = []
    for path in ROOT.glob("*/**/*.py"):
        relative = path.relative_to(ROOT).as_posix()
        top = relative.split("/")[0]
        if top in ("tests", "tarot", "benchmarks") or relative.startswith("."):
            continue
        if any(part in relative for part in FOR_LOGS) or "/migrations/" in relative:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ExceptHandler) or not node.name or not node.type:
                continue
            if not _catches_scoring_error(node):
                continue
            for inner in ast.walk(ast.Module(body=node.body, type_ignores=[])):
                if (
                    isinstance(inner, ast.Attribute)
                    and inner.attr == "message"
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id == node.name
                ):
                    wrong.append(f"{relative}:{inner.lineno}")
    assert not wrong, wrong


@pytest.mark.parametrize(
    "language, expected",
    [
        ("fr", "Ces règles ne sont pas valables (baga au bout)."),
        ("en", "These rules are not valid (baga au bout)."),
    ],
)
def test_the_rules_form_words_an_engine_refusal_on_its_field(monkeypatch, language, expected):
    """The form's fields keep the engine from refusing today (choices, bounds): a refusal
    (an option the engine checks more strictly tomorrow) lands on its field, worded."""

    def refuse(rules):
        raise ScoringError("rules_invalid", "rules: baga must be a whole number", field="baga")

    monkeypatch.setattr(rules_forms, "parse_rules", refuse)
    data = {
        "preset": "savoyard",
        "rounding": "1",
        "poignee_single": "20",
        "poignee_double": "30",
        "poignee_triple": "40",
        "misere": "0",
        "five_player_split": "two_to_one",
        "savoyard_deck": "78",
        "savoyard_count": "classic",
        "savoyard_baga": "10",
    }
    with translation.override(language):
        form = RulesFields(data)
        assert not form.is_valid()
        assert form.errors["savoyard_baga"] == [expected]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, expected",
    [
        ("fr", "Ces règles ne sont pas valables (arrondi)."),
        ("en", "These rules are not valid (rounding)."),
    ],
)
def test_a_season_whose_rules_the_engine_refuses_is_said_on_the_sheet_form(
    club, season, players, language, expected
):
    """Stored rules the engine no longer reads (written before a check it now makes):
    the new sheet is refused on the season, in the page's language, no identifier."""
    type(season).objects.filter(pk=season.pk).update(rules={"preset": "fft", "rounding": 3})
    data = {"season": season.pk, "date": "2026-03-14", "table": "1"}
    data.update({f"seat_{n}": players[n - 1].pk for n in range(1, 5)})
    with translation.override(language):
        form = SheetForm(data, club=club)
        assert not form.is_valid()
        assert form.errors["season"] == [expected]


@pytest.mark.django_db
def test_a_season_service_refusal_is_french(club, manager):
    with translation.override("fr"), pytest.raises(ClubError) as refused:
        create_season(
            club, "2027", "2027-01-01", None, {"preset": "fft", "rounding": 3}, actor=manager
        )
    assert refused.value.message == "Ces règles ne sont pas valables (arrondi)."
    assert refused.value.field == "rounding"


def test_message_of_keeps_the_engine_english_only_for_a_code_it_does_not_know():
    error = ScoringError("a_new_code", "something new")
    with translation.override("fr"):
        assert message_of(error) == "something new"
        assert message_of(_rounding_refused()) == "Ces règles ne sont pas valables (arrondi)."
