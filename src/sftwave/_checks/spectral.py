"""Shared parsers of the spectral families: the sampling rate and the cycles of Morlet wavelets.

One parser of each, for every module that takes them (:mod:`sftwave.mne`,
:mod:`sftwave.connectivity`, and the others as they adopt them).  Where a
module copies another library's signature (MNE's ``tfr_array_morlet``,
MNE-Connectivity's functions) the parser takes that library's wording, chosen
by an argument, so that the same call raises the same message as there.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

__all__ = ["check_sfreq", "check_n_cycles", "TFR_OUTPUTS", "PHASE_OUTPUTS", "TFR_TOL",
           "TFR_TOL_PHASE", "mne_wavelet_lengths", "TfrRequest", "tfr_request", "MORLET_KEYWORDS",
           "MNE_MORLET",
           "ComputeTfrRequest", "compute_tfr_request", "csd_window_request", "tfr_morlet_request",
           "epochs_instance_request", "check_band"]


def check_band(fmin: float, fmax: float, fs: float) -> tuple[float, float]:
    """A band of frequencies: ``0 < fmin < fmax <= fs / 2``.

    Parameters
    ----------
    fmin, fmax : float
        The lowest and the highest frequency.
    fs : float
        The sampling rate.

    Returns
    -------
    tuple of float
        ``(fmin, fmax)``.

    Examples
    --------
    >>> check_band(1.0, 40.0, 100.0)
    (1.0, 40.0)
    """
    if not 0 < fmin < fmax <= fs / 2:
        raise ValueError(f"the band must satisfy 0 < fmin < fmax <= fs/2 = {fs / 2:g}; got "
                         f"fmin={fmin:g}, fmax={fmax:g}")
    return fmin, fmax


def check_sfreq(sfreq: Any, name: str = "sfreq", *, required: bool = False,
                wording: Literal["sftwave", "mne"] = "sftwave") -> float:
    """A sampling rate in Hz as a float.

    Parameters
    ----------
    sfreq : object
        The value given.
    name : str
        The parameter's name, for the messages.
    required : bool
        Whether None is refused with MNE-Connectivity's message ("Sampling
        frequency (sfreq) is required with array input.").
    wording : {'sftwave', 'mne'}
        'sftwave': a real number, positive and finite ("sfreq must be a
        positive number; got ..."); 'mne': MNE's ``tfr_array_morlet`` check, a
        real number (its own message; its range is MNE's Nyquist check of the
        frequencies).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the parameter and echoing the value.

    Examples
    --------
    >>> check_sfreq(250)
    250.0
    >>> check_sfreq(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: sfreq must be a positive number; got -1.0
    """
    if sfreq is None and required:
        raise ValueError("Sampling frequency (sfreq) is required with array input.")
    real = not isinstance(sfreq, bool) and isinstance(sfreq, numbers.Real)
    if wording == "mne":
        if not real:
            raise ValueError(f"{name} must be a float or an int, got {type(sfreq)} instead.")
        return float(sfreq)
    if not real or not sfreq > 0 or not math.isfinite(sfreq):
        raise ValueError(f"{name} must be a positive number; got {sfreq!r}")
    return float(sfreq)


def check_n_cycles(n_cycles: Any, n_freqs: int, name: str = "n_cycles", *,
                   wording: Literal["sftwave", "mne"] = "sftwave", length_message: str | None = None,
                   keep: np.ndarray | None = None) -> np.ndarray:
    """The cycles of each Morlet wavelet (MNE's ``n_cycles``, sftwave's ``xi``): one per frequency.

    Parameters
    ----------
    n_cycles : float or array-like of float
        One value for every frequency, or one per frequency.
    n_freqs : int
        The number of frequencies.
    name : str
        The parameter's name, for the messages.
    wording : {'sftwave', 'mne'}
        'sftwave': any real array-like, flattened, of one or ``n_freqs``
        values.  'mne': MNE's ``tfr_array_morlet`` rules and messages (a real
        number, or a list or array of exactly ``n_freqs`` values, 1-D).
    length_message : str or None
        With 'sftwave', the message for a length that is neither 1 nor
        ``n_freqs``, formatted with ``n`` (the length given) and ``n_freqs``
        (default: MNE-Connectivity's wording).
    keep : boolean ndarray or None
        With 'sftwave', the frequencies kept (a mask over ``n_freqs``): the
        values of the others are dropped before the range check.

    Returns
    -------
    ndarray of float64
        One value per (kept) frequency, positive and finite.

    Raises
    ------
    ValueError
        Naming the parameter and echoing the value.

    Examples
    --------
    >>> check_n_cycles(7, 3)
    array([7., 7., 7.])
    >>> check_n_cycles([5.0, 7.0], 3)
    Traceback (most recent call last):
    ...
    ValueError: n_cycles must be float or an array of length 3 frequencies, got 2 cycles instead.
    """
    if wording == "mne":
        return _mne_n_cycles(n_cycles, n_freqs, name)
    nc = np.array(n_cycles, dtype=float).ravel()
    if nc.size != 1 and nc.size != n_freqs:
        message = length_message or ("{name} must be float or an array of length {n_freqs} "
                                     "frequencies, got {n} cycles instead.")
        raise ValueError(message.format(name=name, n=nc.size, n_freqs=n_freqs))
    if nc.size == 1:
        nc = np.repeat(nc, n_freqs if keep is None else int(np.count_nonzero(keep)))
    elif keep is not None:
        nc = nc[keep]
    if not np.all(np.isfinite(nc) & (nc > 0)):
        raise ValueError(f"{name} must be positive and finite; got {n_cycles!r}")
    return nc


def _mne_n_cycles(n_cycles: Any, n_freqs: int, name: str) -> np.ndarray:
    """MNE's ``n_cycles`` checks, in its order and with its messages."""
    if isinstance(n_cycles, numbers.Real) and not isinstance(n_cycles, bool):
        nc = np.full(n_freqs, float(n_cycles))
    elif isinstance(n_cycles, (list, np.ndarray)):
        nc = np.array(n_cycles, dtype=float)
        if len(nc) != n_freqs:
            raise ValueError(f"{name} must be a float or an array of length {n_freqs} frequencies, "
                             f"got {len(nc)} cycles instead.")
    else:
        raise ValueError(f"{name} must be a float or an array, got {type(n_cycles)} instead.")
    if nc.ndim != 1:
        raise ValueError(f"{name} must be a float or an array of shape (n_freqs,), got shape "
                         f"{nc.shape} instead.")
    bad = ~np.isfinite(nc) | (nc <= 0)
    if bad.any():
        raise ValueError(f"{name} must be positive and finite, got {float(nc[bad][0])!r} instead.")
    return nc


# ----------------------------------------------------------------------------- MNE's tfr_array_morlet

#: MNE's ``output`` values of ``tfr_array_morlet``.
TFR_OUTPUTS = ("complex", "power", "phase", "avg_power", "itc", "avg_power_itc")

#: The outputs whose values depend on the phase of every coefficient, the smallest included
#: (the phase, the inter-trial coherence): their default ``tol`` is the tighter one.
PHASE_OUTPUTS = ("phase", "itc", "avg_power_itc")

#: ``tfr_array_morlet``'s default ``tol``: for :data:`PHASE_OUTPUTS`, and for the others.
TFR_TOL_PHASE, TFR_TOL = 1e-5, 1e-4


def mne_wavelet_lengths(sfreq: float, freqs: np.ndarray, n_cycles: np.ndarray) -> np.ndarray:
    """The number of samples of each of MNE's wavelets, without making them.

    ``np.arange(0, 5 sigma_t, 1 / sfreq)`` has ``ceil(5 sigma_t / (1 / sfreq))``
    samples (numpy's own rule); the wavelet mirrors it around zero.

    Examples
    --------
    >>> f, nc = np.array([8.0, 0.01]), np.array([5.0, 5.0])
    >>> sigma_t = nc[0] / (2 * np.pi * f[0])
    >>> t = np.arange(0.0, 5.0 * sigma_t, 1.0 / 250.0)
    >>> bool(mne_wavelet_lengths(250.0, f, nc)[0] == 2 * t.size - 1)
    True
    >>> float(mne_wavelet_lengths(250.0, f, nc)[1])      # 0.01 Hz: far longer than most signals
    198943.0
    """
    sigma_t = n_cycles / (2.0 * math.pi * freqs)
    half = np.ceil(5.0 * sigma_t / (1.0 / sfreq))      # np.arange(0.0, 5 sigma_t, 1 / sfreq).size
    return np.maximum(2.0 * half - 1.0, 0.0)


@dataclass(frozen=True, eq=False)
class TfrRequest:
    """A checked call of MNE's ``tfr_array_morlet`` (:func:`sftwave.mne.tfr_array_morlet`).

    ``decim`` is a slice (an int ``d`` is ``slice(None, None, d)``), ``workers``
    MNE's ``n_jobs`` as sftwave's threads (None: all), ``tol`` resolved (None:
    :data:`TFR_TOL_PHASE` for :data:`PHASE_OUTPUTS`, :data:`TFR_TOL` otherwise).
    """

    shape: tuple[int, ...]
    sfreq: float
    freqs: np.ndarray
    n_cycles: np.ndarray
    zero_mean: bool
    decim: slice
    output: str
    workers: int | None
    tol: float


def tfr_request(data: Any, sfreq: Any, freqs: Any, n_cycles: Any, zero_mean: Any, use_fft: Any,
                decim: Any, output: Any, n_jobs: Any, tol: Any) -> TfrRequest:
    """MNE's checks of ``tfr_array_morlet``, in MNE's order and with its messages (ValueError).

    And where a wavelet is longer than the signal (MNE's check, made before
    any wavelet is: their number of samples grows with their length).

    Examples
    --------
    >>> req = tfr_request(np.zeros((1, 2, 500)), 250, [10.0, 20.0], 5, True, True, 2, "power",
    ...                   -1, 1e-4)
    >>> req.sfreq, req.n_cycles, req.decim, req.workers
    (250.0, array([5., 5.]), slice(None, None, 2), None)
    """
    data = np.asarray(data)
    if data.ndim != 3:
        raise ValueError("epoch_data must be of shape (n_epochs, n_chans, n_times), got "
                         f"{data.shape}")
    if not isinstance(freqs, (list, np.ndarray)):
        raise ValueError(f"freqs must be an array-like, got {type(freqs)} instead.")
    freqs = np.asarray(freqs, dtype=float)
    if freqs.ndim != 1:
        raise ValueError(f"freqs must be of shape (n_freqs,), got {np.array(freqs.shape)} "
                         "instead.")
    sfreq = check_sfreq(sfreq, wording="mne")
    zero_mean = False if zero_mean is None else zero_mean
    if not isinstance(zero_mean, bool):
        raise ValueError(f"zero_mean should be of type bool, got {type(zero_mean)}. instead")
    n_cycles = check_n_cycles(n_cycles, freqs.size, wording="mne")
    if not isinstance(use_fft, bool):
        raise ValueError(f"use_fft must be a boolean, got {type(use_fft)} instead.")
    if isinstance(decim, numbers.Integral) and not isinstance(decim, bool):
        decim = slice(None, None, int(decim))
    if not isinstance(decim, slice):
        raise ValueError(f"decim must be an integer or a slice, got {type(decim)} instead.")
    if output not in TFR_OUTPUTS:
        raise ValueError(f"Invalid value for the 'output' parameter. Allowed values are "
                         f"{', '.join(repr(o) for o in TFR_OUTPUTS)}, but got {output!r} instead.")
    if np.any(freqs <= 0):
        raise ValueError("all frequencies in 'freqs' must be greater than 0.")
    if (freqs > sfreq / 2.0).any():
        raise ValueError("Cannot compute freq above Nyquist freq of the data "
                         f"({sfreq / 2.0:0.1f} Hz), got {freqs.max():0.1f} Hz")
    length = mne_wavelet_lengths(sfreq, freqs, n_cycles)
    if length.max(initial=0) > data.shape[-1]:
        raise ValueError("At least one of the wavelets is longer than the signal "
                         f"({int(length.max())} > {data.shape[-1]} samples). Use a longer signal or "
                         "shorter wavelets.")
    workers = None if n_jobs is None or n_jobs == -1 else int(n_jobs)
    if tol is None:
        tol = TFR_TOL_PHASE if output in PHASE_OUTPUTS else TFR_TOL
    return TfrRequest(data.shape, sfreq, freqs, n_cycles, zero_mean, decim, output, workers, tol)


# ----------------------------------------------------------------------------- MNE's objects

#: MNE's name of the one ``method`` sftwave computes.
MNE_MORLET = "morlet"

#: The keywords of MNE's ``compute_tfr`` passed on to its Morlet method (``tfr_array_morlet``'s).
MORLET_KEYWORDS = ("n_cycles", "zero_mean", "use_fft")


@dataclass(frozen=True, eq=False)
class ComputeTfrRequest:
    """A checked call of MNE's ``compute_tfr`` with ``method='morlet'`` (:func:`sftwave.mne.compute_tfr`).

    ``kind`` is ``'epochs'``, ``'evoked'`` or ``'raw'``; ``average`` is whether an
    AverageTFR comes from Epochs; ``array_output`` the ``output`` of the array
    function (``'avg_power'`` or ``'avg_power_itc'`` where averaged); ``method_kw``
    the Morlet keywords given (for MNE's constructor); ``tol`` as given (None: by
    ``array_output``, as :func:`tfr_request` resolves it).
    """

    kind: str
    average: bool
    return_itc: bool
    array_output: str
    method_kw: dict[str, Any]
    tol: float | None


def _check_mne_option(name: str, value: Any, allowed: tuple[Any, ...], extra: str = "") -> None:
    """MNE's ``_check_option`` and its message."""
    if value in allowed:
        return
    if len(allowed) == 1:
        options = f"The only allowed value is {allowed[0]!r}"
    elif len(allowed) == 2:
        options = "Allowed values are " + " and ".join(repr(v) for v in allowed)
    else:
        options = ("Allowed values are " + ", ".join(repr(v) for v in allowed[:-1])
                   + f", and {allowed[-1]!r}")
    extra = f" {extra}" if extra else extra
    raise ValueError(f"Invalid value for the '{name}' parameter{extra}. {options}, but got "
                     f"{value!r} instead.")


def compute_tfr_request(kind: str | None, inst_type: str, method: Any, freqs: Any, output: Any,
                        average: Any, return_itc: Any, reject_by_annotation: Any,
                        method_kw: dict[str, Any], tol: Any) -> ComputeTfrRequest:
    """MNE's checks of ``Epochs/Evoked/Raw.compute_tfr`` with its messages, sftwave's scope first.

    ``kind`` is None where ``inst`` is none of MNE's Epochs, Evoked or Raw
    (``inst_type`` its type's name).  The array arguments (``freqs``,
    ``n_cycles``, ``decim``, ...) are checked by :func:`tfr_request` when the
    data are read.

    Examples
    --------
    >>> req = compute_tfr_request("epochs", "EpochsArray", "morlet", [8.0, 12.0], "power", True,
    ...                           True, None, {"n_cycles": 5}, None)
    >>> req.array_output, req.method_kw
    ('avg_power_itc', {'n_cycles': 5})
    >>> compute_tfr_request("epochs", "EpochsArray", "multitaper", [8.0], "power", False, False,
    ...                     None, {}, None)
    Traceback (most recent call last):
    ...
    ValueError: method='multitaper': sftwave computes Morlet wavelets only (method='morlet'); call \
MNE's own compute_tfr for 'multitaper' or 'stockwell'
    """
    if kind is None:
        raise TypeError(f"inst must be an instance of MNE's Epochs, Evoked or Raw, got {inst_type}")
    if method != "morlet":
        raise ValueError(f"method={method!r}: sftwave computes Morlet wavelets only "
                         "(method='morlet'); call MNE's own compute_tfr for 'multitaper' or "
                         "'stockwell'")
    if freqs is None or isinstance(freqs, str):
        raise ValueError(f"freqs must be an array of frequencies in Hz, got {freqs!r}")
    if kind != "raw" and reject_by_annotation is not None:
        raise TypeError("Got unexpected keyword argument reject_by_annotation for TFR method "
                        f'"morlet" ({inst_type}: Raw only).')
    unexpected = [k for k in method_kw if k not in MORLET_KEYWORDS]
    if unexpected:
        raise TypeError(f"Got unexpected keyword argument{'s' if len(unexpected) > 1 else ''} "
                        f"{', '.join(unexpected)} for TFR method \"morlet\".")
    if kind != "epochs" and (average or return_itc):
        raise TypeError(f"average={average!r}, return_itc={return_itc!r}: averaging over epochs "
                        f"applies to Epochs only, got {inst_type}")
    if average:
        _check_mne_option("output", output, ("power",), " when average=True")
        array_output = "avg_power_itc" if return_itc else "avg_power"
    else:
        if return_itc:
            raise ValueError("compute_tfr() got incompatible parameters `average=False` and "
                             "`return_itc=True` (computing ITC requires averaging over epochs).")
        _check_mne_option("output", output, ("power", "phase", "complex"))
        array_output = output
    return ComputeTfrRequest(kind, bool(average), bool(return_itc), array_output,
                             dict(method_kw), tol)


def csd_window_request(times: np.ndarray, tmin: Any, tmax: Any) -> None:
    """MNE's checks of ``csd_morlet``'s ``tmin`` and ``tmax`` against the epochs' times.

    Examples
    --------
    >>> csd_window_request(np.arange(10) / 100.0, 0.05, 0.01)
    Traceback (most recent call last):
    ...
    ValueError: tmax must be larger than tmin
    """
    tstep = times[1] - times[0]
    if tmin is not None and tmin < times[0] - tstep:
        raise ValueError("tmin should be larger than the smallest data time point")
    if tmax is not None and tmax > times[-1] + tstep:
        raise ValueError("tmax should be smaller than the largest data time point")
    if tmax is not None and tmin is not None and tmax < tmin:
        raise ValueError("tmax must be larger than tmin")


def tfr_morlet_request(kind: str | None, inst_type: str, average: Any, return_itc: Any,
                       output: Any) -> bool:
    """MNE's checks of its legacy ``tfr_morlet``; returns ``average`` as MNE takes it (False
    for anything but Epochs, which MNE logs).

    Examples
    --------
    >>> tfr_morlet_request("evoked", "EvokedArray", True, False, "power")
    False
    >>> tfr_morlet_request("epochs", "EpochsArray", True, False, "complex")
    Traceback (most recent call last):
    ...
    ValueError: output must be "power" if average=True
    """
    if kind is None:
        raise TypeError(f"inst must be an instance of MNE's Epochs or Evoked, got {inst_type}")
    average = bool(average) and kind == "epochs"
    if average and output == "complex":
        raise ValueError('output must be "power" if average=True')
    if not average and return_itc:
        raise ValueError("Inter-trial coherence is not supported with average=False")
    return average


def epochs_instance_request(kind: str | None, inst_type: str, name: str = "epochs") -> None:
    """Refuse anything but MNE's Epochs (``kind`` as :func:`compute_tfr_request` takes it).

    Examples
    --------
    >>> epochs_instance_request("evoked", "EvokedArray")
    Traceback (most recent call last):
    ...
    TypeError: epochs must be an instance of MNE's Epochs, got EvokedArray
    """
    if kind != "epochs":
        raise TypeError(f"{name} must be an instance of MNE's Epochs, got {inst_type}")
