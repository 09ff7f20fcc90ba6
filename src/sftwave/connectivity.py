"""MNE's Morlet cross-spectral density and MNE-Connectivity's Morlet connectivity, by sftwave.

Switching is one line each::

    from sftwave.connectivity import csd_array_morlet               # was: mne.time_frequency
    from sftwave.connectivity import spectral_connectivity_time     # was: mne_connectivity
    from sftwave.connectivity import spectral_connectivity_epochs   # was: mne_connectivity

They take the same arguments and return the same objects (MNE's
``CrossSpectralDensity``, MNE-Connectivity's ``SpectralConnectivity``,
``EpochSpectralConnectivity`` or ``SpectroTemporalConnectivity``) where those
packages are installed, plain arrays otherwise (or with ``output='array'``).
None of them is imported by ``import sftwave``.

How.  The complex Morlet coefficients of one block of epochs (all the used
channels and frequencies, at most about 16 MB, or one epoch) are MNE's own
(:func:`sftwave.mne.tfr_array_morlet`, with MNE's wavelets, their norm and
zero padding), computed by sftwave's engine; the pair sums are then taken
from them by numba kernels (:mod:`sftwave.engines.numba.connectivity_kernels`)
without ever storing a ``(pairs, freqs, times)`` array:

* the linear measures (CSD, ``'coh'``, ``'cohy'``, ``'imcoh'``) need only the
  time average of the smoothed cross spectrum, and a time average of a
  smoothed series is a weighted sum of the series itself: the smoothing
  becomes fixed weights per sample (edge-tapered where MNE-Connectivity's
  ``mode='same'`` smoothing meets the zeros outside the record), so their cost
  does not depend on ``sm_times`` at all; the sums of all pairs at one
  frequency run as one vectorised loop over channels;
* the non-linear measures (``'plv'``, ``'ciplv'``, ``'pli'``, ``'wpli'``) need
  the smoothed cross spectrum at every sample: it is made one sample at a time
  and smoothed by running sums (Hann as a boxcar and two modulated boxcars),
  at a cost that does not depend on ``sm_times`` either;
* connectivity across epochs (:func:`spectral_connectivity_epochs`, a score
  per pair, frequency and sample) needs, per pair, frequency and sample, a few
  sums over the epochs (of the cross spectrum, its unit phasor, the sign,
  value, magnitude and square of its imaginary part): they are accumulated
  from blocks of a few frequencies with every epoch (or of epochs), a tile of
  samples of all the channels at a time, and the measures then taken from
  them in one pass; the memory is one block of coefficients and those sums.

MNE-Connectivity's conventions kept: the Morlet wavelets with
``zero_mean=False`` (it passes that to MNE), ``padding`` cut off after the
transform and before the smoothing, ``sm_times`` in seconds rounded to samples
and divided by ``decim``, the 2-D Hann (or square) kernel normalised to a sum
of 1, ``indices=None`` meaning the lower triangle ``i > j`` and a result of
``n_signals ** 2`` connections (zeros elsewhere), and ``faverage``'s band
means exactly as MNE-Connectivity 0.9 takes them (see
:func:`spectral_connectivity_time`, Notes).  Where ``n_cycles`` makes
``exp(-n_cycles ** 2 / 2)`` (the wavelet's offset, which ``zero_mean=False``
leaves in) smaller than ``1e-3 * tol``, the zero-mean wavelets are used: they
differ from MNE's by less than that, relative, and skip a Gaussian smoothing
per frequency.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .mne import tfr_array_morlet
from .workers import set_workers

if TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import ArrayLike

__all__ = ["csd_array_morlet", "spectral_connectivity_time", "spectral_connectivity_epochs", "METHODS",
           "EPOCH_METHODS", "SM_KERNELS"]

#: The bivariate measures of :func:`spectral_connectivity_time` (MNE-Connectivity's names).
METHODS = ("coh", "cohy", "imcoh", "plv", "ciplv", "pli", "wpli")

#: The smoothing kernels (MNE-Connectivity's ``sm_kernel``).
SM_KERNELS = ("hanning", "square")

#: Measures that need the smoothed cross spectrum at every sample (not only its time mean).
_PHASE_METHODS = ("plv", "ciplv", "pli", "wpli")

#: The complex coefficients held at once (bytes): about one epoch of the users' workload
#: (16 channels, 30 frequencies, 2,000 samples), still in cache when the pair kernels read it
#: (0.76 s for the workload's 'coh' against 0.87 s with 64 MB and 0.90 s with 4 MB).
_BLOCK_BYTES = 16 << 20

#: Most (connections x frequencies x epochs) values a call may return.
_MAX_VALUES = 1 << 31

_OUTPUT_KINDS = ("auto", "object", "array")


def _wants_object(output: Any, package: str) -> bool:
    """Whether to build ``package``'s result object (``output``: 'auto', 'object' or 'array')."""
    if output not in _OUTPUT_KINDS:
        raise ValueError(f"output must be one of {', '.join(map(repr, _OUTPUT_KINDS))}; "
                         f"got {output!r}")
    if output == "array":
        return False
    try:
        __import__(package)
    except ImportError:
        if output == "object":
            raise ImportError(f"output='object' needs the package {package!r}; install it or "
                              "pass output='array'") from None
        return False
    return True


def _zero_mean_for(n_cycles: np.ndarray, tol: float) -> bool:
    """Whether MNE's ``zero_mean=False`` wavelets may be replaced by the zero-mean ones.

    They differ by the offset ``exp(-n_cycles^2 / 2)`` (relative to the
    wavelet) and their norms by as little: below ``1e-3 tol`` it is far below
    the transform's own error.
    """
    return bool(np.all(np.exp(-0.5 * n_cycles * n_cycles) < 1e-3 * tol))


def _coefficient_blocks(data: np.ndarray, sfreq: float, freqs: np.ndarray, n_cycles: np.ndarray,
                        decim: int | slice, workers: int | None,
                        tol: float) -> Iterator[tuple[int, np.ndarray]]:
    """MNE's complex coefficients (``zero_mean=False``) of blocks of epochs: ``(e0, y)``."""
    n_epochs, n_chans, n_times = data.shape
    per_epoch = max(1, n_chans * freqs.size * n_times * 16)
    block = max(1, min(n_epochs, _BLOCK_BYTES // per_epoch))
    zero_mean = _zero_mean_for(n_cycles, tol)
    for e0 in range(0, n_epochs, block):
        y = tfr_array_morlet(data[e0:e0 + block], sfreq, freqs, n_cycles=n_cycles,
                             zero_mean=zero_mean, output="complex", decim=decim, n_jobs=workers,
                             tol=tol)
        yield e0, y


def _unit_scale(x: np.ndarray) -> tuple[np.ndarray, int]:
    """``x`` times ``2**k`` (exact) with its largest finite magnitude near 1, and ``k``.

    Cross spectra are products of two coefficients: at the data's own scale
    they could overflow (beyond about 1e154) or underflow; at a power of two
    from 1 they do not, and the measures' ratios are the same bits.
    """
    finite = np.abs(x[np.isfinite(x)]) if x.size else x
    top = float(finite.max()) if finite.size else 0.0
    k = -math.frexp(top)[1] if top > 0 else 0
    return (np.ldexp(x, k) if k else x), k


def _threads(workers: int | None) -> Any:
    """A context in which the pair kernels run on ``workers`` threads (None: the default)."""
    return contextlib.nullcontext() if workers is None else set_workers(workers)


def _workers(n_jobs: Any) -> int | None:
    """MNE's ``n_jobs`` as sftwave's ``workers`` (None and -1: all threads)."""
    if n_jobs is None or n_jobs == -1:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise ValueError(f"n_jobs must be None, -1 or a positive integer; got {n_jobs!r}")
    return int(n_jobs)


def _float_data(X: Any, name: str) -> np.ndarray:
    """``X`` as float64 ``(n_epochs, n_channels, n_times)``; complex refused (MNE casts to float)."""
    arr = np.asarray(X)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a real numeric array; got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    if arr.ndim != 3:
        raise ValueError(f"{name} must be of shape (n_epochs, n_channels, n_times); got shape "
                         f"{arr.shape}")
    return arr


# ----------------------------------------------------------------------------- CSD


def csd_array_morlet(X: ArrayLike, sfreq: float, frequencies: ArrayLike, t0: float = 0,
                     tmin: float | None = None, tmax: float | None = None,
                     ch_names: list[str] | None = None, n_cycles: float | ArrayLike = 7,
                     use_fft: bool = True, decim: int | slice = 1, projs: list | None = None,
                     n_jobs: int | None = None, *, verbose: Any = None, output: str = "auto",
                     tol: float = 1e-4) -> Any:
    """Cross-spectral density by Morlet wavelets, as ``mne.time_frequency.csd_array_morlet``.

    For each frequency ``f`` the matrix ``C[i, j] = mean over epochs and kept
    samples of W_i(f, t) conj(W_j(f, t)) / sfreq``, ``W`` MNE's Morlet
    coefficients (its wavelets, ``zero_mean=False`` as MNE's ``morlet``, zero
    padding).  The products are summed as they are formed: no per-pair array.

    Parameters
    ----------
    X : array of shape (n_epochs, n_channels, n_times)
        The epochs (real; integer and bool are taken as float).
    sfreq : float
        Sampling frequency in Hz.
    frequencies : array-like of float
        The frequencies, in ``(0, sfreq / 2]`` Hz.
    t0 : float
        Time of the first sample, in seconds.
    tmin, tmax : float or None
        The time window kept, in seconds (None: from the first, to the last
        sample).  As MNE, the transform runs on the window widened by half the
        longest wavelet on each side (where the data reach).
    ch_names : list of str or None
        The channels' names (default ``'SERIES001'``, ...).
    n_cycles : float or array-like of float
        Cycles of each wavelet (MNE's meaning; sftwave's ``xi``).
    use_fft : bool
        Accepted for MNE's signature; the numbers are the same either way.
    decim : int or slice
        Keep the coefficients ``[..., decim]`` (an int ``d``: every ``d``-th).
    projs : list or None
        Stored in the result, as MNE does.
    n_jobs : int or None
        Threads (None or -1: all).
    verbose : bool, str, int or None
        Accepted for MNE's signature.
    output : {'auto', 'object', 'array'}
        'object': MNE's ``CrossSpectralDensity`` (needs MNE); 'array': the
        matrices as an array; 'auto': the object where MNE is installed.
    tol : float
        sftwave's accuracy target for the transform
        (:func:`sftwave.mne.tfr_array_morlet`).

    Returns
    -------
    CrossSpectralDensity or ndarray
        MNE's object, or complex128 ``(n_frequencies, n_channels, n_channels)``
        Hermitian matrices.

    Raises
    ------
    ValueError
        For the arguments MNE refuses, with its messages; and where a wavelet
        is longer than the signal (MNE, with ``use_fft=True``, warns and
        computes; its ``tfr_array_morlet`` refuses, as this does).

    See Also
    --------
    spectral_connectivity_time : Connectivity within each epoch from the same coefficients.
    sftwave.mne.tfr_array_morlet : The coefficients themselves.

    Notes
    -----
    Agrees with MNE's within 1e-4 of ``sqrt(C[i, i] C[j, j])`` per entry at the
    default ``tol`` (``tests/test_connectivity.py``).  A NaN in an epoch's
    channel makes every entry of that channel NaN at the frequencies whose
    wavelets reach it (MNE's FFT spreads it to all of them).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).standard_normal((5, 3, 1000))
    >>> C = csd_array_morlet(X, 250.0, [10.0, 20.0], output="array")
    >>> C.shape, bool(np.allclose(C, np.conj(np.swapaxes(C, 1, 2))))
    ((2, 3, 3), True)
    """
    from .engines.numba.connectivity_kernels import cross_sums

    want_object = _wants_object(output, "mne")
    X = _float_data(X, "X")
    if isinstance(sfreq, bool) or not isinstance(sfreq, numbers.Real) or not sfreq > 0:
        raise ValueError(f"sfreq must be a positive number; got {sfreq!r}")
    sfreq = float(sfreq)
    freqs = np.atleast_1d(np.asarray(frequencies, dtype=float))
    if freqs.ndim != 1 or freqs.size == 0:
        raise ValueError(f"frequencies must be a non-empty 1-D list of floats; got {frequencies!r}")
    n_epochs, n_chans, n_times = X.shape
    if n_times == 0 or n_chans == 0:
        raise ValueError(f"X must have channels and samples; got shape {X.shape}")
    nc = np.array(n_cycles, float).ravel()
    if nc.size == 1:
        nc = np.full(freqs.size, nc[0])
    elif nc.size != freqs.size:
        raise ValueError(f"n_cycles must be a float or one per frequency ({freqs.size}); got "
                         f"{nc.size} values")
    if not np.all(np.isfinite(freqs) & (freqs > 0)):
        raise ValueError(f"frequencies must be positive and finite; got {frequencies!r}")
    if not np.all(np.isfinite(nc) & (nc > 0)):
        raise ValueError(f"n_cycles must be positive and finite; got {n_cycles!r}")
    tstep = 1.0 / sfreq
    times = np.arange(n_times) * tstep + t0
    tmax_ = times.max() if tmax is None else tmax
    tmin_ = times.min() if tmin is None else tmin
    if tmax_ <= tmin_:
        raise ValueError("tmax must be larger than tmin")
    if tmin_ < times[0] - tstep:
        raise ValueError("tmin should be larger than the smallest data time point")
    if tmax_ > times[-1] + tstep:
        raise ValueError("tmax should be smaller than the largest data time point")
    workers = _workers(n_jobs)
    # MNE's wavelet at the lowest frequency: 2 ceil(5 sigma_t sfreq) - 1 samples
    i_min = int(np.argmin(freqs))
    sigma_t = nc[i_min] / (2.0 * math.pi * freqs[i_min])
    wave_length = int(2 * math.ceil(5.0 * sigma_t / tstep) - 1) // 2
    # as MNE (whose tmin and tmax are never None here): the data widened by half the longest
    # wavelet, transformed, then the window kept
    tstart = max(0, int(np.searchsorted(times, tmin_)) - wave_length)
    tstop = min(n_times, int(np.searchsorted(times, tmax_)) + wave_length)
    X = X[:, :, tstart:tstop]
    times = times[tstart:tstop]
    csd_tstart = int(np.searchsorted(times, tmin_ - 1e-10))
    csd_tstop = int(np.searchsorted(times, tmax_ + 1e-10))
    index = np.arange(times.size)
    times = times[csd_tstart:csd_tstop]
    if isinstance(decim, numbers.Integral) and not isinstance(decim, bool):
        step = int(decim)
        if step < 1:
            raise ValueError(f"decim must be a positive integer or a slice; got {decim!r}")
        # MNE's _csd_morlet: the window's bounds divided by decim, in decimated samples
        kept: slice | np.ndarray = slice(csd_tstart // step, csd_tstop // step)
    elif isinstance(decim, slice):
        # (MNE fails here: its window's bounds are divided by the slice) the decimated samples
        # that fall in the window
        idx = index[decim]
        kept = np.flatnonzero((idx >= csd_tstart) & (idx < csd_tstop))
    else:
        raise ValueError(f"decim must be an integer or a slice; got {type(decim)}")
    if times.size == 0:
        raise ValueError("no sample between tmin and tmax")
    rows = np.arange(n_chans)
    X, k2 = _unit_scale(X)
    total = np.zeros((freqs.size, n_chans, n_chans), np.complex128)
    for _, y in _coefficient_blocks(X, sfreq, freqs, nc, decim, workers, tol):
        y = y[..., kept]
        n_kept = y.shape[-1]
        if n_kept == 0:
            raise ValueError("no sample kept between tmin and tmax after decim")
        w = np.full(n_kept, 1.0 / (n_kept * sfreq))
        with _threads(workers):
            for e in range(y.shape[0]):
                total += cross_sums(y[e], rows, rows, np.full(n_chans, n_chans), w)
    total /= n_epochs
    if k2:
        total = np.ldexp(total.real, -2 * k2) + 1j * np.ldexp(total.imag, -2 * k2)
    # the lower triangle: conj of the upper (MNE stores the upper triangle only)
    il = np.tril_indices(n_chans, -1)
    total[:, il[0], il[1]] = np.conj(total[:, il[1], il[0]])
    diag = np.arange(n_chans)
    total[:, diag, diag] = total[:, diag, diag].real      # a power: real (its rounding is not)
    if not want_object:
        return total
    from mne.time_frequency import CrossSpectralDensity

    iu = np.triu_indices(n_chans)
    names = ch_names if ch_names is not None else [f"SERIES{i + 1:03}" for i in range(n_chans)]
    return CrossSpectralDensity(np.ascontiguousarray(total[:, iu[0], iu[1]].T), ch_names=names,
                                tmin=times[0], tmax=times[-1], frequencies=list(frequencies)
                                if not np.isscalar(frequencies) else frequencies, n_fft=1,
                                projs=projs)


# ----------------------------------------------------------------------------- connectivity


def _smoothing_kernel(length: int, sm_kernel: str, name: str) -> np.ndarray:
    """MNE-Connectivity's 1-D kernel of ``length`` samples, normalised to a sum of 1."""
    if sm_kernel == "square":
        return np.full(length, 1.0 / length)
    if length == 2:
        raise ValueError(f"{name} gives a Hann kernel of 2 samples, which is all zeros (MNE-"
                         "Connectivity's results are then NaN): choose another width")
    h = np.hanning(length)
    return h / h.sum()


def _same_weights(kernel: np.ndarray, n: int) -> np.ndarray:
    """``w[m]``: the time mean of the ``mode='same'`` smoothing of ``s`` is ``sum_m w[m] s[m] / n``.

    ``same[k] = sum_b kernel[b] s[k + c - b]`` (``c = (M - 1) // 2``, ``s`` zero
    outside ``[0, n)``), so ``w[m]`` is the sum of ``kernel[b]`` over the ``b``
    with ``0 <= m - c + b < n``.
    """
    M = kernel.size
    c = (M - 1) // 2
    cs = np.concatenate(([0.0], np.cumsum(kernel)))
    m = np.arange(n)
    lo = np.clip(c - m, 0, M)
    hi = np.clip(n - m + c, 0, M)
    return cs[hi] - cs[np.minimum(lo, hi)]


def _smooth_freqs(values: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``mode='same'`` smoothing along the last axis (frequencies), zeros outside."""
    M = kernel.size
    if M == 1:
        return values * kernel[0]
    c = (M - 1) // 2
    nf = values.shape[-1]
    out = np.zeros_like(values)
    for f in range(nf):
        for b in range(M):
            g = f + c - b
            if 0 <= g < nf:
                out[..., f] += kernel[b] * values[..., g]
    return out


def _band_means(values: np.ndarray, foi_idx: np.ndarray) -> np.ndarray:
    """MNE-Connectivity 0.9's ``_foi_average`` on the last axis: band ``(s, e)`` is the mean over
    ``[s, e + 1)`` where ``s == e``, else over ``[s, 2 e)`` (its slice, kept for equal numbers)."""
    out = np.empty(values.shape[:-1] + (len(foi_idx),), values.dtype)
    for k, (s, e) in enumerate(foi_idx):
        stop = e + 1 if s == e else 2 * e
        out[..., k] = values[..., s:stop].mean(axis=-1)
    return out


def _check_methods(method: Any) -> list[str]:
    methods = [method] if isinstance(method, str) else list(method) if isinstance(
        method, (list, tuple)) else None
    if not methods:
        raise ValueError(f"method must be a name or a list of names from {METHODS}; got {method!r}")
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise ValueError(f"Connectivity method(s) not recognized: {bad}. sftwave computes "
                         f"{list(METHODS)} (the multivariate ones: use mne_connectivity)")
    return methods


def _bands(fmin: Any, fmax: Any, fdecim: Any) -> tuple[np.ndarray, np.ndarray]:
    """The bands' lower and upper edges as 1-D arrays, and ``fdecim`` checked, with
    MNE-Connectivity's errors."""
    fmin_ = np.array((fmin,), dtype=float).ravel()
    fmax_ = np.array((fmax,), dtype=float).ravel()
    if len(fmin_) != len(fmax_):
        raise ValueError("fmin and fmax must have the same length")
    if np.any(fmin_ > fmax_):
        raise ValueError("fmax must be larger than fmin")
    if isinstance(fdecim, bool) or not isinstance(fdecim, numbers.Integral):
        raise TypeError(f"fdecim must be an instance of int, got {type(fdecim)} instead.")
    if fdecim < 1:
        raise ValueError("`fdecim` must be >= 1")
    return fmin_, fmax_


def spectral_connectivity_time(data: ArrayLike, freqs: ArrayLike, method: str | list[str] = "coh",
                               average: bool = False, indices: tuple | None = None,
                               sfreq: float | None = None, *, fmin: Any = None, fmax: Any = None,
                               fdecim: int = 1, faverage: bool = False, sm_times: float = 0.0,
                               sm_freqs: int = 1, sm_kernel: str = "hanning", padding: float = 0.0,
                               mode: str = "cwt_morlet", n_cycles: float | ArrayLike = 7.0,
                               decim: int = 1, n_jobs: int | None = 1, verbose: Any = None,
                               output: str = "auto", tol: float = 1e-4) -> Any:
    """Connectivity over time within each epoch, as ``mne_connectivity.spectral_connectivity_time``.

    For each epoch, pair ``(x, y)`` and frequency: the Morlet coefficients
    ``W`` (MNE's, ``zero_mean=False``), the cross spectrum
    ``S_xy(t) = W_x(t) conj(W_y(t))`` and the powers smoothed in time (and
    frequency) by ``sm_kernel``, and the measure from their means over time:

    * ``'coh'`` ``|<S_xy>| / sqrt(<S_xx> <S_yy>)``, ``'cohy'`` the same without
      ``| |``, ``'imcoh'`` its imaginary part;
    * ``'plv'`` ``|<S_xy / |S_xy|>|``; ``'ciplv'``
      ``|<Im u>| / sqrt(1 - <Re u>^2)`` with ``u = S_xy / |S_xy|``;
    * ``'pli'`` ``|<sign Im S_xy>|``; ``'wpli'`` ``|<Im S_xy>| / <|Im S_xy|>``.

    Parameters
    ----------
    data : array of shape (n_epochs, n_signals, n_times)
        The epochs (real; integer and bool taken as float).
    freqs : array-like of float
        Increasing frequencies in Hz (those in ``[fmin, fmax]`` are used).
    method : str or list of str
        Measures from :data:`METHODS` (MNE-Connectivity's bivariate ones).
    average : bool
        Average the scores over epochs.
    indices : tuple of two array-likes of int, or None
        Seeds and targets of the connections; None: every ``i > j`` (the lower
        triangle), returned as ``n_signals ** 2`` connections.
    sfreq : float
        Sampling frequency in Hz (required).
    fmin, fmax : float, tuple of float or None
        Bands' lower and upper frequencies (None: the lowest, the highest).
    fdecim : int
        Keep every ``fdecim``-th frequency from the first in the bands.
    faverage : bool
        Average the scores within each band (see Notes).
    sm_times : float
        Width of the smoothing in time, in seconds (0: none).
    sm_freqs : int
        Width of the smoothing across frequencies, in frequencies (1: none);
        wider only for ``'coh'``, ``'cohy'`` and ``'imcoh'``.
    sm_kernel : {'hanning', 'square'}
        The smoothing kernel.
    padding : float
        Seconds cut off each end of the coefficients before the smoothing.
    mode : {'cwt_morlet'}
        MNE-Connectivity's Morlet mode (its multitaper mode is not computed here).
    n_cycles : float or array-like of float
        Cycles of each wavelet.
    decim : int
        Keep every ``decim``-th sample of the coefficients.
    n_jobs : int or None
        Threads (None or -1: all; MNE-Connectivity's default 1).
    verbose : bool, str, int or None
        Accepted for MNE-Connectivity's signature.
    output : {'auto', 'object', 'array'}
        'object': MNE-Connectivity's ``EpochSpectralConnectivity`` (or
        ``SpectralConnectivity`` with ``average=True``; a list of them for a list
        of methods; needs mne_connectivity); 'array': their ``get_data()``
        arrays; 'auto': the objects where mne_connectivity is installed.
    tol : float
        sftwave's accuracy target for the transform
        (:func:`sftwave.mne.tfr_array_morlet`).

    Returns
    -------
    EpochSpectralConnectivity, SpectralConnectivity, ndarray or list of them
        ``([n_epochs,] n_connections, n_freqs_or_bands)``: float64, complex128
        for ``'cohy'``.

    Raises
    ------
    ValueError
        For the arguments MNE-Connectivity refuses (unknown method, bands,
        ``fdecim``, Nyquist, wavelets longer than the signal, ``padding``),
        and for what it computes but sftwave does not: its multivariate
        methods, ``mode='multitaper'``, ``sm_freqs > 1`` with a phase measure,
        frequency-dependent ``sm_times``, a 2-sample Hann kernel (all zeros:
        MNE-Connectivity returns NaN).
    TypeError
        For complex or non-numeric data, and bad ``indices``.

    See Also
    --------
    csd_array_morlet : The cross-spectral density averaged over epochs and time.
    sftwave.mne.tfr_array_morlet : The coefficients themselves.

    Notes
    -----
    Agrees with MNE-Connectivity 0.9 within 1e-3 (absolute, every measure;
    ``tests/test_connectivity.py``).  Its time smoothing (``fftconvolve``
    with ``mode='same'``) is computed here by running sums, exact to
    rounding; for the linear measures it is folded into weights of the time
    mean.  ``faverage``: MNE-Connectivity 0.9 averages the band whose
    nearest frequencies have indices ``s < e`` over the indices ``s`` to
    ``2 e - 1`` (not ``e``); the same slice is taken here so that the numbers
    agree: a band that ends at the last frequency is the true band mean in
    both.  ``padding`` shorter than one (decimated) sample cuts nothing here
    (MNE-Connectivity cuts everything and returns NaN).  A NaN in an epoch's
    channel makes that epoch's scores of the pairs with that channel NaN at
    the frequencies whose wavelets reach it.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> common = rng.standard_normal((10, 1, 1000))
    >>> data = common + 0.5 * rng.standard_normal((10, 3, 1000))
    >>> con = spectral_connectivity_time(data, [10.0, 20.0], method="coh", sfreq=250.0,
    ...                                  average=True, output="array")
    >>> con.shape                          # 3 ** 2 connections, lower triangle filled
    (9, 2)
    >>> bool(np.all(con.reshape(3, 3, 2)[1, 0] > 0.6))
    True
    """
    from .engines.numba import connectivity_kernels as ck

    want_object = _wants_object(output, "mne_connectivity")
    if mode != "cwt_morlet":
        raise ValueError(f"mode must be 'cwt_morlet' (sftwave computes MNE-Connectivity's Morlet "
                         f"mode only); got {mode!r}")
    data = _float_data(data, "data")
    n_epochs, n_signals, n_times = data.shape
    if sfreq is None:
        raise ValueError("Sampling frequency (sfreq) is required with array input.")
    if isinstance(sfreq, bool) or not isinstance(sfreq, numbers.Real) or not sfreq > 0:
        raise ValueError(f"sfreq must be a positive number; got {sfreq!r}")
    sfreq = float(sfreq)
    methods = _check_methods(method)
    if freqs is None:
        raise ValueError("freqs must be given with array input")
    freqs = np.atleast_1d(np.asarray(freqs, dtype=float))
    if freqs.ndim != 1 or freqs.size == 0 or not np.all(np.isfinite(freqs)):
        raise ValueError(f"freqs must be a non-empty 1-D array of finite floats; got {freqs!r}")
    if freqs.size >= 2 and not np.all(np.diff(freqs) > 0):
        raise ValueError("Frequencies should be in increasing order")
    fmin_, fmax_ = _bands(freqs.min() if fmin is None else fmin,
                          freqs.max() if fmax is None else fmax, fdecim)
    if isinstance(decim, bool) or not isinstance(decim, numbers.Integral) or decim < 1:
        raise ValueError(f"decim must be a positive integer; got {decim!r}")
    decim = int(decim)
    if isinstance(sm_times, bool) or not isinstance(sm_times, numbers.Real) or not sm_times >= 0:
        raise ValueError(f"sm_times must be a non-negative number of seconds; got {sm_times!r}")
    if isinstance(sm_freqs, bool) or not isinstance(sm_freqs, numbers.Real) or not sm_freqs >= 0:
        raise ValueError(f"sm_freqs must be a non-negative number; got {sm_freqs!r}")
    if sm_kernel not in SM_KERNELS:
        raise ValueError(f"No kernel {sm_kernel}")
    if isinstance(padding, bool) or not isinstance(padding, numbers.Real) or not padding >= 0:
        raise ValueError(f"Padding cannot be negative, got {padding}.")
    workers = _workers(n_jobs)
    # MNE-Connectivity's kernel widths in samples
    m_t = max(int(np.round(int(np.round(sm_times * sfreq)) / decim)), 1)
    m_f = int(np.round(max(sm_freqs, 1)))
    if m_t > max(n_times, 1) * 4 or m_f > max(freqs.size, 1) * 4:
        raise ValueError(f"sm_times={sm_times!r} or sm_freqs={sm_freqs!r} is far wider than the "
                         "data")
    k_t = _smoothing_kernel(m_t, sm_kernel, f"sm_times={sm_times!r}")
    k_f = _smoothing_kernel(m_f, sm_kernel, f"sm_freqs={sm_freqs!r}")
    phase = [m for m in methods if m in _PHASE_METHODS]
    if m_f > 1 and phase:
        raise ValueError(f"sm_freqs={sm_freqs!r} (smoothing across frequencies) is computed here "
                         f"for 'coh', 'cohy' and 'imcoh' only; got method {phase}")
    src, tgt = _connections(indices, n_signals)
    n_cons = src.size
    # frequencies
    nc = np.array((n_cycles,), dtype=float).ravel() if np.isscalar(n_cycles) else \
        np.asarray(n_cycles, dtype=float).ravel()
    if nc.size > 1 and nc.size != freqs.size:
        raise ValueError(f"n_cycles must be float or an array of length {len(freqs)} frequencies, "
                         f"got {len(nc)} cycles instead.")
    nc = np.repeat(nc, freqs.size) if nc.size == 1 else nc
    if not np.all(np.isfinite(nc) & (nc > 0)):
        raise ValueError(f"n_cycles must be positive and finite; got {n_cycles!r}")
    dur = float(n_times) / sfreq
    if np.any(freqs < nc / dur):
        raise ValueError("At least one value in n_cycles corresponds to a wavelet longer than the "
                         "signal. Use less cycles, higher frequencies, or longer epochs.")
    if np.any(freqs > sfreq / 2):
        raise ValueError(f"Frequencies {freqs[freqs > sfreq / 2]} Hz are larger than Nyquist = "
                         f"{sfreq / 2:.2f} Hz")
    mask = np.zeros(freqs.size, bool)
    for lo_f, hi_f in zip(fmin_, fmax_):
        mask |= (freqs >= lo_f) & (freqs <= hi_f)
    if not mask.any():
        raise ValueError(f"no frequency of freqs in [fmin, fmax]; got fmin={fmin!r}, fmax={fmax!r}")
    if fdecim != 1:
        first = int(np.flatnonzero(mask)[0])
        used = mask[first:]
        used[np.arange(used.size) % fdecim != 0] = False
    freqs = freqs[mask]
    nc = nc[mask]
    foi_idx = np.c_[[int(np.argmin(np.abs(freqs - f))) for f in fmin_],
                    [int(np.argmin(np.abs(freqs - f))) for f in fmax_]]
    out_freqs = freqs[foi_idx].mean(1) if faverage else freqs
    n_out = len(fmin_) if faverage else freqs.size
    if float(n_cons) * n_out * (1 if average else n_epochs) > _MAX_VALUES:
        raise ValueError(f"{n_cons} connections x {n_out} frequencies x {n_epochs} epochs is more "
                         "than sftwave returns at once; pass fewer indices or average=True")
    # padding, after the (decimated) transform
    n_dec = -(-n_times // decim)
    pad = 0
    if padding:
        if padding >= n_times / sfreq / 2:
            raise ValueError(f"Padding cannot be larger than half of data length, got {padding}.")
        pad = int(np.floor(padding * sfreq / decim))
    n_kept = n_dec - 2 * pad
    if n_kept <= 0:
        raise ValueError(f"padding={padding!r} leaves no sample")
    # the channels used, the pairs' rows (seeds) and column ranges (targets), in used numbering
    used = np.unique(np.r_[src, tgt]) if n_cons else np.zeros(0, np.int64)
    where = np.full(n_signals, -1, np.int64)
    where[used] = np.arange(used.size)
    ux, uy = where[src], where[tgt]
    seeds = np.unique(ux)
    row_of = np.full(used.size, -1, np.int64)
    row_of[seeds] = np.arange(seeds.size)
    col_lo = np.full(seeds.size, used.size, np.int64)
    col_hi = np.zeros(seeds.size, np.int64)
    np.minimum.at(col_lo, row_of[ux], uy)
    np.maximum.at(col_hi, row_of[ux], uy + 1)
    linear = [m for m in methods if m in ("coh", "cohy", "imcoh")]
    w_t = _same_weights(k_t, n_kept)
    kind = ck.KIND_NONE if m_t == 1 else ck.KIND_HANN if sm_kernel == "hanning" else ck.KIND_BOXCAR
    inv_norm = 1.0 / np.hanning(m_t).sum() if kind == ck.KIND_HANN else 1.0 / m_t
    scores = {m: np.zeros((n_epochs, n_cons, n_out), np.complex128 if m == "cohy" else np.float64)
              for m in methods}
    split: tuple[np.ndarray, np.ndarray] | None = None       # reused by every epoch
    scaled, _ = _unit_scale(data[:, used])     # (every measure is a ratio: the same bits)
    with _threads(workers):         # the pair kernels' threads (the transform's: its n_jobs)
        for e0, y in _coefficient_blocks(scaled, sfreq, freqs, nc, decim, workers, tol):
            for k in range(y.shape[0]):
                ye = y[k, :, :, pad:n_dec - pad]
                res: dict[str, np.ndarray] = {}
                if linear:
                    g = ck.cross_sums(ye, seeds, col_lo, col_hi, w_t)        # (freqs, seeds, used)
                    sxy = _smooth_freqs(g[:, row_of[ux], uy].T, k_f)           # (cons, freqs)
                    pw = _smooth_freqs(ck.power_sums(ye, w_t), k_f)            # (used, freqs)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        den = np.sqrt(pw[ux] * pw[uy])
                        for m in linear:
                            res[m] = {"coh": np.abs(sxy), "cohy": sxy, "imcoh": sxy.imag}[m] / den
                if phase:
                    split = ck.split_layout(ye, split)
                    sums = ck.phase_sums(split, ux, uy, kind, m_t, inv_norm,   # (cons, freqs, 5)
                                         unit=bool({"plv", "ciplv"} & set(phase)),
                                         imag=bool({"pli", "wpli"} & set(phase)))
                    with np.errstate(invalid="ignore", divide="ignore"):
                        for m in phase:
                            if m == "plv":
                                res[m] = np.hypot(sums[..., 0], sums[..., 1]) / n_kept
                            elif m == "ciplv":
                                rplv = np.abs(sums[..., 0]) / n_kept
                                res[m] = (np.abs(sums[..., 1]) / n_kept) / np.sqrt(1 - rplv ** 2)
                            elif m == "pli":
                                res[m] = np.abs(sums[..., 2]) / n_kept
                            else:
                                res[m] = np.abs(sums[..., 4]) / sums[..., 3]
                for m in methods:
                    scores[m][e0 + k] = _band_means(res[m], foi_idx) if faverage else res[m]
    results = []
    for m in methods:
        con = scores[m]
        if indices is None:
            full = np.zeros((n_epochs, n_signals, n_signals, n_out), con.dtype)
            full[:, src, tgt] = con
            con = full.reshape(n_epochs, n_signals ** 2, n_out)
        if average:
            con = con.mean(axis=0)
        if want_object:
            import mne_connectivity

            params = dict(data=con, patterns=None, freqs=out_freqs, n_nodes=n_signals,
                          names=np.arange(0, n_signals), indices=indices, method=m,
                          spec_method=mode, events=None, event_id=None, metadata=None, rank=None,
                          n_lags=None)
            results.append(mne_connectivity.SpectralConnectivity(**params) if average
                           else mne_connectivity.EpochSpectralConnectivity(**params))
        else:
            results.append(con)
    return results[0] if len(results) == 1 else results


# ----------------------------------------------------------------------------- across epochs

#: The bivariate measures of :func:`spectral_connectivity_epochs` (MNE-Connectivity's names).
EPOCH_METHODS = ("coh", "cohy", "imcoh", "plv", "ciplv", "ppc", "pli", "pli2_unbiased", "dpli",
                 "wpli", "wpli2_debiased")

#: MNE-Connectivity's multivariate measures (not computed here).
_MULTIVARIATE = ("cacoh", "mic", "mim", "gc", "gc_tr")

#: The complex coefficients held at once by :func:`spectral_connectivity_epochs` (bytes): every
#: epoch of the users' workload at 4 frequencies, so that each accumulator is read and written
#: once per block.
_EPOCH_BLOCK_BYTES = 64 << 20


def _epoch_sums_needed(methods: list[str]) -> list[int]:
    """The :mod:`connectivity_kernels` ``SUM_*`` that ``methods`` need."""
    from .engines.numba import connectivity_kernels as ck

    need = {"coh": ck.SUM_CSD, "cohy": ck.SUM_CSD, "imcoh": ck.SUM_CSD, "plv": ck.SUM_UNIT,
            "ciplv": ck.SUM_UNIT, "ppc": ck.SUM_UNIT0, "pli": ck.SUM_SIGN,
            "pli2_unbiased": ck.SUM_SIGN, "dpli": ck.SUM_SIGN, "wpli": ck.SUM_IMAG,
            "wpli2_debiased": ck.SUM_IMAG}
    sums = {need[m] for m in methods}
    if "wpli2_debiased" in methods:
        sums.add(ck.SUM_IMAG2)
    return sorted(sums)


def _connections(indices: Any, n_signals: int) -> tuple[np.ndarray, np.ndarray]:
    """MNE-Connectivity's bivariate ``indices`` (None: ``i > j``) as int64 seeds and targets."""
    if indices is None:
        src, tgt = np.tril_indices(n_signals, k=-1)
        return src.astype(np.int64), tgt.astype(np.int64)
    if not isinstance(indices, tuple) or len(indices) != 2:
        raise ValueError("indices must be a tuple of length 2")
    if len(indices[0]) != len(indices[1]):
        raise ValueError("Index arrays indices[0] and indices[1] must have the same length")
    if any(isinstance(i, (np.ndarray, list, tuple)) for i in [*indices[0], *indices[1]]):
        raise TypeError("Channel indices must be integers, not array-likes")
    src = np.asarray(indices[0])
    tgt = np.asarray(indices[1])
    for arr in (src, tgt):
        if arr.size and (arr.dtype.kind not in "iu"):
            raise TypeError(f"indices must hold integers; got dtype {arr.dtype}")
    src = src.astype(np.int64).ravel()
    tgt = tgt.astype(np.int64).ravel()
    if src.size and (min(src.min(), tgt.min()) < -n_signals
                     or max(src.max(), tgt.max()) >= n_signals):
        raise ValueError(f"indices must be channel indices in [0, {n_signals}); got {indices!r}")
    return src % n_signals, tgt % n_signals


def _time_window(n_times: int, sfreq: float, tmin: Any, tmax: Any) -> tuple[int, int]:
    """MNE's ``_time_mask`` on ``arange(n_times) / sfreq``: the kept samples ``[start, stop)``."""
    times = np.arange(n_times) / sfreq
    for name, t in (("tmin", tmin), ("tmax", tmax)):
        if t is not None and (isinstance(t, bool) or not isinstance(t, numbers.Real)
                              or math.isnan(t)):
            raise ValueError(f"{name} must be None or a number of seconds; got {t!r}")
    if tmin is not None and tmin < times[0]:
        warnings.warn(f"start time tmin={tmin:.2f} s outside of the time scope of the data "
                      f"[{times[0]:.2f} s, {times[-1]:.2f} s]", RuntimeWarning, stacklevel=3)
    if tmax is not None and tmax > times[-1]:
        warnings.warn(f"stop time tmax={tmax:.2f} s outside of the time scope of the data "
                      f"[{times[0]:.2f} s, {times[-1]:.2f} s]", RuntimeWarning, stacklevel=3)
    lo = times[0] if tmin is None or not math.isfinite(tmin) else tmin
    hi = times[-1] if tmax is None or not math.isfinite(tmax) else tmax
    lo = int(round(lo * sfreq)) / sfreq - 0.5 / sfreq
    hi = int(round(hi * sfreq)) / sfreq + 0.5 / sfreq
    if lo > hi:
        raise ValueError(f"tmin ({tmin}) must be less than or equal to tmax ({tmax})")
    kept = np.flatnonzero((times >= lo) & (times <= hi))
    if kept.size == 0:
        raise ValueError(f"No samples remain when using tmin={tmin} and tmax={tmax} (original "
                         f"time bounds are [{times[0]}, {times[-1]}] containing {n_times} samples)")
    return int(kept[0]), int(kept[-1]) + 1


def spectral_connectivity_epochs(
        data: ArrayLike, names: list | None = None, method: str | list[str] = "coh",
        indices: tuple | None = None, sfreq: float | None = None, *, mode: str = "cwt_morlet",
        fmin: Any = None, fmax: Any = np.inf, fdecim: int = 1, faverage: bool = False,
        tmin: float | None = None, tmax: float | None = None, mt_bandwidth: Any = None,
        mt_adaptive: bool = False, mt_low_bias: bool = True, cwt_freqs: ArrayLike | None = None,
        cwt_n_cycles: float | ArrayLike = 7, gc_n_lags: int = 40, rank: Any = None,
        n_components: int = 1, block_size: int = 1000, n_jobs: int | None = 1,
        verbose: Any = None, output: str = "auto", tol: float = 1e-5) -> Any:
    """Connectivity across epochs, as ``mne_connectivity.spectral_connectivity_epochs`` (Morlet).

    For each pair ``(x, y)``, frequency and sample: the Morlet coefficients
    ``W`` (MNE's, ``zero_mean=True``) of every epoch, their cross spectrum
    ``S = W_x conj(W_y)``, and the measure from its distribution over the
    ``n`` epochs (``E`` the mean over epochs):

    * ``'coh'`` ``|E S| / sqrt(E|W_x|^2 E|W_y|^2)``, ``'cohy'`` the same
      without ``| |``, ``'imcoh'`` its imaginary part;
    * ``'plv'`` ``|E u|`` with ``u = S / |S|``; ``'ciplv'``
      ``|E Im u| / sqrt(1 - (E Re u)^2)``; ``'ppc'``
      ``(|sum u|^2 - n) / (n (n - 1))`` (the mean of ``Re u_j conj(u_k)`` over
      the pairs of epochs);
    * ``'pli'`` ``|E sign Im S|``; ``'pli2_unbiased'``
      ``(n (E sign Im S)^2 - 1) / (n - 1)``; ``'dpli'`` ``E H(Im S)``
      (Heaviside, 1/2 at 0);
    * ``'wpli'`` ``|E Im S| / E|Im S|``; ``'wpli2_debiased'``
      ``((sum Im S)^2 - sum (Im S)^2) / ((sum |Im S|)^2 - sum (Im S)^2)``.

    Parameters
    ----------
    data : array of shape (n_epochs, n_signals, n_times)
        The epochs (real; integer and bool taken as float).  MNE's ``Epochs``
        and spectrum objects are not taken: pass ``epochs.get_data()``.
    names : list or None
        The signals' names, stored in the result object.
    method : str or list of str
        Measures from :data:`EPOCH_METHODS` (MNE-Connectivity's bivariate ones).
    indices : tuple of two array-likes of int, or None
        Seeds and targets of the connections; None: every ``i > j`` (the lower
        triangle), returned as ``n_signals ** 2`` connections.
    sfreq : float
        Sampling frequency in Hz (required).
    mode : {'cwt_morlet'}
        MNE-Connectivity's Morlet mode, the only one computed here (its
        default, ``'multitaper'``, is refused, as is ``'fourier'``).
    fmin : float, tuple of float or None
        Bands' lower frequencies (None: five cycles in the window, ``5 / T``;
        ``cwt_freqs`` below are left out, as MNE-Connectivity does).
    fmax : float or tuple of float
        Bands' upper frequencies.
    fdecim : int
        Keep every ``fdecim``-th frequency from the first in the bands.
    faverage : bool
        Average the scores within each band.
    tmin, tmax : float or None
        The window transformed, in seconds from the first sample (None: from
        the first, to the last).  The transform runs on the window alone, with
        zeros outside it, as MNE-Connectivity's.
    mt_bandwidth, mt_adaptive, mt_low_bias : Any
        Multitaper options, accepted for the signature (unused in Morlet mode,
        as in MNE-Connectivity).
    cwt_freqs : array-like of float
        The wavelets' frequencies in Hz (required), at most ``sfreq / 2``.
    cwt_n_cycles : float or array-like of float
        Cycles of each wavelet (one, or one per ``cwt_freqs``).
    gc_n_lags, rank, n_components : Any
        Multivariate options, accepted for the signature (unused by the
        bivariate measures, as in MNE-Connectivity).
    block_size : int
        Accepted for the signature (MNE-Connectivity's connections per
        block; the memory here is bounded by the result and a block of epochs'
        coefficients whatever it is).
    n_jobs : int or None
        Threads (None or -1: all; MNE-Connectivity's default 1).
    verbose : bool, str, int or None
        Accepted for MNE-Connectivity's signature.
    output : {'auto', 'object', 'array'}
        'object': MNE-Connectivity's ``SpectroTemporalConnectivity`` (a list of
        them for a list of methods; needs mne_connectivity); 'array': their
        ``get_data()`` arrays; 'auto': the objects where mne_connectivity is
        installed.
    tol : float
        sftwave's accuracy target for the transform
        (:func:`sftwave.mne.tfr_array_morlet`); 1e-5 here (1e-4 in
        :func:`spectral_connectivity_time`): the scores are per sample, not
        time means, so the transform's error is not averaged down (the
        phase measures' largest differences from MNE-Connectivity were up to
        about 7e-3 at 1e-4 and 1e-3 at 1e-5 on EEG-like epochs), at about the
        same cost.

    Returns
    -------
    SpectroTemporalConnectivity, ndarray or list of them
        ``(n_connections, n_freqs_or_bands, n_times)``: float64, complex128
        for ``'cohy'``.

    Raises
    ------
    ValueError
        For the arguments MNE-Connectivity refuses (unknown method, bands
        without a frequency, frequencies above Nyquist, ``tmin > tmax``,
        ``fdecim``), and for what it computes but sftwave does not: its
        multivariate methods, ``mode='multitaper'`` and ``'fourier'``, a
        wavelet longer than the window (MNE warns and computes; sftwave's
        ``tfr_array_morlet`` refuses), a result of more than ``2 ** 31`` values.
    TypeError
        For complex or non-numeric data (MNE objects included), and bad
        ``indices``.

    Warns
    -----
    RuntimeWarning
        Where MNE-Connectivity warns: ``fmin`` below five cycles in the
        window, ``tmin`` or ``tmax`` outside the data.

    See Also
    --------
    spectral_connectivity_time : Connectivity over time within each epoch.
    csd_array_morlet : The cross-spectral density averaged over epochs and time.
    sftwave.mne.tfr_array_morlet : The coefficients themselves.

    Notes
    -----
    Agrees with MNE-Connectivity 0.9 within 1e-3 absolute
    (``tests/test_connectivity.py``), except where a measure is a
    discontinuous function of the coefficients: 'pli', 'pli2_unbiased' and
    'dpli' count signs of ``Im S``, and where ``Im S`` is within the
    transform's error of 0 (about ``1e-4 |S|``) in some epoch a sign may
    differ, moving the score by ``1 / n`` to ``2 / n``.  A NaN in an epoch's
    channel makes the scores of the pairs with that channel NaN at the
    frequencies and samples whose wavelets reach it (MNE's FFT spreads it over
    the whole epoch).  No ``(epochs, pairs, freqs, times)`` array is made: the
    sums over epochs are accumulated from one block of epochs' coefficients at
    a time (about 64 MB), in epoch order (the same bits on any thread count);
    the memory is that block and a few arrays of the result's size.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> common = rng.standard_normal((20, 1, 500))
    >>> data = common + 0.5 * rng.standard_normal((20, 3, 500))
    >>> con = spectral_connectivity_epochs(data, method="coh", sfreq=250.0,
    ...                                    cwt_freqs=np.array([20.0, 40.0]), output="array")
    >>> con.shape                          # 3 ** 2 connections, 2 frequencies, 500 samples
    (9, 2, 500)
    >>> bool(np.median(con.reshape(3, 3, 2, 500)[1, 0]) > 0.6)
    True
    """
    from .engines.numba import connectivity_kernels as ck

    want_object = _wants_object(output, "mne_connectivity")
    if mode != "cwt_morlet":
        raise ValueError(f"mode must be 'cwt_morlet' (sftwave computes MNE-Connectivity's Morlet "
                         f"mode only); got {mode!r}")
    if hasattr(data, "get_data"):
        raise TypeError("data must be an array (n_epochs, n_signals, n_times); for MNE's objects "
                        "pass data.get_data() and sfreq=data.info['sfreq']")
    data = _float_data(data, "data")
    n_epochs, n_signals, n_times_in = data.shape
    if n_epochs == 0 or n_signals == 0 or n_times_in == 0:
        raise ValueError(f"data must hold epochs, signals and samples; got shape {data.shape}")
    if sfreq is None:
        raise ValueError("Sampling frequency (sfreq) is required with array input.")
    if isinstance(sfreq, bool) or not isinstance(sfreq, numbers.Real) or not sfreq > 0 \
            or not math.isfinite(sfreq):
        raise ValueError(f"sfreq must be a positive number; got {sfreq!r}")
    sfreq = float(sfreq)
    methods = [method] if isinstance(method, str) else list(method) if isinstance(
        method, (list, tuple)) else None
    if not methods:
        raise ValueError(f"method must be a name or a list of names from {EPOCH_METHODS}; "
                         f"got {method!r}")
    bad = [m for m in methods if m not in EPOCH_METHODS]
    if bad:
        multi = [m for m in bad if m in _MULTIVARIATE]
        raise ValueError(f"Connectivity method(s) not recognized: {bad}. sftwave computes "
                         f"{list(EPOCH_METHODS)}" + (" (the multivariate ones: use "
                                                    "mne_connectivity)" if multi else ""))
    fmin_, fmax_ = _bands(-np.inf if fmin is None else fmin, fmax, fdecim)
    workers = _workers(n_jobs)
    src, tgt = _connections(indices, n_signals)
    n_cons = src.size
    # the window, and MNE-Connectivity's default fmin: five cycles in it
    t0, t1 = _time_window(n_times_in, sfreq, tmin, tmax)
    n_times = t1 - t0
    times = np.arange(t0, t1) / sfreq
    five_cycle_freq = 5.0 / (n_times / sfreq)
    if len(fmin_) == 1 and fmin_[0] == -np.inf:
        fmin_ = np.array([five_cycle_freq])
    elif np.any(fmin_ < five_cycle_freq):
        dur = n_times / sfreq
        warnings.warn(f"fmin={np.min(fmin_):.3f} Hz corresponds to {dur * np.min(fmin_):.3f} < 5 "
                      f"cycles based on the epoch length {dur:.3f} sec, need at least "
                      f"{5.0 / np.min(fmin_):.3f} sec epochs or fmin={five_cycle_freq:.3f}. "
                      "Spectrum estimate will be unreliable.", RuntimeWarning, stacklevel=2)
    # the frequencies
    if cwt_freqs is None:
        raise ValueError("define frequencies of interest using cwt_freqs")
    freqs_all = np.atleast_1d(np.asarray(cwt_freqs, dtype=float))
    if freqs_all.ndim != 1 or freqs_all.size == 0 or not np.all(np.isfinite(freqs_all)):
        raise ValueError(f"cwt_freqs must be a non-empty 1-D array of finite floats; got "
                         f"{cwt_freqs!r}")
    if np.any(freqs_all > sfreq / 2.0):
        raise ValueError("entries in cwt_freqs cannot be larger than Nyquist (sfreq / 2)")
    mask = np.zeros(freqs_all.size, bool)
    for lo_f, hi_f in zip(fmin_, fmax_):
        mask |= (freqs_all >= lo_f) & (freqs_all <= hi_f)
    if fdecim != 1 and mask.any():
        first = int(np.flatnonzero(mask)[0])
        used_f = mask[first:]
        used_f[np.arange(used_f.size) % fdecim != 0] = False
    freqs = freqs_all[mask]
    bands = [np.flatnonzero((freqs >= lo_f) & (freqs <= hi_f)) for lo_f, hi_f in zip(fmin_, fmax_)]
    for i, band in enumerate(bands):
        if band.size == 0:
            raise ValueError(f"There are no frequency points between {fmin_[i]:.1f}Hz and "
                             f"{fmax_[i]:.1f}Hz. Change the band specification (fmin, fmax) or "
                             "the frequency resolution.")
    if not np.all(freqs > 0):
        raise ValueError("all frequencies in 'freqs' must be greater than 0.")
    nc = np.array((cwt_n_cycles,), dtype=float).ravel() if np.isscalar(cwt_n_cycles) else \
        np.asarray(cwt_n_cycles, dtype=float).ravel()
    if nc.size > 1:
        if nc.size != freqs_all.size:
            raise ValueError("cwt_n_cycles must be float or an array with the same size as "
                             "cwt_freqs")
        nc = nc[mask]
    else:
        nc = np.repeat(nc, freqs.size)
    if not np.all(np.isfinite(nc) & (nc > 0)):
        raise ValueError(f"cwt_n_cycles must be positive and finite; got {cwt_n_cycles!r}")
    n_out = len(bands) if faverage else freqs.size
    # the sums kept (their rows of acc), bounded by the result's size
    sums = _epoch_sums_needed(methods)
    slots = np.full(len(ck.SUM_WIDTHS), -1, np.int64)
    n_rows = 0
    for s in sums:
        slots[s] = n_rows
        n_rows += ck.SUM_WIDTHS[s]
    n_full = n_signals ** 2 if indices is None else n_cons
    if float(max(n_rows * n_cons, n_full)) * freqs.size * n_times > _MAX_VALUES:
        raise ValueError(f"{n_full} connections x {freqs.size} frequencies x {n_times} samples "
                         "is more than sftwave returns at once; pass fewer indices, "
                         "frequencies or samples (tmin, tmax)")
    # the signals used, the pairs in their numbering
    used = np.unique(np.r_[src, tgt])
    where = np.full(n_signals, -1, np.int64)
    where[used] = np.arange(used.size)
    ux, uy = where[src], where[tgt]
    coherence = bool({"coh", "cohy", "imcoh"} & set(methods))
    acc = np.zeros((freqs.size, n_rows, n_cons, n_times))
    psd = np.zeros((freqs.size, used.size, n_times)) if coherence else None
    # blocks of frequencies with every epoch (each accumulator is then read and written once),
    # or of epochs at a few frequencies where every epoch's coefficients at those are too many
    # (at least 4 frequencies at once, where there are: the transform runs frequencies side by
    # side, and slower with fewer)
    per_freq = used.size * n_times * 16
    group = max(min(4, freqs.size),
                min(freqs.size, _EPOCH_BLOCK_BYTES // max(1, n_epochs * per_freq)))
    block = max(1, min(n_epochs, _EPOCH_BLOCK_BYTES // (group * per_freq)))
    scaled, _ = _unit_scale(data[:, used, t0:t1])   # (every measure is a ratio: the same bits)
    with _threads(workers):         # the kernels' threads (the transform's: its n_jobs)
        for f0 in range(0, freqs.size, group):
            f1 = min(freqs.size, f0 + group)
            for e0 in range(0, n_epochs, block):
                y = tfr_array_morlet(scaled[e0:e0 + block], sfreq, freqs[f0:f1],
                                     n_cycles=nc[f0:f1], zero_mean=True, output="complex",
                                     n_jobs=workers, tol=tol)
                if n_cons:
                    ck.epoch_sums(y, ux, uy, slots, acc[f0:f1])
                if psd is not None:
                    ck.epoch_power_sums(y, psd[f0:f1])
                del y
    results = []
    rows_out = src * n_signals + tgt if indices is None else np.arange(n_cons)
    for m in methods:
        dtype = np.complex128 if m == "cohy" else np.float64
        con = np.zeros((n_full, n_out, n_times), dtype)    # (the rows not computed: 0, as MNE's)
        if faverage:
            by_freq = np.empty((n_cons, freqs.size, n_times), dtype)
            ck.epoch_scores(m, acc, slots, psd, ux, uy, n_epochs, np.arange(n_cons), by_freq)
            for k, band in enumerate(bands):
                con[rows_out, k] = by_freq[:, band].mean(axis=1)
            del by_freq
        else:
            ck.epoch_scores(m, acc, slots, psd, ux, uy, n_epochs, rows_out, con)
        if want_object:
            import mne_connectivity

            if faverage:
                out_freqs: Any = [float(np.mean(freqs[b])) for b in bands]
                freqs_used: Any = [[float(np.min(freqs[b])), float(np.max(freqs[b]))]
                                   for b in bands]
            else:
                out_freqs = freqs_used = freqs
            results.append(mne_connectivity.SpectroTemporalConnectivity(
                data=con, patterns=None, names=names, freqs=out_freqs, method=m,
                n_nodes=n_signals, spec_method=mode, indices=indices, n_epochs_used=n_epochs,
                freqs_used=freqs_used, times_used=times, n_tapers=None, metadata=None,
                events=None, event_id=None, rank=None, n_lags=None, times=times))
        else:
            results.append(con)
    return results[0] if len(results) == 1 else results
