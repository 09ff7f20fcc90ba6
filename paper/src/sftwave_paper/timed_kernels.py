"""What the timing experiment runs: its kernels, plans, reference and argument checks.

Shared by :mod:`~sftwave_paper.timing` (the sweeps, summary and
figures) and :mod:`~sftwave_paper.series` (the timed series of
each engine).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from sftwave.plans import select_gaussian, select_morlet
from sftwave.plans.gaussian import gaussian_target, scipy_gaussian_kernel, scipy_kernel_error
from sftwave.plans.morlet import morlet_target

__all__ = ["XI", "TRUNC_SIGMAS", "MODE", "REFERENCE_SIGMAS", "KERNELS", "ENGINES", "check_engines",
           "check_dtype", "check_kernel", "check_sigma", "check_grid", "truncated_kernel",
           "truncated_error", "proposed_plan", "exact_reference", "relative_rmse"]

#: The Morlet wavelet's xi (radians per standard deviation).
XI = 6.0
#: Half-width of the truncated kernels, in sigmas (GCT3, MCT3).
TRUNC_SIGMAS = 3.0
#: Boundary mode of every series.
MODE = "reflect"
#: Half-width of the exact reference kernel, in sigmas (the envelope is below e^-84 beyond).
REFERENCE_SIGMAS = 13.0
#: The two transforms.
KERNELS = ("gaussian", "morlet")
#: Engine groups, each a proposed method and its truncated convolution.
ENGINES = ("numba", "xp-numpy", "xp-torch-cpu", "xp-torch-cuda", "cuda")

# --------------------------------------------------------------------------- arguments


def check_engines(engines: Sequence[str] | str | None) -> tuple[str, ...]:
    """Validate engine names: None means all of :data:`ENGINES`; a string may list them with commas.

    Examples
    --------
    >>> check_engines("numba,xp-numpy")
    ('numba', 'xp-numpy')
    >>> check_engines(["gpu"])
    Traceback (most recent call last):
    ...
    ValueError: engines: unknown engine 'gpu'; choose from 'numba', 'xp-numpy', 'xp-torch-cpu', 'xp-torch-cuda', 'cuda'
    """
    if engines is None:
        return ENGINES
    if isinstance(engines, str):
        engines = [e.strip() for e in engines.split(",") if e.strip()]
    out = []
    for e in engines:
        if not isinstance(e, str) or e not in ENGINES:
            valid = ", ".join(repr(v) for v in ENGINES)
            raise ValueError(f"engines: unknown engine {e!r}; choose from {valid}")
        if e not in out:
            out.append(e)
    if not out:
        raise ValueError(f"engines: no engine given; got {engines!r}")
    return tuple(out)


def check_kernel(kernel: str) -> str:
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}")
    return kernel


def check_sigma(sigma) -> float:
    try:
        s = float(sigma)
    except (TypeError, ValueError):
        raise TypeError(f"sigma must be a real number; got {sigma!r}") from None
    if not math.isfinite(s) or s <= 0:
        raise ValueError(f"sigma must be positive and finite; got {sigma!r}")
    if s < 1.0:
        raise ValueError(f"sigma must be at least 1 sample for this experiment; got {sigma!r}")
    return s


def check_grid(values, name: str, integer: bool) -> tuple:
    try:
        vals = list(values)
    except TypeError:
        raise TypeError(f"{name} must be a sequence; got {values!r}") from None
    if not vals:
        raise ValueError(f"{name} must not be empty; got {values!r}")
    if integer:
        bad = [v for v in vals if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1]
        if bad:
            raise ValueError(f"{name} must hold positive integers; got {bad[0]!r}")
        return tuple(int(v) for v in vals)
    return tuple(check_sigma(v) for v in vals)


def check_dtype(dtype) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be float32 or float64; got {dtype!r}") from None
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64; got {dtype!r}")
    return dt


# --------------------------------------------------------------------------- kernels


def _radius(sigma: float) -> int:
    """scipy's radius for ``truncate=3``: ``int(3 sigma + 0.5)`` (6 sigma + 1 taps for integer sigma)."""
    return int(TRUNC_SIGMAS * sigma + 0.5)


def truncated_kernel(kernel: str, sigma: float, xi: float = XI) -> np.ndarray:
    r"""The truncated kernel ``h[k]``, ``k = -r .. r`` with ``r = int(3 sigma + 0.5)`` (float64).

    ``'gaussian'``: scipy's ``gaussian_filter1d`` kernel at ``truncate=3``
    (normalised to sum one), GCT3; ``'morlet'``: :math:`\psi_{\sigma,\xi}[k]`
    as it is, MCT3 (complex).  Both are convolution kernels:
    ``y[n] = sum_k h[k] x[n - k]``.

    Examples
    --------
    >>> h = truncated_kernel("morlet", 16.0)
    >>> h.size, h.dtype
    (97, dtype('complex128'))
    """
    kernel = check_kernel(kernel)
    sigma = check_sigma(sigma)
    r = _radius(sigma)
    if kernel == "gaussian":
        return scipy_gaussian_kernel(sigma, 0, r)
    return morlet_target(sigma, xi)(np.arange(-r, r + 1))


def _exact_kernel(kernel: str, sigma: float, xi: float, R: int) -> np.ndarray:
    k = np.arange(-R, R + 1)
    if kernel == "gaussian":
        return gaussian_target(sigma, 0)(k)
    return morlet_target(sigma, xi)(k)


def truncated_error(kernel: str, sigma: float, xi: float = XI) -> float:
    """Relative RMSE of :func:`truncated_kernel` against the exact untruncated sampled kernel.

    For ``sigma >= 16``: 0.49 % to 0.54 % (Gaussian), 0.42 % to 0.47 %
    (Morlet, ``xi = 6``).

    Examples
    --------
    >>> round(truncated_error("morlet", 60.0), 5)      # as in section V-A
    0.00458
    """
    return _cached_truncated_error(check_kernel(kernel), check_sigma(sigma), float(xi))


@lru_cache(maxsize=256)
def _cached_truncated_error(kernel: str, sigma: float, xi: float) -> float:
    r = _radius(sigma)
    if kernel == "gaussian":
        return scipy_kernel_error(sigma, 0, r)
    R = r + math.ceil(REFERENCE_SIGMAS * sigma)
    exact = _exact_kernel(kernel, sigma, xi, R)
    diff = exact.copy()
    diff[R - r:R + r + 1] -= truncated_kernel(kernel, sigma, xi)
    return float(np.sqrt(np.sum(np.abs(diff) ** 2) / np.sum(np.abs(exact) ** 2)))


def proposed_plan(kernel: str, sigma: float, n: int, xi: float = XI, tol: float | None = None):
    """The SFT plan the proposed method runs for a line of ``n`` samples.

    The cheapest plan whose kernel error is at most ``tol`` (default: the
    truncated kernel's, :func:`truncated_error`); if the line is shorter than
    the plan's window, the target is tightened as sftwave's public functions
    tighten it: the selectors :func:`sftwave.plans.select_gaussian` (the
    bank) and :func:`sftwave.plans.select_morlet` (the direct method), both SFT.

    Examples
    --------
    >>> plan = proposed_plan("morlet", 64.0, 102400)
    >>> plan.info["method"], plan.error <= truncated_error("morlet", 64.0)
    ('direct', True)
    """
    kernel = check_kernel(kernel)
    sigma = check_sigma(sigma)
    target = truncated_error(kernel, sigma, xi) if tol is None else float(tol)

    if kernel == "gaussian":
        return select_gaussian(sigma, 0, method="bank", transform="sft", tol=target, n=n)
    return select_morlet(sigma, float(xi), target, method="direct", transform="sft", n=n)


def exact_reference(x: np.ndarray, kernel: str, sigma: float, xi: float = XI) -> np.ndarray:
    """The exact convolution of ``x`` with the untruncated kernel, ``mode='reflect'``, float64.

    The kernel on ``|k| <= ceil(13 sigma)``, the line extended as
    scipy.ndimage's ``'reflect'`` extends it (repeatedly, for short lines), by
    FFT.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(300)
    >>> from scipy import ndimage
    >>> y = ndimage.gaussian_filter1d(x, 4.0, truncate=13.0)
    >>> bool(np.allclose(exact_reference(x, "gaussian", 4.0), y, rtol=0, atol=1e-13))
    True
    """
    from scipy.signal import fftconvolve

    kernel = check_kernel(kernel)
    sigma = check_sigma(sigma)
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array; got shape {x.shape}")
    R = math.ceil(REFERENCE_SIGMAS * sigma)
    xe = np.pad(x, R, mode="symmetric")  # scipy's 'reflect': d c b a | a b c d | d c b a
    return fftconvolve(xe, _exact_kernel(kernel, sigma, xi, R), mode="valid")


def relative_rmse(y, ref: np.ndarray) -> float:
    """``sqrt(sum |y - ref|^2 / sum |ref|^2)``, in float64.

    Examples
    --------
    >>> relative_rmse(np.array([1.0, 2.0]), np.array([1.0, 1.0]))
    0.7071067811865476
    """
    y = np.asarray(y).astype(np.complex128 if np.iscomplexobj(y) else np.float64)
    ref = np.asarray(ref)
    if y.shape != ref.shape:
        raise ValueError(f"y and ref must have the same shape; got {y.shape} and {ref.shape}")
    return float(np.sqrt(np.sum(np.abs(y - ref) ** 2) / np.sum(np.abs(ref) ** 2)))
