"""MNE's ``csd_array_morlet``: the cross-spectral density by Morlet wavelets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks.connectivity import csd_request, float_epochs
from ._common import coefficient_blocks, kernel_threads, operations, unit_scale
from ._results import csd_object

if TYPE_CHECKING:
    from mne.time_frequency import CrossSpectralDensity
    from numpy.typing import ArrayLike

__all__ = ["csd_array_morlet"]


def csd_array_morlet(X: ArrayLike, sfreq: float, frequencies: ArrayLike, t0: float = 0,
                     tmin: float | None = None, tmax: float | None = None,
                     ch_names: list[str] | None = None, n_cycles: float | ArrayLike = 7,
                     use_fft: bool = True, decim: int | slice = 1, projs: list | None = None,
                     n_jobs: int | None = None, *, verbose: Any = None,
                     output: str = "auto", tol: float = 1e-4,
                     engine: str | None = None) -> CrossSpectralDensity | np.ndarray:
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

    engine : {None, 'auto', 'numba', 'xp', 'cuda'}
        The engine that runs the pair sums, with :func:`sftwave.gaussian_filter`'s
        meaning (None and 'auto': by the array type; the data are taken as a
        numpy array, so 'numba'); an engine without the connectivity
        operations raises :class:`sftwave.engines.UnsupportedOperation`.

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
    req = csd_request(X, sfreq, frequencies, t0, tmin, tmax, ch_names, n_cycles, decim, projs,
                      n_jobs, output, tol, engine)
    X = float_epochs(X, "X")
    [cross_sums] = operations(req.engine, X, "cross_sums")
    n_epochs, n_chans, _ = X.shape
    rows = np.arange(n_chans)
    X, k2 = unit_scale(X[:, :, req.window[0]:req.window[1]])
    total = np.zeros((req.freqs.size, n_chans, n_chans), np.complex128)
    for _, y in coefficient_blocks(X, req.sfreq, req.freqs, req.n_cycles, req.decim, req.workers,
                                   req.tol):
        y = y[..., req.kept]
        w = np.full(y.shape[-1], 1.0 / (y.shape[-1] * req.sfreq))
        with kernel_threads(req.workers):
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
    return csd_object(total, req) if req.want_object else total
