"""The planning of :mod:`sftwave.coherence`: the scale smoothing's weights and the Monte-Carlo
rows' strides, end weights and cone, pure numpy from the rows' scales.

Examples
--------
>>> import numpy as np
>>> B = scale_weights(np.array([4.0, 8.0, 16.0]), "grinsted")
>>> B.shape, bool(np.allclose(B.sum(axis=1), 1.0))
((3, 3), True)
>>> mc_strides(np.array([2.0, 40.0, 400.0]), 1000, "constant").tolist()
[1, 8, 64]
"""

from __future__ import annotations

import math

import numpy as np

from .._checks.coherence import check_pycwt_rows
from .families import Morlet

__all__ = ["scale_weights", "outside_coi", "coi_bounds", "mc_strides", "mc_nodes", "mc_weights",
           "MC_SAMPLES_PER_SCALE", "MC_MIN_NODES", "MC_END_DEGREE", "pair_lines", "pair_chunks", "pair_groups",
           "ar1_groups", "PAIR_CHUNK_VALUES", "WIDE_NODE_COUNTS", "WIDE_RTOL", "wide_nodes",
           "interpolation_rows"]


def scale_weights(sigmas: np.ndarray, smoothing: str, width: float = Morlet.DELTAJ0) -> np.ndarray:
    """The ``(m, m)`` matrix of the scale smoothing of rows of scales ``sigmas``.

    ``'grinsted'``: row ``i`` averages the rows ``j`` by the length of the
    intersection of ``j``'s cell on the ``log2`` scale axis (from the midpoints
    to its neighbours; the end rows' cells extend half a spacing outward) with
    ``[u_i - width / 2, u_i + width / 2]``, normalised to sum 1.  ``'pycwt'``:
    pycwt's kernel ``rect(round(2 width / dj))`` by ``scipy.signal.convolve2d``
    ``'same'`` (zeros beyond the ends), which needs log-uniform rows.
    """
    u = np.log2(sigmas)
    m = u.size
    if smoothing == "pycwt":
        if m == 1:
            return np.ones((1, 1))
        dj = check_pycwt_rows(sigmas)
        k = int(np.round(2 * width / dj))
        if k < 1:
            return np.eye(m)
        win = np.ones(k)
        win[0] = win[-1] = 0.5
        win /= win.sum()
        from scipy.signal import convolve2d
        return convolve2d(np.eye(m), win[:, None], "same")
    order = np.argsort(u, kind="stable")
    us = u[order]
    if m == 1:
        lo = us - 0.5
        hi = us + 0.5
    else:
        mid = 0.5 * (us[1:] + us[:-1])
        lo = np.r_[us[0] - (mid[0] - us[0]), mid]
        hi = np.r_[mid, us[-1] + (us[-1] - mid[-1])]
    ws = np.clip(np.minimum(hi[None, :], us[:, None] + width / 2)
                 - np.maximum(lo[None, :], us[:, None] - width / 2), 0.0, None)
    ws[np.arange(m), np.arange(m)] = np.maximum(ws[np.arange(m), np.arange(m)], 1e-300)
    ws /= ws.sum(axis=1, keepdims=True)
    out = np.empty_like(ws)
    out[np.ix_(order, order)] = ws
    return out


def outside_coi(sig: np.ndarray, n: int) -> np.ndarray:
    """Per row, True at the samples outside the cone (pycwt's ``period <= coi``)."""
    k = np.arange(n)
    dist = np.minimum(k, n - 1 - k) + 0.5
    return math.sqrt(2.0) * sig[:, None] <= dist[None, :]


def coi_bounds(sig: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the samples ``[lo, hi)`` outside the cone (those of :func:`outside_coi`)."""
    lo = np.maximum(np.ceil(math.sqrt(2.0) * sig - 0.5), 0).astype(np.int64)
    hi = np.maximum(n - lo, lo)
    return lo, hi


#: The Monte-Carlo rows keep every ``c``-th sample, ``c`` the largest power of two with at
#: least this many samples per scale (``mode='constant'`` only).
MC_SAMPLES_PER_SCALE = 4
#: A strided row keeps at least this many samples (so that its two ends' corrections,
#: :data:`MC_END_DEGREE` + 1 samples each, do not meet).
MC_MIN_NODES = 16
#: The degree of the polynomials that a strided row's end weights sum exactly.
MC_END_DEGREE = 3

_BERNOULLI = (1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0)      # B_2, B_4, B_6, B_8


def mc_strides(sig: np.ndarray, n: int, mode: str) -> np.ndarray:
    """The stride of each Monte-Carlo row: ``2^floor(log2(s / 4))`` samples (1 below 8).

    Bounded so that a row keeps at least 16 samples of the ``n``; 1 for every
    row unless ``mode='constant'``.
    """
    if mode != "constant":
        return np.ones(sig.size, dtype=np.int64)
    e = np.floor(np.log2(np.maximum(sig / MC_SAMPLES_PER_SCALE, 1.0)))
    top = max(0, int(math.floor(math.log2(max(1.0, (n - 1) / (MC_MIN_NODES - 1))))))
    return (2 ** np.minimum(e, top)).astype(np.int64)


def mc_nodes(n: int, c: int) -> int:
    """The samples ``0, c, .., (K - 1) c`` a row of stride ``c`` keeps: ``K``, the last at or
    beyond ``n - 1`` (so that the record's end lies between kept samples)."""
    return n if c == 1 else -(-(n - 1) // c) + 1


def mc_weights(n: int, c: int, degree: int = MC_END_DEGREE) -> np.ndarray:
    """Weights ``w`` of the kept samples with ``c sum_k w[k] q(k c) = sum_{t < n} q(t)``
    exactly for every polynomial ``q`` of ``degree`` at most 3 (1 inside, end corrections).

    The full-rate sum over the record, of the Gaussian times a spectrum, from
    every ``c``-th sample: the trapezoid rule of step ``c`` with the
    Euler-Maclaurin end terms (the difference between steps 1 and ``c`` at
    each end, and the piece of the last cell beyond the record) matched on
    the first and last ``degree + 1`` samples, as Gregory's rule does.
    """
    from math import factorial
    K = mc_nodes(n, c)
    w = np.ones(K)
    if c == 1:
        return w
    p = int(degree)
    nodes = np.arange(p + 1.0)
    # left end, q(t) = (t / c)^i: (1 - c) / 2 q(0) - sum_j B_2j (1 - c^2j) / (2j)! q^(2j-1)(0)
    D = np.zeros(p + 1)
    D[0] = (1.0 - c) / 2.0
    for j in range(1, (p + 1) // 2 + 1):
        m = 2 * j - 1
        D[m] -= _BERNOULLI[j - 1] * (1.0 - c ** (2 * j)) / factorial(2 * j) * factorial(m) / c ** m
    w[:p + 1] += np.linalg.solve(np.vander(nodes, p + 1, increasing=True).T, D) / c
    # right end, q(t) = ((t - L) / c)^i, L = (K - 1) c, rho = (n - 1 - L) / c in (-1, 0]:
    # int_L^(n-1) q + q(n-1) / 2 - c q(L) / 2 + sum_j B_2j / (2j)! (q^(2j-1)(n-1) - c^2j q^(2j-1)(L))
    rho = (n - 1 - (K - 1) * c) / c
    D = np.zeros(p + 1)
    for i in range(p + 1):
        D[i] = c * rho ** (i + 1) / (i + 1) + 0.5 * rho ** i - (c / 2.0 if i == 0 else 0.0)
        for j in range(1, (p + 1) // 2 + 1):
            m = 2 * j - 1
            b = _BERNOULLI[j - 1] / factorial(2 * j)
            if m <= i:
                D[i] += b * factorial(i) / factorial(i - m) * rho ** (i - m) / c ** m
            if m == i:
                D[i] -= b * c ** (2 * j) * factorial(m) / c ** m
    w[K - p - 1:] += np.linalg.solve(np.vander(nodes - p, p + 1, increasing=True).T, D) / c
    return w


#: The most values of the pairs' cross-spectra (two reals per coefficient) held at once.
PAIR_CHUNK_VALUES = 16_000_000


def pair_lines(seeds: np.ndarray, targets: np.ndarray, channels: int, epochs: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """The transforms' lines of every epoch's pairs, epoch after epoch: line ``e c + seed``.

    Examples
    --------
    >>> [v.tolist() for v in pair_lines(np.array([0]), np.array([2]), 3, 2)]
    [[0, 3], [2, 5]]
    """
    base = (np.arange(epochs, dtype=np.int64) * channels)[:, None]
    return (base + seeds[None, :]).ravel(), (base + targets[None, :]).ravel()


def pair_chunks(total: int, m: int, n: int, budget: int = PAIR_CHUNK_VALUES) -> list[slice]:
    """Consecutive slices of the ``total`` pairs, each holding at most ``budget`` values of
    cross-spectra (``2 m n`` per pair; at least one pair), of near-equal sizes.

    Examples
    --------
    >>> pair_chunks(5, 10, 100, budget=6000)
    [slice(0, 3, None), slice(3, 5, None)]
    """
    per = max(1, budget // max(1, 2 * m * n))
    parts = -(-total // per)
    size = -(-total // parts)
    return [slice(i, min(total, i + size)) for i in range(0, total, size)]


def pair_groups(block_a: np.ndarray, block_b: np.ndarray, most: int) -> list[slice]:
    """Consecutive slices of the pairs, each of at most ``most`` pairs whose lines lie in at
    most two blocks (``block_a``, ``block_b``: each pair's lines' blocks), greedily in order.

    Examples
    --------
    >>> pair_groups(np.array([0, 0, 0, 1]), np.array([0, 1, 2, 2]), 3)
    [slice(0, 2, None), slice(2, 3, None), slice(3, 4, None)]
    """
    out: list[slice] = []
    start, have = 0, set[int]()
    for i, (u, v) in enumerate(zip(block_a.tolist(), block_b.tolist())):
        grown = have | {u, v}
        if i > start and (len(grown) > 2 or i - start >= most):
            out.append(slice(start, i))
            start, grown = i, {u, v}
        have = grown
    if block_a.size:
        out.append(slice(start, block_a.size))
    return out


def ar1_groups(alpha_a: np.ndarray, alpha_b: np.ndarray, decimals: int
               ) -> dict[tuple[float, float], np.ndarray]:
    """The pairs by their channels' AR(1) coefficients rounded to ``decimals`` (clipped to
    ``+-(1 - 10^-decimals)``): ``{(a, b): indices}``; a pair with a NaN coefficient in none.

    Examples
    --------
    >>> g = ar1_groups(np.array([0.701, 0.698, 0.2]), np.array([0.5, 0.5, 0.5]), 2)
    >>> {k: v.tolist() for k, v in g.items()}
    {(0.7, 0.5): [0, 1], (0.2, 0.5): [2]}
    """
    top = 1.0 - 10.0 ** -decimals
    ra = np.clip(np.round(alpha_a, decimals), -top, top)
    rb = np.clip(np.round(alpha_b, decimals), -top, top)
    out: dict[tuple[float, float], list[int]] = {}
    for i, (u, v) in enumerate(zip(ra.tolist(), rb.tolist())):
        if math.isfinite(u) and math.isfinite(v):
            out.setdefault((u, v), []).append(i)
    return {k: np.asarray(v, dtype=np.int64) for k, v in out.items()}


#: The node counts tried in turn for a row whose time smoothing is interpolated
#: (:func:`wide_nodes`): the first whose probes pass is taken, none past one that gains
#: less than a factor ten on the one before.
WIDE_NODE_COUNTS = (24, 32, 48, 64)
#: The interpolated smoothing of a row is taken where its error on every probe is at most
#: this fraction of the probe's bound (the kernel's largest value times the probe's sum of
#: absolute values).
WIDE_RTOL = 1e-14


def wide_nodes(n: int, count: int) -> np.ndarray:
    """``count`` samples of ``0 .. n - 1`` near the Chebyshev points of the first kind (none at an
    end: ``1 .. n - 2``), sorted; fewer where rounding merges some (``n`` small).

    Examples
    --------
    >>> wide_nodes(100, 4).tolist()
    [4, 31, 68, 95]
    """
    k = np.arange(count)
    u = -np.cos((2 * k + 1) * np.pi / (2 * count))
    t = np.round(0.5 * (u + 1.0) * (n - 1)).astype(np.int64)
    return np.unique(np.clip(t, 1, max(1, n - 2)))


def interpolation_rows(n: int, nodes: np.ndarray) -> np.ndarray:
    """``(len(nodes), n)``: row ``k`` is the Lagrange polynomial of node ``k`` at ``0 .. n - 1``.

    ``v @ Q`` is the polynomial of degree ``len(nodes) - 1`` through the values
    ``v`` at the (distinct) nodes, at every sample: the barycentric formula,
    the node's own value exactly at a node.

    Examples
    --------
    >>> Q = interpolation_rows(5, np.array([0, 2, 4]))
    >>> np.round(np.array([0.0, 4.0, 16.0]) @ Q, 12).tolist()      # t ** 2 through three nodes
    [0.0, 1.0, 4.0, 9.0, 16.0]
    """
    scale = 2.0 / max(1, n - 1)
    u = nodes * scale - 1.0
    d = 2.0 * (u[:, None] - u[None, :])
    np.fill_diagonal(d, 1.0)
    logw = -np.sum(np.log(np.abs(d)), axis=1)
    w = np.prod(np.sign(d), axis=1) * np.exp(logw - logw.max())    # the barycentric weights
    D = (np.arange(n) * scale - 1.0)[None, :] - u[:, None]
    at = D == 0.0
    D[at] = 1.0
    Q = w[:, None] / D
    Q /= Q.sum(axis=0, keepdims=True)
    hit = at.any(axis=0)
    Q[:, hit] = at[:, hit]
    return Q
