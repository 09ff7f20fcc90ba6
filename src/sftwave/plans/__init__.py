"""Plans: what to compute, decided once, in pure numpy/scipy (no numba).

A plan is a typed, frozen description that every engine can run:

``SFTPlan`` (``sftwave.plans.fit``)
    A fitted bank of damped exponentials: frequencies, decay, window, lag,
    coefficients, kernel sums and the kernel's error.
``FIRPlan``
    A truncated convolution kernel.
``WidePlan``
    A Gaussian far wider than the signal, by its exact limit.
``FFTPlan`` (``sftwave.plans.spectral``)
    The exact Morlet wavelet, applied by FFT (short signals, many scales).

The fits and targets live in ``sftwave.plans.fit`` (the generic
least-squares machinery), ``sftwave.plans.gaussian`` and
``sftwave.plans.morlet``; designs are cached in memory and on disk
(``sftwave.plans.cache``).  ``sftwave.plans.select`` holds the one
selector per transform and the whole policy.  A new wavelet is a target
function and a ``select_*`` here.
"""

from .fit import TOL_FLOOR, FIRPlan, SFTPlan, WidePlan
from .select import (
    DEFAULT_MORLET_TOL,
    GAUSSIAN_METHODS,
    MORLET_METHODS,
    select_gaussian,
    select_morlet,
)
from .spectral import FFTPlan

__all__ = [
    "SFTPlan",
    "FIRPlan",
    "WidePlan",
    "FFTPlan",
    "select_gaussian",
    "select_morlet",
    "GAUSSIAN_METHODS",
    "MORLET_METHODS",
    "DEFAULT_MORLET_TOL",
    "TOL_FLOOR",
]
