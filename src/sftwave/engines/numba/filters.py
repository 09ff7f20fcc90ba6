"""The CPU engine's separable filters: one plan per axis, in one buffer, scipy's output rules.

Each axis is filtered by its plan: an :class:`~sftwave.plans.fit.SFTPlan` by
the bank (``sftwave.engines.numba.bank``; its ``iir1`` method along a
non-last axis by a kernel that keeps the contiguous inner elements side by
side, and along few long lines by ``sftwave.engines.numba.pieces``, the lines
cut into pieces run 16 side by side with no warm-up beyond 1/8 of the work, the
same cost at every window length; shorter ones by the lane engine: docs/performance.md,
*Gaussian filters*), a
:class:`~sftwave.plans.fit.FIRPlan` by sftwave's FIR kernels (the same arithmetic
as scipy's ``correlate1d``, on all threads) and a
:class:`~sftwave.plans.fit.WidePlan` by its exact FFT limit
(``sftwave.engines.numba.wide``).  As in scipy, the first axis writes into
one array of the working dtype and every later axis filters it in place.
"""

from __future__ import annotations

import math

import numpy as np

from ..._checks import output_array
from ...plans.fit import FIRPlan, SFTPlan, WidePlan
from .._boundary import MODE_CODES
from . import bank
from . import bank_kernels as _numba
from . import fir_kernels as _fir
from . import small_fir as _small
from ._jit import kernel
from ._rows import ROWS_INPUT_DTYPES, ROWS_OUTPUT_DTYPES
from .pool import parallel_for, prepared_for
from .small_fir import cast_into, zero_sum

__all__ = ["filter_axes", "fir_axis", "cast_into", "zero_sum"]

#: Output dtypes scipy.ndimage.correlate1d can write.
_SCIPY_OUTPUT_TYPES = {np.dtype(t) for t in (
    np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
    np.float32, np.float64, np.complex64, np.complex128)}


def _work_dtype(dtype: np.dtype) -> np.dtype:
    """Floating dtype in which a real input is handed to the bank."""
    if dtype == np.float32 or dtype == np.float16:
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def _inner_path(x: np.ndarray, axis: int, method: str) -> bool:
    """Whether the bank runs ``axis`` of ``x`` by the kernel for non-last axes (``_bank_inner_axis``)."""
    return (method == "iir1" and axis < x.ndim - 1 and x.flags.c_contiguous
            and x.dtype in (np.float32, np.float64))


def _last(x: np.ndarray, axis: int) -> np.ndarray:
    """``np.moveaxis(x, axis, -1)``, without its argument checks where ``axis`` is already last."""
    return x if axis in (-1, x.ndim - 1) else np.moveaxis(x, axis, -1)


def _back(x: np.ndarray, axis: int) -> np.ndarray:
    """``np.moveaxis(x, -1, axis)``: the inverse of :func:`_last`."""
    return x if axis in (-1, x.ndim - 1) else np.moveaxis(x, -1, axis)


def _bank_axis(x: np.ndarray, axis: int, plan, method: str, mode: str, cval: float,
               out: np.ndarray | None) -> np.ndarray:
    """Filter a real floating array along one axis with the bank.

    Writes into ``out`` (any numeric dtype, cast as scipy casts) if given, else
    returns a new array of ``x``'s dtype.
    """
    if _inner_path(x, axis, method):
        # a non-last axis: the contiguous inner elements side by side, no transposes
        return _bank_inner_axis(x, axis, plan, mode, cval, out)
    moved = _last(x, axis)
    shape = moved.shape
    n = shape[-1]
    x2d = np.ascontiguousarray(moved).reshape(-1, n)
    if _rows_transposed_pay(x2d, plan, method):
        # many rows along the last axis: blocks of rows turned into columns, so that the
        # kernel for non-last axes runs them side by side (docs/performance.md)
        direct = (out is not None and out.dtype == x.dtype and axis == x.ndim - 1
                  and out.flags.c_contiguous and _writable_in_place(x2d, out.reshape(-1, n)))
        res = out.reshape(-1, n) if direct and out is not None else np.empty(x2d.shape, x.dtype)
        _bank_rows_transposed(x2d, plan, mode, cval, res)
        if direct and out is not None:
            return out
        res = _back(res.reshape(shape), axis)
        if out is None:
            return res
        cast_into(out, res)
        return out
    runner = (None if method != "iir1" or x.dtype not in (np.float32, np.float64)
              else _pieces_rows if _pieces_pay(x2d, plan)      # few long rows: any sigma alike
              else _lanes_rows if _lanes_pay(x2d, plan) else None)
    if runner is not None:
        direct = (out is not None and out.dtype in (np.float32, np.float64)
                  and axis == x.ndim - 1 and out.flags.c_contiguous)
        # (`out is not None` below: direct says so, but mypy does not know)
        res = out.reshape(-1, n) if direct and out is not None else np.empty((x2d.shape[0], n), dtype=x.dtype)
        runner(x2d, plan, mode, cval, res)           # each safe in place
        if direct and out is not None:
            return out
        res = _back(res.reshape(shape), axis)
        if out is None:
            return res
        cast_into(out, res)
        return out
    direct_write = (
        out is not None and out.dtype == x.dtype and axis == x.ndim - 1
        and out.flags.c_contiguous
    )
    if direct_write and out is not None:      # (`out is not None`: for mypy)
        out2d = out.reshape(-1, n)
        overlap = np.may_share_memory(x2d, out2d)
        if not overlap or (_same_memory(x2d, out2d) and n <= bank.MAX_IN_PLACE):
            # in place: one work item per row, which copies its row before writing
            bank.apply(plan, x2d, out2d[..., None], mode=mode, cval=cval, method=method,
                       whole_rows=overlap)
            return out
    res = np.empty((x2d.shape[0], n, 1), dtype=x.dtype)
    bank.apply(plan, x2d, res, mode=mode, cval=cval, method=method)
    res = _back(res.reshape(shape), axis)
    if out is None:
        return res
    cast_into(out, res)
    return out


#: A line is cut into lanes of at least this many windows (each lane warms up over one).
_LANE_WINDOWS = 16


#: Most samples the lane path takes at once: its float64 copy of the lines (16 MB at most)
#: is the memory it needs beyond the output.
_LANE_MAX_SAMPLES = 1 << 21


#: Few long rows are cut into lanes for at most this many groups of 16 (a power
#: of two: the groups divide evenly among 1, 2, 4 or 8 threads; each lane's
#: warm-up adds one window of work: 128 lanes add 1 to 4 % at sigma 8 to 32,
#: N = 1e6, against 0.2 to 1 % for the 32 lanes of two threads) ...
_LANE_GROUPS = 8

#: ... and go to the lane engine only while there are fewer rows than this.
_LANE_MAX_ROWS = 32


def _lane_groups(rows: int, n: int, plan) -> int:
    """Groups of 16 lanes that ``rows`` rows of ``n`` samples are cut into (0: too few to pay).

    The largest power of two, at most :data:`_LANE_GROUPS`, for which every
    piece is at least :data:`_LANE_WINDOWS` windows long.  By the shape alone,
    never by the thread count: each piece restarts its recursion, which rounds
    differently, and the result must be the same bits on every machine.
    """
    g = min(_LANE_GROUPS, rows * (n // (_LANE_WINDOWS * plan.length)) // 16)
    return 1 << (g.bit_length() - 1) if g >= 2 else 0


def _lanes_pay(x2d: np.ndarray, plan) -> bool:
    """Whether the lane engine takes these rows: few long ones, cut into pieces.

    The lane engine runs 16 recursions side by side on explicit vectors
    (:func:`~sftwave.engines.numba.lane_kernels.run_lanes_16`): pieces of few
    long rows, at least two groups of 16, each piece at least
    :data:`_LANE_WINDOWS` windows long so that its warm-up costs little (on
    long 1-D signals clearly faster than the bank: docs/performance.md,
    *Gaussian filters*).  Many rows stay with the bank: the
    lanes would gain little there, for a float64 copy of the rows
    that the bank, filtering a block of lines at a time, does not make (scipy's
    memory rule: about one output).  Decided by the shape alone (see
    :func:`_lane_groups`).
    """
    rows, n = x2d.shape
    return (plan.coef.shape[0] == 1 and not np.iscomplexobj(plan.coef)
            and rows < _LANE_MAX_ROWS and _lane_groups(rows, n, plan) >= 2
            and rows * n <= _LANE_MAX_SAMPLES)


def _pieces_pay(x2d: np.ndarray, plan) -> bool:
    """Whether few long rows go to the pieces (``sftwave.engines.numba.pieces``): a real
    one-output plan, fewer rows than :data:`_LANE_MAX_ROWS`, each long enough for a group of
    16 pieces, on the explicit vectors; and each recursion over at most ``bank.MAX_IN_PLACE``
    steps, so that its rounding is bounded as the bank's chunks bound it: rows of at most that
    many samples, or longer rows whose pieces warm up (each piece's recursion then runs over
    its own steps alone, ``pieces.piece_steps``; with the carry, over the whole row).  By the
    shape alone (and whether numba's internals are there), never by the thread count."""
    rows, n = x2d.shape
    if not (plan.coef.shape[0] == 1 and not np.iscomplexobj(plan.coef)
            and rows < _LANE_MAX_ROWS and x2d.flags.c_contiguous):
        return False
    from . import pieces  # loaded only by the calls that may use them

    if pieces.groups(n, plan.length) < 1:
        return False
    if n > bank.MAX_IN_PLACE and not (pieces.warm_up(n, plan.length)
                                      and pieces.piece_steps(n, plan.length) <= bank.MAX_IN_PLACE):
        return False
    from . import lanes

    return lanes.vector_kernel_runs()


def _pieces_rows(x2d: np.ndarray, plan, mode: str, cval: float, out2d: np.ndarray) -> None:
    """Filter the rows of ``x2d`` with a real one-output plan cut into pieces (no warm-up).

    ``out2d`` may overlap ``x2d``: the pieces read rows while others are written, so the
    rows are copied first then."""
    from . import pieces

    src = x2d.copy() if np.may_share_memory(x2d, out2d) else x2d
    pieces.run(src, plan, mode, cval, out2d)


def _lanes_rows(x2d: np.ndarray, plan, mode: str, cval: float, out2d: np.ndarray) -> None:
    """Filter the rows of ``x2d`` with a real one-output plan on the lane engine, float64 state.

    ``out2d`` may be ``x2d`` (the engine copies the rows before it writes).
    """
    # the lane engine's modules load only for the calls that use them
    from . import lanes

    rows, n = x2d.shape
    want = -(-16 * _lane_groups(rows, n, plan) // rows)     # lanes per row
    per_row = max(1, min(want, n // (_LANE_WINDOWS * plan.length)))
    edges = (n * np.arange(per_row + 1, dtype=np.int64)) // per_row
    r = np.repeat(np.arange(rows, dtype=np.int64), per_row)
    table = lanes.LaneTable((plan,), np.zeros(r.size, np.int64), r, r,
                            np.tile(edges[:-1], rows), np.tile(edges[1:], rows))
    lanes.run(x2d, table, out2d[:, :, None], mode=mode, cval=cval, kind="real",
              dtype=np.float64)


#: Rows the last-axis bank turns into columns at a time (the kernel for non-last axes then
#: runs them side by side, :data:`bank_kernels.INNER_BLOCK` per task) ...
_TRANSPOSED_ROWS = 4 * _numba.INNER_BLOCK

#: ... where there are at least this many rows (fewer go row by row, or to the lanes): the
#: one block buffer is then at most a quarter of the array (scipy's memory rule: about one
#: output, and a block of lines).
_TRANSPOSED_MIN_ROWS = 4 * _TRANSPOSED_ROWS

#: Samples per tile of the transposing copies.
_TILE = 64


def _rows_transposed_pay(x2d: np.ndarray, plan, method: str) -> bool:
    """Whether the last-axis bank takes ``x2d``'s rows in transposed blocks: the ``iir1``
    method on float32/float64 rows, at least :data:`_TRANSPOSED_MIN_ROWS` of them; decided
    by the shape alone, so the result's bits do not depend on the machine."""
    return (method == "iir1" and x2d.dtype in (np.float32, np.float64)
            and x2d.shape[0] >= _TRANSPOSED_MIN_ROWS and x2d.shape[1] >= 1)


@kernel(nogil=True)
def _rows_to_columns(lo, hi, x2d, r0, buf):
    """``buf[t, j] = x2d[r0 + j, t]`` for the tiles ``[lo, hi)`` of :data:`_TILE` samples."""
    n, m = buf.shape
    for tile in range(lo, hi):
        t0 = tile * _TILE
        t1 = min(n, t0 + _TILE)
        for j in range(m):
            for t in range(t0, t1):
                buf[t, j] = x2d[r0 + j, t]


@kernel(nogil=True)
def _columns_to_rows(lo, hi, buf, r0, out2d):
    """``out2d[r0 + j, t] = buf[t, j]`` for the tiles ``[lo, hi)`` of :data:`_TILE` samples."""
    n, m = buf.shape
    for tile in range(lo, hi):
        t0 = tile * _TILE
        t1 = min(n, t0 + _TILE)
        for j in range(m):
            for t in range(t0, t1):
                out2d[r0 + j, t] = buf[t, j]


def _bank_rows_transposed(x2d: np.ndarray, plan, mode: str, cval: float,
                          out2d: np.ndarray) -> None:
    """The iir1 bank along the rows of ``x2d`` (C-contiguous), blocks of
    :data:`_TRANSPOSED_ROWS` rows at a time turned into columns and back.

    Each block is copied into a column buffer, filtered there in place by the kernel
    for non-last axes (:func:`_bank_inner_axis`, the columns side by side on explicit
    vectors) and copied back, so that the work per row is the vectorised recursion
    instead of one scalar recursion per row.  Beyond the output, one buffer of one
    block.  ``out2d`` may be ``x2d``: a block is read before it is written.
    """
    rows, n = x2d.shape
    b = min(rows, _TRANSPOSED_ROWS)
    tiles = -(-n // _TILE)
    cols = np.empty((n, b), x2d.dtype)
    for r0 in range(0, rows, b):
        m = min(b, rows - r0)
        if m < b:
            del cols
            cols = np.empty((n, m), x2d.dtype)
        parallel_for(_rows_to_columns, tiles, x2d, r0, cols, work=float(n * m))
        _bank_inner_axis(cols, 0, plan, mode, cval, cols)
        parallel_for(_columns_to_rows, tiles, cols, r0, out2d, work=float(n * m))


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
    res = out if out is not None and _writable_in_place(x, out) else np.empty(x.shape, dtype=x.dtype)
    n = x.shape[axis]
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
    w = plan.w
    c = np.exp(plan.length * np.log(w))
    coef = plan.coef[0]
    # each column is filtered minus its centre, which is added back times the kernel's sum;
    # a derivative's kernel sums to zero by construction (its fitted sum is rounding, which
    # times a large offset would leak it): not added back, the offset cancels exactly
    dc = 0.0 if zero_sum(plan) else float(plan.kernel_sum[0])
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
    res = out if out is not None and _writable_in_place(x, out) else np.empty(x.shape, dtype=x.dtype)
    _fir_call(x.shape, axis, weights, mode, cval, np.may_share_memory(x, res))(x, res)
    if out is None or res is out:
        return res
    cast_into(out, res)
    return out


def _fir_call(shape: tuple[int, ...], axis: int, weights: np.ndarray, mode: str, cval: float,
              in_place: bool):
    """One FIR pass along ``axis`` (non-negative) over C-contiguous arrays of ``shape``, its
    weights' symmetry, arguments and tasks found once: ``call(src, dst)`` (``dst`` may be
    ``src`` where ``in_place``): the lines in blocks of outputs (:func:`.fir_kernels.fir_lines`)
    or the inner elements side by side (:func:`.fir_kernels.fir_inner`), on the threads."""
    n = shape[axis]
    outer, inner = math.prod(shape[:axis]), math.prod(shape[axis + 1:])
    args = (weights, _symmetry(weights), MODE_CODES[mode], float(cval))
    work = float(math.prod(shape)) * weights.size
    if inner == 1:
        block = _fir.line_block(n, in_place)
        go = prepared_for(_fir.fir_lines, outer * -(-n // block),
                          work=work / _fir.LINE_TAPS_PER_UNIT)
        view: tuple[int, ...] = (outer, n)
        tail: tuple[int, ...] = (block,)
    else:
        go = prepared_for(_fir.fir_inner, outer * -(-inner // _fir.INNER_BLOCK), work=work)
        view, tail = (outer, n, inner), ()
    return lambda src, dst: go(src.reshape(view), *args, dst.reshape(view), *tail)


#: scipy's symmetry test of the FIR weights met before, by their bytes (at most 256 kept).
_SYMMETRY: dict[tuple[str, bytes], int] = {}


def _symmetry(weights: np.ndarray) -> int:
    """:func:`.fir_kernels.symmetry` of ``weights``, remembered by their dtype and values."""
    key = (weights.dtype.str, weights.tobytes())
    sym = _SYMMETRY.get(key)
    if sym is None:
        sym = _fir.symmetry(weights)
        if len(_SYMMETRY) >= 256:
            _SYMMETRY.clear()
        _SYMMETRY[key] = sym
    return sym


#: Samples (evenly spaced, both ends included) from which a line's offset is judged ...
_OFFSET_PICKS = _small.OFFSET_PICKS

#: ... an offset where their middle one exceeds their largest distance from it this many
#: times: there its removal saves at least that factor in rounding, and a line without
#: an offset (five samples of noise) is practically never taken for one (which would
#: cost a pass over the data for nothing).
_OFFSET_RATIO = _small.OFFSET_RATIO


def _fir_runner(shape: tuple[int, ...], dtype: np.dtype, steps, cval: float):
    """:func:`prepared_filter`'s FIR plans on float32/float64 arrays of ``shape``: each
    step's kernel, weights and tasks found once, run as :func:`_run_axes` runs them (the
    first axis into a new array, each later one in place in it), or None where a plan is
    complex or a derivative whose lines' offsets :func:`_run_axes` would take off."""
    calls = []
    for i, (axis, plan, mode) in enumerate(steps):
        if np.iscomplexobj(plan.kernel) or (mode != "constant" and zero_sum(plan)):
            return None
        calls.append(_fir_call(shape, axis % len(shape), np.ascontiguousarray(plan.kernel[::-1]),
                               mode, cval, i > 0))

    def run(y: np.ndarray) -> np.ndarray | None:
        if not y.flags.c_contiguous:
            return None
        buf = np.empty(shape, dtype)
        src = y
        for call in calls:
            call(src, buf)
            src = buf
        return buf

    return run


@kernel(nogil=True)
def _line_offsets(x3, picks, centre):
    """``centre[o, i]``: line ``x3[o, :, i]``'s middle pick where it exceeds ``_OFFSET_RATIO``
    times the picks' largest distance from it (an offset line), else 0; returns whether any
    line is offset."""
    mid = picks[picks.size // 2]
    found = False
    for o in range(x3.shape[0]):
        for i in range(x3.shape[2]):
            c = x3[o, mid, i]
            spread = 0.0
            for p in picks:
                spread = max(spread, abs(x3[o, p, i] - c))
            offset = abs(c) > _OFFSET_RATIO * spread
            centre[o, i] = c if offset else 0.0
            found |= offset
    return found


def without_offset(x: np.ndarray, axis: int) -> np.ndarray:
    """``x`` minus each line's centre along ``axis``, on the lines where an offset dwarfs their variation.

    A zero-sum kernel (a derivative) along ``axis`` cancels an offset ``c``
    of a line in exact arithmetic, but the sums of ``x + c`` round at the
    scale of ``c`` (a derivative of data at 1e8 carried about 1e-12 of it,
    relative to the data's variation).  The centre is the middle one of
    :data:`_OFFSET_PICKS` evenly spaced samples of the line; where it exceeds
    :data:`_OFFSET_RATIO` times their largest distance from it, the line is
    offset and is filtered minus it (exact where the samples lie within a
    factor 2 of it, as an offset line's do), and nothing is added back: the
    kernel's response to a constant is zero.  Other lines are left as they
    are (their sums do not round at a larger scale than their data), so is
    ``x`` where no line is offset.  One read of five samples per line.  ``x``:
    C-contiguous float32/float64; for the boundary modes that extend a line
    with its own samples (not ``'constant'``, whose ``cval`` is not shifted).

    Examples
    --------
    >>> x = np.array([[1e8 + 1.0, 1e8 + 2.0, 1e8 + 4.0, 1e8 + 3.0, 1e8 + 5.0],
    ...               [1.0, -2.0, 4.0, -3.0, 5.0]])
    >>> without_offset(x, 1).tolist()
    [[-3.0, -2.0, 0.0, -1.0, 1.0], [1.0, -2.0, 4.0, -3.0, 5.0]]
    >>> y = x[1:]
    >>> without_offset(y, 1) is y                 # no line offset: no copy
    True
    """
    n = x.shape[axis]
    if n < 2 or x.size == 0:
        return x
    outer = int(np.prod(x.shape[:axis], dtype=np.int64))
    inner = int(np.prod(x.shape[axis + 1:], dtype=np.int64))
    picks = (np.arange(_OFFSET_PICKS, dtype=np.int64) * (n - 1)) // (_OFFSET_PICKS - 1)
    centre = np.empty((outer, 1, inner), x.dtype)
    x3 = x.reshape(outer, n, inner)
    if not _line_offsets(x3, picks, centre[:, 0, :]):
        return x
    return (x3 - centre).reshape(x.shape)


def _filter_axis(x: np.ndarray, step, method: str, cval: float,
                 out: np.ndarray | None) -> np.ndarray:
    """One axis of a real floating array: by the bank, the FIR or the wide-kernel limit."""
    axis, plan, mode = step
    if isinstance(plan, FIRPlan):
        weights = np.ascontiguousarray(plan.kernel[::-1])
        fast = fir_axis(x, axis, weights, mode, cval, out)
        if fast is not None:
            return fast
        # imported here: only the rare layouts need it, and it is slow to import (the
        # figure: docs/performance.md, *Figures behind the code's choices*)
        import scipy.ndimage as _ndi

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
    """A kernel many times wider than the line: its exact limit (``sftwave.engines.numba.wide``)."""
    from .wide import gaussian_wide

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
    working copy of an integer or float16 input).  ``out`` may be ``x`` itself
    (every path filters in place: it copies each line or block of lines before
    writing it); an ``out`` that overlaps ``x`` otherwise is written last.

    Where a step is a derivative (a zero-sum kernel, :func:`zero_sum`), the
    lines of ``x`` along its axis that carry an offset lose it first
    (:func:`without_offset`): a function constant along that axis, which the
    other steps keep constant along it and the derivative maps to zero, so
    nothing is added back, and the steps before the derivative (a smoothing
    along another axis) do not round the data at the offset's scale either.
    """
    if not steps:
        if out is None:
            return x.copy()
        cast_into(out, x)
        return out
    deriv = next((ax for ax, plan, mode in steps if mode != "constant" and zero_sum(plan)), None)
    if deriv is not None:
        centred = without_offset(x, deriv)
        owned, x = owned or centred is not x, centred
    if (out is not None and out.dtype == x.dtype and out.flags.c_contiguous
            and (not np.may_share_memory(x, out) or _same_memory(x, out))):
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


def _rows_steps(steps) -> list | None:
    """The steps as :func:`.fir_rows.filter_rows` takes them, or None where it does not apply.

    Every step a symmetric FIR that is not a derivative (:func:`zero_sum`: those keep the
    float64 path and its removal of offsets) nor asked to run in scipy's arithmetic, and the
    explicit vectors usable.
    """
    from . import fir_rows
    from .vectors import usable

    fast = []
    for axis, plan, mode in steps:
        if (not isinstance(plan, FIRPlan) or plan.scipy_arithmetic or np.iscomplexobj(plan.kernel)
                or zero_sum(plan)):
            return None
        half = fir_rows.half_kernel(plan.kernel[::-1])
        if half is None:
            return None
        fast.append((axis, half, mode))
    return fast if usable(np.float32) else None


def _dispatch(x: np.ndarray, output, steps, cval, method: str) -> np.ndarray:
    complex_input = x.dtype.kind == "c"
    out = output_array(output, x)
    if x.size == 0:
        return out
    if complex_input:
        # as scipy: the real part is extended with Re(cval), the imaginary part with Im(cval)
        wd = np.dtype(np.float32) if x.dtype == np.complex64 else np.dtype(np.float64)
        # both parts copied before either is written: ``out`` may overlap ``x``
        re, im = x.real.astype(wd), x.imag.astype(wd)
        out.real = _run_axes(re, steps, method, float(np.real(cval)), None, owned=True)
        out.imag = _run_axes(im, steps, method, float(np.imag(cval)), None, owned=True)
        return out
    if x.dtype in ROWS_INPUT_DTYPES and out.dtype in ROWS_OUTPUT_DTYPES and steps:
        fast = _rows_steps(steps)
        from . import fir_rows

        if fast is not None and fir_rows.filter_rows(x, fast, cval, out, cast_into) is not None:
            return out
    # a C-ordered working array: the paths, and so the result's last bits, depend on the
    # values alone, not on the input's layout (a view, a transpose, a reversed array)
    work = np.asarray(x, dtype=_work_dtype(x.dtype), order="C")
    return _run_axes(work, steps, method, cval, out, owned=work is not x)


@kernel(nogil=True)
def _largest_bits(bits, mask):
    """The largest ``bits[i] & mask``: a float array's largest magnitude, read as integers.

    Without the sign bit, the bit patterns of floats order as their
    magnitudes, infinities and NaNs above all finite values; an integer
    maximum vectorises where a floating one (NaN's rules) does not.
    """
    m = bits.dtype.type(0)
    for i in range(bits.size):
        b = bits[i] & mask
        m = b if b > m else m
    return m


#: The integer view of each float dtype, its sign-less mask and the bits of its infinity.
_BITS = {np.dtype(np.float64): (np.int64, np.int64(0x7FFF_FFFF_FFFF_FFFF), 0x7FF0_0000_0000_0000),
         np.dtype(np.float32): (np.int32, np.int32(0x7FFF_FFFF), 0x7F80_0000)}


def magnitude(x: np.ndarray) -> tuple[bool, float]:
    """Whether every value of ``x`` is finite, and the largest magnitude of its finite values' parts.

    One read at memory speed for contiguous float32/float64 (and complex)
    arrays, as the finite check alone costs; the magnitude is that of the
    largest finite value where all are finite (else the second item is inf
    or nan).  Integer and bool arrays: (True, their largest magnitude).

    Examples
    --------
    >>> magnitude(np.array([1.0, -3.0, 2.0]))
    (True, 3.0)
    >>> magnitude(np.array([1.0, np.nan]))[0]
    False
    """
    if x.size == 0:
        return True, 0.0
    if x.dtype.kind == "c":
        x = x.reshape(-1) if x.flags.c_contiguous else x
        x = x.view(x.real.dtype) if x.flags.c_contiguous else np.stack([x.real, x.imag])
    if x.dtype in _BITS and (x.flags.c_contiguous or x.flags.f_contiguous):
        view, mask, inf = _BITS[x.dtype]
        top = int(_largest_bits(x.ravel(order="K").view(view), mask))
        if top >= inf:
            return False, float("nan")
        return True, float(np.array(top, dtype=view).view(x.dtype))
    top = np.max(np.abs(x))
    return bool(np.isfinite(top)), float(top)


@kernel(nogil=True)
def _hypot_into(a, b, tiny, huge):
    """``a[i] = sqrt(a[i]**2 + b[i]**2)``, without overflow or underflow in the squares.

    The plain formula where the sum of squares is a normal number (its
    result, to the last bit: scipy's arithmetic); elsewhere (a square beyond
    the range, or fallen below the normal numbers) the larger magnitude is
    divided out first.
    """
    for i in range(a.size):
        x = a[i]
        y = b[i]
        s = x * x + y * y
        if tiny <= s <= huge:
            a[i] = math.sqrt(s)
            continue
        ax = abs(x)
        ay = abs(y)
        m = max(ax, ay)
        if math.isinf(ax) or math.isinf(ay):
            a[i] = math.inf                   # also with a NaN, as C's hypot
        elif m == 0.0 or x != x or y != y:
            a[i] = ax + ay                    # zero, or NaN
        else:
            a[i] = m * math.sqrt((ax / m) ** 2 + (ay / m) ** 2)


def hypot_into(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a = sqrt(a**2 + b**2)`` in place, without overflow or underflow in the squares (as ``np.hypot``).

    For contiguous float32/float64 arrays at the plain formula's speed, and
    with its result wherever its sum of squares is a normal number (scipy's
    arithmetic); ``np.hypot`` for other layouts and dtypes (much
    slower with glibc's correctly rounded hypot; figures in docs/performance.md,
    *Figures behind the code's choices*).

    Examples
    --------
    >>> a = np.array([3.0, 3e300, 3e-300, 0.0])
    >>> hypot_into(a, np.array([4.0, 4e300, 4e-300, 0.0])).tolist()
    [5.0, 5e+300, 5e-300, 0.0]
    """
    if (a.dtype in _BITS and b.dtype == a.dtype and a.flags.c_contiguous
            and b.flags.c_contiguous and a.shape == b.shape):
        info = np.finfo(a.dtype)
        _hypot_into(a.reshape(-1), b.reshape(-1), a.dtype.type(info.smallest_normal),
                    a.dtype.type(info.max))
        return a
    return np.hypot(a, b, out=a)


def filter_axes(x: np.ndarray, steps, *, cval, output=None, bank_method: str = "auto") -> np.ndarray:
    """Filter ``x`` along each step's axis in turn: ``steps`` is a list of ``(axis, plan, mode)``.

    ``output`` follows scipy.ndimage (None, a dtype or an array); complex input
    is filtered as real and imaginary parts, extended with ``cval``'s parts.
    """
    return _dispatch(x, output, steps, cval, bank.resolve_method(bank_method))


def prepared_filter(x: np.ndarray, steps, *, cval, bank_method: str = "auto"):
    """:func:`filter_axes` of arrays like ``x`` (no ``output``), prepared once, or None.

    Three paths are prepared: the float32 FIR over rows (``fir_rows``: FIR plans
    on float32 and 8/16-bit images, as :func:`filter_axes` takes them), the FIR
    kernels in scipy's sums (real FIR plans on float32 and float64 arrays the
    float32 rows do not take, but for a derivative's plan whose lines' offsets
    are taken off first), and
    one bank plan along the last axis of a float32 or float64 array where the
    path :func:`filter_axes` takes for that shape is the bank's plain rows (not
    the pieces, the lanes or the transposed blocks; no line offset removed).
    For those, returns ``run(y)``: for a C-contiguous array ``y`` of ``x``'s
    shape and dtype, exactly what ``filter_axes(y, steps, cval=cval,
    bank_method=bank_method)`` returns (the same kernels with the same
    arguments), the plan's tables, passes and work items found once; ``run``
    returns None for a ``y`` that is not C-contiguous.  Every other case:
    None.  The caller screens ``y`` for non-finite samples first (as
    ``filter_axes``'s callers do).  What a repeated small call costs is then
    little more than the kernels' dispatch.

    Examples
    --------
    >>> from sftwave.plans import select_gaussian
    >>> x = np.cumsum(np.random.default_rng(0).standard_normal(500))
    >>> steps = [(0, select_gaussian(8.0, 0), "reflect")]
    >>> run = prepared_filter(x, steps, cval=0.0)
    >>> bool(np.array_equal(run(x), filter_axes(x, steps, cval=0.0)))
    True
    """
    if (type(x) is not np.ndarray or x.ndim == 0 or x.size == 0 or not x.flags.c_contiguous
            or not steps or isinstance(cval, complex)):
        return None
    shape, dtype = x.shape, x.dtype
    if dtype in ROWS_INPUT_DTYPES and dtype in ROWS_OUTPUT_DTYPES:
        fast = _rows_steps(steps)
        if fast is not None:
            from . import fir_rows

            rows = fir_rows.rows_runner(shape, fast, cval, dtype)
            if rows is None:
                return None

            def run_rows(y: np.ndarray) -> np.ndarray | None:
                if not y.flags.c_contiguous:
                    return None
                return rows(y, np.empty(shape, dtype))

            return run_rows
    if dtype not in (np.float32, np.float64):
        return None
    if all(type(plan) is FIRPlan for _, plan, _ in steps):
        return _fir_runner(shape, dtype, steps, cval)
    if len(steps) != 1:
        return None
    axis, plan, mode = steps[0]
    if type(plan) is not SFTPlan or axis not in (-1, x.ndim - 1) or np.iscomplexobj(plan.coef):
        return None
    if mode != "constant" and zero_sum(plan):
        return None                   # each line's offset is taken off first (_run_axes)
    method = bank.resolve_method(bank_method)
    n = shape[-1]
    x2d = x.reshape(-1, n)
    if _rows_transposed_pay(x2d, plan, method) or (
            method == "iir1" and (_pieces_pay(x2d, plan) or _lanes_pay(x2d, plan))):
        return None
    go = bank.apply_runner(plan, x2d.shape[0], n, mode=mode, cval=cval, method=method)

    def run(y: np.ndarray) -> np.ndarray | None:
        if not y.flags.c_contiguous:
            return None
        out = np.empty(shape, dtype)
        go(y.reshape(-1, n), out.reshape(-1, n, 1))
        return out

    return run
