"""The API reference (docs/api/*.rst) lists every public name, and links related ones.

``tests/suites/public_api.txt`` is the snapshot of every public name (kept by
``test_public_api.py``).  Each of them must appear in an ``autosummary`` table of
docs/api/, under its own module or under ``sftwave`` when ``sftwave`` re-exports
the same object (``sftwave.icwt`` documents ``sftwave.inverse.icwt``); a method or
property is documented on its class's page.  So a new public name without a page
fails here, before ``make docs`` does.

Every public function and class has a numpydoc "See Also" section in its own
docstring (so ``help()`` shows it too), placed in numpydoc's order: after
Parameters, Returns, Yields, Raises, Warns, Attributes, before Notes, References
and Examples.  Every name it links must resolve in the built pages as Sphinx
resolves it there: a documented public name (written in full, or short for a
name of the page's own module or of the top-level ``sftwave``), or a name of
another package that ``docs/conf.py`` leaves unlinked (``scipy.ndimage.gaussian_filter``),
which must exist where that package is installed.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import sftwave

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
    return importlib.import_module(dotted)               # a package itself (``sftwave``)


def test_the_pages_and_the_snapshot_are_read():
    names = snapshot_names()
    assert "sftwave.cwt" in names and "sftwave.stream.CWT.process" in names
    listed = documented()
    assert {"sftwave.cwt", "sftwave.analysis.significance", "sftwave.engines.register"} <= set(listed)


def test_every_public_name_has_a_page():
    listed = documented()
    def key(obj):
        # a function's defining module and name: the same function even where a doctest run
        # imported its module a second time (pytest's --doctest-modules on src/)
        return (getattr(obj, "__module__", None), getattr(obj, "__qualname__", None), id(obj)) \
            if not callable(obj) else (obj.__module__, obj.__qualname__)

    listed_objects = {}
    for name in listed:
        try:
            listed_objects.setdefault(key(resolve(name)), name)
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
        if (callable(obj) and key(obj) in listed_objects):
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


# -- "See Also" sections --------------------------------------------------------------------

#: numpydoc's sections that come before "See Also", and those that come after it
BEFORE_SEE_ALSO = {"Parameters", "Returns", "Yields", "Receives", "Other Parameters", "Raises",
                   "Warns", "Warnings", "Attributes", "Methods"}
AFTER_SEE_ALSO = {"Notes", "References", "Examples"}

#: the first part of an external name: its package (``np`` and ``xr`` as their packages)
EXTERNAL_ALIASES = {"np": "numpy", "xr": "xarray"}


def public_callables() -> list[str]:
    """The functions and classes of public_api.txt (``module.name``, not their members)."""
    sections = snapshot_modules()
    return [name for name in snapshot_names()
            if name.rpartition(".")[0] == sections[name]
            and (inspect.isfunction(resolve(name)) or inspect.isclass(resolve(name)))]


def page_of(name: str) -> str:
    """The documented name of ``name``'s page (``sftwave.icwt`` for ``sftwave.inverse.icwt``)."""
    listed = documented()
    if name in listed:
        return name
    obj = resolve(name)
    for other in listed:
        try:
            if resolve(other) is obj:
                return other
        except (ImportError, AttributeError):
            pass
    return name


def section_headers(doc: str) -> list[str]:
    """The numpydoc section headers of a docstring, in order."""
    return re.findall(r"^(\w[\w ]*)\n-{3,}$", doc, re.M)


def see_also_regex(doc: str) -> list[str] | None:
    """The names of the "See Also" section, read with a regex (None: no section)."""
    m = re.search(r"^See Also\n-{3,}\n(.*?)(?=^\w[\w ]*\n-{3,}$|\Z)", doc, re.M | re.S)
    if m is None:
        return None
    names = []
    for line in m.group(1).splitlines():
        if line.strip() and not line[0].isspace():
            for part in line.split(" :", 1)[0].split(","):
                role = re.fullmatch(r"\s*(?::\w+:(?:\w+:)?)?`?~?([\w.]+)`?\s*", part)
                names.append(role.group(1) if role else part.strip())
    return names


def see_also_names(obj) -> list[str] | None:
    """The names ``obj``'s docstring links in its "See Also" section (None: no section).

    Parsed by numpydoc where it is installed (the docs' extras), else by :func:`see_also_regex`.
    """
    doc = inspect.getdoc(obj) or ""
    if importlib.util.find_spec("numpydoc") is None:
        return see_also_regex(doc)
    from numpydoc.docscrape import NumpyDocString

    if not re.search(r"^See Also\n-{3,}$", doc, re.M):
        return None
    return [name for names, _ in NumpyDocString(doc)["See Also"] for name, _role in names]


def _external_ignored() -> list[str]:
    """The patterns of names docs/conf.py leaves unlinked (its ``nitpick_ignore_regex``)."""
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) == "nitpick_ignore_regex"):
            return [target for _role, target in ast.literal_eval(node.value)]
    raise AssertionError("docs/conf.py has no nitpick_ignore_regex")


def link_problem(link: str, page: str, obj, listed: set[str], ignored: list[str]) -> str | None:
    """Why ``link`` in the "See Also" of the page ``page`` (showing ``obj``) would not resolve.

    As Sphinx resolves it on that page: the name itself, or in the page's module;
    a name of ``sftwave.__all__`` written short or under another module of the same
    object (docs/conf.py's ``_resolve_reexport``); or another package's name.
    """
    module = page.rpartition(".")[0]
    top = link.split(".")[0]
    if top != "sftwave" and "." in link and not re.search(r"(^|\.)_", link):
        if not any(re.fullmatch(pattern, link) for pattern in ignored):
            return "another package's name that docs/conf.py does not ignore (nitpick_ignore_regex)"
        package = EXTERNAL_ALIASES.get(top, top)
        if importlib.util.find_spec(package) is not None:
            try:
                resolve(".".join([package, *link.split(".")[1:]]))
            except (ImportError, AttributeError):
                return f"no such name in {package}"
        return None
    target = next((c for c in (link, f"{module}.{link}") if c in listed), None)
    short = link.rpartition(".")[2]
    if target is None and short in sftwave.__all__:
        try:
            if link == short or resolve(link) is getattr(sftwave, short):
                target = f"sftwave.{short}"
        except (ImportError, AttributeError):
            pass
    if target is None:
        return f"not a documented public name (neither {link} nor {module}.{link})"
    if resolve(target) is obj:
        return "the name itself"
    return None


@pytest.fixture(scope="module")
def link_targets() -> set[str]:
    """Every name a link may resolve to: the pages, and the members of the documented classes."""
    listed = set(documented())
    return listed | {name for name in snapshot_names() if name.rpartition(".")[0] in listed}


def test_see_also_is_read():
    def doc(text):
        return type("Documented", (), {"__doc__": text})

    both = "Doc.\n\nSee Also\n--------\n:func:`a`, b.c\nd : text\n    more\n\nNotes\n-----\nx\n"
    assert see_also_regex(both) == see_also_names(doc(both)) == ["a", "b.c", "d"]
    assert see_also_regex("Doc.\n\nNotes\n-----\nx\n") is None
    assert see_also_names(doc("Doc.\n\nNotes\n-----\nx\n")) is None
    assert "icwt" in see_also_names(sftwave.cwt)


@pytest.mark.parametrize("name", public_callables())
def test_every_function_and_class_has_see_also(name):
    doc = inspect.getdoc(resolve(name)) or ""
    hint = (f"{name}: add a numpydoc 'See Also' section to its docstring, after "
            "Parameters/Returns/Raises/Attributes and before Notes/References/Examples, "
            "one related name a line: 'name : One line on why.'")
    headers = section_headers(doc)
    assert "See Also" in headers and see_also_names(resolve(name)), hint
    at = headers.index("See Also")
    misplaced = ([h for h in headers[at + 1:] if h in BEFORE_SEE_ALSO]
                 + [h for h in headers[:at] if h in AFTER_SEE_ALSO])
    assert not misplaced, f"{name}: 'See Also' is out of numpydoc's order (against {misplaced}). {hint}"
    # read alike by numpydoc and the fallback regex (for a test environment without numpydoc)
    assert see_also_regex(doc) == see_also_names(resolve(name))


@pytest.mark.parametrize("name", public_callables())
def test_see_also_links_resolve(name, link_targets):
    obj, page, ignored = resolve(name), page_of(name), _external_ignored()
    bad = [f"{link}: {problem}" for link in see_also_names(obj) or []
           if (problem := link_problem(link, page, obj, link_targets, ignored))]
    assert not bad, f"the 'See Also' of {name} (page {page}) links:\n  " + "\n  ".join(bad)
