"""The zero-edit switch (sftwave.patch): routing, restoring, announcing, the command line.

The machinery is tested on scipy's routes (the four Gaussian filters) and on routes to a
throw-away package written into ``tmp_path`` (what a route to a module not yet imported, a
failing predicate or a name copied between modules does).
"""

from __future__ import annotations

import inspect
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
import scipy.ndimage as ndi

import sftwave
import sftwave.ndimage as sndi
from sftwave.patch import RoutedWarning, patch, patched, unpatch
from sftwave.patch.route import Route

NAMES = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")
ORIGINALS = {name: getattr(ndi, name) for name in NAMES}
_switch = sys.modules["sftwave.patch"]


@pytest.fixture(autouse=True)
def _restored():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RoutedWarning)
        yield
    unpatch()
    assert all(getattr(ndi, name) is ORIGINALS[name] for name in NAMES)
    assert not _switch._ACTIVE and not _switch._INSTALLED and not _switch._WATCHED


IMG = np.random.default_rng(1).standard_normal((40, 48))


def test_the_names_and_the_callable_module():
    assert sftwave.patch is _switch and callable(sftwave.patch)
    assert sftwave.unpatch is unpatch and sftwave.patched is patched
    assert sftwave.patch("scipy") == tuple(f"scipy.ndimage.{n}" for n in sorted(NAMES))
    with pytest.raises(AttributeError, match="no_such_name"):
        sftwave.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    "name, args",
    [
        ("gaussian_filter", (3.0,)),
        ("gaussian_filter1d", (2.5, 0)),
        ("gaussian_laplace", (2.0,)),
        ("gaussian_gradient_magnitude", ((1.5, 3.0),)),
    ],
)
def test_in_scope_calls_are_sftwaves(name, args):
    patch("scipy", every_size=True)
    wrapper = getattr(ndi, name)
    assert wrapper is not ORIGINALS[name] and wrapper.__wrapped__ is ORIGINALS[name]
    assert inspect.signature(wrapper) == inspect.signature(ORIGINALS[name])
    assert wrapper.__doc__ == ORIGINALS[name].__doc__
    got = wrapper(IMG, *args)
    np.testing.assert_array_equal(got, getattr(sndi, name)(IMG, *args))  # sftwave's, bit for bit
    exact = ORIGINALS[name](IMG, *args, truncate=12.0)  # scipy's kernel, untruncated in practice
    # the documented bound: never less accurate than scipy's own call (its kernel cut at 4 sigma)
    assert np.abs(got - exact).max() <= np.abs(ORIGINALS[name](IMG, *args) - exact).max()


def _uses_sftwave(monkeypatch, name) -> list:
    """Calls that reached sftwave's ``name`` (the replacement looked up on first routed call)."""
    seen: list = []
    real = getattr(sndi, name)
    monkeypatch.setitem(
        _switch._REPLACEMENTS, f"sftwave.ndimage:{name}", lambda *a, **k: seen.append(1) or real(*a, **k)
    )
    return seen


@pytest.mark.parametrize(
    "call, routed",
    [
        (lambda f: f(np.ones(16, np.float16), 2.0), False),  # scipy refuses float16
        (lambda f: f(np.ones((8, 8)), 2.0, order=3), False),  # scipy's kernel anyway
        (lambda f: f(np.ones((8, 8)), 2.0, mode="constant", cval=1j), False),  # scipy refuses it
        (lambda f: f(np.ones((8, 8)), 2.0, output=np.zeros((8, 9))), False),  # scipy's RuntimeError
        (lambda f: f(np.ones((8, 8)), 2.0, method="fir"), False),  # not scipy's keyword
        (lambda f: f(np.matrix(np.ones((8, 8))), 2.0), False),  # an ndarray subclass
        (lambda f: f([[1.0, 2.0], [3.0, 4.0]], 1.0), False),  # a list
        (lambda f: f(np.ones((8, 8)), 2.0, mode="bogus"), False),  # scipy's own error
        (lambda f: f(np.ones((8, 8), np.complex64), 2.0, output=np.float64), False),
        (lambda f: f(np.arange(64.0).reshape(8, 8), (0.0, 2.0), order=1), True),  # scipy's zero-sigma rule
    ],
)
def test_out_of_scope_calls_reach_scipy_unchanged(monkeypatch, call, routed):
    seen = _uses_sftwave(monkeypatch, "gaussian_filter")
    try:
        expected = call(ORIGINALS["gaussian_filter"])
    except Exception as exc:
        expected = exc
    patch("scipy", every_size=True)
    try:
        got = call(ndi.gaussian_filter)
    except Exception as exc:
        got = exc
    if isinstance(expected, Exception):
        assert type(got) is type(expected) and str(got) == str(expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12 * np.abs(expected).max())
    assert bool(seen) == routed


class _DeviceArray:
    """What the predicates see of a CuPy or torch array: an array API object, not an ndarray."""

    shape, dtype, ndim = (8, 8), np.dtype(np.float32), 2

    def __array_namespace__(self, api_version=None):  # pragma: no cover - never called
        raise AssertionError


def test_the_predicates():
    from sftwave.patch.routes import scipy as routes

    assert not routes.accepts_gaussian_filter(_DeviceArray(), 2.0)
    assert not routes.accepts_gaussian_laplace(_DeviceArray(), 2.0)
    assert not routes.accepts_gaussian_laplace(np.ones((8, 8)), 2.0, order=1)  # scipy: TypeError
    assert routes.accepts_gaussian_laplace(np.ones((8, 8)), 2.0, truncate=3.0, mode=("wrap", "nearest"))
    assert routes.accepts_gaussian_gradient_magnitude(np.ones((4, 8, 8), np.uint8), (0.0, 2.0, 2.0))
    assert routes.accepts_gaussian_filter(np.ones((8, 8), np.complex128), 2.0, output=np.complex64)


def test_unpatch_restores_the_very_objects_and_patching_twice_is_once():
    first = patch("scipy")
    wrappers = {name: getattr(ndi, name) for name in NAMES}
    assert patch("scipy") == first and patch("scipy", "scipy") == first
    assert all(getattr(ndi, name) is wrappers[name] for name in NAMES)
    assert unpatch("scipy") == first
    assert all(getattr(ndi, name) is ORIGINALS[name] for name in NAMES)
    assert unpatch() == ()


def test_an_attribute_replaced_since_is_left_alone():
    patch("scipy")
    mine = ndi.gaussian_filter
    ndi.gaussian_filter = other = lambda *a, **k: None
    try:
        assert "scipy.ndimage.gaussian_filter" not in unpatch()
        assert ndi.gaussian_filter is other
    finally:
        ndi.gaussian_filter = ORIGINALS["gaussian_filter"]
    assert mine(IMG, 1.0) is not None  # a wrapper kept by someone: the original once unpatched


def test_announced_once_per_function_at_its_first_routed_call():
    patch("scipy", every_size=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ndi.gaussian_filter1d(np.ones(8, np.float32), 1.0, order=3)  # not routed: no warning
        for _ in range(3):
            ndi.gaussian_filter(IMG, 1.0)
            ndi.gaussian_laplace(IMG, 1.0)
    messages = [str(w.message) for w in caught if w.category is RoutedWarning]
    assert len(messages) == 2 and "scipy.ndimage.gaussian_filter is computed by sftwave" in messages[0]
    assert caught[0].filename == __file__  # points at the caller's line
    unpatch()
    patch("scipy", every_size=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RoutedWarning)  # announced again after a new patch
        with pytest.raises(RoutedWarning):
            ndi.gaussian_filter(IMG, 1.0)
        warnings.simplefilter("ignore", RoutedWarning)
        ndi.gaussian_laplace(IMG, 1.0)


def test_patched_restores_on_exit_even_by_an_exception_and_nests():
    with pytest.raises(KeyError):
        with patched("scipy") as routed:
            assert "scipy.ndimage.gaussian_filter" in routed
            assert ndi.gaussian_filter is not ORIGINALS["gaussian_filter"]
            raise KeyError
    assert ndi.gaussian_filter is ORIGINALS["gaussian_filter"]
    with patched("scipy"):
        outer = ndi.gaussian_filter
        with patched("scipy"):
            assert ndi.gaussian_filter is outer
        assert ndi.gaussian_filter is outer  # the inner block turned nothing on
    assert ndi.gaussian_filter is ORIGINALS["gaussian_filter"]
    patch("scipy")
    with patched("scipy"):
        pass
    assert ndi.gaussian_filter is not ORIGINALS["gaussian_filter"]  # on before the block: stays


def test_bad_targets(monkeypatch):
    with pytest.raises(ValueError, match="targets must be among .*got 'numpy'"):
        patch("numpy")
    with pytest.raises(TypeError, match="got 3"):
        unpatch(3)
    with pytest.raises(ValueError, match="'sklearn'"):
        with patched("sklearn"):
            pass
    monkeypatch.setitem(sys.modules, "pycwt", None)  # as if not installed
    with pytest.raises(ModuleNotFoundError, match="'pycwt' is not installed"):
        patch("pycwt")
    monkeypatch.setitem(sys.modules, "sftwave.patch.routes.mne", None)  # as if it had no routes
    with pytest.raises(ImportError, match="no routes for 'mne'"):
        patch("mne")
    with pytest.warns(RoutedWarning, match="no routes for 'mne'"):
        routed = patch()
    assert "scipy.ndimage.gaussian_filter" in routed


# ----------------------------------------------------------------------------- fake routes


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A package ``fakeanchor`` (not imported) whose ``core.blur`` is exported by the package."""
    pkg = tmp_path / "fakeanchor"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .core import blur\n")
    (pkg / "core.py").write_text("def blur(x, how='fast'):\n    'Blur x.'\n    return ('anchor', x)\n")
    (tmp_path / "fakeroutes.py").write_text(
        "def replacement(x, how='fast'):\n    return ('sftwave', x)\n"
        "def accepts(x, how='fast'):\n    if how == 'boom':\n        raise RuntimeError(how)\n"
        "    return how == 'fast'\n"
        "def work(a):\n    if a['how'] == 'unknown':\n        raise ValueError('no estimate')\n"
        "    return a['x']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield Route(
        "pycwt",
        "blur",
        ("fakeanchor.core", "fakeanchor", "fakeanchor.gone"),
        "fakeroutes:replacement",
        "fakeroutes:accepts",
    )
    for name in ("fakeanchor", "fakeanchor.core", "fakeroutes"):
        sys.modules.pop(name, None)


def test_a_module_not_yet_imported_is_routed_when_imported(fake):
    _switch._activate([fake], eager=False, every_size=False)
    assert "fakeanchor" not in sys.modules and set(_switch._WATCHED) == set(fake.where)
    import fakeanchor
    import fakeanchor.core

    assert fakeanchor.blur is fakeanchor.core.blur  # the package copied the wrapper
    assert fakeanchor.blur(1) == ("sftwave", 1)
    assert fakeanchor.blur(1, how="slow") == ("anchor", 1)
    assert fakeanchor.blur(1, how="boom") == ("anchor", 1)  # the predicate failed: the original
    original = fakeanchor.blur.__sftwave_original__
    assert sorted(unpatch()) == ["fakeanchor.blur", "fakeanchor.core.blur"]
    assert fakeanchor.blur is original and fakeanchor.core.blur is original
    assert _switch._WATCHER not in sys.meta_path
    assert not isinstance(fakeanchor.__spec__.loader, _switch._AfterExec)  # its own loader


def test_eager_routes_skip_a_module_missing_from_the_version(fake):
    _switch._activate([fake], eager=True, every_size=False)
    import fakeanchor

    assert fakeanchor.blur(2) == ("sftwave", 2)
    # only the defining module is imported; the others are routed if the program imports them
    assert "fakeanchor.gone" not in sys.modules and set(_switch._WATCHED) <= {"fakeanchor.gone"}


@pytest.mark.parametrize("loaded", [False, True])
def test_calls_too_small_to_win_stay_with_the_anchor(fake, monkeypatch, loaded):
    """A call routes where the anchor's estimated seconds (here the argument ``x``) reach the
    route's crossover, and, before sftwave's engine is loaded, once such calls add up to the
    start-up; ``every_size`` routes every in-scope call."""
    from dataclasses import replace

    from sftwave.patch import work

    monkeypatch.setattr(work, "engine_loaded", lambda: loaded)
    monkeypatch.setattr(work, "_WAITING", [0.0])
    route = replace(fake, work="fakeroutes:work", crossover=0.01)
    _switch._activate([route], eager=True, every_size=False)
    import fakeanchor

    assert fakeanchor.blur(0.0099) == ("anchor", 0.0099)  # below the crossover: never counted
    step = 0.4 * work.START_UP_S
    if not loaded:
        assert fakeanchor.blur(step, how="slow") == ("anchor", step)  # counted unexamined
        assert fakeanchor.blur(step) == ("anchor", step)  # 0.8 of the start-up
        assert work._WAITING[0] == pytest.approx(2 * step)
    assert fakeanchor.blur(step) == ("sftwave", step)  # the start-up paid or already loaded
    _switch._activate([route], eager=True, every_size=True)
    assert fakeanchor.blur(0.0) == ("sftwave", 0.0)
    with patched("scipy"):  # another target's block leaves this route's choice alone
        assert fakeanchor.blur(0.0) == ("sftwave", 0.0)
    _switch._activate([route], eager=True, every_size=False)  # patched again: set again
    assert fakeanchor.blur(0.0) == ("anchor", 0.0)


def test_a_failing_estimate_routes_as_in_scope(fake, monkeypatch):
    """An estimate that raises must not switch a route off: the predicate alone decides."""
    from dataclasses import replace

    route = replace(fake, work="fakeroutes:work")
    _switch._activate([route], eager=True, every_size=False)
    import fakeanchor

    monkeypatch.setitem(_switch._ACTIVE, route, lambda x, how="fast": True)
    assert fakeanchor.blur(0.0, how="unknown") == ("sftwave", 0.0)


def test_patch_and_unpatch_from_threads(fake):
    errors: list = []

    def work():
        try:
            for _ in range(20):
                patch("scipy")
                ndi.gaussian_filter(IMG[:8, :8], 1.0)
                unpatch("scipy")
        except Exception as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ----------------------------------------------------------------------------- command line


def test_lazy_routes_a_named_library_only_when_imported():
    pytest.importorskip("pycwt")
    code = (
        "import sys, sftwave.patch as switch\n"
        "switch.patch('pycwt', lazy=True)\n"
        "print('pycwt' in sys.modules)\n"
        "import pycwt\n"
        "print(hasattr(pycwt.cwt, '__sftwave_route__'), hasattr(pycwt.wavelet.cwt, '__sftwave_route__'))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "True", "True"]


def test_the_command_lines_errors(capsys):
    from sftwave.patch.__main__ import main

    assert main(["--only", "scipy,bogus", "x.py"]) == 2
    assert "error: --only must be among" in capsys.readouterr().err
    assert main(["--only", "scipy"]) == 2 and "a script to run is required" in capsys.readouterr().err
    assert main(["--frobnicate", "x.py"]) == 2 and "unknown option" in capsys.readouterr().err
    assert main(["--help"]) == 0 and "--only LIBS" in capsys.readouterr().out


def test_python_m_sftwave_patch_runs_the_script_as_main(tmp_path):
    script = tmp_path / "user_script.py"
    script.write_text(
        "import sys, warnings, numpy as np\n"
        "from scipy.ndimage import gaussian_filter\n"
        "import helper\n"
        "assert __name__ == '__main__'\n"
        "print(sys.argv[1:], hasattr(gaussian_filter, '__sftwave_route__'))\n"
        "y = gaussian_filter(np.ones((16, 16)), 3.0)\n"
        "sys.exit(int(sys.argv[1]))\n"
    )
    (tmp_path / "helper.py").write_text("")  # the script's directory is on sys.path
    proc = subprocess.run(
        [sys.executable, "-m", "sftwave.patch", "--only", "scipy", "--every-size", str(script), "3",
         "--flag"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.strip() == "['3', '--flag'] True"
    assert proc.stderr.count("RoutedWarning") == 1 and "user_script.py:6" in proc.stderr
