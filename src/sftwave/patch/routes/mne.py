"""MNE's Morlet time-frequency path, routed to sftwave.

Three module attributes of MNE carry every Morlet call:

* ``mne.time_frequency.tfr.tfr_array_morlet``: MNE's array function, and the one
  its TFR constructors (``Epochs/Evoked/Raw.compute_tfr``, the legacy
  ``tfr_morlet``) look up when they compute, so routing it routes them all;
* ``mne.time_frequency.tfr._compute_tfr``: what ``tfr_array_morlet`` calls, and
  what ``mne.decoding.TimeFrequency`` imported by name;
* ``mne.time_frequency.csd.csd_array_morlet``: MNE's CSD, which ``csd_morlet``
  calls after preparing the epochs.

Each replacement below has the original's signature exactly and returns what
it returns; each predicate only checks arguments (the request builders of
``sftwave._checks``, and MNE's own type rules where they are stricter than
sftwave's) and is False for anything else: another method, non-numpy or complex
data, non-finite samples (MNE's FFT spreads a NaN over the whole row, sftwave's
transform only as far as the wavelets reach), or arguments MNE would refuse
(MNE raises its own error).
"""

from __future__ import annotations

import inspect
import math
import numbers
from typing import Any

import numpy as np

from ..route import Route
from ..work import CONVOLUTION_S, CONVOLVE_S, ELEMENT_S, WAVELET_CROSSOVER_S

__all__ = ["routes", "tfr_array_morlet", "compute_tfr_array", "csd_array_morlet",
           "accepts_tfr_array_morlet", "accepts_compute_tfr_array", "accepts_csd_array_morlet"]

_HERE = "sftwave.patch.routes.mne"


def routes() -> list[Route]:
    """MNE's routes: ``tfr_array_morlet``, ``_compute_tfr`` and ``csd_array_morlet``.

    Returns
    -------
    list of Route
        One per routed function.

    See Also
    --------
    sftwave.mne.compute_tfr : The object function these routes make MNE's methods equal.

    Examples
    --------
    >>> [r.name for r in routes()]
    ['tfr_array_morlet', '_compute_tfr', 'csd_array_morlet']
    """
    return [
        Route("mne", "tfr_array_morlet", ("mne.time_frequency.tfr", "mne.time_frequency"),
              f"{_HERE}:tfr_array_morlet", f"{_HERE}:accepts_tfr_array_morlet",
              work=f"{_HERE}:work_tfr", crossover=WAVELET_CROSSOVER_S),
        Route("mne", "_compute_tfr", ("mne.time_frequency.tfr", "mne.decoding.time_frequency"),
              f"{_HERE}:compute_tfr_array", f"{_HERE}:accepts_compute_tfr_array",
              work=f"{_HERE}:work_compute_tfr", crossover=WAVELET_CROSSOVER_S),
        Route("mne", "csd_array_morlet", ("mne.time_frequency.csd", "mne.time_frequency"),
              f"{_HERE}:csd_array_morlet", f"{_HERE}:accepts_csd_array_morlet",
              work=f"{_HERE}:work_csd", crossover=WAVELET_CROSSOVER_S),
    ]


# ----------------------------------------------------------------------------- work


def _convolutions(shape: tuple[int, ...], sfreq: Any, freqs: Any, n_cycles: Any) -> float:
    """MNE's seconds for its Morlet convolutions: each signal (all axes but the last) by each
    wavelet, over the signal's length plus the wavelet's (five standard deviations a side),
    and each convolution's set-up."""
    n_signals, n_times = math.prod(shape[:-1]), shape[-1]
    f = np.atleast_1d(np.asarray(freqs, dtype=float))
    cycles = np.broadcast_to(np.asarray(n_cycles, dtype=float), f.shape)
    wavelets = 10 * cycles / (2 * np.pi * f) * float(sfreq)
    return n_signals * float(np.sum(CONVOLVE_S * (n_times + wavelets) + CONVOLUTION_S))


def work_tfr(a: dict[str, Any]) -> float:
    """MNE's estimated seconds for ``tfr_array_morlet`` (:mod:`sftwave.patch.work`)."""
    return _convolutions(np.shape(a["data"]), a["sfreq"], a["freqs"], a["n_cycles"])


def work_compute_tfr(a: dict[str, Any]) -> float:
    """``_compute_tfr`` (``Epochs.compute_tfr``'s, ``tfr_morlet``'s): as ``tfr_array_morlet``."""
    return _convolutions(np.shape(a["epoch_data"]), a["sfreq"], a["freqs"], a["n_cycles"])


def work_csd(a: dict[str, Any]) -> float:
    """``csd_array_morlet``: the transforms, then a product per channel pair, frequency and
    sample."""
    shape = np.shape(a["X"])
    f = np.atleast_1d(a["frequencies"])
    pairs = math.prod(shape[:-2]) * shape[-2] ** 2 * f.size * shape[-1] / max(int(a["decim"]), 1)
    return _convolutions(shape, a["sfreq"], f, a["n_cycles"]) + pairs * ELEMENT_S


# ----------------------------------------------------------------------------- replacements

def tfr_array_morlet(data: Any, sfreq: Any, freqs: Any, n_cycles: Any = 7.0, zero_mean: Any = True,
                     use_fft: Any = True, decim: Any = 1, output: Any = "complex", n_jobs: Any = None,
                     *, verbose: Any = None) -> np.ndarray:
    """``mne.time_frequency.tfr_array_morlet``'s signature; :func:`sftwave.mne.tfr_array_morlet`.

    Parameters
    ----------
    data, sfreq, freqs, n_cycles, zero_mean, use_fft, decim, output, n_jobs, verbose
        MNE's.

    Returns
    -------
    ndarray
        What MNE's function returns.

    See Also
    --------
    sftwave.mne.tfr_array_morlet : The function called.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((2, 1, 500))
    >>> tfr_array_morlet(x, 250.0, [10.0, 20.0], 5.0, output="itc").shape
    (1, 2, 500)
    """
    from ...mne import tfr_array_morlet as _sft_tfr_array_morlet  # on a routed call only

    return _sft_tfr_array_morlet(data, sfreq, freqs, n_cycles, zero_mean, use_fft, decim, output,
                                 n_jobs, verbose=verbose)


def compute_tfr_array(epoch_data: Any, freqs: Any, sfreq: Any = 1.0, method: Any = "morlet",
                      n_cycles: Any = 7.0, zero_mean: Any = None, time_bandwidth: Any = None,
                      use_fft: Any = True, decim: Any = 1, output: Any = "complex",
                      return_weights: Any = False, n_jobs: Any = None, *,
                      verbose: Any = None) -> np.ndarray:
    """``mne.time_frequency.tfr._compute_tfr``'s signature, Morlet calls only.

    ``zero_mean=None`` is False for Morlet (MNE's rule); ``return_weights``
    applies to multitaper only, which this does not take.

    Parameters
    ----------
    epoch_data, freqs, sfreq, method, n_cycles, zero_mean, time_bandwidth, use_fft, decim, \
output, return_weights, n_jobs, verbose
        MNE's.

    Returns
    -------
    ndarray
        What MNE's function returns for ``method='morlet'``.

    See Also
    --------
    sftwave.mne.tfr_array_morlet : The function called.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((2, 1, 500))
    >>> compute_tfr_array(x, [10.0], 250.0, output="power").shape
    (2, 1, 1, 500)
    """
    from ...mne import tfr_array_morlet as _sft_tfr_array_morlet  # on a routed call only

    return _sft_tfr_array_morlet(epoch_data, sfreq, freqs, n_cycles,
                                 False if zero_mean is None else zero_mean, use_fft, decim, output,
                                 n_jobs, verbose=verbose)


def csd_array_morlet(X: Any, sfreq: Any, frequencies: Any, t0: Any = 0, tmin: Any = None,
                     tmax: Any = None, ch_names: Any = None, n_cycles: Any = 7, use_fft: Any = True,
                     decim: Any = 1, projs: Any = None, n_jobs: Any = None, *,
                     verbose: Any = None) -> Any:
    """``mne.time_frequency.csd_array_morlet``'s signature; MNE's CrossSpectralDensity.

    Parameters
    ----------
    X, sfreq, frequencies, t0, tmin, tmax, ch_names, n_cycles, use_fft, decim, projs, n_jobs, \
verbose
        MNE's.

    Returns
    -------
    CrossSpectralDensity
        What MNE's function returns.

    See Also
    --------
    sftwave.connectivity.csd_array_morlet : The function called.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal((2, 3, 500))
    >>> csd_array_morlet(x, 250.0, [10.0, 20.0], n_cycles=5.0).get_data(10.0).shape
    (3, 3)
    """
    from ...connectivity import csd_array_morlet as _sft_csd_array_morlet  # on a routed call only

    return _sft_csd_array_morlet(X, sfreq, frequencies, t0, tmin, tmax, ch_names, n_cycles, use_fft,
                                 decim, projs, n_jobs, verbose=verbose, output="object")


# ----------------------------------------------------------------------------- predicates

_TFR_SIGNATURE = inspect.signature(tfr_array_morlet)
_COMPUTE_SIGNATURE = inspect.signature(compute_tfr_array)
_CSD_SIGNATURE = inspect.signature(csd_array_morlet)


def _arguments(signature: inspect.Signature, args: tuple, kwargs: dict) -> dict[str, Any] | None:
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return dict(bound.arguments)


def _real_epochs(x: Any) -> bool:
    """A numpy array of MNE's epochs sftwave covers: 3-D, float32/64 or integer, all finite."""
    if type(x) is not np.ndarray or x.ndim != 3:
        return False
    if x.dtype.kind not in "iu" and x.dtype not in (np.float32, np.float64):
        return False
    return bool(np.isfinite(x).all())


def _mne_types(a: dict[str, Any]) -> bool:
    """MNE's own type rules where they are stricter than sftwave's parsers (its ``isinstance``
    on built-in types: a numpy scalar ``sfreq``, ``n_cycles`` or ``decim`` is refused by MNE)."""
    nc = a["n_cycles"]
    return (isinstance(a["sfreq"], (float, int)) and not isinstance(a["sfreq"], bool)
            and (isinstance(nc, (list, np.ndarray)) or (isinstance(nc, (float, int))
                                                         and not isinstance(nc, bool)))
            and (isinstance(a["decim"], slice) or (isinstance(a["decim"], int)
                                                   and not isinstance(a["decim"], bool)))
            and isinstance(a["freqs"], (list, np.ndarray)))


def _tfr_in_scope(data: Any, a: dict[str, Any], zero_mean: Any) -> bool:
    from ..._checks.spectral import tfr_request

    if not _real_epochs(data) or not _mne_types(a):
        return False
    if a["n_jobs"] is not None and not isinstance(a["n_jobs"], numbers.Integral):
        return False
    try:
        tfr_request(data, a["sfreq"], a["freqs"], a["n_cycles"], zero_mean, a["use_fft"],
                    a["decim"], a["output"], a["n_jobs"], None)
    except (ValueError, TypeError):
        return False
    return True


def accepts_tfr_array_morlet(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of MNE's ``tfr_array_morlet`` is in sftwave's scope (checks only).

    Parameters
    ----------
    *args, **kwargs
        The call's arguments.

    Returns
    -------
    bool
        True where :func:`tfr_array_morlet` gives MNE's result within the documented bounds.

    See Also
    --------
    tfr_array_morlet : The replacement.

    Examples
    --------
    >>> x = np.zeros((1, 2, 500))
    >>> accepts_tfr_array_morlet(x, 250.0, [10.0], output="power")
    True
    >>> accepts_tfr_array_morlet(x.astype(complex), 250.0, [10.0])
    False
    """
    a = _arguments(_TFR_SIGNATURE, args, kwargs)
    return a is not None and _tfr_in_scope(a["data"], a, a["zero_mean"])


def accepts_compute_tfr_array(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of MNE's ``_compute_tfr`` is in sftwave's scope: Morlet, checks only.

    Parameters
    ----------
    *args, **kwargs
        The call's arguments.

    Returns
    -------
    bool
        False for ``method='multitaper'`` and for any ``time_bandwidth``.

    See Also
    --------
    compute_tfr_array : The replacement.

    Examples
    --------
    >>> x = np.zeros((1, 2, 500))
    >>> accepts_compute_tfr_array(x, [10.0], 250.0), accepts_compute_tfr_array(
    ...     x, [10.0], 250.0, method="multitaper")
    (True, False)
    """
    from ..._checks.spectral import MNE_MORLET

    a = _arguments(_COMPUTE_SIGNATURE, args, kwargs)
    if a is None or a["method"] != MNE_MORLET or a["time_bandwidth"] is not None:
        return False
    zero_mean = False if a["zero_mean"] is None else a["zero_mean"]
    return _tfr_in_scope(a["epoch_data"], a, zero_mean)


def accepts_csd_array_morlet(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of MNE's ``csd_array_morlet`` is in sftwave's scope (checks only).

    Parameters
    ----------
    *args, **kwargs
        The call's arguments.

    Returns
    -------
    bool
        True for finite real numpy epochs and arguments sftwave's request takes.

    See Also
    --------
    csd_array_morlet : The replacement.

    Examples
    --------
    >>> x = np.zeros((1, 2, 500))
    >>> accepts_csd_array_morlet(x, 250.0, [10.0, 20.0]), accepts_csd_array_morlet(x.tolist(),
    ...                                                                            250.0, [10.0])
    (True, False)
    """
    from ..._checks.connectivity import csd_request

    a = _arguments(_CSD_SIGNATURE, args, kwargs)
    if a is None or not _real_epochs(a["X"]):
        return False
    if not isinstance(a["sfreq"], numbers.Real) or isinstance(a["sfreq"], bool):
        return False
    try:
        csd_request(a["X"], a["sfreq"], a["frequencies"], a["t0"], a["tmin"], a["tmax"],
                    a["ch_names"], a["n_cycles"], a["decim"], a["projs"], a["n_jobs"], "object",
                    None, None)
    except (ValueError, TypeError):
        return False
    return True
