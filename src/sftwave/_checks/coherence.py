"""The requests of :mod:`sftwave.coherence`: each entry point's arguments, checked and normalised once.

One builder per public function (:func:`xwt_request`, :func:`wct_request`,
:func:`smooth_request`, :func:`significance_request`) turns its arguments into
a small frozen request: the rows (frequencies, their scales in samples and the
wavelet's ``xi``), the options, and the engine's name (``engine=`` as for
:func:`sftwave.gaussian_filter`, resolved by the public function with
:func:`sftwave.engines.resolve_engine`, which this layer does not import).
A builder raises ``ValueError`` or ``TypeError`` naming the parameter and
echoing the value, and never computes.
The wavelet (``xi``, the Morlet's) is parsed in one place, :func:`checked_scales`.

Examples
--------
>>> import numpy as np
>>> r = wct_request([0.1, 0.2], fs=1.0, xi=6.0, smoothing="grinsted", scale_width=0.6, axis=-1,
...                 mode="reflect", cval=0.0, tol=None, workers=None, nan_policy="propagate",
...                 engine="numba")
>>> r.engine, r.smoothing, r.sigmas.round(2).tolist()
('numba', 'grinsted', [9.55, 4.77])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import check_choice, check_input_array, check_mode, check_positive

__all__ = ["SMOOTHINGS", "XwtRequest", "WctRequest", "SmoothRequest", "SignificanceRequest",
           "xwt_request", "wct_request", "smooth_request", "significance_request",
           "PairsRequest", "pairs_request", "check_channels", "check_channel_shape", "check_indices",
           "checked_scales", "check_pair", "check_pycwt_rows", "check_alpha", "MC_MAX_COUNT",
           "MC_MAX_N", "MC_MAX_BINS"]

#: The scale smoothings :func:`sftwave.coherence.wct` and :func:`sftwave.coherence.smooth` take.
SMOOTHINGS = ("grinsted", "pycwt")
#: The largest number of Monte-Carlo draws and surrogate samples accepted.
MC_MAX_COUNT = 1_000_000
MC_MAX_N = 1 << 24
#: The most histogram bins accepted.
MC_MAX_BINS = 1 << 20


@dataclass(frozen=True, eq=False)
class XwtRequest:
    """The checked arguments of :func:`sftwave.coherence.xwt` (not the signals)."""

    fs: float
    freqs: np.ndarray
    xi: float
    axis: int
    mode: str
    cval: Any
    tol: Any
    workers: Any
    nan_policy: str
    engine: str


@dataclass(frozen=True, eq=False)
class SmoothRequest:
    """The checked arguments of :func:`sftwave.coherence.smooth` (rows, scale boxcar, time boundary)."""

    fs: float
    freqs: np.ndarray
    sigmas: np.ndarray
    xi: float
    smoothing: str
    scale_width: float
    mode: str
    cval: Any
    tol: Any
    engine: str


@dataclass(frozen=True, eq=False)
class WctRequest:
    """The checked arguments of :func:`sftwave.coherence.wct` (not the signals)."""

    fs: float
    freqs: np.ndarray
    sigmas: np.ndarray
    xi: float
    smoothing: str
    scale_width: float
    axis: int
    mode: str
    cval: Any
    tol: Any
    workers: Any
    nan_policy: str
    engine: str


@dataclass(frozen=True, eq=False)
class SignificanceRequest:
    """The checked arguments of :func:`sftwave.coherence.wct_significance`, ``n`` resolved."""

    alphas: tuple[float, float]
    fs: float
    freqs: np.ndarray
    sigmas: np.ndarray
    xi: float
    n: int
    level: float
    mc_count: int
    seed: int
    smoothing: str
    scale_width: float
    mode: str
    nbins: int
    cache: bool
    engine: str


@dataclass(frozen=True, eq=False)
class PairsRequest:
    """The checked arguments of :func:`sftwave.coherence.wct_pairs`: ``wct``'s and the
    significance's (not the signals nor the pairs)."""

    wct: WctRequest
    significance: bool
    level: float
    mc_count: int
    seed: int
    ar1_decimals: int
    cache: bool
    return_cross: bool


def checked_scales(freqs: Any, fs: float, xi: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """Checked rows: frequencies, scales in samples, and the scalar ``xi`` (the one wavelet parser).

    Examples
    --------
    >>> f, s, xi = checked_scales([0.1], 1.0, 6.0)
    >>> f.tolist(), round(float(s[0]), 3), xi
    ([0.1], 9.549, 6.0)
    """
    if np.ndim(xi) != 0:
        raise ValueError(f"xi must be one number for coherence (the cone and the 0.6-octave "
                         f"smoothing are per wavelet); got {xi!r}")
    xi = check_positive(xi, "xi")
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64)) if not isinstance(
        freqs, (str, bytes)) else None
    if f is None or f.ndim != 1:
        raise ValueError(f"freqs must be a positive number or a 1-D sequence of them; got {freqs!r}")
    if f.size == 0 or np.any(~np.isfinite(f)) or np.any(f <= 0):
        raise ValueError(f"freqs must be positive and finite (at least one); got {freqs!r}")
    if np.any(f > fs / 2):
        raise ValueError(f"freqs must not exceed the Nyquist frequency fs/2 = {fs / 2!r}; got "
                         f"{float(f.max())!r}")
    return f, xi * fs / (2.0 * np.pi * f), xi


def check_pycwt_rows(sigmas: np.ndarray) -> float:
    """pycwt's ``dj`` of rows of scales ``sigmas`` (at least 2), which must be log-uniform.

    Examples
    --------
    >>> check_pycwt_rows(np.array([1.0, 2.0, 4.0]))
    1.0
    """
    du = np.diff(np.log2(sigmas))
    dj = float(np.mean(np.abs(du)))
    if not np.allclose(np.abs(du), dj, rtol=1e-6, atol=0) or not (
            np.all(du > 0) or np.all(du < 0)):
        raise ValueError("smoothing='pycwt' needs rows uniformly spaced in log scale (pycwt's "
                         "dj); use smoothing='grinsted' for other rows")
    return dj


def _boxcar(smoothing: Any, scale_width: Any, sigmas: np.ndarray) -> tuple[str, float]:
    smoothing = check_choice(smoothing, SMOOTHINGS, "smoothing")
    width = check_positive(scale_width, "scale_width")
    if smoothing == "pycwt" and sigmas.size > 1:
        check_pycwt_rows(sigmas)          # the rows' check, before any work
    return smoothing, width


def _real_series(v: Any, name: str) -> np.ndarray:
    a = check_input_array(v, name)
    if a.dtype.kind == "c":
        raise TypeError(f"{name} must be real (bool, integer or float); got dtype {a.dtype}")
    if a.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (time); got a scalar")
    return a.astype(np.float64, copy=False)


def check_pair(x: Any, y: Any, axis: Any) -> tuple[np.ndarray, np.ndarray]:
    """``x`` and ``y`` as float64 with time last and their leading axes broadcast against each other.

    Examples
    --------
    >>> a, b = check_pair(np.zeros((2, 5)), np.ones(5), -1)
    >>> a.shape, b.shape
    ((2, 5), (2, 5))
    """
    a = _real_series(x, "x")
    b = _real_series(y, "y")
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an integer; got {axis!r}")
    for v, name in ((a, "x"), (b, "y")):
        if not -v.ndim <= axis < v.ndim:
            raise ValueError(f"axis {axis} is out of bounds for {name} of {v.ndim} dimensions")
    a = np.moveaxis(a, axis, -1)
    b = np.moveaxis(b, axis, -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"x and y must have the same length along axis {axis}; got "
                         f"{a.shape[-1]} and {b.shape[-1]}")
    try:
        lead = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(f"the leading axes of x {a.shape[:-1]} and y {b.shape[:-1]} do not "
                         "broadcast") from None
    n = a.shape[-1]
    return np.broadcast_to(a, lead + (n,)), np.broadcast_to(b, lead + (n,))


def check_alpha(alpha: Any, name: str) -> float:
    """A lag-1 coefficient in ``(-1, 1)``.

    Examples
    --------
    >>> check_alpha(0.5, "alpha_x")
    0.5
    """
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a real number; got {alpha!r}") from None
    if not (math.isfinite(a) and -1.0 < a < 1.0):
        raise ValueError(f"{name} must be a lag-1 coefficient in (-1, 1); got {alpha!r}")
    return a


def xwt_request(freqs: Any, *, fs: Any, xi: Any, axis: Any, mode: Any, cval: Any,
                tol: Any, workers: Any, nan_policy: Any, engine: str) -> XwtRequest:
    """The request of :func:`sftwave.coherence.xwt`.

    ``mode``, ``cval``, ``tol``, ``workers`` and ``nan_policy`` are checked by
    :func:`sftwave.cwt`, which takes them as they are.

    Examples
    --------
    >>> xwt_request(0.25, fs=1.0, xi=6.0, axis=-1, mode="reflect", cval=0.0, tol=None,
    ...             workers=None, nan_policy="propagate", engine="numba").freqs
    array([0.25])
    """
    fs = check_positive(fs, "fs")
    f, _, xi = checked_scales(freqs, fs, xi)
    return XwtRequest(fs, f, xi, axis, mode, cval, tol, workers, nan_policy, engine)


def wct_request(freqs: Any, *, fs: Any, xi: Any, smoothing: Any, scale_width: Any,
                axis: Any, mode: Any, cval: Any, tol: Any, workers: Any, nan_policy: Any,
                engine: str) -> WctRequest:
    """The request of :func:`sftwave.coherence.wct`.

    Examples
    --------
    >>> wct_request([0.1, 0.2], fs=1.0, xi=6.0, smoothing="pycwt",
    ...             scale_width=0.6, axis=-1, mode="reflect", cval=0.0, tol=None, workers=None,
    ...             nan_policy="propagate", engine="numba").smoothing
    'pycwt'
    """
    fs = check_positive(fs, "fs")
    f, sig, xi = checked_scales(freqs, fs, xi)
    smoothing, width = _boxcar(smoothing, scale_width, sig)
    return WctRequest(fs, f, sig, xi, smoothing, width, axis, mode, cval, tol, workers, nan_policy,
                      engine)


def smooth_request(freqs: Any, *, fs: Any, xi: Any, smoothing: Any, scale_width: Any,
                   mode: Any, cval: Any, tol: Any, engine: str) -> SmoothRequest:
    """The request of :func:`sftwave.coherence.smooth`.

    Examples
    --------
    >>> smooth_request(0.1, fs=1.0, xi=6.0, smoothing="grinsted", scale_width=0.6,
    ...                mode="reflect", cval=0.0, tol=None, engine="numba").scale_width
    0.6
    """
    fs = check_positive(fs, "fs")
    f, sig, xi = checked_scales(freqs, fs, xi)
    smoothing = check_choice(smoothing, SMOOTHINGS, "smoothing")
    width = check_positive(scale_width, "scale_width")
    return SmoothRequest(fs, f, sig, xi, smoothing, width, mode, cval, tol,
                         engine)


def _count(v: Any, name: str, hi: int) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
        raise TypeError(f"{name} must be an integer; got {v!r}")
    if not 1 <= v <= hi:
        raise ValueError(f"{name} must be in [1, {hi}]; got {v!r}")
    return int(v)


def significance_request(alpha_x: Any, alpha_y: Any, freqs: Any, *, fs: Any, xi: Any, n: Any,
                         level: Any, mc_count: Any, seed: Any, smoothing: Any, scale_width: Any,
                         mode: Any, nbins: Any, cache: Any, engine: str) -> SignificanceRequest:
    """The request of :func:`sftwave.coherence.wct_significance`; ``n`` None: ``ceil(6 s_max)``.

    Examples
    --------
    >>> r = significance_request(0.5, 0.2, [0.1, 0.2], fs=1.0, xi=6.0, n=None, level=0.95,
    ...                          mc_count=10, seed=0, smoothing="grinsted", scale_width=0.6,
    ...                          mode="constant", nbins=1000, cache=False, engine="numba")
    >>> r.n, r.alphas, r.engine
    (58, (0.5, 0.2), 'numba')
    """
    ax = check_alpha(alpha_x, "alpha_x")
    ay = check_alpha(alpha_y, "alpha_y")
    fs = check_positive(fs, "fs")
    f, sig, xi = checked_scales(freqs, fs, xi)
    smoothing, width = _boxcar(smoothing, scale_width, sig)
    lv = float(level)
    if not 0.0 < lv < 1.0:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    mc_count = _count(mc_count, "mc_count", MC_MAX_COUNT)
    nbins = _count(nbins, "nbins", MC_MAX_BINS)
    if n is None:
        n = int(math.ceil(6 * float(sig.max())))
    elif not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"n must be an integer; got {n!r}")
    if not 2 <= n <= MC_MAX_N:
        raise ValueError(f"n must be in [2, {MC_MAX_N}] samples; got {n!r}")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
    check_mode(mode)          # (kept as spelled: the strides and the cache key read it so)
    return SignificanceRequest((ax, ay), fs, f, sig, xi, int(n), lv, mc_count, int(seed), smoothing,
                               width, str(mode), nbins, bool(cache), engine)


def check_channels(x: Any, axis: Any) -> np.ndarray:
    """``x`` as float64 with time last and the channels on the axis before it: ``(..., c, n)``.

    Examples
    --------
    >>> check_channels(np.zeros((100, 3)), 0).shape
    (3, 100)
    """
    a = _real_series(x, "x")
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an integer; got {axis!r}")
    if not -a.ndim <= axis < a.ndim:
        raise ValueError(f"axis {axis} is out of bounds for x of {a.ndim} dimensions")
    if a.ndim < 2:
        raise ValueError(f"x must have a channel axis and a time axis; got shape {a.shape}")
    return np.moveaxis(a, axis, -1)


def check_channel_shape(shape: tuple, dtype: np.dtype, axis: Any) -> int:
    """The time axis (non-negative) of channels of ``shape`` and ``dtype`` (a lazy array's):
    real, with a channel axis and a time axis.

    Examples
    --------
    >>> check_channel_shape((3, 100), np.dtype(np.float32), -1)
    1
    """
    if dtype.kind not in "biuf":
        raise TypeError(f"x must be real (bool, integer or float); got dtype {dtype}")
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an integer; got {axis!r}")
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"axis {axis} is out of bounds for x of {len(shape)} dimensions")
    if len(shape) < 2:
        raise ValueError(f"x must have a channel axis and a time axis; got shape {shape}")
    return int(axis) % len(shape)


def check_indices(indices: Any, n_channels: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs' ``(seeds, targets)``: ``indices``, or every pair of channels in
    mne-connectivity's order, :func:`numpy.tril_indices` below the diagonal
    (``indices=None``).

    Examples
    --------
    >>> [v.tolist() for v in check_indices(None, 3)]
    [[1, 2, 2], [0, 0, 1]]
    """
    if indices is None:
        if n_channels < 2:
            raise ValueError(f"x must have at least 2 channels for indices=None; got {n_channels}")
        s, t = np.tril_indices(n_channels, -1)
        return s.astype(np.int64), t.astype(np.int64)
    if not isinstance(indices, (tuple, list)) or len(indices) != 2:
        raise ValueError(f"indices must be a pair (seeds, targets) of sequences of channels; got "
                         f"{indices!r}")
    out = []
    for v in indices:
        a = np.asarray(v)
        if a.ndim != 1 or a.size == 0 or a.dtype.kind not in "iu":
            raise ValueError(f"indices must be a pair of non-empty 1-D integer sequences; got "
                             f"{indices!r}")
        if np.any(a < 0) or np.any(a >= n_channels):
            raise ValueError(f"indices must name channels in [0, {n_channels}); got {indices!r}")
        out.append(a.astype(np.int64))
    if out[0].size != out[1].size:
        raise ValueError(f"indices' seeds and targets must be of one length; got {out[0].size} "
                         f"and {out[1].size}")
    return out[0], out[1]


def pairs_request(freqs: Any, *, fs: Any, xi: Any, smoothing: Any, scale_width: Any, axis: Any,
                  mode: Any, cval: Any, tol: Any, workers: Any, nan_policy: Any,
                  significance: Any, level: Any, mc_count: Any, seed: Any, ar1_decimals: Any,
                  cache: Any, return_cross: Any, engine: str) -> PairsRequest:
    """The request of :func:`sftwave.coherence.wct_pairs`.

    Examples
    --------
    >>> r = pairs_request([0.1], fs=1.0, xi=6.0, smoothing="grinsted", scale_width=0.6,
    ...                   axis=-1, mode="reflect", cval=0.0, tol=None, workers=None,
    ...                   nan_policy="propagate", significance=True, level=0.9, mc_count=50,
    ...                   seed=0, ar1_decimals=2, cache=True, return_cross=False,
    ...                   engine="numba")
    >>> r.significance, r.level, r.wct.smoothing
    (True, 0.9, 'grinsted')
    """
    req = wct_request(freqs, fs=fs, xi=xi, smoothing=smoothing, scale_width=scale_width,
                      axis=axis, mode=mode, cval=cval, tol=tol, workers=workers,
                      nan_policy=nan_policy, engine=engine)
    for v, name in ((significance, "significance"), (return_cross, "return_cross")):
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False; got {v!r}")
    try:
        lv = float(level)
    except (TypeError, ValueError):
        raise TypeError(f"level must be a number in (0, 1); got {level!r}") from None
    if not 0.0 < lv < 1.0:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    mc_count = _count(mc_count, "mc_count", MC_MAX_COUNT)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
    if not isinstance(ar1_decimals, (int, np.integer)) or isinstance(ar1_decimals, bool):
        raise TypeError(f"ar1_decimals must be an integer; got {ar1_decimals!r}")
    if not 1 <= ar1_decimals <= 6:
        raise ValueError(f"ar1_decimals must be in [1, 6]; got {ar1_decimals!r}")
    return PairsRequest(req, bool(significance), lv, mc_count, int(seed), int(ar1_decimals),
                        bool(cache), bool(return_cross))
