"""Non-finite input (NaN, inf) confined to the kernel's support, on every engine.

A recursion carries a NaN (or an infinity) from the sample where it enters to
every later output of its line; a convolution confines it to the outputs whose
kernel support covers that sample.  sftwave gives the convolution's answer:

1. Every public function asks the engine first whether its input is all
   finite (one read at memory speed); almost always it is, and nothing else
   happens.
2. Otherwise, per step (an axis and its plan, or one scale of a scalogram),
   the non-finite samples are replaced by the line's median of its finite
   samples (a value that moves no output away from them; any finite value
   would give the same outputs there, the median keeps the recursions'
   residue small, :mod:`sftwave.engines.numba.lanes`), the engine filters that
   finite array as usual, and the outputs whose support holds a non-finite
   sample (the boundary extension included: a reflected NaN counts where it
   is read) are set:

   * NaN where the support holds a NaN, or both infinities, or where the
     kernel is not positive (derivatives, wavelets: ``inf - inf`` or
     ``0 * inf`` somewhere in the sum, as in the direct convolution);
   * ``+inf`` (``-inf``) for a positive kernel (the Gaussian itself) whose
     support holds only ``+inf`` (``-inf``) among its non-finite samples.

   Every other output keeps its normal accuracy.  The support is the plan's
   window exactly (an SFT plan's ``L`` samples, a FIR plan's taps, the whole
   line for the exact wide-kernel limit): the count of non-finite outputs is
   the direct convolution's with that support.

A complex sample is non-finite where either part is, and then makes its
outputs ``nan + nanj`` (both parts: scipy filters the parts apart and would
keep the other one).  A non-finite ``cval`` with ``mode='constant'`` reaches
the outputs within the support of either end.

The masks are made in numpy on the host; the arrays stay the engine's
(torch tensors on their device, CuPy arrays).
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from ..plans.fit import FIRPlan, SFTPlan, WidePlan
from ._boundary import MODE_CODES, source_index

__all__ = ["support", "positive", "filter_confined", "filter_omit", "scalogram_confined",
           "scalogram_omit", "reach_counts", "NAN_POLICIES"]


def support(plan: Any, n: int) -> tuple[int, int]:
    """Samples before and after output ``i`` that it reads: ``x[i - left] .. x[i + right]``.

    An SFT plan reads its window (``pad_before``, ``lag``), a FIR plan its
    radius on both sides, the exact wide-kernel limit the whole line (and
    its whole extension: returned as ``2 n + 2`` each way, which covers every
    sample a mode can reach).

    Examples
    --------
    >>> from sftwave.plans import FIRPlan, WidePlan
    >>> support(FIRPlan(np.ones(5)), 100)
    (2, 2)
    >>> support(WidePlan(1e6, 0), 10)
    (22, 22)
    """
    if isinstance(plan, SFTPlan):
        return plan.pad_before, plan.lag
    if isinstance(plan, FIRPlan):
        return plan.radius, plan.radius
    if isinstance(plan, WidePlan):
        return 2 * n + 2, 2 * n + 2
    raise TypeError(f"plan must be an SFTPlan, FIRPlan or WidePlan; got {type(plan).__name__}")


def positive(plan: Any) -> bool:
    """Whether the plan's kernel is the (positive) Gaussian itself: order 0.

    Its sum over infinities of one sign is that infinity; any other kernel
    gives NaN there.
    """
    if isinstance(plan, SFTPlan):
        return plan.info.get("kind") == "gaussian" and plan.info.get("order") == 0
    if isinstance(plan, FIRPlan):
        return not np.iscomplexobj(plan.kernel) and bool(np.all(plan.kernel >= 0))
    if isinstance(plan, WidePlan):
        return plan.order == 0
    return False


def reach_counts(flags: np.ndarray, left: int, right: int, mode: str,
                 cval_flag: int = 0) -> np.ndarray:
    """For each position of each row of ``flags`` (rows x n, small integers), the sum over its support.

    ``counts[r, i] = sum of flags[r, source_index(j)]`` for ``j = i - left ..
    i + right``, the line extended by ``mode`` as the filters extend it
    (``cval_flag`` where ``mode='constant'`` reads ``cval``).

    Examples
    --------
    >>> f = np.zeros((1, 8), np.int64); f[0, 0] = 1
    >>> reach_counts(f, 2, 1, "reflect")[0].tolist()   # reflect reads x[0] at -1 too
    [2, 2, 1, 0, 0, 0, 0, 0]
    """
    rows, n = flags.shape
    cap = 2 * n + 2
    left, right = min(left, cap), min(right, cap)
    src = source_index(np.arange(-left, n + right, dtype=np.int64), n, MODE_CODES[mode])
    ext = np.where(src >= 0, flags[:, np.maximum(src, 0)], cval_flag).astype(np.int32)
    csum = np.zeros((rows, ext.shape[1] + 1), dtype=np.int32)
    np.cumsum(ext, axis=1, out=csum[:, 1:])
    width = left + right + 1
    return csum[:, width:width + n] - csum[:, :n]


# ----------------------------------------------------------------------------- host and device


def _to_numpy(a: Any) -> np.ndarray:
    """``a`` on the host as numpy (a view where it already is one)."""
    if isinstance(a, np.ndarray):
        return a
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(a, torch.Tensor):
        return a.detach().cpu().numpy()
    if hasattr(a, "copy_to_host"):          # numba's device arrays
        return a.copy_to_host()
    if hasattr(a, "get") and type(a).__module__.startswith("cupy"):
        return a.get()
    return np.asarray(a)


def _like(host: np.ndarray, like: Any) -> Any:
    """``host`` as an array of ``like``'s library on its device."""
    if isinstance(like, np.ndarray):
        return host
    if hasattr(like, "copy_to_host"):
        from numba import cuda

        return cuda.to_device(host)
    from array_api_compat import array_namespace, device

    return array_namespace(like).asarray(host, device=device(like))


def _classes(host: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Masks of the NaN-like (NaN, complex non-finite), ``+inf`` and ``-inf`` samples."""
    if host.dtype.kind == "c":
        bad = ~np.isfinite(host)
        none = np.zeros(host.shape, bool)
        return bad, none, none
    return np.isnan(host), host == np.inf, host == -np.inf


def _cval_class(cval: Any) -> tuple[int, int, int]:
    c = complex(cval)
    if not (math.isfinite(c.real) and math.isfinite(c.imag)):
        if c.imag != 0 or math.isnan(c.real):
            return 1, 0, 0
        return 0, int(c.real > 0), int(c.real < 0)
    return 0, 0, 0


def _finite_cval(cval: Any) -> Any:
    c = complex(cval)
    if math.isfinite(c.real) and math.isfinite(c.imag):
        return cval
    return 0.0


def _needs_care(eng: Any, x: Any, cval: Any, constant: bool) -> bool:
    return not eng.all_finite(x) or (constant and _cval_class(cval) != (0, 0, 0))


def _medians(host: np.ndarray, bad: np.ndarray, axis: int) -> np.ndarray:
    """Each line's median of its finite samples (0 for a line with none), shaped to broadcast along ``axis``."""
    moved = np.moveaxis(host, axis, -1)
    bad_moved = np.moveaxis(bad, axis, -1)
    if host.dtype.kind == "c":
        med = np.zeros(moved.shape[:-1], np.complex128)
        med.real = _nanmedian(np.where(bad_moved, np.nan, moved.real))
        med.imag = _nanmedian(np.where(bad_moved, np.nan, moved.imag))
    else:
        med = _nanmedian(np.where(bad_moved, np.nan, moved))
    return np.expand_dims(med, axis)


def _filled(x: Any, host: np.ndarray, bad: np.ndarray, axis: int) -> Any:
    """``x`` (the engine's array) with its non-finite samples replaced by their line's median.

    A ``where`` on the engine's own array, so that torch's autograd follows
    the finite samples.
    """
    med = _medians(host, bad, axis)
    if isinstance(x, np.ndarray):
        return np.where(bad, med.astype(x.dtype), x)
    if hasattr(x, "copy_to_host"):
        return _like(np.where(bad, med.astype(host.dtype), host), x)
    from array_api_compat import array_namespace

    xp = array_namespace(x)
    fill = np.broadcast_to(med, host.shape).astype(host.dtype)
    return xp.where(_like(bad, x), _like(fill, x), x)


def _nanmedian(vals: np.ndarray) -> np.ndarray:
    """Median of each line's finite values (0 for a line with none)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # all-NaN lines
        m = np.nanmedian(vals, axis=-1)
    return np.where(np.isnan(m), 0, m)


def _values(counts, pos: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Where outputs are non-finite, and their values: None where all are NaN, else an
    array holding NaN or the signed infinity of a positive kernel (``pos``)."""
    nan_c, pinf_c, ninf_c = counts
    hit = (nan_c > 0) | (pinf_c > 0) | (ninf_c > 0)
    if not pos:
        return hit, None
    only_p = (nan_c == 0) & (ninf_c == 0) & (pinf_c > 0)
    only_n = (nan_c == 0) & (pinf_c == 0) & (ninf_c > 0)
    if not (only_p.any() or only_n.any()):
        return hit, None
    vals = np.full(hit.shape, np.nan)
    vals[only_p] = np.inf
    vals[only_n] = -np.inf
    return hit, vals


def _lines(a: np.ndarray, axis: int) -> np.ndarray:
    n = a.shape[axis]
    return np.moveaxis(a, axis, -1).reshape(-1, n)


def _unlines(rows: np.ndarray, shape: tuple, axis: int) -> np.ndarray:
    moved = list(shape)
    moved.append(moved.pop(axis))
    return np.moveaxis(rows.reshape(moved[:-1] + [rows.shape[-1]]), -1, axis)


def _affected(lines: list[np.ndarray], any_cval: bool) -> np.ndarray:
    """The lines holding a non-finite sample (all where a non-finite ``cval`` is read)."""
    if any_cval:
        return np.arange(lines[0].shape[0])
    hit = lines[0].any(axis=1)
    for more in lines[1:]:
        hit |= more.any(axis=1)
    return np.flatnonzero(hit)


def _step_marks(classes, axis: int, plan: Any, mode: str, cval: Any):
    """For one step: which outputs are non-finite (the input's shape) and their values
    (None: all NaN).  Counted on the lines that hold a non-finite sample only."""
    shape = classes[0].shape
    n = shape[axis]
    left, right = support(plan, n)
    cflags = _cval_class(cval) if mode == "constant" else (0, 0, 0)
    lines = [_lines(c, axis) for c in classes]
    idx = _affected(lines, any(cflags))
    counts = [reach_counts(ln[idx], left, right, mode, cf) for ln, cf in zip(lines, cflags)]
    hit_rows, val_rows = _values(counts, positive(plan))
    hit = np.zeros(lines[0].shape, bool)
    hit[idx] = hit_rows
    vals = None
    if val_rows is not None:
        vals = np.full(lines[0].shape, np.nan)
        vals[idx] = val_rows
        vals = _unlines(vals, shape, axis)
    return _unlines(hit, shape, axis), vals


def _nan_of(kind: str) -> Any:
    return complex(np.nan, np.nan) if kind == "c" else np.nan


def _set(y: Any, hit: np.ndarray, vals: np.ndarray | None) -> Any:
    """``y`` with NaN (or ``vals``) where ``hit``: in place for numpy, ``where`` otherwise."""
    if isinstance(y, np.ndarray) or hasattr(y, "copy_to_host"):
        host = y if isinstance(y, np.ndarray) else y.copy_to_host()
        host[hit] = _nan_of(host.dtype.kind) if vals is None else vals[hit]
        return host if isinstance(y, np.ndarray) else _like(host, y)
    from array_api_compat import array_namespace

    xp = array_namespace(y)
    kind = "c" if xp.isdtype(y.dtype, "complex floating") else "f"
    fill = np.asarray(_nan_of(kind)) if vals is None else vals
    return xp.where(_like(hit, y), xp.astype(_like(fill, y), y.dtype), y)


# ----------------------------------------------------------------------------- the operations


def _host_float(eng: Any, work: Any) -> tuple[Any, np.ndarray]:
    """``work`` as a floating array of the engine (integers and float16 widened as the engine
    computes them) and its host copy."""
    host = _to_numpy(work)
    if host.dtype.kind in "iub" or host.dtype == np.float16:
        wide = np.float32 if host.dtype == np.float16 else np.float64
        host = host.astype(wide)
        if isinstance(work, np.ndarray):
            work = host
        elif not hasattr(work, "copy_to_host"):
            from array_api_compat import array_namespace

            xp = array_namespace(work)
            work = xp.astype(work, xp.float32 if wide == np.float32 else xp.float64)
        else:
            work = _like(host, work)
    return work, host


def filter_confined(eng: Any, x: Any, steps, *, cval, output=None, bank_method: str = "auto") -> Any:
    """``eng.filter`` with the non-finite samples of ``x`` (and ``cval``) confined to their support.

    Finite input (and a finite ``cval`` where ``mode='constant'`` is read)
    goes straight to ``eng.filter``; otherwise the steps run one at a time as
    the module's docstring says, in floating point, and the result is cast to
    ``output`` once at the end (on the engines that take ``output``; an
    integer or bool output cannot hold a NaN: ``ValueError``).
    """
    constant = any(mode == "constant" for _, _, mode in steps)
    if not steps or not _needs_care(eng, x, cval, constant):
        return eng.filter(x, steps, cval=cval, output=output, bank_method=bank_method)
    takes_output = getattr(eng, "name", None) == "numba"
    target = None
    if takes_output:
        from .._checks import output_array

        target = output_array(output, x)          # checked before any work
    work = x
    for axis, plan, mode in steps:
        work, host = _host_float(eng, work)
        classes = _classes(host)
        bad = classes[0] | classes[1] | classes[2]
        filled = _filled(work, host, bad, axis) if bad.any() else work
        y = eng.filter(filled, [(axis, plan, mode)], cval=_finite_cval(cval),
                       bank_method=bank_method)
        work = _set(y, *_step_marks(classes, axis, plan, mode, cval))
    if target is None:
        return work
    if target.dtype.kind in "iub" and np.isnan(work).any():
        raise ValueError(f"output dtype {target.dtype} cannot hold the NaN that non-finite input "
                         f"samples (or cval) make; pass a floating output")
    return eng.filter(work, [], cval=0.0, output=target, bank_method=bank_method)


def scalogram_confined(eng: Any, x: Any, plans, *, axis: int, mode: str, cval, kind: str,
                       decim: int, out=None, **kwargs) -> Any:
    """``eng.scalogram`` with the non-finite samples of ``x`` (and ``cval``) confined to each scale's support.

    The output is NaN (``nan + nanj`` for ``kind='complex'``) where the
    wavelet's support holds a non-finite sample: a wavelet is never a
    positive kernel.
    """
    if not _needs_care(eng, x, cval, mode == "constant"):
        return eng.scalogram(x, plans, axis=axis, mode=mode, cval=cval, kind=kind, decim=decim,
                             out=out, **kwargs)
    work, host = _host_float(eng, x)
    classes = _classes(host)
    bad = classes[0] | classes[1] | classes[2]
    filled = _filled(work, host, bad, axis) if bad.any() else work
    y = eng.scalogram(filled, plans, axis=axis, mode=mode, cval=_finite_cval(cval),
                      kind=kind, decim=decim, out=out, **kwargs)
    cflag = max(_cval_class(cval)) if mode == "constant" else 0
    lines = _lines(bad, axis)
    idx = _affected([lines], bool(cflag))
    n = host.shape[axis]
    nout = -(-n // decim)
    hit = np.zeros((lines.shape[0], len(plans), nout), bool)
    for p, plan in enumerate(plans):
        hit[idx, p] = reach_counts(lines[idx], *support(plan, n), mode, cflag)[:, ::decim] > 0
    lead = [d for i, d in enumerate(host.shape) if i != axis]
    return _set(y, hit.reshape(lead + [len(plans), nout]), None)


# ----------------------------------------------------------------------------- nan_policy='omit'

#: ``nan_policy`` values of the public functions.
NAN_POLICIES = ("propagate", "omit")


def filter_omit(eng: Any, x: Any, steps, *, cval, output=None, bank_method: str = "auto",
                min_weight: float = 0.5) -> Any:
    """The smoothing of ``x`` without its non-finite samples: normalised convolution.

    ``y = G(m x) / G(m)``, ``m`` the indicator of the finite samples (the
    padding ``cval`` counts as data where it is finite, and as missing where
    it is NaN: ``mode='constant', cval=nan`` normalises at the borders), ``G``
    the separable filter of ``steps`` (every plan an order-0 Gaussian).
    Where ``G(m) < min_weight`` (less than that fraction of the kernel's
    weight lies on data) the output is NaN.  Finite input gives exactly the
    ordinary filter's result.
    """
    for _, plan, _ in steps:
        if not positive(plan):
            raise ValueError("nan_policy='omit' is defined for the smoothing (order 0) only: a "
                             "derivative of a gappy signal has no one meaning (fill the gaps "
                             "yourself, or use nan_policy='propagate')")
    constant = any(mode == "constant" for _, _, mode in steps)
    if not steps or not _needs_care(eng, x, cval, constant):
        return eng.filter(x, steps, cval=cval, output=output, bank_method=bank_method)
    takes_output = getattr(eng, "name", None) == "numba"
    target = None
    if takes_output:
        from .._checks import output_array

        target = output_array(output, x)
    work, host = _host_float(eng, x)
    good = np.isfinite(host)
    finite_cval = _cval_class(cval) == (0, 0, 0)
    zeros = np.zeros((), host.dtype)
    if isinstance(work, np.ndarray):
        num_in = np.where(good, work, zeros)
        den_in = good.astype(host.real.dtype)
    else:
        from array_api_compat import array_namespace

        xp = array_namespace(work)
        num_in = xp.where(_like(good, work), work, xp.zeros_like(work))
        den_in = _like(good.astype(host.real.dtype), work)
    num = eng.filter(num_in, steps, cval=cval if finite_cval else 0.0, bank_method=bank_method)
    den = eng.filter(den_in, steps, cval=1.0 if finite_cval else 0.0, bank_method=bank_method)
    if isinstance(num, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            y = num / den
        y[den < min_weight] = np.nan
    else:
        from array_api_compat import array_namespace

        xp = array_namespace(num)
        y = xp.where(den < min_weight, xp.asarray(float("nan"), dtype=den.dtype), num / den)
    if target is None:
        return y
    if target.dtype.kind in "iub" and np.isnan(y).any():
        raise ValueError(f"output dtype {target.dtype} cannot hold the NaN where less than "
                         f"min_weight={min_weight} of the kernel lies on data; pass a floating "
                         f"output or a smaller min_weight")
    return eng.filter(y, [], cval=0.0, output=target, bank_method=bank_method)


def scalogram_omit(eng: Any, x: Any, plans, envelopes, *, axis: int, mode: str, cval, kind: str,
                   decim: int, min_weight: float = 0.5, out=None, dtype=None, **kwargs) -> Any:
    """The scalogram of the finite samples alone: each row rescaled by its envelope's weight on data.

    Row ``f`` is ``W_f = (psi_f * (m (x - c))) / (g_f * m)``: the transform of
    the line minus its centre ``c`` (the median of its finite samples) with
    the non-finite samples set to zero (the padding of ``mode='constant'``
    is data where ``cval`` is finite, missing where it is NaN), divided by
    the fraction of the wavelet's Gaussian envelope ``g_f`` (``envelopes[f]``,
    an order-0 Gaussian plan of the wavelet's sigma) that lies on data.  An
    oscillation near the wavelet's frequency keeps its amplitude across a
    gap (its coefficient is the envelope's weighted mean of it); NaN where
    the fraction is below ``min_weight``.  Finite input gives the ordinary
    scalogram exactly.
    """
    if not _needs_care(eng, x, cval, mode == "constant"):
        return eng.scalogram(x, plans, axis=axis, mode=mode, cval=cval, kind=kind, decim=decim,
                             out=out, dtype=dtype, **kwargs)
    work, host = _host_float(eng, x)
    good = np.isfinite(host)
    finite_cval = _cval_class(cval) == (0, 0, 0)
    med = _medians(host, ~good, axis)
    centred = np.where(good, host - med, 0)
    cdt = None if dtype is None else (np.complex64 if np.dtype(dtype) in (np.float32, np.complex64)
                                      else np.complex128)
    y = eng.scalogram(_like(centred.astype(host.dtype), x), plans, axis=axis, mode=mode, cval=0.0,
                      kind="complex", decim=decim, out=None, dtype=cdt, **kwargs)
    lead = np.moveaxis(med, axis, -1)[..., 0]             # each line's centre
    if mode == "constant" and finite_cval:
        # the padding cval - c of each line, by linearity: (cval - c) times the transform
        # of a line of zeros padded with ones
        n = host.shape[axis]
        ones = eng.scalogram(_like(np.zeros((1, n), host.real.dtype), x), plans, axis=1,
                             mode="constant", cval=1.0, kind="complex", decim=decim, out=None,
                             dtype=cdt, **kwargs)
        y = y + _like((np.asarray(cval) - lead)[..., None, None], y) * ones[0]
    weights = np.moveaxis(good.astype(np.float64), axis, -1)
    pad = 1.0 if finite_cval else 0.0
    frac = np.stack([eng_filter_host(weights, env, mode, pad)[..., ::decim] for env in envelopes],
                    axis=-2)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(frac >= min_weight, 1.0 / frac, np.nan)
    return _finish(y, inv, kind, out)


def eng_filter_host(rows: np.ndarray, plan: Any, mode: str, cval: float) -> np.ndarray:
    """The envelope weights on the host: the CPU engine's filter along the last axis."""
    from . import get

    return get("numba").filter(np.ascontiguousarray(rows), [(rows.ndim - 1, plan, mode)],
                               cval=cval)


def _finish(y: Any, inv: np.ndarray, kind: str, out: Any) -> Any:
    """``y * inv`` (complex) in its output ``kind``, into ``out`` where given."""
    if isinstance(y, np.ndarray):
        y = y * inv.astype(y.real.dtype)
        res = {"complex": lambda: y, "power": lambda: y.real ** 2 + y.imag ** 2,
               "abs": lambda: np.abs(y), "phase": lambda: np.angle(y)}[kind]()
        if kind == "phase":
            res[np.isnan(inv)] = np.nan
        if out is not None:
            out[...] = res
            return out
        return res
    from array_api_compat import array_namespace

    xp = array_namespace(y)
    y = y * xp.astype(_like(inv, y), xp.real(y).dtype)
    re, im = xp.real(y), xp.imag(y)
    if kind == "complex":
        return y
    if kind == "power":
        return re * re + im * im
    if kind == "abs":
        return xp.abs(y)
    return xp.where(_like(np.isnan(inv), re), xp.real(y), xp.atan2(im, re))
