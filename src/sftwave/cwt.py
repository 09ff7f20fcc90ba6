r"""The Morlet wavelet transform and the continuous wavelet transform (scalogram).

Conventions (stated once, tested in ``tests/test_cwt.py``):

* The wavelet at scale ``sigma`` (samples) is the unit-energy
  ``psi_{sigma,xi}[n] = C_xi / (pi^{1/4} sqrt(sigma)) exp(-n^2/(2 sigma^2)) (exp(i xi n/sigma) - kappa_xi)``
  (see :mod:`sftwave.morlet`), and the transform is the convolution
  ``y[n] = sum_k psi[k] x[n - k]`` with the signal extended at its borders by
  ``mode`` (as scipy.ndimage extends it).
* The wavelet's centre frequency is ``xi / sigma`` radians per sample, so the
  frequency ``f`` (in the unit of ``fs``) has the scale
  ``sigma = xi * fs / (2 pi f)`` samples (:func:`frequency_to_scale`).
* ``xi`` is MNE's ``n_cycles`` (MNE's wavelet has standard deviation
  ``n_cycles / (2 pi f)`` seconds): the same number.  MNE scales its wavelets
  to an energy of 2 (``W /= sqrt(0.5) * norm(W)``), truncates them at 5 sigma
  and pads with zeros, so ``sqrt(2) * cwt(x, freqs, fs, xi=n_cycles, mode='constant')``
  is ``tfr_array_morlet(..., n_cycles=n_cycles, zero_mean=True, output='complex')``
  up to MNE's truncation (a kernel error of about 1e-6); with ``zero_mean=False``
  MNE leaves out the ``kappa`` term (1 % at 3 cycles, below 1e-7 from 6).
"""

from __future__ import annotations

import math
import numbers
from functools import lru_cache
from typing import Any

import numpy as np
import scipy.ndimage as _ndi

from . import _pool, bank, engine, engines
from ._checks import (
    TRANSFORMS,
    check_axis,
    check_choice,
    check_cval,
    check_input_array,
    check_mode,
    check_sigma,
    check_tol,
    check_writeable,
)
from ._plancache import on_disk
from ._threads import check_workers, single_threaded_blas
from .design import TOL_FLOOR, truncated_kernel
from .morlet import _resolution, morlet_plan, morlet_target

__all__ = ["morlet_transform", "cwt", "frequency_to_scale", "scale_to_frequency",
           "MORLET_METHODS", "OUTPUTS", "DEFAULT_MORLET_TOL"]

#: ``method`` of :func:`morlet_transform` and :func:`cwt`: the paper's direct
#: and multiplication methods, the exact truncated convolution, or the cheapest.
MORLET_METHODS = ("auto", "direct", "multiply", "fir")

#: ``output`` of :func:`cwt`.
OUTPUTS = ("complex", "power", "abs", "phase")

#: Without ``tol``, the target for each wavelet's kernel error: the larger of
#: its relative RMSE (the error of a white-noise input's transform) and its
#: random-walk error (a 1/f^2 input's; see sftwave.design.walk_error).  On a
#: real ECG, whose spectrum falls faster still, the weakest (highest) rows come
#: out at about six times this target (docs/design.md), so 1e-4 keeps every row
#: of the documented inputs within 1e-3.
DEFAULT_MORLET_TOL = 1e-4


# ----------------------------------------------------------------------------- conversions


def frequency_to_scale(freqs, fs: float = 1.0, xi: float = 6.0) -> np.ndarray:
    """Scale ``sigma`` (samples) of the Morlet wavelet centred on frequency ``freqs``.

    ``sigma = xi * fs / (2 pi f)``.

    Examples
    --------
    >>> float(frequency_to_scale(10.0, fs=1000.0, xi=6.0))  # doctest: +ELLIPSIS
    95.49296...
    """
    f = np.asarray(freqs, dtype=np.float64)
    return xi * fs / (2.0 * math.pi * f)


def scale_to_frequency(sigma, fs: float = 1.0, xi: float = 6.0) -> np.ndarray:
    """Centre frequency of the Morlet wavelet of scale ``sigma`` samples: ``xi fs / (2 pi sigma)``.

    Examples
    --------
    >>> float(scale_to_frequency(frequency_to_scale(10.0, 1000.0), 1000.0))
    10.0
    """
    s = np.asarray(sigma, dtype=np.float64)
    return xi * fs / (2.0 * math.pi * s)


# ----------------------------------------------------------------------------- paths

#: Sigmas of wavelet beyond which its envelope is below exp(-84).
SUPPORT_SIGMAS = 13.0


@lru_cache(maxsize=4096)
@on_disk("fir_morlet")
@single_threaded_blas
def _fir_morlet(sigma: float, xi: float, tol: float) -> np.ndarray:
    """The shortest zero-mean truncated wavelet meeting ``tol`` (complex, centred)."""
    return truncated_kernel(morlet_target(sigma, xi), sigma, tol, (0,), _resolution(sigma, xi),
                            walk=True)


@lru_cache(maxsize=4096)
def _fir_min_taps(sigma: float, xi: float, tol: float) -> int:
    """A lower bound on the length of any FIR whose error against the wavelet is <= tol.

    A kernel supported on ``|k| <= r`` misses the wavelet's energy outside, so
    its relative RMSE is at least ``sqrt(tail(r) / total)``: ``r`` must reach
    the smallest radius whose tail is below ``tol**2``.  Nine tenths of that
    radius, for safety against the design's own way of summing tails.
    """
    R = int(math.ceil(SUPPORT_SIGMAS * sigma)) + 10
    e = np.abs(morlet_target(sigma, xi)(np.arange(R + 1))) ** 2
    total = e[0] + 2.0 * e[1:].sum()
    outside = 2.0 * np.cumsum(e[::-1])[::-1]  # outside[r] = energy at |k| >= r (r >= 1)
    ok = np.nonzero(outside[1:] <= tol * tol * total)[0]
    r = int(ok[0]) if ok.size else R  # outside[r + 1] <= tol^2 total: radius r suffices
    return 2 * int(0.9 * r) + 1


def _choose(sigma: float, xi: float, tol: float, method: str, transform: str, bank_method: str,
            n: int | None = None):
    """``('fir', kernel)`` or ``('bank', plan, bank_method)`` for one scale.

    A signal of ``n`` samples shorter than the wavelet's window sees mostly its
    middle, where the fit's pointwise error decides; the target is then
    tightened as for the Gaussian filters (``SHORT_SIGNAL_TIGHTENING``).
    """
    path = _choose_for_tol(sigma, xi, tol, method, transform, bank_method)
    if n is not None and path[0] == "bank" and n < path[1].length:
        from .ndimage import SHORT_SIGNAL_TIGHTENING

        tighter = max(TOL_FLOOR, tol / SHORT_SIGNAL_TIGHTENING)
        path = _choose_for_tol(sigma, xi, tighter, method, transform, bank_method)
    return path


def _choose_for_tol(sigma: float, xi: float, tol: float, method: str, transform: str,
                    bank_method: str):
    transform = "sft" if transform == "auto" else transform
    if method == "fir" or tol < TOL_FLOOR:
        return ("fir", _fir_morlet(sigma, xi, tol))
    candidates = []
    for m in (("direct", "multiply") if method == "auto" else (method,)):
        try:
            candidates.append(morlet_plan(sigma, xi, tol, m, transform))
        except ValueError as exc:
            if method != "auto":
                raise ValueError(f"method={method!r}: {exc}; pass a larger tol or method='fir'") from None
    if method == "auto":
        # bank: one complex recursion per frequency plus fixed work; FIR: two real taps per tap
        best = min(candidates, key=lambda p: p.omegas.size, default=None)
        per_order = _taps_per_order()
        if best is not None and 2 * _fir_min_taps(sigma, xi, tol) > per_order * (best.omegas.size + 1):
            return ("bank", best, bank_method)  # no FIR meeting tol can be cheaper: skip its design
        fir = _fir_morlet(sigma, xi, tol)
        if best is None or 2 * fir.size <= per_order * (best.omegas.size + 1):
            return ("fir", fir)
        return ("bank", best, bank_method)
    return ("bank", candidates[0], bank_method)


def _taps_per_order() -> float:
    from .ndimage import DIRECT_TAPS_PER_ORDER

    return DIRECT_TAPS_PER_ORDER / bank.threads()


def _apply_real(x2d: np.ndarray, path, mode: str, cval: float, out: np.ndarray) -> None:
    """Transform each row of real ``x2d`` into complex ``out`` (rows, n), in place."""
    if path[0] == "fir":
        h = path[1][::-1]
        out.real = _ndi.correlate1d(x2d, h.real.copy(), axis=-1, mode=mode, cval=cval, output=np.float64)
        out.imag = _ndi.correlate1d(x2d, h.imag.copy(), axis=-1, mode=mode, cval=cval, output=np.float64)
        return
    _, plan, method = path
    view = out.view(out.real.dtype).reshape(out.shape[0], out.shape[1], 2)
    bank.apply(plan, x2d, view, mode=mode, cval=cval, method=method)


# ----------------------------------------------------------------------------- validation


def _check_positive(value, name: str) -> float:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {value!r}")
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{name} must be a positive finite number; got {value!r}")
    return v


def _check_freqs(freqs, fs: float) -> np.ndarray:
    if freqs is None or isinstance(freqs, (str, bytes)):
        raise TypeError(f"freqs must be a positive number or a 1-D sequence of them; got {freqs!r}")
    try:
        f = np.asarray(freqs, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"freqs must be a sequence of real numbers; got {freqs!r}") from exc
    if f.ndim > 1:
        raise ValueError(f"freqs must be a scalar or a 1-D sequence; got shape {f.shape}")
    f = np.atleast_1d(f)
    bad = ~np.isfinite(f) | (f <= 0)
    if bad.any():
        raise ValueError(f"freqs must be positive and finite; got {float(f[bad][0])!r} among them")
    if (f > fs / 2).any():
        raise ValueError(
            f"freqs must not exceed the Nyquist frequency fs/2 = {fs / 2!r}; "
            f"got {float(f.max())!r}"
        )
    return f


def _complex_dtype(x: np.ndarray) -> np.dtype:
    single = x.dtype in (np.float32, np.float16, np.complex64)
    return np.dtype(np.complex64 if single else np.complex128)


def _resolve_tol(tol) -> float:
    tol = check_tol(tol)
    return DEFAULT_MORLET_TOL if tol is None else tol


# ----------------------------------------------------------------------------- public API


def morlet_transform(
    x,
    sigma: float,
    xi: float = 6.0,
    *,
    axis: int = -1,
    method: str = "direct",
    transform: str = "auto",
    mode: str = "reflect",
    cval: float = 0.0,
    tol: float | None = None,
    bank_method: str = "auto",
    workers: int | None = None,
    engine: str | None = None,
) -> Any:
    """The Morlet wavelet transform of ``x`` at one scale, by the SFT/ASFT.

    Parameters
    ----------
    x : array_like
        Real or complex input; complex input is transformed as real and
        imaginary parts (``T(re) + 1j T(im)``).
    sigma : float
        Scale of the wavelet in samples (its Gaussian's standard deviation).
    xi : float, optional
        The wavelet's number of radians per standard deviation (MNE's
        ``n_cycles``; default 6).
    axis : int, optional
        The axis of ``x`` to transform.  Default -1.
    method : {'direct', 'multiply', 'fir', 'auto'}, optional
        The paper's direct method (III-A, default), its multiplication method
        (III-B), the exact truncated convolution, or the cheapest that meets
        ``tol``.
    transform : {'auto', 'sft', 'asft'}, optional
        Without (SFT) or with (ASFT) decay; ``'auto'`` is the SFT.
    mode, cval
        Boundary extension, as in scipy.ndimage (for complex input, a complex
        ``cval`` extends the real and imaginary parts with its own parts).
    tol : float, optional
        The wavelet's kernel error against the exact sampled wavelet: the
        larger of its relative RMSE and its random-walk error (default 1e-4,
        which keeps the result within 1e-3 of the exact transform).
    bank_method : str, optional
        The bank's method (see :mod:`sftwave.bank`); default ``'auto'``.
    workers : int, optional
        Threads to use (scipy.fft's convention: -1 for all cores), for this
        call only; default all the CPUs the process may use, or
        ``SFTWAVE_NUM_THREADS`` (see ``sftwave._pool``).
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it (see :mod:`sftwave.engines`): ``'numba'``, the CPU
        engine; ``'xp'``, array-API code (numpy, torch on any device, CuPy;
        differentiable with torch autograd), the SFT by the kernel integral on
        the sliding sum; ``'cuda'``, the numba-cuda kernel.  None/``'auto'``
        (default): ``'numba'`` for numpy arrays, ``'xp'`` for other array
        types.  The engines other than ``'numba'`` return the input's array
        type on its device and accept only ``transform`` 'auto'/'sft',
        ``bank_method`` 'auto'/'integral' and ``workers=None``.

    Returns
    -------
    ndarray
        Complex, the shape of ``x``: complex64 for float32 (or complex64)
        input, complex128 otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(4000)
    >>> x = np.cos(2 * np.pi * t / 100.0)          # period 100 samples
    >>> sigma = 6.0 * 100.0 / (2 * np.pi)          # the scale centred on it
    >>> y = morlet_transform(x, sigma)
    >>> bool(np.std(np.abs(y[1000:3000])) < 1e-3 * np.mean(np.abs(y[1000:3000])))
    True
    """
    eng = engines.resolve_engine(engine, x)
    if eng != "numba":
        return engines.morlet_transform(
            x, sigma, xi, axis=axis, method=method, transform=transform, mode=mode, cval=cval,
            tol=tol, bank_method=bank_method, workers=workers, engine=eng)
    arr = check_input_array(x, "x")
    sigma = check_sigma(sigma)
    xi = _check_positive(xi, "xi")
    axis = check_axis(axis, arr.ndim)
    method = check_choice(method, MORLET_METHODS, "method")
    transform = check_choice(transform, TRANSFORMS, "transform")
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=arr.dtype.kind == "c")
    tol = _resolve_tol(tol)
    bank_method = _resolve_bank_method(bank_method, arr, axis, 1)
    workers = check_workers(workers)
    if xi / sigma > math.pi:
        raise ValueError(
            f"the wavelet's centre frequency xi/sigma = {xi / sigma:.4g} rad/sample exceeds "
            f"Nyquist (pi): increase sigma (got {sigma!r}) or decrease xi (got {xi!r})"
        )
    out = _transform_rows(arr, axis, [sigma], xi, method, transform, mode, cval, tol, bank_method,
                          "complex", _complex_dtype(arr), workers=workers)
    return np.moveaxis(out[..., 0, :], -1, axis)


def cwt(
    x,
    freqs,
    fs: float = 1.0,
    *,
    xi: float = 6.0,
    axis: int = -1,
    mode: str = "reflect",
    cval: float = 0.0,
    output: str = "complex",
    tol: float | None = None,
    dtype=None,
    method: str = "auto",
    transform: str = "auto",
    bank_method: str = "auto",
    decim: int = 1,
    out: np.ndarray | None = None,
    workers: int | None = None,
    engine: str | None = None,
) -> Any:
    """Continuous Morlet wavelet transform at the given frequencies (a scalogram).

    Parameters
    ----------
    x : array_like
        The signal(s): any number of leading channel/epoch axes; ``axis`` is time.
    freqs : float or sequence of float
        Frequencies, in the unit of ``fs``, each in ``(0, fs/2]``.  The scale
        of frequency ``f`` is ``sigma = xi * fs / (2 pi f)`` samples.
    fs : float, optional
        Sampling rate (default 1: ``freqs`` in cycles per sample).
    xi : float, optional
        Radians per standard deviation of the wavelet (default 6).  This is
        the number MNE calls ``n_cycles``.
    axis : int, optional
        The time axis of ``x``.  Default -1.
    mode, cval
        Boundary extension, as in scipy.ndimage (default 'reflect'; MNE pads
        with zeros: ``mode='constant'``).
    output : {'complex', 'power', 'abs', 'phase'}, optional
        The coefficients, their squared modulus, modulus, or angle.
    tol : float, optional
        Each wavelet's kernel error against the exact sampled wavelet: the
        larger of its relative RMSE (a white-noise input's error) and its
        random-walk error (a 1/f^2 input's; see
        :func:`sftwave.design.walk_error`).  Default 1e-4, which keeps every
        row within 1e-3 (relative RMSE) of the exact transform, also for a real
        ECG; ``tol=1e-6`` keeps rows within about 3e-6.  A signal whose spectrum
        falls faster than a random walk's can come out at several times
        ``tol`` in its weakest rows (about 6 times on an ECG).
    dtype : dtype, optional
        Output dtype.  Default: complex64 (float32 for real outputs) for
        float32/complex64 input, complex128 (float64) otherwise.
    method : {'auto', 'direct', 'multiply', 'fir'}, optional
        Per frequency: the paper's direct or multiplication method, the exact
        truncated convolution, or (default) the cheapest that meets ``tol``
        (the FIR for the smallest scales).
    transform : {'auto', 'sft', 'asft'}, optional
        Without (SFT) or with (ASFT) decay; ``'auto'`` is the SFT.
    bank_method : str, optional
        The bank's method (see :mod:`sftwave.bank`); default ``'auto'``.
    decim : int, optional
        Keep every ``decim``-th sample (``[::decim]``, as MNE's ``decim``):
        the output has ``ceil(n / decim)`` samples per row and the work of
        combining the components is done only for those.  Default 1.
    out : ndarray, optional
        A C-contiguous array of the output's shape and dtype to write into (and
        return), as numpy's ``out=``: no allocation per call.
    workers : int, optional
        Threads to use (scipy.fft's convention: -1 for all cores), for this
        call only; default all the CPUs the process may use, or
        ``SFTWAVE_NUM_THREADS`` (see ``sftwave._pool``).
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it (see :mod:`sftwave.engines`): ``'numba'``, the CPU
        engine; ``'xp'``, array-API code (numpy, torch on any device, CuPy;
        differentiable with torch autograd), the SFT by the kernel integral on
        the sliding sum; ``'cuda'``, the numba-cuda kernel.  None/``'auto'``
        (default): ``'numba'`` for numpy arrays, ``'xp'`` for other array
        types.  The engines other than ``'numba'`` return the input's array
        type on its device and accept only ``transform`` 'auto'/'sft',
        ``dtype=None``, ``out=None``, ``bank_method`` 'auto'/'integral' and
        ``workers=None``.

    Returns
    -------
    ndarray
        Shape ``x.shape`` without ``axis``, then ``(len(freqs), ceil(n / decim))``.

    Notes
    -----
    With single-precision output (float32 input, or ``dtype=complex64``) and
    ``tol >= 1e-4`` (the default), the recursions run in float32 arithmetic
    with the ASFT, whose decay keeps float32 state bounded; float32 adds at
    most about 5e-5 to a row's relative error.  Otherwise they run in float64
    (and with the SFT, unless ``transform='asft'``).

    Examples
    --------
    >>> import numpy as np
    >>> fs = 1000.0
    >>> t = np.arange(2000) / fs
    >>> x = np.sin(2 * np.pi * 40 * t)
    >>> power = cwt(x, [10.0, 40.0, 160.0], fs, output="power")
    >>> power.shape, int(np.argmax(power[:, 1000]))
    ((3, 2000), 1)
    """
    eng = engines.resolve_engine(engine, x)
    if eng != "numba":
        return engines.cwt(
            x, freqs, fs, xi=xi, axis=axis, mode=mode, cval=cval, output=output, tol=tol,
            dtype=dtype, method=method, transform=transform, bank_method=bank_method,
            decim=decim, out=out, workers=workers, engine=eng)
    arr = check_input_array(x, "x")
    fs = _check_positive(fs, "fs")
    xi = _check_positive(xi, "xi")
    f = _check_freqs(freqs, fs)
    axis = check_axis(axis, arr.ndim)
    mode = check_mode(mode)
    cval = check_cval(cval, complex_ok=arr.dtype.kind == "c")
    output = check_choice(output, OUTPUTS, "output")
    method = check_choice(method, MORLET_METHODS, "method")
    transform = check_choice(transform, TRANSFORMS, "transform")
    tol = _resolve_tol(tol)
    bank_method = _resolve_bank_method(bank_method, arr, axis, len(f))
    workers = check_workers(workers)
    decim = _check_decim(decim)
    if out is not None and dtype is None and isinstance(out, np.ndarray):
        dtype = out.dtype
    out_dtype = _output_dtype(dtype, arr, output)
    sigmas = [float(s) for s in frequency_to_scale(f, fs, xi)]
    return _transform_rows(arr, axis, sigmas, xi, method, transform, mode, cval, tol, bank_method,
                           output, out_dtype, decim=decim, out=out, workers=workers)


#: Below this many rows times scales, 'auto' runs the bank line by line ('iir1-2k')
#: instead of the lane engine, whose groups of ``engine.DEFAULT_WIDTH`` lanes would
#: run mostly empty (measured by ``make bench``, docs/benchmarks.md, *Few scales*).
ENGINE_MIN_LANES = 8


def _resolve_bank_method(bank_method: str, arr: np.ndarray, axis: int, nscales: int) -> str:
    """The bank method, with 'auto' choosing by the number of lanes (see ``ENGINE_MIN_LANES``)."""
    resolved = bank.resolve_method(bank_method, "bank_method")
    if bank_method == "auto" and arr.ndim:
        lines = arr.size // max(arr.shape[axis], 1) if arr.size else 0
        if lines * nscales < ENGINE_MIN_LANES:
            return "iir1-2k"
    return resolved


def _check_decim(decim) -> int:
    if isinstance(decim, (bool, np.bool_)) or not isinstance(decim, numbers.Integral):
        raise TypeError(f"decim must be a positive integer; got {decim!r}")
    if int(decim) < 1:
        raise ValueError(f"decim must be a positive integer; got {decim!r}")
    return int(decim)


def _output_dtype(dtype, arr: np.ndarray, output: str) -> np.dtype:
    base = _complex_dtype(arr)
    if dtype is None:
        return base if output == "complex" else np.dtype(base.char.lower())  # F->f, D->d
    try:
        dt = np.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"dtype must be a numpy dtype; got {dtype!r}") from exc
    if output == "complex" and dt.kind != "c":
        raise ValueError(f"dtype must be complex for output='complex'; got {dt}")
    if output != "complex" and dt.kind != "f":
        raise ValueError(f"dtype must be a real floating dtype for output={output!r}; got {dt}")
    return dt


#: Single-precision output at a tolerance at least this loose runs the
#: recursions in float32 arithmetic with the ASFT (its decay keeps float32 state
#: bounded: measured, float32 adds at most about 5e-5 to a row's relative
#: error, N = 1e5, 1-100 Hz at 1 kHz); otherwise they run in float64.
FLOAT32_STATE_MIN_TOL = 1e-4


def _cwt_output(out, shape: tuple, out_dtype: np.dtype) -> np.ndarray:
    if out is None:
        return np.empty(shape, dtype=out_dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be None or an ndarray; got {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"out must have shape {shape}; got {out.shape}")
    if out.dtype != out_dtype:
        raise ValueError(f"out must have dtype {out_dtype}; got {out.dtype}")
    if not out.flags.c_contiguous:
        raise ValueError("out must be C-contiguous")
    return check_writeable(out, "out")


def _kind_of(y: np.ndarray, output: str) -> np.ndarray:
    if output == "complex":
        return y
    if output == "power":
        return y.real**2 + y.imag**2
    if output == "abs":
        return np.abs(y)
    return np.angle(y)


def _transform_rows(arr, axis, sigmas, xi, method, transform, mode, cval, tol, bank_method,
                    output, out_dtype, decim=1, out=None, workers=None) -> np.ndarray:
    """Shape (x without axis) + (len(sigmas), ceil(n / decim)); the engine does the bank's rows."""
    moved = np.moveaxis(arr, axis, -1)
    batch, n = moved.shape[:-1], moved.shape[-1]
    F = len(sigmas)
    n_out = -(-n // decim)
    result = _cwt_output(out, (*batch, F, n_out), out_dtype)
    if result.size == 0:
        return result
    nrows = int(np.prod(batch, dtype=np.int64))
    out3 = result.reshape(nrows, F, n_out)
    complex_input = arr.dtype.kind == "c"
    single = out_dtype in (np.complex64, np.float32)
    use_engine = bank_method == "iir1" and not complex_input
    state32 = use_engine and single and tol >= FLOAT32_STATE_MIN_TOL and transform in ("auto", "asft")
    if transform == "auto":
        transform = "asft" if state32 else "sft"
    paths = [_choose(s, xi, tol, method, transform, bank_method, n) for s in sigmas]
    work = np.dtype(np.float32) if single else np.dtype(np.float64)
    cvals = [float(np.real(cval)), float(np.imag(cval))]
    parts = [moved.real, moved.imag] if complex_input else [moved]
    rows = [np.ascontiguousarray(p, dtype=work).reshape(nrows, n) for p in parts]
    cdtype = np.dtype(np.complex64 if single else np.complex128)
    with _pool.limit(workers):
        if use_engine:
            lanes = [engine.Lane(path[1], r, r * F + i, 0, n)
                     for i, path in enumerate(paths) if path[0] == "bank" for r in range(nrows)]
            flat = out3.reshape(nrows * F, n_out)
            view = flat.view(flat.real.dtype).reshape(nrows * F, n_out, 2) if output == "complex" \
                else flat[..., None]
            engine.run(rows[0], lanes, view, mode=mode, cval=cvals[0], hop=decim, kind=output,
                       dtype=np.float32 if state32 else np.float64)
        tmp = None
        for i, path in enumerate(paths):
            if use_engine and path[0] == "bank":
                continue
            if tmp is None:
                tmp = np.empty((nrows, n), dtype=cdtype)
            _apply_real(rows[0], path, mode, cvals[0], tmp)
            y = tmp
            if complex_input:
                y = tmp.copy()
                _apply_real(rows[1], path, mode, cvals[1], tmp)
                y += 1j * tmp
            out3[:, i, :] = _kind_of(y[:, ::decim], output)
    return result
