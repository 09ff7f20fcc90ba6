"""The public API against its snapshot (tests/suites/public_api.txt): no name or signature changes by accident.

Every name in the ``__all__`` of each public module is listed with its
signature (:func:`inspect.signature`); a class with its constructor's and its
public methods' and properties' signatures (those sftwave defines, not those
it inherits from numpy, matplotlib or xarray); a constant with its value where
that is a plain literal, else its type.  The list is compared with the
snapshot checked in beside this file, module by module; a difference fails
with a diff.

A deliberate change of the API is recorded by regenerating the snapshot, and
the diff of ``tests/suites/public_api.txt`` then shows it in review::

    python tests/suites/test_public_api.py --update
    # or, through pytest:
    SFTWAVE_UPDATE_API_SNAPSHOT=1 python -m pytest tests/suites/test_public_api.py

Modules that need an optional dependency (xarray, dask, mne, matplotlib; all
in the ``test`` extras) are compared where it is installed and skipped
otherwise.  A new top-level module must be declared public (:data:`PUBLIC`)
or not (:data:`NOT_PUBLIC`): a test fails until it is.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.util
import inspect
import os
import pkgutil
import re
import sys
from pathlib import Path

import pytest

SNAPSHOT = Path(__file__).with_name("public_api.txt")
UPDATE_ENV = "SFTWAVE_UPDATE_API_SNAPSHOT"
REGENERATE = (f"python tests/suites/test_public_api.py --update  (or {UPDATE_ENV}=1 python -m pytest "
              "tests/suites/test_public_api.py)")

#: The public modules, and the optional dependency each needs (None: only sftwave's own).
PUBLIC = {
    "sftwave": None,
    "sftwave.ndimage": None,
    "sftwave.wavelets": None,
    "sftwave.inverse": None,
    "sftwave.apply": None,
    "sftwave.workers": None,
    "sftwave.analysis": None,
    "sftwave.stream": None,
    "sftwave.plans": None,
    "sftwave.engines": None,
    "sftwave.datasets": None,
    "sftwave.feature": None,
    "sftwave.skimage": None,
    "sftwave.skimage.filters": None,
    "sftwave.skimage.feature": None,
    "sftwave.synchrosqueeze": None,
    "sftwave.superlets": None,
    "sftwave.coherence": None,
    "sftwave.pycwt": None,
    "sftwave.dask": "dask",
    "sftwave.xarray": "xarray",
    "sftwave.mne": "mne",
    "sftwave.connectivity": None,
    "sftwave.plot": "matplotlib",
    "sftwave.patch": None,
    "sftwave.patch.work": None,
    "sftwave.signal": None,
}

#: Top-level modules that are not Python API: the command line.
NOT_PUBLIC = {"sftwave.cli", "sftwave.__main__"}

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _clean(text: str) -> str:
    """Drop memory addresses (sentinel defaults), which change from run to run."""
    return _ADDRESS.sub("", text)


def _annotation(a):
    """An annotation as the text written in the source, whatever Python version keeps it how."""
    if a is inspect.Parameter.empty or isinstance(a, str):
        return a
    forward = getattr(a, "__forward_arg__", None)      # typing.ForwardRef (NamedTuple fields)
    return forward if isinstance(forward, str) else inspect.formatannotation(a)


def _signature(obj) -> str:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(signature unavailable)"
    sig = sig.replace(parameters=[p.replace(annotation=_annotation(p.annotation))
                                  for p in sig.parameters.values()],
                      return_annotation=_annotation(sig.return_annotation))
    return _clean(str(sig))


def _constant(value) -> str:
    plain = (str, int, float, bool, type(None))
    if isinstance(value, plain) or (isinstance(value, (tuple, frozenset))
                                    and all(isinstance(v, plain) for v in value)):
        return f" = {value!r}" if not isinstance(value, frozenset) else f" = {sorted(value)!r}"
    return f": {type(value).__module__}.{type(value).__qualname__}"


def _class_lines(qualname: str, cls: type) -> list[str]:
    lines = [f"{qualname}{_signature(cls)}  [class]"]
    # dataclass and NamedTuple fields are the constructor's parameters, listed with it
    seen: set[str] = set(getattr(cls, "__dataclass_fields__", ())) | set(getattr(cls, "_fields", ()))
    for base in cls.__mro__:
        if not (getattr(base, "__module__", "") or "").startswith("sftwave"):
            continue            # inherited from numpy, matplotlib, ...: not sftwave's API
        for name, member in vars(base).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(member, property):
                lines.append(f"{qualname}.{name}  [property]")
            elif isinstance(member, functools.cached_property):
                lines.append(f"{qualname}.{name}  [cached property]")
            elif isinstance(member, classmethod):
                lines.append(f"{qualname}.{name}{_signature(getattr(cls, name))}  [classmethod]")
            elif isinstance(member, staticmethod):
                lines.append(f"{qualname}.{name}{_signature(getattr(cls, name))}  [staticmethod]")
            elif inspect.isfunction(member):
                lines.append(f"{qualname}.{name}{_signature(member)}")
            elif inspect.isclass(member):
                lines += _class_lines(f"{qualname}.{name}", member)
            elif not callable(member):
                lines.append(f"{qualname}.{name}{_constant(member)}  [attribute]")
            else:
                lines.append(f"{qualname}.{name}{_signature(member)}")
    return sorted(lines[:1]) + sorted(lines[1:])


def describe(module_name: str) -> list[str]:
    """The snapshot lines of one module: each public name with its signature."""
    module = importlib.import_module(module_name)
    names = list(getattr(module, "__all__", []))
    lines = []
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        lines.append(f"{module_name}.__all__ lists twice: {', '.join(dupes)}")
    for name in sorted(set(names)):
        qualname = f"{module_name}.{name}"
        if not hasattr(module, name):
            lines.append(f"{qualname}  [MISSING: in __all__ but not defined]")
            continue
        obj = getattr(module, name)
        if name == "__version__":
            lines.append(f"{qualname}: str")
        elif inspect.isclass(obj):
            lines += _class_lines(qualname, obj)
        elif inspect.ismodule(obj):
            lines.append(f"{qualname}  [module {obj.__name__}]")
        elif callable(obj):
            lines.append(f"{qualname}{_signature(obj)}")
        else:
            lines.append(f"{qualname}{_constant(obj)}")
    return lines


def _importable(dependency: str | None) -> bool:
    if dependency is None:
        return True
    try:
        importlib.import_module(dependency)
    except ImportError:
        return False
    return True


def read_snapshot(path: Path = SNAPSHOT) -> dict[str, list[str]]:
    """``{module: lines}`` from the snapshot file (``[module]`` headers, ``#`` comments)."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
        elif current is not None:
            current.append(line)
    return sections


def write_snapshot(path: Path = SNAPSHOT) -> None:
    """Regenerate the snapshot from the installed sftwave (every optional dependency needed)."""
    missing = [m for m, dep in PUBLIC.items() if not _importable(dep)]
    if missing:
        raise SystemExit(f"cannot regenerate without the optional dependencies of {missing}: "
                         "install sftwave's test extras first")
    out = ["# sftwave's public API: every name in __all__ of the public modules, with its",
           "# signature.  Generated by tests/suites/test_public_api.py; do not edit by hand.",
           f"# Regenerate after a deliberate change: {REGENERATE}", ""]
    for module in PUBLIC:
        out += [f"[{module}]", *describe(module), ""]
    path.write_text("\n".join(out))


def _top_level_modules() -> set[str]:
    import sftwave

    return {f"sftwave.{m.name}" for m in pkgutil.iter_modules(sftwave.__path__)
            if not m.name.startswith("_") or m.name == "__main__"}


def test_every_top_level_module_is_declared():
    """A new module is public (its __all__ is snapshotted) or not, by a decision, not by default."""
    found = _top_level_modules()
    undeclared = sorted(found - set(PUBLIC) - NOT_PUBLIC)
    assert not undeclared, (f"declare {undeclared} in PUBLIC or NOT_PUBLIC of "
                            "tests/suites/test_public_api.py (then regenerate the snapshot: "
                            f"{REGENERATE})")
    declared_top = {m for m in set(PUBLIC) | NOT_PUBLIC if m.count(".") == 1}
    gone = sorted(declared_top - found)
    gone += sorted(m for m in PUBLIC if m.count(".") > 1 and importlib.util.find_spec(m) is None)
    assert not gone, f"{gone} are declared in tests/suites/test_public_api.py but do not exist"


@pytest.fixture(scope="module")
def snapshot():
    if os.environ.get(UPDATE_ENV, "") not in ("", "0"):
        write_snapshot()
    if not SNAPSHOT.exists():
        pytest.fail(f"no snapshot at {SNAPSHOT}; generate it: {REGENERATE}")
    return read_snapshot()


@pytest.mark.parametrize("module", list(PUBLIC))
def test_public_api_matches_snapshot(module, snapshot):
    dependency = PUBLIC[module]
    if not _importable(dependency):
        pytest.skip(f"{module} needs {dependency}")
    have = describe(module)
    want = snapshot.get(module)
    assert want is not None, f"{module} is not in {SNAPSHOT.name}; regenerate it: {REGENERATE}"
    if have != want:
        diff = "\n".join(difflib.unified_diff(want, have, f"{SNAPSHOT.name} [{module}]",
                                              f"sftwave now [{module}]", lineterm=""))
        pytest.fail(f"the public API of {module} changed:\n{diff}\n\nIf the change is "
                    f"deliberate, regenerate the snapshot and commit it: {REGENERATE}",
                    pytrace=False)


def test_snapshot_has_no_stale_modules(snapshot):
    stale = sorted(set(snapshot) - set(PUBLIC))
    assert not stale, f"{SNAPSHOT.name} has modules no longer public: {stale}; {REGENERATE}"


def test_describe_catches_a_change(monkeypatch):
    """The comparison sees a new parameter, a new name and a missing one."""
    import sftwave

    before = describe("sftwave.workers")

    def set_workers(n, *, strict=False):   # a new keyword
        return n

    monkeypatch.setattr(sys.modules["sftwave.workers"], "set_workers", set_workers)
    after = describe("sftwave.workers")
    assert before != after and any("strict=False" in line for line in after)
    monkeypatch.setattr(sftwave, "__all__", [*sftwave.__all__, "no_such_name"])
    assert "sftwave.no_such_name  [MISSING: in __all__ but not defined]" in describe("sftwave")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        raise SystemExit(f"usage: python {Path(__file__).name} --update  (rewrites {SNAPSHOT.name})")
    write_snapshot()
    print(f"wrote {SNAPSHOT}")
