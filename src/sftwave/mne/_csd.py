"""MNE's ``csd_morlet`` on Epochs, computed by :func:`sftwave.connectivity.csd_array_morlet`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._checks.spectral import csd_window_request, epochs_instance_request
from ._objects import instance_kind

if TYPE_CHECKING:
    from mne.time_frequency import CrossSpectralDensity
    from numpy.typing import ArrayLike

__all__ = ["csd_morlet"]


def csd_morlet(epochs: Any, frequencies: ArrayLike, tmin: float | None = None,
               tmax: float | None = None, picks: Any = None, n_cycles: float | ArrayLike = 7,
               use_fft: bool = True, decim: int | slice = 1, projs: list | None = None,
               n_jobs: int | None = None, *, verbose: bool | str | int | None = None,
               tol: float | None = None) -> CrossSpectralDensity:
    """Cross-spectral density of Epochs by Morlet wavelets, as ``mne.time_frequency.csd_morlet``.

    MNE's own preparation (its checks of ``tmin``/``tmax``, its warning for
    epochs neither baseline-corrected nor high-passed, its picks: the good data
    channels by default, its ``projs``), then
    :func:`sftwave.connectivity.csd_array_morlet` on the picked epochs, as MNE
    calls its ``csd_array_morlet``.

    Parameters
    ----------
    epochs : Epochs
        MNE's epochs.
    frequencies : list of float
        The frequencies in Hz.
    tmin, tmax : float or None
        The time window (the transform runs on it widened by half the longest
        wavelet, as MNE's).
    picks : str, array-like, slice or None
        The channels; None: the good data channels.
    n_cycles : float or list of float
        Cycles of each wavelet.
    use_fft : bool
        Accepted for MNE's signature.
    decim : int or slice
        Decimation of the coefficients.
    projs : list of Projection or None
        Stored in the result (None: the epochs' own).
    n_jobs : int or None
        sftwave's threads.
    verbose : bool, str, int or None
        Accepted for MNE's signature.
    tol : float or None
        sftwave's accuracy target (None: :func:`sftwave.connectivity.csd_array_morlet`'s
        default).

    Returns
    -------
    CrossSpectralDensity
        MNE's object.

    Raises
    ------
    ValueError
        MNE's refusals of ``tmin``/``tmax`` and of the transform's arguments.
    TypeError
        For ``epochs`` that are not MNE's Epochs.

    See Also
    --------
    sftwave.connectivity.csd_array_morlet : The array function.

    Examples
    --------
    >>> import mne
    >>> from sftwave.datasets import eeg_epochs
    >>> d = eeg_epochs(n_epochs=5, n_channels=4, n_times=500)
    >>> info = mne.create_info(list(d.ch_names), d.sfreq, "eeg")
    >>> epochs = mne.EpochsArray(d.data * 1e-6, info, tmin=d.times[0], baseline=(None, 0),
    ...                          verbose=False)
    >>> csd = csd_morlet(epochs, [10.0, 20.0], n_cycles=5.0)
    >>> csd.get_data(10.0).shape
    (4, 4)
    """
    from mne._fiff.pick import _picks_to_idx
    from mne.utils import warn

    from ..connectivity import csd_array_morlet

    epochs_instance_request(instance_kind(epochs), type(epochs).__name__)
    csd_window_request(epochs.times, tmin, tmax)
    if epochs.baseline is None and epochs.info["highpass"] < 0.1:
        warn("Epochs are not baseline corrected or enough highpass filtered. "
             "Cross-spectral density may be inaccurate.")
    picked = epochs.copy().pick(_picks_to_idx(epochs.info, picks, "data", with_ref_meg=False))
    extra: dict[str, Any] = {} if tol is None else {"tol": tol}
    return csd_array_morlet(picked.get_data(copy=False), sfreq=picked.info["sfreq"],
                            frequencies=frequencies, t0=picked.tmin, tmin=tmin, tmax=tmax,
                            ch_names=picked.ch_names, n_cycles=n_cycles, use_fft=use_fft,
                            decim=decim, projs=picked.info["projs"] if projs is None else projs,
                            n_jobs=n_jobs, verbose=verbose, output="object", **extra)
