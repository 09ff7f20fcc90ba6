"""The time smoothing of coherence rows whose Gaussian is wider than the record, as a small matrix.

Where a row's Gaussian is many times wider than the ``n`` samples,
:func:`sftwave.gaussian_filter1d` computes its exact limit (a convolution by
FFT, ``sftwave.engines.numba.wide``).  That limit is a linear map ``y = K x``
whose every output ``y[t]`` is a smooth (entire) function of ``t``: ``y`` is,
to rounding, the polynomial through its values at a few dozen nodes.  So
``y = (x @ R.T) @ Q``, ``R`` the rows of ``K`` at the nodes
(:func:`sftwave.plans.coherence.wide_nodes`) and ``Q`` the Lagrange
polynomials of the nodes at every sample
(:func:`sftwave.plans.coherence.interpolation_rows`): ``4 r`` multiply-adds
per sample for ``r`` nodes, against the FFTs of a line three times ``n``
long.  :func:`sftwave.coherence.wct_pairs` smooths every pair's
cross-spectrum so on such rows.

``R`` is read off the filter itself: its columns at the nodes, which equal
its rows there away from the record's two ends in every mode (the kernel
depends on ``|t - s|`` and on ``t + s``), and its columns at the ends (which
``'nearest'`` and ``'mirror'`` weigh apart) give the rows' end values.  The
pair is kept only if it reproduces the filter on probes (the end samples, a
middle one and two random lines) within :data:`~sftwave.plans.coherence.WIDE_RTOL`
of each probe's bound; else (a row that is not in the filter's exact limit,
whose result then depends on the filter's own approximation) the row is left
to the filter.

The pairs ``(R, Q)`` are kept for the next calls (:data:`CACHE_VALUES` values
at most, the least recently used dropped first): a function of the row's
sigma, ``n``, mode, ``tol`` and engine alone, so a call finds the same bits
whether they were built now or before (and a dask graph's tasks of pairs build
them once per process).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from . import engines
from .ndimage import gaussian_filter1d
from .plans.coherence import WIDE_NODE_COUNTS, WIDE_RTOL, interpolation_rows, wide_nodes
from .plans.fit import WidePlan
from .plans.select import select_gaussian

__all__ = ["wide_smoothers", "CACHE_VALUES"]

#: The random probes' seed (the checks are the same on every call).
_PROBE_SEED = 20_240_601
#: The most values (of all the rows' ``R`` and ``Q`` together) kept between calls.
CACHE_VALUES = 8_000_000

#: The most rows kept (those without an interpolation included).
_CACHE_ROWS = 256

_cache: OrderedDict[tuple, tuple[np.ndarray, np.ndarray] | None] = OrderedDict()
_cache_lock = threading.Lock()


def wide_smoothers(sigmas: np.ndarray, n: int, mode: str, tol: float | None,
                   engine: str | None) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """``{row: (R, Q)}`` for the rows whose smoothing by :func:`sftwave.gaussian_filter1d` (sigma
    ``sigmas[row]`` samples, ``mode``, ``cval=0``, ``tol``) is ``(x @ R.T) @ Q`` to rounding.

    Only rows for which the filter takes its exact limit (the plan that
    :func:`sftwave.plans.select_gaussian` chooses for float64 lines on the
    engine) are tried; a row whose interpolation fails its probes is left out.

    Examples
    --------
    >>> import numpy as np
    >>> ops = wide_smoothers(np.array([2.0, 5000.0]), 1000, "reflect", None, None)
    >>> list(ops), ops[1][0].shape[1]
    ([1], 1000)
    """
    name = engines.resolve_engine(engine, np.empty(0))
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    if not engines.CAPABILITIES[name].wide:
        return out
    eng = engines.get(name)
    cost, design = engines.gaussian_figures(eng, np.float64, np.float64, 0, 2)
    for i, s in enumerate(np.asarray(sigmas, dtype=np.float64).tolist()):
        plan = select_gaussian(s, 0, tol=tol, n=n, fir_taps_per_order=cost, wide=True,
                               design_taps_per_order=design)
        if isinstance(plan, WidePlan):
            found = _kept(s, n, mode, tol, name)
            if found is not None:
                out[i] = found
    return out


def _kept(sigma: float, n: int, mode: str, tol: float | None, engine: str
          ) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_interpolated`, from the cache where it holds the row (read-only arrays)."""
    key = (sigma, n, mode, tol, engine)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    found = _interpolated(sigma, n, mode, tol, engine)
    size = 0 if found is None else found[0].size + found[1].size
    if size > CACHE_VALUES:
        return found
    if found is not None:
        for a in found:
            a.setflags(write=False)
    with _cache_lock:
        _cache[key] = found
        total = sum(0 if v is None else v[0].size + v[1].size for v in _cache.values())
        while total > CACHE_VALUES or len(_cache) > _CACHE_ROWS:
            _, old = _cache.popitem(last=False)
            total -= 0 if old is None else old[0].size + old[1].size
    return found


def _interpolated(sigma: float, n: int, mode: str, tol: float | None, engine: str | None
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """The ``(R, Q)`` of one row, or None where no node count passes the probes."""
    def smooth(v: np.ndarray) -> np.ndarray:
        return np.asarray(gaussian_filter1d(v, sigma, axis=-1, mode=mode, cval=0.0, tol=tol,
                                            engine=engine))

    probes = np.zeros((5, n))
    probes[0, 0] = probes[1, n - 1] = probes[2, n // 2] = 1.0
    probes[3:] = np.random.default_rng(_PROBE_SEED).standard_normal((2, n))
    before = np.inf
    exact = None
    for count in WIDE_NODE_COUNTS:
        if 4 * count > n:
            return None
        t = wide_nodes(n, count)
        unit = np.zeros((t.size, n))
        unit[np.arange(t.size), t] = 1.0
        if exact is None:                  # the probes in the same call as the first nodes
            both = smooth(np.concatenate([probes, unit]))
            exact, R = both[:5], both[5:]
            top = float(np.max(np.abs(exact[:3])))       # the kernel's largest value
            if not np.isfinite(both).all() or top == 0.0:
                return None
            bound = WIDE_RTOL * top * np.abs(probes).sum(axis=1)
        else:
            R = smooth(unit)
        R[:, 0] = exact[0, t]              # K[:, t] is K[t, :] but at the two ends
        R[:, n - 1] = exact[1, t]
        Q = interpolation_rows(n, t)
        got = np.einsum("lk,kt->lt", np.einsum("ls,ks->lk", probes, R), Q)   # (no BLAS)
        err = np.max(np.abs(got - exact), axis=1)
        if np.all(err <= bound):
            return R, Q
        worst = float(np.max(err / bound))
        if worst > 0.1 * before:                         # not converging: not the exact limit
            return None
        before = worst
    return None
