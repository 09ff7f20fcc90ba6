"""Sphinx configuration of sftwave's documentation.

Build it with ``make docs`` (warnings are errors, every cross-reference is checked).
The site is built offline: no intersphinx inventories are fetched unless
``SFTWAVE_DOCS_INTERSPHINX=1`` is set, so external types are listed in
``nitpick_ignore`` below instead of linked.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

import sftwave

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# -- project ---------------------------------------------------------------------------------
project = "sftwave"
author = "The sftwave developers"
copyright = "the sftwave developers"
version = release = sftwave.__version__

# -- extensions ------------------------------------------------------------------------------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]
if os.environ.get("SFTWAVE_DOCS_INTERSPHINX") == "1":      # needs the network
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "scipy": ("https://docs.scipy.org/doc/scipy", None),
        "matplotlib": ("https://matplotlib.org/stable", None),
        "xarray": ("https://docs.xarray.dev/en/stable", None),
        "dask": ("https://docs.dask.org/en/stable", None),
        "mne": ("https://mne.tools/stable", None),
    }

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.md5",
                    "sg_execution_times.rst"]
default_role = "py:obj"

# -- autodoc, autosummary, numpydoc -------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_typehints = "none"          # numpydoc's Parameters section carries the types
autodoc_default_options = {"member-order": "bysource"}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = True
# numpydoc validates every public function, class and method: a Parameters section naming
# every parameter (PR01), a Returns section (RT01), See Also (SA01) and Examples (EX01).
# Constants and attributes (a ``#:`` comment or a one-line docstring) are not validated:
# _not_validated() lists them, by their type, not by name.
numpydoc_validation_checks = {"PR01", "RT01", "SA01", "EX01"}
#: Names excused from the checks above, one regex per name: none.  Keep it empty: a public
#: name is documented before it lands.
VALIDATION_PENDING: list[str] = []

# -- nitpicky: every reference must resolve, external types are named here --------------------
# An internal module (sftwave.engines.numba, sftwave.plans.fit, ...) or a private name has no
# page, so a cross-reference to it is a dead anchor: write it as a literal (``sftwave.plans.fit``)
# or link the public name that documents it.  Nothing of sftwave's is ignored here (nor listed in
# DEAD_REFERENCES_PENDING below, now empty), and _check_mod_roles() also reads the docstrings that
# are never rendered (the internal modules') for :mod: roles to modules without a page.
nitpicky = True
# bare type names in docstrings; dotted names of other packages are matched by the regex below
_EXTERNAL = ["ndarray", "array_like", "array-like", "dtype", "DataArray", "Dataset", "Figure",
             "Axes", "Tensor", "path-like", "callable", "scalar"]
nitpick_ignore = [(role, name) for name in _EXTERNAL
                  for role in ("py:class", "py:obj", "py:func", "py:data", "py:mod", "py:meth")]
nitpick_ignore_regex = [
    # the workbench (paper/): its own package, documented in docs/paper.md, no API pages
    (r"py:.*", r"sftwave_paper(\..*)?"),
    # other packages' names: linked only with SFTWAVE_DOCS_INTERSPHINX=1 (needs the network)
    (r"py:.*", r"(numpy|np|scipy|xarray|xr|dask|da|torch|cupy|matplotlib|mne|pywt|pycwt|fcwt|"
               r"threadpoolctl|numba|numba_cuda|array_api_compat|typing|collections|contextlib|"
               r"concurrent|os|pathlib)(\..*)?"),
]

#: Dead cross-references tolerated while a file is rewritten, as (file, target): the
#: file the text comes from (relative to the repository) and the reference's target.  Empty:
#: every reference resolves.  KEEP IT EMPTY: fix a new dead reference (a literal, or the public
#: name) rather than listing it here.
DEAD_REFERENCES_PENDING: set[tuple[str, str]] = set()


def _pending_reference(app, domain, node) -> bool | None:
    """Silence a dead reference listed in DEAD_REFERENCES_PENDING (and only there)."""
    source = str(node.source or "").split(":", 1)[0]     # "path:docstring of name", "path:359:<autosummary>"
    try:
        source = Path(source).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return True if (source, node.get("reftarget", "")) in DEAD_REFERENCES_PENDING else None


def _paged_modules() -> set[str]:
    """The modules with a page: a ``.. module::`` directive in docs/api/."""
    found = set()
    for page in (HERE / "api").glob("*.rst"):
        found.update(re.findall(r"^\.\. module:: (\S+)", page.read_text(encoding="utf-8"), re.M))
    return found


_MOD_ROLE = re.compile(r"(?::mod:|\{mod\})`(?:[^`<]*<)?~?([^`>]+)>?`")


def _check_mod_roles(app) -> None:
    """Warn for a :mod: role to a module of sftwave's without a page, anywhere in the sources.

    Sphinx checks the references of the pages it renders; the docstrings of internal modules
    are never rendered, so their :mod: roles are read here.
    """
    from sphinx.util import logging

    logger = logging.getLogger("sftwave.anchors")
    paged = _paged_modules()
    files = [*sorted((ROOT / "src" / "sftwave").rglob("*.py")), *sorted(ROOT.glob("examples/*.py")),
             *sorted(p for p in HERE.rglob("*") if p.suffix in (".rst", ".md")
                     and "_build" not in p.parts and "generated" not in p.parts
                     and "auto_examples" not in p.parts)]
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in _MOD_ROLE.findall(line):
                if not target.startswith(("sftwave", ".")) or target in paged:
                    continue
                if (rel, target) not in DEAD_REFERENCES_PENDING:
                    logger.warning("%s:%d: :mod: role to %s, a module without a page "
                                   "(write it as a literal)", rel, number, target)

# -- HTML ------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"sftwave {version}"
html_static_path: list[str] = []
html_show_sourcelink = False
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_context = {"default_mode": "light"}

# -- MyST (the Markdown pages) -------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

# -- sphinx-gallery -------------------------------------------------------------------------
warnings.filterwarnings("ignore", category=UserWarning,
                        message="Matplotlib is currently using agg")
sphinx_gallery_conf = {
    "examples_dirs": [str(ROOT / "examples")],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
    "show_memory": False,
    "min_reported_time": 1,
    "reference_url": {"sftwave": None},
    "doc_module": ("sftwave",),
    "backreferences_dir": "api/generated/backreferences",
}

# -- every public name has a page --------------------------------------------------------
PUBLIC_MODULES = ["sftwave", "sftwave.analysis", "sftwave.mne", "sftwave.stream",
                  "sftwave.dask", "sftwave.xarray", "sftwave.plot", "sftwave.plans",
                  "sftwave.engines", "sftwave.inverse", "sftwave.wavelets", "sftwave.workers",
                  "sftwave.datasets", "sftwave.feature", "sftwave.coherence", "sftwave.pycwt",
                  "sftwave.connectivity", "sftwave.synchrosqueeze", "sftwave.superlets"]


def _not_validated() -> list[str]:
    """Public constants and attributes (fields, properties): numpydoc does not validate them.

    A constant or a field is documented by one line (a ``#:`` comment or a docstring); the
    checks of numpydoc_validation_checks (Parameters, Returns, See Also, Examples) are for
    functions, classes and methods.  Listed by type, so that a new function is validated.
    """
    import functools
    import importlib
    import inspect

    from sphinx.pycode import ModuleAnalyzer

    names = []
    for modname in PUBLIC_MODULES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            homes = [f"{modname}.{name}"]
            if getattr(sftwave, name, None) is obj and modname != "sftwave":
                homes.append(f"sftwave.{name}")
            if inspect.isclass(obj):
                fields = set(getattr(obj, "_fields", ()))
                for klass in obj.__mro__:
                    if klass.__module__ == "builtins":
                        continue
                    fields.update(getattr(klass, "__annotations__", {}))
                    fields.update(attr for attr, value in vars(klass).items()
                                  if isinstance(value, (property, functools.cached_property))
                                  or not (inspect.isroutine(value)
                                          or isinstance(value, (classmethod, staticmethod))))
                    # instance attributes set in __init__ with a ``#:`` comment
                    docs = ModuleAnalyzer.for_module(klass.__module__).find_attr_docs()
                    fields.update(attr for scope, attr in docs if scope == klass.__qualname__)
                names += [f"{home}.{attr}" for home in homes for attr in sorted(fields)
                          if not attr.startswith("_")]
            elif not callable(obj):
                names += homes
    return [f"^{re.escape(name)}$" for name in names]


numpydoc_validation_exclude = {*_not_validated(), *VALIDATION_PENDING}


def _check_api_pages(app) -> None:
    """Warn (an error under -W) for a public name that the API reference does not list."""
    import importlib

    from sphinx.util import logging

    logger = logging.getLogger("sftwave.api")
    listed = set()
    for page in (HERE / "api").glob("*.rst"):
        text = page.read_text(encoding="utf-8")
        module = None
        for line in text.splitlines():
            m = re.match(r"\s*\.\. (?:currentmodule|module|automodule):: (\S+)", line)
            if m:
                module = m.group(1)
                continue
            m = re.match(r"\s{3,}~?([A-Za-z_][\w.]*)\s*$", line)
            if m and module:
                listed.add(f"{module}.{m.group(1)}")
    for modname in PUBLIC_MODULES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        for name in getattr(module, "__all__", ()):
            if name == "__version__":
                continue
            obj = getattr(module, name)
            home = f"{modname}.{name}"
            aliases = {home}
            # a name re-exported by sftwave itself is documented there
            if getattr(sftwave, name, None) is obj:
                aliases.add(f"sftwave.{name}")
            if not aliases & listed:
                logger.warning("public name %s has no page in docs/api/", home)


def _doc_comment(app, what, name, obj, options, lines) -> None:
    """A re-exported constant: its ``#:`` comment from the module that defines it.

    autodoc reads doc comments of the module it documents; for a name imported
    into a package (``sftwave.plans.TOL_FLOOR``) it would fall back to the
    docstring of the value's type (``float``'s).
    """
    if what != "data" or not name.startswith("sftwave."):
        return
    type_doc = getattr(type(obj), "__doc__", None)
    type_doc = type_doc.strip() if isinstance(type_doc, str) else ""
    if lines and lines[0].strip() != type_doc.split("\n", 1)[0].strip():
        return
    from sphinx.pycode import ModuleAnalyzer

    short = name.rsplit(".", 1)[-1]
    for modname, module in sorted(sys.modules.items()):
        if not modname.startswith("sftwave") or getattr(module, short, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:            # noqa: BLE001 - a module without source
            continue
        if ("", short) in docs:
            lines[:] = list(docs[("", short)])
            return
    lines[:] = []


def _resolve_reexport(app, env, node, contnode):
    """``icwt`` written in :mod:`sftwave.inverse` means :func:`sftwave.icwt` (its page)."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    short = target.rsplit(".", 1)[-1]
    if short not in sftwave.__all__ or (target != short and not target.startswith("sftwave.")):
        return None
    if target != short and getattr(sftwave, short) is not _lookup(target):
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                               f"sftwave.{short}", node, contnode)


def _lookup(dotted: str):
    import importlib

    module, _, attr = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attr, None)
    except ImportError:
        return None


#: What a cell's stray last expression leaves in the gallery's output: the repr of a matplotlib
#: object (``<matplotlib.legend.Legend at 0x...>``, ``Text(0.5, 1.0, 'title')``,
#: ``<Figure size ...>``) or of any object without a repr of its own (``<... object at 0x...>``).
_STRAY_REPR = re.compile(r"<(matplotlib\.|Figure size|Axes:)|^\s*\[?Text\(|object at 0x")


def _check_gallery_output(app, env) -> None:
    """Warn for a gallery cell whose output is an object's repr (end the cell with plt.show())."""
    from sphinx.util import logging

    logger = logging.getLogger("sftwave.gallery")
    for page in sorted((HERE / "auto_examples").glob("plot_*.rst")):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"sphx-glr-script-out\n\n(.*?)(?=\n\S|\Z)", text, re.S):
            for line in block.splitlines():
                if _STRAY_REPR.search(line):
                    logger.warning("%s: a cell prints a repr: %s", page.name, line.strip())


def setup(app):
    app.connect("env-updated", _check_gallery_output)
    app.connect("builder-inited", _check_api_pages)
    app.connect("builder-inited", _check_mod_roles)
    app.connect("warn-missing-reference", _pending_reference)
    app.connect("autodoc-process-docstring", _doc_comment, priority=100)   # before numpydoc
    app.connect("missing-reference", _resolve_reexport)
