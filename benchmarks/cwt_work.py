"""How much work sftwave's CWT does: components per scale and lane updates (docs/performance.md).

    .venv/bin/python benchmarks/cwt_work.py

For N = 1e5 samples and 200 log-spaced frequencies from 1 to 100 Hz at 1 kHz,
xi = 6: which path each scale takes at the default tol (ASFT, float32 state)
and at 5e-5 (SFT, float64 state), the number of complex components, and the
total number of complex recursion updates (sum of P times N).
"""

import numpy as np

from sftwave import frequency_to_scale
from sftwave.engines.numba import ENGINE
from sftwave.plans import FIRPlan, SFTPlan, select_morlet

n = 100_000
sig = frequency_to_scale(np.geomspace(1, 100, 200), 1000.0, 6.0)
for tol, transform in ((1e-4, "asft"), (5e-5, "sft")):
    # the plan each scale gets on the CPU engine (its FIR-versus-bank cost figure)
    plans = [select_morlet(float(s), 6.0, tol, method="auto", transform=transform, n=n,
                           fir_taps_per_order=ENGINE.fir_taps_per_order()) for s in sig]
    P = [p.omegas.size for p in plans if isinstance(p, SFTPlan)]
    fir = [p.size for p in plans if isinstance(p, FIRPlan)]
    print(f"tol {tol:g} ({transform}): {len(P)} bank scales, components per scale "
          f"{min(P)}..{max(P)} (mean {np.mean(P):.1f}); {len(fir)} FIR scales; "
          f"lane updates {sum(P) * n:.3g}")
