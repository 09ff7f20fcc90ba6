"""Drop-in replacements for ``scipy.ndimage.gaussian_filter1d`` and ``gaussian_filter``.

Same signatures, boundary modes, output and dtype rules as scipy; the work is
done by the SFT/ASFT bank at a cost per sample that does not depend on sigma.
Keyword-only extras choose the method, the bank's method, the transform, the
accuracy and the engine.  This module validates the arguments, asks
:mod:`sftwave.plans` for one plan per axis and hands them to the engine
(:mod:`sftwave.engines`); it computes nothing itself.

Where sftwave differs from scipy, on purpose:

* ``order`` is limited to 0, 1 and 2 (scipy accepts any order).
* A zero ``sigma`` in :func:`gaussian_filter` skips that axis as scipy does, but
  only for ``order=0``; a derivative with zero sigma is a ``ValueError``
  (scipy silently returns the input for it).
* Bad arguments raise ``ValueError``/``TypeError``, never ``RuntimeError``.
* ``truncate`` sets the accuracy of the SFT path (at least that of scipy's
  kernel truncated there), not its support; an explicit ``radius`` is the
  support, and gives scipy's result.
* A kernel many times wider than the signal (sigma far beyond the length
  along the axis) gives the exact, untruncated Gaussian's result, computed
  by FFT at a cost bounded by the signal (:mod:`sftwave.engines.numba.wide`).
* :func:`gaussian_filter` keeps its intermediate results in floating point and
  casts once at the end; scipy casts after every axis, so integer outputs can
  differ from scipy's by one unit.
"""

from __future__ import annotations

from typing import Any

from . import engines
from ._checks import (
    check_axes,
    check_axis,
    check_choice,
    check_cval,
    check_mode,
    check_order,
    check_radius,
    check_sigma,
    check_tol,
    check_truncate,
    per_axis,
)
from ._docs import docfiller
from .plans import GAUSSIAN_METHODS, select_gaussian

__all__ = ["gaussian_filter1d", "gaussian_filter"]


def _plan_axis(eng, name: str, sigma: float, order: int, n: int, *, truncate: float, radius,
               method: str, transform: str, tol):
    return select_gaussian(sigma, order, truncate=truncate, radius=radius, method=method,
                           transform="sft" if transform == "auto" else transform, tol=tol, n=n,
                           fir_taps_per_order=eng.fir_taps_per_order(),
                           wide=engines.CAPABILITIES[name].wide)


@docfiller
def gaussian_filter1d(
    input,
    sigma: float,
    axis: int = -1,
    order: int = 0,
    output=None,
    mode: str = "reflect",
    cval: float = 0.0,
    truncate: float = 4.0,
    *,
    radius: int | None = None,
    method: str = "auto",
    bank_method: str = "auto",
    transform: str = "auto",
    tol: float | None = None,
    engine: str | None = None,
) -> Any:
    """1-D Gaussian filter, or its first or second derivative, along one axis.

    A drop-in replacement for ``scipy.ndimage.gaussian_filter1d`` whose cost per
    sample does not grow with ``sigma``.

    Parameters
    ----------
    %(gaussian_shared)s
    sigma : float
        Standard deviation of the Gaussian kernel, in samples (positive).
    axis : int, optional
        The axis along which to filter. Default -1.
    order : {0, 1, 2}, optional
        0 smooths; 1 and 2 convolve with the first and second derivative of the
        Gaussian.

    Returns
    -------
    ndarray
        The filtered array (``output`` itself if an array was given); on the
        engines other than 'numba', the input's array type.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import ndimage
    >>> x = np.cumsum(np.random.default_rng(0).standard_normal(5000))
    >>> y = gaussian_filter1d(x, 100.0)
    >>> ref = ndimage.gaussian_filter1d(x, 100.0, truncate=12.0)
    >>> bool(np.sqrt(np.mean((y - ref) ** 2) / np.mean(ref ** 2)) < 1e-5)
    True
    """
    name = engines.resolve_engine(engine, input)
    engines.check_request(name, transform=transform, bank_method=bank_method, output=output)
    eng = engines.get(name)
    x = eng.asarray(input, "input")
    sigma = check_sigma(sigma)
    order = check_order(order)
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=eng.is_complex(x))
    truncate = check_truncate(truncate)
    radius = check_radius(radius)
    method = check_choice(method, GAUSSIAN_METHODS, "method")
    tol = check_tol(tol)
    axis = check_axis(axis, len(x.shape))
    plan = _plan_axis(eng, name, sigma, order, int(x.shape[axis]), truncate=truncate,
                      radius=radius, method=method, transform=transform, tol=tol)
    return eng.filter(x, [(axis, plan, mode)], cval=cval, output=output, bank_method=bank_method)


@docfiller
def gaussian_filter(
    input,
    sigma,
    order=0,
    output=None,
    mode="reflect",
    cval: float = 0.0,
    truncate: float = 4.0,
    *,
    radius=None,
    axes=None,
    method: str = "auto",
    bank_method: str = "auto",
    transform: str = "auto",
    tol: float | None = None,
    engine: str | None = None,
) -> Any:
    """Multidimensional Gaussian filter (a sequence of 1-D filters), like scipy's.

    Parameters
    ----------
    %(gaussian_shared)s
    sigma : scalar or sequence of scalars
        Standard deviation for each axis in ``axes`` (zero skips an axis for
        ``order=0``, as in scipy).
    order : int or sequence of ints, optional
        Derivative order (0, 1 or 2) for each axis.
    axes : tuple of int or None, optional
        The axes to filter; ``sigma``, ``order``, ``mode`` and ``radius`` may be
        sequences with one entry per axis.  Default: all axes.

    Returns
    -------
    ndarray
        The filtered array (``output`` itself if an array was given); on the
        engines other than 'numba', the input's array type.

    Examples
    --------
    >>> import numpy as np
    >>> img = np.zeros((64, 64)); img[32, 32] = 1.0
    >>> blurred = gaussian_filter(img, sigma=(3.0, 6.0))
    >>> round(float(blurred.sum()), 6)
    1.0
    """
    name = engines.resolve_engine(engine, input)
    engines.check_request(name, transform=transform, bank_method=bank_method, output=output)
    eng = engines.get(name)
    x = eng.asarray(input, "input")
    axes = check_axes(axes, len(x.shape))
    naxes = len(axes)
    sigmas = [check_sigma(s, "sigma", allow_zero=True) for s in per_axis(sigma, naxes, "sigma")]
    orders = [check_order(o) for o in per_axis(order, naxes, "order")]
    modes = [check_mode(m) for m in per_axis(mode, naxes, "mode")]
    radii = [check_radius(r) for r in per_axis(radius, naxes, "radius")]
    cval = check_cval(cval, complex_ok=eng.is_complex(x))
    truncate = check_truncate(truncate)
    method = check_choice(method, GAUSSIAN_METHODS, "method")
    tol = check_tol(tol)
    steps = []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        if s == 0.0:
            if o != 0:
                raise ValueError(f"sigma must be positive for a derivative (order={o}) along axis {ax}; got 0")
            continue
        plan = _plan_axis(eng, name, s, o, int(x.shape[ax]), truncate=truncate, radius=r,
                          method=method, transform=transform, tol=tol)
        steps.append((ax, plan, m))
    return eng.filter(x, steps, cval=cval, output=output, bank_method=bank_method)
