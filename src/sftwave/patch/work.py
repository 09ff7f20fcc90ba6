"""What a routed call would cost the anchor, and whether sftwave wins it.

sftwave's per-sample cost does not grow with the width, but each call has a fixed
cost (its checks, the plan and engine look-ups, the dispatch of compiled kernels),
and a process's first compiled call pays numba's import and the loading of its
kernels from the cache.  On a small input the anchor's whole call is shorter than
either.  The switch therefore routes an in-scope call only where it expects sftwave
to be faster: when the anchor's estimated time for the call is at least the
route's crossover (the anchor's time at which sftwave's warm call is as fast), and,
while sftwave's compiled engine is not yet loaded in the process, once such calls
add up to ``START_UP_S`` of the anchor's time (:func:`pays_start_up`).

The estimates are formulas of the call's shapes and parameters (never a clock), so
the same program routes the same calls on every machine.  Their constants were
fitted to the anchors' times on the 2-core machine of ``docs/benchmarks.md`` (its
"sizes" section): they need to be right within a factor of about two, which moves
the crossover by as much and, at the crossover, the two tools' times are equal.

Each route's ``work`` function takes the call's arguments bound to the anchor's
signature (defaults applied) and returns the anchor's estimated seconds.

Examples
--------
>>> round(gaussian_passes((1000, 1000), (2.0, 2.0)) * 1e3, 1)   # scipy.ndimage, 2-D
37.0
>>> gaussian_passes((64, 64), (2.0, 2.0)) < GAUSSIAN_CROSSOVER_S   # scipy's call: shorter
True
"""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["pays_start_up", "engine_loaded", "gaussian_passes"]

#: One pass of a 1-D convolution along an axis (scipy.ndimage's ``correlate1d``): the
#: seconds per element for the pass itself (reading, the line buffer, writing) ...
PASS_S = 10e-9
#: ... and per element and tap of the kernel.
TAP_S = 0.5e-9
#: The anchors' work per element beside their convolutions (a conversion, a gradient by
#: differences, an eigenvalue in closed form).
ELEMENT_S = 5e-9
#: pycwt's transform: seconds per scale and per FFT point and factor of log2 of its length.
FFT_S = 4e-9
#: MNE's convolution of one signal by one wavelet: seconds per sample of the signal plus
#: the wavelet (its ``fftconvolve`` of a few lengths, the power or phase from it) ...
CONVOLVE_S = 60e-9
#: ... and per convolution (its set-up).
CONVOLUTION_S = 30e-6

#: The anchor's time at which sftwave's warm call is as fast: the Gaussian family ...
GAUSSIAN_CROSSOVER_S = 2e-3
#: ... and the wavelet transforms (their plans and scale sets cost more per call).
WAVELET_CROSSOVER_S = 5e-3
#: The anchor's time the calls must add up to before the switch loads sftwave's compiled
#: engine in a process: numba's import, its CPU target and the call's kernels read from the
#: cache take about a second in a fresh process.
START_UP_S = 1.0


def engine_loaded() -> bool:
    """Whether sftwave's compiled engine (numba and its kernels' module) is loaded here.

    Returns
    -------
    bool
        True once a call in this process has used sftwave's numba engine: its start-up
        is paid, and the switch routes every call past its route's crossover.

    See Also
    --------
    pays_start_up : The decision it informs.

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> _ = sftwave.cwt(np.ones(1000), [5.0, 10.0], fs=100.0)   # compiled kernels
    >>> engine_loaded()
    True
    """
    return "numba" in sys.modules and "sftwave.engines.numba" in sys.modules


_LOCK = threading.Lock()
_WAITING = [0.0]  # the anchor's estimated seconds of the calls kept from sftwave's start-up


def pays_start_up(seconds: float) -> bool:
    """Whether a call that sftwave would win once warm goes to sftwave now.

    Once sftwave's engine is loaded: yes.  Before: only when this call and the earlier
    ones kept from the start-up add up to ``START_UP_S`` of the anchor's time.  This
    is the rule of renting until the rent paid would have bought: never worse than twice
    the better choice made knowing the program's future, and a short script never pays
    the start-up.  Each call that asks is counted.

    Parameters
    ----------
    seconds : float
        The anchor's estimated time for the call.

    Returns
    -------
    bool
        True: route the call to sftwave.

    See Also
    --------
    engine_loaded : Whether the start-up is already paid.
    sftwave.patch.patch : The switch that asks.

    Examples
    --------
    >>> pays_start_up(2 * START_UP_S)   # a call longer than the start-up: always
    True
    """
    if engine_loaded():
        return True
    with _LOCK:
        _WAITING[0] += seconds
        return _WAITING[0] >= START_UP_S


def radius(sigma: float, truncate: float = 4.0) -> int:
    """scipy.ndimage's kernel radius: ``int(truncate * sigma + 0.5)``."""
    return int(float(truncate) * float(sigma) + 0.5)


def axis_values(value: Any, n: int) -> list[float]:
    """A scalar or a sequence as ``n`` floats (a sequence of another length: its values cycled)."""
    if isinstance(value, (int, float)) or getattr(value, "ndim", None) == 0:
        return [float(value)] * n
    values = [float(v) for v in value]
    return [values[k % len(values)] for k in range(n)] if values else [0.0] * n


def gaussian_passes(
    shape: Sequence[int], sigmas: Iterable[float], truncate: float = 4.0, radii: Iterable[int] | None = None
) -> float:
    """scipy.ndimage's estimated seconds for one separable Gaussian.

    One pass of a 1-D correlation per axis: ``PASS_S`` per element and
    ``TAP_S`` per element and tap, the taps ``2 r + 1`` with scipy's radius
    ``r = int(truncate * sigma + 0.5)``; an axis of sigma 0 is skipped, as scipy does.

    Parameters
    ----------
    shape : sequence of int
        The array's shape.
    sigmas : iterable of float
        One sigma per axis filtered (zip-ed with ``shape``'s axes).
    truncate : float, optional
        scipy's ``truncate``.
    radii : iterable of int, optional
        scipy's ``radius`` per axis, instead of ``truncate``.

    Returns
    -------
    float
        The seconds.

    See Also
    --------
    pays_start_up : Where the estimates are used.

    Examples
    --------
    >>> round(gaussian_passes((1000,), (4.0,)) * 1e6, 1)   # 33 taps on 1,000 samples
    26.5
    """
    size = math.prod(int(n) for n in shape)
    sigmas = list(sigmas)
    taps = [2 * r + 1 for r in radii] if radii is not None else [2 * radius(s, truncate) + 1 for s in sigmas]
    return sum(size * (PASS_S + TAP_S * t) for s, t in zip(sigmas, taps) if s > 1e-15)


def elements(shape: Sequence[int], per_element: float = ELEMENT_S) -> float:
    """The seconds of an element-wise step over ``shape``."""
    return math.prod(int(n) for n in shape) * per_element


def fft_scales(n: int, scales: int) -> float:
    """pycwt's seconds for ``scales`` rows of a transform of ``n`` samples (padded to a power of 2)."""
    nfft = 1 << max(1, math.ceil(math.log2(max(int(n), 2))))
    return FFT_S * scales * nfft * math.log2(nfft)
