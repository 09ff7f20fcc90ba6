"""scipy's removed ``signal.cwt``, ``ricker`` and ``morlet2``, and a faster ``find_peaks_cwt``.

scipy 1.15 removed :func:`cwt`, :func:`ricker` and :func:`morlet2` from
``scipy.signal``; this module has them with scipy 1.14's signatures and
definitions (``from sftwave.signal import cwt, ricker, morlet2``), and
scipy's :func:`find_peaks_cwt` with its signature and peaks.

scipy's ``cwt`` convolves the data, in ``'same'`` mode with zeros outside,
with ``wavelet(N, width)`` sampled on ``N = min(10 * width, len(data))``
points: its wavelet is cut at five widths each side and at the data's length,
and its centre falls half a sample left of the output's sample when ``N`` is
even.  Here:

* With :func:`ricker` the rows are the Gaussian's second derivative (the
  DOG(2) wavelet of :func:`sftwave.cwt`) and with :func:`morlet2` the Morlet
  engine's transform, at a cost per sample independent of the width.  Rows whose
  scipy kernel has at most 64 points (widths up to 6.4) are scipy's own
  convolution, at a bounded cost; the wider rows are the *untruncated*
  sampled wavelet on scipy's own sample grid (the
  half-sample offset kept, by transforming the data interleaved with zeros at
  twice the width), to the kernel error ``tol``.  They differ from scipy's by
  the tails scipy cuts off: about 1e-4 of a Ricker row's largest value where
  the wavelet is cut at five widths, more where the data's length cuts it
  (the guide's page :doc:`/guide/scipy_signal` has the measured figures).
  ``truncated=True`` runs scipy's own convolution and gives scipy's numbers.
* With any other callable the rows are scipy's convolution (scipy's algorithm
  and cost).
* :func:`find_peaks_cwt` runs scipy's ridge-line algorithm on that matrix,
  the ridge lines followed in one serial compiled pass (the CPU engine's
  ``ridge_line_peaks``) and the noise computed only where a line long enough
  ends; its peaks on scipy's test signals are scipy's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from . import engines
from ._checks.signal import (
    SignalCwtRequest,
    check_signal_data,
    check_wavelet_length,
    check_wavelet_width,
    peaks_cwt_request,
    signal_cwt_request,
)
from .ndimage import gaussian_filter1d
from .plans.gaussian import gaussian_norm
from .plans.morlet import morlet_constants
from .wavelets import cwt as _sft_cwt

__all__ = ["cwt", "ricker", "morlet2", "find_peaks_cwt"]

#: The kernel error (relative RMSE against the sampled wavelet) of the fast rows by default.
DEFAULT_TOL = 1e-8

# The DOG(2) and Morlet transforms take scales of at least about half a sample
# (a frequency at most fs/2); narrower rows are computed directly.
_MIN_SIGMA = 0.51
# Rows whose kernel scipy cuts to at most this many points are scipy's convolution.
_SHORT = 64
# A row computed directly samples its untruncated wavelet this many widths each side.
_SUPPORT = 14.0
_SQRT_GAMMA_5_2 = math.sqrt(math.gamma(2.5))


def ricker(points: float, a: float) -> np.ndarray:
    """The Ricker ("Mexican hat") wavelet of scipy 1.14's ``scipy.signal.ricker``.

    ``A * (1 - (x/a)**2) * exp(-0.5*(x/a)**2)`` with ``A = 2/(sqrt(3*a)*pi**0.25)``,
    on ``x = arange(points) - (points - 1)/2``, computed as scipy computed it
    (the same numbers).

    Parameters
    ----------
    points : int
        Number of points of the vector, centred on 0 (scipy's ``np.arange``
        rule: a float is taken as its ceiling).
    a : float
        Width of the wavelet, in samples (positive).

    Returns
    -------
    ndarray
        The ``(points,)`` wavelet.

    See Also
    --------
    cwt : Its transform, at a cost independent of ``a``.
    morlet2 : The complex Morlet wavelet.

    Examples
    --------
    >>> import numpy as np
    >>> w = ricker(100, 4.0)
    >>> len(w), int(np.argmax(w)) in (49, 50)
    (100, True)
    """
    check_wavelet_length(points)
    check_wavelet_width(a)
    A = 2 / (np.sqrt(3 * a) * (np.pi**0.25))
    wsq = a**2
    vec = np.arange(0, points) - (points - 1.0) / 2
    xsq = vec**2
    mod = (1 - xsq / wsq)
    gauss = np.exp(-xsq / (2 * wsq))
    return A * mod * gauss


def morlet2(M: float, s: float, w: float = 5) -> np.ndarray:
    """The complex Morlet wavelet of scipy 1.14's ``scipy.signal.morlet2``.

    ``exp(1j*w*x/s) * exp(-0.5*(x/s)**2) * pi**(-0.25) * sqrt(1/s)`` on
    ``x = arange(M) - (M - 1)/2``, computed as scipy computed it.  Its centre
    frequency is ``f = w*fs / (2*pi*s)``: the width of frequency ``f`` is
    ``s = w*fs / (2*pi*f)``.

    Parameters
    ----------
    M : int
        Length of the wavelet.
    s : float
        Width of the wavelet, in samples (positive): the standard deviation of
        its Gaussian envelope.
    w : float, optional
        Omega0, the radians per ``s`` (sftwave's ``xi``).  Default 5.

    Returns
    -------
    ndarray
        The ``(M,)`` complex wavelet.

    See Also
    --------
    cwt : Its transform, by sftwave's Morlet engine.
    ricker : The Mexican hat.
    sftwave.cwt : sftwave's own Morlet transform (``sigma = s``, ``xi = w``).

    Examples
    --------
    >>> import numpy as np
    >>> w = morlet2(101, 4.0, w=6.0)
    >>> w.dtype, int(np.argmax(abs(w)))
    (dtype('complex128'), 50)
    """
    check_wavelet_length(M, "M")
    check_wavelet_width(s, "s")
    x = np.arange(0, M) - (M - 1.0) / 2
    x = x / s
    wavelet = np.exp(1j * w * x) * np.exp(-0.5 * x**2) * np.pi**(-0.25)
    return np.sqrt(1 / s) * wavelet


def _grid_offset(width: Any, n: int) -> float:
    """Where scipy's kernel centres row ``width``: the output sample plus this offset."""
    N = float(min(10 * width, n))          # scipy's np.min([10 * width, n]), as a float
    L = max(0, math.ceil(N))
    return (L - 1) // 2 - (N - 1.0) / 2


def _wavelet_at(wavelet: Callable, u: np.ndarray, width: float, kwargs: dict) -> np.ndarray:
    """The (untruncated) wavelet ``ricker`` or ``morlet2`` at the offsets ``u``."""
    if wavelet is ricker:
        A = 2 / (np.sqrt(3 * width) * (np.pi**0.25))
        return A * (1 - u**2 / width**2) * np.exp(-u**2 / (2 * width**2))
    x = u / width
    w = kwargs.get("w", 5)
    return np.sqrt(1 / width) * np.exp(1j * w * x) * np.exp(-0.5 * x**2) * np.pi**(-0.25)


def _direct_row(data: np.ndarray, wavelet: Callable, width: float, offset: float,
                kwargs: dict) -> np.ndarray:
    """``sum_m data[m] conj(psi(m - i - offset))``: the untruncated wavelet, sampled."""
    from scipy.signal import convolve

    n = data.shape[0]
    R = int(min(math.ceil(_SUPPORT * width) + 1, n))
    g = np.conj(_wavelet_at(wavelet, np.arange(-R, R + 1) - offset, width, kwargs))
    return convolve(data, g[::-1], mode="same")


def _scipy_rows(data: np.ndarray, req: SignalCwtRequest, out: np.ndarray) -> None:
    """scipy's ``cwt`` loop: the wavelet cut at ``min(10 width, n)`` points."""
    from scipy.signal import convolve

    for ind, width in enumerate(req.widths):
        N = np.min([10 * width, req.n])
        wavelet_data = np.conj(req.wavelet(N, width, **req.kwargs)[::-1])
        out[ind] = convolve(data, wavelet_data, mode="same")


def _fast_wavelet(req: SignalCwtRequest) -> bool:
    """Whether the rows of ``req`` can run on sftwave's transforms."""
    if req.wavelet is ricker:
        return not req.kwargs
    if req.wavelet is morlet2 and set(req.kwargs) <= {"w"}:
        w = req.kwargs.get("w", 5)
        return isinstance(w, (int, float, np.number)) and 0.01 <= float(w) <= 300
    return False


def _interleaved(data: np.ndarray, half: float) -> tuple[np.ndarray, int]:
    """The data, or it between zeros, so that the centres ``i + half`` are the kept samples."""
    if half == 0:
        return data, 0
    y = np.zeros(2 * data.shape[0] + 2, dtype=data.dtype)
    y[1:2 * data.shape[0]:2] = data
    return y, 0 if half < 0 else 1


def _ricker_rows(data: np.ndarray, req: SignalCwtRequest, rows: list[int], half: float,
                 lead: int = 0) -> tuple[np.ndarray, int, np.ndarray]:
    """Rows ``rows`` of the Ricker :func:`cwt` centred on ``i + half`` (0 or +-1/2), unscaled.

    ``(W, first, scale)``: the rows are ``scale[:, None] * W[lead:, first:first + n]``;
    with ``lead`` (float64 data only) ``W``'s first ``lead`` rows are left
    for the caller to fill.
    """
    y, first = _interleaved(data, half)
    up = 1 if half == 0 else 2
    widths = np.asarray([float(req.widths[r]) for r in rows])
    sig = up * widths
    tol = DEFAULT_TOL if req.tol is None else req.tol
    freqs = math.sqrt(2.5) / (2 * math.pi * sig)
    if lead:
        W = np.empty((lead + len(rows), -(-y.shape[0] // up)))
        _sft_cwt(y, freqs, wavelet="dog2", mode="constant", tol=tol, decim=up, out=W[lead:])
    else:
        W = np.asarray(_sft_cwt(y, freqs, wavelet="dog2", mode="constant", tol=tol, decim=up))
    A = 2 / (np.sqrt(3 * widths) * np.pi**0.25)
    return W, first, A * _SQRT_GAMMA_5_2 * np.sqrt(sig)


def _sft_rows(data: np.ndarray, req: SignalCwtRequest, rows: list[int], half: float,
              out: np.ndarray) -> None:
    """Rows ``rows`` of :func:`cwt` centred on ``i + half`` (0 or +-1/2) by sftwave's transforms."""
    n = req.n
    if req.wavelet is ricker:
        W, first, scale = _ricker_rows(data, req, rows, half)
        if rows == list(range(out.shape[0])) and out.dtype == W.dtype:
            np.multiply(scale[:, None], W[:, first:first + n], out=out)
        else:
            out[rows] = scale[:, None] * W[:, first:first + n]
        return
    y, first = _interleaved(data, half)
    decim = up = 1 if half == 0 else 2
    widths = np.asarray([float(req.widths[r]) for r in rows])
    sig = up * widths
    tol = DEFAULT_TOL if req.tol is None else req.tol
    w = float(req.kwargs.get("w", 5))
    C, kappa = morlet_constants(w)
    W = np.asarray(_sft_cwt(y, w / (2 * math.pi * sig), xi=w, mode="constant", tol=tol,
                           decim=decim))
    rows_out = (np.sqrt(sig / widths) / C)[:, None] * W[:, first:first + n]
    if kappa > 1e-17:
        for k, (s, s_up) in enumerate(zip(widths, sig)):
            g = np.asarray(gaussian_filter1d(y, s_up, mode="constant", tol=tol))[::decim][first:first + n]
            rows_out[k] += kappa * np.pi**-0.25 / math.sqrt(s) * gaussian_norm(s_up) * g
    out[rows] = rows_out


def _row_kinds(req: SignalCwtRequest) -> tuple[list[int], dict[float, list[int]],
                                                list[tuple[int, float]]]:
    """How :func:`_fast_rows` computes each row of ``req`` (``ricker`` or ``morlet2``).

    ``(short, groups, direct)``: the rows whose scipy kernel is short
    (scipy's convolution), those of sftwave's transforms by their
    half-sample offset, and the others with their offset (the untruncated
    wavelet summed directly).
    """
    short: list[int] = []
    groups: dict[float, list[int]] = {}
    direct: list[tuple[int, float]] = []
    w = float(req.kwargs.get("w", 5))
    for r, width in enumerate(req.widths):
        if min(10 * width, req.n) <= _SHORT:
            short.append(r)
            continue
        offset = _grid_offset(width, req.n)
        half = round(2 * offset) / 2
        up = 1 if half == 0 else 2
        s = up * float(width)
        fits = (abs(offset - half) < 1e-9 and s >= _MIN_SIGMA
                and s <= max(8 * up * req.n, 16384))
        if req.wavelet is morlet2:
            fits = fits and w / s <= 0.99 * math.pi
        if fits:
            groups.setdefault(half, []).append(r)
        else:
            direct.append((r, offset))
    return short, groups, direct


def _short_row(data: np.ndarray, req: SignalCwtRequest, r: int) -> np.ndarray:
    """Row ``r`` by scipy's convolution with its sampled (short) wavelet."""
    from scipy.signal import convolve

    width = req.widths[r]
    N = np.min([10 * width, req.n])
    return convolve(data, np.conj(req.wavelet(N, width, **req.kwargs)[::-1]), mode="same")


def _fast_rows(data: np.ndarray, req: SignalCwtRequest, out: np.ndarray) -> None:
    """Every row of :func:`cwt` with ``ricker`` or ``morlet2``: scipy's where short, else untruncated."""
    short, groups, direct = _row_kinds(req)
    for r in short:
        out[r] = _short_row(data, req, r)
    for r, offset in direct:
        out[r] = _direct_row(data, req.wavelet, float(req.widths[r]), offset, req.kwargs)
    for half, rows in groups.items():
        _sft_rows(data, req, rows, half, out)


def _peak_rows(data: np.ndarray, req: SignalCwtRequest) -> tuple[np.ndarray, int, np.ndarray | None] | None:
    """The Ricker matrix of :func:`find_peaks_cwt` as ``(rows, first, scale)``, the products not formed.

    ``scale[:, None] * rows[:, first:first + n]`` is :func:`_cwt_matrix`'s
    matrix, number for number; the ridge lines' kernel forms each product as
    it reads it.  None unless the data are float64 and the rows scipy's short
    ones, then one block on sftwave's transforms.
    """
    if req.truncated or req.wavelet is not ricker or req.kwargs or data.dtype != np.float64:
        return None
    short, groups, direct = _row_kinds(req)
    lead = len(short)
    if direct or len(groups) != 1 or short != list(range(lead)):
        return None
    ((half, fast),) = groups.items()
    if fast != list(range(lead, len(req.widths))):
        return None
    W, first, scale = _ricker_rows(data, req, fast, half, lead)
    for r in short:
        W[r, first:first + req.n] = _short_row(data, req, r)
    return W, first, np.concatenate([np.ones(lead), scale])


def _out_dtype(req: SignalCwtRequest) -> np.dtype:
    """scipy's output dtype: ``dtype``, else complex128 for a complex wavelet, float64 otherwise."""
    if req.dtype is not None:
        return req.dtype
    probe = np.asarray(req.wavelet(1, req.widths[0], **req.kwargs))
    return np.dtype(np.complex128 if probe.dtype.char in "FDG" else np.float64)


def _cwt_matrix(data: np.ndarray, req: SignalCwtRequest) -> np.ndarray:
    out = np.empty((len(req.widths), req.n), dtype=_out_dtype(req))
    if req.truncated or not _fast_wavelet(req):
        _scipy_rows(data, req, out)
    else:
        _fast_rows(data, req, out)
    return out


def cwt(data: Any, wavelet: Callable, widths: Any, dtype: Any = None, *,
        truncated: bool = False, tol: float | None = None, **kwargs: Any) -> np.ndarray:
    """Continuous wavelet transform: scipy 1.14's ``scipy.signal.cwt``, removed in scipy 1.15.

    Row ``ii`` is ``data`` convolved in ``'same'`` mode (zeros outside) with
    ``conj(wavelet(N, widths[ii]))[::-1]``.  scipy samples the wavelet on
    ``N = min(10 * width, len(data))`` points; with :func:`ricker` and
    :func:`morlet2` (unless ``truncated``) the wavelet here is not cut: the
    rows are the Gaussian's second derivative and sftwave's Morlet transform,
    at a cost per sample independent of the width, on scipy's sample grid.

    Parameters
    ----------
    data : (N,) array_like
        The signal.
    wavelet : callable
        ``wavelet(length, width, **kwargs)`` returning ``length`` points:
        :func:`ricker` and :func:`morlet2` run on sftwave's transforms, any
        other callable on scipy's convolution.
    widths : (M,) sequence of float
        The widths (positive).
    dtype : data-type, optional
        The output's dtype; default float64 for a real wavelet, complex128 for
        a complex one (scipy's rule).
    truncated : bool, optional
        True: scipy's own convolution with the wavelet cut at
        ``min(10 * width, len(data))`` points, for every wavelet (scipy's
        numbers and cost).  Default False.
    tol : float, optional
        The fast rows' kernel error, the relative RMSE of the kernel against
        the sampled wavelet (default 1e-8).
    **kwargs
        Passed to the wavelet (``w`` of :func:`morlet2`).

    Returns
    -------
    ndarray
        ``(len(widths), len(data))``.

    See Also
    --------
    find_peaks_cwt : The peaks of a Ricker transform.
    sftwave.cwt : sftwave's transform by frequency, with its own options.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.linspace(-1, 1, 200, endpoint=False)
    >>> sig = np.cos(2 * np.pi * 7 * t) + np.exp(-((t - 0.4) / 0.05) ** 2)
    >>> widths = np.arange(1, 31)
    >>> m = cwt(sig, ricker, widths)
    >>> ref = cwt(sig, ricker, widths, truncated=True)    # scipy's numbers
    >>> m.shape, bool(np.abs(m - ref).max() < 0.02 * np.abs(ref).max())
    ((30, 200), True)
    >>> cwt(sig, morlet2, [4.0, 8.0], w=6.0).dtype
    dtype('complex128')
    """
    arr = check_signal_data(data)
    req = signal_cwt_request(arr, wavelet, widths, dtype, truncated, tol, kwargs)
    return _cwt_matrix(arr, req)


def find_peaks_cwt(vector: Any, widths: Any, wavelet: Callable | None = None,
                   max_distances: Any = None, gap_thresh: float | None = None,
                   min_length: int | None = None, min_snr: float = 1, noise_perc: float = 10,
                   window_size: int | None = None, *, truncated: bool = False,
                   tol: float | None = None) -> np.ndarray:
    """Peaks of a 1-D array by the ridge lines of its wavelet transform: scipy's ``find_peaks_cwt``.

    scipy's algorithm (Du et al. 2006) and signature: the :func:`cwt` matrix
    at ``widths``, its relative maxima joined into ridge lines across the
    rows, the lines kept that are long enough and whose coefficient stands
    ``min_snr`` above the noise of the first row.  The Ricker rows are
    sftwave's (untruncated, cost independent of the width), the ridge lines
    followed in one compiled pass, and the noise computed only where a long
    enough line ends (scipy's lines and noise, exactly, on that matrix).

    Parameters
    ----------
    vector : ndarray
        The 1-D signal.
    widths : float or sequence of float
        The widths of the transform (those of the peaks sought).
    wavelet : callable, optional
        ``wavelet(points, width)``; default :func:`ricker`.  Another callable
        runs on scipy's convolution.
    max_distances : ndarray, optional
        A ridge line joins a maximum of row ``n`` within ``max_distances[n]``
        columns; default ``widths / 4``.
    gap_thresh : float, optional
        A line ends after more than ``gap_thresh`` rows without a maximum;
        default ``ceil(widths[0])``.
    min_length : int, optional
        The fewest points of a kept line; default ``ceil(len(widths) / 4)``.
    min_snr : float, optional
        The smallest ratio of a line's coefficient (at its lowest row) to the
        noise.  Default 1.
    noise_perc : float, optional
        The percentile of the first row, in a window around the line, taken
        as the noise.  Default 10.
    window_size : int, optional
        That window's size; default ``ceil(len(vector) / 20)``.
    truncated : bool, optional
        True: scipy's truncated Ricker (scipy's matrix, and so its peaks, bit
        for bit).  Default False.
    tol : float, optional
        The fast rows' kernel error (default 1e-8).

    Returns
    -------
    ndarray
        The peaks' indices, sorted.

    See Also
    --------
    cwt : The transform.
    scipy.signal.find_peaks_cwt : scipy's, whose numbers these are.

    Examples
    --------
    >>> import numpy as np
    >>> xs = np.arange(0, np.pi, 0.05)
    >>> find_peaks_cwt(np.sin(xs), np.arange(1, 10))
    array([32])
    """
    arr = check_signal_data(vector, "vector")
    req = peaks_cwt_request(arr, widths, wavelet, max_distances, gap_thresh, min_length,
                            min_snr, noise_perc, window_size, truncated, tol)
    cwt_req = signal_cwt_request(arr, ricker if req.wavelet is None else req.wavelet, req.widths,
                                 None, req.truncated, req.tol, {})
    rows = _peak_rows(arr, cwt_req)
    if rows is None:
        matr = _cwt_matrix(arr, cwt_req)
        if np.iscomplexobj(matr):
            from scipy.signal import find_peaks_cwt as scipy_find_peaks_cwt

            return scipy_find_peaks_cwt(arr, req.widths, req.wavelet, req.max_distances,
                                        req.gap_thresh, req.min_length, req.min_snr,
                                        req.noise_perc, req.window_size)
        rows = (matr, 0, None)
    peaks = engines.operation(engines.resolve_engine(None, arr), "ridge_line_peaks")
    return peaks(rows[0], req.max_distances, req.gap_thresh, req.min_length, req.window_size,
                 req.min_snr, req.noise_perc, first=rows[1], n=req.n, scale=rows[2])
