"""pycwt's ``xwt``, ``wct`` and ``wct_significance``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import coherence as _coh
from .._checks import pycwt as _chk
from .._docs import docfiller
from ._transform import ar1, ar1_spectrum, fft_padded, ifft_in_place, mother, pair

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _normalised(a: np.ndarray, normalize: bool) -> np.ndarray:
    return (a - a.mean()) / a.std() if normalize else a


def _time_smooth(V: np.ndarray, snorm: np.ndarray) -> np.ndarray:
    """pycwt's Gaussian in time: ``exp(-snorm^2 k^2 / 2)`` on the FFT grid of the next power
    of two (circular), each row's product formed where the Gaussian is above 1e-18."""
    m, n = V.shape
    npad = int(2 ** np.ceil(np.log2(n)))
    F = fft_padded(V, npad)
    k = 2 * np.pi * np.fft.fftfreq(npad)
    reach = np.sqrt(-2 * np.log(1e-18)) / snorm  # |k| beyond: below the floor
    for i in range(m):
        inside = np.abs(k) <= reach[i]
        F[i, ~inside] = 0
        F[i, inside] *= np.exp(-0.5 * snorm[i] ** 2 * k[inside] ** 2)
    return ifft_in_place(F)[:, :n]


def _scale_boxcar(T: np.ndarray, deltaj0: float, dj: float) -> np.ndarray:
    """pycwt's boxcar of ``round(2 deltaj0 / dj)`` scales (``convolve2d(..., 'same')``)."""
    k = int(np.round(deltaj0 / dj * 2))
    win = np.ones(k)
    win[0] = win[-1] = 0.5
    win /= win.sum()
    m = T.shape[0]
    out = np.zeros_like(T)
    c = (k - 1) // 2
    for j in range(k):  # out[i] += win[j] T[i + c - j]
        shift = c - j
        lo, hi = max(0, -shift), min(m, m - shift)
        if lo < hi:
            out[lo:hi] += win[j] * T[lo + shift : hi + shift]
    return out


@docfiller
def xwt(
    y1: ArrayLike,
    y2: ArrayLike,
    dt: float,
    dj: float = 1 / 12,
    s0: float = -1,
    J: float = -1,
    significance_level: float = 0.95,
    wavelet: Any = "morlet",
    normalize: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pycwt's cross-wavelet transform: ``(W12, coi, freq, signif)``.

    ``W12 = W1 conj(W2)`` of :func:`cwt` of the two series (each normalised
    with ``normalize``), ``signif`` the red-noise level per scale
    ``std1 std2 sqrt(Pk1 Pk2) chi2.ppf(significance_level, dofmin) / dofmin``.

    Parameters
    ----------
    y1, y2 : array_like
        The two real series, 1-D, of the same length (at least 3 samples).
    %(pycwt_scales)s
    significance_level : float, optional
        The level of ``signif`` (default 0.95).
    wavelet : str or mother, optional
        As :func:`cwt` (any of pycwt's mothers).
    normalize : bool, optional
        Normalise each series by its standard deviation first (default True).

    Returns
    -------
    W12, coi, freq, signif : ndarray
        As pycwt's ``xwt``.

    See Also
    --------
    sftwave.coherence.xwt : sftwave's own (channels, boundary modes).
    wct : The coherence.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y1, y2 = rng.standard_normal((2, 512))
    >>> W12, coi, freq, signif = xwt(y1, y2, dt=0.25)
    >>> W12.shape, coi.shape, freq.shape == signif.shape
    ((98, 512), (512,), True)
    """
    wav = mother(wavelet)
    a, b = _chk.check_pair(y1, y2)
    _chk.check_level(significance_level)
    req = _chk.scales_request(a.size, dt, dj, s0, J, wav.flambda())
    W1, W2, _, freq, coi = pair(_normalised(a, normalize), _normalised(b, normalize), req, wav)
    from ..analysis import chi2_ppf

    std1, std2 = (1.0, 1.0) if normalize else (float(a.std()), float(b.std()))
    pk1 = ar1_spectrum(freq * dt, ar1(a)[0])
    pk2 = ar1_spectrum(freq * dt, ar1(b)[0])
    dof = wav.dofmin
    signif = std1 * std2 * (pk1 * pk2) ** 0.5 * chi2_ppf(significance_level, dof) / dof
    return W1 * W2.conj(), coi, freq, signif


@docfiller
def wct(
    y1: ArrayLike,
    y2: ArrayLike,
    dt: float,
    dj: float = 1 / 12,
    s0: float = -1,
    J: float = -1,
    sig: bool = True,
    significance_level: float = 0.95,
    wavelet: Any = "morlet",
    normalize: bool = True,
    **kwargs: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pycwt's wavelet coherence: ``(WCT, aWCT, coi, freq, sig)``.

    The coefficients are :func:`cwt`'s (pycwt's on every row); the smoothing
    is pycwt's (a Gaussian of the scale in time over the series zero-padded
    to a power of two, circular; its boxcar of ``round(1.2 / dj)`` scales),
    by FFT as pycwt does (the two powers as one complex array; each row's
    product formed where the Gaussian is above 1e-18 of its peak).  ``aWCT`` is the angle of the
    *unsmoothed* ``W1 conj(W2)`` (pycwt's choice); ``sig`` the Monte-Carlo
    level per scale (:func:`wct_significance`, ``kwargs`` go to it) with
    ``sig=True``, else ``array([0])``.

    Parameters
    ----------
    y1, y2 : array_like
        The two real series, 1-D, of the same length (at least 3 samples).
    %(pycwt_scales)s
    sig : bool, optional
        Compute the Monte-Carlo significance (default True).
    significance_level : float, optional
        Its level (default 0.95).
    wavelet : str or mother, optional
        The Morlet with ``f0 = 6`` (pycwt's only mother with a smoothing).
    normalize : bool, optional
        Normalise each series by its standard deviation first (default True).
    **kwargs
        Passed to :func:`wct_significance`.

    Returns
    -------
    WCT, aWCT, coi, freq, sig : ndarray
        As pycwt's ``wct``.

    See Also
    --------
    sftwave.coherence.wct : sftwave's own (no wrap, Grinsted's width).
    xwt : The cross-wavelet transform.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y1 = rng.standard_normal(512)
    >>> y2 = y1 + 0.2 * rng.standard_normal(512)
    >>> WCT, aWCT, coi, freq, s = wct(y1, y2, dt=1.0, sig=False)
    >>> WCT.shape, bool(np.median(WCT) > 0.9), s
    ((98, 512), True, array([0]))
    """
    wav = mother(wavelet)
    _chk.check_coherence_mother(_chk.mother_kind(wav), wavelet)
    a, b = _chk.check_pair(y1, y2)
    req = _chk.scales_request(a.size, dt, dj, s0, J, wav.flambda())
    W1, W2, sj, freq, coi = pair(_normalised(a, normalize), _normalised(b, normalize), req, wav)
    W12 = W1 * W2.conj()
    inv = 1.0 / sj[:, None]
    snorm = sj / req.dt
    # the two real powers smoothed as one complex array (the Gaussian is real and even)
    P = _time_smooth((W1.real**2 + W1.imag**2) * inv + 1j * ((W2.real**2 + W2.imag**2) * inv), snorm)
    S12 = _scale_boxcar(_time_smooth(W12 * inv, snorm), wav.deltaj0, req.dj)
    S1 = _scale_boxcar(np.ascontiguousarray(P.real), wav.deltaj0, req.dj)
    S2 = _scale_boxcar(np.ascontiguousarray(P.imag), wav.deltaj0, req.dj)
    with np.errstate(invalid="ignore", divide="ignore"):
        WCT = np.abs(S12) ** 2 / (S1 * S2)
    aWCT = np.angle(W12)
    if sig:
        levels = wct_significance(
            ar1(a)[0],
            ar1(b)[0],
            dt=req.dt,
            dj=req.dj,
            s0=req.s0,
            J=req.J,
            significance_level=significance_level,
            wavelet=wav,
            **kwargs,
        )
    else:
        levels = np.asarray([0])
    return WCT, aWCT, coi, freq, levels


def wct_significance(
    al1: float,
    al2: float,
    dt: float,
    dj: float,
    s0: float,
    J: float,
    significance_level: float = 0.95,
    wavelet: Any = "morlet",
    mc_count: int = 300,
    progress: bool = True,
    cache: bool = True,
    seed: int = 0,
) -> np.ndarray:
    """pycwt's Monte-Carlo significance of coherence per scale, by sftwave.

    pycwt's settings (surrogate pairs of ``ceil(6 s_max / dt)`` samples,
    zero padding, its smoothing, 1000 bins, the samples outside the cone),
    computed by :func:`sftwave.coherence.wct_significance` (sftwave's sampled
    Morlet); ``progress`` is accepted and ignored; ``seed`` is sftwave's
    (pycwt draws from numpy's global generator).  ``s0=-1`` is pycwt's
    ``2 dt / flambda``; ``J`` must be given (pycwt's ``-1`` default reads the
    series' length, which this function is not given).  The surrogates are
    AR(1) noise of ``al1`` and ``al2`` (pycwt's are white: see :func:`rednoise`).

    Parameters
    ----------
    al1, al2 : float
        The lag-1 autocorrelations of the two series.
    dt, dj : float
        The sampling interval and the spacing of the scales in octaves.
    s0 : float
        The smallest scale (-1: ``2 dt / flambda``).
    J : int
        The number of scales less one.
    significance_level : float, optional
        The level (default 0.95).
    wavelet : str or mother, optional
        The Morlet with ``f0 = 6``.
    mc_count : int, optional
        The number of surrogate pairs (default 300).
    progress : bool, optional
        Ignored (pycwt's progress bar).
    cache : bool, optional
        Keep the result on disk for the same arguments (default True).
    seed : int, optional
        The surrogates' seed (default 0).

    Returns
    -------
    ndarray
        The coherence at ``significance_level``, one per scale.

    See Also
    --------
    sftwave.coherence.wct_significance : The function this calls.
    wct : The coherence, which calls this with ``sig=True``.

    Examples
    --------
    >>> s = wct_significance(0.5, 0.5, dt=1.0, dj=1 / 4, s0=-1, J=8, mc_count=3, cache=False)
    >>> s.shape
    (9,)
    """
    wav = mother(wavelet)
    _chk.check_coherence_mother(_chk.mother_kind(wav), wavelet)
    g1, g2 = _chk.check_ar1(al1, "al1"), _chk.check_ar1(al2, "al2")
    req = _chk.scales_request(None, dt, dj, s0, J, wav.flambda())
    _chk.check_count(mc_count, "mc_count")
    freqs = 6.0 / (2 * np.pi * req.sj)
    return _coh.wct_significance(
        g1,
        g2,
        freqs,
        1.0 / req.dt,
        xi=6.0,
        level=_chk.check_level(significance_level),
        mc_count=mc_count,
        seed=seed,
        smoothing="pycwt",
        mode="constant",
        cache=cache,
    )
