"""The CPU engine's scalogram: many plans along one axis, one output row per plan.

The FFT plans (:class:`~sftwave.plans.spectral.FFTPlan`) run batched in
``sftwave.engines.numba.spectral``; the bank plans run in the lane engine
(``sftwave.engines.numba.lanes``: one lane per input row and plan, output
written once in its final kind, every ``decim``-th sample) where the bank
method is ``'iir1'``, else row by row in the bank
(``sftwave.engines.numba.bank``); the FIR plans by the FIR kernels
(:func:`~sftwave.engines.numba.filters.fir_axis`, the real and imaginary
parts of the wavelet as two real kernels).
"""

from __future__ import annotations

import numpy as np

from ..._checks import check_out
from ...plans.fit import FIRPlan, SFTPlan
from ...plans.spectral import FFTPlan
from . import bank, lanes, spectral
from .filters import fir_axis
from .pool import limit

__all__ = ["scalogram", "prepared_scalogram", "epoch_sums", "resolve_bank_method", "transform_for",
           "ENGINE_MIN_LANES", "FLOAT32_STATE_MIN_TOL", "SUM_KINDS"]

#: The kinds that add over the epochs (the first axis), and what they add: ``|y|^2``,
#: ``y / |y|`` (complex), or both (the last axis: power, real and imaginary phasor).
SUM_KINDS = ("sum_power", "sum_unit", "sum_power_unit")

#: Below this many rows times scales, 'auto' runs the bank line by line ('iir1-2k')
#: instead of the lane engine, whose groups of ``lanes.DEFAULT_WIDTH`` lanes would
#: run mostly empty (measured by ``make bench``, docs/benchmarks.md, *Few scales*).
ENGINE_MIN_LANES = 8

#: Samples of input per call of the lane engine, so that its extended copy of the rows
#: is a few MB, not a copy of the whole input (at no cost in speed: docs/performance.md,
#: *Figures behind the code's choices*).
LANE_BATCH_SAMPLES = 1 << 20

#: Single-precision output at a tolerance at least this loose runs the
#: recursions in float32 arithmetic with the ASFT (its decay keeps float32 state
#: bounded, well within this tolerance: docs/performance.md, *Figures behind the
#: code's choices*); otherwise they run in float64.
FLOAT32_STATE_MIN_TOL = 1e-4


def resolve_bank_method(bank_method: str, lanes_count: int) -> str:
    """The bank method, with 'auto' choosing by the number of lanes (see ``ENGINE_MIN_LANES``)."""
    if bank_method == "auto" and lanes_count < ENGINE_MIN_LANES:
        return "iir1-2k"
    return bank.resolve_method(bank_method)


def _float32_state(single: bool, complex_input: bool, tol: float, bank_method: str,
                   transform: str) -> bool:
    return (bank_method == "iir1" and not complex_input and single
            and tol >= FLOAT32_STATE_MIN_TOL and transform in ("auto", "asft"))


def transform_for(transform: str, *, single: bool, complex_input: bool, tol: float,
                  bank_method: str) -> str:
    """``transform`` with 'auto' resolved: the ASFT where the recursions run in float32."""
    if transform != "auto":
        return transform
    return "asft" if _float32_state(single, complex_input, tol, bank_method, "auto") else "sft"


def scalogram(arr: np.ndarray, plans, *, axis: int, mode: str, cval, kind: str, decim: int,
              dtype: np.dtype, out: np.ndarray | None, workers: int | None, bank_method: str,
              tol: float, single_state: bool = False) -> np.ndarray:
    """Shape (x without axis) + (len(plans), ceil(n / decim)), of ``dtype`` (in ``out`` if given).

    The summing kinds (:data:`SUM_KINDS`) add over ``x``'s first axis (the
    epochs) instead: see :func:`epoch_sums`.  ``single_state``: the recursions
    run as for single-precision output (float32 state where
    :func:`transform_for`'s rule allows it: ASFT plans, ``tol`` at least
    :data:`FLOAT32_STATE_MIN_TOL`), whatever ``dtype``.
    """
    if kind in SUM_KINDS:
        return epoch_sums(arr, plans, axis=axis, mode=mode, cval=cval, kind=kind, decim=decim,
                          bank_method=bank_method, workers=workers, tol=tol,
                          single_state=single_state)
    moved = np.moveaxis(arr, axis, -1)
    batch, n = moved.shape[:-1], moved.shape[-1]
    F = len(plans)
    n_out = -(-n // decim)
    shape = (*batch, F, n_out)
    result = np.empty(shape, dtype=dtype) if out is None else check_out(out, shape, dtype)
    if result.size == 0:
        return result
    nrows = int(np.prod(batch, dtype=np.int64))
    out3 = result.reshape(nrows, F, n_out)
    complex_input = arr.dtype.kind == "c"
    single = dtype in (np.complex64, np.float32)
    use_lanes = bank_method == "iir1" and not complex_input
    transform = "asft" if any(isinstance(p, SFTPlan) and p.alpha > 0 for p in plans) else "sft"
    state32 = _float32_state(single or single_state, complex_input, tol, bank_method, transform)
    work = np.dtype(np.float32) if single else np.dtype(np.float64)
    cvals = [float(np.real(cval)), float(np.imag(cval))]
    parts = [moved.real, moved.imag] if complex_input else [moved]
    rows = [np.ascontiguousarray(p, dtype=work).reshape(nrows, n) for p in parts]
    cdtype = np.dtype(np.complex64 if single else np.complex128)
    with limit(workers):
        fft = [i for i, plan in enumerate(plans) if isinstance(plan, FFTPlan)]
        if fft:
            lines = moved.reshape(nrows, n)
            lines = np.ascontiguousarray(lines, dtype=cdtype if complex_input else work)
            spectral.run(lines, [plans[i] for i in fft], fft, out3, mode=mode,
                         cval=complex(cval) if complex_input else cvals[0], kind=kind,
                         decim=decim, single=single and tol >= spectral.FLOAT32_MIN_TOL)
        if use_lanes and any(isinstance(plan, SFTPlan) for plan in plans):
            is_bank = np.array([isinstance(plan, SFTPlan) for plan in plans])
            flat = out3.reshape(nrows * F, n_out)
            view = flat.view(flat.real.dtype).reshape(nrows * F, n_out, 2) if kind == "complex" \
                else flat[..., None]
            # rows in batches: the engine's extended copy is of one batch at a time
            longest = max((p.length for p in plans if isinstance(p, SFTPlan)), default=0)
            step = max(1, LANE_BATCH_SAMPLES // (n + 2 * longest + 2 * decim))
            for r0 in range(0, nrows, step):
                r1 = min(nrows, r0 + step)
                table = lanes.LaneTable.grid(plans, r1 - r0, n)
                table = table.take(is_bank[table.plan])
                lanes.run(rows[0][r0:r1], table, view[r0 * F:r1 * F], mode=mode, cval=cvals[0],
                          decim=decim, kind=kind, dtype=np.float32 if state32 else np.float64)
        tmp = None
        rows64 = None
        for i, plan in enumerate(plans):
            if (use_lanes and isinstance(plan, SFTPlan)) or isinstance(plan, FFTPlan):
                continue
            if tmp is None:
                tmp = np.empty((nrows, n), dtype=cdtype)
            if isinstance(plan, FIRPlan) and rows64 is None:
                rows64 = [np.ascontiguousarray(r, dtype=np.float64) for r in rows]
            _apply_real(rows64 if isinstance(plan, FIRPlan) else rows, 0, plan, bank_method,
                        mode, cvals[0], tmp)
            y = tmp
            if complex_input:
                y = tmp.copy()
                _apply_real(rows64 if isinstance(plan, FIRPlan) else rows, 1, plan, bank_method,
                            mode, cvals[1], tmp)
                y += 1j * tmp
            out3[:, i, :] = _kind_of(y[:, ::decim], kind)
    return result


def prepared_scalogram(x: np.ndarray, plans, *, axis: int, mode: str, cval, kind: str,
                       decim: int, dtype: np.dtype, out: np.ndarray | None, workers: int | None,
                       bank_method: str, tol: float, single_state: bool = False):
    """:func:`scalogram` of arrays like ``x`` whose plans are all FFT plans, prepared once, or None.

    For a real float32 or float64 NumPy ``x``, no ``out``, a kind that does
    not sum over epochs and every plan an :class:`~sftwave.plans.spectral.FFTPlan`,
    returns ``run(y)``: for an array ``y`` of ``x``'s shape and dtype, exactly
    what ``scalogram(y, plans, ...)`` returns with the same arguments (the
    same transforms, with the same arguments, in the same order), the shapes,
    dtypes and scale indices found once.  Every other case: None.  The
    caller screens ``y`` for non-finite samples first, as :func:`scalogram`'s
    callers do.  A repeated small transform then costs little more than its
    transforms.  ``single_state`` is taken with the other arguments of
    :func:`scalogram` and, as there, has no effect on FFT plans.

    Examples
    --------
    >>> from sftwave.plans.spectral import FFTPlan
    >>> x = np.random.default_rng(0).standard_normal(200)
    >>> plans = [FFTPlan(sigma=s, xi=6.0) for s in (4.0, 9.0)]
    >>> options = dict(axis=-1, mode="reflect", cval=0.0, kind="complex", decim=1,
    ...                dtype=np.dtype(np.complex128), out=None, workers=None,
    ...                bank_method="auto", tol=1e-3)
    >>> run = prepared_scalogram(x, plans, **options)
    >>> bool(np.array_equal(run(x), scalogram(x, plans, **options)))
    True
    """
    if (type(x) is not np.ndarray or out is not None or kind in SUM_KINDS or x.ndim == 0
            or x.dtype not in (np.float32, np.float64) or not plans
            or not all(type(plan) is FFTPlan for plan in plans)):
        return None
    shape_in, dtype_in = x.shape, x.dtype
    axis = axis % x.ndim
    last = axis == x.ndim - 1
    batch = tuple(size for i, size in enumerate(shape_in) if i != axis)
    n = int(shape_in[axis])
    F = len(plans)
    n_out = -(-n // decim)
    shape = (*batch, F, n_out)
    nrows = int(np.prod(batch, dtype=np.int64))
    dtype = np.dtype(dtype)
    single = dtype in (np.complex64, np.float32)
    work = np.dtype(np.float32) if single else np.dtype(np.float64)
    cval0 = float(np.real(cval))
    index = list(range(F))
    plans = list(plans)
    single_fft = single and tol >= spectral.FLOAT32_MIN_TOL

    def run(y: np.ndarray) -> np.ndarray:
        if y.shape != shape_in or y.dtype != dtype_in:
            raise ValueError(f"a prepared scalogram takes arrays of shape {shape_in} and dtype "
                             f"{dtype_in}; got {y.shape} and {y.dtype}")
        result = np.empty(shape, dtype=dtype)
        if result.size == 0:
            return result
        moved = y if last else np.moveaxis(y, axis, -1)
        lines = np.ascontiguousarray(moved.reshape(nrows, n), dtype=work)
        with limit(workers):
            spectral.run(lines, plans, index, result.reshape(nrows, F, n_out), mode=mode,
                         cval=cval0, kind=kind, decim=decim, single=single_fft)
        return result

    return run


def epoch_sums(arr: np.ndarray, plans, *, axis: int, mode: str, cval, kind: str, decim: int,
               bank_method: str, workers: int | None, tol: float = 0.0,
               single_state: bool = False) -> np.ndarray:
    """Sums over the epochs (``arr``'s first axis) of each coefficient's power and unit phasor.

    ``arr`` (epochs, ..., n along ``axis``), real, at least 2-D, ``axis`` not
    the first.  Returns, for the rest of the axes R (``arr`` without the first
    axis and ``axis``), float64 ``R + (F, n_out)`` of ``sum |y|^2`` for
    ``kind='sum_power'``, complex128 of ``sum y / |y|`` for ``'sum_unit'``, and
    float64 ``R + (F, n_out, 3)`` (power, real and imaginary phasor) for
    ``'sum_power_unit'``; ``y / |y|`` is NaN where ``y`` is 0.  The lane engine
    adds them as it goes (the coefficients of all epochs are never held); the
    other plans' rows are computed in full and added by numpy.  The order of
    every sum is set by the shapes alone: the same bits on any thread count.
    ``single_state`` and ``tol``: float32 recursions, as :func:`scalogram`'s.
    """
    if arr.ndim < 2 or axis % arr.ndim == 0:
        raise ValueError(f"kind={kind!r} sums over the first axis of an array of at least two; "
                         f"got shape {arr.shape} with axis={axis}")
    if arr.dtype.kind == "c":
        raise ValueError(f"kind={kind!r} takes real input; got {arr.dtype}")
    moved = np.moveaxis(arr, axis, -1)
    E, rest, n = moved.shape[0], moved.shape[1:-1], moved.shape[-1]
    nrest = int(np.prod(rest, dtype=np.int64))
    F = len(plans)
    n_out = -(-n // decim)
    channels = lanes.SUM_CHANNELS[kind]
    sums = np.zeros((nrest * F, n_out, channels))
    nrows = E * nrest
    if sums.size and nrows:
        rows = np.ascontiguousarray(moved, dtype=np.float64).reshape(nrows, n)
        cval = float(np.real(cval))
        is_bank = np.array([isinstance(plan, SFTPlan) for plan in plans])
        use_lanes = bank_method == "iir1"
        transform = "asft" if any(isinstance(p, SFTPlan) and p.alpha > 0 for p in plans) else "sft"
        state = (np.float32 if _float32_state(single_state, False, tol, bank_method, transform)
                 else np.float64)
        with limit(workers):
            if use_lanes and is_bank.any():
                longest = max(p.length for p in plans if isinstance(p, SFTPlan))
                step = max(1, LANE_BATCH_SAMPLES // (n + 2 * longest + 2 * decim))
                for r0 in range(0, nrows, step):
                    r1 = min(nrows, r0 + step)
                    r, f_of = np.divmod(np.arange((r1 - r0) * F, dtype=np.int64), F)
                    table = lanes.LaneTable(tuple(plans), f_of, r, ((r0 + r) % nrest) * F + f_of,
                                            np.zeros(r.size, np.int64), np.full(r.size, n, np.int64))
                    table = table.take(is_bank[table.plan])
                    lanes.run(rows[r0:r1], table, sums, mode=mode, cval=cval, decim=decim,
                              kind=kind, dtype=state)
            tmp = None
            for i, plan in enumerate(plans):
                if use_lanes and is_bank[i]:
                    continue
                if tmp is None:
                    tmp = np.empty((nrows, n), dtype=np.complex128)
                _apply_real([rows], 0, plan, bank_method, mode, cval, tmp)
                y = tmp[:, ::decim].reshape(E, nrest, n_out)
                with np.errstate(invalid="ignore", divide="ignore"):
                    mag = np.abs(y)
                    if kind != "sum_unit":
                        sums[i::F, :, 0] = (mag * mag).sum(axis=0)
                    if kind != "sum_power":
                        unit = (y / mag).sum(axis=0)
                        c = 0 if kind == "sum_unit" else 1
                        sums[i::F, :, c] = unit.real
                        sums[i::F, :, c + 1] = unit.imag
    if kind == "sum_power":
        return sums.reshape(*rest, F, n_out)
    if kind == "sum_unit":
        return sums.view(np.complex128).reshape(*rest, F, n_out)
    return sums.reshape(*rest, F, n_out, 3)


def _apply_real(rows, part: int, plan, bank_method: str, mode: str, cval: float,
                out: np.ndarray) -> None:
    """Transform each row of the real ``rows[part]`` into complex ``out`` (rows, n)."""
    x2d = rows[part]
    if isinstance(plan, FIRPlan):
        h = plan.kernel[::-1]
        # (C-contiguous float64 rows: fir_axis never declines them)
        re = fir_axis(x2d, 1, np.ascontiguousarray(h.real), mode, cval, None)
        assert re is not None
        out.real = re
        if not np.iscomplexobj(h):      # a real wavelet's kernel
            out.imag = 0.0
            return
        im = fir_axis(x2d, 1, np.ascontiguousarray(h.imag), mode, cval, None)
        assert im is not None
        out.imag = im
        return
    view = out.view(out.real.dtype).reshape(out.shape[0], out.shape[1], 2)
    bank.apply(plan, x2d, view, mode=mode, cval=cval, method=bank_method)
    if not np.iscomplexobj(plan.coef):      # a real wavelet's plan writes the real part alone
        out.imag = 0.0


def _kind_of(y: np.ndarray, kind: str) -> np.ndarray:
    if kind == "complex":
        return y
    if kind == "real":      # (a real wavelet's plans: the imaginary part is zero)
        return y.real
    if kind == "power":
        return y.real**2 + y.imag**2
    if kind == "abs":
        # (not np.abs: numpy 1.24's np.abs of complex gave bits that varied from call to call)
        return np.hypot(y.real, y.imag)
    return spectral.phase(y.real, y.imag)
