r"""The synchrosqueezed Morlet wavelet transform, streamed over time.

Synchrosqueezing (Daubechies, Lu & Wu 2011; Thakur et al. 2013) moves each
coefficient ``W(a, t)`` of a continuous wavelet transform to the frequency
bin of its instantaneous frequency

.. math::

    \omega(a, t) = \frac{1}{2\pi}\,\mathrm{Im}\,\frac{\partial_t W(a, t)}{W(a, t)},

summing there ``W(a, t)`` times the scale step ``d ln a``: a sharpened
time-frequency picture (which ssqueezepy inverts by
``x(t) = 2/C_psi Re sum_k T(k, t)``; no inverse is offered here yet).

Conventions (ssqueezepy's ``ssq_cwt(x, 'morlet', squeezing='sum')``, so that
the two give the same numbers up to the differences below):

* The wavelet is sftwave's Morlet (:mod:`sftwave.wavelets`), which is
  ssqueezepy's ``morlet(mu=xi)`` in time, and the scale of frequency ``f`` is
  ``a = sigma = xi fs / (2 pi f)`` samples.  ssqueezepy squeezes the
  L1-normalised transform, which is sftwave's unit-energy :func:`sftwave.cwt`
  divided by ``sqrt(sigma)``; so coefficient ``W`` of scale ``sigma`` adds
  ``W / sqrt(sigma) * dlog_sigma`` to its bin, ``dlog_sigma`` the step of
  ``log sigma`` at that scale (``np.gradient``: ssqueezepy's ``log(2) / nv`` on
  a log grid of ``nv`` voices per octave).
* ``dW/dt``: where the wavelet's band is slow (``(xi + 4) / sigma`` below
  ``difference_band``, 0.5 rad/sample at the default ``tol``), the
  sixth-order centred difference of the coefficients
  (``finite_difference``, within ``tol`` relative; lower orders at the
  signal's last three samples), which costs a few operations per
  coefficient; elsewhere the transform by the wavelet's exact time
  derivative, run on the same bank components as the wavelet
  (``sftwave.plans.derivative``): the same cost per sample as the
  transform itself (``derivative='transform'``: that transform on every
  scale the bank or FIR runs).  Scales whose wavelet is long against the
  signal run by FFT where that costs less and their band is slow
  (``fft=True``).  ssqueezepy multiplies by ``i omega`` in the frequency
  domain (``difftype='trig'``).
* The bins are uniform in frequency or in its logarithm; a coefficient goes
  to the nearest bin (ssqueezepy's ``find_closest``), and is left out where
  its frequency is more than half a bin beyond the first or last bin, or not
  positive with log bins.  ssqueezepy takes ``|omega|`` and clamps
  out-of-range frequencies onto the end bins (its first and last rows then
  gather what belongs to no bin).
* ``gamma``: coefficients with ``|W| / sqrt(sigma) <= gamma`` are left out
  (ssqueezepy's threshold on its L1 coefficients).  The default is
  ``10 eps max|x|``: ssqueezepy's ``10 eps``, for a signal of unit peak, made
  independent of the signal's unit.
* Boundaries: sftwave's ``mode`` (scipy.ndimage's extensions, default
  'reflect'); ssqueezepy pads to a power of two with ``numpy.pad``'s
  'reflect' (sftwave's ``mode='mirror'``).  Columns near the ends differ.

Memory.  The transform is computed by blocks of columns: for each block, the
scales in groups, each group's transform and its derivative over the block
and its wavelets' reach on either side, reassigned into the block's columns
of the output at once (a group: 64 MB of transform and derivative, ending
after whole groups of the bank's lanes where it can).  So the working memory
is about a hundred MB beside the output (which may be an ``np.memmap``),
never scales times length; with the
default block the margins cost at most half the largest scales' own work.
Single-precision output runs the recursions in float32 state as
:func:`sftwave.cwt` does (see ``dtype``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

import numpy as np

from . import engines
from ._checks import check_freqs, check_out
from ._checks.synchrosqueeze import DERIVATIVES as _DERIVATIVES
from ._checks.synchrosqueeze import SQUEEZINGS as _SQUEEZINGS
from ._checks.synchrosqueeze import SsqRequest, check_ssq_input, squeeze_bins, ssq_request
from ._checks.wavelets import check_wavelet_lengths
from .engines import nonfinite
from .plans import DEFAULT_MORLET_TOL, FFTPlan, SFTPlan
from .plans.derivative import derivative_plan
from .plans.select import max_kernel_sigma, select_morlet_scales, wavelet_too_long
from .plans.synchrosqueeze import block_length, log_scale_steps, plan_reach, squeeze_groups
from .wavelets import frequency_to_scale

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, DTypeLike


class SsqCwtResult(NamedTuple):
    """The result of :func:`ssq_cwt` with ``return_cwt=True``: ``(ssq, cwt)``, a named tuple.

    It unpacks as the pair it was before it had names: ``T, W = ssq_cwt(...,
    return_cwt=True)``.

    Parameters
    ----------
    ssq : ndarray
        The synchrosqueezed transform, shape ``(..., len(bins), n)``.
    cwt : ndarray
        The transform that was squeezed, shape ``(..., len(freqs), n)``.

    See Also
    --------
    ssq_cwt : The function that returns it.

    Examples
    --------
    >>> import numpy as np
    >>> r = ssq_cwt(np.cos(0.3 * np.arange(256)), [0.025, 0.05, 0.1], return_cwt=True)
    >>> r._fields, r.ssq.shape, r.cwt.shape
    (('ssq', 'cwt'), (3, 256), (3, 256))
    """

    ssq: np.ndarray
    cwt: np.ndarray

__all__ = ["ssq_cwt", "squeeze_frequencies", "SsqCwtResult", "SQUEEZINGS", "DERIVATIVES"]

#: ``squeezing`` of :func:`ssq_cwt`: what a reassigned coefficient adds to its bin (ssqueezepy's names).
SQUEEZINGS = _SQUEEZINGS

#: ``derivative`` of :func:`ssq_cwt`: how ``dW/dt`` of the bank's and FIR's scales is computed.
DERIVATIVES = _DERIVATIVES

#: The engine operations :func:`ssq_cwt` runs (besides the engine's ``scalogram``).
_OPERATIONS = ("squeeze_block", "squeeze_difference_rows", "squeeze_lane_multiple")

def squeeze_frequencies(freqs: ArrayLike, ssq_freqs: Any = None) -> np.ndarray:
    """The frequencies of the rows of :func:`ssq_cwt` (the bins' centres) for these arguments.

    Parameters
    ----------
    freqs : sequence of float
        The transform's frequencies (as :func:`ssq_cwt`).
    ssq_freqs : None, 'log', 'linear' or sequence of float, optional
        As :func:`ssq_cwt`: None, ``freqs`` themselves (which must then be
        uniformly spaced, linearly or logarithmically); 'log' or 'linear',
        ``len(freqs)`` bins from the lowest to the highest of ``freqs``,
        increasing; an array, those bins in that order.

    Returns
    -------
    ndarray
        One frequency per row, float64.

    See Also
    --------
    ssq_cwt : The transform whose rows these are.

    Examples
    --------
    >>> squeeze_frequencies([0.4, 0.1, 0.2], "log").round(3).tolist()
    [0.1, 0.2, 0.4]
    """
    f = check_freqs(freqs, math.inf)
    return squeeze_bins(f, ssq_freqs)[0].copy()


def finite_difference(W: np.ndarray) -> np.ndarray:
    """``dW/dn`` along the last axis by the centred sixth-order difference (lower orders at the ends).

    ``(45 (W[n+1] - W[n-1]) - 9 (W[n+2] - W[n-2]) + (W[n+3] - W[n-3])) / 60``;
    the fourth- and second-order centred differences one and two samples
    from an end, and the second-order one-sided difference at the ends.
    For ``W = exp(i omega n)`` the centred one is ``i omega (1 - e)`` with
    ``|e| <= omega^6 / 140`` (``omega`` in radians per sample).

    Examples
    --------
    >>> W = np.exp(0.3j * np.arange(12))
    >>> bool(np.allclose(finite_difference(W)[3:-3], 0.3j * W[3:-3], rtol=6e-6, atol=0))
    True
    """
    d = np.zeros(W.shape, dtype=np.complex128)
    m = W.shape[-1]
    if m < 3:
        if m == 2:
            d[..., 0] = d[..., 1] = W[..., 1] - W[..., 0]
        return d
    d[..., 1:-1] = 0.5 * (W[..., 2:] - W[..., :-2])
    if m >= 5:
        d[..., 2:-2] = (8.0 * (W[..., 3:-1] - W[..., 1:-3]) - (W[..., 4:] - W[..., :-4])) / 12.0
    if m >= 7:
        d[..., 3:-3] = (45.0 * (W[..., 4:-2] - W[..., 2:-4]) - 9.0 * (W[..., 5:-1] - W[..., 1:-5])
                        + (W[..., 6:] - W[..., :-6])) / 60.0
    d[..., 0] = 0.5 * (-3.0 * W[..., 0] + 4.0 * W[..., 1] - W[..., 2])
    d[..., -1] = 0.5 * (3.0 * W[..., -1] - 4.0 * W[..., -2] + W[..., -3])
    return d


def difference_band(tol: float) -> float:
    """The highest frequency (radians per sample) of a wavelet's band whose sixth-order
    difference errs by at most ``tol`` relative: ``min(0.5, (140 tol)^(1/6))``."""
    return min(0.5, (140.0 * tol) ** (1.0 / 6.0))


@overload
def ssq_cwt(
    x: ArrayLike,
    freqs: ArrayLike,
    fs: float = 1.0,
    *,
    xi: float = 6.0,
    ssq_freqs: Any = None,
    squeezing: str = "sum",
    gamma: float | None = None,
    axis: int = -1,
    mode: str = "reflect",
    cval: float = 0.0,
    tol: float | None = None,
    dtype: DTypeLike | None = None,
    block: int | None = None,
    out: np.ndarray | None = None,
    return_cwt: Literal[False] = ...,
    fft: bool = True,
    derivative: str = "auto",
    workers: int | None = None,
    engine: str | None = None,
) -> np.ndarray: ...


@overload
def ssq_cwt(
    x: ArrayLike,
    freqs: ArrayLike,
    fs: float = 1.0,
    *,
    xi: float = 6.0,
    ssq_freqs: Any = None,
    squeezing: str = "sum",
    gamma: float | None = None,
    axis: int = -1,
    mode: str = "reflect",
    cval: float = 0.0,
    tol: float | None = None,
    dtype: DTypeLike | None = None,
    block: int | None = None,
    out: np.ndarray | None = None,
    return_cwt: Literal[True],
    fft: bool = True,
    derivative: str = "auto",
    workers: int | None = None,
    engine: str | None = None,
) -> SsqCwtResult: ...


def ssq_cwt(
    x: ArrayLike,
    freqs: ArrayLike,
    fs: float = 1.0,
    *,
    xi: float = 6.0,
    ssq_freqs: Any = None,
    squeezing: str = "sum",
    gamma: float | None = None,
    axis: int = -1,
    mode: str = "reflect",
    cval: float = 0.0,
    tol: float | None = None,
    dtype: DTypeLike | None = None,
    block: int | None = None,
    out: np.ndarray | None = None,
    return_cwt: bool = False,
    fft: bool = True,
    derivative: str = "auto",
    workers: int | None = None,
    engine: str | None = None,
) -> np.ndarray | SsqCwtResult:
    """Synchrosqueezed continuous Morlet wavelet transform, with bounded working memory.

    Each coefficient of ``cwt(x, freqs, fs, xi=xi)``, L1-normalised (over
    ``sqrt(sigma)``) and weighted by its scale step ``d log sigma``, is added
    to the frequency bin of its instantaneous frequency
    ``Im(dW/dt / W) fs / (2 pi)``, ``dW/dt`` the transform by the wavelet's
    exact time derivative (module docstring: the conventions, ssqueezepy's
    and where they differ).

    Parameters
    ----------
    x : array_like
        Real signal(s): any number of leading channel axes; ``axis`` is time.
        Integer and bool input is taken as float64.
    freqs : sequence of float
        The transform's frequencies (at least 2, strictly increasing or
        decreasing), in the unit of ``fs``, each in ``(0, fs/2]``.  The scale
        of ``f`` is ``sigma = xi fs / (2 pi f)`` samples.
    fs : float, optional
        Sampling rate (default 1: cycles per sample).
    xi : float, optional
        Radians per standard deviation of the wavelet (default 6; ssqueezepy's
        ``mu``, MNE's ``n_cycles``), one value in ``[0.01, 300]``.
    ssq_freqs : None, 'log', 'linear' or sequence of float, optional
        The bins (rows of the result), uniform in frequency or in its
        logarithm: None (default), ``freqs`` themselves (which must then be
        so spaced); 'log' or 'linear', ``len(freqs)`` bins from the lowest to
        the highest of ``freqs``, increasing; or an array of them, in its
        order (:func:`squeeze_frequencies` gives them).
    squeezing : {'sum', 'lebesgue'}, optional
        What a coefficient adds to its bin: 'sum' (default), its weighted
        value (the invertible transform); 'lebesgue', its weight over the
        number of scales (ssqueezepy's: a count of the phase's votes).
    gamma : float, optional
        Coefficients with ``|W| / sqrt(sigma) <= gamma`` are not reassigned
        (their phase is noise).  Default ``10 eps max|x|`` (float64 ``eps``).
    axis : int, optional
        The time axis of ``x``.  Default -1.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap', ...}, optional
        The signal's extension beyond its ends, as in :func:`sftwave.cwt`
        (default 'reflect'; 'wrap' is computed in one block).
    cval : float, optional
        The extension's value for ``mode='constant'``.  Default 0.
    tol : float, optional
        Each wavelet's kernel error, as in :func:`sftwave.cwt` (default 1e-4);
        the derivative's kernel has about the same.
    dtype : numpy dtype, optional
        Of the result: complex128 (default; complex64 for float32 input), or
        complex64.  The bins add in ``dtype``.  At complex64 with ``tol`` at
        least 1e-4 the recursions run as :func:`sftwave.cwt`'s at complex64
        (the ASFT in float32 state: each coefficient within about 5e-5 more of
        the exact one, so about 1 % of the energy near bin edges changes bins);
        otherwise in float64.
    block : int, optional
        Columns per block (default: at least 65536, and twice the widest
        wavelet's reach, at most the signal; a given ``block`` is raised to
        the widest reach): the working memory is about a hundred MB whatever
        ``block``; a smaller one only costs more margins.
    out : ndarray, optional
        A C-contiguous array of the result's shape and dtype (for example an
        ``np.memmap`` of a result too large for memory) to write into and
        return; written block by block, left to right.
    return_cwt : bool, optional
        Also return the transform itself (as :class:`SsqCwtResult` ``(ssq, cwt)``), ``cwt(x, freqs, fs, xi=xi,
        mode=mode)`` (to rounding, sftwave's unit-energy normalisation), which
        takes ``len(freqs)`` times the signal's memory.  Default False.
    fft : bool, optional
        Whether the scales whose wavelet is long against the signal may run by
        FFT where it costs less than the bank (as :func:`sftwave.cwt`'s
        ``method='auto'``; default True), provided their band is slow enough
        (``(xi + 4) / sigma`` radians per sample at most
        ``difference_band`` ``(tol)``) for their derivative to be the
        sixth-order difference of the coefficients
        (``finite_difference``, within ``tol`` relative).  False: every
        scale by its bank or FIR (slower where windows exceed the signal).
    derivative : {'auto', 'transform'}, optional
        ``dW/dt`` of the scales the bank or FIR runs: 'auto' (default), the
        sixth-order difference of the coefficients where their band is slow
        enough (as for the FFT scales; within ``tol`` relative), else the
        transform by the wavelet's exact derivative on the same bank
        components; 'transform', that transform on every such scale (twice
        the bank's work; the FFT scales still take the difference).
    workers : int, optional
        Threads (scipy.fft's convention), for this call only.
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it, as for :func:`sftwave.gaussian_filter`: None/``'auto'``
        (default), ``'numba'`` for numpy arrays and ``'xp'`` for other array
        types.  Only the CPU engine (``'numba'``) has the squeezing's
        operations; another raises :class:`sftwave.engines.UnsupportedOperation`.

    Returns
    -------
    ndarray or SsqCwtResult
        Shape ``x.shape`` without ``axis``, then ``(len(bins), n)``: row ``k``
        is the frequency ``squeeze_frequencies(freqs, ssq_freqs)[k]``.  With
        ``return_cwt=True``, an :class:`SsqCwtResult` ``(ssq, cwt)``, a named
        tuple that unpacks as ``T, W = ...`` (``cwt`` of shape
        ``(..., len(freqs), n)``); the two return types are told apart by
        ``return_cwt`` alone, and typed so (``typing.overload``).
        A column whose coefficients read a NaN or infinity of ``x`` at any scale
        (within the widest wavelet's window of it) is NaN.

    Raises
    ------
    ValueError, TypeError
        For a bad argument, naming it and echoing its value; as :func:`sftwave.cwt`
        for a wavelet far wider than the signal.

    See Also
    --------
    squeeze_frequencies : The frequencies of the rows.
    SsqCwtResult : The result with ``return_cwt=True``.
    sftwave.cwt : The transform that is squeezed.
    sftwave.dask.ssq_cwt : The same on a dask array, lazily, for records longer than memory.

    Notes
    -----
    The cost is that of :func:`sftwave.cwt` at the same frequencies, again
    for the derivative transforms of the fast bands (the slow bands' take a
    difference of a few operations per coefficient), plus one pass over the
    coefficients for the reassignment; the margins of the blocks add at most
    half the largest scales' work.

    Examples
    --------
    A linear chirp from 0.02 to 0.12 cycles per sample: its ridge follows
    the instantaneous frequency.

    >>> import numpy as np
    >>> n = 4000
    >>> t = np.arange(n)
    >>> x = np.cos(2 * np.pi * (0.02 * t + 0.05 * t**2 / (2 * n)))
    >>> freqs = np.geomspace(0.01, 0.25, 96)
    >>> T = ssq_cwt(x, freqs)
    >>> T.shape
    (96, 4000)
    >>> ridge = freqs[np.abs(T).argmax(axis=0)]
    >>> expected = 0.02 + 0.05 * t / n
    >>> bool(np.all(np.abs(ridge[200:-200] / expected[200:-200] - 1) < 0.04))
    True
    """
    req = ssq_request(x, freqs, fs=fs, xi=xi, ssq_freqs=ssq_freqs, squeezing=squeezing,
                      gamma=gamma, axis=axis, mode=mode, cval=cval, tol=tol, dtype=dtype,
                      block=block, return_cwt=return_cwt, fft=fft, derivative=derivative,
                      workers=workers, engine=engines.resolve_engine(engine, x),
                      default_tol=DEFAULT_MORLET_TOL)
    ops = {op: engines.operation(req.engine, op) for op in _OPERATIONS}   # before any work
    moved = np.moveaxis(check_ssq_input(x), req.axis, -1)
    lead, n = moved.shape[:-1], int(moved.shape[-1])
    C = math.prod(lead)
    shape = (*lead, req.bins.size, n)
    result = np.zeros(shape, req.out_dtype) if out is None else check_out(out, shape, req.out_dtype)
    sigma = frequency_to_scale(req.freqs, req.fs, req.xi)
    check_wavelet_lengths(sigma, np.full(sigma.size, req.xi), n, max_kernel_sigma(n), wavelet_too_long,
                          lambda i: f"freqs (its {float(req.freqs[i])!r} with fs={req.fs!r})")
    W_all = np.zeros((*lead, req.freqs.size, n), req.out_dtype) if req.return_cwt else None
    if n and C:
        data = np.ascontiguousarray(moved.reshape(C, n), dtype=np.float64)
        bad = ~np.isfinite(data)
        layout = _layout(req, engines.get(req.engine), sigma, data, bad,
                         ops["squeeze_lane_multiple"]())
        _squeeze(req, layout, ops, np.asarray(result).reshape(C, req.bins.size, n),
                 None if W_all is None else W_all.reshape(C, req.freqs.size, n))
    elif out is not None:
        result[...] = 0
    return SsqCwtResult(result, W_all) if W_all is not None else result


@dataclass(frozen=True, eq=False)
class _Layout:
    """What the blocks of :func:`ssq_cwt` run: the signal, its plans, the bins' arithmetic, the blocks."""

    data: np.ndarray                 # (C, n) float64, non-finite samples zeroed
    nan_cols: np.ndarray | None      # (C, n): the columns a non-finite sample reaches
    plans: list                      # one per scale: the transform's plan
    dplans: list                     # the derivative's plan, None where it is differenced
    reach: np.ndarray                # (scales, 2): samples read before and after
    scalogram: Callable[..., np.ndarray]
    bank_method: str
    work_dtype: np.dtype
    weight: np.ndarray
    gamma2: np.ndarray
    u0: float
    du: float
    block: int
    groups: list[tuple[int, int]]


def _select_plans(req: SsqRequest, eng: Any, sigma: np.ndarray, n: int, C: int
                  ) -> tuple[list, list, str, np.dtype]:
    """The transform's and the derivative's plans of every scale, the bank method, the work dtype."""
    scales = [(float(s), req.xi) for s in sigma]
    # single-precision output at a tol the float32 recursions meet: the ASFT's bounded float32
    # state, as sftwave.cwt runs it (each row within about 5e-5 more of the exact one)
    bank_method = eng.bank_method("auto", C * 2 * sigma.size)
    single = req.out_dtype == np.complex64
    transform = eng.transform("auto", single=single, complex_input=False, tol=req.tol,
                              bank_method=bank_method)
    work_dtype = np.dtype(np.complex64 if single and transform == "asft" else np.complex128)
    options = dict(transform=transform, n=n, fir_taps_per_order=eng.fir_taps_per_order(),
                   mode=req.mode)
    plans: list[Any] = list(select_morlet_scales(
        scales, req.tol, method="auto", **options,
        fft_point_cost=eng.fft_point_cost() if req.fft else None))
    # the FFT only where the sixth-order difference is as accurate as the plans: the others
    # take the bank or the FIR (and the derivative transform)
    band = difference_band(req.tol)
    slow = [i for i, p in enumerate(plans)
            if isinstance(p, FFTPlan) and (req.xi + 4.0) / sigma[i] > band]
    if slow:
        redo = select_morlet_scales([scales[i] for i in slow], req.tol, method="auto", **options)
        for i, p in zip(slow, redo):
            plans[i] = p
    # the derivative's plan on each bank or FIR plan; None where the sixth-order difference
    # serves: the FFT's scales and, with derivative='auto', every slow band
    differenced = [isinstance(p, FFTPlan)
                   or (req.derivative == "auto" and (req.xi + 4.0) / sigma[i] <= band)
                   for i, p in enumerate(plans)]
    dplans = [None if d else derivative_plan(p, float(s), req.xi)
              for p, s, d in zip(plans, sigma, differenced)]
    return plans, dplans, bank_method, work_dtype


def _layout(req: SsqRequest, eng: Any, sigma: np.ndarray, data: np.ndarray, bad: np.ndarray,
            lane_multiple: int) -> _Layout:
    """The plans, the bins' arithmetic and the blocks and groups of scales of a call."""
    C, n = data.shape
    any_bad = bool(bad.any())
    if any_bad:
        data = np.where(bad, 0.0, data)
    gamma = req.gamma
    if gamma is None:
        gamma = 10.0 * np.finfo(np.float64).eps * float(np.abs(data).max())
    plans, dplans, bank_method, work_dtype = _select_plans(req, eng, sigma, n, C)
    reach = np.array([plan_reach(p) for p in plans], dtype=np.int64)      # (scales, 2)
    dlog = log_scale_steps(sigma)
    weight = dlog / np.sqrt(sigma) if req.squeezing == "sum" else dlog / req.freqs.size
    u = np.log(req.bins) if req.log_bins else req.bins
    B = block_length(n, reach, req.mode, req.block)
    lanes = [(isinstance(p, SFTPlan)) * (1 + (d is not None)) for p, d in zip(plans, dplans)]
    groups = squeeze_groups(reach, B, C, work_dtype.itemsize, np.asarray(lanes), lane_multiple)
    nan_cols = None
    if any_bad:
        left, right = int(reach[:, 0].max()), int(reach[:, 1].max())
        nan_cols = nonfinite.reach_counts(bad.astype(np.int32), left, right, req.mode) > 0
    # |W|^2 > gamma^2 sigma: the L1 coefficient above gamma
    return _Layout(data, nan_cols, plans, dplans, reach, eng.scalogram, bank_method, work_dtype,
                   weight, gamma * gamma * sigma, float(u[0]), float(u[1] - u[0]), B, groups)


def _squeeze(req: SsqRequest, lay: _Layout, ops: dict, res3: np.ndarray,
             W3: np.ndarray | None) -> None:
    """Every block of columns: its groups of scales transformed, differentiated and squeezed."""
    n = lay.data.shape[1]
    buf: list[np.ndarray] = []       # one difference buffer for every group
    for b0 in range(0, n, lay.block):
        b1 = min(n, b0 + lay.block)
        T = res3[:, :, b0:b1]
        T[...] = 0
        for s0, s1 in lay.groups:
            rows = _group(req, lay, ops, buf, res3, b0, b1, s0, s1)
            if W3 is not None:
                W3[:, s0:s1, b0:b1] = rows
        if lay.nan_cols is not None:
            cols = lay.nan_cols[:, b0:b1]
            T[np.broadcast_to(cols[:, None, :], T.shape)] = np.nan
            if W3 is not None:
                Wc = W3[:, :, b0:b1]
                Wc[np.broadcast_to(cols[:, None, :], Wc.shape)] = np.nan


def _group(req: SsqRequest, lay: _Layout, ops: dict, buf: list, res3: np.ndarray, b0: int,
           b1: int, s0: int, s1: int) -> np.ndarray:
    """Squeeze scales ``s0:s1`` into columns ``b0:b1`` of ``res3``; return their coefficients there."""
    n = lay.data.shape[1]
    before = int(lay.reach[s0:s1, 0].max())
    after = int(lay.reach[s0:s1, 1].max())
    lo, hi = max(0, b0 - before), min(n, b1 + after)
    if lo == 0 and hi < n:          # the start's extension reads the segment
        hi = min(n, max(hi, before + 2))
    if hi == n and lo > 0:          # and the end's
        lo = max(0, min(lo, n - after - 2))
    G = s1 - s0
    C = lay.data.shape[0]
    dg = [d for d in lay.dplans[s0:s1] if d is not None]
    rows = lay.scalogram(lay.data[:, lo:hi], lay.plans[s0:s1] + dg, axis=-1, mode=req.mode,
                         cval=req.cval, kind="complex", decim=1, dtype=lay.work_dtype, out=None,
                         workers=req.workers, bank_method=lay.bank_method, tol=req.tol)
    D, d0 = rows, G
    if len(dg) < G:      # slow bands: the sixth-order difference (module docstring)
        # one buffer for every group (fresh pages cost as much as the differences)
        size = C * G * (hi - lo)
        if not buf or buf[0].size < size or buf[0].dtype != rows.dtype:
            buf[:] = [np.empty(size, dtype=rows.dtype)]
        D, d0 = buf[0][:size].reshape(C, G, hi - lo), 0
        j = G
        differenced = []
        for i in range(G):
            if lay.dplans[s0 + i] is None:
                differenced.append(i)
            else:
                D[:, i, b0 - lo:b1 - lo] = rows[:, j, b0 - lo:b1 - lo]
                j += 1
        # (the block's columns only: the margins are read, never squeezed)
        ops["squeeze_difference_rows"](rows, differenced, D, differenced, (b0 - lo, b1 - lo))
    ops["squeeze_block"](rows, D, d0, b0 - lo, b1 - b0, lay.weight[s0:s1], lay.gamma2[s0:s1],
                         req.fs / (2.0 * math.pi), lay.u0, lay.du, req.log_bins, res3, b0,
                         unit=req.squeezing == "lebesgue")
    return rows[:, :G, b0 - lo:b1 - lo]
