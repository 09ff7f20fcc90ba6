"""Reaches: the samples a chunk needs from each neighbour, from the plans the in-memory call runs.

A reach is the support of a plan (:func:`sftwave.engines.nonfinite.support`:
an SFT plan's window, a FIR's radius, the FFT's exact wavelet's radius; None
for the exact wide-kernel limit, which reads the whole axis), the plan being
the one the in-memory function selects for the whole length with the same
arguments and the same engine cost figures.  Per axis of an image, a list
(None: that axis whole).

What depends on the wavelet is asked of its family object, in one place:
:func:`family_reach`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import engines
from .._checks import per_axis
from .._scale_space import DERIVATIVE_TOL, derivative_truncate
from ..engines import nonfinite
from ..plans import DEFAULT_MORLET_TOL, FFTPlan, WidePlan, select_gaussian
from ..plans.families import wavelet_family

__all__ = ["gaussian_reach", "filter_reach", "add_reach", "max_reach", "hessian_reach",
           "family_reach", "coherence_reach", "ssq_reach"]


def gaussian_reach(sigma: float, order: int, n: int, *, truncate: float, radius: int | None = None,
                   method: str = "auto", transform: str = "auto", tol: float | None = None,
                   cost: float | None = None, engine: str = "numba",
                   design: float | None = None) -> int | None:
    """The half-window of the plan :func:`sftwave.gaussian_filter1d` selects for ``n`` samples
    (``cost``: the engine's FIR-versus-bank figure for the call's dtypes; None: its generic
    one; ``design``: its figure for a FIR as accurate as the bank, whose half-window is at
    most the bank's, so that without it the reach is the bank's, enough either way); None
    where it is the exact wide-kernel limit.

    Examples
    --------
    >>> gaussian_reach(3.0, 0, 1000, truncate=4.0, method="fir")
    12
    """
    eng = engines.get(engine)
    plan = select_gaussian(float(sigma), int(order), truncate=truncate, radius=radius, method=method,
                           transform="asft" if transform == "asft" else "sft", tol=tol, n=n,
                           fir_taps_per_order=eng.fir_taps_per_order() if cost is None else cost,
                           wide=engines.CAPABILITIES[engine].wide, design_taps_per_order=design)
    if isinstance(plan, WidePlan):
        return None
    return max(nonfinite.support(plan, n))


def filter_reach(shape: tuple[int, ...], sigmas: Sequence[float], orders: Sequence[int],
                 axes: Sequence[int], truncate: float, tol: float | None) -> list[int | None]:
    """Per axis of an image, the samples one :func:`sftwave.gaussian_filter` call reads from
    each side (None: the exact wide-kernel limit, which needs the whole axis)."""
    reach: list[int | None] = [0] * len(shape)
    for ax, s, o in zip(axes, sigmas, orders, strict=True):
        if float(s) > 0:
            reach[ax] = gaussian_reach(float(s), int(o), int(shape[ax]), truncate=truncate, tol=tol)
    return reach


def add_reach(*reaches: list[int | None]) -> list[int | None]:
    """The reach of filters applied one after another: the sum, per axis.

    Examples
    --------
    >>> add_reach([1, None, 2], [3, 4, 5])
    [4, None, 7]
    """
    return [None if any(r is None for r in rs) else sum(r for r in rs if r is not None)
            for rs in zip(*reaches, strict=True)]


def max_reach(*reaches: list[int | None]) -> list[int | None]:
    """The reach of filters applied side by side: the largest, per axis.

    Examples
    --------
    >>> max_reach([1, None, 2], [3, 4, 0])
    [3, None, 2]
    """
    return [None if any(r is None for r in rs) else max(r for r in rs if r is not None)
            for rs in zip(*reaches, strict=True)]


def hessian_reach(shape: tuple[int, ...], sigma: Any, use_gaussian_derivatives: Any,
                  tol: float | None, spacing: Sequence[float] | None = None) -> list[int | None]:
    """Per axis, the samples :func:`sftwave.feature.hessian_matrix` reads from each side
    (``spacing``, checked: the sigmas are physical, ``sigma / spacing`` samples)."""

    ndim = len(shape)
    sigmas = [float(s) / (1.0 if spacing is None else spacing[k])
              for k, s in enumerate(per_axis(sigma, ndim, "sigma"))]
    axes = list(range(ndim))
    if use_gaussian_derivatives:         # two first-derivative passes at sigma / sqrt(2)
        scaled = [s / np.sqrt(2.0) for s in sigmas]
        truncate = derivative_truncate(sigmas)
        tol = DERIVATIVE_TOL if tol is None else tol
        one = max_reach(filter_reach(shape, scaled, [0] * ndim, axes, truncate, tol),
                        filter_reach(shape, scaled, [1] * ndim, axes, truncate, tol))
        return add_reach(one, one)
    smooth = filter_reach(shape, sigmas, [0] * ndim, axes, 4.0, tol)
    return add_reach(smooth, [2] * ndim)  # np.gradient twice: one sample each


def family_reach(wavelet: str, f: np.ndarray, fs: float, n: int, *, xi: Any, tol: float | None,
                 method: str, transform: str, mode: str, engine: str = "numba",
                 fft: bool = True, output: str = "complex") -> tuple[int, np.ndarray]:
    """The widest half-window of the plans :func:`sftwave.cwt` may run for the frequencies ``f``
    on ``n`` samples, and which of them it runs by FFT (``'auto'`` decides that for the whole
    signal, the same for either design; ``fft=False``: none, as ``ssq_cwt(fft=False)``).

    The plans are the family's own (:meth:`~sftwave.wavelets.WaveletFamily.select_plans`:
    the SFT's and the ASFT's designs both, unless ``transform`` names one: the engine picks
    one by the output's precision), the FFT's rows only where the family may take it, and
    ``output`` is checked by the family.

    Examples
    --------
    >>> reach, fft = family_reach("morlet", np.array([0.1]), 1.0, 100000, xi=6.0, tol=None,
    ...                           method="bank", transform="auto", mode="reflect")
    >>> 0 < reach < 1000, fft.tolist()            # a bank's window: far shorter than the signal
    (True, [False])
    >>> family_reach("mexh", np.array([0.1]), 1.0, 100000, xi=6.0, tol=None, method="bank",
    ...              transform="auto", mode="reflect")[0] > 0
    True
    """
    family = wavelet_family(wavelet)
    family.check_output(output)
    eng = engines.get(engine)
    cost = eng.fir_taps_per_order()
    tol = float(tol or DEFAULT_MORLET_TOL)
    xis = family.check_xi(xi, f.size)
    sigmas = family.scale(f, fs, xis)
    options: dict[str, Any] = dict(method=method, n=n, fir_taps_per_order=cost, mode=mode)
    reach, on_fft = 0, np.zeros(f.shape, bool)
    if fft and family.uses_fft():
        whole = family.select_plans(sigmas.tolist(), xis, tol, transform="sft",
                                    fft_point_cost=eng.fft_point_cost(), **options)
        on_fft = np.array([isinstance(p, FFTPlan) for p in whole], bool).reshape(f.shape)
        for p in whole:
            if isinstance(p, FFTPlan):
                reach = max(reach, *nonfinite.support(p, n))
    rest = ~on_fft
    for t in sorted({transform} - {"auto"} or {"sft", "asft"}):
        for plan in family.select_plans(sigmas[rest].tolist(), xis[rest], tol, transform=t,
                                        fft_point_cost=None, **options):
            reach = max(reach, *nonfinite.support(plan, n))
    return int(reach), on_fft


def coherence_reach(f: np.ndarray, fs: float, sig: np.ndarray, n: int, xi: float, mode: str,
                    tol: float | None) -> tuple[int | None, np.ndarray]:
    """Samples a time chunk needs from each neighbour for :func:`sftwave.coherence.wct`: the
    transform's widest half-window plus the widest time smoothing's (None: a smoothing needs
    the whole axis); and the rows the whole record's transform runs by FFT."""
    reach, fft = family_reach("morlet", f, fs, n, xi=xi, tol=tol, method="auto",
                              transform="auto", mode=mode)
    smooth = [gaussian_reach(float(s), 0, n, truncate=4.0, tol=tol) for s in sig]
    if any(r is None for r in smooth):
        return None, fft
    return int(reach) + max(int(r) for r in smooth if r is not None), fft


def ssq_reach(f: np.ndarray, fs: float, n: int, xi: float, tol: float | None, mode: str) -> int:
    """The samples on either side of a column that :func:`sftwave.synchrosqueeze.ssq_cwt` reads
    without the FFT on ``n`` samples: its widest wavelet's window (either design), at least
    the sixth-order difference's 3."""
    reach, _ = family_reach("morlet", f, fs, n, xi=xi, tol=tol, method="auto", transform="auto",
                            mode=mode, fft=False)
    return max(3, reach)
