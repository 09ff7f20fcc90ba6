"""scipy's own tests of its Gaussian filters, run with sftwave's functions in their place.

A child pytest runs the whole of ``scipy/ndimage/tests/test_filters.py`` as
installed (numpy backend) with ``scipy.ndimage.gaussian_filter``,
``gaussian_filter1d``, ``gaussian_laplace`` and ``gaussian_gradient_magnitude``
replaced by sftwave's (``tests/suites/scipy_in_place.py``).  Every test must pass but
these, each asserting what sftwave changes on purpose (README, "Where sftwave
differs from scipy.ndimage"):

``test_gaussian_truncate``
    asserts scipy's exact support (``truncate`` is an accuracy in sftwave);
``test_gaussian_filter_float16``
    asserts scipy's refusal of float16 (sftwave filters it);
``test_multiple_modes_gaussian_laplace``
    asserts scipy's values at sigma 1 to 7 decimals: those of scipy's kernel
    truncated at 4 sigma, whose sum is not zero; sftwave's is, and is closer
    to the exact Gaussian (``test_ndimage_derivatives.py`` shows it), 6.8e-5 off.

The same file's Gaussian tests (``-k gaussian``) also run under the zero-edit switch,
``sftwave.patch("scipy")``, which routes only the calls in sftwave's scope: every one
passes but the two that assert scipy's truncation (``test_gaussian_truncate``: at sigma 5,
``truncate=2``, sftwave's response has 49 x 49 nonzero samples where scipy's stops at
21 x 21; ``test_multiple_modes_gaussian_laplace``: 6.8e-5); float16 stays with scipy,
which refuses it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
NAMES = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")
ALLOWED = {"test_gaussian_truncate", "test_gaussian_filter_float16",
           "test_multiple_modes_gaussian_laplace"}
#: Under the switch: the tests asserting scipy's own truncation (docs/guide/switch.rst).
ALLOWED_PATCHED = {"test_gaussian_truncate", "test_multiple_modes_gaussian_laplace"}


def _scipy_tests() -> Path | None:
    spec = importlib.util.find_spec("scipy")
    path = Path(spec.origin).parent / "ndimage" / "tests" / "test_filters.py"
    return path if path.exists() else None


def _run_scipys_tests(tmp_path, tests: Path, *, patched: bool) -> tuple[str, set[str], Path]:
    """The child pytest's output, the names of its failed tests and its file of call counts."""
    calls = tmp_path / "calls.txt"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
               SFTWAVE_CALLS_FILE=str(calls), SFTWAVE_IN_PLACE="patch" if patched else "all")
    extra = ["-k", "gaussian or Gaussian", "-W", "ignore::sftwave.patch.RoutedWarning"] if patched else []
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "scipy_in_place", "-p", "no:cacheprovider", "-q",
         "-rf", "-W", "ignore::DeprecationWarning", *extra, "--rootdir", str(tests.parents[2]),
         str(tests)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    out = proc.stdout + proc.stderr
    failed = {line.split("::")[-1].split("[")[0].split(" ")[0]
              for line in out.splitlines() if line.startswith("FAILED")}
    return out, failed, calls


@pytest.mark.slow
def test_scipys_gaussian_tests_pass_under_the_switch(tmp_path):
    tests = _scipy_tests()
    if tests is None:
        pytest.skip("this scipy was installed without its tests")
    out, failed, calls = _run_scipys_tests(tmp_path, tests, patched=True)
    assert "passed" in out and "error" not in out.splitlines()[-1], out[-3000:]
    assert failed <= ALLOWED_PATCHED, (failed - ALLOWED_PATCHED, out[-3000:])
    counts = dict(item.split("=") for item in calls.read_text().split())
    assert all(int(counts[name]) > 0 for name in counts), counts     # each routed at least once


@pytest.mark.slow
def test_scipys_gaussian_tests_pass_with_sftwave_in_place(tmp_path):
    tests = _scipy_tests()
    if tests is None:
        pytest.skip("this scipy was installed without its tests")
    out, failed, calls = _run_scipys_tests(tmp_path, tests, patched=False)
    allowed = set(ALLOWED)
    if "def test_gaussian_filter_float16(" not in tests.read_text(encoding="utf-8"):
        allowed.add("test_gaussian_filter")     # older scipy's name of test_gaussian_filter_float16
    assert "passed" in out and "error" not in out.splitlines()[-1], out[-3000:]
    assert failed <= allowed, (failed - allowed, out[-3000:])
    counts = dict(item.split("=") for item in calls.read_text().split())
    assert all(int(counts[name]) > 0 for name in NAMES), counts
