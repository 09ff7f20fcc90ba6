"""mne-connectivity's Morlet mode, routed to :mod:`sftwave.connectivity`.

``spectral_connectivity_epochs`` and ``spectral_connectivity_time`` are
replaced in every module of mne-connectivity that holds them (the defining
module, ``mne_connectivity.spectral``, the package, and
``mne_connectivity.effective``, whose ``phase_slope_index`` calls the first).
A call is routed only where sftwave's request for it builds: Morlet mode
(``mode='cwt_morlet'``, or an ``EpochsTFR`` of complex Morlet coefficients),
a bivariate measure sftwave computes, arguments it covers.  The default mode
of ``spectral_connectivity_epochs`` (multitaper), ``'fourier'``, spectra, the
multivariate measures, custom estimator classes, a generator (which only
reading could inspect, and reading would consume), an unknown keyword or
anything else the request refuses goes to the original function unchanged.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

from ..route import Route

__all__ = ["routes", "accepts_epochs", "accepts_time"]

#: sftwave's own keywords, which the originals do not take (a call with them is not theirs).
_OWN = ("output", "tol", "engine")


def _anchor_signature(function: Any) -> inspect.Signature:
    """``function``'s signature without sftwave's own keywords: the original's."""
    sig = inspect.signature(function)
    return sig.replace(parameters=[p for n, p in sig.parameters.items() if n not in _OWN])


def _bound(function: Any, args: tuple, kwargs: dict) -> dict[str, Any] | None:
    """The call's arguments by name, defaults applied; None where the original would refuse
    the call's shape (a missing or unknown argument)."""
    try:
        bound = _anchor_signature(function).bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return dict(bound.arguments)


def _builds(build: Any) -> bool:
    """Whether the request builds (its warnings, which the original also gives, silenced)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            build()
    except Exception:      # any refusal: the original decides what such a call means
        return False
    return True


def accepts_epochs(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``mne_connectivity.spectral_connectivity_epochs`` is sftwave's.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.zeros((3, 2, 500))
    >>> accepts_epochs(x, sfreq=250.0, mode="cwt_morlet", cwt_freqs=np.array([10.0]))
    True
    >>> accepts_epochs(x, sfreq=250.0)              # the default mode: multitaper
    False
    """
    from ..._checks.connectivity import epochs_request
    from ..._checks.connectivity_data import connectivity_data, is_one_shot
    from ...connectivity import spectral_connectivity_epochs

    a = _bound(spectral_connectivity_epochs, args, kwargs)
    if a is None or is_one_shot(a["data"]):
        return False

    def build() -> None:
        source = connectivity_data(a["data"], a["indices"], "epochs")
        epochs_request(source, a["names"], a["method"], a["indices"], a["sfreq"], a["mode"],
                       a["fmin"], a["fmax"], a["fdecim"], a["faverage"], a["tmin"], a["tmax"],
                       a["cwt_freqs"], a["cwt_n_cycles"], a["n_jobs"], "object", 1e-5, None)

    return _builds(build)


def accepts_time(*args: Any, **kwargs: Any) -> bool:
    """Whether a call of ``mne_connectivity.spectral_connectivity_time`` is sftwave's.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.zeros((3, 2, 500))
    >>> accepts_time(x, freqs=[10.0, 20.0], sfreq=250.0)      # its default mode: cwt_morlet
    True
    >>> accepts_time(x, freqs=[10.0], sfreq=250.0, mode="multitaper")
    False
    """
    from ..._checks.connectivity import time_request
    from ..._checks.connectivity_data import connectivity_data, is_one_shot
    from ...connectivity import spectral_connectivity_time

    a = _bound(spectral_connectivity_time, args, kwargs)
    if a is None or is_one_shot(a["data"]) or isinstance(a["data"], (list, tuple)):
        return False       # (lists: MNE-Connectivity refuses them; sftwave takes them)

    def build() -> None:
        source = connectivity_data(a["data"], a["indices"], "time")
        time_request(source, a["freqs"], a["method"], a["average"], a["indices"], a["sfreq"],
                     a["fmin"], a["fmax"], a["fdecim"], a["faverage"], a["sm_times"],
                     a["sm_freqs"], a["sm_kernel"], a["padding"], a["mode"], a["n_cycles"],
                     a["decim"], a["n_jobs"], "object", 1e-5, None)

    return _builds(build)


def routes() -> list[Route]:
    """mne-connectivity's two spectral functions, in Morlet mode, to sftwave's.

    Examples
    --------
    >>> [r.name for r in routes()]
    ['spectral_connectivity_epochs', 'spectral_connectivity_time']
    """
    here = __name__
    return [
        Route("mne_connectivity", "spectral_connectivity_epochs",
              ("mne_connectivity.spectral.epochs", "mne_connectivity.spectral",
               "mne_connectivity", "mne_connectivity.effective"),
              "sftwave.connectivity:spectral_connectivity_epochs", f"{here}:accepts_epochs"),
        Route("mne_connectivity", "spectral_connectivity_time",
              ("mne_connectivity.spectral.time", "mne_connectivity.spectral",
               "mne_connectivity", "mne_connectivity.effective"),
              "sftwave.connectivity:spectral_connectivity_time", f"{here}:accepts_time"),
    ]
