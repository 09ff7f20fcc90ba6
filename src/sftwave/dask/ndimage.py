"""The Gaussian filters of dask arrays: one overlap per filtered axis, the plan's half-window."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import engines
from .._checks import check_axes, check_axis, check_mode, check_sigma, check_spacing, per_axis
from .._checks.dask import check_output
from ..plans import FIRPlan, select_gaussian
from ._core import block_threads, check_engine_options, dask_array, engine_of, rechunk_axis
from ._reach import gaussian_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["gaussian_filter1d", "gaussian_filter"]

#: A sigma at most this is zero: the axis is not filtered (scipy's threshold, as in memory).
_ZERO_SIGMA = 1e-15


@lazy("sftwave.ndimage", "gaussian_filter1d")
def gaussian_filter1d(call: Call) -> da.Array:
    """:func:`sftwave.gaussian_filter1d` of a dask array, lazily.

    Each chunk along ``axis`` is extended by the half-window of the plan the
    in-memory call selects for the whole length (smaller chunks are merged
    first), the true ends by ``mode``; the other axes need no overlap.
    ``output`` may be None or a dtype (not an array: the result is a new dask
    array).

    Returns
    -------
    dask.array.Array
        The filtered array, chunked as ``input`` (but where chunks were merged).

    See Also
    --------
    sftwave.gaussian_filter1d : The same filter in memory.
    gaussian_filter : Along several axes.

    Examples
    --------
    >>> import numpy as np, dask.array as da, sftwave
    >>> x = np.random.default_rng(0).standard_normal((4, 20000))
    >>> y = gaussian_filter1d(da.from_array(x, chunks=(2, 3000)), 40.0)
    >>> bool(np.allclose(y.compute(), sftwave.gaussian_filter1d(x, 40.0), rtol=0, atol=1e-12))
    True
    """
    da, x = dask_array(call["input"])
    axis = check_axis(call["axis"], x.ndim)
    mode = check_mode(call["mode"])
    output = check_output(call["output"])
    dtype = output if output is not None else x.dtype
    n = int(x.shape[axis])
    if n == 0 or x.size == 0:
        return x.astype(dtype)
    name = check_engine_options(call.args, x)
    cost, design = engines.gaussian_figures(engines.get(name), x.dtype, output,
                                            int(call["order"]), x.ndim)
    reach = gaussian_reach(call["sigma"], call["order"], n, truncate=call["truncate"],
                           radius=call["radius"], method=call["method"],
                           transform=call["transform"], tol=call["tol"], cost=cost, engine=name,
                           design=design)
    if reach is None or reach >= n:
        x = x.rechunk({axis: n})                        # the whole axis in one chunk
        reach = 0
    else:
        x = rechunk_axis(x, axis, 2 * reach + 1)
    fn, kw, nblocks = call.fn, call.without("input"), x.npartitions
    kw["axis"], kw["mode"] = axis, mode

    def block(b: np.ndarray) -> np.ndarray:
        with block_threads(nblocks):
            return fn(b, **kw)

    depth = {i: (reach if i == axis else 0) for i in range(x.ndim)}
    return x.map_overlap(block, depth=depth, boundary="periodic" if mode == "wrap" else "none",
                         dtype=dtype, meta=np.empty((0,) * x.ndim, dtype))


def _work_dtype(x: da.Array, call: Call, axes: tuple[int, ...], sigmas: list, orders: list,
                dtype: np.dtype) -> np.dtype:
    """The floating dtype the in-memory filter computes in: float32 for float32/float16 input,
    complex for complex; for 8/16-bit and bool input whose axes all run on the CPU engine's
    float32 FIR over blocks of rows (its cost figure for these dtypes, FIR plans that it
    takes), float32 too: so that each axis here gives the same bits."""
    if x.dtype == np.complex64:
        return np.dtype(np.complex64)
    if x.dtype.kind == "c":
        return np.dtype(np.complex128)
    if x.dtype in (np.float32, np.float16):
        return np.dtype(np.float32)
    plain = call.is_default("radius", "bank_method", "transform", "tol", "nan_policy",
                            "min_weight", "engine", "method")
    name = engine_of(x, call["engine"])
    eng = engines.get(name)
    if not plain or "rows_half_kernel" not in engines.operations(name):
        return np.dtype(np.float64)
    half_kernel = engines.operation(name, "rows_half_kernel")

    for ax, s, o in zip(axes, sigmas, orders):
        if float(s) <= _ZERO_SIGMA:
            continue
        cost = eng.fir_taps_per_order_for(x.dtype, dtype, int(o), x.ndim)
        if int(o) != 0 or cost == eng.fir_taps_per_order():
            return np.dtype(np.float64)                 # not the float32 rows
        plan = select_gaussian(float(s), 0, truncate=call["truncate"], method="auto",
                               n=int(x.shape[ax]), wide=True, fir_taps_per_order=cost)
        if not isinstance(plan, FIRPlan) or half_kernel(plan.kernel[::-1]) is None:
            return np.dtype(np.float64)
    return np.dtype(np.float32)


def _in_samples(sigmas: list, orders: list, spacing: Any) -> tuple[list, float]:
    """The sigmas in samples (``sigma / spacing``) and the derivatives' factor to physical
    units (``spacing ** -order`` over the filtered axes), as the in-memory request has them."""
    steps = check_spacing(spacing, len(sigmas))
    if steps is None:
        return sigmas, 1.0
    sigmas = [check_sigma(s, "sigma", allow_zero=True) / d for s, d in zip(sigmas, steps)]
    scale = 1.0
    for s, o, d in zip(sigmas, orders, steps):
        if s > _ZERO_SIGMA:
            scale *= d ** -int(o)
    return sigmas, scale


@lazy("sftwave.ndimage", "gaussian_filter")
def gaussian_filter(call: Call) -> da.Array:
    """:func:`sftwave.gaussian_filter` of a dask array, lazily: one overlap per filtered axis.

    Each axis is :func:`gaussian_filter1d`'s (chunks extended by the plan's
    half-window).  As the in-memory function, the axes are filtered in
    floating point and the result cast once at the end (scipy casts after every
    axis), as the CPU engine casts.

    Returns
    -------
    dask.array.Array
        The filtered array.

    See Also
    --------
    sftwave.gaussian_filter : The same filter in memory.
    gaussian_filter1d : Along one axis.

    Examples
    --------
    >>> import numpy as np, dask.array as da, sftwave
    >>> v = np.random.default_rng(1).standard_normal((40, 60, 50)).astype(np.float32)
    >>> y = gaussian_filter(da.from_array(v, chunks=20), (2.0, 3.0, 1.5))
    >>> ref = sftwave.gaussian_filter(v, (2.0, 3.0, 1.5))
    >>> y.dtype == ref.dtype and bool(np.allclose(y.compute(), ref, rtol=0, atol=1e-6))
    True
    """
    da, x = dask_array(call["input"])
    axes = check_axes(call["axes"], x.ndim)
    sigmas = per_axis(call["sigma"], len(axes), "sigma")
    orders = per_axis(call["order"], len(axes), "order")
    modes = per_axis(call["mode"], len(axes), "mode")
    radii = per_axis(call["radius"], len(axes), "radius")
    output = check_output(call["output"])
    dtype = output if output is not None else x.dtype
    check_engine_options(call.args, x)
    sigmas, scale = _in_samples(sigmas, orders, call["spacing"])
    work = _work_dtype(x, call, axes, sigmas, orders, dtype)
    rest = call.without("input", "sigma", "order", "output", "mode", "axes", "radius", "spacing")
    y: Any = x
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        if float(s) <= _ZERO_SIGMA:
            continue                                    # scipy's rule: the axis is left alone
        y = gaussian_filter1d(y, float(s), axis=ax, order=int(o), output=work, mode=m, radius=r,
                              **rest)
    if scale != 1.0:
        y = y * np.asarray(scale, dtype=y.dtype)        # derivatives per unit of length
    if y.dtype == dtype:
        return y if y is not x else x.copy()
    cast_into = engines.operation(engine_of(x, call["engine"]), "cast_into")

    def cast(b: np.ndarray) -> np.ndarray:
        """The final cast as the CPU engine casts (C's conversion, saturating integers)."""
        out = np.empty(b.shape, dtype)
        cast_into(out, b)
        return out

    return y.map_blocks(cast, dtype=dtype, meta=np.empty((0,) * y.ndim, dtype))
