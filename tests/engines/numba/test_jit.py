"""The CPU engine without numba's internals: plain kernels, the same transforms, one warning.

The lane kernel's fast path uses numba internals (a ``noalias`` decorator
option patched into numba's target options, and llvmlite vector intrinsics:
:mod:`sftwave.engines.numba.vectors`).  They are probed when the engine loads
and at the lane kernel's first use; where a numba release has changed them,
the lane engine runs its plain kernel (``run_lanes``; few long lines, which
take the pieces of :mod:`sftwave.engines.numba.pieces` on the explicit vectors,
go to it too) and a ``NumbaInternalsWarning`` says so once.  "lanes" below
names either vector path.  ``SFTWAVE_DISABLE_NUMBA_INTERNALS=1``
forces that fallback, here in a child process with its own empty numba cache
(numba's cache index is keyed on a kernel's source and signature, not on its
options, so a kernel compiled with ``noalias`` would otherwise be loaded).

What must hold:

* the bank path uses no internals: its results are the same bits;
* the lane path differs only by rounding: the fast kernel fuses each
  multiply-add (one rounding), the plain one rounds product and sum apart
  (and adds a component's two output terms before the running sum, where
  the fast one adds them to it one by one).  Each step of a
  recursion then differs by a few units in the last place of the terms it
  adds, of size M (the components times their output weights, as bounded in
  tests/engines/numba/test_lanes.py; within a few times max |y| for these smooth kernels
  and noise signals), and with the SFT (|w| = 1) these differences add up
  like a random walk over a lane's steps (at most about 10^4 here: each lane
  restarts its recursion): about eps sqrt(10^4) M, some 1e-14 M.  Compared at
  ``1e-12 * max |y|``, a hundred times that (measured: at most 8e-15, the
  power of the cwt); a wrong coefficient, lane or range moves outputs by
  their own size.
* the warning comes exactly once, however many calls take the lane path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

#: Relative tolerance (to the largest output) of the plain lane kernel against the fast one.
LANE_RTOL = 1e-12

# Each case: (name, path, expression); the lane cases are checked to take the lane engine.
CASES = textwrap.dedent("""
    import numpy as np
    import sftwave

    rng = np.random.default_rng(7)
    long1 = rng.standard_normal(100_000) + 3.0
    two_rows = rng.standard_normal((2, 100_000))
    image = rng.standard_normal((96, 80))
    eeg = rng.standard_normal((2, 6_000))
    freqs = np.geomspace(2.0, 40.0, 12)

    CASES = {
        "gaussian_filter1d lanes": ("lanes", lambda: sftwave.gaussian_filter1d(long1, 8.0)),
        "gaussian_filter1d d1 lanes": ("lanes", lambda: sftwave.gaussian_filter1d(long1, 12.0, order=1)),
        "gaussian_filter lanes": ("lanes", lambda: sftwave.gaussian_filter(two_rows, (0.0, 6.0))),
        "gaussian_filter bank": ("bank", lambda: sftwave.gaussian_filter(image, 6.0)),
        "gaussian_filter1d bank": ("bank", lambda: sftwave.gaussian_filter1d(image, 9.0, axis=0)),
        "cwt lanes": ("lanes", lambda: sftwave.cwt(eeg, freqs, fs=250.0)),
        "cwt lanes power": ("lanes", lambda: sftwave.cwt(eeg, freqs, fs=250.0, output="power")),
        "cwt bank": ("bank", lambda: sftwave.cwt(eeg, freqs[:3], fs=250.0, bank_method="iir2")),
    }
""")

CHILD = CASES + textwrap.dedent("""
    import json, sys, warnings
    from sftwave.engines.numba import lanes, pieces

    calls = []
    def counting(module):
        original = module.run
        def counting_run(*args, **kwargs):
            calls.append(1)
            return original(*args, **kwargs)
        module.run = counting_run
    counting(lanes)
    counting(pieces)          # few long lines: the pieces, on the same explicit vectors

    out, paths = {}, {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")       # repeats would show: the engine must not repeat
        for name, (path, f) in CASES.items():
            before = len(calls)
            out[name] = np.asarray(f())
            paths[name] = "lanes" if len(calls) > before else "bank"
    np.savez(sys.argv[1], **out)
    print(json.dumps({
        "paths": paths,
        "warnings": [[type(w.message).__name__, str(w.message)] for w in caught],
        "vectors": lanes.vector_kernel_runs(),
    }))
""")


def _run_child(tmp_path, disable: bool) -> tuple[dict, dict]:
    env = dict(os.environ)
    env.pop("SFTWAVE_DISABLE_NUMBA_INTERNALS", None)
    if disable:
        env["SFTWAVE_DISABLE_NUMBA_INTERNALS"] = "1"
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")   # compile afresh, load nothing
    result = tmp_path / ("plain.npz" if disable else "fast.npz")
    proc = subprocess.run([sys.executable, "-c", CHILD, str(result)], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    with np.load(result) as data:
        return report, {k: data[k] for k in data.files}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fallback")
    return _run_child(tmp, disable=False), _run_child(tmp, disable=True)


@pytest.mark.slow
def test_the_cases_take_the_paths_they_name(runs):
    (fast, _), (plain, _) = runs
    ns: dict = {}
    exec(CASES, ns)
    want = {name: path for name, (path, _) in ns["CASES"].items()}
    assert fast["paths"] == want
    assert plain["paths"] == want
    assert fast["vectors"] is True and plain["vectors"] is False


@pytest.mark.slow
def test_one_warning_saying_why(runs):
    (fast, _), (plain, _) = runs
    assert fast["warnings"] == []
    assert len(plain["warnings"]) == 1, plain["warnings"]
    kind, message = plain["warnings"][0]
    assert kind == "NumbaInternalsWarning"
    assert "SFTWAVE_DISABLE_NUMBA_INTERNALS is set" in message and "plain kernel" in message


@pytest.mark.slow
def test_bank_path_is_the_same_bits(runs):
    (fast, a), (plain, b) = runs
    for name, path in fast["paths"].items():
        if path == "bank":
            assert a[name].dtype == b[name].dtype
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)


@pytest.mark.slow
def test_lane_path_differs_only_by_rounding(runs):
    (fast, a), (plain, b) = runs
    for name, path in fast["paths"].items():
        if path != "lanes":
            continue
        assert a[name].dtype == b[name].dtype and a[name].shape == b[name].shape
        scale = np.max(np.abs(a[name]))
        err = np.max(np.abs(a[name] - b[name])) / scale
        assert err <= LANE_RTOL, f"{name}: {err:.2e} of the largest output"


def test_probes_report_on_the_normal_path():
    """In this process (no switch), the probes find numba's internals and keep the fast path."""
    if os.environ.get("SFTWAVE_DISABLE_NUMBA_INTERNALS", "") not in ("", "0"):
        pytest.skip("the switch is set for this run")
    from sftwave.engines.numba import _jit, lanes, vectors

    assert _jit.NOALIAS and _jit.NOALIAS_REASON is None
    assert vectors.AVAILABLE and vectors.usable() and vectors.REASON is None
    assert lanes.vector_kernel_runs()


BREAK = {
    # numba without @intrinsic: the vectors are not made when the engine loads
    "no intrinsic": ("import numba.extending\n"
                     "def intrinsic(func):\n"
                     "    raise AttributeError('intrinsic went away')\n"
                     "numba.extending.intrinsic = intrinsic\n",
                     "", "numba's @intrinsic failed (AttributeError: intrinsic went away)"),
    # a code generator that fails: the vectors are made but do not compile (probe at first use)
    "codegen fails": ("",
                      "def fma(*args):\n"
                      "    raise NotImplementedError('no vector fma')\n"
                      "vectors._fma = fma\n",
                      "the explicit vectors do not compile"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BREAK))
def test_broken_internals_fall_back(case, tmp_path):
    """Not the switch but a numba that lacks what the vectors use: the same fallback, one warning."""
    before, after, reason = BREAK[case]
    code = before + textwrap.dedent("""
        import json, sys, warnings
        import numpy as np
        import sftwave
        from sftwave.engines.numba import lanes, vectors
    """) + after + textwrap.dedent("""
        x = np.random.default_rng(3).standard_normal(100_000)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = sftwave.gaussian_filter1d(x, 8.0)
            y2 = sftwave.gaussian_filter1d(x, 8.0)
        print(json.dumps({
            "usable": vectors.usable(), "reason": vectors.REASON,
            "warnings": [[type(w.message).__name__, str(w.message)] for w in caught],
            "same": bool(np.array_equal(y, y2)),
        }))
        np.save(sys.argv[1], y)
    """)
    env = {k: v for k, v in os.environ.items() if k != "SFTWAVE_DISABLE_NUMBA_INTERNALS"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")   # the probe compiles, not loads
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "y.npy")], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["usable"] is False and reason in report["reason"]
    assert len(report["warnings"]) == 1, report["warnings"]
    kind, message = report["warnings"][0]
    assert kind == "NumbaInternalsWarning" and reason in message
    # the plain kernel's result, as in this process's fast path up to rounding
    import sftwave

    fast = sftwave.gaussian_filter1d(np.random.default_rng(3).standard_normal(100_000), 8.0)
    plain = np.load(tmp_path / "y.npy")
    assert report["same"]
    assert np.max(np.abs(plain - fast)) <= LANE_RTOL * np.max(np.abs(fast))
