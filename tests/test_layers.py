"""Dependencies flow one way, and no module imports itself back through others.

    config, benchmarks  →  standings, stats, tournaments (read side)
                        →  scoresheet (sheets, hands, the ledger: the write side)
                        →  clubs (clubs, players, members, seasons, house rules)
                        →  tarot (the engine: pure Python, no Django)
    core: shared presentation helpers; it may use the engine, no app.

Every ``import`` of the project's modules is read from the source (at any depth
in a module, so a lazy import counts too); tests and migrations aside.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "tarot"
LAYERS = {
    "clubs": 1,
    "scoresheet": 2,
    "standings": 3,
    "stats": 3,
    "tournaments": 3,
    "transfer": 3,
}
SKIPPED = {"tests", "migrations", ".venv", "static", "templates", "locale", "node_modules"}


def project_modules():
    modules = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED or p.startswith(".") or p.endswith(".egg-info") for p in parts):
            continue
        name = ".".join(parts)[: -len(".py")]
        modules[name.removesuffix(".__init__")] = path
    return modules


MODULES = project_modules()
TOPS = {name.split(".")[0] for name in MODULES}


def imports_of(name, path):
    """The project modules (and 'django') that ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            targets = [f"{prefix}.{alias.name}" for alias in node.names] + [prefix]
        else:
            continue
        for target in targets:
            while target and target not in MODULES and "." in target:
                target = target.rpartition(".")[0]
            if target in MODULES and target != name:
                found.add(target)
            elif target.split(".")[0] == "django":
                found.add("django")
    return found


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def layer(name):
    if name == ENGINE or name.startswith(ENGINE + "."):
        return 0
    return LAYERS.get(name.split(".")[0])


def test_the_engine_is_pure_python():
    wrong = [
        f"{name} imports {dep}"
        for name, deps in GRAPH.items()
        if layer(name) == 0
        for dep in deps
        if dep == "django" or layer(dep) != 0
    ]
    assert not wrong, wrong


def test_apps_import_only_downwards():
    wrong = []
    for name, deps in GRAPH.items():
        mine = layer(name)
        for dep in deps - {"django"}:
            theirs = layer(dep)
            if name.split(".")[0] == "core" and theirs not in (None, 0):
                wrong.append(f"{name} (core) imports the app module {dep}")
            elif mine is not None and theirs is not None and theirs > mine:
                wrong.append(f"{name} imports {dep}, which sits above it")
            elif mine is not None and dep.split(".")[0] in ("config", "benchmarks"):
                wrong.append(f"{name} imports {dep}")
    assert not wrong, "\n".join(sorted(wrong))


def test_no_module_cycle():
    """Depth-first search: a module reached again while still on the path is a cycle."""
    state, cycles = {}, []

    def visit(name, path):
        state[name] = "open"
        for dep in sorted(GRAPH.get(name, ()) - {"django"}):
            if state.get(dep) == "open":
                cycles.append(" → ".join(path[path.index(dep) :] + [dep]))
            elif dep not in state:
                visit(dep, path + [dep])
        state[name] = "done"

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert not cycles, cycles


def test_the_reader_sees_every_app():
    """The checks above read the apps they name (a renamed app would pass unseen)."""
    assert {"clubs", "scoresheet", "core", "standings", "stats"} <= TOPS
    assert any(layer(name) == 0 for name in MODULES)


def test_read_side_apps_do_not_import_each_other():
    """Two apps of the same layer (the read side's standings, stats, tournaments…) share
    what they both need through a lower layer, never one through the other."""
    wrong = sorted(
        f"{name} imports {dep}"
        for name, deps in GRAPH.items()
        for dep in deps - {"django"}
        if layer(name) is not None
        and layer(name) == layer(dep)
        and name.split(".")[0] != dep.split(".")[0]
    )
    assert not wrong, "\n".join(wrong)
