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
import re
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


# References that are not imports: a URL name (``reverse``, ``redirect``, ``{% url %}``),
# a model named by its label (``"tournaments.Round"``, ``apps.get_model``) and a template
# (``{% include %}``, ``{% extends %}``) depend on the app that owns them as an import
# would. Each is read and held to the same order.

TEMPLATES = ROOT / "templates"
#: Templates any app may use and that may name anything: the site's frame and its pieces.
SHARED_TEMPLATES = {"", "includes", "registration", "admin", "errors"}
URL_CALLS = {"reverse", "reverse_lazy", "redirect", "resolve_url"}
_URL_TAG = re.compile(r"""{%\s*url\s+['"]([\w:-]+)['"]""")
_TEMPLATE_TAG = re.compile(r"""{%\s*(?:include|extends)\s+['"]([^'"]+)['"]""")
_LOAD_TAG = re.compile(r"{%\s*load\s+([\w ]+?)\s*%}")
#: each template tag library of the project → the app that holds it
TAG_LIBRARIES = {
    path.stem: path.relative_to(ROOT).parts[0]
    for path in ROOT.glob("*/templatetags/*.py")
    if path.stem != "__init__"
}

#: The references allowed against the order: (where, the app named) → the reason (also in
#: the README). None now: the club's backup reads the rows each app registers
#: (``core.backup_rows``) rather than naming them.
ALLOWED_REFERENCES: dict = {}


def url_owners():
    """``{"namespace:name": app}``: the app whose module holds each named URL's view."""
    from django.urls import URLPattern, URLResolver, get_resolver

    owners = {}

    def walk(resolver, namespace):
        for pattern in resolver.url_patterns:
            if isinstance(pattern, URLResolver):
                inner = namespace + ((pattern.namespace,) if pattern.namespace else ())
                walk(pattern, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                module = getattr(pattern.callback, "__module__", "") or ""
                owners[":".join((*namespace, pattern.name))] = module.split(".")[0]

    walk(get_resolver(), ())
    return owners


def template_app(relative):
    """The app a template belongs to: its folder under ``templates/`` (None: shared)."""
    top = relative.split("/")[0] if "/" in relative else ""
    return None if top in SHARED_TEMPLATES or top not in LAYERS else top


def python_references(name, path, owners):
    """``{(kind, target, owner)}`` of the URL names and model labels a module names."""
    found = set()
    apps_ = set(LAYERS) | {"core"}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if called in URL_CALLS and args and isinstance(args[0], str) and args[0] in owners:
                found.add(("url", args[0], owners[args[0]]))
            if called == "get_model" and args and args[0] in apps_:
                found.add(("model", ".".join(map(str, args[:2])), args[0]))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = re.fullmatch(r"([a-z_]+)\.([A-Z]\w+)", node.value)
            if match and match.group(1) in apps_:
                found.add(("model", node.value, match.group(1)))
    return found


def template_references(relative, text, owners):
    found = set()
    for url_name in _URL_TAG.findall(text):
        if url_name in owners:
            found.add(("url", url_name, owners[url_name]))
    for included in _TEMPLATE_TAG.findall(text):
        owner = template_app(included)
        if owner:
            found.add(("template", included, owner))
    for names in _LOAD_TAG.findall(text):
        for library in names.split():
            if library in TAG_LIBRARIES:
                found.add(("tag library", library, TAG_LIBRARIES[library]))
    return found


def wrong_references(references):
    """``references``: ``{(where, app): {(kind, target, owner)}}`` → the wrong ones, in words."""
    wrong = []
    for (where, mine), targets in references.items():
        for kind, target, theirs in targets:
            if theirs in (None, mine) or theirs not in LAYERS and theirs != "core":
                continue
            if (where, theirs) in ALLOWED_REFERENCES:
                continue
            if mine == "core":
                wrong.append(f"{where} (core) names the {kind} {target} of {theirs}")
            elif mine in READ_SIDE and theirs in READ_SIDE:
                wrong.append(f"{where} names the {kind} {target} of {theirs}: read-side apps")
            elif mine in LAYERS and theirs in LAYERS and LAYERS[theirs] > LAYERS[mine]:
                wrong.append(f"{where} names the {kind} {target} of {theirs}, above it")
    return sorted(wrong)


def all_references():
    owners = url_owners()
    references = {}
    for name, path in MODULES.items():
        if app(name) in LAYERS or app(name) == "core":
            found = python_references(name, path, owners)
            if found:
                references[(name, app(name))] = found
    for path in TEMPLATES.rglob("*.html"):
        relative = path.relative_to(TEMPLATES).as_posix()
        mine = template_app(relative)
        if mine:
            found = template_references(relative, path.read_text(encoding="utf-8"), owners)
            if found:
                references[(f"templates/{relative}", mine)] = found
    return references


def test_urls_model_labels_and_templates_follow_the_order_too():
    wrong = wrong_references(all_references())
    assert not wrong, "\n".join(wrong)


def test_the_allowed_references_are_still_made():
    """An exception whose reference is gone is removed from the list."""
    made = {
        (where, theirs)
        for (where, _mine), targets in all_references().items()
        for _kind, _target, theirs in targets
    }
    assert set(ALLOWED_REFERENCES) <= made, set(ALLOWED_REFERENCES) - made


def test_the_reference_checks_catch_each_kind_of_back_door(tmp_path):
    owners = url_owners()
    cases = {
        "scoresheet.sample": 'from django.urls import reverse\nreverse("stats:player")\n',
        "transfer.sample": 'MODELS = ["tournaments.Round"]\n',
        "standings.sample": 'from django.apps import apps\napps.get_model("stats", "X")\n',
    }
    for name, source in cases.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        found = {(name, app(name)): python_references(name, path, owners)}
        assert wrong_references(found), f"{name}: {source!r} was not refused"
    for text in (
        '{% url "league_club:guests" club.slug %}',
        '{% include "leagues/x.html" %}',
        "{% load i18n tarot %}",
    ):
        app_ = "clubs" if "load" in text else "tournaments"  # the clubs app is below tarot's tags
        found = {
            (f"templates/{app_}/x.html", app_): template_references(f"{app_}/x.html", text, owners)
        }
        assert wrong_references(found), f"{text!r} was not refused"
    fine = 'from django.urls import reverse\nreverse("scoresheet:sheet")\n'
    path = tmp_path / "standings.fine.py"
    path.write_text(fine, encoding="utf-8")
    found = {("standings.fine", "standings"): python_references("standings.fine", path, owners)}
    assert not wrong_references(found)
