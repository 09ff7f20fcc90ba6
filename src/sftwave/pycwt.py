"""pycwt's ``xwt``, ``wct`` and ``wct_significance``, computed by sftwave: same signatures and returns.

Switching is one line::

    from sftwave.pycwt import wct, xwt          # was: from pycwt import wct, xwt

pycwt need not be installed: this module mirrors its API.  Only the Morlet
wavelet (``wavelet='morlet'``, ``xi = 6``) is provided; another wavelet is a
``ValueError``.

How pycwt's numbers are reproduced.  pycwt zero-pads each series to the next
power of two and transforms by FFT (a circular convolution over the padded
length); it then smooths by FFT over the next power of two of the trimmed
length, again circularly.  Here the same computation is sftwave's:
:func:`sftwave.cwt` of the zero-padded series with ``mode='wrap'``, and
:func:`sftwave.gaussian_filter1d` of the zero-padded spectra with
``mode='wrap'``, with pycwt's scale boxcar (``smoothing='pycwt'`` of
:func:`sftwave.coherence.smooth`).  So the large scales wrap the end of the
record onto its start exactly as in pycwt; for coherence without that wrap,
call :func:`sftwave.coherence.wct`.  The remaining differences: pycwt's
wavelet is cut at the Nyquist frequency (its rows with Fourier periods below
about 4 samples differ a little), sftwave's Gaussian is accurate to its
``tol`` where pycwt's FFT is exact, and the Monte-Carlo significance
(``sig=True``) is :func:`sftwave.coherence.wct_significance` with pycwt's
settings: seeded, so it differs from pycwt's own draws within their
Monte-Carlo error, and its last row is not left NaN.  One deliberate
difference: pycwt's ``rednoise`` filters its ``(N, 1)`` draw along the axis
of length one, so pycwt's surrogates are white noise whatever ``al1`` and
``al2`` (pycwt 0.4 and 0.5-dev); here they are the AR(1) series pycwt
documents.  With ``al1 = al2 = 0`` the two agree within their Monte-Carlo
error (tests/test_pycwt.py).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from . import coherence as _coh
from ._checks import check_input_array, check_positive
from .analysis import ar1, red_noise_spectrum
from .plans.families import Morlet, WaveletFamily
from .wavelets import cwt

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["xwt", "wct", "wct_significance"]

#: The wavelet pycwt's functions compute here: the Morlet with ``f0 = xi = 6``.
_MORLET = Morlet()
_F0 = 6.0
#: pycwt's Fourier factor of the Morlet with ``f0 = 6``: ``4 pi / (6 + sqrt(2 + 36))``.
_FLAMBDA = float(_MORLET.fourier_factor(_F0))
#: pycwt's minimum degrees of freedom of the Morlet.
_DOFMIN = _MORLET.dofmin


def _morlet(wavelet: Any) -> None:
    """Refuse any wavelet but the Morlet of ``f0 = 6`` (pycwt's name or object, or the family)."""
    name: Any
    if isinstance(wavelet, WaveletFamily):
        name, f0 = wavelet.name, _F0
    else:
        name = wavelet if isinstance(wavelet, str) else getattr(wavelet, "name", None)
        f0 = getattr(wavelet, "f0", _F0)
    if not isinstance(name, str) or name.lower() != _MORLET.name or f0 != _F0:
        raise ValueError(f"sftwave.pycwt computes the Morlet wavelet (f0=6) only; got "
                         f"wavelet={wavelet!r}")


def _scales(n: int, dt: float, dj: float, s0: float, J: float) -> tuple[np.ndarray, float, int]:
    """pycwt's scales (time units) for ``s0 = -1`` / ``J = -1`` defaults."""
    dt = check_positive(dt, "dt")
    dj = check_positive(dj, "dj")
    if s0 == -1:
        s0 = 2 * dt / _FLAMBDA
    s0 = check_positive(s0, "s0")
    if J == -1:
        J = int(np.round(np.log2(n * dt / s0) / dj))
    if not float(J) == int(J) or J < 0:
        raise ValueError(f"J must be a non-negative integer or -1; got {J!r}")
    J = int(J)
    if J + 1 > 100_000:
        raise ValueError(f"J must give at most 100000 scales; got J={J}")
    return s0 * 2 ** (np.arange(J + 1) * dj), s0, J


def _series(y: Any, name: str) -> np.ndarray:
    a = check_input_array(y, name)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a real series; got dtype {a.dtype}")
    a = a.astype(np.float64)
    if a.ndim != 1 or a.size < 3:
        raise ValueError(f"{name} must be 1-D with at least 3 samples; got shape {a.shape}")
    return a


def _transforms(y1: np.ndarray, y2: np.ndarray, dt: float, sj: np.ndarray, normalize: bool
                ) -> tuple[np.ndarray, np.ndarray]:
    """pycwt's ``cwt`` of both series (zero padding to a power of two, circular), trimmed."""
    if y1.size != y2.size:
        raise ValueError(f"y1 and y2 must have the same length; got {y1.size} and {y2.size}")
    n = y1.size
    pair = np.stack([y1, y2])
    if normalize:
        pair = (pair - pair.mean(axis=1, keepdims=True)) / pair.std(axis=1, keepdims=True)
    npad = int(2 ** math.ceil(math.log2(n)))
    padded = np.zeros((2, npad))
    padded[:, :n] = pair
    fs = 1.0 / dt
    freqs = _MORLET.scale(sj, 1.0, _F0)     # (scale and frequency: the same relation both ways)
    if freqs.max() > fs / 2:
        raise ValueError(f"s0 must be at least {6.0 / (np.pi * fs)!r} (a frequency at most "
                         f"fs/2); got {float(sj.min())!r}")
    W = cast(np.ndarray, cwt(padded, freqs, fs, mode="wrap", dtype=np.complex128))[:, :, :n]
    return W, freqs


def xwt(y1: ArrayLike, y2: ArrayLike, dt: float, dj: float = 1 / 12, s0: float = -1,
        J: float = -1, significance_level: float = 0.95, wavelet: Any = "morlet",
        normalize: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pycwt's cross-wavelet transform: ``(W12, coi, freq, signif)``.

    ``W12 = W1 conj(W2)`` of the series (each normalised by its standard
    deviation with ``normalize``), ``coi`` the cone of influence (a Fourier
    period per time), ``freq`` pycwt's Fourier frequencies ``1 / (1.033 s)``,
    ``signif`` the red-noise level per scale
    ``std1 std2 sqrt(Pk1 Pk2) chi2.ppf(significance_level, 2) / 2``.

    Parameters
    ----------
    y1, y2 : array_like
        The two real series, 1-D, of the same length (at least 3 samples).
    dt : float
        The sampling interval.
    dj : float, optional
        Spacing of the scales in octaves (default 1/12).
    s0 : float, optional
        The smallest scale (time units); -1 (default): ``2 dt`` in Fourier period.
    J : float, optional
        The number of scales less one; -1 (default): down to the series' length.
    significance_level : float, optional
        The level of ``signif`` (default 0.95).
    wavelet : str or object, optional
        pycwt's Morlet (``'morlet'``, its ``Morlet()`` with ``f0 = 6``, or
        :class:`sftwave.wavelets.Morlet`); any other is refused.
    normalize : bool, optional
        Normalise each series by its standard deviation first (default True).

    Returns
    -------
    W12, coi, freq, signif : ndarray
        As pycwt's ``xwt``.

    See Also
    --------
    sftwave.coherence.xwt : sftwave's own (channels, boundary modes, any rows).
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
    _morlet(wavelet)
    a, b = _series(y1, "y1"), _series(y2, "y2")
    sj, _, _ = _scales(a.size, dt, dj, s0, J)
    W, _ = _transforms(a, b, dt, sj, bool(normalize))
    W12 = W[0] * np.conj(W[1])
    freq = 1.0 / (_FLAMBDA * sj)
    from scipy.stats import chi2
    std1, std2 = (1.0, 1.0) if normalize else (float(a.std()), float(b.std()))
    pk1 = red_noise_spectrum(1.0 / freq, ar1(a)[0], dt)
    pk2 = red_noise_spectrum(1.0 / freq, ar1(b)[0], dt)
    signif = std1 * std2 * np.sqrt(pk1 * pk2) * chi2.ppf(significance_level, _DOFMIN) / _DOFMIN
    return W12, _coh.cone_of_influence(a.size, 1.0 / dt, 6.0), freq, signif


def wct(y1: ArrayLike, y2: ArrayLike, dt: float, dj: float = 1 / 12, s0: float = -1,
        J: float = -1, sig: bool = True, significance_level: float = 0.95,
        wavelet: Any = "morlet", normalize: bool = True, **kwargs: Any
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pycwt's wavelet coherence: ``(WCT, aWCT, coi, freq, sig)``.

    ``WCT`` the squared coherence with pycwt's smoothing (its circular FFT
    smoothing in time, its boxcar of ``round(1.2 / dj)`` scales),
    ``aWCT`` the angle of the *unsmoothed* ``W1 conj(W2)`` (pycwt's choice),
    ``coi`` and ``freq`` as :func:`xwt`, ``sig`` the Monte-Carlo level per
    scale (:func:`wct_significance`; ``kwargs`` go to it) with ``sig=True``,
    else ``array([0])``.

    Parameters
    ----------
    y1, y2 : array_like
        The two real series, 1-D, of the same length (at least 3 samples).
    dt : float
        The sampling interval.
    dj : float, optional
        Spacing of the scales in octaves (default 1/12).
    s0 : float, optional
        The smallest scale (time units); -1 (default): ``2 dt`` in Fourier period.
    J : float, optional
        The number of scales less one; -1 (default): down to the series' length.
    sig : bool, optional
        Compute the Monte-Carlo significance (default True).
    significance_level : float, optional
        Its level (default 0.95).
    wavelet : str or object, optional
        As :func:`xwt`.
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
    sftwave.coherence.wct : sftwave's own (no wrap, Grinsted's width, phase of
        the smoothed spectrum).
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
    _morlet(wavelet)
    a, b = _series(y1, "y1"), _series(y2, "y2")
    sj, s0v, Jv = _scales(a.size, dt, dj, s0, J)
    W, freqs = _transforms(a, b, dt, sj, bool(normalize))
    n = a.size
    npad = int(2 ** math.ceil(math.log2(n)))
    Wp = np.zeros((2, 1, sj.size, npad), dtype=np.complex128)
    Wp[:, 0, :, :n] = W
    sig_samples = sj / dt
    B = _coh.scale_weights(sig_samples, "pycwt")
    r2, _ = _coh.coherence_rows(Wp, sig_samples, B, "wrap", 0.0)
    WCT = r2[:, 0, :n]
    aWCT = np.angle(W[0] * np.conj(W[1]))
    freq = 1.0 / (_FLAMBDA * sj)
    if sig:
        levels = wct_significance(ar1(a)[0], ar1(b)[0], dt=dt, dj=dj, s0=s0v, J=Jv,
                                  significance_level=significance_level, wavelet=wavelet,
                                  **kwargs)
    else:
        levels = np.asarray([0])
    return WCT, aWCT, _coh.cone_of_influence(n, 1.0 / dt, 6.0), freq, levels


def wct_significance(al1: float, al2: float, dt: float, dj: float, s0: float, J: float,
                     significance_level: float = 0.95, wavelet: Any = "morlet",
                     mc_count: int = 300, progress: bool = True, cache: bool = True,
                     seed: int = 0) -> np.ndarray:
    """pycwt's Monte-Carlo significance of coherence per scale, by sftwave.

    pycwt's settings (surrogates of ``ceil(6 s_max / dt)`` samples, zero
    padding, its smoothing, 1000 bins, the samples outside the cone), computed
    by :func:`sftwave.coherence.wct_significance`; ``progress`` is accepted
    and ignored; ``seed`` is sftwave's (pycwt draws from numpy's global
    generator).  Unlike pycwt, ``s0`` and ``J`` may be -1 (their defaults
    need the series' length: pass them).

    Parameters
    ----------
    al1, al2 : float
        The lag-1 autocorrelations of the two series.
    dt, dj, s0, J : float
        The scales, as :func:`xwt` (``s0`` and ``J`` given).
    significance_level : float, optional
        The level (default 0.95).
    wavelet : str or object, optional
        As :func:`xwt`.
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
    >>> s = wct_significance(0.5, 0.5, dt=1.0, dj=1 / 4, s0=2.0, J=8, mc_count=3, cache=False)
    >>> s.shape
    (9,)
    """
    _morlet(wavelet)
    dt = check_positive(dt, "dt")
    dj = check_positive(dj, "dj")
    s0 = check_positive(s0, "s0")
    if not float(J) == int(J) or J < 0:
        raise ValueError(f"J must be a non-negative integer; got {J!r}")
    sj = s0 * 2 ** (np.arange(int(J) + 1) * dj)
    freqs = _MORLET.scale(sj, 1.0, _F0)
    return _coh.wct_significance(al1, al2, freqs, 1.0 / dt, xi=_F0, level=significance_level,
                                 mc_count=mc_count, seed=seed, smoothing="pycwt",
                                 mode="constant", cache=cache)
