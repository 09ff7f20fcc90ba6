"""The requests of :mod:`sftwave.connectivity`: every argument check of its three functions.

Each public function builds one frozen request here (:func:`csd_request`,
:func:`time_request`, :func:`epochs_request`): the arguments normalised once,
the defaults in one place, the call's scope decided (a ``ValueError`` or
``TypeError`` naming the parameter for anything sftwave does not compute).
The messages are MNE's and MNE-Connectivity's own where those refuse the same
call (copied on purpose: a switched call fails with the words its user knows),
sftwave's elsewhere.  A request holds the arguments and the index arithmetic
that decides their validity (windows, masks, bands), never the data or a
result; ``engine`` is held as chosen (``'auto'`` for None) and resolved by the
public function through :mod:`sftwave.engines`.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .connectivity_data import DataSource
from .spectral import check_n_cycles, check_sfreq, tfr_request

__all__ = ["METHODS", "EPOCH_METHODS", "SM_KERNELS", "PHASE_METHODS", "MULTIVARIATE", "OUTPUT_KINDS",
           "CsdRequest", "TimeRequest", "EpochsRequest", "csd_request", "time_request",
           "epochs_request", "check_epoch_result_size", "check_output", "check_n_jobs",
           "float_epochs", "check_methods", "check_bands", "check_connections", "time_window",
           "smoothing_kernel", "mode_message", "check_source_dtype"]

#: The bivariate measures of ``spectral_connectivity_time`` (MNE-Connectivity's names).
METHODS = ("coh", "cohy", "imcoh", "plv", "ciplv", "pli", "wpli")

#: The bivariate measures of ``spectral_connectivity_epochs`` (MNE-Connectivity's names).
EPOCH_METHODS = ("coh", "cohy", "imcoh", "plv", "ciplv", "ppc", "pli", "pli2_unbiased", "dpli",
                 "wpli", "wpli2_debiased")

#: The smoothing kernels (MNE-Connectivity's ``sm_kernel``).
SM_KERNELS = ("hanning", "square")

#: Measures that need the smoothed cross spectrum at every sample (not only its time mean).
PHASE_METHODS = ("plv", "ciplv", "pli", "wpli")

#: MNE-Connectivity's multivariate measures (not computed here).
MULTIVARIATE = ("cacoh", "mic", "mim", "gc", "gc_tr")

#: The values of ``output``.
OUTPUT_KINDS = ("auto", "object", "array")

#: Most (connections x frequencies x epochs or samples) values a call may return.
_MAX_VALUES = 1 << 31

def mode_message(mode: Any, function: str) -> str:
    """The refusal of a ``mode`` sftwave does not compute (naming ``mode='cwt_morlet'``).

    Examples
    --------
    >>> mode_message("fourier", "spectral_connectivity_epochs")[:40]
    "mode='fourier' is not computed by sftwav"
    """
    default = (" (MNE-Connectivity's default for spectral_connectivity_epochs, taken here "
               "too)" if function == "spectral_connectivity_epochs" and mode == "multitaper"
               else "")
    return (f"mode={mode!r}{default} is not computed by sftwave, which computes MNE-Connectivity's "
            f"Morlet mode only: pass mode='cwt_morlet' to {function}, or use mne_connectivity "
            f"for mode={mode!r}")


def check_source_dtype(source: DataSource) -> None:
    """Refuse time series that are not real numbers (coefficients must be complex: checked where
    they are unpacked)."""
    if source.tfr_freqs is None and source.dtype is not None and source.dtype.kind not in "biuf":
        raise TypeError(f"data must be a real numeric array; got dtype {source.dtype}")


def _source_shape(source: DataSource) -> tuple[int, int, int]:
    """``(n_epochs, n_signals, n_times)`` of ``source`` (time series or coefficients)."""
    shape = source.shape
    ndim = 3 if source.tfr_freqs is None else 4
    if len(shape) != ndim:
        raise ValueError("data must be of shape (n_epochs, n_channels, n_times); got shape "
                         f"{tuple(shape)}")
    return int(shape[0]), int(shape[1]), int(shape[-1])


# ----------------------------------------------------------------------------- parsers


def check_output(output: Any, package: str) -> bool:
    """Whether to build ``package``'s result object (``output``: 'auto', 'object' or 'array').

    Examples
    --------
    >>> check_output("array", "mne")
    False
    """
    if output not in OUTPUT_KINDS:
        raise ValueError(f"output must be one of {', '.join(map(repr, OUTPUT_KINDS))}; "
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


def check_n_jobs(n_jobs: Any) -> int | None:
    """MNE's ``n_jobs`` as sftwave's ``workers`` (None and -1: all threads).

    Examples
    --------
    >>> check_n_jobs(-1) is None, check_n_jobs(2)
    (True, 2)
    """
    if n_jobs is None or n_jobs == -1:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs < 1:
        raise ValueError(f"n_jobs must be None, -1 or a positive integer; got {n_jobs!r}")
    return int(n_jobs)


def float_epochs(X: Any, name: str) -> np.ndarray:
    """``X`` as float64 ``(n_epochs, n_channels, n_times)``; complex refused (MNE casts to float).

    Examples
    --------
    >>> float_epochs([[[1, 2]]], "X").dtype
    dtype('float64')
    """
    arr = np.asarray(X)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a real numeric array; got dtype {arr.dtype}")
    arr = arr.astype(np.float64, copy=False)
    if arr.ndim != 3:
        raise ValueError(f"{name} must be of shape (n_epochs, n_channels, n_times); got shape "
                         f"{arr.shape}")
    return arr


def check_methods(method: Any, valid: tuple[str, ...],
                  hint: Literal["always", "multivariate"]) -> tuple[str, ...]:
    """``method`` (a name or a list of names) as a tuple of names from ``valid``.

    ``hint``: when the message of an unknown name points to mne_connectivity
    (always, or only where a multivariate measure was asked for).

    Examples
    --------
    >>> check_methods(["coh", "plv"], METHODS, "always")
    ('coh', 'plv')
    """
    methods = [method] if isinstance(method, str) else list(method) if isinstance(
        method, (list, tuple)) else None
    if not methods:
        raise ValueError(f"method must be a name or a list of names from {valid}; got {method!r}")
    bad = [m for m in methods if m not in valid]
    if bad:
        multi = hint == "always" or any(m in MULTIVARIATE for m in bad)
        raise ValueError(f"Connectivity method(s) not recognized: {bad}. sftwave computes "
                         f"{list(valid)}" + (" (the multivariate ones: use mne_connectivity)"
                                             if multi else ""))
    return tuple(methods)


def check_bands(fmin: Any, fmax: Any, fdecim: Any) -> tuple[np.ndarray, np.ndarray]:
    """The bands' lower and upper edges as 1-D arrays, and ``fdecim`` checked, with
    MNE-Connectivity's errors.

    Examples
    --------
    >>> check_bands((4.0, 8.0), (7.0, 12.0), 1)
    (array([4., 8.]), array([ 7., 12.]))
    """
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


def check_connections(indices: Any, n_signals: int,
                      picks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """MNE-Connectivity's bivariate ``indices`` (None: ``i > j`` among ``picks``, the good
    channels, or all) as int64 seeds and targets.

    Examples
    --------
    >>> check_connections(None, 3)
    (array([1, 2, 2]), array([0, 0, 1]))
    >>> check_connections(None, 3, picks=np.array([0, 2]))
    (array([2]), array([0]))
    """
    if indices is None:
        good = np.arange(n_signals) if picks is None else np.asarray(picks, np.int64)
        src, tgt = np.tril_indices(good.size, k=-1)
        return good[src].astype(np.int64), good[tgt].astype(np.int64)
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


def time_window(n_times: int, sfreq: float, tmin: Any, tmax: Any, *, times: Any = None,
                stacklevel: int = 2) -> tuple[int, int]:
    """MNE's ``_time_mask`` on ``times`` (None: ``arange(n_times) / sfreq``): the kept samples
    ``[start, stop)``.

    Warns (``RuntimeWarning``, at ``stacklevel`` above this function) where
    ``tmin`` or ``tmax`` is outside the data, as MNE does.

    Examples
    --------
    >>> time_window(100, 100.0, 0.2, 0.5)
    (20, 51)
    """
    times = np.arange(n_times) / sfreq if times is None else np.asarray(times, float)
    for name, t in (("tmin", tmin), ("tmax", tmax)):
        if t is not None and (isinstance(t, bool) or not isinstance(t, numbers.Real)
                              or math.isnan(t)):
            raise ValueError(f"{name} must be None or a number of seconds; got {t!r}")
    if tmin is not None and tmin < times[0]:
        warnings.warn(f"start time tmin={tmin:.2f} s outside of the time scope of the data "
                      f"[{times[0]:.2f} s, {times[-1]:.2f} s]", RuntimeWarning,
                      stacklevel=stacklevel + 1)
    if tmax is not None and tmax > times[-1]:
        warnings.warn(f"stop time tmax={tmax:.2f} s outside of the time scope of the data "
                      f"[{times[0]:.2f} s, {times[-1]:.2f} s]", RuntimeWarning,
                      stacklevel=stacklevel + 1)
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


def smoothing_kernel(length: int, sm_kernel: str, name: str) -> np.ndarray:
    """MNE-Connectivity's 1-D kernel of ``length`` samples, normalised to a sum of 1.

    Examples
    --------
    >>> smoothing_kernel(3, "hanning", "sm_times")
    array([0., 1., 0.])
    """
    if sm_kernel == "square":
        return np.full(length, 1.0 / length)
    if length == 2:
        raise ValueError(f"{name} gives a Hann kernel of 2 samples, which is all zeros (MNE-"
                         "Connectivity's results are then NaN): choose another width")
    h = np.hanning(length)
    return h / h.sum()


def _check_real(value: Any, message: str) -> None:
    """Refuse ``value`` unless it is a real number (not a bool) at least 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value) >= 0:
        raise ValueError(message)


def _band_mask(freqs: np.ndarray, fmin: np.ndarray, fmax: np.ndarray, fdecim: int) -> np.ndarray:
    """The frequencies in any band, every ``fdecim``-th from the first (MNE-Connectivity's)."""
    mask = np.zeros(freqs.size, bool)
    for lo_f, hi_f in zip(fmin, fmax):
        mask |= (freqs >= lo_f) & (freqs <= hi_f)
    if fdecim != 1 and mask.any():
        first = int(np.flatnonzero(mask)[0])
        used = mask[first:]
        used[np.arange(used.size) % fdecim != 0] = False
    return mask


# ----------------------------------------------------------------------------- csd_array_morlet


@dataclass(frozen=True, eq=False)
class CsdRequest:
    """A checked call of ``csd_array_morlet``: MNE's window and ``decim`` resolved.

    ``window`` is the samples transformed (the kept time window widened by
    half the longest wavelet, as MNE), ``kept`` the coefficients kept of the
    transform of that window (after ``decim``), ``times`` their times.
    """

    want_object: bool
    sfreq: float
    freqs: np.ndarray
    frequencies: Any
    n_cycles: np.ndarray
    window: tuple[int, int]
    kept: slice | np.ndarray
    times: np.ndarray
    decim: int | slice
    names: list
    projs: list | None
    workers: int | None
    tol: float
    engine: str


def _csd_decim(decim: Any, times_index: np.ndarray, start: int, stop: int) -> slice | np.ndarray:
    """The coefficients kept of the transformed window, in its decimated samples."""
    if isinstance(decim, numbers.Integral) and not isinstance(decim, bool):
        step = int(decim)
        if step < 1:
            raise ValueError(f"decim must be a positive integer or a slice; got {decim!r}")
        # MNE's _csd_morlet: the window's bounds divided by decim, in decimated samples
        return slice(start // step, stop // step)
    if isinstance(decim, slice):
        # (MNE fails here: its window's bounds are divided by the slice) the decimated samples
        # that fall in the window
        idx = times_index[decim]
        return np.flatnonzero((idx >= start) & (idx < stop))
    raise ValueError(f"decim must be an integer or a slice; got {type(decim)}")


def csd_request(X: Any, sfreq: Any, frequencies: Any, t0: Any, tmin: Any, tmax: Any,
                ch_names: Any, n_cycles: Any, decim: Any, projs: Any, n_jobs: Any, output: Any,
                tol: Any, engine: str | None) -> CsdRequest:
    """The request of ``csd_array_morlet`` (its arguments in its order; MNE's messages).

    Examples
    --------
    >>> req = csd_request(np.zeros((2, 3, 500)), 250.0, [10.0], 0, None, None, None, 7, 1,
    ...                   None, None, "array", 1e-4, None)
    >>> req.window, req.kept, req.names
    ((0, 500), slice(0, 500, None), ['SERIES001', 'SERIES002', 'SERIES003'])
    """
    want_object = check_output(output, "mne")
    X = float_epochs(X, "X")
    sfreq = check_sfreq(sfreq)
    freqs = np.atleast_1d(np.asarray(frequencies, dtype=float))
    if freqs.ndim != 1 or freqs.size == 0:
        raise ValueError(f"frequencies must be a non-empty 1-D list of floats; got {frequencies!r}")
    n_epochs, n_chans, n_times = X.shape
    if n_times == 0 or n_chans == 0:
        raise ValueError(f"X must have channels and samples; got shape {X.shape}")
    if not np.all(np.isfinite(freqs) & (freqs > 0)):
        raise ValueError(f"frequencies must be positive and finite; got {frequencies!r}")
    nc = check_n_cycles(n_cycles, freqs.size, length_message="n_cycles must be a float or one per "
                        "frequency ({n_freqs}); got {n} values")
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
    workers = check_n_jobs(n_jobs)
    # MNE's wavelet at the lowest frequency: 2 ceil(5 sigma_t sfreq) - 1 samples
    i_min = int(np.argmin(freqs))
    sigma_t = nc[i_min] / (2.0 * math.pi * freqs[i_min])
    wave_length = int(2 * math.ceil(5.0 * sigma_t / tstep) - 1) // 2
    # as MNE (whose tmin and tmax are never None here): the data widened by half the longest
    # wavelet, transformed, then the window kept
    tstart = max(0, int(np.searchsorted(times, tmin_)) - wave_length)
    tstop = min(n_times, int(np.searchsorted(times, tmax_)) + wave_length)
    times = times[tstart:tstop]
    csd_tstart = int(np.searchsorted(times, tmin_ - 1e-10))
    csd_tstop = int(np.searchsorted(times, tmax_ + 1e-10))
    index = np.arange(times.size)
    times = times[csd_tstart:csd_tstop]
    kept = _csd_decim(decim, index, csd_tstart, csd_tstop)
    if times.size == 0:
        raise ValueError("no sample between tmin and tmax")
    if n_epochs:
        # the transform's own refusals (MNE's: Nyquist, wavelets longer than the window) first
        tfr_request(np.empty((0, n_chans, tstop - tstart)), sfreq, freqs, nc, True, True, decim,
                    "complex", n_jobs, tol)
        n_dec = (len(range(index.size)[decim]) if isinstance(decim, slice)
                 else -(-index.size // int(decim)))
        if len(range(n_dec)[kept] if isinstance(kept, slice) else kept) == 0:
            raise ValueError("no sample kept between tmin and tmax after decim")
    names = ch_names if ch_names is not None else [f"SERIES{i + 1:03}" for i in range(n_chans)]
    return CsdRequest(want_object, sfreq, freqs, frequencies, nc, (tstart, tstop), kept, times,
                      decim, names, projs, workers, tol, "auto" if engine is None else engine)


# ----------------------------------------------------------------------------- over time


@dataclass(frozen=True, eq=False)
class TimeRequest:
    """A checked call of ``spectral_connectivity_time``.

    ``freqs`` and ``n_cycles`` are those used (in the bands, every
    ``fdecim``-th), ``foi_idx`` the bands' first and last of them,
    ``out_freqs`` the result's frequencies; ``sm_width`` the time smoothing's
    width in (decimated) samples and ``k_t``, ``k_f`` the kernels;
    ``pad`` the (decimated) samples cut off each end, ``n_dec`` the decimated
    length and ``n_kept`` what the padding leaves.
    """

    want_object: bool
    shape: tuple[int, int, int]
    sfreq: float
    methods: tuple[str, ...]
    freqs: np.ndarray
    n_cycles: np.ndarray
    foi_idx: np.ndarray
    out_freqs: np.ndarray
    faverage: bool
    average: bool
    decim: int
    sm_kernel: str
    sm_width: int
    k_t: np.ndarray
    k_f: np.ndarray
    pad: int
    n_dec: int
    n_kept: int
    src: np.ndarray
    tgt: np.ndarray
    indices: Any
    mode: str
    workers: int | None
    tol: float
    engine: str
    names: Any
    freq_mask: np.ndarray
    source: DataSource

    @property
    def n_out(self) -> int:
        """Frequencies (or bands) in the result."""
        return self.foi_idx.shape[0] if self.faverage else self.freqs.size


def _time_smoothing(sm_times: Any, sm_freqs: Any, sm_kernel: Any, sfreq: float, decim: int,
                    n_times: int, n_freqs: int,
                    methods: tuple[str, ...]) -> tuple[int, np.ndarray, np.ndarray]:
    """MNE-Connectivity's kernel widths in samples, and the kernels in time and frequency."""
    m_t = max(int(np.round(int(np.round(sm_times * sfreq)) / decim)), 1)
    m_f = int(np.round(max(sm_freqs, 1)))
    if m_t > max(n_times, 1) * 4 or m_f > max(n_freqs, 1) * 4:
        raise ValueError(f"sm_times={sm_times!r} or sm_freqs={sm_freqs!r} is far wider than the "
                         "data")
    k_t = smoothing_kernel(m_t, sm_kernel, f"sm_times={sm_times!r}")
    k_f = smoothing_kernel(m_f, sm_kernel, f"sm_freqs={sm_freqs!r}")
    phase = [m for m in methods if m in PHASE_METHODS]
    if m_f > 1 and phase:
        raise ValueError(f"sm_freqs={sm_freqs!r} (smoothing across frequencies) is computed here "
                         f"for 'coh', 'cohy' and 'imcoh' only; got method {phase}")
    return m_t, k_t, k_f


def _time_padding(padding: float, sfreq: float, decim: int, n_times: int,
                  coefficients: bool) -> tuple[int, int, int]:
    """The (decimated) samples cut off each end, the decimated length (``n_times`` for given
    coefficients, which are not decimated) and what is kept."""
    n_dec = n_times if coefficients else -(-n_times // decim)
    pad = 0
    if padding:
        if padding >= n_times / sfreq / 2:
            raise ValueError(f"Padding cannot be larger than half of data length, got {padding}.")
        pad = int(np.floor(padding * sfreq / decim))
    n_kept = n_dec - 2 * pad
    if n_kept <= 0:
        raise ValueError(f"padding={padding!r} leaves no sample")
    return pad, n_dec, n_kept


def time_request(source: DataSource, freqs: Any, method: Any, average: Any, indices: Any,
                 sfreq: Any, fmin: Any, fmax: Any, fdecim: Any, faverage: Any, sm_times: Any,
                 sm_freqs: Any, sm_kernel: Any, padding: Any, mode: Any, n_cycles: Any,
                 decim: Any, n_jobs: Any, output: Any, tol: Any,
                 engine: str | None) -> TimeRequest:
    """The request of ``spectral_connectivity_time`` (MNE-Connectivity's messages, in its order).

    Examples
    --------
    >>> from sftwave._checks.connectivity_data import connectivity_data
    >>> req = time_request(connectivity_data(np.zeros((2, 3, 500)), None, "time"), [10.0, 20.0],
    ...                    "coh", False, None, 250.0, None, None, 1, False, 0.0, 1, "hanning",
    ...                    0.0, "cwt_morlet", 7.0, 1, 1, "array", 1e-4, None)
    >>> req.methods, req.n_out, req.src.tolist(), req.tgt.tolist()
    (('coh',), 2, [1, 2, 2], [0, 0, 1])
    """
    want_object = check_output(output, "mne_connectivity")
    coefficients = source.tfr_freqs is not None
    if coefficients:
        freqs, mode = source.tfr_freqs, source.tfr_method     # (MNE-Connectivity's: mode ignored)
    elif mode != "cwt_morlet":
        raise ValueError(mode_message(mode, "spectral_connectivity_time"))
    elif freqs is None:
        raise TypeError("`freqs` must be specified when `data` is not an EpochsTFR object")
    check_source_dtype(source)
    n_epochs, n_signals, n_times = _source_shape(source)
    sfreq = check_sfreq(sfreq if source.sfreq is None else source.sfreq, required=True)
    methods = check_methods(method, METHODS, "always")
    freqs = np.atleast_1d(np.asarray(freqs, dtype=float))
    if freqs.ndim != 1 or freqs.size == 0 or not np.all(np.isfinite(freqs)):
        raise ValueError(f"freqs must be a non-empty 1-D array of finite floats; got {freqs!r}")
    if freqs.size >= 2 and not np.all(np.diff(freqs) > 0):
        raise ValueError("Frequencies should be in increasing order")
    fmin_, fmax_ = check_bands(freqs.min() if fmin is None else fmin,
                               freqs.max() if fmax is None else fmax, fdecim)
    if isinstance(decim, bool) or not isinstance(decim, numbers.Integral) or decim < 1:
        raise ValueError(f"decim must be a positive integer; got {decim!r}")
    decim = int(decim)
    _check_real(sm_times, f"sm_times must be a non-negative number of seconds; got {sm_times!r}")
    _check_real(sm_freqs, f"sm_freqs must be a non-negative number; got {sm_freqs!r}")
    if sm_kernel not in SM_KERNELS:
        raise ValueError(f"No kernel {sm_kernel}")
    _check_real(padding, f"Padding cannot be negative, got {padding}.")
    workers = check_n_jobs(n_jobs)
    m_t, k_t, k_f = _time_smoothing(sm_times, sm_freqs, sm_kernel, sfreq, decim, n_times,
                                    freqs.size, methods)
    src, tgt = check_connections(indices, n_signals, source.picks)
    nc = check_n_cycles(n_cycles, freqs.size)
    if np.any(freqs < nc / (float(n_times) / sfreq)):
        raise ValueError("At least one value in n_cycles corresponds to a wavelet longer than the "
                         "signal. Use less cycles, higher frequencies, or longer epochs.")
    if np.any(freqs > sfreq / 2):
        raise ValueError(f"Frequencies {freqs[freqs > sfreq / 2]} Hz are larger than Nyquist = "
                         f"{sfreq / 2:.2f} Hz")
    mask = _band_mask(freqs, fmin_, fmax_, fdecim)      # (fdecim keeps the first in the bands)
    if not mask.any():
        raise ValueError(f"no frequency of freqs in [fmin, fmax]; got fmin={fmin!r}, fmax={fmax!r}")
    freqs, nc = freqs[mask], nc[mask]
    foi_idx = np.c_[[int(np.argmin(np.abs(freqs - f))) for f in fmin_],
                    [int(np.argmin(np.abs(freqs - f))) for f in fmax_]]
    n_out = len(fmin_) if faverage else freqs.size
    if float(src.size) * n_out * (1 if average else n_epochs) > _MAX_VALUES:
        raise ValueError(f"{src.size} connections x {n_out} frequencies x {n_epochs} epochs is more "
                         "than sftwave returns at once; pass fewer indices or average=True")
    pad, n_dec, n_kept = _time_padding(padding, sfreq, decim, n_times, coefficients)
    names = np.arange(0, n_signals) if source.names is None else source.names
    return TimeRequest(want_object, (n_epochs, n_signals, n_times), sfreq, methods, freqs, nc,
                       foi_idx, freqs[foi_idx].mean(1) if faverage else freqs, bool(faverage),
                       bool(average), decim, sm_kernel, m_t, k_t, k_f, pad, n_dec, n_kept, src, tgt,
                       indices, mode, workers, tol, "auto" if engine is None else engine, names,
                       mask, source)


# ----------------------------------------------------------------------------- across epochs


@dataclass(frozen=True, eq=False)
class EpochsRequest:
    """A checked call of ``spectral_connectivity_epochs``.

    ``window`` is the samples ``[t0, t1)`` transformed, ``times`` their times;
    ``freqs`` and ``n_cycles`` those used, ``bands`` the indices of ``freqs``
    in each band.
    """

    want_object: bool
    shape: tuple[int, int, int]
    sfreq: float
    methods: tuple[str, ...]
    src: np.ndarray
    tgt: np.ndarray
    indices: Any
    names: Any
    window: tuple[int, int]
    times: np.ndarray
    freqs: np.ndarray
    n_cycles: np.ndarray
    bands: tuple[np.ndarray, ...]
    faverage: bool
    mode: str
    workers: int | None
    tol: float
    engine: str
    freq_mask: np.ndarray
    source: DataSource

    @property
    def n_out(self) -> int:
        """Frequencies (or bands) in the result."""
        return len(self.bands) if self.faverage else self.freqs.size

    @property
    def n_full(self) -> int:
        """Connections in the result (``n_signals ** 2`` for ``indices=None``)."""
        return self.shape[1] ** 2 if self.indices is None else self.src.size


def _default_fmin(fmin: np.ndarray, n_times: int, sfreq: float) -> np.ndarray:
    """MNE-Connectivity's default ``fmin`` (five cycles in the window), and its warning."""
    five_cycle_freq = 5.0 / (n_times / sfreq)
    if len(fmin) == 1 and fmin[0] == -np.inf:
        return np.array([five_cycle_freq])
    if np.any(fmin < five_cycle_freq):
        dur = n_times / sfreq
        warnings.warn(f"fmin={np.min(fmin):.3f} Hz corresponds to {dur * np.min(fmin):.3f} < 5 "
                      f"cycles based on the epoch length {dur:.3f} sec, need at least "
                      f"{5.0 / np.min(fmin):.3f} sec epochs or fmin={five_cycle_freq:.3f}. "
                      "Spectrum estimate will be unreliable.", RuntimeWarning, stacklevel=4)
    return fmin


def _epoch_freqs(freqs_all: np.ndarray, cwt_n_cycles: Any, fmin: np.ndarray, fmax: np.ndarray,
                 fdecim: int) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...], np.ndarray]:
    """The frequencies used, their cycles, the bands and the mask of ``freqs_all``
    (MNE-Connectivity's checks)."""
    mask = _band_mask(freqs_all, fmin, fmax, fdecim)
    freqs = freqs_all[mask]
    bands = tuple(np.flatnonzero((freqs >= lo_f) & (freqs <= hi_f)) for lo_f, hi_f in zip(fmin, fmax))
    for i, band in enumerate(bands):
        if band.size == 0:
            raise ValueError(f"There are no frequency points between {fmin[i]:.1f}Hz and "
                             f"{fmax[i]:.1f}Hz. Change the band specification (fmin, fmax) or "
                             "the frequency resolution.")
    if not np.all(freqs > 0):
        raise ValueError("all frequencies in 'freqs' must be greater than 0.")
    nc = check_n_cycles(cwt_n_cycles, freqs_all.size, "cwt_n_cycles", keep=mask,
                        length_message="cwt_n_cycles must be float or an array with the same size "
                        "as cwt_freqs")
    return freqs, nc, bands, mask


def _cwt_freqs(cwt_freqs: Any, sfreq: float) -> np.ndarray:
    """``cwt_freqs`` checked (required, finite, at most Nyquist)."""
    if cwt_freqs is None:
        raise ValueError("define frequencies of interest using cwt_freqs")
    freqs_all = np.atleast_1d(np.asarray(cwt_freqs, dtype=float))
    if freqs_all.ndim != 1 or freqs_all.size == 0 or not np.all(np.isfinite(freqs_all)):
        raise ValueError(f"cwt_freqs must be a non-empty 1-D array of finite floats; got "
                         f"{cwt_freqs!r}")
    if np.any(freqs_all > sfreq / 2.0):
        raise ValueError("entries in cwt_freqs cannot be larger than Nyquist (sfreq / 2)")
    return freqs_all


def epochs_request(source: DataSource, names: Any, method: Any, indices: Any, sfreq: Any,
                   mode: Any, fmin: Any, fmax: Any, fdecim: Any, faverage: Any, tmin: Any,
                   tmax: Any, cwt_freqs: Any, cwt_n_cycles: Any, n_jobs: Any, output: Any,
                   tol: Any, engine: str | None) -> EpochsRequest:
    """The request of ``spectral_connectivity_epochs`` (MNE-Connectivity's messages, in its order).

    Warns (``RuntimeWarning``) where MNE-Connectivity does, at the caller of
    the public function.

    Examples
    --------
    >>> from sftwave._checks.connectivity_data import connectivity_data
    >>> req = epochs_request(connectivity_data(np.zeros((4, 2, 500)), None, "epochs"), None,
    ...                      ["coh", "pli"], None, 250.0, "cwt_morlet", None, np.inf, 1, False,
    ...                      None, None, [10.0, 20.0], 7, 1, "array", 1e-5, None)
    >>> req.methods, req.n_full, req.window, req.freqs.tolist()
    (('coh', 'pli'), 4, (0, 500), [10.0, 20.0])
    """
    want_object = check_output(output, "mne_connectivity")
    coefficients = source.tfr_freqs is not None
    if not coefficients and mode != "cwt_morlet":    # (coefficients: MNE-Connectivity ignores it)
        raise ValueError(mode_message(mode, "spectral_connectivity_epochs"))
    check_source_dtype(source)
    n_epochs, n_signals, n_times_in = shape = _source_shape(source)
    if n_epochs == 0 or n_signals == 0 or n_times_in == 0:
        raise ValueError(f"data must hold epochs, signals and samples; got shape {shape}")
    sfreq = check_sfreq(sfreq if source.sfreq is None else source.sfreq, required=True)
    methods = check_methods(method, EPOCH_METHODS, "multivariate")
    fmin_, fmax_ = check_bands(-np.inf if fmin is None else fmin, fmax, fdecim)
    workers = check_n_jobs(n_jobs)
    src, tgt = check_connections(indices, n_signals, source.picks)
    t0, t1 = time_window(n_times_in, sfreq, tmin, tmax, times=source.times, stacklevel=3)
    times = np.arange(n_times_in) / sfreq if source.times is None else source.times
    if coefficients:
        assert source.tfr_freqs is not None
        freqs, nc, bands, mask = _epoch_freqs(source.tfr_freqs, 1.0, fmin_, fmax_, fdecim)
    else:
        fmin_ = _default_fmin(fmin_, t1 - t0, sfreq)
        freqs, nc, bands, mask = _epoch_freqs(_cwt_freqs(cwt_freqs, sfreq), cwt_n_cycles, fmin_,
                                              fmax_, fdecim)
        # the transform's refusals (a wavelet longer than the window: MNE-Connectivity's cwt
        # warns and computes) before any work
        tfr_request(np.empty((0, 1, t1 - t0)), sfreq, freqs, nc, True, True, 1, "complex", n_jobs,
                    tol)
    return EpochsRequest(want_object, shape, sfreq, methods, src, tgt, indices,
                         source.names if source.is_mne else names, (t0, t1), times[t0:t1], freqs,
                         nc, bands, bool(faverage), source.tfr_method or mode, workers, tol,
                         "auto" if engine is None else engine, mask, source)


def check_epoch_result_size(req: EpochsRequest, rows_per_pair: int) -> None:
    """Refuse a call whose sums over epochs (``rows_per_pair`` per connection) or result are
    more than ``2 ** 31`` values.

    Examples
    --------
    >>> from sftwave._checks.connectivity_data import connectivity_data
    >>> req = epochs_request(connectivity_data(np.zeros((4, 2, 500)), None, "epochs"), None,
    ...                      "coh", None, 250.0, "cwt_morlet", None, np.inf, 1, False, None,
    ...                      None, [10.0], 7, 1, "array", 1e-5, None)
    >>> check_epoch_result_size(req, 2)
    """
    n_times = req.window[1] - req.window[0]
    if float(max(rows_per_pair * req.src.size, req.n_full)) * req.freqs.size * n_times > _MAX_VALUES:
        raise ValueError(f"{req.n_full} connections x {req.freqs.size} frequencies x {n_times} "
                         "samples is more than sftwave returns at once; pass fewer indices, "
                         "frequencies or samples (tmin, tmax)")
