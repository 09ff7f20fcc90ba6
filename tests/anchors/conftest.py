"""The anchors' own tests, run with the zero-edit switch on.

Each folder here is named after a target of :func:`sftwave.patch` and holds tests of that
library: vendored from its repository (``skimage/``, ``mne/``: the libraries install no
tests) or imported from its installed test modules (``mne_connectivity/``).  Every test
module runs inside ``sftwave.patched(<folder>)``: the calls the switch routes are computed
by sftwave, every other call by the library itself.  Each test passed without the switch
when it was vendored (tests that did not were left out).

The harness also

* rebinds, in the test module (and in the modules it lists in ``ANCHOR_TEST_MODULES``),
  the names it imported from the library before the switch was on to the switch's
  wrappers, as ``python -m sftwave.patch`` does by patching before a script's imports;
* marks the routed functions as announced, so that the switch's :class:`RoutedWarning`
  does not reach tests that assert exactly which warnings a call gives;
* fails a module (at its teardown) in which no call reached sftwave: a run that routes
  nothing proves nothing.  A module of tests that only reach the originals says so with
  ``ROUTES_NOTHING = True``.

A target whose routes are missing from this checkout fails its tests (``patched`` raises
``ImportError`` naming it), unless it is listed in :data:`PENDING`: those run without the
switch, and the run's summary says so; ``test_harness.py`` fails once their routes exist,
so that the entry is removed.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: Targets whose routes are being written on other branches: their tests run unpatched
#: until the routes exist (test_harness.py then fails until the entry is removed).
PENDING: frozenset[str] = frozenset()

#: target -> (routed calls, modules run) of this session, for the summary.
_RUN: dict[str, list[int]] = {}
_UNPATCHED: set[str] = set()
_PARTIAL: set[str] = set()


def target_of(path: Path) -> str | None:
    """The switch's target a test file belongs to: its folder's name under tests/anchors."""
    try:
        parts = Path(path).resolve().relative_to(HERE).parts
    except ValueError:
        return None
    return parts[0] if len(parts) > 1 else None


def has_routes(target: str) -> bool:
    return importlib.util.find_spec(f"sftwave.patch.routes.{target}") is not None


def pytest_deselected(items):
    for item in items:        # a module run in part may not reach a routed function
        _PARTIAL.add(str(item.path))


def _rebind(modules: list, routed: tuple[str, ...]) -> list[tuple[dict, str, object]]:
    """Point the names the modules bound to routed originals at the switch's wrappers."""
    wrappers = {}
    for qualified in routed:
        module, _, name = qualified.rpartition(".")
        wrapper = getattr(sys.modules[module], name)
        wrappers[id(getattr(wrapper, "__sftwave_original__", None))] = wrapper
    undo = []
    for module in modules:
        namespace = vars(module)
        for name, value in list(namespace.items()):
            if id(value) in wrappers and value is not None:
                undo.append((namespace, name, value))
                namespace[name] = wrappers[id(value)]
    return undo


@pytest.fixture(scope="module", autouse=True)
def _switch_on(request) -> Iterator[None]:
    target = target_of(request.path)
    if target is None:
        yield
        return
    import sftwave.patch as switch

    if target in PENDING and not has_routes(target):
        _UNPATCHED.add(target)
        yield
        return
    before = sum(n for r, n in switch._CALLS.items() if r.target == target)
    with switch.patched(target, every_size=True) as routed:
        with switch._LOCK:    # already announced: some tests assert every warning a call gives
            switch._ANNOUNCED.update(r for r in switch._ACTIVE if r.target == target)
        modules = [request.module, *getattr(request.module, "ANCHOR_TEST_MODULES", [])]
        undo = _rebind(modules, routed)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", switch.RoutedWarning)
                yield
        finally:
            for namespace, name, value in undo:
                namespace[name] = value
    calls = sum(n for r, n in switch._CALLS.items() if r.target == target) - before
    run = _RUN.setdefault(target, [0, 0])
    run[0] += calls
    run[1] += 1
    if calls == 0 and not getattr(request.module, "ROUTES_NOTHING", False) \
            and str(request.path) not in _PARTIAL:
        pytest.fail(f"{request.path.name}: no call reached sftwave under sftwave.patched({target!r}); "
                    "the harness proves nothing for this module", pytrace=False)


def pytest_terminal_summary(terminalreporter):
    for target, (calls, modules) in sorted(_RUN.items()):
        terminalreporter.write_line(f"anchors: {target}: {calls} calls routed to sftwave in "
                                    f"{modules} module(s) run under sftwave.patched({target!r})")
    for target in sorted(_UNPATCHED):
        terminalreporter.write_line(f"anchors: {target}: NO ROUTES in this checkout "
                                    f"(sftwave.patch.routes.{target}): its tests ran UNPATCHED")


@pytest.fixture(autouse=True)
def _real_warning_registries():
    """scikit-image's ``expected_warnings`` clears every module's ``__warningregistry__`` and
    expects an ``AttributeError`` where a module has none; ``torch.classes`` (there when another
    test file of the same process imported torch) answers any attribute with a namespace whose
    ``clear`` raises ``RuntimeError``.  It gets a real, empty registry (nothing else changes)."""
    module = sys.modules.get("torch.classes")
    if module is not None and not isinstance(module.__dict__.get("__warningregistry__"), dict):
        module.__warningregistry__ = {}
