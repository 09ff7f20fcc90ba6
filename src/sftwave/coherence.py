r"""Cross-wavelet transform, wavelet coherence and its Monte-Carlo significance.

After Torrence & Webster (1999) and Grinsted, Moore & Jevrejeva (2004), on
sftwave's Morlet scalograms (:func:`sftwave.cwt`; rows indexed by frequency,
scale ``s = xi / (2 pi f)`` in time units):

* :func:`xwt`: the cross-wavelet spectrum ``W_x conj(W_y)``;
* :func:`wct`: the squared wavelet coherence
  ``R^2 = |S(W_xy / s)|^2 / (S(|W_x|^2 / s) S(|W_y|^2 / s))`` in ``[0, 1]``, the
  phase of the smoothed cross-spectrum and the cone of influence;
* :func:`smooth`: the smoothing operator ``S`` alone;
* :func:`wct_pairs`: :func:`wct` of many pairs of channels, each channel
  transformed and its power smoothed once;
* :func:`wct_significance`: the level of ``R^2`` that pairs of independent
  AR(1) series exceed with probability ``1 - level``, per row, by Monte Carlo.

The smoothing ``S``, side by side (``s`` the row's scale, ``dj`` the spacing
of the rows in octaves, ``0.6`` Torrence & Compo's decorrelation length of
the Morlet in octaves, :data:`sftwave.analysis.DELTAJ0`):

================  ===============================  ===============================  ==============================
                  Grinsted's ``smoothwavelet.m``   pycwt's ``Morlet.smooth``        sftwave (``smoothing=``)
================  ===============================  ===============================  ==============================
time              Gaussian ``exp(-t^2 / (2 s^2))``  the same Gaussian, by FFT with   the same Gaussian
                  by FFT, zero-padded to a power   zero padding to a power of two:  (:func:`sftwave.gaussian_filter1d`
                  of two: the large scales wrap    the large scales wrap the end    at ``sigma = s fs`` samples): no
                  the end onto the start           onto the start                   wrap; ``mode`` at the edges
scale             boxcar, ``2 round(d) - 1`` ones  boxcar of ``round(1.2 / dj)``    ``'grinsted'``: a boxcar of
                  and ends ``frac(d)``,            rows with half ends: twice       width ``0.6`` octaves, each
                  ``d = 0.3 / dj`` (7 + 2 x 0.6    Grinsted's width (14 rows for    row weighted by the share of
                  rows for ``dj = 1/12``)          ``dj = 1/12``), zeros beyond     its cell inside the box
                                                   the first and last row           (``[0.1, 1 x 7, 0.1]`` for
                                                                                    ``dj = 1/12``); any row spacing.
                                                                                    ``'pycwt'``: pycwt's boxcar
================  ===============================  ===============================  ==============================

Grinsted's paper defines the scale smoothing as a boxcar of width
``0.6`` octaves (``2 d`` rows); his code's kernel is ``2 round(d) - 1 + 2 frac(d)``
rows wide (``d = 0.3 / dj``): ``2 d - 1`` where ``frac(d) < 1/2`` and ``2 d + 1``
otherwise, a row narrower or wider (its end weights are ``frac(d)`` where the
share of the end rows inside the box is ``frac(d - 1/2)``); pycwt doubles the
width.  ``'grinsted'`` here is the paper's width, integrated over the rows' cells on the
``log2(scale)`` axis, so the rows need not be uniformly spaced.  The
weights of each row are normalised to sum to 1 (near the first and last rows
Grinsted and pycwt pad with zeros instead; the coherence is the same, since
the three smoothed spectra share the weights).  The time smoothing is exact
(sftwave's Gaussian, to its ``tol``) with sftwave's boundary modes; pycwt's
wrap is reproduced by :mod:`sftwave.pycwt`, which pads as pycwt does and
smooths with ``mode='wrap'``.

Conventions.  The phase is that of ``W_x conj(W_y)``: positive where ``x``
leads ``y``.  :func:`wct` returns the angle of the *smoothed* cross-spectrum
(the phase of the coherence, as Grinsted's arrows); pycwt's ``wct`` returns
the angle of the unsmoothed ``W_x conj(W_y)`` (:func:`sftwave.pycwt.wct` does
too).  pycwt normalises each series by its standard deviation; the coherence
does not depend on that (nor on any scaling of either series).

Examples
--------
>>> import numpy as np
>>> from sftwave import coherence
>>> rng = np.random.default_rng(0)
>>> t = np.arange(2000)
>>> common = np.sin(2 * np.pi * t / 50)
>>> x = common + 0.5 * rng.standard_normal(t.size)
>>> y = np.roll(common, 5) + 0.5 * rng.standard_normal(t.size)     # y lags x by 5 samples
>>> freqs = np.array([1 / 200, 1 / 50, 1 / 10])
>>> r = coherence.wct(x, y, freqs)
>>> r.coherence.shape, round(float(np.median(r.coherence[1])), 2)    # shared at 1/50
((3, 2000), 1.0)
>>> round(float(np.median(r.phase[1])) * 50 / (2 * np.pi))   # x leads by 5 samples
5
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from . import engines
from ._checks import check_input_array
from ._checks.coherence import SMOOTHINGS as _SMOOTHINGS
from ._checks.coherence import (
    PairsRequest,
    SignificanceRequest,
    WctRequest,
    check_channels,
    check_indices,
    check_pair,
    pairs_request,
    significance_request,
    smooth_request,
    wct_request,
    xwt_request,
)
from ._checks.coherence import checked_scales as checked_scales  # (sftwave.dask imports it here)
from ._checks.wavelets import check_scalogram_rows
from ._wide_rows import wide_smoothers
from .analysis import DELTAJ0, cone_of_influence
from .ndimage import gaussian_filter1d
from .plans.cache import on_disk
from .plans.coherence import (
    ar1_groups,
    coi_bounds,
    mc_nodes,
    mc_strides,
    mc_weights,
    pair_chunks,
    pair_lines,
)
from .plans.coherence import scale_weights as scale_weights  # (sftwave.dask and pycwt import it here)
from .wavelets import cwt

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["xwt", "wct", "wct_pairs", "smooth", "wct_significance", "Coherence", "PairCoherence",
           "SMOOTHINGS"]

#: The scale smoothings :func:`wct` and :func:`smooth` take (checked by
#: ``sftwave._checks.coherence``, which also holds ``checked_scales``, the one parser
#: of the wavelet's ``xi`` here).
SMOOTHINGS = _SMOOTHINGS

#: The version of the Monte-Carlo procedure, part of the key of its disk cache.
_MC_VERSION = 3
#: The most coherence values one Monte-Carlo draw may hold at once (its rows times samples).
_MC_BATCH_VALUES = 4_000_000


class Coherence(NamedTuple):
    """The result of :func:`wct` (a named tuple).

    Parameters
    ----------
    coherence : ndarray
        ``R^2`` in ``[0, 1]``, shape ``(..., len(freqs), n)``.
    phase : ndarray
        The angle of the smoothed cross-spectrum, radians in ``(-pi, pi]``:
        positive where ``x`` leads ``y``.
    cross : ndarray
        The smoothed cross-spectrum ``S(W_x conj(W_y) / s)`` (complex).
    coi : ndarray
        The cone of influence, a Fourier period per time
        (:func:`sftwave.analysis.cone_of_influence`).

    See Also
    --------
    wct : The function that returns it.

    Examples
    --------
    >>> import numpy as np
    >>> r = wct(np.arange(64.0) % 5, np.arange(64.0) % 3, [0.2])
    >>> r._fields
    ('coherence', 'phase', 'cross', 'coi')
    """

    coherence: np.ndarray
    phase: np.ndarray
    cross: np.ndarray
    coi: np.ndarray


class PairCoherence(NamedTuple):
    """The result of :func:`wct_pairs` (a named tuple): :class:`Coherence`'s, one per pair.

    Parameters
    ----------
    coherence, phase : ndarray
        As :class:`Coherence`'s, shape ``(..., n_pairs, len(freqs), n)``:
        pair ``p`` is ``wct(x[seeds[p]], x[targets[p]])``.
    cross : ndarray or None
        The smoothed cross-spectra (complex, of that shape) with
        ``return_cross=True``; else None (they would double the output).
    coi : ndarray
        The cone of influence, a Fourier period per time.
    seeds, targets : ndarray
        The pairs' channels (int64).
    significance : ndarray or None
        With ``significance=True``, the Monte-Carlo level of ``R^2`` per pair
        and row, shape ``(..., n_pairs, len(freqs))`` (NaN where a channel
        has no AR(1) estimate); else None.

    See Also
    --------
    wct_pairs : The function that returns it.

    Examples
    --------
    >>> import numpy as np
    >>> wct_pairs(np.arange(192.0).reshape(3, 64) % 7, [0.2])._fields[-3:]
    ('seeds', 'targets', 'significance')
    """

    coherence: np.ndarray
    phase: np.ndarray
    cross: np.ndarray | None
    coi: np.ndarray
    seeds: np.ndarray
    targets: np.ndarray
    significance: np.ndarray | None


def apply_scale_weights(B: np.ndarray, v: np.ndarray, axis: int, engine: str | None = None
                        ) -> np.ndarray:
    """``B`` applied along ``axis`` of ``v``, diagonal by diagonal (only nonzero weights).

    Each output is a sum over the same rows in the same order whatever the
    thread count (no BLAS), and a NaN reaches only the rows whose weights
    touch it.  The engine's operation ``'coherence_scale_weights'``
    (``engine`` None: by ``v``'s array type).
    """
    name = engines.resolve_engine(engine, v)
    return engines.operation(name, "coherence_scale_weights")(B, v, axis)


def _time_smooth(v: np.ndarray, sigmas: np.ndarray, mode: str, cval: float,
                 tol: float | None, engine: str | None = None) -> np.ndarray:
    """Each row ``i`` of ``v`` (rows first, time last) by a Gaussian of ``sigmas[i]`` samples."""
    out = np.empty_like(v)
    for i, s in enumerate(sigmas):
        gaussian_filter1d(v[i], float(s), axis=-1, output=out[i], mode=mode, cval=cval, tol=tol,
                          engine=engine)
    return out


def smooth(values: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, xi: float = 6.0,
           smoothing: str = "grinsted", scale_width: float = DELTAJ0, mode: str = "reflect",
           cval: float = 0.0, tol: float | None = None, engine: str | None = None) -> np.ndarray:
    """Torrence & Webster's smoothing of a scalogram in time and scale (coherence's ``S``).

    Each row (axis -2, one per frequency; time on axis -1) is smoothed in time
    by a Gaussian of standard deviation its scale ``s = xi / (2 pi f)``
    (``s fs`` samples, :func:`sftwave.gaussian_filter1d` with ``mode``), then
    the rows are averaged by a boxcar of ``scale_width`` octaves (see the
    module's table for ``smoothing``).

    Parameters
    ----------
    values : array_like
        Real or complex, shape ``(..., len(freqs), n)``.
    freqs : sequence of float
        The rows' frequencies, in the unit of ``fs``.
    fs : float, optional
        Sampling rate.  Default 1.
    xi : float, optional
        The wavelet's ``xi`` (the scale of a row is ``xi / (2 pi f)``).  Default 6.
    smoothing : {'grinsted', 'pycwt'}, optional
        The scale boxcar: Grinsted's width, or pycwt's (twice as wide; needs
        log-uniform rows).  Default 'grinsted'.
    scale_width : float, optional
        The boxcar's width in octaves for ``'grinsted'`` (half pycwt's).
        Default 0.6 (Torrence & Compo's ``delta j0`` of the Morlet, ``xi = 6``).
    mode, cval, tol : optional
        The time smoothing's boundary and accuracy (:func:`sftwave.gaussian_filter1d`).
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it, as for :func:`sftwave.gaussian_filter`: None/``'auto'``
        (default), ``'numba'`` for numpy arrays and ``'xp'`` for other array
        types.  Only the CPU engine (``'numba'``) has coherence's operations;
        another raises :class:`sftwave.engines.UnsupportedOperation`.

    Returns
    -------
    ndarray
        The smoothed values, float64 or complex128, of the shape of ``values``.

    See Also
    --------
    wct : The coherence, whose three spectra this smooths.

    Examples
    --------
    >>> import numpy as np
    >>> v = np.ones((3, 100))
    >>> bool(np.allclose(smooth(v, [0.1, 0.05, 0.025]), 1.0))     # weights sum to 1
    True
    """
    req = smooth_request(freqs, fs=fs, xi=xi, smoothing=smoothing, scale_width=scale_width,
                         mode=mode, cval=cval, tol=tol,
                         engine=engines.resolve_engine(engine, values))
    weigh = engines.operation(req.engine, "coherence_scale_weights")
    v = check_input_array(values, "values")
    v = v.astype(np.complex128 if v.dtype.kind == "c" else np.float64, copy=False)
    check_scalogram_rows("values", v.shape, req.freqs.size)
    rows = np.moveaxis(v, -2, 0)
    t = _time_smooth(np.ascontiguousarray(rows), req.sigmas, req.mode, req.cval, req.tol,
                     req.engine)
    B = scale_weights(req.sigmas, req.smoothing, req.scale_width)
    return np.moveaxis(weigh(B, t, 0), 0, -2)


def xwt(x: ArrayLike, y: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, xi: float = 6.0,
        axis: int = -1, mode: str = "reflect", cval: float = 0.0, tol: float | None = None,
        workers: int | None = None, nan_policy: str = "propagate", engine: str | None = None
        ) -> np.ndarray:
    """The cross-wavelet spectrum ``W_x conj(W_y)`` of two signals (Torrence & Compo's XWT).

    Parameters
    ----------
    x, y : array_like
        Real signals; ``axis`` is time, of the same length in both; their
        other (channel, epoch) axes broadcast against each other.
    freqs : float or sequence of float
        Frequencies in the unit of ``fs`` (as :func:`sftwave.cwt`).
    fs : float, optional
        Sampling rate.  Default 1.
    xi : float, optional
        The Morlet's ``xi``.  Default 6.
    axis : int, optional
        The time axis of ``x`` and ``y``.  Default -1.
    mode, cval, tol, workers, nan_policy : optional
        As for :func:`sftwave.cwt` (pycwt pads with zeros: ``mode='constant'``).
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it, as for :func:`sftwave.gaussian_filter`: None/``'auto'``
        (default), ``'numba'`` for numpy arrays and ``'xp'`` for other array
        types.  Only the CPU engine (``'numba'``) has coherence's operations;
        another raises :class:`sftwave.engines.UnsupportedOperation`.

    Returns
    -------
    ndarray
        complex128, shape ``(*broadcast leading axes, len(freqs), n)``; its
        angle is positive where ``x`` leads ``y``.

    See Also
    --------
    wct : The coherence, a normalised smoothing of this.
    sftwave.pycwt.xwt : pycwt's function and returns.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(1000)
    >>> x, y = np.sin(2 * np.pi * t / 40), np.sin(2 * np.pi * (t - 4) / 40)
    >>> w = xwt(x, y, [1 / 40])
    >>> round(float(np.angle(w[0, 500])) * 40 / (2 * np.pi), 2)      # x leads by 4 samples
    4.0
    """
    req = xwt_request(freqs, fs=fs, xi=xi, axis=axis, mode=mode, cval=cval, tol=tol,
                      workers=workers, nan_policy=nan_policy,
                      engine=engines.resolve_engine(engine, x))
    cross = engines.operation(req.engine, "coherence_cross")
    a, b = check_pair(x, y, req.axis)
    W = cwt(np.stack([a, b]), req.freqs, req.fs, xi=req.xi, mode=req.mode, cval=req.cval,
            tol=req.tol, workers=req.workers, nan_policy=req.nan_policy, dtype=np.complex128,
            engine=req.engine)
    return cross(W)


def coherence_rows(W: np.ndarray, sig: np.ndarray, B: np.ndarray, mode: str, cval: float,
                   tol: float | None = None, engine: str | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``R^2`` and the smoothed cross-spectrum, both ``(m, k, n)``, of coefficient pairs.

    ``W``: complex, shape ``(2, k, m, n)`` (:func:`sftwave.cwt` of the pairs
    stacked on a first axis).  The three spectra (over
    ``s``, the scale in samples: the ``1/s`` of Grinsted's code, up to ``fs``
    which cancels) are smoothed together, as one real array ``(m, 4 k, n)``.
    The engine's operations ``'coherence_spectra'`` and ``'coherence_combine'``
    (``engine`` None: by ``W``'s array type).
    """
    name = engines.resolve_engine(engine, W)
    spectra = engines.operation(name, "coherence_spectra")
    combine = engines.operation(name, "coherence_combine")
    _, k, m, n = W.shape
    S = spectra(W, 1.0 / sig, np.dtype(np.float64))          # (m, 4, k, n)
    S = _time_smooth(S.reshape(m, 4 * k, n), sig, mode, cval, tol, name).reshape(m, 4, k, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        r2, cross = combine(S, B)
    return r2, cross


def wct(x: ArrayLike, y: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *, xi: float = 6.0,
        smoothing: str = "grinsted", scale_width: float = DELTAJ0, axis: int = -1,
        mode: str = "reflect", cval: float = 0.0, tol: float | None = None,
        workers: int | None = None, nan_policy: str = "propagate", engine: str | None = None
        ) -> Coherence:
    """Wavelet coherence of two signals (Torrence & Webster 1999, Grinsted et al. 2004).

    ``R^2 = |S(W_x conj(W_y) / s)|^2 / (S(|W_x|^2 / s) S(|W_y|^2 / s))``, with
    ``S`` :func:`smooth` (a Gaussian of sigma the scale in time, a boxcar of
    0.6 octaves across scales): in ``[0, 1]`` up to rounding, 1 where the two
    signals are linearly related in the neighbourhood.

    Parameters
    ----------
    x, y : array_like
        Real signals; ``axis`` is time, of the same length in both; their
        other axes broadcast against each other.
    freqs : float or sequence of float
        Frequencies in the unit of ``fs`` (as :func:`sftwave.cwt`), any order
        and spacing for ``smoothing='grinsted'``.
    fs : float, optional
        Sampling rate.  Default 1.
    xi : float, optional
        The Morlet's ``xi`` (one value).  Default 6.
    smoothing : {'grinsted', 'pycwt'}, optional
        The width of the scale boxcar: the paper's 0.6 octaves, or pycwt's
        twice that (log-uniform rows only).  Default 'grinsted'.
    scale_width : float, optional
        The boxcar's width in octaves for ``'grinsted'``.  Default 0.6.
    axis : int, optional
        The time axis.  Default -1.
    mode, cval : optional
        Boundary of the transform and of the time smoothing (scipy.ndimage's
        modes; pycwt pads with zeros: ``mode='constant'``).  Default 'reflect'.
        ``cval`` extends the signals; with ``'constant'`` the spectra are
        extended with zeros (as pycwt's).
    tol, workers, nan_policy : optional
        As for :func:`sftwave.cwt` (``tol`` also for the Gaussian smoothing);
        a non-finite sample makes the outputs it reaches through the wavelet
        and the smoothing NaN.
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it, as for :func:`sftwave.gaussian_filter`: None/``'auto'``
        (default), ``'numba'`` for numpy arrays and ``'xp'`` for other array
        types.  Only the CPU engine (``'numba'``) has coherence's operations;
        another raises :class:`sftwave.engines.UnsupportedOperation`.

    Returns
    -------
    Coherence
        A named tuple ``(coherence, phase, cross, coi)``: ``R^2`` and the
        phase of the smoothed cross-spectrum (positive where ``x`` leads),
        shape ``(*leading axes, len(freqs), n)``, the smoothed cross-spectrum,
        and the cone of influence (a Fourier period per time, in the unit of
        ``1 / fs``).

    See Also
    --------
    xwt : The unsmoothed cross-spectrum.
    smooth : The smoothing ``S``.
    wct_significance : The level of ``R^2`` that red noise exceeds by chance.
    sftwave.pycwt.wct : pycwt's function and returns.
    sftwave.analysis.coi_mask : The cone as a mask of the rows.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> x = rng.standard_normal(3000)
    >>> y = 2.0 * x + 0.1 * rng.standard_normal(3000)           # y follows x
    >>> r = wct(x, y, [0.02, 0.1])
    >>> bool(r.coherence.min() > 0.95), r.coi.shape
    (True, (3000,))
    """
    req = wct_request(freqs, fs=fs, xi=xi, smoothing=smoothing, scale_width=scale_width,
                      axis=axis, mode=mode, cval=cval, tol=tol, workers=workers,
                      nan_policy=nan_policy, engine=engines.resolve_engine(engine, x))
    for op in ("coherence_spectra", "coherence_combine"):     # before any work
        engines.operation(req.engine, op)
    B = scale_weights(req.sigmas, req.smoothing, req.scale_width)
    a, b = check_pair(x, y, req.axis)
    lead, n = a.shape[:-1], a.shape[-1]
    W = cast(np.ndarray, cwt(np.stack([a.reshape(-1, n), b.reshape(-1, n)]), req.freqs, req.fs,
                             xi=req.xi, mode=req.mode, cval=req.cval, tol=req.tol,
                             workers=req.workers, nan_policy=req.nan_policy, dtype=np.complex128,
                             engine=req.engine))     # NumPy in: the CPU engine's NumPy out
    r2, cross = coherence_rows(W, req.sigmas, B, req.mode, 0.0, req.tol, req.engine)
    del W
    shape = lead + (req.freqs.size, n)
    r2 = np.moveaxis(r2, 0, -2).reshape(shape)
    cross = np.moveaxis(cross, 0, -2).reshape(shape)
    return Coherence(r2, np.angle(cross), cross, cone_of_influence(n, req.fs, req.xi))


def wct_pairs(x: ArrayLike, freqs: ArrayLike, fs: float = 1.0, *,
              indices: tuple[ArrayLike, ArrayLike] | None = None, xi: float = 6.0,
              smoothing: str = "grinsted", scale_width: float = DELTAJ0, axis: int = -1,
              mode: str = "reflect", cval: float = 0.0, tol: float | None = None,
              workers: int | None = None, nan_policy: str = "propagate",
              significance: bool = False, level: float = 0.95, mc_count: int = 300,
              seed: int = 0, ar1_decimals: int = 2, cache: bool = True,
              return_cross: bool = False, engine: str | None = None) -> PairCoherence:
    """Wavelet coherence of every pair of channels (:func:`wct` of each, channels transformed once).

    Each channel is transformed once and its power ``S(|W|^2 / s)`` smoothed
    once; each pair's cross-spectrum ``S(W_i conj(W_j) / s)`` is smoothed and
    combined with the two powers in a kernel, a chunk of pairs at a time (no
    more than the output's size is held besides the channels' transforms).
    Pair ``p`` equals ``wct(x[seeds[p]], x[targets[p]], freqs, ...)`` to
    rounding, NaN included.

    Parameters
    ----------
    x : array_like
        Real signals, shape ``(..., n_channels, n)`` with time on ``axis``
        (moved last) and the channels on the axis before it; the leading axes
        (epochs) are kept.
    freqs, fs, xi, smoothing, scale_width, axis, mode, cval, tol, workers, nan_policy : optional
        As for :func:`wct`.
    indices : (seeds, targets), optional
        The pairs, two sequences of channels of one length; None (default):
        every pair of channels once, in mne-connectivity's order
        (``indices=None`` there): ``numpy.tril_indices(n_channels, -1)``, each
        seed after its target.  ``numpy.triu_indices(n_channels, 1)`` gives the
        same pairs swapped: the same coherence, the phase negated.
    significance : bool, optional
        Also the Monte-Carlo level of ``R^2`` per pair and row
        (:func:`wct_significance` with ``level``, ``mc_count``, ``seed``,
        ``cache``, this call's rows and smoothing and its other defaults,
        against AR(1) noise of the two channels' coefficients,
        :func:`sftwave.analysis.ar1` per channel and epoch).  The coefficients
        are rounded to ``ar1_decimals`` (and clipped to ``+-(1 - 10^-d)``),
        and the level is computed once per distinct rounded ``(a_i, a_j)``:
        pairs of channels of the same red noise share one Monte Carlo.
        Default False.
    level, mc_count, seed, cache : optional
        As for :func:`wct_significance`.
    ar1_decimals : int, optional
        The decimals the AR(1) coefficients are rounded to (1 to 6).  Default 2.
    return_cross : bool, optional
        Also return the smoothed cross-spectra (as :func:`wct`'s ``cross``),
        which take twice the memory of the coherence.  Default False.
    engine : {None, 'auto', 'numba'}, optional
        As for :func:`wct` (only the CPU engine has coherence's operations).

    Returns
    -------
    PairCoherence
        ``(coherence, phase, cross, coi, seeds, targets, significance)``;
        the coherence and phase (and the cross-spectra, or None) of shape
        ``(..., n_pairs, len(freqs), n)``.

    See Also
    --------
    wct : One pair.
    wct_significance : The Monte-Carlo level.
    sftwave.dask.wct_pairs : The same lazily, by chunks of pairs.
    sftwave.xarray.wct_pairs : A DataArray's channels by dimension name, pairs named by label.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(2)
    >>> x = rng.standard_normal((4, 2000))
    >>> x[1] += x[0]                                        # channels 0 and 1 share a part
    >>> r = wct_pairs(x, [0.05, 0.1])
    >>> r.coherence.shape, r.seeds.tolist(), r.targets.tolist()
    ((6, 2, 2000), [1, 2, 2, 3, 3, 3], [0, 0, 1, 0, 1, 2])
    >>> bool(np.allclose(r.coherence[0], wct(x[1], x[0], [0.05, 0.1]).coherence, atol=1e-12))
    True
    """
    req = pairs_request(freqs, fs=fs, xi=xi, smoothing=smoothing, scale_width=scale_width,
                        axis=axis, mode=mode, cval=cval, tol=tol, workers=workers,
                        nan_policy=nan_policy, significance=significance, level=level,
                        mc_count=mc_count, seed=seed, ar1_decimals=ar1_decimals, cache=cache,
                        return_cross=return_cross, engine=engines.resolve_engine(engine, x))
    w = req.wct
    for op in ("coherence_pair_spectra", "coherence_powers", "coherence_pair_combine",
               "coherence_band_rows", "coherence_interpolated_rows"):
        engines.operation(w.engine, op)                       # before any work
    v = check_channels(x, w.axis)
    seeds, targets = check_indices(indices, v.shape[-2])
    lead, c, n = v.shape[:-2], v.shape[-2], v.shape[-1]
    lines = v.reshape(-1, n)
    a, b = pair_lines(seeds, targets, c, lines.shape[0] // c if c else 0)
    W, P = pair_channels(lines, w)
    r2, phase, cross = pair_rows(W, P, a, b, w, req.return_cross)
    del W, P
    shape = lead + (seeds.size, w.freqs.size, n)
    levels = None
    if req.significance:
        levels = pair_levels(lines, a, b, req).reshape(lead + (seeds.size, w.freqs.size))
    return PairCoherence(r2.reshape(shape), phase.reshape(shape),
                         None if cross is None else cross.reshape(shape),
                         cone_of_influence(n, w.fs, w.xi), seeds, targets, levels)


def pair_channels(lines: np.ndarray, w: WctRequest) -> tuple[np.ndarray, np.ndarray]:
    """The channels' transforms ``W`` ``(lines, m, n)`` and smoothed powers ``P`` ``(m, lines,
    n)`` (time and scale smoothing, ``1/s`` weighted) of :func:`wct_pairs` (sftwave.dask too)."""
    W = cast(np.ndarray, cwt(lines, w.freqs, w.fs, xi=w.xi, mode=w.mode, cval=w.cval, tol=w.tol,
                             workers=w.workers, nan_policy=w.nan_policy, dtype=np.complex128,
                             engine=w.engine))                 # NumPy in: NumPy out
    P = engines.operation(w.engine, "coherence_powers")(W, 1.0 / w.sigmas)
    B = scale_weights(w.sigmas, w.smoothing, w.scale_width)
    band = engines.operation(w.engine, "coherence_band_rows")
    return W, band(B, _time_smooth(P, w.sigmas, w.mode, 0.0, w.tol, w.engine))


def pair_rows(W: np.ndarray, P: np.ndarray, a: np.ndarray, b: np.ndarray, w: WctRequest,
              keep_cross: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``R^2``, phase and (``keep_cross``) cross-spectrum ``(q, m, n)`` of the pairs of lines
    ``(a, b)`` from :func:`pair_channels`' ``W`` and ``P``, a chunk of pairs at a time.

    Each chunk's cross-spectra are written into one buffer and smoothed there in
    place: by the Gaussian filter, or, on the rows where the filter takes its
    exact wide limit, by that limit's interpolation (``sftwave._wide_rows``).
    """
    pair_spectra = engines.operation(w.engine, "coherence_pair_spectra")
    combine = engines.operation(w.engine, "coherence_pair_combine")
    interpolated = engines.operation(w.engine, "coherence_interpolated_rows")
    n, m, q = W.shape[-1], w.freqs.size, a.size
    inv = 1.0 / w.sigmas
    B = scale_weights(w.sigmas, w.smoothing, w.scale_width)
    r2 = np.empty((q, m, n))
    phase = np.empty((q, m, n))
    cross = np.empty((q, m, n), dtype=np.complex128) if keep_cross else None
    parts = pair_chunks(q, m, n)
    if not parts:
        return r2, phase, cross
    wide = wide_smoothers(w.sigmas, n, w.mode, w.tol, w.engine)
    buffer = np.empty(m * 2 * max(p.stop - p.start for p in parts) * n)
    for part in parts:
        k = part.stop - part.start
        S = pair_spectra(W, a[part], b[part], inv, out=buffer[:m * 2 * k * n].reshape(m, 2, k, n))
        rows = S.reshape(m, 2 * k, n)
        for i, s in enumerate(w.sigmas):
            if i in wide:
                interpolated(rows[i], *wide[i])
            else:
                gaussian_filter1d(rows[i], float(s), axis=-1, output=rows[i], mode=w.mode,
                                  cval=0.0, tol=w.tol, engine=w.engine)
        with np.errstate(invalid="ignore", divide="ignore"):
            combine(S, P, a[part], b[part], B, part.start, r2, phase, cross)
    return r2, phase, cross


def pair_levels(lines: np.ndarray, a: np.ndarray, b: np.ndarray, req: PairsRequest
                ) -> np.ndarray:
    """The Monte-Carlo level ``(q, m)`` of each line pair, once per rounded AR(1) pair."""
    from .analysis import ar1
    alphas = np.full(lines.shape[0], np.nan)
    for i, line in enumerate(lines):
        try:
            alphas[i] = ar1(line)[0]
        except ValueError:          # no estimate (NaN, too short or trended): no level
            pass
    w = req.wct
    out = np.full((a.size, w.freqs.size), np.nan)
    for (ax, ay), sel in ar1_groups(alphas[a], alphas[b], req.ar1_decimals).items():
        out[sel] = wct_significance(ax, ay, w.freqs, w.fs, xi=w.xi, level=req.level,
                                    mc_count=req.mc_count, seed=req.seed,
                                    smoothing=w.smoothing, scale_width=w.scale_width,
                                    cache=req.cache, engine=w.engine)
    return out


# --------------------------------------------------------------------------- significance


def _surrogates(rng: np.random.Generator, count: int, n: int, alphas: tuple[float, float]
                ) -> np.ndarray:
    """``count`` pairs of AR(1) series of ``n`` samples, shape ``(2, count, n)`` (pycwt's rednoise).

    Each series is ``lfilter([1, 0], [1, -alpha])`` of white noise of
    ``n + tau`` samples with the first ``tau = ceil(-2 / log|alpha|)`` (twice
    the decorrelation time) dropped.  The draws are taken pair after pair,
    so the series do not depend on how many are generated at once.
    """
    from scipy.signal import lfilter
    taus = [int(math.ceil(-2.0 / math.log(abs(a)))) if a != 0 else 0 for a in alphas]
    white = [np.empty((count, n + tau)) for tau in taus]
    for c in range(count):
        for j in range(2):
            white[j][c] = rng.standard_normal(n + taus[j])
    out = np.empty((2, count, n))
    for j, (a, tau) in enumerate(zip(alphas, taus)):
        out[j] = lfilter([1.0, 0.0], [1.0, -a], white[j], axis=-1)[:, tau:] if a != 0 else white[j]
    return out


def _mc_plans(f: np.ndarray, sig: np.ndarray, n: int, xi: float, stride: np.ndarray,
              engine: str | None = None) -> list[tuple[int, np.ndarray, Any]]:
    """Per stride ``c``: its rows and (``c > 1``) the engine's fold plan of them."""
    fold_plan = engines.operation(engines.resolve_engine(engine, sig), "coherence_fold_plan")
    out = []
    for c in np.unique(stride):
        rows = np.flatnonzero(stride == c)
        plan = None if c == 1 else fold_plan(sig[rows], xi, int(c), mc_nodes(n, int(c)))
        out.append((int(c), rows, plan))
    return out


def _decimated_spectra(noise: np.ndarray, f: np.ndarray, sig: np.ndarray, fs: float, xi: float,
                       mode: str, stride: np.ndarray, plans: list | None = None,
                       engine: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The smoothed spectra of the pairs ``noise`` (``(2, c, n)``), each row at its stride.

    Returns the flat buffer, each row's offset and length (see
    :func:`sftwave.engines.numba.coherence.histogram`).  A row of stride ``c``
    holds the samples ``0, c, .., (K - 1) c`` (:func:`mc_nodes`): the
    transform there by FFT, only the wavelet's band folded to ``M / c``
    points (exact to rounding, :func:`sftwave.engines.numba.coherence.folded_transforms`),
    its spectra weighted by :func:`mc_weights` and smoothed by the Gaussian
    of ``s / c`` samples on that grid: the full-rate smoothing's sum with its
    ends corrected to degree 3.  Inside the record the error is that of the
    trapezoid rule on the Gaussian times the spectrum, whose spectrum falls
    as ``exp(-(s w)^2 / 6)``: some ``exp(-6.6 (s / c)^2)``, nothing at
    ``s / c >= 4``; near the ends, the end weights' (a few 1e-5 of the row's
    power at the cone's edge, tests/test_coherence.py).
    """
    engine = engines.resolve_engine(engine, noise)
    folded = engines.operation(engine, "coherence_folded_transforms")
    spectra = engines.operation(engine, "coherence_spectra")
    _, count, n = noise.shape
    m = f.size
    if plans is None:
        plans = _mc_plans(f, sig, n, xi, stride, engine)
    length = np.array([mc_nodes(n, int(c)) for c in stride], dtype=np.int64)
    off = np.zeros(m, dtype=np.int64)
    off[1:] = np.cumsum(4 * count * length)[:-1]
    flat = np.empty(int(np.sum(4 * count * length)))
    lines = noise.reshape(2 * count, n)
    ffts: dict = {}
    for c, rows, plan in plans:
        if c == 1:
            W = cwt(noise, f[rows], fs, xi=xi, mode=mode, dtype=np.complex128, engine=engine)
        else:
            y = folded(lines, plan, ffts)        # (g, 2 count, K)
            W = y.reshape(rows.size, 2, count, -1).transpose(1, 2, 0, 3)
        S = spectra(W, 1.0 / sig[rows], np.dtype(np.float64))   # (g, 4, count, K)
        del W
        L = S.shape[-1]
        if c > 1:
            S *= mc_weights(n, c)
        for g, r in enumerate(rows):
            # NumPy spectra on the CPU engine (the one with coherence's operations): NumPy
            block = cast(np.ndarray, gaussian_filter1d(S[g].reshape(4 * count, L), float(sig[r] / c),
                                                       axis=-1, mode=mode, engine=engine))
            flat[off[r]:off[r] + block.size] = block.ravel()
        del S
    return flat, off, length


@on_disk("wct_significance")
def _mc_counts(version: int, alphas: tuple[float, float], freqs: tuple[float, ...], fs: float,
               xi: float, n: int, smoothing: str, width: float, mode: str, count: int, seed: int,
               nbins: int, engine: str) -> np.ndarray:
    """The histogram ``(len(freqs), nbins)`` of ``R^2`` outside the cone over ``count`` draws."""
    histogram = engines.operation(engine, "coherence_histogram")
    f = np.asarray(freqs)
    sig = xi * fs / (2.0 * np.pi * f)
    B = scale_weights(sig, smoothing, width)
    m = f.size
    stride = mc_strides(sig, n, mode)
    plans = _mc_plans(f, sig, n, xi, stride, engine)
    tlo, thi = coi_bounds(sig, n)
    hist = np.zeros((m, nbins), dtype=np.int64)
    rng = np.random.default_rng(seed)
    values = int(sum(mc_nodes(n, int(c)) for c in stride))
    batch = max(1, min(count, _MC_BATCH_VALUES // max(1, values)))
    done = 0
    while done < count:
        c = min(batch, count - done)
        noise = _surrogates(rng, c, n, alphas)
        flat, off, length = _decimated_spectra(noise, f, sig, fs, xi, mode, stride, plans, engine)
        del noise
        histogram(flat, off, length, stride, c, B, tlo, thi, hist)
        del flat
        done += c
    return hist


def _levels(hist: np.ndarray, level: float) -> np.ndarray:
    """pycwt's quantile per row of the histogram: ``interp`` on the non-empty bins' centres."""
    m, nbins = hist.shape
    centres = (np.arange(nbins) + 0.5) / nbins
    out = np.full(m, np.nan)
    for s in range(m):
        sel = hist[s] > 0
        if not sel.any():
            continue
        P = np.cumsum(hist[s, sel]).astype(np.float64)
        P = (P - 0.5) / P[-1]
        out[s] = np.interp(level, P, centres[sel])
    return out


def wct_significance(alpha_x: float, alpha_y: float, freqs: ArrayLike, fs: float = 1.0, *,
                     xi: float = 6.0, n: int | None = None, level: float = 0.95,
                     mc_count: int = 300, seed: int = 0, smoothing: str = "grinsted",
                     scale_width: float = DELTAJ0, mode: str = "constant", nbins: int = 1000,
                     cache: bool = True, engine: str | None = None) -> np.ndarray:
    """Monte-Carlo significance level of wavelet coherence against AR(1) red noise, per row.

    As pycwt's ``wct_significance``: ``mc_count`` pairs of independent AR(1)
    series of lag-1 coefficients ``alpha_x`` and ``alpha_y`` (pycwt's
    ``rednoise``), their :func:`wct`, a histogram of ``R^2`` in ``nbins``
    bins per row over the samples outside the cone of influence, and the
    ``level`` quantile of each row's histogram (pycwt's interpolation
    between bin centres).  The draws run in batches (one transform and one
    smoothing for a whole batch), the histogram by a kernel that forms
    ``R^2`` only outside the cone.  With ``mode='constant'`` a row of scale
    ``s >= 8`` samples runs at every ``c``-th sample, ``c = 2^floor(log2(s /
    4))``: its transform there by FFT (only the wavelet's band, folded to
    ``M / c`` points; exact), its spectra weighted so that the sum over the
    record is exact for cubics and smoothed by the Gaussian of ``s / c``
    samples on that grid: within about 4e-5 of the full-rate smoothed
    spectra at the cone's edge, and far closer inside.  Its histogram counts
    ``R^2`` every ``c'`` samples (the largest stride among the rows its
    boxcar averages, at most about ``s / 3``), below the correlation length
    of ``R^2`` (the scale), so the levels agree with the full-rate
    computation of the same draws within a fraction of their Monte-Carlo
    error.

    Parameters
    ----------
    alpha_x, alpha_y : float
        Lag-1 coefficients in ``(-1, 1)`` (:func:`sftwave.analysis.ar1`).
    freqs : float or sequence of float
        The rows, in the unit of ``fs``.
    fs : float, optional
        Sampling rate.  Default 1.
    xi : float, optional
        The Morlet's ``xi``.  Default 6.
    n : int, optional
        Length of each surrogate.  Default pycwt's: ``ceil(6 s_max)`` samples,
        ``s_max`` the largest row's scale in samples (so that it has samples
        outside the cone).
    level : float, optional
        The quantile, in ``(0, 1)``.  Default 0.95.
    mc_count : int, optional
        The number of pairs.  Default 300.
    seed : int, optional
        Seed of ``numpy.random.default_rng``: the same seed gives the same
        levels on any machine and thread count.  Default 0.
    smoothing, scale_width : optional
        As for :func:`wct`.
    mode : str, optional
        The boundary of the transforms and smoothings.  Default 'constant'
        (pycwt's zero padding; only the samples outside the cone count).
    nbins : int, optional
        Histogram bins on ``[0, 1]``.  Default 1000 (pycwt's).
    cache : bool, optional
        Keep the histogram on disk (plain data, ``sftwave.plans.cache``,
        keyed by every argument but ``level``), so that a later call with
        the same arguments costs nothing.  Default True.
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        Who computes it, as for :func:`sftwave.gaussian_filter` (None/``'auto'``,
        default: ``'numba'``, as there is no input array).  Only the CPU
        engine has coherence's operations; another raises
        :class:`sftwave.engines.UnsupportedOperation`.

    Returns
    -------
    ndarray
        The level of ``R^2`` per row; NaN for a row with no sample outside
        the cone.

    Raises
    ------
    ValueError
        For a bad argument, naming it, and for more than 1e6 draws or
        surrogates of more than 2**24 samples.

    See Also
    --------
    wct : The coherence whose significance this is.
    sftwave.analysis.ar1 : The lag-1 coefficient of a series.
    sftwave.pycwt.wct : pycwt's function, with ``sig=True``.

    Notes
    -----
    pycwt leaves its last row with samples outside the cone (usually the
    largest scale) NaN, an off-by-one in its loop; here every such row has
    its level.  pycwt draws from numpy's global generator, so its levels
    vary from call to call within their Monte-Carlo error.  pycwt's
    ``rednoise`` filters along an axis of length one, so its surrogates are
    white noise whatever the coefficients; here they are AR(1) as documented
    (for white noise pass ``alpha_x = alpha_y = 0``).

    Examples
    --------
    >>> import numpy as np
    >>> freqs = np.geomspace(0.02, 0.4, 6)
    >>> sig = wct_significance(0.5, 0.5, freqs, mc_count=4, cache=False)
    >>> sig.shape, bool(np.all((sig > 0.3) & (sig < 1)))
    ((6,), True)
    """
    req = significance_request(alpha_x, alpha_y, freqs, fs=fs, xi=xi, n=n, level=level,
                               mc_count=mc_count, seed=seed, smoothing=smoothing,
                               scale_width=scale_width, mode=mode, nbins=nbins, cache=cache,
                               engine=engines.resolve_engine(engine, None))
    offered = engines.operations(req.engine)    # before any work, importing none of them
    for op in ("coherence_fold_plan", "coherence_folded_transforms", "coherence_spectra",
               "coherence_histogram"):
        if op not in offered:
            engines.operation(req.engine, op)   # raises UnsupportedOperation, naming who has it
    hist = _mc_histogram(req)
    return _levels(np.asarray(hist), req.level)


def _mc_histogram(req: SignificanceRequest) -> np.ndarray:
    """The Monte-Carlo histogram of a request, from the disk cache where ``req.cache``."""
    args = (_MC_VERSION, req.alphas, tuple(float(v) for v in req.freqs), req.fs, req.xi, req.n,
            req.smoothing, req.scale_width, req.mode, req.mc_count, req.seed, req.nbins,
            req.engine)
    if req.cache:
        return np.asarray(_mc_counts(*args))
    return np.asarray(_mc_counts.__wrapped__(*args))  # type: ignore[attr-defined]
