"""The house rules, kept by a test: one direction through the layers, no cycles, no private reach.

    checks  <-  plans  <-  engines  <-  public API  <-  command line

Every import in ``src/sftwave`` (at module level and inside functions) is
read from the source with ``ast`` and checked:

* a module imports only from its own layer or the layers below it;
* the command line imports only the public API, the plans, the checks and the
  engine registry (``sftwave.engines`` itself, never an engine's internals);
  so does the workbench beside the package (``paper/``), which may also use
  the private helpers of the checks layer (``_checks``, ``_atomic``);
* the plans and the array-API engine do not import numba; the engines do not
  import one another, except the CUDA engine, which extends the array-API one;
* no import cycle between modules;
* no module imports another module's private name (``from m import _x`` or
  ``m._x``); private *modules* (``_checks``, ``_boundary``) are shared on purpose.

The last test imports sftwave in a fresh process and checks that nothing
heavy comes with it (scipy.optimize, numba, matplotlib, torch, numba-cuda),
and that the array-API engine runs without numba.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "sftwave"

LAYERS = ["checks", "plans", "engines", "api", "cli"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"                        # sftwave/__init__.py: public names only
    top = parts[1]
    if top in ("_checks", "_docs", "_atomic"):
        return "checks"
    if top in ("plans", "engines"):
        return top
    if top in ("cli", "__main__"):
        return "cli"
    return "api"                            # ndimage, wavelets, apply, workers, datasets, feature


def is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def imports_of(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every import in ``module``."""
    tree = ast.parse(MODULES[module].read_text())
    base = module if is_package(module) else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pkg = base.split(".")
                pkg = pkg[: len(pkg) - (node.level - 1)]
                target = ".".join(pkg + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:
                    found.append((sub, None, node.lineno))     # a submodule
                else:
                    found.append((target, alias.name, node.lineno))
    return found


def internal(target: str) -> str | None:
    """The sftwave module an import refers to (None for other packages)."""
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target or None


def test_the_map_knows_every_module():
    assert len(MODULES) > 30
    assert {layer(m) for m in MODULES} == set(LAYERS)


def test_imports_point_down_the_layers():
    bad = []
    for module in MODULES:
        mine = LAYERS.index(layer(module))
        for target, _, line in imports_of(module):
            dest = internal(target)
            if dest is None or dest == module:
                continue
            if LAYERS.index(layer(dest)) > mine:
                bad.append(f"{module}:{line} ({layer(module)}) imports {dest} ({layer(dest)})")
    assert not bad, "\n".join(bad)


def test_the_command_line_uses_the_public_api_and_the_plans():
    allowed = {"checks", "plans", "api", "cli"}
    bad = []
    for module in MODULES:
        if layer(module) != "cli":
            continue
        for target, _, line in imports_of(module):
            dest = internal(target)
            if dest is None or layer(dest) in allowed or dest == "sftwave.engines":
                continue
            bad.append(f"{module}:{line} imports {dest}")
    assert not bad, "\n".join(bad)


WORKBENCH = SRC.parent / "paper" / "src"


def test_the_workbench_uses_the_public_api_and_the_plans():
    """``paper/`` studies the library from outside: public API, plans, checks, engine registry."""
    files = sorted(WORKBENCH.rglob("*.py"))
    assert len(files) >= 8
    bad = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                targets = [node.module or ""]
                targets += [f"{node.module}.{a.name}" for a in node.names
                            if f"{node.module}.{a.name}" in MODULES]
            else:
                continue
            for target in targets:
                dest = internal(target)
                if dest is None or layer(dest) in {"checks", "plans", "api"}:
                    continue
                if dest == "sftwave.engines":
                    continue
                bad.append(f"{path.name}:{node.lineno} imports {dest}")
    assert not bad, "\n".join(bad)


ENGINE_PACKAGES = ("sftwave.engines.numba", "sftwave.engines.array_api", "sftwave.engines.cuda")


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_engines_keep_to_themselves():
    extends = {("sftwave.engines.cuda", "sftwave.engines.array_api")}
    bad = []
    for module in MODULES:
        home = next((p for p in ENGINE_PACKAGES if _in(module, p)), None)
        for target, _, line in imports_of(module):
            numba_import = target == "numba" or target.startswith("numba.")
            if numba_import and (layer(module) == "plans" or home == "sftwave.engines.array_api"):
                bad.append(f"{module}:{line} imports {target}")
            dest = internal(target)
            if home is None or dest is None:
                continue
            other = next((p for p in ENGINE_PACKAGES if _in(dest, p)), None)
            if other is not None and other != home and (home, other) not in extends:
                bad.append(f"{module}:{line} imports {dest}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles():
    graph = {m: {internal(t) for t, _, _ in imports_of(m)} - {None, m} for m in MODULES}
    # a package's __init__ that imports its own submodules is not a cycle with them
    # unless a submodule imports the __init__ back; every edge is kept as written
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in graph:
        if v not in index:
            visit(v)
    assert not cycles, cycles


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_names_across_modules():
    bad = []
    for module in MODULES:
        tree = ast.parse(MODULES[module].read_text())
        aliases = {}
        for target, name, line in imports_of(module):
            dest = internal(target)
            if dest is None or dest == module:
                continue
            if name is not None and _private(name) and f"{dest}.{name}" not in MODULES:
                bad.append(f"{module}:{line} imports {dest}.{name}")
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and _private(node.attr)):
                full = None
                for target, name, _ in imports_of(module):
                    if (name or target.rpartition(".")[2]) == aliases[node.value.id].split(".")[-1]:
                        full = target if name is None else f"{target}.{name}"
                if full in MODULES and f"{full}.{node.attr}" not in MODULES and full != module:
                    bad.append(f"{module}:{node.lineno} uses {full}.{node.attr}")
    assert not bad, "\n".join(bad)


def test_the_rules_catch_a_violation(tmp_path, monkeypatch):
    """The checks above fail on a module that breaks them (a plan importing an engine, privately)."""
    fake = PACKAGE / "plans" / "select.py"
    text = fake.read_text() + "\nfrom ..engines.numba.bank import _two_level\n"
    monkeypatch.setitem(MODULES, "sftwave.plans.select", tmp_path / "select.py")
    (tmp_path / "select.py").write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "is_package", lambda m: False)
    with pytest.raises(AssertionError, match="sftwave.plans.select.*imports sftwave.engines.numba.bank"):
        test_imports_point_down_the_layers()
    with pytest.raises(AssertionError, match="imports sftwave.engines.numba.bank._two_level"):
        test_no_private_names_across_modules()


HEAVY = ("scipy.optimize", "numba", "matplotlib", "torch", "numba_cuda", "threadpoolctl")


def test_import_is_light_and_the_array_api_engine_needs_no_numba():
    code = (
        "import sys, numpy as np, sftwave\n"
        f"heavy = {HEAVY!r}\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "sftwave.gaussian_filter1d(np.ones(300), 20.0, engine='xp')\n"
        "sftwave.cwt(np.ones(300), [0.05, 0.2], engine='xp')\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = out.stdout.split("\n")[:2]
    assert first == "[]", f"import sftwave imported {first}"
    assert second == "False", "the array-API engine imported numba"
