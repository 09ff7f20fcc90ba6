r"""Wavelet power analysis after Torrence & Compo (1998), on sftwave's scalograms.

The quantities a climate or geophysics user takes from a wavelet power
spectrum, with the names pycwt and the paper use:

* :func:`fourier_factor`, :func:`fourier_period`, :func:`frequencies_for_periods`:
  the paper's Fourier period of a scale;
* :func:`cone_of_influence` and :func:`coi_mask`: where edge effects matter;
* :func:`global_spectrum` (eq. 22) and :func:`scale_average` (eq. 24);
* :func:`ar1` (lag-1 autocorrelation, Allen & Smith's unbiased estimate, as
  pycwt), :func:`red_noise_spectrum` (eq. 16) and :func:`significance`: the
  chi-square test against white or red noise, local (eq. 18), time-averaged
  (eq. 23) and scale-averaged (eqs. 25-28);
* :func:`reconstruction_factor` (``C_delta``, eq. 13) and
  :func:`normalisation_factor`.

Conventions, and where they differ from pycwt.  sftwave's rows are indexed by
a frequency ``f`` (in the unit of ``fs``) whose wavelet has the scale
``s = xi / (2 pi f)`` (time units) and ``sigma = s fs`` samples: ``1 / f`` is
``2 pi s / xi`` (1.047 s for ``xi = 6``).  Torrence & Compo label a scale by
its Fourier period ``lambda = 4 pi s / (xi + sqrt(2 + xi^2))`` (1.033 s), the
period of the sine whose power peaks at that scale: **the same scale has
``1 / f`` 1.4 % longer than its Fourier period**, so comparing rows by their
nominal frequency compares different scales (the factor-of-2 disagreements a
user saw on steep spectra).  :func:`frequencies_for_periods` gives the
``freqs`` that put sftwave's rows on the paper's periods.  The wavelet is the
same function up to its normalisation: sftwave's is
``C_xi pi^-1/4 (exp(i xi t) - kappa) exp(-t^2/2)`` with unit energy, the
paper's ``pi^-1/4 exp(i xi t) exp(-t^2/2)``; ``C_xi - 1`` and ``kappa`` are
below 2e-8 for ``xi >= 6`` (:func:`normalisation_factor`), so the
coefficients agree to that, at the same scale and extension.  pycwt
normalises the series by its standard deviation first and zero-pads it to a
power of two for its FFT (the padding wraps around at the largest scales);
sftwave extends by ``mode`` (``'constant'`` is the paper's zero padding).
The cone of influence is the paper's (e-folding time ``sqrt 2 s`` of a
spike's power at an edge, for the Gaussian envelope every ``mode`` shares),
as pycwt computes it: half a sample is added to the distance to each edge.

Examples
--------
>>> import numpy as np, sftwave
>>> from sftwave import analysis
>>> fs = 4.0                                          # quarterly data, in years
>>> periods = np.geomspace(0.5, 64.0, 50)             # Fourier periods, years
>>> freqs = analysis.frequencies_for_periods(periods)
>>> x = np.random.default_rng(0).standard_normal(504)
>>> power = sftwave.cwt(x, freqs, fs, mode="constant", output="power")
>>> signif, _ = analysis.significance(x, freqs, fs, alpha=0.0)   # white-noise 95 %
>>> mask = analysis.coi_mask(freqs, x.size, fs)
>>> float(np.mean(power[~mask] > signif[:, None].repeat(x.size, 1)[~mask])) < 0.1
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ._checks import check_choice, check_positive
from ._checks.analysis import (
    SIGNIFICANCE_TESTS,
    band_rows,
    check_background,
    check_global_dof,
    check_length,
    check_level,
    check_one_xi,
    check_periods,
    check_row_freqs,
    check_scale_rows,
    check_series,
)
from ._checks.wavelets import check_rows_along
from .plans.families import DOG, Morlet, WaveletFamily, morlet_normalisation, wavelet_family

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "fourier_factor",
    "fourier_period",
    "frequencies_for_periods",
    "normalisation_factor",
    "cone_of_influence",
    "coi_mask",
    "global_spectrum",
    "scale_average",
    "ar1",
    "red_noise_spectrum",
    "significance",
    "Significance",
    "reconstruction_factor",
    "DOFMIN",
    "GAMMA",
    "DELTAJ0",
    "DOG_GAMMA",
    "DOG_DELTAJ0",
]

#: Degrees of freedom of one complex coefficient's power (chi-square with 2).
DOFMIN = Morlet.dofmin
#: Torrence & Compo's Table 2 for the Morlet with ``xi = 6``: the decorrelation factor
#: for time averages (gamma) and for scale averages (delta j0), both empirical.
GAMMA = Morlet.GAMMA
DELTAJ0 = Morlet.DELTAJ0
#: The same factors for the DOG wavelets (``wavelet='dog2'``, ``'dog6'``: Table 2's
#: only orders); the other orders have none (``significance`` refuses their averages).
DOG_GAMMA = dict(DOG.GAMMA)
DOG_DELTAJ0 = dict(DOG.DELTAJ0)

_WAVELET_DOC = """wavelet : str, tuple or WaveletFamily, optional
        The scalogram's wavelet, as :func:`sftwave.cwt` takes it (default
        'morlet'; ``'mexh'``, ``'dog<m>'``, ``DOG(m)``, ...)."""


def _family(wavelet: Any, xi: Any, n: int = 1) -> tuple[WaveletFamily, np.ndarray]:
    """The family of ``wavelet`` and its checked ``xi`` per row (NaN for a family without one)."""
    family = wavelet_family(wavelet)
    return family, family.check_xi(xi, n, design=False)


def fourier_factor(xi: float = 6.0, *, wavelet: str | WaveletFamily = "morlet"
                   ) -> float:
    """Fourier period over scale (Torrence & Compo, Table 1).

    ``4 pi / (xi + sqrt(2 + xi^2))`` for the Morlet (1.0330 for ``xi = 6``);
    ``2 pi / sqrt(m + 1/2)`` for the DOG wavelet of order ``m`` (3.974 for the
    Mexican hat).

    Parameters
    ----------
    xi : float, optional
        The Morlet's ``xi`` (default 6); a wavelet without one refuses any other value.
    %(wavelet)s

    Returns
    -------
    float
        The ratio of Fourier period to scale.

    See Also
    --------
    fourier_period : The Fourier period of each frequency.

    Examples
    --------
    >>> round(fourier_factor(6.0), 4)
    1.033
    >>> round(fourier_factor(wavelet="mexh"), 4)
    3.9738
    """
    family = wavelet_family(wavelet)
    family.check_xi(xi, 1, design=False)
    return float(family.fourier_factor(xi))


def fourier_period(freqs: ArrayLike, xi: float | ArrayLike = 6.0, *,
                   wavelet: str | WaveletFamily = "morlet") -> np.ndarray:
    """Torrence & Compo's Fourier period of the scale that sftwave's frequency ``freqs`` has.

    ``lambda = fourier_factor(xi) * xi / (2 pi f)``: for ``xi = 6``, 0.9865 / f.
    For a DOG wavelet, ``1 / f`` exactly (:func:`sftwave.cwt` puts its rows on
    Fourier periods).

    Parameters
    ----------
    freqs : array_like
        The rows' frequencies, as given to :func:`sftwave.cwt`.
    xi : float or array_like, optional
        The Morlet's ``xi``, one value or one per frequency (default 6).
    %(wavelet)s

    Returns
    -------
    ndarray
        The Fourier period of each row, in the unit of ``1 / freqs``.

    See Also
    --------
    frequencies_for_periods : The inverse conversion.
    fourier_factor : The ratio of Fourier period to scale.

    Examples
    --------
    >>> round(float(fourier_period(1.0)), 4)
    0.9865
    """
    f = np.asarray(freqs, dtype=np.float64)
    family, _ = _family(wavelet, xi, f.size)
    return family.fourier_period(f, xi)


def frequencies_for_periods(periods: ArrayLike, xi: float | ArrayLike = 6.0, *,
                            wavelet: str | WaveletFamily = "morlet") -> np.ndarray:
    """The ``freqs`` for :func:`sftwave.cwt` whose rows have these Fourier periods.

    The inverse of :func:`fourier_period`.

    Parameters
    ----------
    periods : array_like
        Fourier periods, positive and finite.
    xi : float or array_like, optional
        The Morlet's ``xi``, one value or one per period (default 6).
    %(wavelet)s

    Returns
    -------
    ndarray
        The frequencies, in the unit of ``1 / periods``.

    See Also
    --------
    fourier_period : The inverse conversion.
    sftwave.cwt : The transform at those frequencies.

    Examples
    --------
    >>> f = frequencies_for_periods([2.0, 8.0])
    >>> np.allclose(fourier_period(f), [2.0, 8.0])
    True
    """
    p = check_periods(periods)
    family, _ = _family(wavelet, xi, p.size)
    return family.frequencies_for_periods(p, xi)


def normalisation_factor(xi: float = 6.0) -> float:
    """``C_xi``: sftwave's wavelet is ``C_xi`` times the paper's, less its ``kappa`` term.

    ``C_xi = (1 + exp(-xi^2) - 2 exp(-3 xi^2 / 4))^(-1/2)``; the paper's
    coefficients are sftwave's divided by it (exactly where ``kappa =
    exp(-xi^2/2)`` is negligible: below 2e-8 relative for ``xi >= 6``).

    Parameters
    ----------
    xi : float, optional
        The Morlet's ``xi`` (default 6).

    Returns
    -------
    float
        ``C_xi``.

    See Also
    --------
    reconstruction_factor : Torrence & Compo's C_delta.

    Examples
    --------
    >>> abs(normalisation_factor(6.0) - 1.0) < 1e-11
    True
    """
    return morlet_normalisation(check_positive(xi, "xi"))


def cone_of_influence(n: int, fs: float = 1.0, xi: float = 6.0, *,
                      wavelet: str | WaveletFamily = "morlet") -> np.ndarray:
    """The cone of influence as a Fourier period at each of ``n`` times (pycwt's ``coi``).

    At time ``k`` the periods longer than ``coi[k]`` are within the e-folding
    time of a spike's wavelet power (``sqrt(2)`` scales, T&C's Table 1, for the
    Morlet and the DOG wavelets) of an edge:
    ``coi[k] = fourier_factor(xi) / sqrt(2) * (min(k, n - 1 - k) + 1/2) / fs``.

    Parameters
    ----------
    n : int
        The number of samples.
    fs : float, optional
        Sampling rate (default 1).
    xi : float, optional
        The Morlet's ``xi`` (default 6).
    %(wavelet)s

    Returns
    -------
    ndarray
        ``n`` Fourier periods, in the unit of ``1 / fs``.

    See Also
    --------
    coi_mask : The same as a mask of the coefficients.

    Examples
    --------
    >>> c = cone_of_influence(6, fs=1.0)
    >>> bool(np.allclose(c, c[::-1])) and bool(c[0] < c[2])
    True
    """
    n = check_length(n)
    fs = check_positive(fs, "fs")
    family, _ = _family(wavelet, xi)
    return family.cone_of_influence(n, fs, xi)


def coi_mask(freqs: ArrayLike, n: int, fs: float = 1.0, xi: float | ArrayLike = 6.0, *,
             wavelet: str | WaveletFamily = "morlet") -> np.ndarray:
    """True where a coefficient of the scalogram lies inside the cone of influence.

    Row ``f`` is masked at the times where its Fourier period exceeds
    :func:`cone_of_influence`.

    Parameters
    ----------
    freqs : array_like
        The rows' frequencies, as given to :func:`sftwave.cwt`.
    n : int
        The number of samples.
    fs : float, optional
        Sampling rate (default 1).
    xi : float or array_like, optional
        The Morlet's ``xi``, one value or one per frequency (default 6).
    %(wavelet)s

    Returns
    -------
    ndarray of bool
        Shape ``(len(freqs), n)``.

    See Also
    --------
    cone_of_influence : The cone as a curve of times.
    global_spectrum : A time average that leaves the cone out.

    Examples
    --------
    >>> coi_mask([0.25, 0.02], 40).sum(axis=1).tolist()       # 5.4 and 67.5 samples
    [10, 40]
    """
    fs = check_positive(fs, "fs")
    k = np.arange(int(n))
    dist = (np.minimum(k, int(n) - 1 - k) + 0.5) / fs
    # period > factor / efolding * dist  <=>  scale * efolding > dist (the factor cancels)
    family, scale, _ = _scales(freqs, xi, wavelet)
    return family.efolding * scale[:, None] > dist[None, :]


def global_spectrum(power: ArrayLike, mask: ArrayLike | None = None, axis: int = -1) -> np.ndarray:
    """Torrence & Compo's global wavelet spectrum (eq. 22): the time average of the power.

    Parameters
    ----------
    power : array_like
        The power (``cwt(..., output='power')``).
    mask : array_like of bool, optional
        True: left out (e.g. :func:`coi_mask`); each row is then averaged over
        the rest only (NaN for a row left out entirely).
    axis : int, optional
        The time axis (default -1).

    Returns
    -------
    ndarray
        ``power`` averaged over ``axis``.

    See Also
    --------
    scale_average : The average over scales instead.
    significance : Its significance level (``test='global'``).

    Examples
    --------
    >>> global_spectrum(np.array([[1.0, 3.0], [2.0, 2.0]])).tolist()
    [2.0, 2.0]
    """
    p = np.asarray(power, dtype=np.float64)
    if mask is None:
        return p.mean(axis=axis)
    keep = ~np.broadcast_to(np.asarray(mask, bool), p.shape)
    count = keep.sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(keep, p, 0.0).sum(axis=axis) / np.where(count > 0, count, np.nan)


def _scales(freqs: ArrayLike, xi: float | ArrayLike,
            wavelet: Any = "morlet") -> tuple[WaveletFamily, np.ndarray, np.ndarray]:
    """The family, the scales (time units) of the rows and their ``xi`` (NaN where it has none)."""
    f = check_row_freqs(freqs)
    family, xis = _family(wavelet, xi, f.size)
    return family, family.scale(f, 1.0, xis), xis


def _one_cdelta(family: WaveletFamily, xis: np.ndarray, what: str) -> float:
    """The family's ``C_delta`` for rows of one ``xi`` (NaN: a family without one)."""
    return family.reconstruction_factor(check_one_xi(xis, what))


def _dj(scales: np.ndarray) -> np.ndarray:
    """Each row's share of the octave axis: the local spacing of log2(scale)."""
    check_scale_rows(scales.size)
    return np.abs(np.gradient(np.log2(scales)))


def scale_average(power: ArrayLike, freqs: ArrayLike, fs: float = 1.0, xi: float | ArrayLike = 6.0, *,
                  band: Sequence[float] | None = None, axis: int = -2, cdelta: float | None = None,
                  wavelet: str | WaveletFamily = "morlet") -> np.ndarray:
    """Torrence & Compo's scale-averaged power (eq. 24) over the rows in ``band``.

    ``(dj dt / C_delta) sum_j power_j / s_j`` over the rows whose frequency
    lies in ``band``, ``s_j`` the scale in time units, ``dj`` each row's local
    spacing of ``log2 s`` (the paper's constant ``dj`` for geometric
    frequencies), ``dt = 1 / fs``.  Multiply by the series' variance where the
    power is of the series normalised by it (pycwt's recipe).

    Parameters
    ----------
    power : array_like
        sftwave's power (``cwt(..., output='power')``), rows along ``axis``.
    freqs, fs, xi
        The scalogram's rows, as given to :func:`sftwave.cwt`.
    band : (f_lo, f_hi), optional
        The frequencies averaged (default: all rows).
    axis : int, optional
        The rows' axis of ``power`` (default -2).
    cdelta : float, optional
        Default :func:`reconstruction_factor` of ``xi`` and ``wavelet``.
    %(wavelet)s

    Returns
    -------
    ndarray
        ``power`` without ``axis``: the average at each time.

    See Also
    --------
    global_spectrum : The average over time instead.
    significance : Its significance level (``test='scale'``).

    Examples
    --------
    >>> freqs = np.geomspace(0.25, 0.02, 12)
    >>> scale_average(np.ones((12, 5)), freqs).shape
    (5,)
    """
    fs = check_positive(fs, "fs")
    family, scales, xis = _scales(freqs, xi, wavelet)
    if cdelta is None:
        cdelta = _one_cdelta(family, xis, "scale_average")
    p = np.moveaxis(np.asarray(power, dtype=np.float64), axis, -2)
    check_rows_along("power", p.shape[-2], axis, scales.size)
    rows = np.flatnonzero(band_rows(np.atleast_1d(np.asarray(freqs, float)), band))
    w = _dj(scales) / fs / cdelta / scales
    # the band's rows only, summed by numpy's own loop (no BLAS threads)
    return np.einsum("...jt,j->...t", p[..., rows, :], w[rows])


def ar1(x: ArrayLike) -> tuple[float, float, float]:
    """Lag-1 autocorrelation of ``x`` (Allen & Smith's unbiased AR(1) estimate, as pycwt).

    Parameters
    ----------
    x : array_like
        The series (at least 3 finite samples; flattened).

    Returns
    -------
    g : float
        The lag-1 coefficient.
    a : float
        The innovation's standard deviation.
    mu2 : float
        The squared mean of a finite segment normalised by the variance.

    Raises
    ------
    ValueError
        Where no unbiased estimate exists (too short a series or too strong a
        trend; pycwt raises a ``Warning``).

    See Also
    --------
    red_noise_spectrum : The red-noise spectrum of the fitted alpha.
    significance : The significance levels against it.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = np.zeros(4000)
    >>> for i in range(1, x.size):
    ...     x[i] = 0.7 * x[i - 1] + rng.standard_normal()
    >>> round(ar1(x)[0], 1)
    0.7
    """
    v = check_series(x)
    N = v.size
    v = v - v.mean()
    c0 = v @ v / N
    c1 = v[:-1] @ v[1:] / (N - 1)
    B = -c1 * N - c0 * N ** 2 - 2 * c0 + 2 * c1 - c1 * N ** 2 + c0 * N
    A = c0 * N ** 2
    C = N * (c0 + c1 * N - c1)
    D = B ** 2 - 4 * A * C
    if not D > 0:
        raise ValueError("cannot place an upper bound on the unbiased AR(1): the series is too "
                         "short or its trend too large")
    g = (-B - math.sqrt(D)) / (2 * A)
    mu2 = -1 / N + (2 / N ** 2) * ((N - g ** N) / (1 - g) - g * (1 - g ** (N - 1)) / (1 - g) ** 2)
    a = math.sqrt((1 - g ** 2) * c0 / (1 - mu2))
    return float(g), float(a), float(mu2)


def red_noise_spectrum(periods: ArrayLike, alpha: float, dt: float = 1.0) -> np.ndarray:
    """The normalised AR(1) spectrum at Fourier periods ``periods`` (eq. 16).

    ``(1 - alpha^2) / (1 + alpha^2 - 2 alpha cos(2 pi dt / period))``; 1
    (white noise) for ``alpha = 0``.

    Parameters
    ----------
    periods : array_like
        Fourier periods, in the unit of ``dt``.
    alpha : float
        The lag-1 autocorrelation.
    dt : float, optional
        The sampling interval (default 1).

    Returns
    -------
    ndarray
        The spectrum at each period, relative to white noise of the same variance.

    See Also
    --------
    ar1 : Fit alpha to a series.
    significance : The significance levels against it.

    Examples
    --------
    >>> red_noise_spectrum([2.0, 8.0], 0.0).tolist()
    [1.0, 1.0]
    """
    p = np.asarray(periods, dtype=np.float64)
    return (1 - alpha ** 2) / (1 + alpha ** 2 - 2 * alpha * np.cos(2 * np.pi * dt / p))


class Significance(NamedTuple):
    """What :func:`significance` returns: a pair ``(signif, theoretical)``, unpacked as a tuple.

    Parameters
    ----------
    signif : ndarray or float
        The power at the significance level: per row for 'local' and 'global',
        one number for 'scale'.
    theoretical : ndarray or float
        The background spectrum itself (variance times eq. 16), per row; for
        'scale' its scale average.

    See Also
    --------
    significance : The function that returns it.

    Examples
    --------
    >>> res = significance(1.0, [0.1, 0.05], alpha=0.0)
    >>> signif, theor = res
    >>> res.signif is signif
    True
    """

    #: The power at the significance level: per row for 'local' and 'global', one number
    #: for 'scale'.
    signif: np.ndarray | float
    #: The background spectrum itself (variance times eq. 16), per row; for 'scale' its
    #: scale average.
    theoretical: np.ndarray | float


def _background(signal: ArrayLike, alpha: float | None) -> tuple[float, int | None, float]:
    """``(variance, length or None, alpha)`` of :func:`significance`'s ``signal``."""
    arr = check_background(signal, alpha)
    if arr.ndim == 0:
        return float(arr), None, float(alpha)  # type: ignore[arg-type]
    return float(arr.std() ** 2), arr.size, float(ar1(arr)[0] if alpha is None else alpha)


def significance(signal: ArrayLike, freqs: ArrayLike, fs: float = 1.0, xi: float | ArrayLike = 6.0, *,
                 alpha: float | None = None, level: float = 0.95, test: str = "local",
                 dof: ArrayLike | None = None, band: Sequence[float] | None = None,
                 cdelta: float | None = None,
                 wavelet: str | WaveletFamily = "morlet") -> Significance:
    """Power significant at ``level`` against AR(1) noise (Torrence & Compo, section 4).

    Parameters
    ----------
    signal : array_like or float
        The series (its variance and, without ``alpha``, its lag-1
        autocorrelation are taken from it), or its variance (then ``alpha``
        is required; 1.0 for a normalised series).
    freqs, fs, xi
        The scalogram's rows, as given to :func:`sftwave.cwt`.
    alpha : float, optional
        Lag-1 autocorrelation of the background (0: white noise); default
        :func:`ar1` of ``signal``.
    level : float
        Significance level (0.95: the 95 % level).
    test : {'local', 'global', 'scale'}
        ``'local'``: each coefficient's power (eq. 18, chi-square with 2
        degrees of freedom); ``'global'``: a time average over ``dof``
        coefficients per row (eq. 23; ``dof`` the number of times averaged,
        e.g. the series' length, or those outside the cone of influence, one
        per row); ``'scale'``: the scale average over ``band`` (eqs. 25-28).
    dof : int or array, optional
        For ``test='global'``: the times averaged (default: the length of
        ``signal``).
    band : (f_lo, f_hi), optional
        For ``test='scale'``: the frequencies averaged (as :func:`scale_average`).
    cdelta : float, optional
        For ``test='scale'``: default :func:`reconstruction_factor`.
    wavelet : str, tuple or WaveletFamily, optional
        The wavelet of the scalogram, as :func:`sftwave.cwt` takes it
        (default 'morlet'): its family's degrees of freedom per coefficient
        (a DOG wavelet's rows are real, their power chi-square with one degree
        of freedom, T&C's Table 2 ``dofmin``) and decorrelation factors
        (Table 2's for ``xi = 6`` and for ``'dog2'`` and ``'dog6'``,
        :data:`DOG_GAMMA`, :data:`DOG_DELTAJ0`; others: 'local' only).

    Returns
    -------
    Significance
        ``(signif, theoretical)``: the power at the significance level, per
        row for 'local' and 'global' (compare ``power`` to ``signif[:, None]``),
        one number for 'scale' (compare :func:`scale_average` times the
        variance to it); and the background spectrum itself (variance times
        eq. 16), per row, for 'scale' its scale average.

    See Also
    --------
    ar1 : The lag-1 autocorrelation it fits.
    sftwave.plot.scalogram : Draw the levels as contours.

    Notes
    -----
    The time and scale decorrelation factors (``GAMMA = 2.32``,
    ``DELTAJ0 = 0.60``) are the paper's empirical values for ``xi = 6``;
    'global' and 'scale' refuse other ``xi`` (and DOG orders other than 2 and 6).  As pycwt, the red-noise
    spectrum is evaluated at each row's Fourier period (:func:`fourier_period`).

    Examples
    --------
    >>> freqs = np.geomspace(0.25, 0.02, 12)
    >>> signif, theor = significance(1.0, freqs, alpha=0.0)
    >>> round(float(signif[0] / theor[0]), 4)                 # chi2(2) at 95 %% over 2
    2.9957
    """
    fs = check_positive(fs, "fs")
    dt = 1.0 / fs
    level = check_level(level)
    test = check_choice(test, SIGNIFICANCE_TESTS, "test")
    variance, n0, alpha = _background(signal, alpha)
    family, scales, xis = _scales(freqs, xi, wavelet)
    f = np.atleast_1d(np.asarray(freqs, float))
    theor = variance * red_noise_spectrum(family.fourier_period(f, xis), alpha, dt)
    dofmin = family.dofmin
    if test == "local":
        return Significance(theor * chi2_ppf(level, dofmin) / dofmin, theor)
    gamma, deltaj0 = family.decorrelation(xis, test)
    if test == "global":
        d = np.broadcast_to(np.maximum(check_global_dof(dof, n0), 1.0), scales.shape)
        d = np.maximum(dofmin * np.sqrt(1 + (d * dt / gamma / scales) ** 2), dofmin)
        return Significance(theor * chi2_ppf(level, d) / d, theor)
    sel = band_rows(f, band)
    if cdelta is None:
        cdelta = _one_cdelta(family, xis, "significance")
    dj = float(np.mean(_dj(scales)[sel]))
    navg = int(sel.sum())
    savg = 1.0 / np.sum(1.0 / scales[sel])
    smid = math.exp(0.5 * (math.log(scales[sel].min()) + math.log(scales[sel].max())))
    d = (dofmin * navg * savg / smid) * math.sqrt(1 + (navg * dj / deltaj0) ** 2)
    theor_avg = savg * float(np.sum(theor[sel] / scales[sel]))
    return Significance((dj * dt / cdelta / savg) * theor_avg * chi2_ppf(level, d) / d, theor_avg)


def chi2_ppf(level: float, dof: Any) -> Any:
    """``scipy.stats.chi2.ppf(level, dof)`` for ``level`` in (0, 1) and ``dof`` > 0: its formula
    ``2 gammaincinv(dof / 2, level)`` by scipy.special (lighter to import than scipy.stats)."""
    from scipy.special import gammaincinv

    return 2 * gammaincinv(np.asarray(dof, dtype=float) / 2, level)


def reconstruction_factor(xi: float = 6.0, *,
                          wavelet: str | WaveletFamily = "morlet") -> float:
    r"""``C_delta`` of sftwave's wavelet (Torrence & Compo, eq. 13), in the limit of a
    dense set of scales covering every frequency.

    The factor that makes the sum over scales of ``Re W / sqrt(s)`` give back
    a delta: ``C_delta = dj / psi_0(0) * sum_j Re W_delta(s_j) / sqrt(s_j)``,
    which for scales dense in ``log s`` and reaching the Nyquist frequency is
    ``(pi / ln 2) / (sqrt(2 pi) psi_0(0)) * integral_0^inf F(a) / a^2 da``,
    ``F(a)`` the integral of the wavelet's Fourier transform over ``[-a, a]``;
    for the Morlet computed as ``integral_0^inf h(u) / u du`` (``h = F'``) by
    quadrature.  0.7784 for ``xi = 6`` (the paper's Table 2: 0.776); a set of
    scales starting at ``s_0 = 2 dt``, as the paper's examples, misses the
    highest frequencies of a delta and reconstructs it with about 0.71
    instead, which no real series notices.

    For a DOG wavelet of even order ``m`` the same limit, with its transform
    ``u^m exp(-u^2/2) / sqrt(Gamma(m + 1/2))``:
    ``(pi / ln 2) / sqrt(2 pi) * 2^(m/2) (m/2 - 1)! / (sqrt(Gamma(m + 1/2)) psi_0(0))``,
    3.616 for ``m = 2`` and 1.929 for ``m = 6`` (the paper's Table 2, from
    its finite sets of scales: 3.541 and 1.966, within 2 %%).  Odd orders have
    ``psi_0(0) = 0``: no delta reconstruction (``ValueError``).

    Parameters
    ----------
    xi : float, optional
        The Morlet's ``xi`` (default 6).
    %(wavelet)s

    Returns
    -------
    float
        ``C_delta``.

    See Also
    --------
    sftwave.icwt : The reconstruction.
    scale_average : The scale-averaged power, which uses it.

    Examples
    --------
    >>> abs(reconstruction_factor(6.0) / 0.776 - 1) < 0.01
    True
    >>> round(reconstruction_factor(wavelet="mexh"), 3)
    3.616
    """
    family = wavelet_family(wavelet)
    family.check_xi(xi, 1, design=False)
    return family.reconstruction_factor(xi)


for _f in (fourier_factor, fourier_period, frequencies_for_periods, cone_of_influence, coi_mask,
           scale_average, reconstruction_factor):
    _f.__doc__ = (_f.__doc__ or "").replace("%(wavelet)s", _WAVELET_DOC)
for _g in (significance, reconstruction_factor):
    _g.__doc__ = (_g.__doc__ or "").replace("%%", "%")
del _f, _g
