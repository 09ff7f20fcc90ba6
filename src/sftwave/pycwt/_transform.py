"""pycwt's ``cwt``, ``icwt``, ``significance`` and helpers ``ar1``, ``ar1_spectrum``, ``rednoise``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import analysis as _analysis
from .._checks import pycwt as _chk
from ._mothers import CLASSES

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


#: numpy's FFT is pocketfft's C++ (scipy.fft's, the same arithmetic) from numpy 2 on; before, scipy.fft
_NUMPY_FFT = np.lib.NumpyVersion(np.__version__) >= "2.0.0"


def fft_padded(x: np.ndarray, n: int) -> np.ndarray:
    """``scipy.fft.fft(x, n=n, axis=-1)``, by numpy's FFT where it is pocketfft's C++ (numpy 2).

    A real ``x`` takes the real transform and its Hermitian half, as scipy.fft
    computes it (the same values, bit for bit); importing scipy.fft is left to
    numpy 1.
    """
    if not _NUMPY_FFT:
        from scipy import fft as sfft

        return sfft.fft(x, n=n, axis=-1)
    if np.iscomplexobj(x):
        return np.fft.fft(x, n=n, axis=-1)
    half = np.fft.rfft(x, n=n, axis=-1)
    h = half.shape[-1]
    out = np.empty((*half.shape[:-1], n), dtype=half.dtype)
    out[..., :h] = half
    out[..., h:] = np.conj(half[..., 1 : n - h + 1][..., ::-1])
    return out


def ifft_in_place(W: np.ndarray) -> np.ndarray:
    """``scipy.fft.ifft(W, axis=-1, overwrite_x=True)`` for a complex ``W`` (numpy's FFT on numpy 2,
    into ``W`` itself)."""
    if not _NUMPY_FFT:
        from scipy import fft as sfft

        return sfft.ifft(W, axis=-1, overwrite_x=True)
    return np.fft.ifft(W, axis=-1, out=W)


def mother(wavelet: Any) -> Any:
    """The mother object of pycwt's ``wavelet=`` (a name, a mother of pycwt's or of this
    module, or another object with pycwt's interface, used as it is)."""
    kind = _chk.mother_kind(wavelet)
    return wavelet if kind is None else CLASSES[kind[0]](kind[1])


def _bank(ft: np.ndarray, wav: Any, sj: np.ndarray, d: float, out: np.ndarray) -> None:
    """Rows (of the zeroed ``out``, ``(..., M, N)``) ``out[..., i, :] = ft * sqrt(s_i d N)
    conj(psi_ft(s_i omega))`` on pycwt's grid ``omega = d k`` (``k`` in FFT order), each
    evaluated only where ``s_i omega`` lies in the mother's ``_support()`` (all of it for a
    mother without one); ``ft`` is ``(..., N)``, the wavelet evaluated once for all."""
    M, N = out.shape[-2:]
    norms = np.sqrt(sj * d * N)
    k_all = np.fft.fftfreq(N, 1.0 / N)
    support = getattr(wav, "_support", None)
    if not callable(support):
        for i in range(M):
            out[..., i, :] = ft * (norms[i] * np.conjugate(wav.psi_ft(sj[i] * d * k_all)))
        return
    lo_u, hi_u = support()
    with np.errstate(over="ignore", invalid="ignore"):
        ends = wav.psi_ft(np.outer(sj * d, [-(N // 2), (N - 1) // 2]))
    nan_rows = np.isnan(ends).any(axis=1)  # pycwt's product is NaN there: all its row
    lo = np.maximum(np.ceil(lo_u / (sj * d)), -(N // 2)).astype(np.int64)
    hi = np.minimum(np.floor(hi_u / (sj * d)), (N - 1) // 2).astype(np.int64)
    length = np.where(nan_rows, 0, np.maximum(hi - lo + 1, 0))
    row = np.repeat(np.arange(M), length)
    k = lo[row] + (np.arange(row.size) - np.repeat(np.cumsum(length) - length, length))
    idx = k % N
    out[..., row, idx] = ft[..., idx] * (norms[row] * np.conjugate(wav.psi_ft(sj[row] * d * k)))
    out[..., nan_rows, :] = np.nan


def transform(signal: np.ndarray, dt: float, sj: np.ndarray, wav: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """pycwt's coefficients (all rows, padded length) and the padded FFT of ``signal``
    (``(..., n0)``: series on the last axis, transformed together)."""
    n0 = signal.shape[-1]
    N = int(2 ** np.ceil(np.log2(n0)))
    signal_ft = fft_padded(signal, N)
    d = 2 * np.pi / (N * dt)  # pycwt's ftfreqs[1]
    W = np.zeros((*signal.shape[:-1], sj.size, N), dtype=np.complex128)
    _bank(signal_ft, wav, sj, d, W)
    return ifft_in_place(W), signal_ft, N


def pair(
    a: np.ndarray, b: np.ndarray, req: Any, wav: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`cwt` of two series of the same length at ``req``'s scales, transformed together:
    ``(W1, W2, sj, freqs, coi)``."""
    Wp, _, _ = transform(np.stack([a, b]), req.dt, req.sj, wav)
    n0 = a.size
    sj, f = req.sj, req.freqs
    keep = ~(np.isnan(Wp[0]).all(axis=1) & np.isnan(Wp[1]).all(axis=1))
    if np.any(keep) and not np.all(keep):
        sj, f, Wp = sj[keep], f[keep], Wp[:, keep, :]
    coi = n0 / 2 - np.abs(np.arange(0, n0) - (n0 - 1) / 2)
    return Wp[0, :, :n0], Wp[1, :, :n0], sj, f, wav.flambda() * wav.coi() * req.dt * coi


def cwt(
    signal: ArrayLike,
    dt: float,
    dj: float = 1 / 12,
    s0: float = -1,
    J: float = -1,
    wavelet: Any = "morlet",
    freqs: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pycwt's continuous wavelet transform: ``(W, sj, freqs, coi, signal_ft, ftfreqs)``.

    pycwt's wavelet, defined by its Fourier transform on the grid of the
    series zero-padded to the next power of two (a circular convolution over
    the padded length), on every row, so the rows near the Nyquist frequency
    are pycwt's too.  The product is formed only where the wavelet's
    transform is above ``1e-18`` of its peak (pycwt's numbers to rounding).

    Parameters
    ----------
    signal : array_like
        The series, 1-D (real or complex).
    dt : float
        The sampling interval.
    dj : float, optional
        Spacing of the scales in octaves (default 1/12).
    s0 : float, optional
        The smallest scale; -1 (default): ``2 dt / flambda`` (a Fourier period of ``2 dt``).
    J : float, optional
        The number of scales less one; -1 (default): ``round(log2(N dt / s0) / dj)``.
    wavelet : str or mother, optional
        ``'morlet'`` (default), ``'paul'``, ``'dog'``, ``'mexicanhat'``, or a
        mother object (this module's, pycwt's, or one with its interface).
    freqs : array_like, optional
        Fourier frequencies to use instead of the scales above.

    Returns
    -------
    W : ndarray
        The coefficients, ``(J + 1, N)``.
    sj : ndarray
        The scales.
    freqs : ndarray
        Their Fourier frequencies ``1 / (flambda sj)``.
    coi : ndarray
        The cone of influence (a Fourier period per sample).
    signal_ft : ndarray
        The normalised FFT of the padded series (positive frequencies but 0).
    ftfreqs : ndarray
        Its frequencies.

    See Also
    --------
    icwt : The series back.
    sftwave.cwt : sftwave's transform (its sampled wavelet, its boundary modes).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.sin(2 * np.pi * np.arange(504) / 16.0)
    >>> W, sj, freqs, coi, fft, fftfreqs = cwt(x, 1.0, 1 / 4)
    >>> W.shape, round(float(1 / freqs[np.argmax(np.abs(W[:, 252]))]), 1)
    ((33, 504), 16.0)
    """
    wav = mother(wavelet)
    x = _chk.check_series(signal, "signal")
    req = _chk.scales_request(x.size, dt, dj, s0, J, float(wav.flambda()), freqs)
    Wp, signal_ft, N = transform(x, req.dt, req.sj, wav)
    sj, f = req.sj, req.freqs
    sel = ~np.isnan(Wp[:, 0])  # rows all NaN are left out, as pycwt's
    sel[~sel] = ~np.isnan(Wp[~sel]).all(axis=1)
    if np.any(sel) and not np.all(sel):
        sj, f, Wp = sj[sel], f[sel], Wp[sel, :]
    n0 = x.size
    coi = n0 / 2 - np.abs(np.arange(0, n0) - (n0 - 1) / 2)
    coi = wav.flambda() * wav.coi() * req.dt * coi
    ftfreqs = np.fft.fftfreq(N, req.dt)
    return (Wp[:, :n0], sj, f, coi, signal_ft[1 : N // 2] / N**0.5, ftfreqs[1 : N // 2])


def icwt(W: ArrayLike, sj: ArrayLike, dt: float, dj: float = 1 / 12, wavelet: Any = "morlet") -> np.ndarray:
    """pycwt's inverse transform (Torrence & Compo's eq. 11).

    ``dj sqrt(dt) / (cdelta psi(0)) sum_j Re(W_j) / sqrt(s_j)``; complex for
    the Morlet (pycwt's ``psi(0)`` is complex).

    Parameters
    ----------
    W : array_like
        The coefficients of :func:`cwt`, ``(J + 1, N)`` (or transposed).
    sj : array_like
        Their scales.
    dt : float
        The sampling interval.
    dj : float, optional
        The spacing of the scales in octaves (default 1/12).
    wavelet : str or mother, optional
        As :func:`cwt`.

    Returns
    -------
    ndarray
        The series.

    See Also
    --------
    cwt : The transform.
    sftwave.icwt : sftwave's inverse (least-squares weights).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).standard_normal(256)
    >>> W, sj, *_ = cwt(x, 1.0)
    >>> bool(np.corrcoef(icwt(W, sj, 1.0).real, x)[0, 1] > 0.95)
    True
    """
    wav = mother(wavelet)
    w, s, axis = _chk.check_icwt(W, sj, dt, dj)
    root = np.sqrt(s)
    scaled = np.real(w) / (root[:, None] if axis == 0 else root[None, :])
    return dj * np.sqrt(dt) / (wav.cdelta * wav.psi(0)) * scaled.sum(axis=0)


def significance(
    signal: ArrayLike | float,
    dt: float,
    scales: ArrayLike,
    sigma_test: int = 0,
    alpha: float | None = None,
    significance_level: float = 0.95,
    dof: Any = -1,
    wavelet: Any = "morlet",
) -> tuple[np.ndarray, np.ndarray]:
    """pycwt's significance test of wavelet power against red noise (T&C sections 4-5).

    ``sigma_test`` 0: per scale (eq. 18); 1: the time average over ``dof``
    samples per scale (eq. 23; a number is taken for every scale); 2: the
    scale average over ``dof = [s1, s2]`` (eqs. 25-28).  The red-noise
    spectrum is pycwt's ``(1 - a^2) / (1 + a^2 - 2 a cos(2 pi f dt / n0))``
    with ``n0 = len(signal)`` (1 for a variance given as a number, T&C's
    eq. 16); with ``sigma_test=1`` the second output is the first, as
    pycwt's (it fills its spectrum in place).  The caller's ``dof`` is never
    written over.

    Parameters
    ----------
    signal : array_like or float
        The series, or its variance.
    dt : float
        The sampling interval.
    scales : array_like
        The scales of :func:`cwt`.
    sigma_test : int, optional
        0 (default), 1 or 2.
    alpha : float, optional
        The lag-1 autocorrelation (None: :func:`ar1` of ``signal``).
    significance_level : float, optional
        Default 0.95.
    dof : float or array_like, optional
        As ``sigma_test`` says (-1: the wavelet's minimum).
    wavelet : str or mother, optional
        As :func:`cwt`.

    Returns
    -------
    signif : ndarray or float
        The power at ``significance_level``, per scale (a number for test 2).
    fft_theor : ndarray or float
        The red-noise spectrum (times the variance).

    See Also
    --------
    cwt : The transform whose power is tested.
    sftwave.analysis.significance : sftwave's own.

    Examples
    --------
    >>> import numpy as np
    >>> signif, theor = significance(1.0, 0.25, 2.0 ** np.arange(4), 0, 0.0)
    >>> signif.round(3).tolist()
    [2.996, 2.996, 2.996, 2.996]
    """
    wav = mother(wavelet)
    req = _chk.significance_request(signal, dt, scales, sigma_test, alpha, significance_level, dof)
    from ..analysis import chi2_ppf

    a = ar1(np.asarray(signal))[0] if req.alpha is None else req.alpha
    scales_ = req.scales
    dj = np.log2(scales_[1] / scales_[0])
    freq = dt / (scales_ * wav.flambda())
    fft_theor = req.variance * (1 - a**2) / (1 + a**2 - 2 * a * np.cos(2 * np.pi * freq / req.n0))
    dofmin = wav.dofmin
    if req.sigma_test == 0:
        return fft_theor * (chi2_ppf(req.level, dofmin) / dofmin), fft_theor
    if req.sigma_test == 1:
        d = (
            np.full(scales_.size, float(dofmin))
            if req.dof is None
            else np.broadcast_to(req.dof, scales_.shape).copy()
        )
        d[d < 1] = 1
        d = dofmin * (1 + (d * dt / wav.gamma / scales_) ** 2) ** 0.5
        d[d < dofmin] = dofmin
        fft_theor = fft_theor * (chi2_ppf(req.level, d) / d)
        return fft_theor, fft_theor
    bounds = np.asarray(req.dof)
    s1, s2 = float(bounds[0]), float(bounds[1])
    sel = np.flatnonzero((scales_ >= s1) & (scales_ <= s2))
    _chk.check_scale_average(wav.cdelta, sel, bounds, wav.name)
    navg = sel.size
    Savg = 1 / sum(1.0 / scales_[sel])
    Smid = np.exp((np.log(s1) + np.log(s2)) / 2.0)
    d2 = (dofmin * navg * Savg / Smid) * ((1 + (navg * dj / wav.deltaj0) ** 2) ** 0.5)
    theor = Savg * sum(fft_theor[sel] / scales_[sel])
    return (dj * dt / wav.cdelta / Savg) * theor * (chi2_ppf(req.level, d2) / d2), theor


def ar1(x: ArrayLike) -> tuple[float, float, float]:
    """pycwt's lag-1 autocorrelation (Allen & Smith's unbiased AR(1) estimate).

    Raises a ``Warning`` (pycwt's exception, which its sample script catches)
    where no unbiased estimate exists: too short a series or too strong a trend.

    Parameters
    ----------
    x : array_like
        The series.

    Returns
    -------
    g : float
        The lag-1 autocorrelation.
    a : float
        The noise innovation's standard deviation.
    mu2 : float
        The squared mean of a finite segment of the noise over its variance.

    See Also
    --------
    ar1_spectrum : Its spectrum.
    sftwave.analysis.ar1 : The same estimate (raising ``ValueError``).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.signal import lfilter
    >>> x = lfilter([1.0], [1.0, -0.7], np.random.default_rng(0).standard_normal(5000))
    >>> round(ar1(x)[0], 1)
    0.7
    """
    try:
        return _analysis.ar1(x)
    except ValueError as exc:
        raise Warning(str(exc)) from None


def ar1_spectrum(freqs: ArrayLike, ar1: float = 0.0) -> np.ndarray:
    """pycwt's AR(1) spectrum ``(1 - a^2) / |1 - a exp(-2 pi i f)|^2``.

    Parameters
    ----------
    freqs : array_like
        Frequencies in cycles per sample.
    ar1 : float, optional
        The lag-1 autocorrelation (default 0: white).

    Returns
    -------
    ndarray
        The spectrum relative to white noise of the same variance.

    See Also
    --------
    ar1 : Fit the coefficient.
    sftwave.analysis.red_noise_spectrum : The same, by Fourier period.

    Examples
    --------
    >>> ar1_spectrum([0.0, 0.5], 0.5).tolist()
    [3.0, 0.3333333333333333]
    """
    f = np.asarray(freqs)
    return (1 - ar1**2) / np.abs(1 - ar1 * np.exp(-2 * np.pi * 1j * f)) ** 2


def rednoise(N: int, g: float, a: float = 1.0) -> np.ndarray:
    """AR(1) noise of ``N`` samples: ``y[t] = g y[t-1] + a z[t]`` after a burn-in.

    Draws from numpy's global generator as pycwt (``numpy.random.randn``), a
    burn-in of ``ceil(-2 / log|g|)`` samples dropped.  pycwt's own filters its
    ``(N, 1)`` draw along the axis of length one, so it returns white noise
    whatever ``g`` (and raises for ``g = 0``); this returns the AR(1) series
    that pycwt documents.

    Parameters
    ----------
    N : int
        The length.
    g : float
        The lag-1 autocorrelation, in (-1, 1).
    a : float, optional
        The innovations' standard deviation (default 1).

    Returns
    -------
    ndarray
        The series, ``(N,)``.

    See Also
    --------
    ar1 : Fit ``g`` to a series.

    Examples
    --------
    >>> import numpy as np
    >>> np.random.seed(0)
    >>> y = rednoise(20000, 0.7)
    >>> y.shape, round(float(np.corrcoef(y[:-1], y[1:])[0, 1]), 1)
    ((20000,), 0.7)
    """
    from scipy.signal import lfilter

    n, gv, av = _chk.check_rednoise(N, g, a)
    if gv == 0:
        return np.random.randn(n) * av  # noqa: NPY002  (pycwt's global generator)
    tau = int(np.ceil(-2 / np.log(np.abs(gv))))
    z = np.random.randn(n + tau) * av  # noqa: NPY002  (pycwt's global generator)
    return lfilter([1, 0], [1, -gv], z)[tau:]
