"""Which calls run their FIR plans by scipy.ndimage's ``correlate1d`` instead of numba's kernels.

A call on few samples is all fixed cost: in a fresh process numba's import
and CPU target set-up (about 0.7 s) before the first kernel, in a warm one its
dispatches and the thread pool.  Where every axis's plan is a FIR and the
input holds at most :data:`SMALL_FIR_SAMPLES` samples, the CPU engine runs
those taps with scipy's C loop (``sftwave.engines.numba.small_fir``), which
sums as the engine's FIR kernels do (the calls its float32 rows may smooth
keep the engine's path); numba is not imported.  The rule reads
the arguments alone (never the load or the threads).  No numba here.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from .fit import FIRPlan

__all__ = ["SMALL_FIR_SAMPLES", "small_input", "small_fir"]

#: The most samples a call may hold for scipy's ``correlate1d`` to run its FIR plans: below,
#: the engine's fixed cost per call exceeds the work its threads save (the measured
#: crossover: docs/performance.md, *Small calls without numba*).
SMALL_FIR_SAMPLES = 1 << 15


def small_input(x: Any, cval: Any, nan_policy: str) -> bool:
    """Whether a call on ``x`` may take the small path: a real numpy array of at most
    :data:`SMALL_FIR_SAMPLES` samples, a real ``cval`` and ``nan_policy='propagate'``.

    Examples
    --------
    >>> small_input(np.ones((32, 32)), 0.0, "propagate")
    True
    >>> small_input(np.ones((32, 32), complex), 0.0, "propagate")
    False
    """
    return (type(x) is np.ndarray and x.dtype.kind in "biuf" and x.size <= SMALL_FIR_SAMPLES
            and nan_policy == "propagate" and isinstance(cval, Real))


def small_fir(steps: list[tuple[int, Any, str]]) -> bool:
    """Whether every step's plan is a real FIR: the small path runs them by ``correlate1d``.

    Examples
    --------
    >>> small_fir([(0, FIRPlan(np.array([0.25, 0.5, 0.25])), "reflect")])
    True
    """
    return all(type(plan) is FIRPlan and plan.kernel.dtype.kind == "f" for _, plan, _ in steps)
