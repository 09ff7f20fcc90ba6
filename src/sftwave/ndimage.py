"""Drop-in replacements for ``scipy.ndimage.gaussian_filter1d`` and ``gaussian_filter``.

Same signatures, boundary modes, output and dtype rules as scipy; the work is
done by the SFT/ASFT bank at a cost per sample that does not depend on sigma.
Keyword-only extras choose the bank method, the transform and the accuracy.

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
  by FFT at a cost bounded by the signal (:mod:`sftwave._wide`).
* :func:`gaussian_filter` keeps its intermediate results in floating point and
  casts once at the end; scipy casts after every axis, so integer outputs can
  differ from scipy's by one unit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.ndimage as _ndi

from . import _fir, _numba, bank, engines
from ._checks import (
    MODE_CODES,
    TRANSFORMS,
    check_axes,
    check_axis,
    check_choice,
    check_cval,
    check_input_array,
    check_mode,
    check_order,
    check_radius,
    check_sigma,
    check_tol,
    check_truncate,
    check_writeable,
    per_axis,
)
from ._pool import parallel_for
from ._wide import WIDE_FACTOR, gaussian_wide
from .design import (
    TOL_FLOOR,
    fir_error,
    fir_kernel,
    gaussian_plan,
    scipy_gaussian_kernel,
    scipy_kernel_error,
)

__all__ = ["gaussian_filter1d", "gaussian_filter", "choose_path"]

#: Accepted ``method`` names: the bank methods, ``'direct'`` and ``'auto'``.
FILTER_METHODS = ("auto", "direct", *bank.METHODS)

#: Without ``tol``, the SFT aims at this fraction of scipy's own kernel error.
#: Half would make white noise come out at least as accurate as scipy's; a
#: quarter leaves a margin for inputs concentrated at one frequency, where the
#: two kernels' errors are distributed differently (tests/test_ndimage.py).
DEFAULT_TOL_FACTOR = 0.25

#: A signal shorter than the kernel's window has no interior: every output
#: depends on the extension, and the signal sees mostly the middle of the
#: kernel, where the fit's pointwise error, not its RMS, decides.  The target
#: (``tol`` or the default) is this much tighter there (measured on 270 short-signal
#: cases, all modes and orders, sigma 500 and 3000: a factor 16 leaves every
#: case at most 0.3 of scipy's error, a factor 4 does not).  The cost of such a
#: call is set by the window, so the extra orders cost little; and since such a
#: signal has no interior, no output of a longer signal is computed differently.
SHORT_SIGNAL_TIGHTENING = 16.0

#: Output dtypes scipy.ndimage.correlate1d can write.
_SCIPY_OUTPUT_TYPES = {np.dtype(t) for t in (
    np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
    np.float32, np.float64, np.complex64, np.complex128)}

#: The bank costs, per sample, about its number of frequencies plus one (the
#: fixed work: filling the line, the loop, writing the output) "orders"; one
#: order on one thread costs about as much as this many taps of scipy's
#: single-threaded direct FIR (measured: 1.36 ns per sample and order against
#: 0.22 ns per sample and tap at 7 to 8 orders; break-even 5.6 taps per order
#: with the bank on one thread, 3.1 on two: the crossover section of
#: docs/benchmarks.md).  The bank runs on all of sftwave's threads, so the direct FIR
#: is chosen when its taps are at most this many per order, divided by the
#: thread count.
DIRECT_TAPS_PER_ORDER = 5.5


_SHARED_DOC = """
    input : array_like
        The input array: integer, float or complex (real and imaginary parts
        are filtered separately).
    output : array or dtype, optional
        The array in which to place the output, or the dtype of the returned
        array.  By default an array of the same dtype as ``input`` is created
        (scipy's rule: integer inputs give integer outputs, cast once).
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap', 'grid-constant', 'grid-mirror', 'grid-wrap'}, optional
        How the input is extended beyond its boundaries, exactly as in
        scipy.ndimage (also for signals shorter than the kernel).  Default 'reflect'.
    cval : scalar, optional
        Value to fill past edges of input if ``mode`` is 'constant'. Default 0.0.
        For complex input it may be complex: as in scipy, the real part is
        extended with ``cval.real`` and the imaginary part with ``cval.imag``.
    truncate : float, optional
        As in scipy: the direct path truncates the kernel at ``truncate``
        standard deviations.  Without ``tol``, it also sets the accuracy of
        the SFT path: at least that of scipy's kernel truncated there.
        Default 4.0.
    radius : None or int, optional
        The kernel's support, overriding ``truncate`` as in scipy: without
        ``tol``, the kernel is scipy's, truncated at ``radius``, computed
        directly (the result is scipy's bit for bit, at a cost that grows with
        ``radius``); a bank ``method`` cannot honour it and raises.  A
        non-integer or negative radius is a ``ValueError``, as in scipy.
    method : {'auto', 'direct', 'iir1', 'iir1-2k', 'iir2', 'integral', 'window'}, optional
        ``'direct'`` is scipy's truncated FIR (exact for the given truncation;
        its cost grows with sigma).  The others are SFT bank methods (see
        :mod:`sftwave.bank`).  ``'auto'`` (default) uses the direct FIR where
        it is cheaper (small sigma) or where the requested accuracy is beyond
        the SFT (below ``1e-9``), and the bank otherwise.
    transform : {'auto', 'sft', 'asft'}, optional
        The sliding transform: ``'sft'`` (no decay) or ``'asft'`` (attenuated,
        bounded state).  ``'auto'`` (default) is ``'sft'``: the CPU engine keeps
        its state in float64, where the SFT does not drift (see
        docs/design.md).
    tol : float, optional
        Target relative RMSE of the kernel against the exact (untruncated)
        sampled Gaussian kernel, in [1e-9, 0.1].  Default: a quarter of the
        kernel error of scipy at the given ``truncate``.
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it (see :mod:`sftwave.engines`): ``'numba'``, the CPU
        engine (numpy in, numpy out); ``'xp'``, array-API code (numpy, torch
        on any device, CuPy; differentiable with torch autograd) computing the
        SFT by the kernel integral on the sliding sum; ``'cuda'``, the
        numba-cuda kernel.  None/``'auto'`` (default): ``'numba'`` for numpy
        arrays, ``'xp'`` for other array types.  The engines other than
        ``'numba'`` return the input's array type on its device, in its
        floating dtype (float64 for integer input), and accept only
        ``output=None``, ``transform`` 'auto'/'sft' and ``method``
        'auto'/'integral'/'direct'."""


def _fill_doc(func):
    func.__doc__ = func.__doc__.replace("    %(shared)s", _SHARED_DOC.strip("\n"))
    return func


# ----------------------------------------------------------------------------- helpers


def _get_output(output, x: np.ndarray, complex_input: bool) -> np.ndarray:
    """scipy.ndimage's output rule, with ValueError/TypeError instead of RuntimeError."""
    if output is None:
        return np.empty(x.shape, dtype=x.dtype)
    if isinstance(output, (type, np.dtype, str)):
        try:
            dtype = np.dtype(output)
        except TypeError as exc:
            raise TypeError(f"output must be an array or a numeric dtype; got {output!r}") from exc
        if dtype == np.bool_ or dtype.kind not in "uifc":
            raise TypeError(f"output must have a numeric dtype; got {output!r}")
        if complex_input and dtype.kind != "c":
            raise TypeError(f"output must have a complex dtype for complex input; got {output!r}")
        return np.empty(x.shape, dtype=dtype)
    if not isinstance(output, np.ndarray):
        raise TypeError(f"output must be None, a dtype or an ndarray; got {type(output).__name__}")
    if output.shape != x.shape:
        raise ValueError(f"output shape {output.shape} does not match input shape {x.shape}")
    check_writeable(output, "output")
    if output.dtype == np.bool_ or output.dtype.kind not in "uifc":
        raise TypeError(f"output must have a numeric dtype; got {output.dtype}")
    if complex_input and output.dtype.kind != "c":
        raise TypeError(f"output must have a complex dtype for complex input; got {output.dtype}")
    return output


def _work_dtype(dtype: np.dtype) -> np.dtype:
    """Floating dtype in which a real input is handed to the bank."""
    if dtype == np.float32 or dtype == np.float16:
        return np.dtype(np.float32)
    return np.dtype(np.float64)


def choose_path(sigma: float, order: int, *, truncate: float = 4.0, radius: int | None = None,
                method: str = "auto", transform: str = "auto", tol: float | None = None,
                n: int | None = None):
    """Decide how one axis is filtered: ``('direct', kernel)``, ``('bank', plan, method)``, ``('wide', ...)``.

    The accuracy target is ``tol`` or, without it, a quarter of the kernel
    error of scipy at ``truncate``.  The direct path's kernel is scipy's own
    for orders 0 and 1 without ``tol`` (bit-identical results), otherwise the
    shortest moment-corrected kernel meeting the target
    (:func:`sftwave.design.fir_kernel`): scipy's second-derivative kernel leaks
    the signal's mean, and a user's ``tol`` must hold on either path.

    An explicit ``radius`` (without ``tol``) is the user's support: the kernel
    is scipy's, truncated there, for every order, on the direct path, so the
    result is scipy's bit for bit (for order 2 this includes scipy's leak of
    the signal's mean, which the default path's kernel corrects).  A bank
    ``method`` cannot honour a support (``ValueError``).

    ``n``, the signal's length along the axis, tightens the target for
    signals shorter than the kernel's window (``SHORT_SIGNAL_TIGHTENING``);
    with ``method='auto'``, a plan whose window exceeds ``WIDE_FACTOR * n``
    becomes ``'wide'``: the exact untruncated filter by FFT
    (:mod:`sftwave._wide`), at a cost bounded by the signal, not by sigma.

    Examples
    --------
    >>> choose_path(1.0, 0)[0]
    'direct'
    >>> kind, plan, method = choose_path(64.0, 0)
    >>> kind, method, plan.info["P"]
    ('bank', 'iir1', 6)
    >>> choose_path(64.0, 0, radius=100)[1].size      # scipy's kernel, truncated at 100
    201
    >>> choose_path(1e7, 2, n=1000)[0]
    'wide'
    """
    transform = "sft" if transform == "auto" else transform
    if radius is not None and tol is None:
        if method not in ("auto", "direct"):
            raise ValueError(
                f"radius={radius!r} fixes the kernel's support (a truncated kernel, "
                f"computed directly), which method={method!r} cannot honour: pass "
                f"method='auto' or 'direct', or truncate= instead of radius")
        return ("direct", scipy_gaussian_kernel(sigma, order, radius))
    r_scipy = int(truncate * sigma + 0.5)   # scipy's radius at this truncate
    target = DEFAULT_TOL_FACTOR * scipy_kernel_error(sigma, order, r_scipy) if tol is None else tol

    def direct():
        if tol is None and order < 2:
            return ("direct", scipy_gaussian_kernel(sigma, order, r_scipy))
        return ("direct", fir_kernel(float(sigma), int(order), float(max(target, 1e-15))))

    if method == "direct":
        return direct()
    bank_method = bank.resolve_method(method)
    if target < TOL_FLOOR:
        if method == "auto":
            return direct()
        raise ValueError(
            f"the SFT cannot reach the accuracy of truncate={truncate!r} "
            f"(kernel error {target / DEFAULT_TOL_FACTOR:.2g}); pass tol>={TOL_FLOOR:g} "
            f"or method='direct'"
        )
    try:
        plan = gaussian_plan(float(sigma), int(order), float(target), transform)
        if n is not None and n < plan.length:
            target = max(TOL_FLOOR, target / SHORT_SIGNAL_TIGHTENING)
            plan = gaussian_plan(float(sigma), int(order), float(target), transform)
    except ValueError as exc:
        if method == "auto":
            return direct()
        raise ValueError(f"method={method!r}: {exc}; pass a larger tol or method='direct'") from None
    if method == "auto":
        # one complex recursion per frequency, with or without decay, plus fixed work
        max_taps = DIRECT_TAPS_PER_ORDER / bank.threads() * (plan.omegas.size + 1)
        if _fir_may_fit(sigma, order, target, tol, r_scipy, max_taps):
            fir = direct()
            if fir[1].size <= max_taps:
                return fir
        if n is not None and plan.length > WIDE_FACTOR * n:
            return ("wide", float(sigma), int(order))
    return ("bank", plan, bank_method)


def _fir_may_fit(sigma: float, order: int, target: float, tol: float | None, r_scipy: int,
                 max_taps: float) -> bool:
    """Whether the direct path's kernel can have at most ``max_taps`` taps (without building it).

    scipy's kernel has ``2 r + 1`` taps; the shortest moment-corrected kernel
    has more than ``max_taps`` if the one at that radius misses the target.
    Keeps the cost of the choice bounded when sigma is large.
    """
    if tol is None and order < 2:
        return 2 * r_scipy + 1 <= max_taps
    radius = int(max_taps) // 2
    return radius >= 1 and fir_error(float(sigma), int(order), radius) <= target


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
    np.copyto(out, res, casting="unsafe")
    return out


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
    sums = bank._window_sums(w, plan.length)
    dc = float(coef[0] @ sums.real + coef[1] @ sums.imag)
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
    np.copyto(out, res, casting="unsafe")
    return out


def _direct_axis(x: np.ndarray, axis: int, weights: np.ndarray, mode: str, cval: float,
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
    np.copyto(out, res, casting="unsafe")
    return out


def _filter_axis(x: np.ndarray, step, mode: str, cval: float, out: np.ndarray | None) -> np.ndarray:
    """One axis of a real floating array: by the bank, scipy's direct FIR or the wide-kernel limit."""
    axis, sigma, order, path = step
    if path[0] == "direct":
        weights = np.ascontiguousarray(path[1][::-1])
        fast = _direct_axis(x, axis, weights, mode, cval, out)
        if fast is not None:
            return fast
        if out is not None and out.dtype in _SCIPY_OUTPUT_TYPES:
            return _ndi.correlate1d(x, weights, axis=axis, output=out, mode=mode, cval=cval)
        res = _ndi.correlate1d(x, weights, axis=axis, output=x.dtype, mode=mode, cval=cval)
        if out is None:
            return res
        np.copyto(out, res, casting="unsafe")  # e.g. float16, which scipy cannot write
        return out
    if path[0] == "wide":
        return _wide_axis(x, axis, path[1], path[2], mode, cval, out)
    return _bank_axis(x, axis, path[1], path[2], mode, cval, out)


def _wide_axis(x: np.ndarray, axis: int, sigma: float, order: int, mode: str, cval: float,
               out: np.ndarray | None) -> np.ndarray:
    """A kernel many times wider than the line: its exact limit (:mod:`sftwave._wide`)."""
    moved = np.moveaxis(x, axis, -1)
    res = gaussian_wide(moved.reshape(-1, moved.shape[-1]), sigma, order, mode, cval)
    res = np.moveaxis(res.reshape(moved.shape), -1, axis)
    if out is None:
        return res.astype(x.dtype, copy=False)
    np.copyto(out, res, casting="unsafe")
    return out


def _run_axes(x: np.ndarray, steps, modes, cval: float, out: np.ndarray | None,
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
        np.copyto(out, x, casting="unsafe")
        return out
    if (out is not None and out.dtype == x.dtype and out.flags.c_contiguous
            and not np.may_share_memory(x, out)):
        buf = out
    elif owned and x.flags.c_contiguous:
        buf = x
    else:
        buf = np.empty(x.shape, dtype=x.dtype)
    src = x
    for step, mode in zip(steps, modes):
        res = _filter_axis(src, step, mode, cval, buf)
        if res is not buf:   # a path that could not write into buf (a layout it refuses)
            np.copyto(buf, res)
        src = buf
    if out is None or buf is out:
        return buf
    np.copyto(out, buf, casting="unsafe")
    return out


def _dispatch(x: np.ndarray, output, steps, modes, cval: float) -> np.ndarray:
    complex_input = x.dtype.kind == "c"
    out = _get_output(output, x, complex_input)
    if x.size == 0:
        return out
    if complex_input:
        # as scipy: the real part is extended with Re(cval), the imaginary part with Im(cval)
        wd = np.dtype(np.float32) if x.dtype == np.complex64 else np.dtype(np.float64)
        out.real = _run_axes(x.real.astype(wd), steps, modes, float(np.real(cval)), None)
        out.imag = _run_axes(x.imag.astype(wd), steps, modes, float(np.imag(cval)), None)
        return out
    work = x.astype(_work_dtype(x.dtype), copy=False)
    return _run_axes(work, steps, modes, cval, out, owned=work is not x)


# ----------------------------------------------------------------------------- public API


@_fill_doc
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
    transform: str = "auto",
    tol: float | None = None,
    engine: str | None = None,
) -> Any:
    """1-D Gaussian filter, or its first or second derivative, along one axis.

    A drop-in replacement for ``scipy.ndimage.gaussian_filter1d`` whose cost per
    sample does not grow with ``sigma``.

    Parameters
    ----------
    %(shared)s
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
    eng = engines.resolve_engine(engine, input)
    if eng != "numba":
        return engines.gaussian_filter1d(
            input, sigma, axis, order, output, mode, cval, truncate, radius=radius,
            method=method, transform=transform, tol=tol, engine=eng)
    x = check_input_array(input)
    sigma = check_sigma(sigma)
    order = check_order(order)
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=x.dtype.kind == "c")
    truncate = check_truncate(truncate)
    radius = check_radius(radius)
    method = check_choice(method, FILTER_METHODS, "method")
    transform = check_choice(transform, TRANSFORMS, "transform")
    tol = check_tol(tol)
    axis = check_axis(axis, x.ndim)
    path = choose_path(sigma, order, truncate=truncate, radius=radius, method=method,
                       transform=transform, tol=tol, n=x.shape[axis])
    return _dispatch(x, output, [(axis, sigma, order, path)], [mode], cval)


@_fill_doc
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
    transform: str = "auto",
    tol: float | None = None,
    engine: str | None = None,
) -> Any:
    """Multidimensional Gaussian filter (a sequence of 1-D filters), like scipy's.

    Parameters
    ----------
    %(shared)s
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
    eng = engines.resolve_engine(engine, input)
    if eng != "numba":
        return engines.gaussian_filter(
            input, sigma, order, output, mode, cval, truncate, radius=radius, axes=axes,
            method=method, transform=transform, tol=tol, engine=eng)
    x = check_input_array(input)
    axes = check_axes(axes, x.ndim)
    naxes = len(axes)
    sigmas = [check_sigma(s, "sigma", allow_zero=True) for s in per_axis(sigma, naxes, "sigma")]
    orders = [check_order(o) for o in per_axis(order, naxes, "order")]
    modes = [check_mode(m) for m in per_axis(mode, naxes, "mode")]
    radii = [check_radius(r) for r in per_axis(radius, naxes, "radius")]
    cval = check_cval(cval, complex_ok=x.dtype.kind == "c")
    truncate = check_truncate(truncate)
    method = check_choice(method, FILTER_METHODS, "method")
    transform = check_choice(transform, TRANSFORMS, "transform")
    tol = check_tol(tol)
    steps, step_modes = [], []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        if s == 0.0:
            if o != 0:
                raise ValueError(f"sigma must be positive for a derivative (order={o}) along axis {ax}; got 0")
            continue
        path = choose_path(s, o, truncate=truncate, radius=r, method=method,
                           transform=transform, tol=tol, n=x.shape[ax])
        steps.append((ax, s, o, path))
        step_modes.append(m)
    return _dispatch(x, output, steps, step_modes, cval)
