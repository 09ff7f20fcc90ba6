"""No compile in any process but the first: every CPU kernel is loaded from numba's disk cache.

Two fresh interpreters share a new, empty ``NUMBA_CACHE_DIR`` and run the same
everyday calls (scalograms in float64 and float32, complex and power, decimated
or not, with bank and FIR rows; Gaussian filters of orders 0..2 in 1-D and 2-D,
float64, float32 and uint8).  Each reports, for every numba dispatcher of the
CPU engine, numba's own counters (``dispatcher.stats.cache_hits`` and
``cache_misses``: a miss is a compile).  The first process compiles; the second
must have compiled nothing, and loaded only what the first compiled.
"""

import json
import os
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import sftwave
    from numba.core.registry import CPUDispatcher
    import sftwave.engines.numba as engine_pkg
    from sftwave.engines.numba import (bank_kernels, fir_kernels, lane_kernels, wide, _jit,
                                       filters, lanes, bank, scalogram, fir_rows)

    rng = np.random.default_rng(0)
    x = np.cumsum(rng.standard_normal((3, 2000)), axis=-1)
    freqs = np.geomspace(2.0, 200.0, 12)
    sftwave.cwt(x, freqs, 500.0)
    sftwave.cwt(x.astype(np.float32), freqs, 500.0, output="power", decim=4)
    sftwave.cwt(x[0], [5.0, 50.0], 500.0, xi=[5.0, 7.0])
    img = rng.standard_normal((64, 80))
    for order in (0, 1, 2):
        sftwave.gaussian_filter1d(x, 30.0, order=order)
        sftwave.gaussian_filter(img.astype(np.float32), 6.0, order=order)
    sftwave.gaussian_filter((img * 40).astype(np.uint8), 2.0)
    sftwave.gaussian_filter1d(x, 1.5)

    report = {}
    for mod in (bank_kernels, fir_kernels, lane_kernels, wide, _jit, filters, lanes, bank,
                scalogram, fir_rows):
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == mod.__name__:
                s = obj.stats
                report[f"{mod.__name__}.{name}"] = [sum(s.cache_hits.values()),
                                                    sum(s.cache_misses.values())]
    json.dump(report, sys.stdout)
    """
)


def _run(env):
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_second_process_loads_every_kernel(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               SFTWAVE_CACHE_DIR=str(tmp_path / "plans"))
    first = _run(env)
    second = _run(env)
    compiled = {name: misses for name, (hits, misses) in first.items() if misses}
    assert compiled, "the first process compiled nothing: the counters are not read"
    recompiled = {name: misses for name, (hits, misses) in second.items() if misses}
    assert not recompiled, f"compiled again in the second process: {recompiled}"
    # what Python calls is loaded; a kernel called only from other kernels (compiled
    # into them) is neither loaded nor compiled in the second process
    loaded = {name for name, (hits, misses) in second.items() if hits}
    assert loaded, "the second process loaded nothing"
    assert loaded <= set(compiled)
