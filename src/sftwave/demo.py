"""``python -m sftwave demo``: smooth real data, compare with scipy for accuracy and time.

The data ship with PyWavelets (the ``demo`` extra): the 512 x 512 "camera"
photograph and the 1024-sample ECG of :mod:`pywt.data`.  Two experiments:

1. Blur the image with :func:`sftwave.gaussian_filter` in float32 and float64
   at sigma 2, 8, 32 and 64.
2. Filter a long 1-D signal, the ECG *tiled* (repeated end to end) to
   10**6 samples, with :func:`sftwave.gaussian_filter1d` and its first and
   second derivatives at sigma 32, 128 and 512.

For each case the demo prints the median time of sftwave and of
``scipy.ndimage`` with its defaults (after one warm-up call, which also
compiles sftwave's numba kernels on first use), the speed-up, and three
relative RMSEs ``||a - b|| / ||b||``: sftwave against scipy, and sftwave and
scipy against the exact result.  The exact result is scipy in float64 with
``truncate=12`` (its truncation error is below 1e-30).
"""

from __future__ import annotations

import platform
import statistics
import time
from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np
import scipy
import scipy.ndimage as ndi

import sftwave

__all__ = ["Row", "rel_rmse", "median_time", "image_rows", "signal_rows", "format_rows", "main"]

#: scipy's ``truncate`` for the exact reference.
EXACT_TRUNCATE = 12.0

HEADER = (
    "columns: sftwave and scipy = median time (ms); speed-up = scipy / sftwave; "
    "vs scipy = rel. RMSE of sftwave against scipy's default result;\n"
    "         err sftwave, err scipy = rel. RMSE against the exact result "
    f"(scipy, float64, truncate={EXACT_TRUNCATE:g}); rel. RMSE = ||a - b|| / ||b||"
)


@dataclass(frozen=True)
class Row:
    """One line of the demo's output."""

    case: str
    sigma: float
    t_sftwave: float
    t_scipy: float
    vs_scipy: float
    err_sftwave: float
    err_scipy: float

    @property
    def speedup(self) -> float:
        """scipy's time over sftwave's."""
        return self.t_scipy / self.t_sftwave if self.t_sftwave > 0 else float("inf")


def rel_rmse(a: np.ndarray, ref: np.ndarray) -> float:
    """Relative RMSE ``||a - ref|| / ||ref||``, computed in float64.

    Examples
    --------
    >>> rel_rmse(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    0.0
    """
    a = np.asarray(a, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    return float(np.linalg.norm(a - ref) / np.linalg.norm(ref))


def median_time(func: Callable[[], object], *, budget: float = 0.3, max_runs: int = 5) -> float:
    """Median wall time of ``func()`` in seconds, over 1 to ``max_runs`` calls.

    Stops early once the calls have taken ``budget`` seconds in all; the
    caller does the warm-up call.

    Examples
    --------
    >>> median_time(lambda: None) >= 0.0
    True
    """
    times: list[float] = []
    total = 0.0
    while len(times) < max_runs and (not times or total < budget):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
        total += times[-1]
    return statistics.median(times)


def _compare(case: str, sigma: float, ours: Callable[[], np.ndarray],
             theirs: Callable[[], np.ndarray], exact: np.ndarray) -> Row:
    """Warm up, time and score one case."""
    y_ours = ours()  # warm-up (numba compilation on first use) and result
    y_theirs = theirs()
    return Row(
        case=case,
        sigma=sigma,
        t_sftwave=median_time(ours),
        t_scipy=median_time(theirs),
        vs_scipy=rel_rmse(y_ours, y_theirs),
        err_sftwave=rel_rmse(y_ours, exact),
        err_scipy=rel_rmse(y_theirs, exact),
    )


def image_rows(image: np.ndarray, sigmas: tuple[float, ...],
               dtypes: tuple[type, ...] = (np.float32, np.float64)) -> list[Row]:
    """Blur ``image`` with :func:`sftwave.gaussian_filter` and with scipy.

    Examples
    --------
    >>> rows = image_rows(np.arange(64.0).reshape(8, 8), (1.0,), (np.float64,))
    >>> rows[0].case, rows[0].err_sftwave < 1e-3
    ('image float64', True)
    """
    rows = []
    for sigma in sigmas:
        exact = ndi.gaussian_filter(image.astype(np.float64), sigma, truncate=EXACT_TRUNCATE)
        for dtype in dtypes:
            x = image.astype(dtype)
            rows.append(_compare(
                f"image {np.dtype(dtype).name}", sigma,
                partial(sftwave.gaussian_filter, x, sigma),
                partial(ndi.gaussian_filter, x, sigma),
                exact,
            ))
    return rows


def signal_rows(signal: np.ndarray, sigmas: tuple[float, ...],
                orders: tuple[int, ...] = (0, 1, 2)) -> list[Row]:
    """Filter a 1-D ``signal`` (float64) with :func:`sftwave.gaussian_filter1d` and with scipy."""
    names = {0: "smooth", 1: "1st derivative", 2: "2nd derivative"}
    x = np.asarray(signal, dtype=np.float64)
    rows = []
    for sigma in sigmas:
        for order in orders:
            exact = ndi.gaussian_filter1d(x, sigma, order=order, truncate=EXACT_TRUNCATE)
            rows.append(_compare(
                f"1-D {names[order]}", sigma,
                partial(sftwave.gaussian_filter1d, x, sigma, order=order),
                partial(ndi.gaussian_filter1d, x, sigma, order=order),
                exact,
            ))
    return rows


def format_rows(rows: list[Row]) -> str:
    """The rows as an aligned text table (times in ms, errors in scientific notation).

    Examples
    --------
    >>> format_rows([Row("x", 2.0, 0.001, 0.002, 1e-7, 1e-6, 2e-6)]).splitlines()[1].split()
    ['x', '2', '1.00', '2.00', '2.0', '1.0e-07', '1.0e-06', '2.0e-06']
    """
    head = (f"{'case':<18} {'sigma':>5} {'sftwave':>10} {'scipy':>10} {'speed-up':>8} "
            f"{'vs scipy':>9} {'err sftw':>9} {'err scipy':>9}")
    lines = [head]
    for r in rows:
        lines.append(
            f"{r.case:<18} {r.sigma:>5g} {1e3 * r.t_sftwave:>10.2f} {1e3 * r.t_scipy:>10.2f} "
            f"{r.speedup:>8.1f} {r.vs_scipy:>9.1e} {r.err_sftwave:>9.1e} {r.err_scipy:>9.1e}"
        )
    return "\n".join(lines)


def main(quick: bool = False) -> int:
    """Run the demo and print its tables; returns the exit status.

    Parameters
    ----------
    quick : bool, optional
        A small variant for the tests: a 128 x 128 crop of the image at sigma
        2 and 8 (float64), and the ECG tiled to 20 000 samples at sigma 32.

    Returns
    -------
    int
        0, or 1 if PyWavelets (which ships the data) is not installed.
    """
    try:
        import pywt.data
    except ImportError:
        print("the demo needs PyWavelets for its data: pip install 'sftwave[demo]'")
        return 1

    image = pywt.data.camera()
    ecg = pywt.data.ecg().astype(np.float64)
    if quick:
        image, img_sigmas, dtypes = image[192:320, 192:320], (2.0, 8.0), (np.float64,)
        n_signal, sig_sigmas = 20_000, (32.0,)
    else:
        img_sigmas, dtypes = (2.0, 8.0, 32.0, 64.0), (np.float32, np.float64)
        n_signal, sig_sigmas = 1_000_000, (32.0, 128.0, 512.0)
    signal = np.resize(ecg, n_signal)  # the ECG repeated end to end

    print(f"sftwave {sftwave.__version__}, scipy {scipy.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(HEADER)
    print()
    print(f"(a) pywt.data.camera(), {image.shape[0]} x {image.shape[1]} photograph: "
          "gaussian_filter(image, sigma), mode 'reflect'")
    print(format_rows(image_rows(image, img_sigmas, dtypes)))
    print()
    print(f"(b) pywt.data.ecg() ({ecg.size} samples) tiled to {n_signal} samples: "
          "gaussian_filter1d(signal, sigma, order), float64")
    print(format_rows(signal_rows(signal, sig_sigmas)))
    print()
    print("Small sigma goes to the same direct FIR as scipy (speed-up ~1); beyond it sftwave's time "
          "does not grow with sigma,\nand its result is closer to the exact one than scipy's "
          f"(it aims at {sftwave.ndimage.DEFAULT_TOL_FACTOR:g} times scipy's kernel error at truncate=4).")
    return 0
