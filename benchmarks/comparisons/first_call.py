"""The very first call after installing: empty kernel and plan caches, whole process, each case
against the same script with its anchor (scipy, pycwt, MNE).

Each sftwave script runs in a fresh interpreter with ``NUMBA_CACHE_DIR`` and
``SFTWAVE_CACHE_DIR`` pointing at new, empty folders (so every kernel it needs
is compiled and every plan designed), then once more with the same folders
(the second process: everything loaded from disk).  The anchor's script runs
in a fresh interpreter too.  Each script reports the numba kernel
specialisations it compiled (numba's ``dispatcher.stats``), the CPU seconds of the
process, and each compiled kernel's seconds in numba's compiler passes (its own
``pipeline_times``: typing, which includes the callees it compiles, and lowering,
which includes LLVM): on a machine shared with other work, the CPU seconds and the
kernels' own seconds tell more than the wall time.  Wall time of the whole
process, the interpreter's start included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SETUP = """
import numpy as np
rng = np.random.default_rng(0)
"""

#: case -> (sftwave's script, the anchor's name, the anchor's script)
CASES = {
    "gaussian_filter 512^2 float64, sigma 4": (
        "import sftwave\nx = rng.standard_normal((512, 512))\nsftwave.gaussian_filter(x, 4.0)",
        "scipy", "from scipy import ndimage\nx = rng.standard_normal((512, 512))\n"
                 "ndimage.gaussian_filter(x, 4.0)"),
    "gaussian_filter 1024^2 float64, sigma 8 (a bank plan)": (
        "import sftwave\nx = rng.standard_normal((1024, 1024))\nsftwave.gaussian_filter(x, 8.0)",
        "scipy", "from scipy import ndimage\nx = rng.standard_normal((1024, 1024))\n"
                 "ndimage.gaussian_filter(x, 8.0)"),
    "gaussian_filter1d 1e6 float64, sigma 512 (a long line in pieces)": (
        "import sftwave\nx = rng.standard_normal(1_000_000)\nsftwave.gaussian_filter1d(x, 512.0)",
        "scipy", "from scipy import ndimage\nx = rng.standard_normal(1_000_000)\n"
                 "ndimage.gaussian_filter1d(x, 512.0)"),
    "cwt 1e4 samples x 50 freqs": (
        "import sftwave\nx = rng.standard_normal(10_000)\n"
        "sftwave.cwt(x, np.geomspace(1, 100, 50), 1000.0)",
        "pycwt", "import pycwt\nx = rng.standard_normal(10_000)\n"
                 "pycwt.cwt(x, 1e-3, wavelet=pycwt.Morlet(6), freqs=np.geomspace(1, 100, 50))"),
    "tfr_array_morlet 2 x 4 x 2000, 18 freqs, power": (
        "import sftwave.mne as m\nx = rng.standard_normal((2, 4, 2000))\n"
        "m.tfr_array_morlet(x, 500.0, np.arange(4, 40, 2.0), n_cycles=5, output='power')",
        "MNE", "import mne\nx = rng.standard_normal((2, 4, 2000))\n"
               "mne.time_frequency.tfr_array_morlet(x, 500.0, np.arange(4, 40, 2.0), n_cycles=5, "
               "output='power')"),
    # without the Monte-Carlo significance: pycwt's own takes minutes (300 simulations)
    "wct N = 504, sig=False": (
        "import sftwave.pycwt as w\na, b = rng.standard_normal((2, 504))\nw.wct(a, b, 0.25, sig=False)",
        "pycwt", "import pycwt as w\na, b = rng.standard_normal((2, 504))\n"
                 "w.wct(a, b, 0.25, sig=False)"),
}

COUNT = """
import sys, json, time
n = 0
kernels = {}
if "numba" in sys.modules:
    from numba.core.registry import CPUDispatcher
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("sftwave.engines.numba"):
            for name, obj in vars(mod).items():
                if isinstance(obj, CPUDispatcher) and obj.__module__ == mod.__name__:
                    misses = sum(obj.stats.cache_misses.values())
                    n += misses
                    if not misses:
                        continue
                    # numba's own pass timings of each compiled specialisation (typing includes
                    # the callees and numba overloads it compiles; lowering includes LLVM)
                    for cres in obj.overloads.values():
                        times = (getattr(cres, "metadata", None) or {}).get("pipeline_times", {})
                        total = sum(t.init + t.run + t.finalize for passes in times.values()
                                    for t in passes.values())
                        key = mod.__name__.rpartition(".")[2] + "." + name
                        kernels[key] = kernels.get(key, 0.0) + total
print(json.dumps({"compiled": n, "cpu_s": time.process_time(), "kernels": kernels}))
"""


def _process(code: str, env: dict) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", SETUP + code + "\n" + COUNT], env=env,
                          capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1:]}
    return {"process_s": seconds, **json.loads(proc.stdout.strip().splitlines()[-1])}


def run(quick: bool) -> dict:
    """First and second process of each case (sftwave) and the anchor's process; medians of
    ``repeats`` fresh cache folders (1 with ``quick``)."""
    repeats = 1 if quick else 3
    out = {"repeats": repeats, "cases": {}}
    for case, (code, anchor, anchor_code) in CASES.items():
        runs = []
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as tmp:
                env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"),
                           SFTWAVE_CACHE_DIR=str(Path(tmp) / "plans"))
                first = _process(code, env)
                second = _process(code, env)
                base = _process(anchor_code, dict(os.environ))
            runs.append((first, second, base))
        ok = [r for r in runs if all("error" not in p for p in r)]
        if not ok:
            out["cases"][case] = {"anchor": anchor, "error": [p for p in runs[0] if "error" in p]}
            continue

        def median(i, key, ok=ok):
            values = sorted(r[i][key] for r in ok)
            return values[len(values) // 2]

        # the kernels' compile seconds of the run whose process time is the median
        mid = sorted(ok, key=lambda r: r[0]["process_s"])[len(ok) // 2][0]
        out["cases"][case] = {"anchor": anchor, "first_s": median(0, "process_s"),
                              "first_cpu_s": mid.get("cpu_s"), "kernel_s": mid.get("kernels", {}),
                              "compiled": median(0, "compiled"),
                              "second_s": median(1, "process_s"),
                              "second_compiled": median(1, "compiled"),
                              "anchor_s": median(2, "process_s")}
    return out
