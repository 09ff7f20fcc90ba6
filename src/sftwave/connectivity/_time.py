"""MNE-Connectivity's ``spectral_connectivity_time``: connectivity over time within each epoch."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._checks.connectivity import PHASE_METHODS, TimeRequest, float_epochs, time_request
from .._checks.connectivity_data import connectivity_data
from ._common import coefficient_blocks, kernel_threads, operations, unit_scale
from ._results import time_object
from ._smoothing import band_means, same_weights, smooth_freqs

if TYPE_CHECKING:
    from mne_connectivity import EpochSpectralConnectivity, SpectralConnectivity
    from numpy.typing import ArrayLike

__all__ = ["spectral_connectivity_time"]

_LINEAR = ("coh", "cohy", "imcoh")


@dataclass(frozen=True, eq=False)
class _Pairs:
    """The channels used (``used``), the pairs in their numbering (``ux``, ``uy``), and the
    pair kernel's rows (seeds) with their column ranges (targets)."""

    used: np.ndarray
    ux: np.ndarray
    uy: np.ndarray
    seeds: np.ndarray
    row_of: np.ndarray
    col_lo: np.ndarray
    col_hi: np.ndarray


def _pairs(src: np.ndarray, tgt: np.ndarray, n_signals: int) -> _Pairs:
    used = np.unique(np.r_[src, tgt]) if src.size else np.zeros(0, np.int64)
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
    return _Pairs(used, ux, uy, seeds, row_of, col_lo, col_hi)


class _Ops(NamedTuple):
    cross_sums: Callable[..., Any]
    power_sums: Callable[..., Any]
    split_layout: Callable[..., Any]
    phase_smoothing: Callable[..., Any]
    phase_sums: Callable[..., Any]


def _linear_scores(ye: np.ndarray, p: _Pairs, req: TimeRequest, ops: _Ops, w_t: np.ndarray,
                   res: dict[str, np.ndarray]) -> None:
    """The linear measures of one epoch's coefficients ``ye`` (channels, freqs, times) into ``res``."""
    g = ops.cross_sums(ye, p.seeds, p.col_lo, p.col_hi, w_t)        # (freqs, seeds, used)
    sxy = smooth_freqs(g[:, p.row_of[p.ux], p.uy].T, req.k_f)        # (cons, freqs)
    pw = smooth_freqs(ops.power_sums(ye, w_t), req.k_f)              # (used, freqs)
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.sqrt(pw[p.ux] * pw[p.uy])
        for m in req.methods:
            if m in _LINEAR:
                res[m] = {"coh": np.abs(sxy), "cohy": sxy, "imcoh": sxy.imag}[m] / den


def _phase_scores(split: tuple[np.ndarray, np.ndarray], p: _Pairs, req: TimeRequest, ops: _Ops,
                  phase: list[str], smoothing: tuple[int, float], res: dict[str, np.ndarray]) -> None:
    """The phase measures of one epoch's coefficients (their split layout) into ``res``."""
    kind, inv_norm = smoothing
    sums = ops.phase_sums(split, p.ux, p.uy, kind, req.sm_width, inv_norm,   # (cons, freqs, 5)
                          unit=bool({"plv", "ciplv"} & set(phase)),
                          imag=bool({"pli", "wpli"} & set(phase)))
    n_kept = req.n_kept
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


def _blocks(data: np.ndarray, used: np.ndarray,
            req: TimeRequest) -> Iterator[tuple[int, np.ndarray]]:
    """The coefficients of the channels ``used``, a block of epochs at a time: computed from the
    time series, or the given ones (their frequencies ``req.freq_mask``) as they are."""
    if req.source.tfr_freqs is None:
        scaled, _ = unit_scale(data[:, used])    # (every measure is a ratio: the same bits)
        yield from coefficient_blocks(scaled, req.sfreq, req.freqs, req.n_cycles, req.decim,
                                      req.workers, req.tol)
        return
    for e in range(data.shape[0]):
        y, _ = unit_scale(data[e:e + 1, used][:, :, req.freq_mask])
        yield e, np.asarray(y, np.complex128)


def _scores(data: np.ndarray, req: TimeRequest, ops: _Ops) -> dict[str, np.ndarray]:
    """Every measure's scores ``(n_epochs, n_connections, n_out)``, epoch after epoch."""
    p = _pairs(req.src, req.tgt, req.shape[1])
    linear = any(m in _LINEAR for m in req.methods)
    phase = [m for m in req.methods if m in PHASE_METHODS]
    w_t = same_weights(req.k_t, req.n_kept)
    smoothing = ops.phase_smoothing(req.sm_kernel, req.sm_width)
    scores = {m: np.zeros((req.shape[0], req.src.size, req.n_out),
                          np.complex128 if m == "cohy" else np.float64) for m in req.methods}
    split: tuple[np.ndarray, np.ndarray] | None = None       # reused by every epoch
    with kernel_threads(req.workers):  # the pair kernels' threads (the transform's: its n_jobs)
        for e0, y in _blocks(data, p.used, req):
            for k in range(y.shape[0]):
                ye = y[k, :, :, req.pad:req.n_dec - req.pad]
                res: dict[str, np.ndarray] = {}
                if linear:
                    _linear_scores(ye, p, req, ops, w_t, res)
                if phase:
                    split = ops.split_layout(ye, split)
                    _phase_scores(split, p, req, ops, phase, smoothing, res)
                for m in req.methods:
                    scores[m][e0 + k] = band_means(res[m], req.foi_idx) if req.faverage else res[m]
    return scores


def spectral_connectivity_time(
        data: ArrayLike, freqs: ArrayLike | None = None, method: str | list[str] = "coh",
        average: bool = False, indices: tuple | None = None, sfreq: float | None = None, *,
        fmin: Any = None, fmax: Any = None, fdecim: int = 1, faverage: bool = False,
        sm_times: float = 0.0, sm_freqs: int = 1,
        sm_kernel: str = "hanning", padding: float = 0.0, mode: str = "cwt_morlet",
        mt_bandwidth: Any = None, n_cycles: float | ArrayLike = 7.0, gc_n_lags: int = 40,
        rank: Any = None, n_components: int = 1, decim: int = 1, n_jobs: int | None = 1,
        verbose: Any = None, output: str = "auto", tol: float = 1e-5, engine: str | None = None
) -> (SpectralConnectivity | EpochSpectralConnectivity | np.ndarray
      | list[SpectralConnectivity | EpochSpectralConnectivity | np.ndarray]):
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
    data : array, Epochs or EpochsTFR
        The epochs, as MNE-Connectivity takes them: an array
        ``(n_epochs, n_signals, n_times)`` (real; integer and bool taken as
        float); MNE's ``Epochs`` (its ``sfreq``, channel names, events, event
        id and metadata are used, and with ``indices=None`` its bad channels
        are left out: their connections are 0); or an ``EpochsTFR`` of complex
        Morlet coefficients (``output='complex'``), whose frequencies are used
        and whose coefficients are taken as they are (``decim`` then only
        scales ``sm_times`` and ``padding``, as in MNE-Connectivity).
    freqs : array-like of float or None
        Increasing frequencies in Hz (those in ``[fmin, fmax]`` are used);
        required except for an ``EpochsTFR`` (whose own are used).
    method : str or list of str
        Measures from :data:`METHODS` (MNE-Connectivity's bivariate ones).
    average : bool
        Average the scores over epochs.
    indices : tuple of two array-likes of int, or None
        Seeds and targets of the connections; None: every ``i > j`` (the lower
        triangle), returned as ``n_signals ** 2`` connections.
    sfreq : float
        Sampling frequency in Hz (required for arrays; an MNE object's own is
        used).
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
    mode : {'cwt_morlet', 'multitaper'}
        MNE-Connectivity's spectral mode, whose default here is its default,
        ``'cwt_morlet'``, the only one computed; ``'multitaper'`` is refused by
        a ``ValueError`` that names ``mode='cwt_morlet'``.  Ignored for an
        ``EpochsTFR``, as in MNE-Connectivity.
    mt_bandwidth : float or None
        Multitaper option, accepted for the signature (unused in Morlet mode,
        as in MNE-Connectivity).
    n_cycles : float or array-like of float
        Cycles of each wavelet.
    gc_n_lags, rank, n_components : Any
        Multivariate options, accepted for the signature (unused by the
        bivariate measures, as in MNE-Connectivity).
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
        (:func:`sftwave.mne.tfr_array_morlet`); 1e-5 by default (earlier
        1e-4): the phase measures' largest differences from MNE-Connectivity
        drop from about 5e-4 to 2e-5 at the same cost (see Notes).

    engine : {None, 'auto', 'numba', 'xp', 'cuda'}
        The engine that runs the pair sums, with :func:`sftwave.gaussian_filter`'s
        meaning (None and 'auto': by the array type; the data are taken as a
        numpy array, so 'numba'); an engine without the connectivity
        operations raises :class:`sftwave.engines.UnsupportedOperation`.

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
        methods, ``mode='multitaper'`` and multitaper coefficients,
        ``sm_freqs > 1`` with a phase measure,
        frequency-dependent ``sm_times``, a 2-sample Hann kernel (all zeros:
        MNE-Connectivity returns NaN).
    TypeError
        For complex or non-numeric time series, an ``EpochsTFR`` of real
        values, ``freqs=None`` without an ``EpochsTFR``, and bad ``indices``.

    See Also
    --------
    csd_array_morlet : The cross-spectral density averaged over epochs and time.
    sftwave.mne.tfr_array_morlet : The coefficients themselves.

    Notes
    -----
    Agrees with MNE-Connectivity 0.9 within 1e-3 absolute for every measure
    but ``'pli'`` (``tests/test_connectivity.py``); measured on noise and on
    :func:`sftwave.datasets.eeg_epochs` (20 epochs, 8 channels, 1,000
    samples, 16 frequencies from 3 to 110 Hz, with and without smoothing,
    ``decim``, ``padding`` and frequency-dependent cycles): at most 4e-6 for
    the coherences and 2e-5 for ``'plv'``, ``'ciplv'`` and ``'wpli'``.
    ``'pli'`` averages ``sign(Im S)``: where ``Im S`` is within the
    transform's error of 0 a sign may differ, moving the score by
    ``2 / n`` (``n`` the samples kept; 2e-3 to 4e-3 here).  Its time smoothing (``fftconvolve``
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
    source = connectivity_data(data, indices, "time")
    req = time_request(source, freqs, method, average, indices, sfreq, fmin, fmax, fdecim,
                       faverage, sm_times, sm_freqs, sm_kernel, padding, mode, n_cycles, decim,
                       n_jobs, output, tol, engine)
    values = source.load()
    values = values if source.tfr_freqs is not None else float_epochs(values, "data")
    ops = _Ops(*operations(req.engine, values, "cross_sums", "power_sums", "split_layout",
                           "phase_smoothing", "phase_sums"))
    scores = _scores(values, req, ops)
    n_epochs, n_signals, _ = req.shape
    results = []
    for m in req.methods:
        con = scores[m]
        if req.indices is None:
            full = np.zeros((n_epochs, n_signals, n_signals, req.n_out), con.dtype)
            full[:, req.src, req.tgt] = con
            con = full.reshape(n_epochs, n_signals ** 2, req.n_out)
        if req.average:
            con = con.mean(axis=0)
        results.append(time_object(con, m, req) if req.want_object else con)
    return results[0] if len(results) == 1 else results
