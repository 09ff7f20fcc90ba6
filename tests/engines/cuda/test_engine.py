"""The 'cuda' engine: the paper's GPU sliding sum (Algorithms 2-3) and the SFT on it.

The kernel checks live in ``cuda_checks.py`` and run in a child process
(``pytest tests/engines/cuda/cuda_checks.py``): once with ``NUMBA_ENABLE_CUDASIM=1``
(numba-cuda's simulator runs the kernels on the CPU), and once without it
where a GPU is present.  The simulator must be switched on before numba.cuda
is first imported, so a child process is the one way to use it without
changing how the rest of the suite runs.  Each check becomes one test here,
which reports the child's outcome for it (all its parameter sets).

The index arithmetic the kernels share with plain Python, the argument
validation and the lazy import are tested here directly.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import naive
import numpy as np
import pytest

from sftwave.engines._boundary import MODE_CODES
from sftwave.engines.cuda import filters as ce
from sftwave.engines.cuda.kernels import cycle_fraction, digit_reverse, source_index
from sftwave.plans.gaussian import gaussian_plan

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CHECKS = HERE / "cuda_checks.py"
HAVE_NUMBA_CUDA = importlib.util.find_spec("numba_cuda") is not None


def _check_names() -> list[str]:
    tree = ast.parse(CHECKS.read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def _gpu_present() -> bool:
    return shutil.which("nvidia-smi") is not None or os.path.exists("/dev/nvidiactl")


def _run_checks(tmp_path_factory, simulator: bool) -> dict[str, list[tuple[str, str, str]]]:
    """Run cuda_checks.py in a child process; {check name: [(case, outcome, message)]}."""
    env = dict(os.environ)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    # the checks' grids are tiny on purpose; numba-cuda's "under-utilization" warning about
    # them (a real GPU only) is about speed, and the suite turns warnings into errors
    env["NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS"] = "0"
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    xml = tmp_path_factory.mktemp("cuda") / "report.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(CHECKS), "-q", "-p", "no:cacheprovider",
         f"--junitxml={xml}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    if not xml.exists():
        pytest.fail(f"the checks did not run (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    results: dict[str, list[tuple[str, str, str]]] = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        name = case.get("name", "")
        outcome, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            el = case.find(tag)
            if el is not None:
                outcome = tag
                message = (el.get("message") or "") + "\n" + (el.text or "")
                break
        results.setdefault(name.split("[")[0], []).append((name, outcome, message))
    results["__output__"] = [("", "", proc.stdout[-4000:] + proc.stderr[-4000:])]
    return results


@pytest.fixture(scope="module")
def sim_results(tmp_path_factory):
    pytest.importorskip("numba_cuda")
    return _run_checks(tmp_path_factory, simulator=True)


@pytest.fixture(scope="module")
def gpu_results(tmp_path_factory):
    pytest.importorskip("numba_cuda")
    if not _gpu_present():
        pytest.skip("no NVIDIA GPU on this machine")
    return _run_checks(tmp_path_factory, simulator=False)


def _report(results, check: str) -> None:
    __tracebackhide__ = True
    cases = results.get(check)
    if not cases:
        pytest.fail(f"{check} did not run in the child process:\n{results['__output__'][0][2]}")
    bad = [c for c in cases if c[1] in ("failure", "error")]
    if bad:
        pytest.fail("\n\n".join(f"{name}: {outcome}\n{msg}" for name, outcome, msg in bad))
    if all(c[1] == "skipped" for c in cases):
        pytest.skip(cases[0][2].strip().splitlines()[0] if cases[0][2].strip() else "skipped")


@pytest.mark.simulator
@pytest.mark.parametrize("check", _check_names())
def test_under_simulator(sim_results, check):
    """Each kernel check, run on numba-cuda's simulator (see cuda_checks.py)."""
    _report(sim_results, check)


@pytest.mark.parametrize("check", _check_names())
def test_on_gpu(gpu_results, check):
    """Each kernel check, run on a real GPU where there is one."""
    _report(gpu_results, check)


# --------------------------------------------------------------------------- in process


def test_import_does_not_import_numba_cuda():
    """``import sftwave`` (and the engine's modules) leave numba.cuda unimported."""
    code = ("import sys, sftwave, sftwave.engines.cuda.filters, sftwave.engines.cuda.kernels; "
            "print(sorted(m for m in sys.modules if m.startswith('numba.cuda') or m == 'torch'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif(not HAVE_NUMBA_CUDA, reason="numba-cuda not installed")
def test_no_gpu_no_simulator_is_a_clear_error():
    """Without a GPU and without the simulator, the engine says so (RuntimeError)."""
    if _gpu_present():
        pytest.skip("a GPU is present")
    code = ("import numpy as np; from sftwave.engines.cuda import filters as ce\n"
            "try:\n    ce.sliding_sum(np.ones(4), 2)\n"
            "except RuntimeError as e:\n    print('RuntimeError:', e)\n"
            "print('available:', ce.available())")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert "RuntimeError: the 'cuda' engine found no usable CUDA GPU" in out
    assert "NUMBA_ENABLE_CUDASIM=1" in out
    assert "available: False" in out


def test_missing_numba_cuda_is_a_clear_error(monkeypatch):
    """Without numba-cuda, an ImportError that names the package and the extra."""
    monkeypatch.setattr(ce, "_NUMBA_CUDA_PACKAGE", "numba_cuda_not_installed_for_this_test")
    with pytest.raises(ImportError, match=r"numba-cuda.*pip install numba-cuda"):
        ce.sliding_sum(np.ones(4), 2)
    assert ce.available() is False


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: ce.sliding_sum(np.ones(4), 0), ValueError, r"L must be at least 1; got 0"),
        (lambda: ce.sliding_sum(np.ones(4), 2.5), TypeError, r"L must be an integer; got 2.5"),
        (lambda: ce.sliding_sum(np.ones(4), True), TypeError, r"L must be an integer; got True"),
        (lambda: ce.sliding_sum(np.array(["a", "b"]), 2), TypeError, r"f must have a numeric .*dtype <U1"),
        (lambda: ce.sliding_sum(np.array(1.0), 2), ValueError, r"f must have at least one dimension"),
        (lambda: ce.sliding_sum(np.ones((2, 3)), 2, axis=2), ValueError, r"axis 2 is out of range"),
        (lambda: ce.filter1d(np.ones(4), "plan"), TypeError, r"plan must be a sftwave.plans.SFTPlan; got str"),
        (lambda: ce.filter1d(np.ones(4), gaussian_plan(4.0, 0, 1e-3, "asft")), ValueError,
         r"needs an SFT plan \(alpha == 0.*got alpha="),
        (lambda: ce.filter1d(np.ones(4), gaussian_plan(4.0, 0, 1e-3, "sft"), mode="edge"), ValueError,
         r"mode must be one of .*got 'edge'"),
        (lambda: ce.filter1d(np.ones(4), gaussian_plan(4.0, 0, 1e-3, "sft"), cval=1j), TypeError,
         r"cval must be a real number"),
        (lambda: ce.filter1d(np.ones(4, bool), gaussian_plan(4.0, 0, 1e-3, "sft")), TypeError,
         r"x must have a numeric .*got dtype bool"),
        (lambda: ce.filter1d(np.ones(4), gaussian_plan(4.0, 0, 1e-3, "sft"), axis=1.0), TypeError,
         r"axis must be an integer; got 1.0"),
    ],
)
def test_bad_arguments(call, exc, match):
    """Bad arguments raise ValueError/TypeError naming them, before any device work."""
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_source_index_is_scipy_extension(mode, n):
    """The kernels' extension rule equals np.pad's reproduction of scipy.ndimage's, far out."""
    x = np.arange(10.0, 10.0 + n)
    pad = 23
    ext = naive.extend(x, pad, pad, mode, cval=-1.0)
    code = MODE_CODES[mode]
    got = [x[j] if (j := source_index(i, n, code)) >= 0 else -1.0 for i in range(-pad, n + pad)]
    np.testing.assert_array_equal(got, ext)


def test_cycle_fraction_is_exact_on_long_lines():
    """frac(nu m) to float64 rounding for m up to 2**29, against exact rational arithmetic.

    Tolerance 1e-15: the result is the sum of an exact fraction and
    ``nu_lo * m``, with two roundings and a floor of numbers below 2, so a
    few ulps of 1 (2.2e-16 each); measured up to 2**-51.  Plain ``(nu * m) % 1``
    is shown to be far worse at these m, which is why the split is needed for
    float32 data on long lines.
    """
    rng = np.random.default_rng(7)
    worst_plain = 0.0
    for nu in np.concatenate([rng.uniform(-0.5, 0.5, 20), [1 / 3, -0.25, 1e-9]]):
        hi = float(np.float32(nu))
        lo = float(nu) - hi
        for m in (0, 1, 12345, 2**20 + 7, 10**8 + 3, 2**29 - 1):
            exact = Fraction(float(nu)) * m % 1
            got = cycle_fraction(hi, lo, m)
            assert 0.0 <= got < 1.0
            d = abs(Fraction(got) - exact)
            assert min(d, 1 - d) <= 1e-15, (nu, m)
            dp = abs(Fraction((float(nu) * m) % 1) - exact)
            worst_plain = max(worst_plain, float(min(dp, 1 - dp)))
    assert worst_plain > 1e-10


def test_digit_reverse_and_layout():
    """Octal digit reversal is an involution; stage counts and padding follow the octal digits of L."""
    for S in (1, 2, 3):
        perm = [digit_reverse(r, S) for r in range(8**S)]
        assert sorted(perm) == list(range(8**S))
        assert all(digit_reverse(p, S) == r for r, p in enumerate(perm))
    for L in range(1, 700):
        S = ce.stages(L)
        assert 8 ** (S - 1) <= L < 8**S
        for n in (1, 37, L, 3 * L + 5):
            N = ce.padded_length(n, L)
            assert N >= n and N % 8**S == 0 and N - n < 8**S
