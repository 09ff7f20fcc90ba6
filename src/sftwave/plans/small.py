"""Which calls run their FIR plans without numba's kernels (numpy's sums, or scipy.ndimage's).

A call on few samples is all fixed cost: in a fresh process numba's import
and CPU target set-up (about 0.7 s) before the first kernel, in a warm one its
dispatches and the thread pool.  Where every axis's plan is a FIR and the
input holds at most :data:`SMALL_FIR_SAMPLES` samples, the CPU engine runs
those taps in numpy or with scipy's C loop (``sftwave.engines.numba.small_fir``),
which sum as the engine's kernels do, bit for bit; numba is not imported.  In a
process that has not loaded the engine's kernels a larger call takes that
path too (up to :data:`NUMBA_FREE_SAMPLES`) where numpy runs it in less time
than loading numba's kernels costs: a one-call script is over before numba's
import would have paid.  Which path runs never changes the bits.  No numba here.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from .fit import FIRPlan

__all__ = ["SMALL_FIR_SAMPLES", "NUMBA_FREE_SAMPLES", "small_input", "small_fir"]

#: The most samples a call may hold for scipy's ``correlate1d`` to run its FIR plans: below,
#: the engine's fixed cost per call exceeds the work its threads save (the measured
#: crossover: docs/performance.md, *Small calls without numba*).
SMALL_FIR_SAMPLES = 1 << 15

#: The most samples of a call that may take the small path in a process without the engine's
#: kernels.  The engine then weighs the call's taps: its ``filter_small`` declines a call that
#: numpy would run for longer than loading numba's kernels costs.
NUMBA_FREE_SAMPLES = 1 << 22


def small_input(x: Any, cval: Any, nan_policy: str, samples: int | None = None) -> bool:
    """Whether a call on ``x`` may take the small path: a real numpy array of at most
    ``samples`` samples (None: :data:`SMALL_FIR_SAMPLES`), a real ``cval`` and
    ``nan_policy='propagate'``.

    Examples
    --------
    >>> small_input(np.ones((32, 32)), 0.0, "propagate")
    True
    >>> small_input(np.ones((32, 32), complex), 0.0, "propagate")
    False
    """
    limit = SMALL_FIR_SAMPLES if samples is None else samples
    return (type(x) is np.ndarray and x.dtype.kind in "biuf" and x.size <= limit
            and nan_policy == "propagate" and isinstance(cval, Real))


def small_fir(steps: list[tuple[int, Any, str]]) -> bool:
    """Whether every step's plan is a real FIR: the small path runs them.

    Examples
    --------
    >>> small_fir([(0, FIRPlan(np.array([0.25, 0.5, 0.25])), "reflect")])
    True
    """
    return all(type(plan) is FIRPlan and plan.kernel.dtype.kind == "f" for _, plan, _ in steps)
