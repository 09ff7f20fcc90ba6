"""Does a long float32 signal drift?  Not a timing (called by run.py).

The signal is ``x + 5`` with ``x`` a seeded random walk normalised to zero
mean and unit standard deviation, stored as float32.  Each float32 result is
compared with the float64 result of the same method on the same
(float32-rounded) samples, so only the engine's float32 handling is measured,
not the rounding of the input.  The relative RMSE is taken in every block of
1000 samples; the acceptance criterion is <= 1e-5 in every block.
"""

from __future__ import annotations

import numpy as np

import sftwave
from sftwave.engines.numba import ENGINE
from sftwave.engines.numba import bank as numba_bank
from sftwave.plans import FIRPlan, WidePlan, select_gaussian

BLOCK = 1000
CRITERION = 1e-5


def signal(n: int, seed: int = 3) -> np.ndarray:
    x = np.cumsum(np.random.default_rng(seed).standard_normal(n))
    x = (x - x.mean()) / x.std()
    return (x + 5.0).astype(np.float32)


def block_rel_rmse(y: np.ndarray, ref: np.ndarray, block: int = BLOCK) -> np.ndarray:
    """Relative RMSE of ``y`` against ``ref`` in each block of ``block`` samples."""
    nb = ref.size // block
    d = (y[: nb * block].astype(np.float64) - ref[: nb * block]).reshape(nb, block)
    r = ref[: nb * block].reshape(nb, block)
    return np.sqrt(np.sum(d**2, axis=1) / np.sum(r**2, axis=1))


def drift(quick: bool) -> dict:
    n = 200_000 if quick else 10_000_000
    x32 = signal(n)
    x64 = x32.astype(np.float64)
    rows = []
    for sigma in (8.0, 128.0, 2048.0):
        for order in (0, 2):
            for transform in ("auto", "sft", "asft"):
                # the plan gaussian_filter1d runs on the CPU engine ('auto' is the SFT)
                plan = select_gaussian(sigma, order, n=n, wide=True,
                                       transform="sft" if transform == "auto" else transform,
                                       fir_taps_per_order=ENGINE.fir_taps_per_order())
                y32 = sftwave.gaussian_filter1d(x32, sigma, order=order, transform=transform)
                y64 = sftwave.gaussian_filter1d(x64, sigma, order=order, transform=transform)
                err = block_rel_rmse(y32, y64)
                rows.append({
                    "sigma": sigma,
                    "order": order,
                    "transform": transform,
                    "path": ("direct" if isinstance(plan, FIRPlan)
                             else "wide" if isinstance(plan, WidePlan)
                             else f"bank:{numba_bank.resolve_method('auto')}"),
                    "output_dtype": str(y32.dtype),
                    "max_block_rel_rmse": float(err.max()),
                    "argmax_block": int(err.argmax()),
                    "last_block_rel_rmse": float(err[-1]),
                    "first_block_rel_rmse": float(err[0]),
                    "passes": bool(err.max() <= CRITERION),
                })
                del y32, y64
    return {
        "n": n,
        "block": BLOCK,
        "criterion_max_rel_rmse": CRITERION,
        "signal": "float32(x + 5), x = seeded random walk (seed 3) normalised to zero mean, unit std",
        "reference": "float64 result of the same call on the same float32-rounded samples",
        "rows": rows,
        "all_pass": all(r["passes"] for r in rows),
    }
