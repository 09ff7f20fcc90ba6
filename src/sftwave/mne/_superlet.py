"""Superlets in MNE's array layout: ``tfr_array_superlet`` beside ``tfr_array_morlet``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._checks.superlet import tfr_superlet_request
from ..superlets import superlet

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["tfr_array_superlet"]


def tfr_array_superlet(data: ArrayLike, sfreq: float, freqs: ArrayLike, order_max: int, *,
                       order_min: int = 1, c_1: float = 3.0, adaptive: bool = False,
                       multiplicative: bool = True, decim: int = 1, output: str = "power",
                       n_jobs: int | None = None) -> np.ndarray:
    """The superlet power of epochs, in the layout of MNE's ``tfr_array_morlet``.

    :func:`sftwave.superlet` of each epoch and channel with MNE's conventions:
    the epochs padded with zeros (``mode='constant'``), MNE's ``decim`` (an
    integer) and ``n_jobs`` (threads; None or -1: all).  MNE has no superlet of
    its own: this is the array function a script using ``tfr_array_morlet``
    calls the same way.

    Parameters
    ----------
    data : array_like, shape (n_epochs, n_chans, n_times)
        The epochs.
    sfreq : float
        Sampling rate in Hz.
    freqs : array_like
        Frequencies in Hz, each in ``(0, sfreq / 2]``.
    order_max : int
        The highest order of the superlet set (:func:`sftwave.superlet`).
    order_min : int, optional
        The lowest order (default 1).
    c_1 : float, optional
        Cycles of the first-order wavelet (default 3).
    adaptive : bool, optional
        The fractional adaptive superlet (order rising with frequency).
    multiplicative : bool, optional
        Multiplicative (default) or additive superlets.
    decim : int, optional
        Keep every ``decim``-th sample (default 1).
    output : {'power', 'avg_power'}, optional
        The power per epoch (default), or its average over the epochs.
    n_jobs : int or None, optional
        Threads (None or -1: all).

    Returns
    -------
    ndarray
        ``(n_epochs, n_chans, n_freqs, n_times_out)`` for 'power',
        ``(n_chans, n_freqs, n_times_out)`` for 'avg_power'.

    See Also
    --------
    sftwave.superlet : The transform, any layout.
    tfr_array_morlet : MNE's Morlet power, computed by sftwave.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.random.default_rng(0).standard_normal((3, 2, 500))
    >>> tfr_array_superlet(data, 250.0, [10.0, 20.0], 3, output="avg_power").shape
    (2, 2, 500)
    """
    req = tfr_superlet_request(data, output, decim, n_jobs)
    power = superlet(data, freqs, sfreq, order_max=order_max, order_min=order_min, c_1=c_1,
                     adaptive=adaptive, multiplicative=multiplicative, mode="constant",
                     decim=req.decim, workers=req.workers)
    return power.mean(axis=0) if req.output == "avg_power" else power
