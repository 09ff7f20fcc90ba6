"""What a process's first call on the CPU engine loads: no scipy.linalg, only the modules it uses.

numba's CPU target imports ``numba.np.arraymath`` when it first sets up, and
that module's BLAS check imports ``scipy.linalg`` (about 0.2 s of a one-call
script).  The engine imports the module itself with the check answered from
the file scipy's BLAS extension lives in
(:func:`sftwave.engines.numba._jit._load_numpy_support_lazily`).  What must hold,
each in a fresh child process (the test process has imported scipy.linalg long since):

* after a call on the bank, the FIR (small calls: the engine's prepared FIR kernels
  once numba is loaded) and the float32 rows (plans read from the
  plan cache: their design imports scipy.linalg), ``scipy.linalg`` is not
  imported, numba's answer is the one its own check gives (BLAS there:
  ``_HAVE_BLAS`` True), and ``numba.np.linalg.ensure_blas`` is numba's own again;
* a user's kernel that uses BLAS (``np.dot``) still compiles and computes,
  binding scipy's BLAS then;
* with ``SFTWAVE_DISABLE_NUMBA_INTERNALS=1`` numba imports the module itself,
  scipy.linalg included, and the reason is recorded;
* a float64 Gaussian loads neither the lane engine nor the wide limit's modules,
  and the explicit vectors' probe is one kernel (one specialisation) for both dtypes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from sftwave.engines.numba import vectors

CHILD = textwrap.dedent("""
    import json, sys
    import numpy as np
    import sftwave
    x = np.random.default_rng(0).standard_normal((64, 64))
    sftwave.gaussian_filter(x, 4.0, method="bank")           # the bank
    linalg_after_bank = "scipy.linalg" in sys.modules
    sftwave.gaussian_filter(x, 1.0)                          # the FIR
    sftwave.gaussian_filter1d(np.ones(5000), 8.0)            # the bank
    sftwave.gaussian_filter(x.astype(np.float32), 2.0)       # the float32 rows
    linalg_after_calls = "scipy.linalg" in sys.modules
    modules = sorted(m for m in sys.modules if m.startswith("sftwave.engines.numba."))
    import numba
    import numba.np.arraymath as arraymath
    import numba.np.linalg as np_linalg
    from sftwave.engines.numba import _jit

    @numba.njit
    def dot(a, b):
        return np.dot(a, b)

    a, b = np.arange(5.0), np.arange(5.0, 10.0)
    print(json.dumps({"linalg_after_calls": linalg_after_calls, "modules": modules,
                      "linalg_after_bank": linalg_after_bank,
                      "have_blas": arraymath._HAVE_BLAS,
                      "ensure_blas": np_linalg.ensure_blas.__module__ + "."
                                     + np_linalg.ensure_blas.__qualname__,
                      "reason": _jit.NUMPY_SUPPORT_REASON,
                      "dot_ok": float(dot(a, b)) == float(a @ b),
                      "linalg_after_dot": "scipy.linalg" in sys.modules}))
""")


def _child(code: str, **env_extra: str) -> dict:
    env = {**os.environ, **env_extra}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def first_calls() -> dict:
    # the first child designs the plans (the design imports scipy.optimize, and scipy.linalg
    # with it) into the session's plan cache; the second loads them, as a user's script does
    _child(CHILD)
    return _child(CHILD)


def test_first_calls_leave_scipy_linalg_out(first_calls):
    got = first_calls
    assert got["reason"] is None
    assert got["linalg_after_bank"] is False
    # numba loaded, the small FIR calls run the engine's FIR kernels, not scipy.ndimage's
    # correlate1d (whose import brings scipy.linalg in scipy < 1.11)
    assert got["linalg_after_calls"] is False
    assert got["have_blas"] is True
    assert got["ensure_blas"] == "numba.np.linalg.ensure_blas"
    # a BLAS kernel of the user's: numba binds scipy's BLAS when it builds it, as always
    assert got["dot_ok"] is True
    assert got["linalg_after_dot"] is True


def test_float64_gaussian_loads_only_its_modules(first_calls):
    loaded = {m.rpartition(".")[2] for m in first_calls["modules"]}
    assert not loaded & {"lanes", "lane_kernels", "wide", "scalogram", "spectral"}, loaded


def test_switch_leaves_the_import_to_numba():
    code = textwrap.dedent("""
        import json, sys
        import sftwave.engines.numba._jit as jit
        from numba.core.registry import cpu_target
        cpu_target.target_context.refresh()       # numba's CPU target set up, no kernel built
        import numba.np.arraymath as arraymath
        print(json.dumps({"reason": jit.NUMPY_SUPPORT_REASON, "have_blas": arraymath._HAVE_BLAS,
                          "linalg": "scipy.linalg" in sys.modules}))
    """)
    got = _child(code, SFTWAVE_DISABLE_NUMBA_INTERNALS="1")
    assert "SFTWAVE_DISABLE_NUMBA_INTERNALS" in got["reason"]
    assert got["have_blas"] is True and got["linalg"] is True


def test_vector_probe_runs_in_the_asked_dtype_only():
    """A float64 call probes (compiles, or loads from the cache) the float64 probe alone."""
    if vectors.REASON is not None:
        pytest.skip(f"no explicit vectors here, nothing is probed: {vectors.REASON}")
    got = _child(textwrap.dedent("""
        import json
        import numpy as np
        from sftwave.engines.numba import vectors
        ok = vectors.usable(np.float64)
        print(json.dumps({"ok": ok, "signatures": [str(s) for s in vectors._probe.signatures]}))
    """))
    assert got["ok"] is True
    assert len(got["signatures"]) == 1 and "float64" in got["signatures"][0], got
