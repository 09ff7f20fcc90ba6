"""The CPU engine's separable filters: one plan per axis, in one buffer, scipy's output rules.

Each axis is filtered by its plan: an :class:`~sftwave.plans.fit.SFTPlan` by
the bank (:mod:`~sftwave.engines.numba.bank`; its ``iir1`` method along a
non-last axis by a kernel that keeps the contiguous inner elements side by
side, and along few long lines by the lane engine, the lines cut into pieces
run 16 side by side: 1-D, N = 1e6, sigma 128 in about 4 ms against 6 to 8), a :class:`~sftwave.plans.fit.FIRPlan` by sftwave's FIR kernels (the same
arithmetic as scipy's ``correlate1d``, on all threads) and a
:class:`~sftwave.plans.fit.WidePlan` by its exact FFT limit
(:mod:`~sftwave.engines.numba.wide`).  As in scipy, the first axis writes into
one array of the working dtype and every later axis filters it in place.
"""

from __future__ import annotations

import numpy as np

from ..._checks import output_array
from ...plans.fit import FIRPlan, SFTPlan, WidePlan
from .._boundary import MODE_CODES
from . import bank, lanes
from . import bank_kernels as _numba
from . import fir_kernels as _fir
from .pool import parallel_for, threads
from .wide import gaussian_wide

__all__ = ["filter_axes", "fir_axis"]

#: Output dtypes scipy.ndimage.correlate1d can write.
_SCIPY_OUTPUT_TYPES = {np.dtype(t) for t in (
    np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
    np.float32, np.float64, np.complex64, np.complex128)}


def _work_dtype(dtype: np.dtype) -> np.dtype:
    """Floating dtype in which a real input is handed to the bank."""
    if dtype == np.float32 or dtype == np.float16:
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _bank_axis(x: np.ndarray, axis: int, plan, method: str, mode: str, cval: float,
               out: np.ndarray | None) -> np.ndarray:
    """Filter a real floating array along one axis with the bank.

    Writes into ``out`` (any numeric dtype, cast as scipy casts) if given, else
    returns a new array of ``x``'s dtype.
    """
    if (method == "iir1" and axis < x.ndim - 1 and x.flags.c_contiguous
            and x.dtype in (np.float32, np.float64)):
        # a non-last axis: the contiguous inner elements side by side, no transposes
        return _bank_inner_axis(x, axis, plan, mode, cval, out)
    moved = np.moveaxis(x, axis, -1)
    shape = moved.shape
    n = shape[-1]
    x2d = np.ascontiguousarray(moved).reshape(-1, n)
    if method == "iir1" and x.dtype in (np.float32, np.float64) and _lanes_pay(x2d, plan):
        direct = (out is not None and out.dtype in (np.float32, np.float64)
                  and axis == x.ndim - 1 and out.flags.c_contiguous)
        res = out.reshape(-1, n) if direct else np.empty((x2d.shape[0], n), dtype=x.dtype)
        _lanes_rows(x2d, plan, mode, cval, res)   # copies the rows first: in place is safe
        if direct:
            return out
        res = np.moveaxis(res.reshape(shape), -1, axis)
        if out is None:
            return res
        cast_into(out, res)
        return out
    direct_write = (
        out is not None and out.dtype == x.dtype and axis == x.ndim - 1
        and out.flags.c_contiguous
    )
    if direct_write:
        out2d = out.reshape(-1, n)
        overlap = np.may_share_memory(x2d, out2d)
        if not overlap or (_same_memory(x2d, out2d) and n <= bank.MAX_IN_PLACE):
            # in place: one work item per row, which copies its row before writing
            bank.apply(plan, x2d, out2d[..., None], mode=mode, cval=cval, method=method,
                       whole_rows=overlap)
            return out
    res = np.empty((x2d.shape[0], n, 1), dtype=x.dtype)
    bank.apply(plan, x2d, res, mode=mode, cval=cval, method=method)
    res = np.moveaxis(res.reshape(shape), -1, axis)
    if out is None:
        return res
    cast_into(out, res)
    return out


#: A line is cut into lanes of at least this many windows (each lane warms up over one).
_LANE_WINDOWS = 16


#: Most samples the lane path takes at once: its float64 copy of the lines (16 MB at most)
#: is the memory it needs beyond the output.
_LANE_MAX_SAMPLES = 1 << 21


def _lanes_pay(x2d: np.ndarray, plan) -> bool:
    """Whether the lane engine takes these rows: few long ones, cut into pieces.

    The lane engine runs 16 recursions side by side on explicit vectors
    (:func:`~sftwave.engines.numba.lane_kernels.run_lanes_16`), at least 16 per
    thread here: pieces of few long rows, each at least :data:`_LANE_WINDOWS`
    windows long so that its warm-up costs little (1-D, N = 1e6, sigma 8 to
    128: 1.6 to 2 times faster than the bank, ``benchmarks/gaussian_lanes_ab.py``).
    Many rows stay with the bank: the lanes would gain 1.05 to 1.4 times
    there, for a float64 copy of the rows that the bank, filtering a block of
    lines at a time, does not make (scipy's memory rule: about one output).
    """
    rows, n = x2d.shape
    per_row = n // (_LANE_WINDOWS * plan.length)
    return (plan.coef.shape[0] == 1 and not np.iscomplexobj(plan.coef)
            and rows < 16 * threads() and rows * per_row >= 16 * threads()
            and rows * n <= _LANE_MAX_SAMPLES)


def _lanes_rows(x2d: np.ndarray, plan, mode: str, cval: float, out2d: np.ndarray) -> None:
    """Filter the rows of ``x2d`` with a real one-output plan on the lane engine, float64 state.

    ``out2d`` may be ``x2d`` (the engine copies the rows before it writes).
    """
    rows, n = x2d.shape
    want = -(-16 * threads() // rows)               # lanes per row to fill every thread
    per_row = max(1, min(want, n // (_LANE_WINDOWS * plan.length)))
    edges = (n * np.arange(per_row + 1, dtype=np.int64)) // per_row
    r = np.repeat(np.arange(rows, dtype=np.int64), per_row)
    table = lanes.LaneTable((plan,), np.zeros(r.size, np.int64), r, r,
                            np.tile(edges[:-1], rows), np.tile(edges[1:], rows))
    lanes.run(x2d, table, out2d[:, :, None], mode=mode, cval=cval, kind="real",
              dtype=np.float64)


def _same_memory(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` are the same elements in the same layout (``a`` is ``b`` as data)."""
    return (a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def _writable_in_place(x: np.ndarray, out: np.ndarray | None) -> bool:
    """Whether the FIR and non-last-axis kernels may write straight into ``out``.

    ``out`` must be a float C-ordered array apart from ``x``, or ``x`` itself:
    those kernels copy each line (or block of lines) before writing it, so
    filtering in place is safe, but an output that partly overlaps the input
    goes through a fresh array.
    """
    return (out is not None and out.dtype in (np.float32, np.float64) and out.flags.c_contiguous
            and (not np.may_share_memory(x, out) or _same_memory(x, out)))


def _bank_inner_axis(x: np.ndarray, axis: int, plan, mode: str, cval: float,
                     out: np.ndarray | None) -> np.ndarray:
    """The iir1 bank along a non-last axis of a C-contiguous array (see ``_numba.bank_inner``)."""
    res = out if _writable_in_place(x, out) else np.empty(x.shape, dtype=x.dtype)
    n = x.shape[axis]
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
    w = plan.w
    c = np.exp(plan.length * np.log(w))
    coef = plan.coef[0]
    dc = float(plan.kernel_sum[0])
    tasks = outer * -(-inner // _numba.INNER_BLOCK)
    parallel_for(_numba.bank_inner, tasks, x.reshape(outer, n, inner), plan.pad_before, plan.length, MODE_CODES[mode],
                      float(cval), np.ascontiguousarray(w.real), np.ascontiguousarray(w.imag),
                      np.ascontiguousarray(c.real), np.ascontiguousarray(c.imag),
                      np.ascontiguousarray(coef[0], dtype=np.float64),
                      np.ascontiguousarray(coef[1], dtype=np.float64), dc,
                      res.reshape(outer, n, inner),
                      work=float(x.size + plan.length * outer * inner) * (w.size + 1))
    if out is None or res is out:
        return res
    cast_into(out, res)
    return out


def fir_axis(x: np.ndarray, axis: int, weights: np.ndarray, mode: str, cval: float,
                 out: np.ndarray | None) -> np.ndarray | None:
    """scipy's correlate1d, computed by sftwave's FIR kernels (same arithmetic, all threads).

    For C-contiguous float32/float64 arrays: along the last axis line by line,
    along another axis with the contiguous inner elements side by side.
    Returns None where the layout does not suit (the caller uses scipy).
    """
    if x.dtype not in (np.float32, np.float64) or not x.flags.c_contiguous:
        return None
    res = out if _writable_in_place(x, out) else np.empty(x.shape, dtype=x.dtype)
    n = x.shape[axis]
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
    sym = _fir.symmetry(weights)
    code = MODE_CODES[mode]
    work = float(x.size) * weights.size
    if inner == 1:
        parallel_for(_fir.fir_lines, outer, x.reshape(-1, n), weights, sym, code, float(cval),
                     res.reshape(-1, n), work=work)
    else:
        tasks = outer * -(-inner // _fir.INNER_BLOCK)
        parallel_for(_fir.fir_inner, tasks, x.reshape(outer, n, inner), weights, sym, code,
                     float(cval), res.reshape(outer, n, inner), work=work)
    if out is None or res is out:
        return res
    cast_into(out, res)
    return out


def _filter_axis(x: np.ndarray, step, method: str, cval: float,
                 out: np.ndarray | None) -> np.ndarray:
    """One axis of a real floating array: by the bank, the FIR or the wide-kernel limit."""
    axis, plan, mode = step
    if isinstance(plan, FIRPlan):
        weights = np.ascontiguousarray(plan.kernel[::-1])
        fast = fir_axis(x, axis, weights, mode, cval, out)
        if fast is not None:
            return fast
        import scipy.ndimage as _ndi  # the rare layouts only: importing it costs 0.3 s

        if out is not None and out.dtype in _SCIPY_OUTPUT_TYPES:
            return _ndi.correlate1d(x, weights, axis=axis, output=out, mode=mode, cval=cval)
        res = _ndi.correlate1d(x, weights, axis=axis, output=x.dtype, mode=mode, cval=cval)
        if out is None:
            return res
        cast_into(out, res)  # e.g. float16, which scipy cannot write
        return out
    if isinstance(plan, WidePlan):
        return _wide_axis(x, axis, plan.sigma, plan.order, mode, cval, out)
    if isinstance(plan, SFTPlan):
        return _bank_axis(x, axis, plan, method, mode, cval, out)
    raise TypeError(f"plan must be an SFTPlan, FIRPlan or WidePlan; got {type(plan).__name__}")


def _wide_axis(x: np.ndarray, axis: int, sigma: float, order: int, mode: str, cval: float,
               out: np.ndarray | None) -> np.ndarray:
    """A kernel many times wider than the line: its exact limit (:mod:`sftwave.engines.numba.wide`)."""
    moved = np.moveaxis(x, axis, -1)
    res = gaussian_wide(moved.reshape(-1, moved.shape[-1]), sigma, order, mode, cval)
    res = np.moveaxis(res.reshape(moved.shape), -1, axis)
    if out is None:
        return res.astype(x.dtype, copy=False)
    cast_into(out, res)
    return out


def _run_axes(x: np.ndarray, steps, method: str, cval: float, out: np.ndarray | None,
              owned: bool = False) -> np.ndarray:
    """Apply the steps in turn, in one buffer, and return the result (in ``out`` if given).

    As in scipy, the first axis writes into one array of the working dtype
    (``out`` itself when it has that dtype and layout; ``x`` itself when it is
    the caller's own working copy, ``owned``) and every later axis filters that
    array in place, so the call needs no more memory than its output (plus the
    working copy of an integer or float16 input).
    """
    if not steps:
        if out is None:
            return x.copy()
        cast_into(out, x)
        return out
    if (out is not None and out.dtype == x.dtype and out.flags.c_contiguous
            and not np.may_share_memory(x, out)):
        buf = out
    elif owned and x.flags.c_contiguous:
        buf = x
    else:
        buf = np.empty(x.shape, dtype=x.dtype)
    src = x
    for step in steps:
        res = _filter_axis(src, step, method, cval, buf)
        if res is not buf:   # a path that could not write into buf (a layout it refuses)
            np.copyto(buf, res)
        src = buf
    if out is None or buf is out:
        return buf
    cast_into(out, buf)
    return out


def cast_into(out: np.ndarray, values: np.ndarray) -> None:
    """``out[...] = values`` as scipy.ndimage casts its results: C's conversion.

    Integers truncate toward zero (numpy's unsafe cast does the same), and
    values beyond the integer dtype's range saturate at its ends (C's
    conversion leaves them undefined: scipy wraps them on x86; a derivative of
    high order at a tiny sigma reaches 3e12, found by tests/test_fuzz.py).  A
    bool output is True where the value truncated toward zero is not zero
    (C's conversion to scipy's one-byte bool: 0.94 is False, -2.4 True), where
    numpy would make every non-zero value True.
    """
    if out.dtype == np.bool_:
        np.not_equal(np.trunc(values), 0, out=out)
    elif out.dtype.kind in "iu" and np.asarray(values).dtype.kind == "f":
        info = np.iinfo(out.dtype)
        # the float nearest each end that the cast cannot overflow
        hi = np.nextafter(float(info.max) + 1.0, -np.inf) if info.bits >= 53 else float(info.max)
        lo = float(info.min)
        if values.size and (np.min(values) < lo or np.max(values) > hi):
            values = np.clip(values, lo, hi)   # a copy only where something overflows
        np.copyto(out, values, casting="unsafe")
    else:
        np.copyto(out, values, casting="unsafe")


def _dispatch(x: np.ndarray, output, steps, cval, method: str) -> np.ndarray:
    complex_input = x.dtype.kind == "c"
    out = output_array(output, x)
    if x.size == 0:
        return out
    if complex_input:
        # as scipy: the real part is extended with Re(cval), the imaginary part with Im(cval)
        wd = np.dtype(np.float32) if x.dtype == np.complex64 else np.dtype(np.float64)
        out.real = _run_axes(x.real.astype(wd), steps, method, float(np.real(cval)), None)
        out.imag = _run_axes(x.imag.astype(wd), steps, method, float(np.imag(cval)), None)
        return out
    work = x.astype(_work_dtype(x.dtype), copy=False)
    return _run_axes(work, steps, method, cval, out, owned=work is not x)




def filter_axes(x: np.ndarray, steps, *, cval, output=None, bank_method: str = "auto") -> np.ndarray:
    """Filter ``x`` along each step's axis in turn: ``steps`` is a list of ``(axis, plan, mode)``.

    ``output`` follows scipy.ndimage (None, a dtype or an array); complex input
    is filtered as real and imaginary parts, extended with ``cval``'s parts.
    """
    return _dispatch(x, output, steps, cval, bank.resolve_method(bank_method))
