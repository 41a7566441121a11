"""Browser tests find elements by role, label, text or a ``data-`` hook, never by a class
that styles them: a restyled page must not break a test that still passes for
its users.

The test modules under tests/browser/ are read, not run. A selector is a string in a
place where Playwright reads a CSS selector:

* the first argument of ``locator``, ``query_selector(_all)``, ``wait_for_selector``,
  ``eval_on_selector(_all)``, ``frame_locator`` (and both of ``drag_and_drop``);
* the first argument of a page-level action given a selector (``page.click(sel)``,
  ``page.fill(sel, value)``: a Locator's own ``click()`` takes no string, its
  ``fill(value)`` one only);
* a string handed to a page script (``evaluate``, ``evaluate_all``…) as its argument,
  and, inside the script's own text, a literal given to ``querySelector(All)``,
  ``closest`` or ``matches`` (``getElementsByClassName`` is refused outright);
* what a variable assigned in the same function (or the module) holds, and what is
  passed to a helper of the same module whose parameter ends up in one of these places.

A selector uses a class when, outside quoted strings and ``[attribute]`` brackets, a dot
is followed by a letter: ``.badge``, ``form.hand-form``, ``:not(.x)``.
"""

import ast
import re
from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"

#: Selectors allowed to keep a class, each with the reason it has no other handle.
#: Keep it short: prefer a role, a label, the text, or a ``data-`` hook in the template.
ALLOWED = {}

SELECTOR_FIRST = {
    "locator",
    "query_selector",
    "query_selector_all",
    "wait_for_selector",
    "eval_on_selector",
    "eval_on_selector_all",
    "frame_locator",
}
SELECTOR_ALL = {"drag_and_drop"}
#: Page (or Frame) actions whose Locator twin takes no positional argument at all.
PAGE_ACTIONS_ALONE = {
    "click",
    "dblclick",
    "tap",
    "check",
    "uncheck",
    "hover",
    "focus",
    "is_visible",
    "is_hidden",
    "is_checked",
    "is_enabled",
    "is_disabled",
    "is_editable",
    "inner_text",
    "inner_html",
    "text_content",
    "input_value",
}
#: Page actions whose Locator twin takes one value: a selector only when there are two.
PAGE_ACTIONS_WITH_VALUE = {
    "fill",
    "type",
    "press",
    "select_option",
    "set_input_files",
    "dispatch_event",
    "get_attribute",
}
SCRIPTS = {
    "evaluate",
    "evaluate_all",
    "evaluate_handle",
    "wait_for_function",
    "add_init_script",
    "eval_on_selector",
    "eval_on_selector_all",
}
#: Playwright selector engines that are not CSS.
NOT_CSS = re.compile(r"^\s*(text=|xpath=|id=|role=|internal:|//|\.\.)")
JS_SELECTOR = re.compile(
    r"""\b(?:querySelector(?:All)?|closest|matches)\(\s*(["'`])(.*?)\1""", re.DOTALL
)
JS_CLASS_LOOKUP = re.compile(r"\bgetElementsByClassName\b")
QUOTED = re.compile(r""""[^"]*"|'[^']*'""")
BRACKETS = re.compile(r"\[[^\]]*\]")
CLASS = re.compile(r"\.-?[A-Za-z_][\w-]*")


def class_selectors(selector):
    """The class parts of a CSS selector: ``["form.hand-form", ...]`` → ``[".hand-form"]``."""
    if NOT_CSS.match(selector):
        return []
    bare = BRACKETS.sub("[]", QUOTED.sub('""', selector))
    return CLASS.findall(bare)


def script_class_selectors(script):
    found = [c for _q, sel in JS_SELECTOR.findall(script) for c in class_selectors(sel)]
    if JS_CLASS_LOOKUP.search(script):
        found.append("getElementsByClassName")
    return found


def text_of(node):
    """The string a constant, an f-string (placeholders as ``X``) or a sum of them makes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else "X" for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text_of(node.left), text_of(node.right)
        if left is not None and right is not None:
            return left + right
    return None


class Scope:
    """The string values each plain name is assigned in a function (or the module)."""

    def __init__(self, node, parent=None):
        self.parent = parent
        self.values = {}
        for child in walk_here(node.body):
            if isinstance(child, ast.Assign):
                for target in child.targets:
                    if isinstance(target, ast.Name):
                        self.values.setdefault(target.id, []).append(child.value)

    def strings(self, node):
        """Every string ``node`` may be: itself, or what its name was assigned."""
        text = text_of(node)
        if text is not None:
            return [(text, node.lineno)]
        if isinstance(node, (ast.List, ast.Tuple)):
            return [s for item in node.elts for s in self.strings(item)]
        if isinstance(node, ast.Name):
            scope = self
            while scope is not None:
                if node.id in scope.values:
                    return [s for value in scope.values[node.id] for s in scope.strings(value)]
                scope = scope.parent
        return []


def walk_here(body):
    """The nodes of a body; a nested function or class is one of them, not its insides."""
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def selector_args(call):
    """(selector nodes, script nodes, script-argument nodes) of one call."""
    if not isinstance(call.func, ast.Attribute):
        return [], [], []
    name, args = call.func.attr, call.args
    selectors, scripts, script_args = [], [], []
    if name in SELECTOR_FIRST and args:
        selectors.append(args[0])
    if name in SELECTOR_ALL:
        selectors.extend(args)
    if name in PAGE_ACTIONS_ALONE and args:
        selectors.append(args[0])
    if name in PAGE_ACTIONS_WITH_VALUE and len(args) >= 2:
        selectors.append(args[0])
    if name in SCRIPTS:
        first = 1 if name.startswith("eval_on_selector") else 0
        scripts.extend(args[first : first + 1])
        script_args.extend(args[first + 1 :])
        script_args.extend(kw.value for kw in call.keywords if kw.arg == "arg")
    return selectors, scripts, script_args


def problems_in(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = Scope(tree)
    functions = {
        node.name: node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    found = []
    # which parameters of the module's helpers reach a selector or a script
    reaching = {}  # function name -> {parameter index: kind}

    def check(scope, node, kind):
        for text, line in scope.strings(node):
            classes = class_selectors(text) if kind == "css" else script_class_selectors(text)
            if classes and (path.name, text) not in ALLOWED:
                found.append(f"{path.name}:{line}: {text!r} uses {', '.join(classes)}")

    def visit(owner, scope):
        params = []
        if not isinstance(owner, ast.Module):
            params = [a.arg for a in owner.args.posonlyargs + owner.args.args]
        for node in walk_here(owner.body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node, Scope(node, scope))
                continue
            if not isinstance(node, ast.Call):
                continue
            selectors, scripts, script_args = selector_args(node)
            for kind, nodes in (("css", selectors + script_args), ("js", scripts)):
                for arg in nodes:
                    check(scope, arg, kind)
                    if isinstance(arg, ast.Name) and arg.id in params:
                        reaching.setdefault(owner.name, {})[params.index(arg.id)] = kind

    visit(tree, module)
    # what the module's own code passes to those helpers
    for owner in ast.walk(tree):
        if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        scope = Scope(owner, module) if owner is not tree else module
        for node in walk_here(owner.body):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in reaching
                and node.func.id in functions
            ):
                for index, kind in reaching[node.func.id].items():
                    if index < len(node.args):
                        check(scope, node.args[index], kind)
    return found


def browser_modules():
    return sorted(BROWSER_TESTS.glob("*.py"))


@pytest.mark.parametrize("path", browser_modules(), ids=lambda p: p.name)
def test_browser_tests_select_by_role_or_data_hook(path):
    problems = problems_in(path)
    assert not problems, "class selectors in a browser test:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "selector",
    [
        ".badge",
        "h1 .badge",
        "form.hand-form input",
        "details.hand-extras > summary",
        "#hand-1 + .explain-row summary",
        'tr[data-hand="2"] .badge',
        "td:not(.total)",
    ],
)
def test_the_guard_sees_a_class(selector):
    assert class_selectors(selector)


@pytest.mark.parametrize(
    "selector",
    [
        "[data-messages]",
        '#hand-preview [data-player="Dr. Who"]',
        "input[name=old_password]",
        "tfoot td[data-total]",
        "#id_points",
        'a[href$=".csv"]',
        "text=Mr. Smith",
        "..",
    ],
)
def test_the_guard_lets_hooks_ids_and_attributes_pass(selector):
    assert not class_selectors(selector)


def test_the_guard_reads_scripts_variables_and_helpers(tmp_path):
    source = """
SEL = "main .badge"

def helper(page, selector):
    return page.locator(selector)

def test_x(page):
    wanted = "form.hand-form input"
    page.evaluate("() => document.querySelectorAll('.total').length")
    page.evaluate("([s]) => document.querySelector(s)", [wanted])
    page.locator(SEL)
    helper(page, "td.num")
    page.fill("input.big", "56")
    page.locator("#id_points").fill("bob@example.org")
    page.evaluate("document.documentElement.scrollWidth")
"""
    path = tmp_path / "test_sample.py"
    path.write_text(source)
    found = "\n".join(problems_in(path))
    for selector in (".total", "form.hand-form", "main .badge", "td.num", "input.big"):
        assert selector in found, selector
    assert "example.org" not in found and "scrollWidth" not in found
    assert len(problems_in(path)) == 5
