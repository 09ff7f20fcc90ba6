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
  by FFT at a cost bounded by the signal (``sftwave.engines.numba.wide``).
  The choice is made from sigma and the length alone, before any design, so
  no call's cost grows with sigma.  Where that limit is not on offer (an
  engine without it, ``method='fir'`` or ``'bank'``, order 3 and higher), a
  sigma beyond ``max(8 n, 16384)`` samples on ``n`` samples is a
  ``ValueError`` (``radius=`` still sets a truncated kernel's support).
* ``sigma`` is at least 1e-30 (below, its square underflows; scipy divides
  by zero there) and at most 1e100: a ``ValueError`` otherwise.
* :func:`gaussian_filter` keeps its intermediate results in floating point and
  casts once at the end; scipy casts after every axis, so integer outputs can
  differ from scipy's by one unit.
* An ``output`` array may overlap the input, or be it: the result is that of
  the call without the overlap, as for numpy's ufuncs (scipy's
  ``gaussian_laplace`` and ``gaussian_gradient_magnitude`` read an input they
  have already overwritten).
* :func:`gaussian_gradient_magnitude` neither overflows nor underflows in its
  squares (scipy's gives inf for gradients beyond about 1e154 and 0 below
  1e-154), and a derivative of data with a large offset does not carry it
  (the offset is taken out exactly, ``sftwave.engines.numba.filters``).
* Values far from one (subnormal numbers, or near the largest float) are
  filtered scaled by a power of two, which is exact and keeps subnormal
  arithmetic out of the work (``sftwave.engines.nonfinite``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import engines
from ._checks import (
    apart_from,
    check_axes,
    check_spacing,
    check_workers,
    per_axis,
)
from ._checks.ndimage import Array, GaussianRequest, gaussian_request
from ._docs import docfiller
from .engines import nonfinite
from .plans import FIRPlan, select_gaussian
from .plans import small as small_rule
from .plans.small import small_fir, small_input

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, DTypeLike

    from .plans import SFTPlan, WidePlan

__all__ = ["gaussian_filter1d", "gaussian_filter", "gaussian_laplace", "gaussian_gradient_magnitude"]


def worker_threads(name: str, workers: int | None) -> contextlib.AbstractContextManager[Any]:
    """Engine ``name``'s threads limited to ``workers`` for a ``with`` block (None: as they are).

    ``workers`` checked (:func:`~sftwave._checks.check_workers`) and allowed by the
    engine (:func:`sftwave.engines.check_request`) first.

    Examples
    --------
    >>> with worker_threads("numba", 1):
    ...     pass
    """
    if workers is None:
        return contextlib.nullcontext()
    return engines.operation(name, "thread_limit")(workers)


#: A sigma at most this is zero: the axis is not filtered (scipy's threshold).
_ZERO_SIGMA = 1e-15


def _plan_axis(eng: Any, name: str, sigma: float, order: int, n: int, *, truncate: float,
               radius: int | None, method: str, transform: str, tol: float | None,
               dtypes: tuple[Any, Any, int] | None = None,
               scipy_arithmetic: bool = False) -> SFTPlan | FIRPlan | WidePlan:
    # the engine's cost figure; the CPU engine's depends on the input and output dtypes
    # (its float32 FIR over blocks of rows for float32 and 8/16-bit images)
    # and its figure for a FIR as accurate as the bank (the CPU engine's float64 FIR)
    cost, design = (engines.gaussian_figures(eng, *dtypes[:2], order, dtypes[2],
                                             scipy_arithmetic=scipy_arithmetic)
                    if dtypes is not None else (eng.fir_taps_per_order(), None))
    plan = select_gaussian(sigma, order, truncate=truncate, radius=radius, method=method,
                           transform="sft" if transform == "auto" else transform, tol=tol, n=n,
                           fir_taps_per_order=cost, wide=engines.CAPABILITIES[name].wide,
                           design_taps_per_order=design)
    if scipy_arithmetic and isinstance(plan, FIRPlan):
        plan = dataclasses.replace(plan, scipy_arithmetic=True)
    return plan


def _engine_input(input: Any, engine: str | None, transform: str, bank_method: str, output: Any,
                  workers: Any) -> tuple[str, Any, Any]:
    """The engine that runs ``input`` (what it cannot do refused first) and its array."""
    name = engines.resolve_engine(engine, input)
    engines.check_request(name, transform=transform, bank_method=bank_method, output=output,
                          workers=workers)
    eng = engines.get(name)
    return name, eng, eng.asarray(input, "input")


#: Small calls' decisions: for a call on a NumPy input of at most ``SMALL_FIR_SAMPLES``
#: samples without ``output``, whose plans are all real FIRs (the engine's ``filter_small``)
#: or take one of the paths the engine prepares (``filter_prepared``: one bank plan along the
#: last axis, or FIR plans on the float32 rows of float32 and 8/16-bit arrays; the kernels and
#: their arguments found once), that operation and the steps, by every argument of the call with
#: its type, the input's shape and dtype.  The same arguments were checked and planned the
#: first time, so a repeated small call runs its filter at once; a call the memo's
#: operation declines (non-finite samples, another layout) takes the whole path.  At most
#: ``_SMALL_MEMO_SIZE`` entries.
_SMALL_MEMO: dict[tuple, tuple[Any, list[tuple[int, Any, str]], Any]] = {}
_SMALL_MEMO_SIZE = 512


def _small_key(input: Any, output: Any, args: tuple) -> tuple | None:
    """The memo's key of a call, or None where the call cannot be a memo's (no key)."""
    if (output is not None or type(input) is not np.ndarray
            or input.size > small_rule.SMALL_FIR_SAMPLES):
        return None
    key = (input.shape, input.dtype.str, args, tuple(map(type, args)))
    try:
        hash(key)
    except TypeError:  # a list of sigmas, an array: checked on the whole path every time
        return None
    return key


def _small_again(key: tuple, input: Any) -> Any:
    """The memo's result for a call seen before, or None (not seen, or declined)."""
    memo = _SMALL_MEMO.get(key)
    if memo is None:
        return None
    run, steps, cval = memo
    return run(input, steps, cval=cval, output=None)


def _filter(eng: Any, x: Any, req: GaussianRequest, *, output: Any, transform: str,
            bank_method: str, key: tuple | None = None) -> Any:
    """The request's plans, one per axis (but those scipy skips: a sigma of zero in
    :func:`gaussian_filter`), run by the engine; a small call's decision kept under
    ``key`` (:data:`_SMALL_MEMO`)."""
    steps: list[tuple[int, Any, str]] = []
    # few samples: FIR plans run by numpy (or scipy.ndimage), without numba
    # (sftwave.plans.small); more of them where the engine's kernels are not due yet
    offered = "filter_small" in _offered(req.engine)
    due = offered and _engine_due(req.engine)
    limit = small_rule.SMALL_FIR_SAMPLES if due else small_rule.NUMBA_FREE_SAMPLES
    small = offered and small_input(x, req.cval, req.nan_policy, limit)
    with worker_threads(req.engine, req.workers):
        for ax, s, o, m, r in zip(req.axes, req.sigmas, req.orders, req.modes, req.radii):
            if req.skip_zero_sigma and s <= _ZERO_SIGMA:
                continue
            plan = _plan_axis(eng, req.engine, s, o, int(x.shape[ax]), truncate=req.truncate,
                              radius=r, method=req.method, transform=transform, tol=req.tol,
                              dtypes=(getattr(x, "dtype", None), output, len(x.shape)),
                              scipy_arithmetic=req.scipy_arithmetic)
            steps.append((ax, plan, m))
        fir = small and small_fir(steps)
        # a call that may repeat, where the engine's kernels are due: its FIR kernels (the
        # same sums, faster) prepared before numpy's sums or scipy's loop
        early = fir and key is not None and due
        if early and key is not None:
            res = _prepared(eng, x, steps, req, key, bank_method)
            if res is not None:
                return res
        if fir:
            run = engines.operation(req.engine, "filter_small")
            res = run(x, steps, cval=req.cval, output=output)
            if res is not None:       # else non-finite or far from one: the screened path
                if key is not None:
                    _remember(key, run if early else _until_loaded(eng, req, key, bank_method, run),
                              steps, req.cval)
                return res
        if key is not None and not early:
            res = _prepared(eng, x, steps, req, key, bank_method)
            if res is not None:
                return res
        return _run(eng, x, steps, cval=req.cval, output=output, bank_method=bank_method,
                    nan_policy=req.nan_policy, min_weight=req.min_weight)


def _engine_due(name: str) -> bool:
    """Whether small calls should run the engine's kernels now (``engine_due``: they are
    loaded, or this process has spent what loading them costs in numpy's sums)."""
    return "engine_due" in _offered(name) and engines.operation(name, "engine_due")()


def _until_loaded(eng: Any, req: GaussianRequest, key: tuple, bank_method: str, run: Any) -> Any:
    """A memo's operation: numpy's sums or scipy's loop (``run``) until the engine's kernels
    are due, then once the prepared kernels (:func:`_prepared`, which replaces the memo's
    entry)."""
    tried = False

    def small(x: Any, steps: list[tuple[int, Any, str]], *, cval: Any, output: Any) -> Any:
        nonlocal tried
        if not tried and _engine_due(req.engine):
            tried = True
            res = _prepared(eng, x, steps, req, key, bank_method)
            if res is not None:
                return res
        return run(x, steps, cval=cval, output=output)

    return small


def _prepared(eng: Any, x: Any, steps: list[tuple[int, Any, str]], req: GaussianRequest,
              key: tuple, bank_method: str) -> Any:
    """The engine's prepared filter of a small call (``filter_prepared``), kept under ``key``,
    and its result; None where the engine prepares none for these steps or ``x`` needs the
    screened path."""
    if req.nan_policy != "propagate" or "filter_prepared" not in _offered(req.engine):
        return None
    prepared = engines.operation(req.engine, "filter_prepared")(
        x, steps, cval=req.cval, bank_method=bank_method)
    if prepared is None:
        return None
    screen = nonfinite.as_is_screen(eng, steps, req.cval, x.dtype)
    if not screen(x):
        return None
    _remember(key, _prepared_run(screen, req.engine, req.workers, prepared), steps, req.cval)
    return prepared(x)


def _remember(key: tuple, run: Any, steps: list[tuple[int, Any, str]], cval: Any) -> None:
    """Keep a small call's decision under ``key`` (:data:`_SMALL_MEMO`)."""
    if len(_SMALL_MEMO) >= _SMALL_MEMO_SIZE:
        _SMALL_MEMO.clear()
    _SMALL_MEMO[key] = (run, steps, cval)


def _prepared_run(screen: Any, name: str, workers: int | None, prepared: Any) -> Any:
    """A memo's operation for the engine's prepared filter (``filter_prepared``): None (the
    whole path) for input that is not finite or needs scaling (``screen``), else the prepared
    filter's result on the call's threads."""

    def run(x: Any, steps: list[tuple[int, Any, str]], *, cval: Any, output: Any) -> Any:
        if not screen(x):
            return None
        with worker_threads(name, workers):
            return prepared(x)

    return run


#: The operations each engine offers (:func:`sftwave.engines.operations`), asked once.
_OFFERED: dict[str, tuple[str, ...]] = {}


def _offered(name: str) -> tuple[str, ...]:
    ops = _OFFERED.get(name)
    if ops is None:
        ops = _OFFERED[name] = engines.operations(name)
    return ops


def _run(eng: Any, x: Any, steps: list[tuple[int, Any, str]], *, cval: float | complex, output: Any,
         bank_method: str, nan_policy: str, min_weight: float) -> Any:
    """The engine's filter, with non-finite samples confined (``'propagate'``) or omitted."""
    if nan_policy == "omit":
        return nonfinite.filter_omit(eng, x, steps, cval=cval, output=output,
                                     bank_method=bank_method, min_weight=min_weight)
    return nonfinite.filter_confined(eng, x, steps, cval=cval, output=output,
                                     bank_method=bank_method)


@docfiller
def gaussian_filter1d(
    input: ArrayLike,
    sigma: float,
    axis: int = -1,
    order: int = 0,
    output: np.ndarray | DTypeLike | None = None,
    mode: str = "reflect",
    cval: float | complex = 0.0,
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
    workers: int | None = None,
) -> Array:
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
    %(workers)s

    Returns
    -------
    ndarray
        The filtered array (``output`` itself if an array was given); on the
        engines other than 'numba', the input's array type.

    See Also
    --------
    gaussian_filter : Along several axes at once.
    sftwave.stream.GaussianFilter1D : The same filter on a signal as it arrives.
    sftwave.dask.gaussian_filter1d : The lazy filter of dask arrays.
    sftwave.xarray.gaussian_filter1d : The filter of a DataArray, by dimension name.

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
    key = _small_key(input, output, ("1d", sigma, axis, order, mode, cval, truncate, radius, method,
                                      bank_method, transform, tol, nan_policy, min_weight, engine,
                                      workers))
    if key is not None and (res := _small_again(key, input)) is not None:
        return res
    name, eng, x = _engine_input(input, engine, transform, bank_method, output, workers)
    if x is not input:
        key = None  # the engine's copy (another byte order): the memo is given the input
    req = gaussian_request(len(x.shape), eng.is_complex(x), sigma, order, mode, cval, truncate,
                           radius=radius, axis=axis, method=method, tol=tol,
                           nan_policy=nan_policy, min_weight=min_weight, engine=name,
                           workers=workers)
    return _filter(eng, x, req, output=output, transform=transform, bank_method=bank_method,
                   key=key)


@docfiller
def gaussian_filter(
    input: ArrayLike,
    sigma: float | Sequence[float],
    order: int | Sequence[int] = 0,
    output: np.ndarray | DTypeLike | None = None,
    mode: str | Sequence[str] = "reflect",
    cval: float | complex = 0.0,
    truncate: float = 4.0,
    *,
    radius: int | Sequence[int] | None = None,
    axes: int | Sequence[int] | None = None,
    method: str = "auto",
    bank_method: str = "auto",
    transform: str = "auto",
    tol: float | None = None,
    nan_policy: str = "propagate",
    min_weight: float = 0.5,
    engine: str | None = None,
    workers: int | None = None,
    spacing: float | Sequence[float] | None = None,
) -> Array:
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
    %(workers)s
    %(spacing)s
        Here one for all axes or one per axis in ``axes``; ``radius`` stays in
        samples.  Not in scipy.

    Returns
    -------
    ndarray
        The filtered array (``output`` itself if an array was given); on the
        engines other than 'numba', the input's array type.

    See Also
    --------
    gaussian_filter1d : Along one axis.
    gaussian_laplace : The sum of the second derivatives.
    gaussian_gradient_magnitude : The magnitude of the gradient.
    sftwave.dask.gaussian_filter : The lazy filter of dask arrays.
    sftwave.xarray.gaussian_filter : The filter of a DataArray, by dimension name.

    Examples
    --------
    >>> import numpy as np
    >>> img = np.zeros((64, 64)); img[32, 32] = 1.0
    >>> blurred = gaussian_filter(img, sigma=(3.0, 6.0))
    >>> round(float(blurred.sum()), 6)
    1.0
    >>> stack = np.zeros((9, 64, 64)); stack[4, 32, 32] = 1.0     # z steps 5 times the pixel
    >>> same = gaussian_filter(stack, 10.0, spacing=(5.0, 1.0, 1.0))
    >>> bool(np.allclose(same, gaussian_filter(stack, (2.0, 10.0, 10.0))))
    True
    """
    key = _small_key(input, output, ("nd", sigma, order, mode, cval, truncate, radius, axes, method,
                                      bank_method, transform, tol, nan_policy, min_weight, engine,
                                      workers, spacing))
    if key is not None and (res := _small_again(key, input)) is not None:
        return res
    name, eng, x = _engine_input(input, engine, transform, bank_method, output, workers)
    if x is not input:
        key = None  # the engine's copy (another byte order): the memo is given the input
    req = gaussian_request(len(x.shape), eng.is_complex(x), sigma, order, mode, cval, truncate,
                           radius=radius, axes=axes, method=method, tol=tol,
                           nan_policy=nan_policy, min_weight=min_weight, engine=name,
                           workers=workers, spacing=spacing)
    if req.derivative_scale != 1.0:
        x, output = _scaled(x, output, req.derivative_scale, name)
        key = None  # the scaled copy is not the input the memo would be given
    return _filter(eng, x, req, output=output, transform=transform, bank_method=bank_method,
                   key=key)


def _scaled(x: Any, output: Any, scale: float, name: str) -> tuple[Any, Any]:
    """``x * scale`` (the derivatives per unit of length: the filter is linear) and the
    output that keeps the result's dtype (the input's, where none was asked; the CPU engine
    takes a dtype there, the others return their input's)."""
    if output is None and engines.CAPABILITIES[name].output:
        output = x.dtype
    return x * scale, output


def gaussian_laplace(input: ArrayLike, sigma: float | Sequence[float],
                     output: np.ndarray | DTypeLike | None = None, mode: str | Sequence[str] = "reflect",
                     cval: float | complex = 0.0, *, axes: int | Sequence[int] | None = None,
                     workers: int | None = None, **kwargs: Any) -> Array:
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
    workers : int, optional
        Threads to use (scipy.fft's convention: -1 for all cores), for this
        call only; the same result whatever the count.  The CPU engine only.
    **kwargs
        Passed to :func:`gaussian_filter` (``truncate``, ``radius``, ``tol``,
        ``method``, ``engine``, ...).  Every engine runs it: a torch tensor
        gives a torch tensor (differentiable), on the 'xp' engine.  ``spacing``
        (as :func:`gaussian_filter`'s, one for all axes or one per axis in
        ``axes``): sigma in physical units, the second derivatives per unit of
        length squared.

    Returns
    -------
    ndarray
        The filtered array (``output`` itself if an array was given); on the
        engines other than 'numba', the input's array type.

    See Also
    --------
    gaussian_filter : Smoothing and derivatives of any order per axis.
    gaussian_gradient_magnitude : The magnitude of the gradient.

    Examples
    --------
    >>> import numpy as np
    >>> y, x = np.mgrid[-20:21, -20:21].astype(float)
    >>> bowl = x**2 + y**2                     # its Laplacian is 4 everywhere
    >>> lap = gaussian_laplace(bowl, 3.0)
    >>> bool(np.allclose(lap[15:26, 15:26], 4.0))
    True
    """
    name, x, axes, workers = _derivative_input(input, output, axes, workers, kwargs)
    ndim = len(x.shape)
    sigmas = per_axis(sigma, len(axes), "sigma")
    modes = per_axis(mode, len(axes), "mode")
    full = [0.0] * ndim             # axes outside ``axes`` are not filtered
    for s, ax in zip(sigmas, axes):
        full[ax] = s
    steps = check_spacing(kwargs.pop("spacing", None), len(axes))
    if steps is not None:           # one per axis in ``axes``, as sigma (the others unfiltered)
        kwargs["spacing"] = [1.0] * ndim
        for d, ax in zip(steps, axes):
            kwargs["spacing"][ax] = d

    def second(ax: int, dest: Any, m: str) -> Any:
        order = [0] * ndim
        order[ax] = 2
        return gaussian_filter(x, full, order, dest, m, cval, engine=name, **kwargs)

    with worker_threads(name, workers):
        return _sum_over_axes(name, x, axes, modes, output, second, square=False)


def gaussian_gradient_magnitude(input: ArrayLike, sigma: float | Sequence[float],
                                output: np.ndarray | DTypeLike | None = None,
                                mode: str | Sequence[str] = "reflect", cval: float | complex = 0.0, *,
                                axes: int | Sequence[int] | None = None, workers: int | None = None,
                                **kwargs: Any) -> Array:
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
    workers : int, optional
        Threads to use (scipy.fft's convention: -1 for all cores), for this
        call only; the same result whatever the count.  The CPU engine only.
    **kwargs
        Passed to :func:`gaussian_filter` (``engine`` too: a torch tensor gives
        a torch tensor, differentiable, on the 'xp' engine).  ``spacing``, as
        ``sigma`` one for all or one per dimension: sigma in physical units,
        the gradient per unit of length.

    Returns
    -------
    ndarray
        The gradient magnitude (``output`` itself if an array was given); on
        the engines other than 'numba', the input's array type.  Computed
        without overflow or underflow in the squares (``hypot``): a gradient
        of 1e300 or of 1e-300 is not inf or 0, as scipy's is.

    See Also
    --------
    gaussian_filter : Smoothing and derivatives of any order per axis.
    gaussian_laplace : The sum of the second derivatives.

    Examples
    --------
    >>> import numpy as np
    >>> y, x = np.mgrid[0:100, 0:100].astype(float)
    >>> ramp = 3.0 * x + 4.0 * y               # a gradient of length 5
    >>> g = gaussian_gradient_magnitude(ramp, 6.0)
    >>> bool(np.allclose(g[40:60, 40:60], 5.0))  # away from the edges' reflections
    True
    """
    name, x, axes, workers = _derivative_input(input, output, axes, workers, kwargs)
    ndim = len(x.shape)
    modes = per_axis(mode, len(axes), "mode")

    def first(ax: int, dest: Any, m: str) -> Any:
        order = [0] * ndim
        order[ax] = 1
        return gaussian_filter(x, sigma, order, dest, m, cval, engine=name, **kwargs)

    with worker_threads(name, workers):
        return _sum_over_axes(name, x, axes, modes, output, first, square=True)


def _derivative_input(input: Any, output: Any, axes: Any, workers: Any, kwargs: dict
                      ) -> tuple[str, Any, tuple[int, ...], int | None]:
    """The engine, the input array and the axes of :func:`gaussian_laplace` and
    :func:`gaussian_gradient_magnitude` (``engine`` taken out of ``kwargs``).

    The input is checked as :func:`gaussian_filter` checks it (``TypeError``
    naming ``input`` for what is not an array of numbers), and copied where the
    ``output`` array overlaps it: the output is written axis by axis while the
    input is still read.
    """
    name = engines.resolve_engine(kwargs.pop("engine", None), input)
    engines.check_request(name, output=output, workers=workers)
    x = engines.get(name).asarray(input, "input")
    axes = check_axes(axes, len(x.shape))
    return name, apart_from(x, output), axes, check_workers(workers)


def _sum_over_axes(name: str, x: Any, axes: tuple[int, ...], modes: list[str], output: Any,
                   derivative: Callable[[int, Any, str], Any], *, square: bool) -> Any:
    """scipy's ``generic_laplace`` (``square=False``) and ``generic_gradient_magnitude`` (True).

    The Laplacian: the first axis's derivative is written into the output;
    each later one is computed in the output's dtype and added, as scipy does.
    The gradient magnitude: ``sqrt(sum of squares)`` of the derivatives
    without overflow or underflow in the squares, where scipy's gives inf for
    derivatives beyond 1e154 and 0 below 1e-154: ``hypot`` accumulated for
    real floating outputs; integer outputs take each derivative cast to their
    dtype (as scipy) and square and sum them in float64 (exact); complex ones
    (scipy's complex square root of the sum of complex squares) scale the
    squares by a power of two.  On the engines other than 'numba' the same,
    in the input's array library (no ``output``).
    """
    eng = engines.get(name)
    if not axes:
        return eng.filter(x, [], cval=0.0, output=output)     # a copy, cast as the filters cast
    if not engines.CAPABILITIES[name].output:
        return _sum_over_axes_xp(x, axes, modes, derivative, square=square)
    out = derivative(axes[0], output, modes[0])
    later = [(ax, m) for ax, m in zip(axes[1:], modes[1:])]
    if not square:
        for ax, m in later:
            out += derivative(ax, out.dtype, m)
        return out
    if out.dtype.kind == "f":
        hypot_into = engines.operation(name, "hypot_into")
        for ax, m in later:
            hypot_into(out, derivative(ax, out.dtype, m))
        return np.abs(out, out=out) if not later else out
    if out.dtype.kind == "c":
        return _complex_magnitude(out, (derivative(ax, out.dtype, m) for ax, m in later))
    acc = np.square(out, dtype=np.float64)          # integers (and bool): exact in float64
    for ax, m in later:
        acc += np.square(derivative(ax, out.dtype, m), dtype=np.float64)
    return eng.filter(np.sqrt(acc, out=acc), [], cval=0.0, output=out)


def _power_of_two_exponent(a: np.ndarray) -> int:
    """``e`` with the largest magnitude of ``a``'s parts in ``[2**(e-1), 2**e)`` (0 for zeros)."""
    top = float(np.max(np.abs(np.concatenate([a.real.ravel(), a.imag.ravel()])))) if a.size else 0.0
    return math.frexp(top)[1] if top and math.isfinite(top) else 0


def _times_power_of_two(a: np.ndarray, k: int) -> np.ndarray:
    """``a * 2**k`` in place (complex ``a``: both parts)."""
    for part in (a.real, a.imag):
        np.ldexp(part, k, out=part)
    return a


def _complex_magnitude(out: np.ndarray, rest: Iterable[np.ndarray]) -> np.ndarray:
    """``sqrt(out**2 + sum of d**2 for d in rest)`` into complex ``out``, squares scaled by ``2**-2e``."""
    e = _power_of_two_exponent(out)
    acc = np.square(_times_power_of_two(out.copy(), -e))
    for d in rest:
        ed = _power_of_two_exponent(d)
        if ed > e:
            _times_power_of_two(acc, 2 * (e - ed))
            e = ed
        acc += np.square(_times_power_of_two(d, -e))
    np.sqrt(acc, out=out)
    return _times_power_of_two(out, e)


def _sum_over_axes_xp(x: Any, axes: tuple[int, ...], modes: list[str],
                      derivative: Callable[[int, Any, str], Any], *, square: bool) -> Any:
    """:func:`_sum_over_axes` in array-API code (torch, CuPy): new arrays, differentiable."""
    from array_api_compat import array_namespace

    terms = (derivative(ax, None, m) for ax, m in zip(axes, modes))
    y = next(terms)
    if hasattr(y, "copy_to_host"):
        # numba-cuda's device arrays have no arithmetic: the sum is formed on the host and
        # written back into the first term's device array (a new array of this call's)
        host = [y.copy_to_host(), *(d.copy_to_host() for d in terms)]
        total = _sum_over_axes_xp(host, axes, modes, lambda ax, dest, m: host[axes.index(ax)],
                                  square=square)
        y.copy_to_device(np.ascontiguousarray(total, dtype=host[0].dtype))
        return y
    xp = array_namespace(y)
    if not square:
        for d in terms:
            y = y + d
        return y
    if not xp.isdtype(y.dtype, "complex floating"):
        rest = list(terms)
        for d in rest:
            y = xp.hypot(y, d)
        return y if rest else xp.abs(y)
    ds = [y, *terms]
    top = max(float(xp.max(xp.abs(part))) for d in ds for part in (xp.real(d), xp.imag(d)))
    e = math.frexp(top)[1] if top and math.isfinite(top) else 0
    half = e // 2           # 2**-e in two exact factors: a Python float 2**-e may underflow
    down, up = math.ldexp(1.0, -half), math.ldexp(1.0, -(e - half))
    acc = sum((d * down * up) ** 2 for d in ds)
    return xp.sqrt(acc) * math.ldexp(1.0, half) * math.ldexp(1.0, e - half)
