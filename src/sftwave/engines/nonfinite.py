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
   residue small, ``sftwave.engines.numba.lanes``), the engine filters that
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

The same first read gives, on the CPU engine, the input's largest magnitude.
Finite input far from one (below about ``2**-511`` or beyond ``2**512`` in
float64, :data:`SAFE_EXPONENTS`) is filtered times a power of two and the
result divided by it: exact (the filters are linear), and no subnormal number
enters the work (each costs up to 50 times an ordinary operation on many CPUs)
nor does a sum of samples near the largest float overflow.

A scalogram's ``out`` may overlap the input: the input is then read from a
copy (:func:`sftwave._checks.apart_from`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from .._checks import apart_from
from .._checks.ndimage import NAN_POLICIES
from ..plans.fit import FIRPlan, SFTPlan, WidePlan
from ..plans.spectral import FFTPlan
from ._boundary import MODE_CODES, source_index

__all__ = ["support", "positive", "filter_confined", "filter_omit", "scalogram_confined",
           "scalogram_omit", "reach_counts", "NAN_POLICIES", "as_is_screen",
           "as_is_scalogram_screen"]


def support(plan: Any, n: int) -> tuple[int, int]:
    """Samples before and after output ``i`` that it reads: ``x[i - left] .. x[i + right]``.

    An SFT plan reads its window (``pad_before``, ``lag``), a FIR plan its
    radius on both sides, the exact wide-kernel limit the whole line (and
    its whole extension: returned as ``2 n + 2`` each way, which covers every
    sample a mode can reach), the FFT's exact wavelet its radius (at most
    that).

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
    if isinstance(plan, FFTPlan):
        # the exact wavelet, below 2.6e-20 of its peak beyond its radius; a radius of
        # 2 n + 2 already reaches every sample of every extension
        r = min(plan.radius, 2 * n + 2)
        return r, r
    raise TypeError(f"plan must be an SFTPlan, FIRPlan, WidePlan or FFTPlan; got "
                    f"{type(plan).__name__}")


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
    out = np.zeros((rows, n), dtype=np.int32)
    if not (cval_flag or flags.any()):
        return out                               # nothing to count (e.g. no infinities)
    code = MODE_CODES[mode]
    # the line itself, and its extension read through the boundary rule at the two ends only
    ext = np.empty((rows, left + n + right), dtype=np.int32)
    ext[:, left:left + n] = flags
    for lo, hi in ((-left, 0), (n, n + right)):
        if hi > lo:
            src = source_index(np.arange(lo, hi, dtype=np.int64), n, code)
            ext[:, lo + left:hi + left] = np.where(src >= 0, flags[:, np.maximum(src, 0)],
                                                   cval_flag)
    csum = np.zeros((rows, ext.shape[1] + 1), dtype=np.int32)
    np.cumsum(ext, axis=1, out=csum[:, 1:])
    width = left + right + 1
    np.subtract(csum[:, width:width + n], csum[:, :n], out=out)
    return out


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


# ----------------------------------------------------------------------------- far from one

#: Per float dtype, the exponents ``(lo, hi)``: finite input whose largest magnitude
#: ``m`` (with ``|cval|`` where ``mode='constant'`` reads it) is not in
#: ``[2**lo, 2**hi)`` is filtered times a power of two that brings ``m`` into
#: ``[1/2, 1)``, and the result divided by it.  About the square root of the
#: dtype's range on both sides: within it, no product or sum of the filters comes
#: near the subnormal numbers (which cost up to 50 times more per operation on many
#: CPUs) nor overflows (a sum of two samples near 1e308, a square in
#: ``gaussian_gradient_magnitude``).
SAFE_EXPONENTS = {np.dtype(np.float64): (-511, 512), np.dtype(np.float32): (-63, 64)}


def _screen(eng: Any, x: Any, cval: Any, constant: bool) -> int | None:
    """None where ``x`` (or ``cval``, read by ``mode='constant'``) is not finite; else the
    exponent ``k`` by which the engine's work is scaled (``x * 2**k``; 0: not scaled).

    The CPU engine reads its input once for both answers
    (:func:`sftwave.engines.numba.filters.magnitude`); the other engines
    (GPUs flush subnormal numbers to zero) are asked ``all_finite`` alone.
    """
    if constant and _cval_class(cval) != (0, 0, 0):
        return None
    bounds = (SAFE_EXPONENTS.get(np.dtype(x.dtype.char.lower()) if x.dtype.kind == "c" else x.dtype)
              if isinstance(x, np.ndarray) else None)
    if getattr(eng, "name", None) != "numba" or bounds is None:
        # other engines, and integers, bool, float16: not scaled
        return 0 if eng.all_finite(x) else None
    from .numba.filters import magnitude

    finite, m = magnitude(x)
    if not finite:
        return None
    if constant:
        c = complex(cval)
        m = max(m, abs(c.real), abs(c.imag))
    if m == 0 or math.ldexp(1.0, bounds[0]) <= m < math.ldexp(1.0, bounds[1]):
        return 0
    return -math.frexp(m)[1]


def as_is_screen(eng: Any, steps, cval: Any, dtype: Any) -> Callable[[Any], bool]:
    """Whether :func:`filter_confined` hands an array of ``dtype`` to ``eng.filter`` as it is,
    for these steps and ``cval``, as ``screen(x)``: every sample (and ``cval``, where a step's
    mode is ``'constant'``) finite, and no scaling by a power of two needed
    (:data:`SAFE_EXPONENTS`).  Its constants are found once (what a repeated small call
    asks first).

    Examples
    --------
    >>> from sftwave import engines
    >>> from sftwave.plans import select_gaussian
    >>> steps = [(0, select_gaussian(4.0, 0), "reflect")]
    >>> screen = as_is_screen(engines.get("numba"), steps, 0.0, np.float64)
    >>> screen(np.array([1.0, 2.0])), screen(np.array([1.0, np.inf])), screen(np.array([1e-200]))
    (True, False, False)
    """
    return _as_is(eng, any(mode == "constant" for _, _, mode in steps), cval, dtype)


def as_is_scalogram_screen(eng: Any, mode: str, cval: Any, dtype: Any) -> Callable[[Any], bool]:
    """Whether :func:`scalogram_confined` hands an array of ``dtype`` to ``eng.scalogram`` as
    it is, in ``mode`` with ``cval``, as ``screen(x)`` (:func:`as_is_screen`'s test).

    Examples
    --------
    >>> from sftwave import engines
    >>> screen = as_is_scalogram_screen(engines.get("numba"), "reflect", 0.0, np.float64)
    >>> screen(np.array([1.0, 2.0])), screen(np.array([np.nan, 2.0]))
    (True, False)
    """
    return _as_is(eng, mode == "constant", cval, dtype)


def _as_is(eng: Any, constant: bool, cval: Any, dtype: Any) -> Callable[[Any], bool]:
    """The screen of :func:`as_is_screen`, where ``constant`` says whether ``cval`` is read."""
    dtype = np.dtype(dtype)
    bounds = SAFE_EXPONENTS.get(np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype)
    if (getattr(eng, "name", None) != "numba" or bounds is None
            or (constant and _cval_class(cval) != (0, 0, 0))):
        return lambda x: _screen(eng, x, cval, constant) == 0
    from .numba.filters import magnitude

    lo, hi = math.ldexp(1.0, bounds[0]), math.ldexp(1.0, bounds[1])
    c = complex(cval) if constant else 0j
    floor = max(abs(c.real), abs(c.imag))        # cval, read by 'constant' (else 0)

    def screen(x: Any) -> bool:
        finite, m = magnitude(x)
        if not finite:
            return False
        m = max(m, floor)
        return m == 0 or lo <= m < hi

    return screen


def _pow2_factors(k: int) -> list[float] | None:
    """Powers of two whose product is ``2**k``, to multiply by in order (None: use ``np.ldexp``).

    A multiplication by a power of two is exact unless its result leaves the
    normal range, and takes a fifth of ``np.ldexp``'s time.  ``2**k`` itself
    where it is a float; else two factors, the smaller first, so that
    scaling down passes through normal numbers and rounds only at the last
    step (a value below ``2**-948`` of the data's scale may round twice).
    """
    if -1022 <= k <= 1023:
        return [2.0 ** k]
    big = 1000 if k > 0 else -1000
    rest = k - big
    if -1022 <= rest <= 1023:
        return [2.0 ** rest, 2.0 ** big]
    return None


def _scale_into(a: np.ndarray, k: int, out: np.ndarray) -> None:
    """``out = a * 2**k``: float64 factors (a float32 result rounds once, at the cast)."""
    factors = _pow2_factors(k)
    if factors is None:
        np.ldexp(a, k, out=out)
        return
    np.multiply(a, np.float64(factors[0]), out=out, casting="same_kind")
    for f in factors[1:]:
        np.multiply(out, np.float64(f), out=out, casting="same_kind")


def _ldexp(a: np.ndarray, k: int) -> np.ndarray:
    """``a * 2**k``, a new array (exact unless it overflows or falls below the normal range)."""
    out = np.empty(a.shape, a.dtype)
    if a.dtype.kind != "c":
        _scale_into(a, k, out)
        return out
    _scale_into(a.real, k, out.real)
    _scale_into(a.imag, k, out.imag)
    return out


def _ldexp_in_place(a: np.ndarray, k: int) -> np.ndarray:
    if k:
        for part in ((a.real, a.imag) if a.dtype.kind == "c" else (a,)):
            _scale_into(part, k, part)
    return a


def _ldexp_scalar(c: Any, k: int) -> Any:
    if isinstance(c, complex):
        return complex(math.ldexp(c.real, k), math.ldexp(c.imag, k))
    return math.ldexp(float(c), k)


def _filter_finite(eng: Any, x: Any, steps, k: int, *, cval, output, bank_method: str) -> Any:
    """``eng.filter`` of finite ``x``, run on ``x * 2**k`` and divided by ``2**k``.

    Exact (the filters are linear, and a power of two scales every product
    and sum of them exactly) unless a result falls below the normal range,
    where it rounds once as the unscaled filter's would have; and fast: no
    subnormal number in the work.
    """
    if not k:
        return eng.filter(x, steps, cval=cval, output=output, bank_method=bank_method)
    if output is not None and getattr(eng, "name", None) == "numba":
        from .._checks import output_array

        output = output_array(output, x)          # checked before any work
    y = eng.filter(_ldexp(x, k), steps, cval=_ldexp_scalar(cval, k), bank_method=bank_method)
    _ldexp_in_place(y, -k)
    if output is None:
        return y
    return eng.filter(y, [], cval=0.0, output=output, bank_method=bank_method)


#: The power of two of each scalogram kind, per power of two of the input.
_KIND_POWER = {"complex": 1, "abs": 1, "power": 2, "phase": 0, "real": 1}


def _scalogram_finite(eng: Any, x: Any, plans, k: int, *, cval, kind: str, **kwargs) -> Any:
    """``eng.scalogram`` of finite ``x``, run on ``x * 2**k`` and rescaled (:func:`_filter_finite`)."""
    if not k:
        return eng.scalogram(x, plans, cval=cval, kind=kind, **kwargs)
    y = eng.scalogram(_ldexp(x, k), plans, cval=_ldexp_scalar(cval, k), kind=kind, **kwargs)
    return _ldexp_in_place(y, -k * _KIND_POWER[kind])


# ----------------------------------------------------------------------------- the lines hit


class _Lines:
    """The lines along ``axis`` of an array that hold a non-finite sample, gathered as rows.

    Only those lines are read, counted and written (a NaN in a large image
    touches a few of its lines); ``sel`` indexes them in the array moved to
    put ``axis`` last (at least 2-D).
    """

    def __init__(self, host: np.ndarray, axis: int, every: bool = False, like: Any = None):
        self.shape, self.axis, self.like = host.shape, axis, like
        moved = _moved(host, axis)
        self.n = moved.shape[-1]
        bad = ~np.isfinite(moved)
        flat = (np.arange(int(np.prod(moved.shape[:-1])), dtype=np.int64) if every
                else np.flatnonzero(bad.any(axis=-1)))
        self.sel = np.unravel_index(flat, moved.shape[:-1])
        self.rows = moved[self.sel]                    # (k, n) copies of those lines
        self.bad = bad[self.sel]

    def __len__(self) -> int:
        return int(self.sel[0].size)

    def classes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Masks of the NaN-like (NaN, complex non-finite), ``+inf`` and ``-inf`` samples."""
        r = self.rows
        if r.dtype.kind == "c":
            none = np.zeros(r.shape, bool)
            return self.bad, none, none
        return np.isnan(r), r == np.inf, r == -np.inf

    def centres(self, every_sample: bool = False) -> np.ndarray:
        """Each line's centre: the median of at most 63 evenly spaced finite samples (of
        all its finite samples where those picks are all non-finite, or ``every_sample``;
        0 for a line with none)."""
        k, n = self.rows.shape
        if k == 0:
            return np.zeros(0, self.rows.dtype)
        m = n if every_sample else min(n, 63)
        picks = (np.arange(m, dtype=np.int64) * n) // m
        sub = self.rows[:, picks]
        good = ~self.bad[:, picks]
        out = np.zeros(k, np.complex128 if sub.dtype.kind == "c" else np.float64)
        for part in (("real", "imag") if sub.dtype.kind == "c" else ("real",)):
            vals = np.where(good, getattr(sub, part), np.nan)
            med = _nanmedian(vals)
            empty = ~good.any(axis=1)
            if empty.any():      # every pick non-finite: the line's finite samples, all of them
                rest = np.where(self.bad[empty], np.nan, getattr(self.rows[empty], part))
                med[empty] = _nanmedian(rest)
            if part == "real":
                out.real = med
            else:
                out.imag = med
        return out if sub.dtype.kind == "c" else out.real

    def scatter(self, a: np.ndarray, rows: np.ndarray) -> None:
        """Write ``rows`` into these lines of ``a`` (an array of the original shape)."""
        _moved(a, self.axis)[self.sel] = rows

    def full(self, rows: np.ndarray, fill) -> np.ndarray:
        """An array of the original shape: ``rows`` on these lines, ``fill`` elsewhere."""
        out = np.full(self.shape[:self.axis] + (rows.shape[-1],) + self.shape[self.axis + 1:],
                      fill, dtype=rows.dtype)
        _moved(out, self.axis)[self.sel] = rows
        return out


def _moved(a: np.ndarray, axis: int) -> np.ndarray:
    """A view of ``a`` with ``axis`` last, at least 2-D."""
    m = np.moveaxis(a, axis, -1)
    return m[None] if m.ndim == 1 else m


def _nanmedian(vals: np.ndarray) -> np.ndarray:
    """Median of each row's non-NaN values (0 for a row with none).

    The all-NaN rows are set to 0 first rather than numpy's warning silenced:
    ``warnings.catch_warnings`` swaps the process's filters, so two threads
    (dask's blocks) inside it at once can leave one of them with the caller's
    filters, where a warning may be an error.
    """
    empty = np.isnan(vals).all(axis=-1)
    if empty.any():
        vals = np.where(empty[..., None], 0.0, vals)
    m = np.nanmedian(vals, axis=-1)
    return np.where(np.isnan(m), 0, m)


def _filled(x: Any, host: np.ndarray, lines: _Lines) -> Any:
    """``x`` (the engine's array) with its non-finite samples replaced by their line's centre.

    On numpy a copy with those lines rewritten; otherwise a ``where`` on the
    engine's own array, so that torch's autograd follows the finite samples.
    """
    c = lines.centres().astype(host.dtype)
    rows = np.where(lines.bad, c[:, None], lines.rows)
    if isinstance(x, np.ndarray) or hasattr(x, "copy_to_host"):
        out = host.copy()
        lines.scatter(out, rows)
        return out if isinstance(x, np.ndarray) else _like(out, x)
    from array_api_compat import array_namespace

    xp = array_namespace(x)
    mask = lines.full(lines.bad, False)
    fill = lines.full(rows, 0).astype(host.dtype)
    return xp.where(_like(mask, x), _like(fill, x), x)


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


def _nan_of(kind: str) -> Any:
    return complex(np.nan, np.nan) if kind == "c" else np.nan


def _set(y: Any, lines: _Lines, hit: np.ndarray, vals: np.ndarray | None,
         last: int | None = None) -> Any:
    """``y`` with NaN (or ``vals``) at ``hit`` of the given lines: in place for numpy
    (only those lines are read and written), ``where`` otherwise.  ``hit`` is
    (lines, ...) in the lines' order; ``last``: ``y`` has the lines' leading
    axes first and ``hit``'s trailing axes after them (a scalogram), else
    ``y`` has the input's shape."""
    if isinstance(y, np.ndarray) or hasattr(y, "copy_to_host"):
        host = y if isinstance(y, np.ndarray) else y.copy_to_host()
        if last:
            flat = host.reshape((-1,) + host.shape[-last:])   # a view: the output is C-ordered
            rows = flat[_flat(lines)]
            rows[hit] = _nan_of(host.dtype.kind)
            flat[_flat(lines)] = rows
        else:
            rows = _moved(host, lines.axis)[lines.sel]
            rows[hit] = _nan_of(host.dtype.kind) if vals is None else vals[hit]
            lines.scatter(host, rows)
        return host if isinstance(y, np.ndarray) else _like(host, y)
    from array_api_compat import array_namespace

    xp = array_namespace(y)
    kind = "c" if xp.isdtype(y.dtype, "complex floating") else "f"
    if last:
        lead = [d for i, d in enumerate(lines.shape) if i != lines.axis]
        mask = np.zeros((int(np.prod(lead)),) + hit.shape[1:], bool)
        mask[_flat(lines)] = hit
        mask = mask.reshape(tuple(lead) + hit.shape[1:])
        fill = np.asarray(_nan_of(kind))
    else:
        mask = lines.full(hit, False)
        fill = np.asarray(_nan_of(kind)) if vals is None else lines.full(vals, np.nan)
    return xp.where(_like(mask, y), xp.astype(_like(fill, y), y.dtype), y)


def _flat(lines: _Lines) -> np.ndarray:
    """The lines' positions among all lines (C order of the other axes)."""
    lead = [d for i, d in enumerate(lines.shape) if i != lines.axis] or [1]
    return np.ravel_multi_index(lines.sel, lead)


def _counts(lines: _Lines, plan: Any, mode: str, cflags, decim: int = 1):
    """The three class counts over each output's support, on the gathered lines."""
    left, right = support(plan, lines.n)
    return [reach_counts(c, left, right, mode, cf)[:, ::decim]
            for c, cf in zip(lines.classes(), cflags)]


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
    k = _screen(eng, x, cval, constant) if steps else 0
    if k is not None:
        return _filter_finite(eng, x, steps, k, cval=cval, output=output, bank_method=bank_method)
    target = None
    if getattr(eng, "name", None) == "numba":
        from .._checks import output_array

        target = output_array(output, x)          # checked before any work
    work = x
    for axis, plan, mode in steps:
        work, host = _host_float(eng, work)
        cflags = _cval_class(cval) if mode == "constant" else (0, 0, 0)
        lines = _Lines(host, axis, every=any(cflags))
        filled = _filled(work, host, lines) if lines.bad.any() else work
        y = eng.filter(filled, [(axis, plan, mode)], cval=_finite_cval(cval),
                       bank_method=bank_method)
        hit, vals = _values(_counts(lines, plan, mode, cflags), positive(plan))
        work = _set(y, lines, hit, vals)
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
    x = apart_from(x, out)           # the rows are written while the input is read
    k = _screen(eng, x, cval, mode == "constant")
    if k is not None:
        return _scalogram_finite(eng, x, plans, k, axis=axis, mode=mode, cval=cval, kind=kind,
                                 decim=decim, out=out, **kwargs)
    work, host = _host_float(eng, x)
    cflag = max(_cval_class(cval)) if mode == "constant" else 0
    lines = _Lines(host, axis, every=bool(cflag))
    filled = _filled(work, host, lines) if lines.bad.any() else work
    y = eng.scalogram(filled, plans, axis=axis, mode=mode, cval=_finite_cval(cval),
                      kind=kind, decim=decim, out=out, **kwargs)
    flags = lines.bad.astype(np.int8)
    hit = np.stack([reach_counts(flags, *support(plan, lines.n), mode, cflag)[:, ::decim] > 0
                    for plan in plans], axis=1)                     # (lines, plans, outputs)
    return _set(y, lines, hit, None, last=2)


# ----------------------------------------------------------------------------- nan_policy='omit'


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
    k = _screen(eng, x, cval, constant) if steps else 0
    if k is not None:
        return _filter_finite(eng, x, steps, k, cval=cval, output=output, bank_method=bank_method)
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
    the line minus its centre ``c`` (the median of its finite samples; 0 for a
    line without a non-finite sample, whose row is then the ordinary one) with
    the non-finite samples set to zero (the padding of ``mode='constant'``
    is data where ``cval`` is finite, missing where it is NaN), divided by
    the fraction of the wavelet's Gaussian envelope ``g_f`` (``envelopes[f]``,
    an order-0 Gaussian plan of the wavelet's sigma) that lies on data.  An
    oscillation near the wavelet's frequency keeps its amplitude across a
    gap (its coefficient is the envelope's weighted mean of it); NaN where
    the fraction is below ``min_weight``.  Finite input gives the ordinary
    scalogram exactly.
    """
    x = apart_from(x, out)           # the rows are written while the input is read
    k = _screen(eng, x, cval, mode == "constant")
    if k is not None:
        return _scalogram_finite(eng, x, plans, k, axis=axis, mode=mode, cval=cval, kind=kind,
                                 decim=decim, out=out, dtype=dtype, **kwargs)
    work, host = _host_float(eng, x)
    finite_cval = _cval_class(cval) == (0, 0, 0)
    # a NaN cval is missing padding: every line then has data missing near its ends
    like = None if isinstance(x, np.ndarray) else x
    lines = _Lines(host, axis, every=mode == "constant" and not finite_cval, like=like)
    cdt = None if dtype is None else (np.complex64 if np.dtype(dtype) in (np.float32, np.complex64)
                                      else np.complex128)
    args = dict(plans=plans, mode=mode, cval=cval, decim=decim, kind=kind, cdt=cdt,
                finite_cval=finite_cval, envelopes=envelopes, min_weight=min_weight,
                kwargs=kwargs)
    lead_shape = tuple(d for i, d in enumerate(host.shape) if i != axis)
    nlines = int(np.prod(lead_shape))
    nout = -(-host.shape[axis] // decim)
    if like is not None:
        from array_api_compat import array_namespace

        every = lines if len(lines) == nlines else _Lines(host, axis, every=True, like=like)
        res = _omit_rows(eng, every, **args)       # (lines, plans, outputs), the input's library
        return array_namespace(res).reshape(res, lead_shape + (len(plans), nout))
    if 2 * len(lines) <= nlines:
        # few lines with gaps: the others are the ordinary scalogram (the gappy lines are
        # computed there too, filled, and then replaced)
        y = eng.scalogram(_filled(work, host, lines), plans, axis=axis, mode=mode,
                          cval=_finite_cval(cval), kind=kind, decim=decim, out=out, dtype=dtype,
                          **kwargs)
        if len(lines):
            y.reshape(-1, len(plans), nout)[_flat(lines)] = _omit_rows(eng, lines, **args)
        return y
    every = lines if len(lines) == nlines else _Lines(host, axis, every=True)
    res = _omit_rows(eng, every, **args).reshape(lead_shape + (len(plans), nout))
    return res if out is None else _copy_into(out, res)


def _copy_into(out: np.ndarray, res: np.ndarray) -> np.ndarray:
    out[...] = res
    return out


def _omit_rows(eng, lines: _Lines, *, plans, mode, cval, decim, kind, cdt, finite_cval,
               envelopes, min_weight, kwargs) -> Any:
    """The omit scalogram of the gathered lines: (lines, plans, outputs) in ``kind``.

    As an array of the input's library (numpy, or the engine's array type
    where the input was one: the lines then go through the host).
    """
    c = lines.centres(every_sample=True)
    sub = np.where(lines.bad, 0, lines.rows - c[:, None]).astype(lines.rows.dtype)
    y = eng.scalogram(sub if lines.like is None else _like(sub, lines.like), plans, axis=1,
                      mode=mode, cval=0.0, kind="complex", decim=decim, out=None, dtype=cdt,
                      **kwargs)
    if mode == "constant" and finite_cval:
        # the padding cval - c of each line, by linearity: (cval - c) times the transform
        # of a line of zeros padded with ones
        zeros = np.zeros((1, lines.n), lines.rows.real.dtype)
        ones = eng.scalogram(zeros if lines.like is None else _like(zeros, lines.like), plans,
                             axis=1, mode="constant", cval=1.0, kind="complex", decim=decim,
                             out=None, dtype=cdt, **kwargs)
        y = y + _like((np.asarray(cval) - c)[:, None, None], y) * ones[0]
    weights = (~lines.bad).astype(np.float64)
    pad = 1.0 if finite_cval else 0.0
    frac = np.stack([eng_filter_host(weights, env, mode, pad)[:, ::decim] for env in envelopes],
                    axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(frac >= min_weight, 1.0 / frac, np.nan)
    return _finish(y, inv, kind, None)


def eng_filter_host(rows: np.ndarray, plan: Any, mode: str, cval: float) -> np.ndarray:
    """The envelope weights on the host: the CPU engine's filter along the last axis."""
    from . import get

    y = get("numba").filter(np.ascontiguousarray(rows), [(rows.ndim - 1, plan, mode)], cval=cval)
    return cast(np.ndarray, y)        # the CPU engine: NumPy out


def _finish(y: Any, inv: np.ndarray, kind: str, out: Any) -> Any:
    """``y * inv`` (complex) in its output ``kind``, into ``out`` where given."""
    if isinstance(y, np.ndarray):
        y = y * inv.astype(y.real.dtype)
        res = {"complex": lambda: y, "real": lambda: y.real, "power": lambda: y.real ** 2 + y.imag ** 2,
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
