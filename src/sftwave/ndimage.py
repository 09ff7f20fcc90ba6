"""Drop-in replacements for scipy.ndimage's Gaussian filters.

``gaussian_filter1d``, ``gaussian_filter``, ``gaussian_laplace`` and
``gaussian_gradient_magnitude``.

Same signatures, boundary modes, output and dtype rules as scipy; the work is
done by the SFT/ASFT bank at a cost per sample that does not depend on sigma.
Keyword-only extras choose the method, the bank's method, the transform, the
accuracy and the engine.  This module validates the arguments, asks
:mod:`sftwave.plans` for one plan per axis and hands them to the engine
(:mod:`sftwave.engines`); it computes nothing itself.

Where sftwave differs from scipy, on purpose:

* ``order`` 3 and higher runs scipy's own truncated kernel (scipy's result
  and cost, which grows with sigma); orders 0 to 2 are the SFT's.
* A zero ``sigma`` (at most 1e-15) in :func:`gaussian_filter` skips that axis
  as scipy does, whatever its ``order`` (scipy's rule: the axis is left as it
  is, not differentiated); :func:`gaussian_filter1d` with a zero sigma is a
  ``ValueError`` (scipy divides by zero).
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

import numpy as np

from . import engines
from .engines import nonfinite
from ._checks import (
    check_axes,
    check_axis,
    check_choice,
    check_cval,
    check_mode,
    check_order,
    check_positive,
    check_radius,
    check_sigma,
    check_tol,
    check_truncate,
    output_array,
    per_axis,
)
from ._docs import docfiller
from .plans import GAUSSIAN_METHODS, select_gaussian

__all__ = ["gaussian_filter1d", "gaussian_filter", "gaussian_laplace", "gaussian_gradient_magnitude"]


#: A sigma at most this is zero: the axis is not filtered (scipy's threshold).
_ZERO_SIGMA = 1e-15


def _plan_axis(eng, name: str, sigma: float, order: int, n: int, *, truncate: float, radius,
               method: str, transform: str, tol):
    return select_gaussian(sigma, order, truncate=truncate, radius=radius, method=method,
                           transform="sft" if transform == "auto" else transform, tol=tol, n=n,
                           fir_taps_per_order=eng.fir_taps_per_order(),
                           wide=engines.CAPABILITIES[name].wide)


def _check_nan_policy(nan_policy: Any, min_weight: Any) -> tuple[str, float]:
    nan_policy = check_choice(nan_policy, nonfinite.NAN_POLICIES, "nan_policy")
    w = check_positive(min_weight, "min_weight")
    if w > 1.0:
        raise ValueError(f"min_weight must be in (0, 1]; got {min_weight!r}")
    return nan_policy, w


def _run(eng, x, steps, *, cval, output, bank_method: str, nan_policy: str, min_weight: float):
    """The engine's filter, with non-finite samples confined (``'propagate'``) or omitted."""
    if nan_policy == "omit":
        return nonfinite.filter_omit(eng, x, steps, cval=cval, output=output,
                                     bank_method=bank_method, min_weight=min_weight)
    return nonfinite.filter_confined(eng, x, steps, cval=cval, output=output,
                                     bank_method=bank_method)


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
    nan_policy: str = "propagate",
    min_weight: float = 0.5,
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
    order : int, optional
        0 smooths; 1 and 2 convolve with the first and second derivative of the
        Gaussian, at a cost independent of sigma; 3 and higher with scipy's own
        truncated kernel of that derivative (a FIR, scipy's result and cost).

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
    nan_policy, min_weight = _check_nan_policy(nan_policy, min_weight)
    plan = _plan_axis(eng, name, sigma, order, int(x.shape[axis]), truncate=truncate,
                      radius=radius, method=method, transform=transform, tol=tol)
    return _run(eng, x, [(axis, plan, mode)], cval=cval, output=output, bank_method=bank_method,
                nan_policy=nan_policy, min_weight=min_weight)


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
    nan_policy: str = "propagate",
    min_weight: float = 0.5,
    engine: str | None = None,
) -> Any:
    """Multidimensional Gaussian filter (a sequence of 1-D filters), like scipy's.

    Parameters
    ----------
    %(gaussian_shared)s
    sigma : scalar or sequence of scalars
        Standard deviation for each axis in ``axes``; an axis whose sigma is
        zero (at most 1e-15) is not filtered, whatever its order, as in scipy.
    order : int or sequence of ints, optional
        Derivative order for each axis (3 and higher: scipy's kernel, see
        :func:`gaussian_filter1d`).
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
    nan_policy, min_weight = _check_nan_policy(nan_policy, min_weight)
    steps = []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        if s <= _ZERO_SIGMA:
            continue        # scipy's rule: not filtered, whatever the order
        plan = _plan_axis(eng, name, s, o, int(x.shape[ax]), truncate=truncate, radius=r,
                          method=method, transform=transform, tol=tol)
        steps.append((ax, plan, m))
    return _run(eng, x, steps, cval=cval, output=output, bank_method=bank_method,
                nan_policy=nan_policy, min_weight=min_weight)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None,
                     **kwargs) -> Any:
    """Multidimensional Laplace filter using Gaussian second derivatives, like scipy's.

    The sum over ``axes`` of :func:`gaussian_filter` with ``order=2`` along
    that axis and 0 along the others, each smoothing every axis in ``axes``
    with its sigma (axes outside ``axes`` are not filtered), as
    ``scipy.ndimage.gaussian_laplace`` computes it; so its cost does not
    depend on sigma either.

    Parameters
    ----------
    input : array_like
        The input array.
    sigma : scalar or sequence of scalars
        Standard deviation for each axis in ``axes``.
    output : array or dtype, optional
        Where to put the result, or its dtype (default: the input's).
    mode : str or sequence of str, optional
        Boundary mode (scipy's names), one for all axes or one per axis in
        ``axes``; the derivative along an axis extends every axis by that
        axis's mode, as scipy does.
    cval : scalar, optional
        Value past the edges for ``mode='constant'``.
    axes : tuple of int or None, optional
        The axes to filter (default: all).
    **kwargs
        Passed to :func:`gaussian_filter` (``truncate``, ``radius``, ``tol``,
        ``method``, ...).

    Returns
    -------
    ndarray
        The filtered array (``output`` itself if an array was given).

    Examples
    --------
    >>> import numpy as np
    >>> y, x = np.mgrid[-20:21, -20:21].astype(float)
    >>> bowl = x**2 + y**2                     # its Laplacian is 4 everywhere
    >>> lap = gaussian_laplace(bowl, 3.0)
    >>> bool(np.allclose(lap[15:26, 15:26], 4.0))
    True
    """
    x = np.asarray(input)
    axes = check_axes(axes, x.ndim)
    sigmas = per_axis(sigma, len(axes), "sigma")
    modes = per_axis(mode, len(axes), "mode")
    full = [0.0] * x.ndim           # axes outside ``axes`` are not filtered
    for s, ax in zip(sigmas, axes):
        full[ax] = s

    def second(ax, dest, m):
        order = [0] * x.ndim
        order[ax] = 2
        return gaussian_filter(x, full, order, dest, m, cval, **kwargs)

    return _sum_over_axes(x, axes, modes, output, second, square=False)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *,
                                axes=None, **kwargs) -> Any:
    """Multidimensional gradient magnitude using Gaussian derivatives, like scipy's.

    ``sqrt(sum over axes of gaussian_filter(input, sigma, order=1 along that
    axis)**2)``, as ``scipy.ndimage.gaussian_gradient_magnitude`` computes it:
    ``sigma`` is handed to :func:`gaussian_filter` unchanged (a scalar, or one
    value per dimension of the input, so that axes outside ``axes`` are
    smoothed too, as in scipy).

    Parameters
    ----------
    input : array_like
        The input array.
    sigma : scalar or sequence of scalars
        Standard deviation: one for all dimensions, or one per dimension.
    output : array or dtype, optional
        Where to put the result, or its dtype (default: the input's).
    mode : str or sequence of str, optional
        Boundary mode, one for all axes or one per axis in ``axes``.
    cval : scalar, optional
        Value past the edges for ``mode='constant'``.
    axes : tuple of int or None, optional
        The axes whose derivatives enter the magnitude (default: all).
    **kwargs
        Passed to :func:`gaussian_filter`.

    Returns
    -------
    ndarray
        The gradient magnitude (``output`` itself if an array was given).

    Examples
    --------
    >>> import numpy as np
    >>> y, x = np.mgrid[0:100, 0:100].astype(float)
    >>> ramp = 3.0 * x + 4.0 * y               # a gradient of length 5
    >>> g = gaussian_gradient_magnitude(ramp, 6.0)
    >>> bool(np.allclose(g[40:60, 40:60], 5.0))  # away from the edges' reflections
    True
    """
    x = np.asarray(input)
    axes = check_axes(axes, x.ndim)
    modes = per_axis(mode, len(axes), "mode")

    def first(ax, dest, m):
        order = [0] * x.ndim
        order[ax] = 1
        return gaussian_filter(x, sigma, order, dest, m, cval, **kwargs)

    return _sum_over_axes(x, axes, modes, output, first, square=True)


def _sum_over_axes(x: np.ndarray, axes, modes, output, derivative, *, square: bool):
    """scipy's ``generic_laplace`` (``square=False``) and ``generic_gradient_magnitude`` (True).

    The first axis's derivative is written into the output; each later one is
    computed in the output's dtype and added (squared first for the gradient).
    """
    if not axes:
        out = output_array(output, x)
        out[...] = x
        return out
    out = derivative(axes[0], output, modes[0])
    if square:
        np.multiply(out, out, out)
    for ax, m in zip(axes[1:], modes[1:]):
        tmp = derivative(ax, out.dtype, m)
        if square:
            np.multiply(tmp, tmp, tmp)
        out += tmp
    if square:
        np.sqrt(out, out, casting="unsafe")
    return out
