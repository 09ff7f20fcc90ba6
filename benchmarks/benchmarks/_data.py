"""Seeded inputs shared by the asv benchmarks (no timing here), made once per process.

The arrays are cached: a benchmark must not write into them.
"""

from __future__ import annotations

import functools

import numpy as np

_warmed: set = set()


def warm(key, call) -> None:
    """Make ``call()`` once per process (asv re-runs ``setup`` before every sample).

    The untimed first call compiles the kernels (or loads them from numba's
    cache) and designs the plans, so that no timed call pays for them.
    """
    if key not in _warmed:
        call()
        _warmed.add(key)


@functools.lru_cache(maxsize=16)
def random_walk(n: int, dtype=np.float64, seed: int = 0) -> np.ndarray:
    """A random walk (cumsum of standard normal noise): a 1/f^2 spectrum, as EEG and climate series."""
    return np.cumsum(np.random.default_rng(seed).standard_normal(n)).astype(dtype)


@functools.lru_cache(maxsize=16)
def image(shape: tuple[int, ...], dtype=np.float64, seed: int = 1) -> np.ndarray:
    """A smooth random field (cumsum along every axis), scaled to [0, 1]."""
    a = np.random.default_rng(seed).standard_normal(shape)
    for axis in range(a.ndim):
        a = np.cumsum(a, axis=axis)
    a = (a - a.min()) / (a.max() - a.min())
    return a.astype(dtype)


@functools.lru_cache(maxsize=4)
def epochs(n_epochs: int = 20, n_channels: int = 32, n_times: int = 1000, seed: int = 2) -> np.ndarray:
    """EEG-shaped data, epochs x channels x time, float64."""
    rng = np.random.default_rng(seed)
    shape = (n_epochs, n_channels, n_times)
    return np.cumsum(rng.standard_normal(shape), axis=-1) * 0.1 + rng.standard_normal(shape)


def rel_rmse(y, ref) -> float:
    """sqrt(sum |y - ref|^2 / sum |ref|^2), in float64 / complex128."""
    y = np.asarray(y, dtype=np.complex128)
    ref = np.asarray(ref, dtype=np.complex128)
    return float(np.sqrt(np.sum(np.abs(y - ref) ** 2) / np.sum(np.abs(ref) ** 2)))
