r"""The Morlet wavelet transform and the continuous wavelet transform (scalogram).

Conventions (stated once, tested in ``tests/test_wavelets.py``):

* The wavelet at scale ``sigma`` (samples) is the unit-energy
  ``psi_{sigma,xi}[n] = C_xi / (pi^{1/4} sqrt(sigma)) exp(-n^2/(2 sigma^2)) (exp(i xi n/sigma) - kappa_xi)``
  (see ``sftwave.plans.morlet``), and the transform is the convolution
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
  within about 1e-4 per row at the default ``tol`` (3e-5 with ``tol=1e-6``);
  with ``zero_mean=False`` MNE leaves out the ``kappa`` term (up to 17 % of the
  power at 3 cycles on a random walk, below 1e-4 from 5 cycles).
  :func:`sftwave.mne.tfr_array_morlet` does the conversions, both ``zero_mean``.
* ``cwt(..., wavelet='dog<m>')`` (``'mexh'``: ``'dog2'``) is Torrence & Compo's
  derivative-of-Gaussian wavelet instead, real, by the Gaussian derivative
  plans (``sftwave.plans.dog``; conventions in :func:`cwt`'s docstring).
* :func:`morlet_transform` is :func:`cwt` at one scale given in samples, its
  axis kept in place: one checker, the same defaults and the same ``output``,
  ``decim`` and ``out``, by the same code path.

This module validates the arguments, asks :mod:`sftwave.plans` for one plan
per scale and hands them to the engine (:mod:`sftwave.engines`); it computes
nothing itself.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from . import engines
from ._checks import (
    check_axis,
    check_below_nyquist,
    check_choice,
    check_cval,
    check_decim,
    check_freqs,
    check_mode,
    check_out,
    check_positive,
    check_sigma,
    check_tol,
    check_workers,
    check_xi,
    is_dataarray,
    scalogram_dtype,
)
from ._checks.wavelets import Array
from ._docs import docfiller
from .engines import nonfinite
from .plans import DEFAULT_MORLET_TOL, select_gaussian
from .plans.blas import one_blas_thread
from .plans.families import DOG, Morlet, WaveletFamily, wavelet_family
from .plans.fit import FIRPlan, SFTPlan
from .plans.select import max_kernel_sigma

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, DTypeLike

__all__ = ["morlet_transform", "cwt", "frequency_to_scale", "scale_to_frequency", "OUTPUTS",
           "WaveletFamily", "Morlet", "DOG", "wavelet_family"]

#: ``output`` of :func:`cwt` and :func:`morlet_transform`: the kind of result (MNE's
#: meaning of the name, not scipy.ndimage's array-or-dtype; see the conventions guide).
OUTPUTS = Morlet.outputs

#: ``output`` of :func:`cwt` with a real (DOG) wavelet: 'complex' and 'real' both give the
#: real coefficients (the default 'complex' thus works for every wavelet); no phase.
DOG_OUTPUTS = DOG.outputs

#: The default wavelet.
_MORLET = Morlet()


def parse_wavelet(wavelet: Any) -> int | None:
    """The order ``m`` of the DOG ``wavelet``, None for the Morlet (kept for older callers;
    :func:`wavelet_family` is the parser, and its family the object to ask).

    Examples
    --------
    >>> parse_wavelet("morlet"), parse_wavelet("mexh"), parse_wavelet("dog6")
    (None, 2, 6)
    """
    return getattr(wavelet_family(wavelet), "m", None)


# ----------------------------------------------------------------------------- conversions


def frequency_to_scale(freqs: ArrayLike, fs: float = 1.0, xi: float | np.ndarray = 6.0) -> np.ndarray:
    """Scale ``sigma`` (samples) of the Morlet wavelet centred on frequency ``freqs``.

    ``sigma = xi * fs / (2 pi f)`` (:meth:`Morlet.scale <sftwave.wavelets.Morlet.scale>`).

    Parameters
    ----------
    freqs : array_like
        Frequencies, in the unit of ``fs``.
    fs : float, optional
        Sampling rate (default 1).
    xi : float or ndarray, optional
        The wavelet's ``xi`` (default 6), one value or one per frequency.

    Returns
    -------
    ndarray
        The scales, in samples.

    See Also
    --------
    scale_to_frequency : The inverse conversion.
    sftwave.analysis.fourier_period : Torrence & Compo's Fourier period of a row.

    Examples
    --------
    >>> float(frequency_to_scale(10.0, fs=1000.0, xi=6.0))  # doctest: +ELLIPSIS
    95.49296...
    """
    return _MORLET.scale(freqs, fs, xi)


def scale_to_frequency(sigma: ArrayLike, fs: float = 1.0, xi: float | np.ndarray = 6.0) -> np.ndarray:
    """Centre frequency of the Morlet wavelet of scale ``sigma`` samples: ``xi fs / (2 pi sigma)``.

    Parameters
    ----------
    sigma : array_like
        Scales, in samples.
    fs : float, optional
        Sampling rate (default 1).
    xi : float or ndarray, optional
        The wavelet's ``xi`` (default 6), one value or one per scale.

    Returns
    -------
    ndarray
        The frequencies, in the unit of ``fs``.

    See Also
    --------
    frequency_to_scale : The inverse conversion.

    Examples
    --------
    >>> float(scale_to_frequency(frequency_to_scale(10.0, 1000.0), 1000.0))
    10.0
    """
    return _MORLET.scale(sigma, fs, xi)      # the same relation both ways


# ----------------------------------------------------------------------------- the transform

def _scalogram(x: Any, scales_of: Callable[[Any], list[tuple[float, float]]], *, in_place: bool = False,
               **kwargs: Any) -> Any:
    """Validate once, select one plan per scale, let the engine compute (non-finite samples confined).

    ``scales_of(xi)`` checks ``xi`` and gives the wavelets: a list of (sigma in samples, xi).
    ``in_place``: :func:`morlet_transform`'s layout, one scale with the result
    (and ``out``) on the input's axes, ``axis`` of ``ceil(n / decim)`` samples;
    else :func:`cwt`'s, ``axis`` moved last and one row per scale before it.
    """
    nan_policy = check_choice(kwargs.pop("nan_policy"), nonfinite.NAN_POLICIES, "nan_policy")
    min_weight = check_positive(kwargs.pop("min_weight"), "min_weight")
    if min_weight > 1.0:
        raise ValueError(f"min_weight must be in (0, 1]; got {min_weight!r}")
    target = kwargs["out"]
    eng, arr, plans, run = _plan_scalogram(x, scales_of, in_place=in_place, **kwargs)
    axis, rows = run["axis"], run["out"]
    sigmas = run.pop("sigmas")
    if nan_policy == "omit":
        n = int(arr.shape[axis])
        # each wavelet's Gaussian envelope, run on the CPU engine for the weights on data
        envelopes = [select_gaussian(s, 0, n=n) for s in sigmas]
        y = nonfinite.scalogram_omit(eng, arr, plans, envelopes, min_weight=min_weight, **run)
    else:
        y = nonfinite.scalogram_confined(eng, arr, plans, **run)
    if not in_place:
        return y
    row = y[..., 0, :]                  # the one scale's row, moved back to ``axis``
    if target is None:
        if isinstance(row, np.ndarray):
            return np.moveaxis(row, -1, axis)
        from array_api_compat import array_namespace

        return array_namespace(row).moveaxis(row, -1, axis)
    if rows is None or y is not rows:   # computed apart (see _one_row_out): copied in once
        np.moveaxis(target, axis, -1)[...] = row
    return target


def _one_row_out(out: np.ndarray, axis: int) -> np.ndarray | None:
    """``out`` of :func:`morlet_transform` (the input's axes) as :func:`cwt`'s one-row ``out``.

    A view where it is C-contiguous (``axis`` the last, only axes of length 1
    after it, or ``axis`` of length 1): the engine writes into ``out`` itself.
    Else None: the row is computed into a new array and copied into ``out`` once.
    """
    rows = np.moveaxis(out, axis, -1)[..., None, :]
    return rows if rows.flags.c_contiguous else None



def _family_scales(family: WaveletFamily, f: np.ndarray,
                   fs: float) -> Callable[[Any], list[tuple[float, float]]]:
    """``scales_of(xi)``: the ``(sigma, xi)`` of each checked frequency of ``f`` at ``fs`` for
    ``family`` (``xi`` checked by the family), with its ``describe(i)`` naming frequency ``i``
    in errors (for :func:`_scalogram`)."""

    def scales_of(xi: Any) -> list[tuple[float, float]]:
        xis = family.check_xi(xi, f.size)
        return [(float(s), float(w)) for s, w in zip(family.scale(f, fs, xis), xis)]

    scales_of.describe = lambda i: f"freqs (its {float(f[i])!r} with fs={fs!r})"  # type: ignore[attr-defined]
    return scales_of


def _frequency_scales(f: np.ndarray, fs: float) -> Callable[[Any], list[tuple[float, float]]]:
    """:func:`_family_scales` of the Morlet."""
    return _family_scales(_MORLET, f, fs)


def _plan_scalogram(x: Any, scales_of: Callable[[Any], list[tuple[float, float]]], *, xi: Any, axis: int,
                    mode: str, cval: float | complex, output: str, tol: float | None,
                    dtype: DTypeLike | None, method: str, transform: str, bank_method: str, decim: int,
                    out: np.ndarray | None, workers: int | None, engine: str | None,
                    in_place: bool = False, factors: np.ndarray | None = None,
                    single_state: bool = False, family: WaveletFamily = _MORLET,
                    windowed: bool = False) -> tuple[Any, Any, list, dict[str, Any]]:
    """The checks and the plans of :func:`_scalogram`: ``(engine, array, plans, run arguments)``.

    ``out`` is checked here (shape, dtype, C order, writeable), in the layout
    ``in_place`` names, and handed on in :func:`cwt`'s layout.  ``factors``
    (positive, one per scale) multiply the plans' outputs (:func:`_scaled_plan`);
    ``single_state`` asks the CPU engine for the recursions of single-precision
    output (:func:`scaled_cwt`).  ``family``: the wavelet (its outputs, methods,
    engines and plans).  ``windowed``: ``method='auto'`` chooses only plans with a window
    (never the FFT: :func:`windowed_cwt`).
    """
    name = engines.resolve_engine(engine, x)
    family.check_engine(name)
    engines.check_request(name, transform=transform, bank_method=bank_method, dtype=dtype, out=out,
                          workers=workers)
    eng = engines.get(name)
    arr = eng.asarray(x, "x")
    scales = scales_of(xi)
    axis = check_axis(axis, len(arr.shape))
    mode = check_mode(mode)
    complex_input = eng.is_complex(arr)
    cval = check_cval(cval, complex_ok=complex_input)
    output = family.check_output(output)
    method = family.check_method(method)
    tol = check_tol(tol)
    tol = DEFAULT_MORLET_TOL if tol is None else tol
    workers = check_workers(workers)
    decim = check_decim(decim)
    if out is not None and dtype is None and isinstance(out, np.ndarray):
        # the output's dtype is out's: refused in out's name where it does not fit ``output``
        if (output == "complex") != (out.dtype.kind == "c") or out.dtype.kind not in "fc":
            kind = "complex" if output == "complex" else "real floating"
            raise ValueError(f"out must have a {kind} dtype for output={output!r}; "
                             f"got dtype {out.dtype}")
        dtype = out.dtype
    out_dtype = scalogram_dtype(dtype, eng.is_single(arr), output)
    n = int(arr.shape[axis])
    if out is not None:      # (engines without ``out`` refused it above)
        n_out = -(-n // decim)
        if in_place:
            check_out(out, tuple(n_out if i == axis else int(d) for i, d in enumerate(arr.shape)),
                      out_dtype)
            out = _one_row_out(out, axis)
        else:
            check_out(out, tuple(int(d) for i, d in enumerate(arr.shape) if i != axis)
                      + (len(scales), n_out), out_dtype)
    lines = math.prod(int(d) for i, d in enumerate(arr.shape) if i != axis) if n else 0
    bank_method = eng.bank_method(bank_method, lines * len(scales))
    single = out_dtype in (np.complex64, np.float32) or single_state
    transform = eng.transform(transform, single=single, complex_input=complex_input, tol=tol,
                              bank_method=bank_method)
    cost = eng.fir_taps_per_order()
    fft_cost = getattr(eng, "fft_point_cost", lambda: None)()
    if method == "fft" and fft_cost is None:
        raise ValueError(f"method='fft' runs on the CPU engine only (engine='numba'); got "
                         f"engine={name!r}")
    if windowed or factors is not None or single_state or not family.uses_fft():
        # (sftwave.mne's rows: scaled plans and the lane kernel's recursions)
        fft_cost = None
    limit = max_kernel_sigma(n)   # a wavelet far wider than the signal: refused, naming the argument
    for i, (s, w) in enumerate(scales):
        if s > limit:
            describe = getattr(scales_of, "describe", lambda i: "sigma")
            raise ValueError(family.too_long(describe(i), s, w, n))
    with one_blas_thread():   # set once for all the frequencies' designs
        plans = family.select_plans([s for s, _ in scales], np.array([w for _, w in scales]), tol,
                                    method=method, transform=transform, n=n,
                                    fir_taps_per_order=cost, mode=mode, fft_point_cost=fft_cost)
    if factors is not None:
        plans = [_scaled_plan(p, float(f)) for p, f in zip(plans, factors)]
    run = dict(axis=axis, mode=mode, cval=cval, kind=output, decim=decim, dtype=out_dtype, out=out,
               workers=workers, bank_method=bank_method, tol=tol,
               sigmas=[float(s) for s, _ in scales])
    if single_state:
        run["single_state"] = True
    return eng, arr, plans, run


def _scaled_plan(plan: Any, factor: float) -> Any:
    """``plan`` with its output multiplied by ``factor`` (a new plan: the selectors' are shared)."""
    if isinstance(plan, SFTPlan):
        return dataclasses.replace(plan, coef=plan.coef * factor)
    if isinstance(plan, FIRPlan):
        return dataclasses.replace(plan, kernel=plan.kernel * factor)
    raise TypeError(f"no scaled form of {type(plan).__name__}")


def scaled_cwt(x: Any, freqs: np.ndarray, fs: float, *, xi: Any, output: str, factors: np.ndarray,
               decim: int = 1, tol: float | None = None, workers: int | None = None,
               single_state: bool = False) -> Any:
    """``cwt(x, freqs, fs, xi=xi, mode='constant', output=output)``, float64, row ``i`` times ``factors[i]``.

    The helper of :mod:`sftwave.mne` (not public API): each row's factor
    (positive) is folded into its plan's output weights, so that no pass over
    the result scales it ('power' is then times ``factors ** 2``, 'phase'
    unchanged).  ``single_state``: the CPU engine runs the recursions as for
    single-precision output (float32 where ``tol`` allows it), the result
    staying float64 or complex128.

    See Also
    --------
    cwt : The transform itself.
    epoch_sums : Sums over the epochs of its power and phasors.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(300)
    >>> y = scaled_cwt(x, np.array([10.0, 20.0]), 100.0, xi=5.0, output="complex",
    ...                factors=np.array([2.0, 3.0]))
    >>> ref = windowed_cwt(x, [10.0, 20.0], 100.0, xi=5.0, mode="constant") * np.array([[2.0], [3.0]])
    >>> bool(np.allclose(y, ref, rtol=1e-12, atol=1e-12))
    True
    """
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    factors = np.asarray(factors, dtype=np.float64)
    if factors.shape != f.shape or not np.all(factors > 0):
        raise ValueError(f"factors must be positive, one per frequency; got {factors!r}")
    scales_of = _frequency_scales(f, fs)
    return _scalogram(x, scales_of, xi=xi, axis=-1, mode="constant", cval=0.0, output=output, tol=tol,
                      dtype=np.complex128 if output == "complex" else np.float64, method="auto",
                      transform="auto", bank_method="auto", decim=decim, out=None, workers=workers,
                      nan_policy="propagate", min_weight=0.5, engine="numba",
                      factors=None if output == "phase" else factors,
                      single_state=single_state)


#: The sums of :func:`epoch_sums`, by the engine's kind: ``|y|^2``, ``y / |y|`` or both.
EPOCH_SUMS = ("sum_power", "sum_unit", "sum_power_unit")


def epoch_sums(x: np.ndarray, freqs: np.ndarray, fs: float, *, xi: Any, kind: str, decim: int = 1,
               tol: float | None = None, workers: int | None = None,
               single_state: bool = False) -> np.ndarray | None:
    """Sums over the epochs (``x``'s first axis) of the power or unit phasor of ``cwt(x, mode='constant')``.

    The helper of :mod:`sftwave.mne`'s averaged outputs (not public API): the
    CPU engine adds them as it computes (:func:`sftwave.engines.numba.scalogram.epoch_sums`),
    never holding the coefficients of all epochs.

    Parameters
    ----------
    x : ndarray, shape (epochs, ..., n)
        Real epochs, time last.
    freqs, fs, xi, decim, tol, workers
        As :func:`cwt` (``mode='constant'``, ``cval=0``, float64).
    single_state : bool
        The recursions of single-precision output (:func:`scaled_cwt`).
    kind : {'sum_power', 'sum_unit', 'sum_power_unit'}
        ``sum |y|^2`` (float64), ``sum y / |y|`` (complex128, NaN where ``y``
        is 0), or both (float64 with a last axis of 3: power, real and
        imaginary phasor).

    Returns
    -------
    ndarray or None
        Shape ``x.shape[1:-1] + (len(freqs), ceil(n / decim))`` (and 3 for
        both); None where ``x`` holds a non-finite value (the caller then
        computes the coefficients, whose NaN rule is :func:`cwt`'s) or the
        CPU engine cannot take the sums.

    See Also
    --------
    cwt : The coefficients themselves.
    sftwave.mne.tfr_array_morlet : Its averaged outputs are these sums.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((5, 2, 400))
    >>> s = epoch_sums(x, np.array([10.0, 20.0]), 100.0, xi=5.0, kind="sum_power")
    >>> y = windowed_cwt(x, [10.0, 20.0], 100.0, xi=5.0, mode="constant", dtype=np.complex128)
    >>> bool(np.allclose(s, (np.abs(y) ** 2).sum(axis=0), rtol=1e-12, atol=0))
    True
    """
    kind = check_choice(kind, EPOCH_SUMS, "kind")
    if not engines.CAPABILITIES["numba"].epoch_sums or x.dtype.kind == "c" or x.ndim < 2:
        return None
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    scales_of = _frequency_scales(f, fs)
    eng, arr, plans, run = _plan_scalogram(   # the sums are the lane kernel's: windowed plans
        x, scales_of, xi=xi, axis=-1, mode="constant", cval=0.0, output="power", tol=tol,
        dtype=np.float64, method="auto", transform="auto", bank_method="auto", decim=decim,
        out=None, workers=workers, engine="numba", single_state=single_state, windowed=True)
    finite, top = eng.magnitude(arr)
    if not finite:
        return None
    # the work at a magnitude near 1 (times a power of two: exact): no power overflows or
    # underflows, whatever the data's unit
    k = -math.frexp(top)[1] if top > 0 else 0
    work = np.ldexp(arr, k) if k else arr
    sums = eng.scalogram(work, plans, axis=-1, mode="constant", cval=0.0, kind=kind,
                         decim=run["decim"], dtype=np.float64, out=None, workers=run["workers"],
                         bank_method=run["bank_method"], tol=run["tol"],
                         single_state=single_state)
    if k and kind == "sum_power":
        sums = np.ldexp(sums, -2 * k)
    elif k and kind == "sum_power_unit":
        sums[..., 0] = np.ldexp(sums[..., 0], -2 * k)
    return sums


@docfiller
def morlet_transform(
    x: ArrayLike,
    sigma: float,
    *,
    xi: float = 6.0,
    axis: int = -1,
    mode: str = "reflect",
    cval: float | complex = 0.0,
    output: str = "complex",
    tol: float | None = None,
    dtype: DTypeLike | None = None,
    method: str = "auto",
    transform: str = "auto",
    bank_method: str = "auto",
    decim: int = 1,
    out: np.ndarray | None = None,
    workers: int | None = None,
    nan_policy: str = "propagate",
    min_weight: float = 0.5,
    engine: str | None = None,
) -> Array:
    """The Morlet wavelet transform of ``x`` at one scale of ``sigma`` samples.

    :func:`cwt` at one scale, given in samples instead of a frequency, with
    the wavelet's axis kept in place: the same checks, defaults, ``output``
    kinds, ``decim`` and ``out``, computed by the same code.  With
    ``sigma = frequency_to_scale(f, fs, xi)`` the result is
    ``cwt(x, [f], fs, xi=xi, ...)[..., 0, :]`` moved back to ``axis``, bit for
    bit (the same plan on the same lines).  A row of :func:`cwt` at many
    frequencies is the same bits where ``bank_method`` is given; with
    ``'auto'``, which chooses by the number of lines times scales, it may run
    another bank method: the same to rounding in double precision, to the
    float32 recursions' error (see Notes of :func:`cwt`) in single.

    Parameters
    ----------
    x : array_like
        Real or complex input; complex input is transformed as real and
        imaginary parts (``T(re) + 1j T(im)``).
    sigma : float
        Scale of the wavelet in samples (its Gaussian's standard deviation);
        its centre frequency ``xi / sigma`` must not exceed pi, and a wavelet
        far wider than the signal is refused as in :func:`cwt`: ``sigma`` at
        most ``max(8 n, 16384)`` samples on ``n`` samples.
    %(xi)s
    axis : int, optional
        The axis of ``x`` to transform.  Default -1.
    %(mode)s
    %(cval)s
    output : {'complex', 'power', 'abs', 'phase'}, optional
        The kind of result, as in :func:`cwt` (MNE's meaning of ``output``,
        not scipy.ndimage's array or dtype: that is ``out`` and ``dtype``
        here): the coefficients, their squared modulus, modulus, or angle.
        Default 'complex'.
    %(morlet_tol)s
    %(scalogram_dtype)s
    %(morlet_method)s
    %(transform)s
    %(bank_method)s
    decim : int, optional
        Keep every ``decim``-th sample along ``axis`` (``[::decim]``, as
        :func:`cwt` and MNE's ``decim``): ``ceil(n / decim)`` samples.
        Default 1.
    out : ndarray, optional
        A C-contiguous array of the output's shape and dtype to write into (and
        return), as numpy's ``out=``, checked as :func:`cwt` checks its own
        (shape, dtype, C order, writeable); its dtype is the output's where
        ``dtype`` is not given.  It may overlap ``x``: the input is then read
        from a copy.  Where ``out`` with ``axis`` moved last is still C-ordered
        (``axis`` the last axis, or only axes of length 1 after it) the
        transform writes straight into it; otherwise the result is computed
        apart and copied into it once.
    %(workers)s
    %(cwt_nan_policy)s
    %(engine)s

    Returns
    -------
    ndarray
        The shape of ``x``, with ``ceil(n / decim)`` samples along ``axis``:
        complex for ``output='complex'``, real otherwise, of ``dtype`` (or
        its default); ``out`` itself where given.

    Raises
    ------
    ValueError, TypeError
        For a bad argument, naming it and echoing its value, with the words of
        :func:`cwt` (``output``, ``decim``, ``out``, ``dtype`` included).

    See Also
    --------
    cwt : The same transform at many frequencies, one row per frequency.
    frequency_to_scale : The ``sigma`` of a frequency.
    scale_to_frequency : The frequency of a ``sigma``.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(4000)
    >>> x = np.cos(2 * np.pi * t / 100.0)          # period 100 samples
    >>> sigma = 6.0 * 100.0 / (2 * np.pi)          # the scale centred on it
    >>> y = morlet_transform(x, sigma)
    >>> bool(np.std(np.abs(y[1000:3000])) < 1e-3 * np.mean(np.abs(y[1000:3000])))
    True

    The power, every 4th sample, written into a buffer: the row of
    :func:`cwt` at the frequency of that scale.

    >>> sigma = float(frequency_to_scale(0.01))    # 0.01 cycles per sample
    >>> buf = np.empty(1000)
    >>> morlet_transform(x, sigma, output="power", decim=4, out=buf) is buf
    True
    >>> bool(np.array_equal(buf, cwt(x, [0.01], output="power", decim=4)[0]))
    True
    """
    sigma = check_sigma(sigma)

    def scales_of(xi: Any) -> list[tuple[float, float]]:
        xi = float(check_xi(check_positive(xi, "xi"), 1)[0])    # one number, in range
        check_below_nyquist(sigma, xi)
        return [(sigma, xi)]

    scales_of.describe = lambda i: f"sigma={sigma!r}"  # type: ignore[attr-defined]

    return _scalogram(x, scales_of, in_place=True, xi=xi, axis=axis, mode=mode, cval=cval,
                      output=output, tol=tol, dtype=dtype, method=method, transform=transform,
                      bank_method=bank_method, decim=decim, out=out, workers=workers,
                      nan_policy=nan_policy, min_weight=min_weight, engine=engine)


@docfiller
def cwt(
    x: ArrayLike,
    freqs: ArrayLike,
    fs: float = 1.0,
    *,
    wavelet: str | WaveletFamily = "morlet",
    xi: float | ArrayLike = 6.0,
    axis: int = -1,
    mode: str = "reflect",
    cval: float | complex = 0.0,
    output: str = "complex",
    tol: float | None = None,
    dtype: DTypeLike | None = None,
    method: str = "auto",
    transform: str = "auto",
    bank_method: str = "auto",
    decim: int = 1,
    out: np.ndarray | None = None,
    workers: int | None = None,
    nan_policy: str = "propagate",
    min_weight: float = 0.5,
    engine: str | None = None,
) -> Array:
    """Continuous wavelet transform at the given frequencies (a scalogram): Morlet, or DOG.

    Parameters
    ----------
    x : array_like
        The signal(s): any number of leading channel/epoch axes; ``axis`` is time.
    freqs : float or sequence of float
        Frequencies, in the unit of ``fs``, each in ``(0, fs/2]``.  The scale
        of frequency ``f`` is ``sigma = xi * fs / (2 pi f)`` samples.
    fs : float, optional
        Sampling rate (default 1: ``freqs`` in cycles per sample).
    wavelet : str, optional
        ``'morlet'`` (default), or Torrence & Compo's derivative-of-Gaussian
        wavelet of order ``m``, ``'dog1'`` to ``'dog8'`` (pycwt's ``DOG(m)``;
        ``'mexh'``, PyWavelets' name of the Mexican hat, is ``'dog2'``):
        ``psi_0(eta) = (-1)^(m+1) Gamma(m + 1/2)^(-1/2) d^m/deta^m exp(-eta^2/2)``,
        of unit energy, at the scale ``s = sqrt(m + 1/2) / (2 pi f)`` (time
        units) whose Fourier period is ``1 / f``; the coefficient is T&C's
        eq. 2, ``W[n] = sigma^(-1/2) sum_k x[n + k] psi_0(k / sigma)`` with
        ``sigma = s fs`` samples, computed by the Gaussian derivative filters'
        plans (cost per sample independent of the scale;
        ``sftwave.plans.dog``).  The coefficients are real: ``output``
        'complex' (default) and 'real' give them as a real array, 'power' and
        'abs' their square and modulus, 'phase' is refused; ``xi`` does not
        apply (a value other than its default is refused), nor do ``method``
        'direct', 'multiply' and 'fft'; ``tol`` is the kernel's relative RMSE
        against the sampled wavelet (as the Gaussian filters'); the CPU engine
        only.  pycwt's odd
        orders are the negatives of T&C's formula (their even orders, 2 and
        6 of T&C's Table 2, are the same); :func:`sftwave.analysis.fourier_factor`
        and its neighbours take the same ``wavelet``.
    xi : float or sequence of float, optional
        Radians per standard deviation of the wavelet (default 6): the number MNE
        calls ``n_cycles``, each in ``[0.01, 300]`` (the designs' range).  One
        value for all frequencies, or one per frequency (MNE's
        ``n_cycles = freqs / 2`` idiom); each row then equals the transform at
        that frequency with its own scalar ``xi``.
    axis : int, optional
        The time axis of ``x``.  Default -1.
    %(mode)s
    %(cval)s
    output : {'complex', 'power', 'abs', 'phase'}, optional
        The kind of result (MNE's meaning of ``output``, not scipy.ndimage's
        array or dtype: that is ``out`` and ``dtype`` here): the coefficients,
        their squared modulus, modulus, or angle.  Default 'complex'.
    %(morlet_tol)s
    %(scalogram_dtype)s
    %(morlet_method)s
    %(transform)s
    %(bank_method)s
    decim : int, optional
        Keep every ``decim``-th sample (``[::decim]``, as MNE's ``decim``):
        the output has ``ceil(n / decim)`` samples per row and the work of
        combining the components is done only for those.  Default 1.
    out : ndarray, optional
        A C-contiguous array of the output's shape and dtype to write into (and
        return), as numpy's ``out=``: no allocation per call.  It may overlap
        ``x`` (``x`` a row of it): the input is then read from a copy.
    %(workers)s
    %(cwt_nan_policy)s
    %(engine)s

    Returns
    -------
    ndarray
        Shape ``x.shape`` without ``axis``, then ``(len(freqs), ceil(n / decim))``.

    Raises
    ------
    ValueError
        For a bad argument, naming it; and where at least one of the wavelets
        is far longer than the signal (as MNE refuses it): a scale
        ``sigma = xi fs / (2 pi f)`` beyond ``max(8 n, 16384)`` samples on ``n``
        samples (``sftwave.plans.select.max_kernel_sigma``), so that a call
        costs at most some tens of times its signal whatever ``freqs``.  A
        frequency given in Hz with ``fs`` left at 1 is the usual cause; to
        transform anyway, raise the frequency, lower ``xi`` (MNE's
        ``n_cycles``) or pass a longer (padded) signal.  A wavelet somewhat
        longer than the signal (scales up to eight signal lengths) is computed.

    See Also
    --------
    morlet_transform : One scale, given in samples, with ``axis`` kept in place.
    frequency_to_scale : The scale ``sigma`` of each frequency.
    icwt : The signal back from its coefficients.
    sftwave.plot.scalogram : Draw the result.
    sftwave.mne.tfr_array_morlet : MNE's function, with MNE's conventions.
    sftwave.stream.CWT : The same transform on a signal as it arrives.
    sftwave.dask.cwt : The lazy transform of dask arrays.
    sftwave.xarray.cwt : The transform of a DataArray, by dimension name.
    sftwave.analysis.frequencies_for_periods : Frequencies for Fourier periods.

    Notes
    -----
    With single-precision output (float32 input, or ``dtype=complex64``) and
    ``tol >= 1e-4`` (the default), the CPU engine runs the recursions in
    float32 arithmetic with the ASFT, whose decay keeps float32 state bounded;
    float32 adds at most about 5e-5 to a row's relative error.  Otherwise they
    run in float64 (and with the SFT, unless ``transform='asft'``).

    Examples
    --------
    >>> import numpy as np
    >>> fs = 1000.0
    >>> t = np.arange(2000) / fs
    >>> x = np.sin(2 * np.pi * 40 * t)
    >>> power = cwt(x, [10.0, 40.0, 160.0], fs, output="power")
    >>> power.shape, int(np.argmax(power[:, 1000]))
    ((3, 2000), 1)
    >>> freqs = np.array([10.0, 40.0])
    >>> cwt(x, freqs, fs, xi=freqs / 2).shape          # n_cycles per frequency
    (2, 2000)

    The Mexican hat (real coefficients; its power peaks at the row of
    frequency ``40 sqrt(5/4)`` for a sine of 40 Hz, as T&C's ``|psi_hat|^2``):

    >>> hat = cwt(x, [30.0, 44.7, 60.0], fs, wavelet="mexh", output="power")
    >>> hat.dtype, int(np.argmax(hat[:, 500:1500].mean(axis=1) * [30.0, 44.7, 60.0]))
    (dtype('float64'), 1)
    """
    return _cwt(x, freqs, fs, wavelet=wavelet, xi=xi, axis=axis, mode=mode, cval=cval,
                output=output, tol=tol, dtype=dtype, method=method, transform=transform,
                bank_method=bank_method, decim=decim, out=out, workers=workers,
                nan_policy=nan_policy, min_weight=min_weight, engine=engine)


def _cwt(x: Any, freqs: Any, fs: float = 1.0, *, wavelet: Any = "morlet", xi: Any = 6.0,
         windowed: bool = False, **kwargs: Any) -> Array:
    """:func:`cwt`'s work (``windowed``: as :func:`_plan_scalogram`; the other options
    :func:`cwt`'s, with its defaults)."""
    unknown = set(kwargs) - set(_CWT_DEFAULTS)
    if unknown:
        raise TypeError(f"cwt() got an unexpected keyword argument {sorted(unknown)[0]!r}")
    options = dict(_CWT_DEFAULTS, **kwargs)
    if is_dataarray(x):
        raise TypeError("cwt takes arrays; for an xarray DataArray call sftwave.xarray.cwt(x, "
                        "freqs), which keeps its coordinates and reads fs from its time axis")
    family = wavelet_family(wavelet)
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    return _scalogram(x, _family_scales(family, f, fs), xi=xi, family=family, windowed=windowed,
                      **options)


def windowed_cwt(x: ArrayLike, freqs: ArrayLike, fs: float = 1.0, **kwargs: Any) -> Array:
    """:func:`cwt` whose ``method='auto'`` chooses only plans with a window (never the FFT).

    What :mod:`sftwave.dask` (overlapping blocks, the overlap sized by the
    plans' windows: the FFT's exact wavelet reads further), :mod:`sftwave.stream`
    and the MNE helpers ask for; the same arguments as :func:`cwt`.  Not
    public API.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(300)
    >>> windowed_cwt(x, [0.05, 0.2]).shape
    (2, 300)
    """
    return _cwt(x, freqs, fs, windowed=True, **kwargs)


#: :func:`cwt`'s defaults of the options :func:`_cwt` passes on (read from its signature).
_CWT_DEFAULTS = {name: p.default for name, p in inspect.signature(cwt).parameters.items()
                 if p.kind is p.KEYWORD_ONLY and name not in ("wavelet", "xi")}
