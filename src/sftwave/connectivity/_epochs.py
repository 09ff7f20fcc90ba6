"""MNE-Connectivity's ``spectral_connectivity_epochs`` (Morlet mode): connectivity across epochs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks.connectivity import (
    EpochsRequest,
    check_epoch_result_size,
    epochs_request,
    float_epochs,
)
from .._checks.connectivity_data import connectivity_data
from ..mne._array import tfr_array_morlet
from ._common import kernel_threads, operations, unit_scale
from ._results import epochs_object

if TYPE_CHECKING:
    from mne_connectivity import SpectroTemporalConnectivity
    from numpy.typing import ArrayLike

__all__ = ["spectral_connectivity_epochs"]

#: The complex coefficients held at once by :func:`spectral_connectivity_epochs` (bytes): every
#: epoch of the users' workload at 4 frequencies, so that each accumulator is read and written
#: once per block.
_EPOCH_BLOCK_BYTES = 64 << 20


def _blocks(n_epochs: int, n_freqs: int, per_freq: int) -> tuple[int, int]:
    """Frequencies and epochs per block of coefficients.

    Blocks of frequencies with every epoch (each accumulator is then read and
    written once), or of epochs at a few frequencies where every epoch's
    coefficients at those are too many (at least 4 frequencies at once, where
    there are: the transform runs frequencies side by side, and slower with
    fewer).
    """
    group = max(min(4, n_freqs), min(n_freqs, _EPOCH_BLOCK_BYTES // max(1, n_epochs * per_freq)))
    block = max(1, min(n_epochs, _EPOCH_BLOCK_BYTES // (group * per_freq)))
    return group, block


def _accumulate(data: np.ndarray, req: EpochsRequest, slots: np.ndarray, n_rows: int,
                epoch_sums: Callable[..., Any],
                epoch_power_sums: Callable[..., Any]) -> tuple[np.ndarray, np.ndarray | None,
                                                               np.ndarray, np.ndarray]:
    """The sums over epochs of every pair (``acc``) and channel (``psd``, for the coherences),
    per frequency and sample, and the pairs in the numbering of the channels used.

    ``data``: the time series, or the given coefficients (``req.source.tfr_freqs`` not None),
    whose frequencies ``req.freq_mask`` are taken as they are."""
    n_epochs, n_signals, _ = req.shape
    t0, t1 = req.window
    n_times, freqs, nc = t1 - t0, req.freqs, req.n_cycles
    used = np.unique(np.r_[req.src, req.tgt])
    where = np.full(n_signals, -1, np.int64)
    where[used] = np.arange(used.size)
    ux, uy = where[req.src], where[req.tgt]
    coherence = bool({"coh", "cohy", "imcoh"} & set(req.methods))
    acc = np.zeros((freqs.size, n_rows, req.src.size, n_times))
    psd = np.zeros((freqs.size, used.size, n_times)) if coherence else None
    group, block = _blocks(n_epochs, freqs.size, used.size * n_times * 16)
    given = req.source.tfr_freqs is not None
    if given:   # (every measure is a ratio: the same bits at any power of two)
        scaled, _ = unit_scale(data[:, used][:, :, req.freq_mask][..., t0:t1])
    else:
        scaled, _ = unit_scale(data[:, used, t0:t1])
    with kernel_threads(req.workers):     # the kernels' threads (the transform's: its n_jobs)
        for f0 in range(0, freqs.size, group):
            f1 = min(freqs.size, f0 + group)
            for e0 in range(0, n_epochs, block):
                if given:
                    y = np.ascontiguousarray(scaled[e0:e0 + block, :, f0:f1], np.complex128)
                else:
                    y = tfr_array_morlet(scaled[e0:e0 + block], req.sfreq, freqs[f0:f1],
                                         n_cycles=nc[f0:f1], zero_mean=True, output="complex",
                                         n_jobs=req.workers, tol=req.tol)
                if req.src.size:
                    epoch_sums(y, ux, uy, slots, acc[f0:f1])
                if psd is not None:
                    epoch_power_sums(y, psd[f0:f1])
                del y
    return acc, psd, ux, uy


def spectral_connectivity_epochs(
        data: ArrayLike, names: list | None = None, method: str | list[str] = "coh",
        indices: tuple | None = None, sfreq: float | None = None, *, mode: str = "multitaper",
        fmin: Any = None, fmax: Any = np.inf, fdecim: int = 1, faverage: bool = False,
        tmin: float | None = None, tmax: float | None = None, mt_bandwidth: Any = None,
        mt_adaptive: bool = False, mt_low_bias: bool = True, cwt_freqs: ArrayLike | None = None,
        cwt_n_cycles: float | ArrayLike = 7, gc_n_lags: int = 40, rank: Any = None,
        n_components: int = 1, block_size: int = 1000, n_jobs: int | None = 1,
        verbose: Any = None, output: str = "auto", tol: float = 1e-5, engine: str | None = None
) -> SpectroTemporalConnectivity | np.ndarray | list[SpectroTemporalConnectivity | np.ndarray]:
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
    data : array, Epochs, EpochsTFR, list or generator
        The epochs, as MNE-Connectivity takes them: an array
        ``(n_epochs, n_signals, n_times)`` (real; integer and bool taken as
        float); MNE's ``Epochs`` (its ``sfreq``, times, channel names, events,
        event id and metadata are used, and with ``indices=None`` its bad
        channels are left out: their connections are 0); an ``EpochsTFR`` of
        complex Morlet coefficients (``output='complex'``; the connectivity is
        taken from them as they are, ``mode``, ``cwt_freqs`` and
        ``cwt_n_cycles`` ignored, as MNE-Connectivity ignores them); a list or
        generator of arrays ``(n_signals, n_times)``, of ``SourceEstimate``
        objects (their times used), or of tuples of them (one epoch's signals,
        stacked).  Spectra (``EpochsSpectrum``) and multitaper coefficients
        are refused (MNE-Connectivity's other modes).
    names : list or None
        The signals' names, stored in the result object (an MNE object's
        channel names take their place, as in MNE-Connectivity).
    method : str or list of str
        Measures from :data:`EPOCH_METHODS` (MNE-Connectivity's bivariate ones).
    indices : tuple of two array-likes of int, or None
        Seeds and targets of the connections; None: every ``i > j`` (the lower
        triangle), returned as ``n_signals ** 2`` connections.
    sfreq : float
        Sampling frequency in Hz (required for arrays; an MNE object's own is
        used).
    mode : {'cwt_morlet', 'multitaper', 'fourier'}
        MNE-Connectivity's spectral mode; sftwave computes ``'cwt_morlet'``
        only.  The default is MNE-Connectivity's, ``'multitaper'``, so that a
        call without ``mode`` means what it means there: it is refused, with
        ``'fourier'``, by a ``ValueError`` that names ``mode='cwt_morlet'``
        (earlier versions computed Morlet without ``mode``).  Ignored for
        an ``EpochsTFR``, as in MNE-Connectivity.
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
        (:func:`sftwave.mne.tfr_array_morlet`); 1e-5 by default, as in
        :func:`spectral_connectivity_time`: the scores are per sample, not
        time means, so the transform's error is not averaged down (the
        phase measures' largest differences from MNE-Connectivity were up to
        about 7e-3 at 1e-4 and 5e-4 at 1e-5 on EEG-like epochs), at about the
        same cost.

    engine : {None, 'auto', 'numba', 'xp', 'cuda'}
        The engine that runs the pair sums, with :func:`sftwave.gaussian_filter`'s
        meaning (None and 'auto': by the array type; the data are taken as a
        numpy array, so 'numba'); an engine without the connectivity
        operations raises :class:`sftwave.engines.UnsupportedOperation`.

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
        ``fdecim``, epochs of different shapes), and for what it computes but
        sftwave does not: its multivariate methods and custom estimator
        classes, ``mode='multitaper'`` (the default) and ``'fourier'``,
        spectra and multitaper coefficients, a
        wavelet longer than the window (MNE warns and computes; sftwave's
        ``tfr_array_morlet`` refuses), a result of more than ``2 ** 31`` values.
    TypeError
        For complex or non-numeric time series, an ``EpochsTFR`` of real
        values, data of another kind, and bad ``indices``.

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
    transform's error of 0 (about ``1e-5 |S|``) in some epoch a sign may
    differ, moving the score by ``1 / n`` to ``2 / n`` (at 2e-5 of the
    samples, measured).  Measured on noise and on
    :func:`sftwave.datasets.eeg_epochs` (12 and 20 epochs, 6 and 8 channels,
    1,000 samples, 3 to 7 cycles): at most 2e-5 for the coherences and
    ``'wpli'``/``'wpli2_debiased'``, 5.2e-4 for ``'plv'``, ``'ciplv'`` and
    ``'ppc'`` (at samples where a channel's coefficient is near 0 in one
    epoch, its phase moves with the transform's error).  An ``EpochsTFR``'s
    coefficients are used as they are: the scores are MNE-Connectivity's to
    rounding (5e-16).  A NaN in an epoch's
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
    >>> con = spectral_connectivity_epochs(data, method="coh", sfreq=250.0, mode="cwt_morlet",
    ...                                    cwt_freqs=np.array([20.0, 40.0]), output="array")
    >>> con.shape                          # 3 ** 2 connections, 2 frequencies, 500 samples
    (9, 2, 500)
    >>> bool(np.median(con.reshape(3, 3, 2, 500)[1, 0]) > 0.6)
    True
    """
    source = connectivity_data(data, indices, "epochs")
    req = epochs_request(source, names, method, indices, sfreq, mode, fmin, fmax, fdecim, faverage,
                         tmin, tmax, cwt_freqs, cwt_n_cycles, n_jobs, output, tol, engine)
    values = source.load()
    values = values if source.tfr_freqs is not None else float_epochs(values, "data")
    layout, epoch_sums, epoch_power_sums, epoch_scores = operations(
        req.engine, values, "epoch_layout", "epoch_sums", "epoch_power_sums", "epoch_scores")
    slots, n_rows = layout(req.methods)
    check_epoch_result_size(req, n_rows)
    acc, psd, ux, uy = _accumulate(values, req, slots, n_rows, epoch_sums, epoch_power_sums)
    n_epochs, n_signals, _ = req.shape
    n_cons, n_times = req.src.size, req.window[1] - req.window[0]
    results = []
    rows_out = req.src * n_signals + req.tgt if req.indices is None else np.arange(n_cons)
    for m in req.methods:
        dtype = np.complex128 if m == "cohy" else np.float64
        con = np.zeros((req.n_full, req.n_out, n_times), dtype)   # (rows not computed: 0, as MNE's)
        if req.faverage:
            by_freq = np.empty((n_cons, req.freqs.size, n_times), dtype)
            epoch_scores(m, acc, slots, psd, ux, uy, n_epochs, np.arange(n_cons), by_freq)
            for k, band in enumerate(req.bands):
                con[rows_out, k] = by_freq[:, band].mean(axis=1)
            del by_freq
        else:
            epoch_scores(m, acc, slots, psd, ux, uy, n_epochs, rows_out, con)
        results.append(epochs_object(con, m, req) if req.want_object else con)
    return results[0] if len(results) == 1 else results
