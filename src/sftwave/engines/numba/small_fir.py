"""Small inputs whose every axis is a FIR plan, in numpy (or scipy.ndimage's ``correlate1d``): no numba.

On a few thousand samples the fixed cost of a call (numba's import and CPU
target set-up in a fresh process, its dispatches and the thread pool in a
warm one) outweighs the work; numpy's whole-array operations
(``._scipy_sums``, ``.rows_sums``) run the same taps there at once, in a
process that has not paid for numba or scipy.ndimage.  :func:`filter_small`
follows the engine's ``filter`` (``sftwave.engines.numba.filters``) step for
step: the input in its working dtype (float32 for float32 and float16, float64
otherwise), C ordered; an offset taken out of the lines along a derivative's
axis (:func:`without_offset`, as the engine's); the first axis written into one
buffer and every later one filtered in place; one cast to the output at the end
(:func:`cast_into`, C's conversion as scipy's).  The sums are scipy's (double
precision), which the engine's FIR kernels repeat bit for bit (``.fir_kernels``),
and, where the engine smooths float32 and 8/16-bit images in float32
(``.fir_rows``), that path's float32 sums and fused multiply-adds, bit for bit
(``.rows_sums``).  Which of them runs never changes the bits.

Which runs depends on what the process has paid for.  numpy's sums first;
once this process has spent :data:`NUMPY_SECONDS` in them (about what
importing scipy.ndimage costs), scipy's ``correlate1d`` runs scipy's sums
and the engine's kernels the float32 rows (:func:`engine_due`: the caller
then prefers the engine's prepared kernels for a repeated call).

The non-finite screen is numpy's: input with a NaN or an infinity, or far
from one (:data:`sftwave.engines.nonfinite.SAFE_EXPONENTS`: the engine scales
it), returns None, and the caller takes the engine's screened path
(``sftwave.engines.nonfinite``), which defines those results.  This module
imports numpy (and scipy.ndimage once it pays) only (the rule and the size
limits: :func:`sftwave.plans.small.small_fir`).
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from ..._checks import output_array
from ...plans import small as small_rule
from ...plans.fit import FIRPlan, SFTPlan, WidePlan
from . import _rows, rows_sums
from ._rows import ROWS_INPUT_DTYPES, ROWS_OUTPUT_DTYPES
from ._scipy_sums import correlate_lines

__all__ = ["filter_small", "cast_into", "zero_sum", "without_offset", "kernels_loaded",
           "engine_due", "NUMPY_SECONDS"]

#: Seconds of numpy's sums a process spends on small calls before it pays for faster code:
#: about what importing scipy.ndimage costs (0.3-0.4 s on a 2-core Xeon), and under what
#: loading numba's kernels costs (0.5-0.7 s).  Paying at the point where the rent so far
#: equals the price never costs more than twice the better choice made in hindsight.
NUMPY_SECONDS = 0.3

#: numpy's time for a sample and a tap on one thread (generous: measured on a 2-core Xeon,
#: one session, 512^2 to 2048^2): scipy's sums 0.7 to 1.3 ns (in blocks that stay in cache,
#: ``._scipy_sums``; about half that on two threads), the float32 rows 7 to 10 ns (an exact
#: fused multiply-add is a dozen numpy operations; docs/performance.md, *Small calls without
#: numba*).
SUMS_SECONDS_PER_TAP = 1.5e-9
ROWS_SECONDS_PER_TAP = 10e-9

#: The most a call above ``sftwave.plans.small.SMALL_FIR_SAMPLES`` may cost in numpy by those
#: figures (scipy's sums shared by the call's threads): less than loading numba's kernels (0.5
#: to 0.7 s with their cache warm, seconds of compilation with it empty).  Larger calls
#: decline: the engine runs them.
NUMBA_FREE_SECONDS = 0.25

#: Seconds this process has spent in numpy's sums (:func:`filter_small`).
_spent = [0.0]


def engine_due() -> bool:
    """Whether small calls should now run the engine's kernels: numba is loaded
    (:func:`kernels_loaded`), or this process has spent :data:`NUMPY_SECONDS` in numpy's
    sums.

    Examples
    --------
    >>> isinstance(engine_due(), bool)
    True
    """
    return kernels_loaded() or _spent[0] >= NUMPY_SECONDS

#: Exponents of two between which finite float input is filtered unscaled (those of
#: ``sftwave.engines.nonfinite.SAFE_EXPONENTS``, which imports this module's callers).
_SAFE = {np.dtype(np.float64): (-511, 512), np.dtype(np.float32): (-63, 64)}


def _scipy_loaded() -> bool:
    """Whether scipy.ndimage is imported in this process (its ``correlate1d``, in C, then sums
    as :func:`~._scipy_sums.correlate_lines` does, faster)."""
    return "scipy.ndimage" in sys.modules


def kernels_loaded() -> bool:
    """Whether numba is loaded in this process: a repeated small call may then run the
    engine's FIR kernels (``.fir_kernels``, scipy's sums bit for bit, two to four times
    faster than ``correlate1d`` on a line) at the cost of loading them once; in a process
    without numba, scipy's loop keeps it out.

    Examples
    --------
    >>> isinstance(kernels_loaded(), bool)
    True
    """
    return "numba" in sys.modules


def cast_into(out: np.ndarray, values: np.ndarray) -> None:
    """``out[...] = values`` as scipy.ndimage casts its results: C's conversion.

    Integers truncate toward zero (numpy's unsafe cast does the same), and
    values beyond the integer dtype's range saturate at its ends (C's
    conversion leaves them undefined: scipy wraps them on x86; a derivative of
    high order at a tiny sigma reaches 3e12, found by tests/suites/test_fuzz.py).  A
    bool output is True where the value truncated toward zero is not zero
    (C's conversion to scipy's one-byte bool: 0.94 is False, -2.4 True), where
    numpy would make every non-zero value True.

    Examples
    --------
    >>> out = np.empty(3, np.uint8)
    >>> cast_into(out, np.array([2.7, -3.0, 300.0]))
    >>> out.tolist()
    [2, 0, 255]
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


def zero_sum(plan) -> bool:
    """Whether the plan's kernel sums to zero by construction: a Gaussian derivative.

    An SFT plan of order 1 or 2, the exact wide-kernel limit of a derivative,
    and sftwave's own truncated derivative kernels (designed with exact
    moments: ``error`` is set; scipy's kernels, kept bit for bit, are not).
    Their response to a constant is zero, so an offset of the signal must
    not reach the output: :func:`without_offset` takes it out first.

    Examples
    --------
    >>> zero_sum(FIRPlan(np.array([0.25, 0.5, 0.25])))
    False
    """
    if isinstance(plan, SFTPlan):
        return plan.info.get("kind") == "gaussian" and int(plan.info.get("order", 0)) >= 1
    if isinstance(plan, WidePlan):
        return plan.order >= 1
    if isinstance(plan, FIRPlan) and plan.error is not None and not np.iscomplexobj(plan.kernel):
        h = plan.kernel
        return bool(abs(float(np.sum(h))) <= 1e-12 * float(np.sum(np.abs(h))))
    return False


#: Samples (evenly spaced, both ends included) from which a line's offset is judged ...
OFFSET_PICKS = 5

#: ... an offset where their middle one exceeds their largest distance from it this many
#: times (``sftwave.engines.numba.filters.without_offset``).
OFFSET_RATIO = 16.0


def without_offset(x: np.ndarray, axis: int) -> np.ndarray:
    """``x`` minus each line's centre along ``axis``, where an offset dwarfs the line's variation.

    ``sftwave.engines.numba.filters.without_offset`` in numpy, the same
    operations in the same dtype: the centre is the middle one of
    :data:`OFFSET_PICKS` evenly spaced samples; a line is offset where its
    magnitude exceeds :data:`OFFSET_RATIO` times their largest distance from
    it.  ``x`` itself where no line is.

    Examples
    --------
    >>> x = np.array([[1e8 + 1.0, 1e8 + 2.0, 1e8 + 4.0, 1e8 + 3.0, 1e8 + 5.0],
    ...               [1.0, -2.0, 4.0, -3.0, 5.0]])
    >>> without_offset(x, 1).tolist()
    [[-3.0, -2.0, 0.0, -1.0, 1.0], [1.0, -2.0, 4.0, -3.0, 5.0]]
    """
    n = x.shape[axis]
    if n < 2 or x.size == 0:
        return x
    picks = (np.arange(OFFSET_PICKS, dtype=np.int64) * (n - 1)) // (OFFSET_PICKS - 1)
    vals = np.take(x, picks, axis=axis)
    centre = np.take(vals, [OFFSET_PICKS // 2], axis=axis)
    spread = np.max(np.abs(vals - centre), axis=axis, keepdims=True).astype(np.float64)
    offset = np.abs(centre).astype(np.float64) > OFFSET_RATIO * spread
    if not offset.any():
        return x
    return x - np.where(offset, centre, x.dtype.type(0))


def _work_dtype(dtype: np.dtype) -> np.dtype:
    """The engine's working dtype for a real input (``.filters._work_dtype``)."""
    return np.dtype(np.float32) if dtype in (np.float32, np.float16) else np.dtype(np.float64)


def _finite_near_one(x: np.ndarray, cval: float, constant: bool) -> bool:
    """Whether the engine would filter ``x`` as it is: all finite (and ``cval`` where read),
    and for float32/float64 its largest magnitude within :data:`_SAFE` (or zero)."""
    if constant and not math.isfinite(cval):
        return False
    if x.dtype.kind != "f":
        return True
    m = float(np.max(np.abs(x))) if x.size else 0.0
    if not math.isfinite(m):
        return False
    bounds = _SAFE.get(x.dtype)
    if bounds is None:
        return True
    if constant:
        m = max(m, abs(cval))
    return m == 0 or math.ldexp(1.0, bounds[0]) <= m < math.ldexp(1.0, bounds[1])


def _rows_steps(x: np.ndarray, out: np.ndarray, steps) -> list | None:
    """The steps as the engine's float32 FIR over rows takes them (``(axis, half kernel,
    mode)``, one value per tap), or None where the engine sums as scipy does.

    The engine's own rule (``.filters._rows_steps`` and ``.fir_rows.filter_rows``): its
    dtypes; every plan a symmetric smoothing kernel of positive taps, not asked for
    scipy's arithmetic, not a derivative's zero-sum kernel; distinct axes; an input that
    its first pass views without a copy.  Those calls run ``.rows_sums``'s float32 sums
    or the engine's, so that a call's bits never depend on the input's size (the pieces
    of ``sftwave.dask`` give the whole array's).
    """
    if not (steps and x.size and x.dtype in ROWS_INPUT_DTYPES and out.dtype in ROWS_OUTPUT_DTYPES):
        return None
    rows = []
    for axis, plan, mode in steps:
        if plan.scipy_arithmetic or np.iscomplexobj(plan.kernel) or zero_sum(plan):
            return None
        half = _rows.half_kernel(plan.kernel[::-1])
        if half is None:
            return None
        rows.append((axis, half[::16], mode))
    axes = [axis for axis, _, _ in rows]
    if len(set(axes)) != len(axes):
        return None
    views, _ = _rows.pass_views(x.shape, _rows.plan_passes(x.shape, axes))
    if not np.may_share_memory(x.reshape(views[0]), x):
        return None
    return rows


def filter_small(x: np.ndarray, steps, *, cval, output=None) -> np.ndarray | None:
    """The engine's ``filter`` of real ``x`` whose every step is a real FIR plan, without numba.

    ``steps``: ``(axis, FIRPlan, mode)`` each; ``output`` as scipy's (None, a
    dtype or an array; checked first).  None (nothing written) where ``x`` or
    ``cval`` is not finite, or ``x`` is far from one, or the engine's float32
    rows would run the steps and :func:`engine_due`, or ``x`` holds more than
    ``sftwave.plans.small.SMALL_FIR_SAMPLES`` samples and numpy would take longer
    than :data:`NUMBA_FREE_SECONDS`: the caller's path runs it.

    Examples
    --------
    >>> plan = FIRPlan(np.array([0.25, 0.5, 0.25]))
    >>> filter_small(np.array([0.0, 4.0, 0.0]), [(0, plan, "constant")], cval=0.0).tolist()
    [1.0, 2.0, 1.0]
    >>> filter_small(np.array([np.nan, 1.0]), [(0, plan, "reflect")], cval=0.0) is None
    True
    """
    cval = float(cval)
    out = output_array(output, x)
    rows = _rows_steps(x, out, steps)
    threads = 1
    if x.size > small_rule.SMALL_FIR_SAMPLES:
        from .pool import threads as pool_threads

        threads = pool_threads()
        per_tap = ROWS_SECONDS_PER_TAP if rows is not None else SUMS_SECONDS_PER_TAP / threads
        if x.size * sum(plan.kernel.size for _, plan, _ in steps) * per_tap > NUMBA_FREE_SECONDS:
            return None
    if not _finite_near_one(x, cval, any(m == "constant" for _, _, m in steps)):
        return None
    if x.size == 0:
        return out
    if rows is not None:
        if engine_due():
            return None
        start = time.perf_counter()
        np.copyto(out, rows_sums.filter_rows(x, rows, cval, out.dtype))
        _spent[0] += time.perf_counter() - start
        return out
    work = np.asarray(x, dtype=_work_dtype(x.dtype), order="C")
    owned = work is not x
    deriv = next((ax for ax, plan, mode in steps if mode != "constant" and zero_sum(plan)), None)
    if deriv is not None:
        centred = without_offset(work, deriv)
        owned, work = owned or centred is not work, centred
    if (out.dtype == work.dtype and out.flags.c_contiguous
            and not np.may_share_memory(work, out)):
        buf = out
    elif owned:
        buf = work
    else:
        buf = np.empty(work.shape, dtype=work.dtype)
    src = work
    scipy_loop = _scipy_loaded() or _spent[0] >= NUMPY_SECONDS
    start = time.perf_counter()
    for axis, plan, mode in steps:
        if scipy_loop:
            import scipy.ndimage as ndi

            ndi.correlate1d(src, plan.kernel[::-1], axis=axis, output=buf, mode=mode, cval=cval)
        else:
            correlate_lines(src, plan.kernel[::-1], axis, mode, cval, buf, threads)
        src = buf
    if not scipy_loop:
        _spent[0] += time.perf_counter() - start
    if not steps:
        np.copyto(buf, work)
    if buf is not out:
        cast_into(out, buf)
    return out
