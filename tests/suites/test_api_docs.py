"""The API reference (docs/api/*.rst) lists every public name, and links related ones.

``tests/suites/public_api.txt`` is the snapshot of every public name (kept by
``test_public_api.py``).  Each of them must appear in an ``autosummary`` table of
docs/api/, under its own module or under ``sftwave`` when ``sftwave`` re-exports
the same object (``sftwave.icwt`` documents ``sftwave.inverse.icwt``); a method or
property is documented on its class's page.  So a new public name without a page
fails here, before ``make docs`` does.

Every function and class with a page also gets a numpydoc "See Also" section:
from its docstring, or from ``docs/api/see_also.py``, which ``docs/conf.py`` adds
at build time; every name there must be a documented public name.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api"
SNAPSHOT = Path(__file__).resolve().parent / "public_api.txt"

#: Public names with no page of their own, and why.
NO_PAGE = {
    "sftwave.__version__": "the version string, shown on every page's title",
}


def snapshot_names() -> list[str]:
    """Every public name in public_api.txt (``module.name`` or ``module.Class.member``)."""
    names = []
    for line in SNAPSHOT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "[")):
            continue
        names.append(re.match(r"[\w.]+", line).group(0))
    return names


def snapshot_modules() -> dict[str, str]:
    """``{dotted name: its section's module}`` for every name in the snapshot."""
    out, module = {}, None
    for line in SNAPSHOT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            module = line[1:-1]
        elif line and not line.startswith("#"):
            out[re.match(r"[\w.]+", line).group(0)] = module
    return out


def documented() -> dict[str, Path]:
    """``{module.name: page}`` of every entry of an autosummary table in docs/api/*.rst."""
    listed: dict[str, Path] = {}
    for page in sorted(API.glob("*.rst")):
        module, in_table = None, False
        for line in page.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\.\. (?:currentmodule|module|automodule):: (\S+)", line)
            if m:
                module, in_table = m.group(1), False
                continue
            if re.match(r"\.\. autosummary::", line):
                in_table = True
                continue
            if in_table:
                if line.strip() == "" or re.match(r"\s+:\w+:", line):
                    continue
                m = re.match(r"\s+~?([A-Za-z_][\w.]*)\s*$", line)
                if m is None:
                    in_table = False
                    continue
                name = m.group(1)
                listed[name if name.startswith("sftwave") else f"{module}.{name}"] = page
    return listed


def resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    while module:
        try:
            obj = importlib.import_module(module)
        except ImportError:
            module, _, head = module.rpartition(".")
            attr = f"{head}.{attr}"
            continue
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj
    raise ImportError(dotted)


def see_also_map() -> dict[str, list[tuple[str, str]]]:
    spec = importlib.util.spec_from_file_location("_sftwave_docs_see_also", API / "see_also.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SEE_ALSO


def test_the_pages_and_the_snapshot_are_read():
    names = snapshot_names()
    assert "sftwave.cwt" in names and "sftwave.stream.CWT.process" in names
    listed = documented()
    assert {"sftwave.cwt", "sftwave.analysis.significance", "sftwave.engines.register"} <= set(listed)


def test_every_public_name_has_a_page():
    listed = documented()
    listed_objects = {}
    for name in listed:
        try:
            listed_objects.setdefault(id(resolve(name)), name)
        except (ImportError, AttributeError):
            pass
    sections = snapshot_modules()
    missing = []
    for name in snapshot_names():
        if name in NO_PAGE:
            continue
        module = sections[name]
        head = name[len(module) + 1:].split(".")[0]        # the class of a member
        owner = f"{module}.{head}"
        if owner in listed:
            continue
        obj = resolve(owner)
        # a re-export documented under another module (data: only under its own name)
        if (callable(obj) and id(obj) in listed_objects):
            continue
        missing.append(name)
    assert not missing, (
        "public names without a page in docs/api/*.rst (add each to an autosummary table "
        "of its group in docs/api/index.rst):\n  " + "\n  ".join(missing))


def test_every_documented_name_is_public():
    public = set(snapshot_names())
    extra = []
    for name, page in documented().items():
        if name not in public:
            obj = resolve(name)                   # raises if the name does not exist at all
            if not any(getattr(resolve(p.rpartition(".")[0]), p.rpartition(".")[2], None) is obj
                       for p in public if "." in p and not p.startswith("sftwave.__")):
                extra.append(f"{name} ({page.name})")
    assert not extra, "documented names that are not public: " + ", ".join(extra)


def _pages_of_callables() -> list[str]:
    return sorted(name for name in documented()
                  if inspect.isfunction(resolve(name)) or inspect.isclass(resolve(name)))


@pytest.mark.parametrize("name", _pages_of_callables())
def test_every_function_and_class_has_see_also(name):
    doc = inspect.getdoc(resolve(name)) or ""
    assert re.search(r"^See Also\n-{4,}$", doc, re.M) or name in see_also_map(), (
        f"{name} has no 'See Also': add its related names to docs/api/see_also.py "
        "(or a See Also section to its docstring)")


def test_see_also_names_are_documented_public_names():
    listed = documented()
    bad = []
    for key, entries in see_also_map().items():
        for name in [key] + [target for target, _ in entries]:
            if name not in listed:
                bad.append(name)
        for target, text in entries:
            if not text.strip() or target == key:
                bad.append(f"{key} -> {target!r}: {text!r}")
    assert not bad, "docs/api/see_also.py names what the API reference does not list: " + ", ".join(
        sorted(set(bad)))
