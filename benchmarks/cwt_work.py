"""How much work sftwave's CWT does: components per scale and lane updates (docs/performance.md).

    .venv/bin/python benchmarks/cwt_work.py

For N = 1e5 samples and 200 log-spaced frequencies from 1 to 100 Hz at 1 kHz,
xi = 6: which path each scale takes at the default tol (ASFT, float32 state)
and at 5e-5 (SFT, float64 state), the number of complex components, and the
total number of complex recursion updates (sum of P times N).
"""

import sys

import numpy as np

import sftwave  # noqa: F401  (registers sftwave.cwt the module)

m = sys.modules["sftwave.cwt"]
n = 100_000
sig = m.frequency_to_scale(np.geomspace(1, 100, 200), 1000.0, 6.0)
for tol, transform in ((1e-4, "asft"), (5e-5, "sft")):
    paths = [m._choose(float(s), 6.0, tol, "auto", transform, "iir1", n) for s in sig]
    P = [p[1].omegas.size for p in paths if p[0] == "bank"]
    fir = [p[1].size for p in paths if p[0] == "fir"]
    print(f"tol {tol:g} ({transform}): {len(P)} bank scales, components per scale "
          f"{min(P)}..{max(P)} (mean {np.mean(P):.1f}); {len(fir)} FIR scales; "
          f"lane updates {sum(P) * n:.3g}")
