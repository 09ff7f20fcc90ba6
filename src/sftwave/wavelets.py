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
from ._checks import check_choice, check_freqs, check_positive
from ._checks.wavelets import (
    Array,
    CwtRequest,
    check_cwt_input,
    check_factors,
    check_keywords,
    input_precision,
    scalogram_request,
)
from ._checks.wavelets import cwt_request as checked_cwt
from ._checks.wavelets import morlet_request as checked_morlet
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

#: The rows of a call: ``scales_of(xi)`` gives ``(sigma in samples, xi)`` per row.
ScalesOf = Callable[[Any], list[tuple[float, float]]]


def _engine_input(x: Any, engine: str | None, options: dict[str, Any]) -> tuple[Any, Any, dict]:
    """The engine that runs ``x`` (what it cannot do refused first), its array, and what the
    request's builder needs to know of both (:func:`sftwave._checks.wavelets.cwt_request`)."""
    name = engines.resolve_engine(engine, x)
    engines.check_request(name, transform=options.get("transform", "auto"),
                          bank_method=options.get("bank_method", "auto"),
                          dtype=options.get("dtype"), out=options.get("out"),
                          workers=options.get("workers"))
    eng = engines.get(name)
    arr = eng.asarray(x, "x")
    return eng, arr, _facts(eng, name, eng.is_complex(arr), eng.is_single(arr))


def _facts(eng: Any, name: str, complex_input: bool, single: bool) -> dict[str, Any]:
    """What the request's builder is told of the engine ``name`` and of the input."""
    return dict(engine=name, engine_fft=getattr(eng, "fft_point_cost", lambda: None)() is not None,
                default_tol=DEFAULT_MORLET_TOL, sigma_limit=max_kernel_sigma,
                complex_input=complex_input, single=single)


def shape_request(shape: tuple[int, ...], input_dtype: DTypeLike, freqs: ArrayLike,
                  fs: float = 1.0, /, *, engine: str, wavelet: str | WaveletFamily = "morlet",
                  **options: Any) -> CwtRequest:
    """The request of :func:`cwt` on an input of ``shape`` and NumPy ``input_dtype`` that the
    resolved ``engine`` runs, without the input (:mod:`sftwave.dask`: a lazy array's call,
    checked before any block is computed).  Not public API.

    Examples
    --------
    >>> shape_request((4, 10**9), np.float32, [0.1], engine="numba", output="abs").dtype
    dtype('float32')
    """
    family = wavelet_family(wavelet)
    engines.check_request(engine, transform=options.get("transform", "auto"),
                          bank_method=options.get("bank_method", "auto"),
                          dtype=options.get("dtype"), out=options.get("out"),
                          workers=options.get("workers"))
    facts = _facts(engines.get(engine), engine, *input_precision(input_dtype))
    return checked_cwt(tuple(shape), freqs, fs, family=family, **facts, **options)


def _prepare(x: Any, rows: dict[str, Any], *, wavelet: Any = "morlet", engine: str | None = None,
             **options: Any) -> tuple[CwtRequest, Any, Any]:
    """The request of a call (:func:`cwt`'s with ``rows`` its ``freqs`` and ``fs``,
    :func:`morlet_transform`'s with ``rows`` its ``sigma``), the engine and the input as its
    array."""
    family = wavelet_family(wavelet)
    eng, arr, facts = _engine_input(x, engine, options)
    build = checked_morlet if "sigma" in rows else checked_cwt
    return build(tuple(arr.shape), **rows, family=family, **facts, **options), eng, arr


def cwt_request(x: ArrayLike, freqs: ArrayLike, fs: float = 1.0, **kwargs: Any) -> CwtRequest:
    """The checked request of ``cwt(x, freqs, fs, **kwargs)``, without computing it.

    The wavelet family and the engine resolved (the engine's capabilities
    checked), then :func:`sftwave._checks.wavelets.cwt_request`: ``x`` is read
    for its type, shape and dtype only.  A bad argument raises the
    ``ValueError`` or ``TypeError`` :func:`cwt` would raise.  Not public API
    (what a caller routing another library's call asks of sftwave's scope).

    Examples
    --------
    >>> req = cwt_request(np.zeros((2, 500)), [0.1, 0.2], output="power", decim=2)
    >>> req.out_shape, req.dtype, req.engine
    ((2, 2, 250), dtype('float64'), 'numba')
    """
    return _checked_call(x, freqs, fs, **kwargs)[0]


def _checked_call(x: Any, freqs: Any, fs: Any, *, wavelet: Any = "morlet", xi: Any = 6.0,
                  windowed: bool = False, **kwargs: Any) -> tuple[CwtRequest, Any, Any]:
    """:func:`cwt`'s checks (``windowed``: ``method='auto'`` chooses only plans with a window,
    never the FFT; the other options :func:`cwt`'s, with its defaults)."""
    check_keywords(kwargs, _CWT_DEFAULTS, "cwt")
    check_cwt_input(x, "cwt")
    return _prepare(x, dict(freqs=freqs, fs=fs), wavelet=wavelet, xi=xi, windowed=windowed,
                    **dict(_CWT_DEFAULTS, **kwargs))


def _plan(req: CwtRequest, eng: Any, *, factors: np.ndarray | None = None,
          single_state: bool = False) -> tuple[list, dict[str, Any]]:
    """One plan per row of ``req`` for engine ``eng``, and the engine's run arguments.

    The engine resolves ``bank_method`` and ``transform`` ('auto': by the
    lines times scales and the output's precision).  ``factors`` (positive,
    one per scale) multiply the plans' outputs (:func:`_scaled_plan`);
    ``single_state`` asks the CPU engine for the recursions of single-precision
    output (:func:`scaled_cwt`).  ``out`` is handed on in :func:`cwt`'s layout.
    """
    shape, axis, n = req.shape, req.axis, req.n
    lines = math.prod(d for i, d in enumerate(shape) if i != axis) if n else 0
    bank_method = eng.bank_method(req.bank_method, lines * len(req.sigmas))
    single = req.dtype in (np.complex64, np.float32) or single_state
    transform = eng.transform(req.transform, single=single, complex_input=req.complex_input,
                              tol=req.tol, bank_method=bank_method)
    fft_cost = getattr(eng, "fft_point_cost", lambda: None)()
    if req.windowed or factors is not None or single_state or not req.family.uses_fft():
        fft_cost = None       # (sftwave.mne's rows: scaled plans and the lane kernel's recursions)
    with one_blas_thread():   # set once for all the frequencies' designs
        plans = req.family.select_plans(list(req.sigmas), req.xis, req.tol, method=req.method,
                                        transform=transform, n=n,
                                        fir_taps_per_order=eng.fir_taps_per_order(),
                                        mode=req.mode, fft_point_cost=fft_cost)
    if factors is not None:
        plans = [_scaled_plan(p, float(f)) for p, f in zip(plans, factors)]
    out = req.out
    if out is not None and req.in_place:
        out = _one_row_out(out, axis)
    run = dict(axis=axis, mode=req.mode, cval=req.cval, kind=req.output, decim=req.decim,
               dtype=req.dtype, out=out, workers=req.workers, bank_method=bank_method, tol=req.tol)
    if single_state:
        run["single_state"] = True
    return plans, run


def _compute(req: CwtRequest, eng: Any, arr: Any, plans: list, run: dict[str, Any]) -> Any:
    """The engine computes the plans (non-finite samples confined, or left out), in the layout
    of ``req``."""
    axis, rows = req.axis, run["out"]
    if req.nan_policy == "omit":
        # each wavelet's Gaussian envelope, run on the CPU engine for the weights on data
        envelopes = [select_gaussian(s, 0, n=req.n) for s in req.sigmas]
        y = nonfinite.scalogram_omit(eng, arr, plans, envelopes, min_weight=req.min_weight, **run)
    else:
        y = nonfinite.scalogram_confined(eng, arr, plans, **run)
    if not req.in_place:
        return y
    row = y[..., 0, :]                  # the one scale's row, moved back to ``axis``
    if req.out is None:
        if isinstance(row, np.ndarray):
            return np.moveaxis(row, -1, axis)
        from array_api_compat import array_namespace

        return array_namespace(row).moveaxis(row, -1, axis)
    if rows is None or y is not rows:   # computed apart (see _one_row_out): copied in once
        np.moveaxis(req.out, axis, -1)[...] = row
    return req.out


def _transform(req: CwtRequest, eng: Any, arr: Any) -> Any:
    """The transform a request asks for."""
    plans, run = _plan(req, eng)
    return _compute(req, eng, arr, plans, run)


def _one_row_out(out: np.ndarray, axis: int) -> np.ndarray | None:
    """``out`` of :func:`morlet_transform` (the input's axes) as :func:`cwt`'s one-row ``out``.

    A view where it is C-contiguous (``axis`` the last, only axes of length 1
    after it, or ``axis`` of length 1): the engine writes into ``out`` itself.
    Else None: the row is computed into a new array and copied into ``out`` once.
    """
    rows = np.moveaxis(out, axis, -1)[..., None, :]
    return rows if rows.flags.c_contiguous else None


def _plan_scalogram(x: Any, scales_of: ScalesOf, *, engine: str | None = None,
                    family: WaveletFamily = _MORLET, factors: np.ndarray | None = None,
                    single_state: bool = False, **options: Any) -> tuple[Any, Any, list, dict]:
    """``(engine, array, plans, run arguments)`` of the rows ``scales_of(xi)`` (a list of
    ``(sigma in samples, xi)``) with :func:`cwt`'s other options (``in_place``: the layout of
    :func:`morlet_transform`; ``windowed``: no FFT under ``method='auto'``)."""
    eng, arr, facts = _engine_input(x, engine, options)
    req = scalogram_request(tuple(arr.shape), scales_of, family=family, **facts, **options)
    plans, run = _plan(req, eng, factors=factors, single_state=single_state)
    return eng, arr, plans, run


#: Scaled plans made so far, by the plan's identity and the factor (each entry holds its plan,
#: so the identity stays its own): a repeated call gets the same scaled plan object, whose
#: tables (its poles, window sums) are then computed once.  At most ``_SCALED_SIZE`` entries.
_SCALED: dict[tuple[int, float], tuple[Any, Any]] = {}
_SCALED_SIZE = 4096


def _scaled_plan(plan: Any, factor: float) -> Any:
    """``plan`` with its output multiplied by ``factor`` (a new plan: the selectors' are shared)."""
    key = (id(plan), factor)
    hit = _SCALED.get(key)
    if hit is not None and hit[0] is plan:
        return hit[1]
    scaled: Any
    if isinstance(plan, SFTPlan):
        scaled = dataclasses.replace(plan, coef=plan.coef * factor)
    elif isinstance(plan, FIRPlan):
        scaled = dataclasses.replace(plan, kernel=plan.kernel * factor)
    else:
        raise TypeError(f"no scaled form of {type(plan).__name__}")
    if len(_SCALED) >= _SCALED_SIZE:
        _SCALED.clear()
    _SCALED[key] = (plan, scaled)
    return scaled


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
    factors = check_factors(factors, check_freqs(freqs, fs))
    req, eng, arr = _prepare(x, dict(freqs=freqs, fs=fs), xi=xi, mode="constant", output=output,
                             tol=tol, dtype=np.complex128 if output == "complex" else np.float64,
                             decim=decim, workers=workers, engine="numba")
    plans, run = _plan(req, eng, factors=None if output == "phase" else factors,
                       single_state=single_state)
    return _compute(req, eng, arr, plans, run)


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
    req, eng, arr = _prepare(   # the sums are the lane kernel's: windowed plans
        x, dict(freqs=freqs, fs=fs), xi=xi, mode="constant", output="power", tol=tol,
        dtype=np.float64, decim=decim, workers=workers, engine="numba", windowed=True)
    plans, run = _plan(req, eng, single_state=single_state)
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
    req, eng, arr = _prepare(x, dict(sigma=sigma), xi=xi, axis=axis, mode=mode, cval=cval,
                             output=output, tol=tol, dtype=dtype, method=method,
                             transform=transform, bank_method=bank_method, decim=decim, out=out,
                             workers=workers, nan_policy=nan_policy, min_weight=min_weight,
                             engine=engine)
    return _transform(req, eng, arr)


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


def _cwt(x: Any, freqs: Any, fs: Any = 1.0, **kwargs: Any) -> Array:
    """:func:`cwt`'s work (the arguments of :func:`_checked_call`); a small call's request,
    engine and plans kept under its arguments (:data:`_CWT_MEMO`)."""
    key = _cwt_key(x, freqs, fs, kwargs)
    kept = None if key is None else _CWT_MEMO.get(key)
    if kept is not None:
        req, eng, plans, run, prepared = kept
        if prepared is not None:
            y = prepared(x)
            if y is not None:
                return y
        return _compute(req, eng, eng.asarray(x, "x"), plans, run)
    req, eng, arr = _checked_call(x, freqs, fs, **kwargs)
    plans, run = _plan(req, eng)
    if key is not None:
        if len(_CWT_MEMO) >= _CWT_MEMO_SIZE:
            _CWT_MEMO.clear()
        _CWT_MEMO[key] = (req, eng, plans, run, _prepared(req, eng, arr, plans, run))
    return _compute(req, eng, arr, plans, run)


def _prepared(req: CwtRequest, eng: Any, arr: Any, plans: list,
              run: dict[str, Any]) -> Callable[[Any], Any] | None:
    """A small call's engine-prepared transform (the engine's ``scalogram_prepared``) behind
    the non-finite screen, or None where the engine prepares none for these plans or the
    request asks for more than the transform (``nan_policy='omit'``, one row in place).

    The returned ``compute(x)`` is None for input that needs the whole path (non-finite
    samples, a scaling by a power of two:
    :func:`sftwave.engines.nonfinite.as_is_scalogram_screen`), else exactly
    :func:`_compute`'s result."""
    if (req.nan_policy == "omit" or req.in_place
            or "scalogram_prepared" not in engines.operations(req.engine)):
        return None
    transform = engines.operation(req.engine, "scalogram_prepared")(arr, plans, **run)
    if transform is None:
        return None
    screen = nonfinite.as_is_scalogram_screen(eng, run["mode"], run["cval"], arr.dtype)

    def compute(x: Any) -> Any:
        return transform(x) if screen(x) else None

    return compute


#: Small calls' requests: for a :func:`cwt` of a NumPy input of at most ``_CWT_MEMO_SAMPLES``
#: samples without ``out``, its checked request, engine, plans and run arguments, by every
#: argument with its type (arrays by their dtype, shape and bytes) and the input's shape and
#: dtype, with the engine's prepared transform where it offers one (:func:`_prepared`).  They
#: depend on nothing else (the plans on the arguments alone), so a repeated call skips the
#: checks and the planning and computes at once.  At most ``_CWT_MEMO_SIZE``.
_CWT_MEMO: dict[tuple, tuple[CwtRequest, Any, list, dict[str, Any], Any]] = {}
_CWT_MEMO_SIZE = 256
_CWT_MEMO_SAMPLES = 1 << 15


def _arg_key(v: Any) -> Any:
    """A hashable stand-in for an argument: an array by its dtype, shape and bytes."""
    if type(v) is np.ndarray:
        return (np.ndarray, v.dtype.str, v.shape, v.tobytes())
    return (type(v), v)


def _cwt_key(x: Any, freqs: Any, fs: Any, kwargs: dict[str, Any]) -> tuple | None:
    """The memo's key of a :func:`cwt` call, or None where it cannot be one."""
    if (type(x) is not np.ndarray or x.size > _CWT_MEMO_SAMPLES or kwargs.get("out") is not None
            or (type(freqs) is np.ndarray and freqs.size > _CWT_MEMO_SAMPLES)):
        return None
    # the names in the caller's order (each caller passes its own in one order) and the values
    key = (x.shape, x.dtype.str, _arg_key(freqs), _arg_key(fs), tuple(kwargs),
           tuple(map(_arg_key, kwargs.values())))
    try:
        hash(key)
    except TypeError:       # a list, another array-like: checked on the whole path every time
        return None
    return key


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


#: :func:`cwt`'s defaults of the options :func:`_checked_call` passes on (read from its signature).
_CWT_DEFAULTS = {name: p.default for name, p in inspect.signature(cwt).parameters.items()
                 if p.kind is p.KEYWORD_ONLY and name not in ("wavelet", "xi")}
