"""Dependencies flow one way, and no module imports itself back through others.

    config, benchmarks  →  api (the JSON API: reads the pages' queries, writes through the
                           services)
                        →  competitions (team competitions: divisions, cups, team matches)
                        →  leagues (clubs together; reads tournaments, which never import it:
                           they send a signal when a tournament closes)
                        →  clubhouse, standings, stats, tournaments, transfer (read side;
                           none of them imports another)
                        →  ratings (players' ratings, kept on write: scoresheet's signals)
                        →  scoresheet (sheets, hands, the ledger: the write side)
                        →  clubs (clubs, players, persons, members, seasons, house rules)
                        →  tarot (the engine: pure Python, no Django)
    core: helpers any Django project could use; it imports no app and not the engine.

Every ``import`` of the project's modules is read from the source (at any depth
in a module); an import inside a function between two apps is refused, since it
hides a dependency. Tests and migrations aside.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {
    "tarot": 0,
    "clubs": 1,
    "scoresheet": 2,
    # kept on write through scoresheet's signals (scoresheet never imports it); the
    # read side shows it
    "ratings": 2.5,
    "clubhouse": 3,
    "standings": 3,
    "stats": 3,
    "tournaments": 3,
    "transfer": 3,
    # the JSON API: reads every read-side app, writes through the ledger's services
    # the JSON API: over everything it reads (leagues included); config.urls mounts it
    "api": 6,
    # team competitions: over the leagues and the tournaments they read
    "competitions": 5,
    "leagues": 4,
}
READ_SIDE = {app for app, level in LAYERS.items() if level == 3}
#: nothing imports these: they sit on top (settings and URLs; development commands)
TOP = {"config", "benchmarks"}
SKIPPED = {"tests", "migrations", "static", "templates", "locale", "node_modules", "build", "dist"}


def project_modules(root=ROOT):
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).parts
        if any(p in SKIPPED or p.startswith(".") or p.endswith(".egg-info") for p in parts):
            continue
        if len(parts) == 1:  # manage.py
            continue
        name = ".".join(parts)[: -len(".py")]
        modules[name.removesuffix(".__init__")] = path
    return modules


MODULES = project_modules()
TOPS = {name.split(".")[0] for name in MODULES}


def _resolve(target):
    while target and target not in MODULES and "." in target:
        target = target.rpartition(".")[0]
    return target


def imports_of(name, path, modules=None):
    """``(module, nested)`` for each project module (and 'django') that ``name`` imports;
    ``nested`` when the import sits inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested_nodes = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
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
        nested = id(node) in nested_nodes
        for target in targets:
            target = _resolve(target)
            if target in MODULES and target != name:
                found.add((target, nested))
            elif target.split(".")[0] == "django":
                found.add(("django", nested))
    return found


IMPORTS = {name: imports_of(name, path) for name, path in MODULES.items()}
GRAPH = {name: {dep for dep, _ in deps} for name, deps in IMPORTS.items()}


def app(name):
    return name.split(".")[0]


def wrong_imports(imports=IMPORTS):
    """Every import that breaks the layering, in words (empty when the layout holds)."""
    wrong = []
    for name, deps in imports.items():
        mine = app(name)
        for dep, nested in deps:
            if dep == "django":
                if mine == "tarot":
                    wrong.append(f"{name} (the engine) imports Django")
                continue
            theirs = app(dep)
            if theirs == mine:
                continue
            if nested:
                wrong.append(f"{name} imports {dep} inside a function (a hidden dependency)")
            if theirs in TOP:
                wrong.append(f"{name} imports {dep}, which sits on top")
            elif mine == "core" and theirs != "core":
                wrong.append(f"{name} (core) imports {dep}")
            elif mine in READ_SIDE and theirs in READ_SIDE:
                wrong.append(f"{name} imports {dep}: read-side apps do not import each other")
            elif mine in LAYERS and theirs in LAYERS and LAYERS[theirs] > LAYERS[mine]:
                wrong.append(f"{name} imports {dep}, which sits above it")
            elif mine == "tarot":
                wrong.append(f"{name} (the engine) imports {dep}")
    return sorted(wrong)


def test_the_engine_is_pure_python():
    wrong = [line for line in wrong_imports() if "(the engine)" in line]
    assert not wrong, wrong


def test_apps_import_only_downwards():
    wrong = wrong_imports()
    assert not wrong, "\n".join(wrong)


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
    """The checks above read every app there is (a new or renamed app fails here until it
    is given its place)."""
    assert set(LAYERS) | TOP | {"core"} == TOPS


def _imports_of_source(tmp_path, name, source):
    path = tmp_path / (name.replace(".", "/") + ".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return imports_of(name, path)


def test_the_checks_catch_each_kind_of_wrong_import(tmp_path):
    """Each rule fails on an import that breaks it: a read-side app importing another,
    an import hidden in a function, the engine importing Django, core importing an app,
    the ledger importing a read-side app."""
    cases = {
        "stats.sample": "from standings.queries import ranked_standings\n",
        "clubhouse.sample": "def view():\n    from scoresheet.models import Sheet\n",
        "tarot.sample": "from django.db import models\n",
        "core.sample": "from clubs.models import Club\n",
        "scoresheet.sample": "import tournaments.models\n",
    }
    for name, source in cases.items():
        imports = {name: _imports_of_source(tmp_path, name, source)}
        assert wrong_imports(imports), f"{name}: {source!r} was not refused"
    fine = {"clubhouse.sample": "from scoresheet.models import Sheet\nimport tarot.deck\n"}
    for name, source in fine.items():
        assert not wrong_imports({name: _imports_of_source(tmp_path, name, source)})
