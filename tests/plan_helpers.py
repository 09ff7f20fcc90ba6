"""The plans the public functions select on the CPU engine, for tests that look at them.

``numba_gaussian_plan(sigma, order, **kw)`` is what ``sftwave.gaussian_filter1d``
(engine 'numba') runs along an axis of ``n`` samples of a float64 array: the
selector with the CPU engine's cost figures and its wide-kernel path.  ``kind(plan)`` names the
plan's type as the tests speak of it.
"""

from __future__ import annotations

import numpy as np

from sftwave.engines.numba import ENGINE
from sftwave.plans import FIRPlan, SFTPlan, WidePlan, select_gaussian, select_morlet


def numba_gaussian_plan(sigma, order, *, transform="auto", **kw):
    return select_gaussian(sigma, order, transform="sft" if transform == "auto" else transform,
                           fir_taps_per_order=ENGINE.fir_taps_per_order(), wide=True,
                           design_taps_per_order=ENGINE.design_taps_per_order_for(
                               np.float64, None, order), **kw)


def numba_morlet_plan(sigma, xi, tol, *, transform="auto", **kw):
    return select_morlet(sigma, xi, tol, transform="sft" if transform == "auto" else transform,
                         fir_taps_per_order=ENGINE.fir_taps_per_order(), **kw)


def kind(plan) -> str:
    """'bank', 'fir' or 'wide'."""
    if isinstance(plan, SFTPlan):
        return "bank"
    if isinstance(plan, FIRPlan):
        return "fir"
    if isinstance(plan, WidePlan):
        return "wide"
    raise TypeError(type(plan).__name__)
