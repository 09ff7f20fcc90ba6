"""The same numbers on every machine: no result depends on the thread count.

The plans depend on a transform's arguments only (the FIR-versus-bank cost
figure is a constant, not divided by the threads), and the engine cuts its
work into pieces by the data's shape only (a recursion restarted at a piece's
start rounds differently, so pieces cut by the thread count made results
differ in the last bits).  Fresh processes with ``SFTWAVE_NUM_THREADS`` 1, 2
and 8 run the same transforms, at the FIR/bank crossover and on rows long
enough to be cut into chunks and lanes; their plans and their results' bits
must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sftwave

_CHILD = r"""
import json, sys
import numpy as np
import sftwave
from sftwave.engines.numba import ENGINE, pool

plans = []


def describe(plan):
    kind = type(plan).__name__
    if kind == "SFTPlan":
        return [kind, int(plan.length), int(plan.omegas.size), float(plan.alpha)]
    if kind == "FIRPlan":
        return [kind, int(plan.size)]
    return [kind, float(plan.sigma), int(plan.order)]


run_filter, run_scalogram = ENGINE.filter, ENGINE.scalogram


def record_filter(x, steps, **kw):
    plans.append([[int(axis), describe(plan), mode] for axis, plan, mode in steps])
    return run_filter(x, steps, **kw)


def record_scalogram(x, ps, **kw):
    plans.append([describe(p) for p in ps])
    return run_scalogram(x, ps, **kw)


ENGINE.filter, ENGINE.scalogram = record_filter, record_scalogram

rng = np.random.default_rng(7)
# one long row, cut into bank chunks and lanes: 2**18 + 123 samples make 8 chunks of at least
# bank._MIN_CHUNK (2**15) outputs, as many as the most threads run here, and up to
# filters._LANE_GROUPS (8) groups of lanes for the smaller sigmas, so each thread count
# divides the same pieces among its threads differently
n = (1 << 18) + 123
x = np.cumsum(rng.standard_normal(n))
rows = rng.standard_normal((5, 90_001))  # few rows: lanes along them
img = rng.standard_normal((3, 70_000)).astype(np.float32)
crossover = [0.25, 0.3, 0.4]            # Morlet scales where the FIR and the bank cost alike
out = {}
# the Gaussian at the crossover (sigma 1.5 to 5) and beyond, three orders
for s in (1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 8.0, 40.0):
    for order in (0, 1, 2):
        out[f"g1d_{s}_{order}"] = sftwave.gaussian_filter1d(x, s, order=order)
for s in (2.0, 4.0, 16.0):
    out[f"g2d_{s}"] = sftwave.gaussian_filter(rows, (1.0, s), mode="nearest")
out["g2d_f32"] = sftwave.gaussian_filter(img, (0.0, 6.0))
# few lanes: the bank row by row, one long row cut into chunks
out["cwt_bank"] = sftwave.cwt(x, [0.002, 0.01] + crossover)
# many lanes (the lane engine), the crossover's small scales among them
out["cwt_lanes"] = sftwave.cwt(rows[:2], np.geomspace(0.005, 0.45, 16), output="power")
out["cwt_f32"] = sftwave.cwt(img[:1], np.geomspace(0.01, 0.4, 9), output="abs", dtype=np.float32)
# MNE's averaged outputs: the epochs' sums added inside the lane kernel
from sftwave.mne import tfr_array_morlet
epochs = rng.standard_normal((37, 3, 1500))
out["mne_avg_power_itc"] = tfr_array_morlet(epochs, 250.0, np.geomspace(4.0, 40.0, 9),
                                            output="avg_power_itc", decim=2)
np.savez(sys.argv[1], **out)
print(json.dumps({"threads": pool.threads(), "plans": plans}))
"""

THREADS = (1, 2, 8)


def _run(tmp_path: Path, threads: int) -> tuple[dict, dict]:
    env = dict(os.environ, SFTWAVE_NUM_THREADS=str(threads))
    env.pop("OMP_NUM_THREADS", None)
    path = tmp_path / f"threads{threads}.npz"
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(path)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-3000:])
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    with np.load(path) as data:
        return info, {k: data[k] for k in data.files}


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return (a.shape == b.shape and a.dtype == b.dtype
            and np.array_equal(np.ascontiguousarray(a).view(np.uint8),
                               np.ascontiguousarray(b).view(np.uint8)))


@pytest.mark.slow
def test_plans_and_bits_do_not_depend_on_the_thread_count(tmp_path):
    runs = {t: _run(tmp_path, t) for t in THREADS}
    (info1, ref), rest = runs[1], [runs[t] for t in THREADS[1:]]
    assert info1["threads"] == 1
    kinds = {p[0] for call in info1["plans"] for p in
             ([step[1] for step in call] if isinstance(call[0][0], int) else call)}
    assert {"FIRPlan", "SFTPlan"} <= kinds       # the crossover really is crossed
    for t, (info, got) in zip(THREADS[1:], rest):
        assert info["threads"] == t
        assert info["plans"] == info1["plans"], t
        assert got.keys() == ref.keys()
        differ = [k for k in ref if not _same_bits(got[k], ref[k])]
        assert not differ, (t, differ)


def test_workers_argument_does_not_change_the_bits():
    """In one process: ``workers=`` and ``set_workers`` change the speed, not one bit."""
    rng = np.random.default_rng(3)
    x = np.cumsum(rng.standard_normal(300_001))
    freqs = [0.003, 0.02, 0.3]                        # few lanes: the bank, one row in chunks
    ref = sftwave.cwt(x, freqs, workers=1)
    for w in (2, 5, 16):
        assert _same_bits(sftwave.cwt(x, freqs, workers=w), ref), w
    with sftwave.set_workers(1):
        g1 = sftwave.gaussian_filter1d(x, 6.0)
        g2 = sftwave.gaussian_filter(x[:-1].reshape(3, -1), (0.0, 3.0))
    for w in (3, 8):
        with sftwave.set_workers(w):
            assert _same_bits(sftwave.gaussian_filter1d(x, 6.0), g1), w
            assert _same_bits(sftwave.gaussian_filter(x[:-1].reshape(3, -1), (0.0, 3.0)), g2), w


def test_the_cost_figure_is_a_constant():
    """The engine's FIR-versus-bank figure is the same whatever the thread count."""
    from sftwave.engines.numba import ENGINE, FIR_TAPS_PER_ORDER

    seen = set()
    for w in (1, 2, 7):
        with sftwave.set_workers(w):
            seen.add(ENGINE.fir_taps_per_order())
    assert seen == {FIR_TAPS_PER_ORDER}
