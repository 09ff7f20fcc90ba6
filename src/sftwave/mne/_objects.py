"""MNE's ``compute_tfr`` and ``tfr_morlet`` on Epochs, Evoked and Raw, computed by sftwave.

The objects are MNE's own, built by MNE's own constructors (``EpochsTFR``,
``AverageTFR``, ``RawTFR``): picks, bads, ``proj``, ``tmin``/``tmax``, ``decim``,
the info, the times, events, ``event_id``, ``selection``, ``drop_log`` and
metadata are all MNE's handling.  Only the array those constructors compute with
``tfr_array_morlet`` is computed by :func:`sftwave.mne.tfr_array_morlet` instead
(with the same keywords): the instance's ``_compute_tfr`` step, which MNE runs
inside the constructor, is given sftwave's array function for that one call.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .._checks.spectral import compute_tfr_request, tfr_morlet_request
from ._array import tfr_array_morlet

if TYPE_CHECKING:
    from mne.time_frequency import AverageTFR, EpochsTFR, RawTFR
    from numpy.typing import ArrayLike

__all__ = ["compute_tfr", "tfr_morlet", "instance_kind"]


def instance_kind(inst: object) -> str | None:
    """``'epochs'``, ``'evoked'`` or ``'raw'`` for MNE's Epochs, Evoked and Raw; None otherwise.

    Examples
    --------
    >>> instance_kind([1.0, 2.0]) is None
    True
    """
    import sys
    if "mne" not in sys.modules:          # no MNE object can exist before MNE is imported
        return None
    from mne import Evoked
    from mne.epochs import BaseEpochs
    from mne.io import BaseRaw
    for cls, kind in ((BaseEpochs, "epochs"), (Evoked, "evoked"), (BaseRaw, "raw")):
        if isinstance(inst, cls):
            return kind
    return None


def _built_by_mne(cls: Any, tol: float | None, kwargs: dict[str, Any]) -> Any:
    """``cls(**kwargs)``, MNE's constructor, with sftwave's ``tfr_array_morlet`` in its
    ``_compute_tfr`` step (the constructor's ``partial`` of MNE's function, its keywords
    kept, for this instance only; the step is MNE's own otherwise)."""
    obj = cls.__new__(cls)

    def compute(data: Any, n_jobs: Any, verbose: Any) -> None:
        keywords = obj._tfr_func.keywords
        obj._tfr_func = functools.partial(tfr_array_morlet, tol=tol, **keywords)
        cls._compute_tfr(obj, data, n_jobs, verbose)

    obj._compute_tfr = compute          # an instance attribute: looked up before the class's
    try:
        obj.__init__(**kwargs)
    finally:
        obj.__dict__.pop("_compute_tfr", None)
    return obj


def compute_tfr(inst: Any, method: str = "morlet", freqs: ArrayLike | None = None, *,
                tmin: float | None = None, tmax: float | None = None, picks: Any = None,
                proj: bool = False, output: str = "power", average: bool = False,
                return_itc: bool = False, reject_by_annotation: bool | None = None,
                decim: int | slice = 1, n_jobs: int | None = None,
                verbose: bool | str | int | None = None, tol: float | None = None,
                **method_kw: Any) -> EpochsTFR | AverageTFR | RawTFR | tuple[AverageTFR, AverageTFR]:
    """Morlet time-frequency representation of Epochs, Evoked or Raw, as their ``compute_tfr``.

    ``compute_tfr(epochs, "morlet", freqs, n_cycles=...)`` returns what
    ``epochs.compute_tfr("morlet", freqs, n_cycles=...)`` returns: MNE's own
    EpochsTFR, AverageTFR (and the ITC's) or RawTFR, built by MNE's constructors,
    with the coefficients computed by :func:`tfr_array_morlet`.

    Parameters
    ----------
    inst : Epochs, Evoked or Raw
        MNE's object.
    method : {'morlet'}
        Only Morlet wavelets; any other method (MNE's 'multitaper',
        'stockwell') is refused with a message.
    freqs : array-like of float, shape (n_freqs,)
        The frequencies in Hz.
    tmin, tmax : float or None
        The time window (MNE's meaning).
    picks : str, array-like, slice or None
        The channels; None: the good data channels (bads left out), as MNE.
    proj : bool
        Apply the SSP projectors first.
    output : {'power', 'phase', 'complex'}
        Single-trial output (Epochs with ``average=False``, Evoked, Raw); with
        ``average=True`` only 'power'.
    average : bool
        Epochs only: the power averaged over epochs (an AverageTFR).
    return_itc : bool
        Epochs only, with ``average=True``: return ``(power, itc)``.
    reject_by_annotation : bool or None
        Raw only (None: MNE's default, True).
    decim : int or slice
        Decimation of the transform (computed before decimating).
    n_jobs : int or None
        sftwave's threads (None or -1: all); MNE runs processes instead.
    verbose : bool, str, int or None
        MNE's logging level.
    tol : float or None
        sftwave's accuracy target (:func:`tfr_array_morlet`; None: its default
        for the output).
    **method_kw
        ``n_cycles``, ``zero_mean``, ``use_fft`` (:func:`tfr_array_morlet`'s).

    Returns
    -------
    EpochsTFR, AverageTFR, RawTFR or tuple of AverageTFR
        MNE's objects, as ``inst.compute_tfr`` returns them.

    Raises
    ------
    ValueError
        For a method other than 'morlet', and for what MNE refuses (its
        messages).
    TypeError
        For an ``inst`` that is not MNE's Epochs, Evoked or Raw, a keyword MNE's
        Morlet method does not take, or ``average``/``return_itc`` without
        Epochs.

    See Also
    --------
    tfr_morlet : MNE's legacy function.
    tfr_array_morlet : The array function underneath.

    Examples
    --------
    >>> import mne
    >>> from sftwave.datasets import eeg_epochs
    >>> d = eeg_epochs(n_epochs=5, n_channels=4, n_times=500)
    >>> info = mne.create_info(list(d.ch_names), d.sfreq, "eeg")
    >>> epochs = mne.EpochsArray(d.data * 1e-6, info, tmin=d.times[0], verbose=False)
    >>> power, itc = compute_tfr(epochs, "morlet", [8.0, 10.0, 12.0], n_cycles=5.0,
    ...                          average=True, return_itc=True, decim=2)
    >>> type(power).__name__, power.data.shape, itc.data.shape
    ('AverageTFR', (4, 3, 250), (4, 3, 250))
    """
    from mne.time_frequency import AverageTFR, EpochsTFR, RawTFR

    kind = instance_kind(inst)
    req = compute_tfr_request(kind, type(inst).__name__, method, freqs, output, average,
                              return_itc, reject_by_annotation, method_kw, tol)
    kwargs = dict(inst=inst, method="morlet", freqs=freqs, tmin=tmin, tmax=tmax, picks=picks,
                  proj=proj, decim=decim, n_jobs=n_jobs, verbose=verbose, output=req.array_output,
                  **req.method_kw)
    cls: Any = EpochsTFR
    if req.kind == "raw":
        cls = RawTFR
        kwargs["reject_by_annotation"] = True if reject_by_annotation is None else reject_by_annotation
    elif req.kind == "evoked" or req.average:
        cls = AverageTFR
    out = _built_by_mne(cls, req.tol, kwargs)
    if hasattr(out, "_itc"):               # avg_power_itc: MNE's split into two AverageTFR
        itc = out._itc
        del out._itc
        state = out.__getstate__()
        state["data"] = itc
        state["data_type"] = "Inter-trial coherence"
        return out, AverageTFR(inst=state)
    return out


def tfr_morlet(inst: Any, freqs: ArrayLike, n_cycles: float | ArrayLike, use_fft: bool = False,
               return_itc: bool = True, decim: int | slice = 1, n_jobs: int | None = None,
               picks: Any = None, zero_mean: bool = True, average: bool = True,
               output: str = "power", verbose: bool | str | int | None = None, *,
               tol: float | None = None) -> EpochsTFR | AverageTFR | tuple[AverageTFR, AverageTFR]:
    """MNE's legacy ``mne.time_frequency.tfr_morlet``, computed by sftwave.

    The same arguments and returns as MNE's (which calls
    ``inst.compute_tfr("morlet", ...)``; this calls :func:`compute_tfr`).

    Parameters
    ----------
    inst : Epochs or Evoked
        MNE's object (with Evoked, ``average`` is taken as False, as MNE does).
    freqs : array-like of float, shape (n_freqs,)
        The frequencies in Hz.
    n_cycles : float or array-like of float
        Cycles of each wavelet.
    use_fft : bool
        Accepted for MNE's signature (the numbers are the same either way).
    return_itc : bool
        Also return the inter-trial coherence (needs ``average``).
    decim : int or slice
        Decimation of the transform.
    n_jobs : int or None
        sftwave's threads.
    picks : array-like of int or None
        The channels; None: the good data channels.
    zero_mean : bool
        Subtract the wavelet's mean.
    average : bool
        Average the power over epochs.
    output : {'power', 'complex'}
        'complex' needs ``average=False``.
    verbose : bool, str, int or None
        MNE's logging level.
    tol : float or None
        sftwave's accuracy target (:func:`tfr_array_morlet`).

    Returns
    -------
    AverageTFR, EpochsTFR or tuple of AverageTFR
        The power, and with ``return_itc`` the ITC, as MNE's function returns them.

    Raises
    ------
    ValueError
        MNE's: ``output='complex'`` with ``average``, ``return_itc`` without it.

    See Also
    --------
    compute_tfr : The method's form.

    Examples
    --------
    >>> import mne
    >>> from sftwave.datasets import eeg_epochs
    >>> d = eeg_epochs(n_epochs=5, n_channels=4, n_times=500)
    >>> info = mne.create_info(list(d.ch_names), d.sfreq, "eeg")
    >>> epochs = mne.EpochsArray(d.data * 1e-6, info, verbose=False)
    >>> power, itc = tfr_morlet(epochs, [8.0, 10.0, 12.0], n_cycles=5.0)
    >>> power.data.shape, float(itc.data.max()) <= 1.0
    ((4, 3, 500), True)
    """
    kind = instance_kind(inst)
    average = tfr_morlet_request(kind, type(inst).__name__, average, return_itc, output)
    kwargs: dict[str, Any] = dict(picks=picks, decim=decim, output=output, n_cycles=n_cycles,
                                  n_jobs=n_jobs, use_fft=use_fft, zero_mean=zero_mean,
                                  verbose=verbose, tol=tol)
    if kind == "epochs":
        kwargs.update(average=average, return_itc=return_itc)
    return compute_tfr(inst, "morlet", freqs, **kwargs)
