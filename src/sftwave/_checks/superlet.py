"""The request of :func:`sftwave.superlet`: its arguments, checked and normalised once.

:func:`superlet_request` turns the arguments into a frozen :class:`SuperletRequest`:
the frequencies, the superlet's set (the cycles of each of its Morlet wavelets,
``xi`` in sftwave's terms), the weight of each wavelet in each frequency's
geometric mean (1, a fraction for the fractional adaptive superlet's last
wavelet, or 0), and the options passed on to :func:`sftwave.cwt`.  It reads the
signal's shape and dtype, never holds it, and never computes.

Examples
--------
>>> import numpy as np
>>> r = superlet_request((1000,), np.float64, [10.0, 20.0, 30.0], 250.0, order_max=3,
...                      adaptive=True)
>>> r.cycles.tolist(), r.orders.tolist()
([3.0, 6.0, 9.0], [1.0, 2.0, 3.0])
>>> r.weights.tolist()
[[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import (
    XI_RANGE,
    check_axis,
    check_choice,
    check_cval,
    check_decim,
    check_freqs,
    check_mode,
    check_positive,
    check_tol,
    check_workers,
)

__all__ = ["SUPERLET_OUTPUTS", "SUPERLET_ENGINES", "K_SD", "SuperletRequest", "superlet_request",
           "check_superlet_input", "TFR_SUPERLET_OUTPUTS", "TfrSuperletRequest",
           "tfr_superlet_request"]

#: ``output`` of :func:`sftwave.superlet`: the geometric mean's square or modulus.
SUPERLET_OUTPUTS = ("power", "magnitude")
#: Engines :func:`sftwave.superlet` runs on (numpy in, numpy out).
SUPERLET_ENGINES = (None, "auto", "numba")
#: ``nan_policy`` values (:func:`sftwave.cwt`'s).
_NAN_POLICIES = ("propagate", "omit")
#: Standard deviations of the Gaussian envelope over which a wavelet holds its ``c`` cycles
#: (Moca et al.'s ``k_sd``, Syncopy's ``MorletSL(k_sd=5)``): the envelope's standard deviation
#: is ``c / (K_SD f)`` seconds, so sftwave's ``xi`` is ``2 pi c / K_SD``.
K_SD = 5.0


@dataclass(frozen=True, eq=False)
class SuperletRequest:
    """The checked arguments of :func:`sftwave.superlet` (not the signal).

    ``cycles[j]`` are the cycles of the set's ``j``-th wavelet (order
    ``order_min + j``), ``xis[j]`` the same wavelet's ``xi``
    (``2 pi cycles / K_SD``); ``weights[j, i]`` the exponent of that wavelet's
    modulus in frequency ``i``'s product (1, the fraction of a fractional
    order, or 0), ``orders[i]`` the frequency's (possibly fractional) order,
    so that ``weights[:, i].sum() == orders[i] - order_min + 1``.  ``axis``
    is non-negative, ``single`` whether the result is float32.
    """

    shape: tuple[int, ...]
    fs: float
    freqs: np.ndarray
    orders: np.ndarray
    cycles: np.ndarray
    xis: np.ndarray
    weights: np.ndarray
    output: str
    axis: int
    mode: str
    cval: float
    tol: float | None
    decim: int
    workers: int | None
    nan_policy: str
    min_weight: float
    engine: str | None
    single: bool

    @property
    def out_shape(self) -> tuple[int, ...]:
        """``shape`` without ``axis``, then ``(len(freqs), ceil(n / decim))``."""
        n = self.shape[self.axis]
        rest = tuple(d for i, d in enumerate(self.shape) if i != self.axis)
        return rest + (self.freqs.size, -(-n // self.decim))

    @property
    def dtype(self) -> np.dtype:
        """The result's dtype: float32 for single-precision input, float64 otherwise."""
        return np.dtype(np.float32 if self.single else np.float64)


def check_superlet_input(x: Any) -> np.ndarray:
    """``x`` as an ndarray of a real or complex numeric dtype with at least one axis.

    Examples
    --------
    >>> check_superlet_input([1, 2, 3]).dtype
    dtype('int64')
    """
    try:
        arr = np.asarray(x)
    except ValueError:
        raise ValueError(f"x must be a rectangular array of numbers; got a ragged "
                         f"{type(x).__name__}") from None
    if arr.dtype.kind not in "buifc":
        raise TypeError(f"x must have a numeric dtype; got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError(f"x must have at least one axis; got a scalar {x!r}")
    return arr


def _check_order(value: Any, name: str) -> int:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer; got {value!r}")
    if int(value) < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def adaptive_orders(freqs: np.ndarray, order_min: int, order_max: int) -> np.ndarray:
    """Moca et al.'s eq. 7: the order rises linearly with frequency from ``order_min`` at the
    lowest frequency to ``order_max`` at the highest (Syncopy's ``compute_adaptive_order``).

    Examples
    --------
    >>> adaptive_orders(np.array([10.0, 15.0, 20.0]), 1, 5).tolist()
    [1.0, 3.0, 5.0]
    """
    f_min, f_max = float(freqs.min()), float(freqs.max())
    return order_min + (order_max - order_min) * (freqs - f_min) / (f_max - f_min)


def set_weights(orders: np.ndarray, order_min: int, order_max: int) -> np.ndarray:
    """``weights[j, i]``: the exponent of wavelet ``order_min + j`` in frequency ``i``'s product.

    A frequency of order ``o = o_i + alpha`` (``o_i`` its integer part) takes the
    wavelets ``order_min .. o_i`` whole and wavelet ``o_i + 1`` to the power
    ``alpha`` (the fractional superlet of Moca et al.).

    Examples
    --------
    >>> set_weights(np.array([1.0, 2.5, 3.0]), 1, 3).tolist()
    [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.5, 1.0]]
    """
    j = np.arange(order_min, order_max + 1, dtype=np.float64)[:, None]
    whole = np.floor(orders)[None, :]
    alpha = (orders - np.floor(orders))[None, :]
    return np.where(j <= whole, 1.0, np.where(j == whole + 1, alpha, 0.0))


def _set_cycles(c_1: float, order_min: int, order_max: int, multiplicative: bool) -> np.ndarray:
    """The cycles of wavelets ``order_min .. order_max``: ``c_1 i`` or ``c_1 + i - 1``."""
    i = np.arange(order_min, order_max + 1, dtype=np.float64)
    cycles = c_1 * i if multiplicative else c_1 + i - 1.0
    lo, hi = XI_RANGE
    xi_hi = 2.0 * math.pi * float(cycles[-1]) / K_SD
    if xi_hi > hi or 2.0 * math.pi * float(cycles[0]) / K_SD < lo:
        raise ValueError(
            f"c_1 and order_max must keep every wavelet's cycles in "
            f"[{lo * K_SD / (2 * math.pi):.4g}, {hi * K_SD / (2 * math.pi):.4g}] (the Morlet "
            f"designs' range); got c_1={c_1!r}, order_max={order_max!r}: up to "
            f"{float(cycles[-1])!r} cycles")
    return cycles


def superlet_request(shape: tuple[int, ...], dtype: Any, freqs: Any, fs: Any = 1.0, /, *,
                     order_max: Any, order_min: Any = 1, c_1: Any = 3.0, adaptive: Any = False,
                     multiplicative: Any = True, output: Any = "power", axis: Any = -1,
                     mode: Any = "reflect", cval: Any = 0.0, tol: Any = None, decim: Any = 1,
                     workers: Any = None, nan_policy: Any = "propagate", min_weight: Any = 0.5,
                     engine: Any = None) -> SuperletRequest:
    """The checked request of :func:`sftwave.superlet` on an input of ``shape`` and ``dtype``.

    Raises ``ValueError`` or ``TypeError`` naming the bad argument.

    Examples
    --------
    >>> r = superlet_request((2, 500), np.float32, [5.0, 8.0], 100.0, order_max=4, order_min=2)
    >>> r.cycles.tolist(), r.weights.shape, r.out_shape, r.dtype
    ([6.0, 9.0, 12.0], (3, 2), (2, 2, 500), dtype('float32'))
    """
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    order_max = _check_order(order_max, "order_max")
    order_min = _check_order(order_min, "order_min")
    if order_min > order_max:
        raise ValueError(f"order_min must not exceed order_max ({order_max!r}); got {order_min!r}")
    c_1 = check_positive(c_1, "c_1")
    for name, flag in (("adaptive", adaptive), ("multiplicative", multiplicative)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False; got {flag!r}")
    if adaptive and f.size and float(f.min()) == float(f.max()):
        raise ValueError(f"adaptive=True needs at least two distinct frequencies (the order "
                         f"rises from the lowest to the highest); got freqs={freqs!r}")
    orders = (adaptive_orders(f, order_min, order_max) if adaptive
              else np.full(f.size, float(order_max)))
    cycles = _set_cycles(c_1, order_min, order_max, bool(multiplicative))
    if engine not in SUPERLET_ENGINES:
        raise ValueError(f"engine must be None, 'auto' or 'numba' (numpy arrays); got {engine!r}")
    weight = check_positive(min_weight, "min_weight")
    if weight > 1.0:
        raise ValueError(f"min_weight must be in (0, 1]; got {min_weight!r}")
    kind = np.dtype(dtype)
    return SuperletRequest(
        shape=tuple(shape), fs=fs, freqs=f, orders=orders, cycles=cycles,
        xis=2.0 * math.pi * cycles / K_SD, weights=set_weights(orders, order_min, order_max),
        output=check_choice(output, SUPERLET_OUTPUTS, "output"),
        axis=check_axis(axis, len(shape)), mode=check_mode(mode), cval=check_cval(cval),
        tol=check_tol(tol), decim=check_decim(decim), workers=check_workers(workers),
        nan_policy=check_choice(nan_policy, _NAN_POLICIES, "nan_policy"), min_weight=weight,
        engine=engine, single=kind in (np.float32, np.complex64, np.float16))


#: ``output`` of :func:`sftwave.mne.tfr_array_superlet`: per epoch, or averaged over them.
TFR_SUPERLET_OUTPUTS = ("power", "avg_power")


@dataclass(frozen=True, eq=False)
class TfrSuperletRequest:
    """The checked MNE-style arguments of :func:`sftwave.mne.tfr_array_superlet`: ``workers``
    from MNE's ``n_jobs`` (None: all threads)."""

    output: str
    decim: int
    workers: int | None


def tfr_superlet_request(data: Any, output: Any, decim: Any, n_jobs: Any) -> TfrSuperletRequest:
    """The checks of :func:`sftwave.mne.tfr_array_superlet` beyond :func:`superlet_request`'s.

    Examples
    --------
    >>> tfr_superlet_request(np.zeros((2, 3, 100)), "avg_power", 2, -1)
    TfrSuperletRequest(output='avg_power', decim=2, workers=None)
    """
    shape = np.shape(data)
    if len(shape) != 3:
        raise ValueError(f"data must be of shape (n_epochs, n_chans, n_times); got shape {shape}")
    output = check_choice(output, TFR_SUPERLET_OUTPUTS, "output")
    if n_jobs is not None and (isinstance(n_jobs, (bool, np.bool_))
                               or not isinstance(n_jobs, numbers.Integral)):
        raise TypeError(f"n_jobs must be None or an integer; got {n_jobs!r}")
    workers = None if n_jobs is None or n_jobs == -1 else check_workers(n_jobs, "n_jobs")
    return TfrSuperletRequest(output=output, decim=check_decim(decim), workers=workers)
